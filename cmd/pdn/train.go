package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"time"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/pdn"
)

func gen(args []string, stdout, stderr io.Writer) error {
	e := experiment.Default()
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	out := fs.String("out", "", "directory to write the bundle to (required)")
	experiment.RegisterFlags(fs, &e, experiment.GroupData)
	if err := parse(fs, args, stderr); err != nil {
		return err
	}
	if *out == "" {
		return usageError{errors.New("flag -out: a directory is required")}
	}
	g, err := datasets.Synthetic(e.Data)
	if err != nil {
		return usageError{err}
	}
	if err := datasets.WriteBundle(*out, g); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s: %v\n", *out, g)
	return nil
}

// result is the -json output; its keys are those of the PyTorch peer.
type result struct {
	Model         string   `json:"model"`
	TestAccuracy  float64  `json:"test_accuracy"`
	TrainAccuracy float64  `json:"train_accuracy"`
	Epochs        int      `json:"epochs"`
	EpochMSMedian float64  `json:"epoch_ms_median"`
	Nodes         int      `json:"nodes"`
	Edges         int      `json:"edges"`
	Threads       int      `json:"threads"`
	WIntra        *float64 `json:"w_intra,omitempty"`
	WInter        *float64 `json:"w_inter,omitempty"`
}

func train(args []string, stdout, stderr io.Writer) error {
	e := experiment.Default()
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	data := fs.String("data", "", "read the graph bundle in this directory instead of generating one")
	asJSON := fs.Bool("json", false, "print one JSON object as the last line of stdout")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	tie := fs.Bool("tie-strength", false, "replace the edge features with the 11 tie-strength scores of Appendix F")
	experiment.RegisterFlags(fs, &e)
	if err := parse(fs, args, stderr); err != nil {
		return err
	}
	if !flagSet(fs, "init-seed") {
		e.Train.Seed = e.Data.Seed // one -seed fixes the whole run
	}
	g, err := loadGraph(fs, *data, e.Data)
	if err != nil {
		return usageError{err}
	}
	if *tie {
		g = datasets.TieStrength(g)
	}
	t, err := pdn.NewTrainer(g, e)
	if err != nil {
		return usageError{err}
	}
	p := newProgress(stderr, e.Train.Epochs, *quiet)
	times := make([]float64, 0, e.Train.Epochs)
	var snap pdn.Snapshot
	for !t.Done() {
		start := time.Now()
		if _, err := t.Step(); err != nil {
			p.done()
			return err
		}
		times = append(times, float64(time.Since(start).Nanoseconds())/1e6)
		if p.wants() {
			t.EvaluateInto(&snap)
			p.show(snap)
		}
	}
	p.done()
	t.EvaluateInto(&snap)
	res := result{Model: e.Model.Kind, TestAccuracy: round4(snap.TestAcc), TrainAccuracy: round4(snap.TrainAcc),
		Epochs: e.Train.Epochs, EpochMSMedian: round3(medianAfterWarmUp(times)), Nodes: g.N, Edges: g.E(), Threads: 1}
	if e.Model.LearnsEdges() && g.Kind != nil {
		wi, we := round4(snap.WIntra), round4(snap.WInter)
		res.WIntra, res.WInter = &wi, &we
	}
	if *asJSON {
		b, err := json.Marshal(res)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, string(b))
		return nil
	}
	fmt.Fprintf(stdout, "%s on %v: test accuracy %.4f, train accuracy %.4f, %.3f ms per epoch (median)\n",
		res.Model, g, res.TestAccuracy, res.TrainAccuracy, res.EpochMSMedian)
	if res.WIntra != nil {
		fmt.Fprintf(stdout, "mean learned weight: intra-class %.4f, inter-class %.4f\n", *res.WIntra, *res.WInter)
	}
	return nil
}

// loadGraph reads the bundle in dir, or generates the synthetic graph. Data
// flags cannot be mixed with -data.
func loadGraph(fs *flag.FlagSet, dir string, d experiment.Data) (*datasets.Graph, error) {
	if dir == "" {
		return datasets.Synthetic(d)
	}
	for _, p := range experiment.Params {
		if p.Group == experiment.GroupData && p.Name != "seed" && flagSet(fs, p.Name) {
			return nil, fmt.Errorf("flag -%s: not allowed with -data (the bundle fixes the graph)", p.Name)
		}
	}
	return datasets.ReadBundle(dir)
}

func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// medianAfterWarmUp is the peer's statistic: the median epoch time after
// the first 10 epochs.
func medianAfterWarmUp(ms []float64) float64 {
	if len(ms) == 0 {
		return math.NaN()
	}
	s := slices.Clone(ms[min(10, len(ms)-1):])
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }
func round3(x float64) float64 { return math.Round(x*1e3) / 1e3 }

// progress draws a bar on a terminal and one line per epoch elsewhere.
type progress struct {
	w      io.Writer
	total  int
	tty    bool
	quiet  bool
	last   time.Time
	active bool
}

func newProgress(w io.Writer, total int, quiet bool) *progress {
	f, ok := w.(*os.File)
	tty := false
	if ok {
		if st, err := f.Stat(); err == nil {
			tty = st.Mode()&os.ModeCharDevice != 0
		}
	}
	return &progress{w: w, total: total, tty: tty, quiet: quiet}
}

// wants reports whether the next epoch should be shown; a bar redraws at
// most 20 times a second.
func (p *progress) wants() bool {
	if p.quiet {
		return false
	}
	return !p.tty || time.Since(p.last) > 50*time.Millisecond
}

func (p *progress) show(s pdn.Snapshot) {
	p.last = time.Now()
	line := fmt.Sprintf("epoch %d/%d  loss %.4f  train %.4f  test %.4f", s.Epoch, p.total, s.Loss, s.TrainAcc, s.TestAcc)
	if !p.tty {
		fmt.Fprintln(p.w, line)
		return
	}
	const width = 30
	done := width * s.Epoch / p.total
	fmt.Fprintf(p.w, "\r[%s%s] %s", strings.Repeat("#", done), strings.Repeat(".", width-done), line)
	p.active = true
}

func (p *progress) done() {
	if p.active {
		fmt.Fprintln(p.w)
		p.active = false
	}
}
