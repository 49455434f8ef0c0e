package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/internal/input"
	"pdnexplorer/internal/numtext"
	"pdnexplorer/internal/outdir"
	"pdnexplorer/pdn"
	"pdnexplorer/pyg"
)

// pygPeer is pdn table4 -pyg: PyTorch Geometric's figure on the same
// splits beside ours. Each run of a model the export covers
// (pdn.Exportable) is exported as pdn train -export writes it (package
// pyg: its graph with the rep's split, its settings, its seed) into the
// run's scratch folder and trained from scratch there by run_pyg.py
// --weights none, whose test accuracy is read as ours is (at the last
// epoch, or at the epoch of best validation accuracy with -validation).
// The two differ only in what each library's seeded draws are: the
// initial weights and dropout.
type pygPeer struct {
	python   string
	versions string // torch's and PyG's, as the Python reported them
	threads  int    // torch's threads a run: the run's share of the cores
	selected bool   // -validation: read at the epoch of best validation accuracy
	// f32 (-pyg-float32) trains in float32, as PyG's examples do:
	// on a graph with thousands of dense features it halves the
	// products; the default, float64, is the explorer's own precision.
	f32 bool
	// train runs run_pyg.py in dir with args and gives its JSON line; a
	// test gives a fake.
	train   func(dir string, args ...string) (pygReply, error)
	scratch *outdir.Tree
	runs    atomic.Int64 // names each run's folder in scratch
}

// pygReply is what table4 reads of run_pyg.py's last line.
type pygReply struct {
	TestAccuracy     *float64 `json:"test_accuracy"`
	AtBestValidation *float64 `json:"test_accuracy_at_best_validation"`
	Error            string   `json:"error"`
}

// pygUsage is -pyg's help.
const pygUsage = "a `PYTHON` that imports torch and torch_geometric (with PYTHONPATH as set): each run of a model the PyG export covers is trained again from scratch in PyTorch Geometric, on the same split with the same settings and seed, its mean ± SD beside ours"

// pygFloat32Usage is -pyg-float32's help.
const pygFloat32Usage = "with -pyg: PyG trains in float32, as its examples do (on Facebook's 4,714 dense features about twice as fast); the default is float64, the explorer's own precision"

// pygFlagChecks refuses, as the flags are read, what -pyg cannot do:
// -pyg-float32 (f32) means nothing without it.
func pygFlagChecks(python string, pyged, f32 bool) error {
	switch {
	case f32 && !pyged:
		return usageError{errors.New("flag -pyg-float32: only with -pyg, whose PyG runs it sets to float32")}
	case !pyged:
		return nil
	case python == "":
		return usageError{errors.New("flag -pyg: an empty name; give a Python that imports torch and torch_geometric (python3, or its path)")}
	}
	return nil
}

// pygSetting is how a PyG column is made, as table4Job records it: the
// versions of torch and PyG, the precision and torch's threads a run.
type pygSetting struct {
	Versions  string `json:"versions"`
	Precision string `json:"precision"` // float32 or float64
	Threads   int    `json:"threads"`
}

// setting is how p makes its column.
func (p *pygPeer) setting() *pygSetting {
	return &pygSetting{Versions: p.versions, Precision: p.precision(), Threads: p.threads}
}

// peer is the peer that made a column s describes, as merge reads it back:
// it says how (protocol) and trains nothing.
func (s *pygSetting) peer(selected bool) *pygPeer {
	return &pygPeer{versions: s.Versions, threads: s.Threads, selected: selected, f32: s.Precision == "float32"}
}

// newPyGPeer asks python, once and before any training, whether it
// imports torch and torch_geometric, refusing -pyg by name when it does
// not. threads is torch's share of the cores a run (as the engine's,
// drain's GOMAXPROCS/workers).
func newPyGPeer(python string, threads int, selected bool) (*pygPeer, error) {
	cmd := exec.Command(python, "-c", "import torch, torch_geometric; print('torch %s, PyG %s' % (torch.__version__, torch_geometric.__version__))")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return nil, usageError{fmt.Errorf("flag -pyg: %s cannot import torch and torch_geometric (%s); give a Python that imports both, with PYTHONPATH naming the folder that holds torch_geometric/ where it is not installed",
			quotePath(python), shorten(lastLineOf(out.String(), err)))}
	}
	p := &pygPeer{python: python, versions: strings.TrimSpace(out.String()), threads: threads, selected: selected}
	p.train = p.runScript
	return p, nil
}

// runScript runs run_pyg.py in dir with args and reads its last line of
// stdout: the script's refusal ({"error": …}) or its result. A script that
// died without that line gives its last line of output.
func (p *pygPeer) runScript(dir string, args ...string) (pygReply, error) {
	cmd := exec.Command(p.python, append([]string{filepath.Join(dir, pyg.ScriptFile)}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	var r pygReply
	if err := input.JSON(pyg.ScriptFile, []byte(lines[len(lines)-1]), &r); err != nil {
		if runErr == nil {
			runErr = fmt.Errorf("its last line is not its JSON line: %w", err)
		}
		return r, errors.New(lastLineOf(stderr.String(), runErr))
	}
	if r.Error != "" {
		return r, errors.New(r.Error)
	}
	return r, runErr
}

// printable is a message from another program as a note prints it and a
// shard file carries it: each control character (a terminal's escape, a
// tab) a space.
func printable(msg string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, msg)
}

// lastLineOf is the last line of a program's output, or err where it
// printed none.
func lastLineOf(out string, err error) string {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if l := strings.TrimSpace(lines[len(lines)-1]); l != "" {
		return l
	}
	return err.Error()
}

// pygMaxMessage bounds the message tensor a PyG run may build here: two
// runs share the machine's memory (24 GiB on the project's machines), and
// PyG holds a layer's messages, their gradient and the scatter's output
// at once. On Facebook Page-Page (4,714 features, 364,116 messages with
// the self-loops) ChebConv's and SAGEConv's are 6.9 GB in float32: a run
// held 15 GB and took over an hour where GCNConv's takes about a minute.
const pygMaxMessage = 2 << 30

// pygTooCostly says why PyG's run of kind on g would cost more than a run
// is given here (pygMaxMessage), before it is made; "" where it would
// not. A layer that projects first (GCNConv, GATConv) sends hidden-wide
// messages; one that sends its input features (experiment.ModelKind's
// PyGWide) sends messages × features.
func pygTooCostly(kind string, g *datasets.Graph, f32 bool) string {
	m, _ := experiment.ModelNamed(kind)
	if !m.PyGWide {
		return ""
	}
	size := 8
	if f32 {
		size = 4
	}
	messages := 2*g.E() + g.N
	bytes := float64(messages) * float64(g.F) * float64(size)
	if bytes <= pygMaxMessage {
		return ""
	}
	return fmt.Sprintf("PyG's %s sends the %s input features along each of the %s messages (each edge both ways, and the self-loops) before projecting them: %.1f GB a propagation, above the %.0f GiB a run is given here; run it where memory allows (deploy/: one task a run)",
		m.PyG, numtext.Group(g.F), numtext.Group(messages), bytes/1e9, float64(pygMaxMessage)/(1<<30))
}

// retrain exports the run t trained on g and trains it in PyG, returning
// its test accuracy as table4 reads ours. The folder goes once read.
func (p *pygPeer) retrain(g *datasets.Graph, t *pdn.Trainer) (float64, error) {
	r, err := pyg.RunOf(t)
	if err != nil {
		return math.NaN(), err
	}
	// --weights none trains from scratch: the trained arrays are never
	// read, and a run that diverged has none to write.
	r.Params = nil
	name := "run-" + strconv.FormatInt(p.runs.Add(1), 10)
	defer p.scratch.RemoveAll(name)
	err = pyg.WriteFiles(g, r, func(file string, perm fs.FileMode) (io.WriteCloser, error) {
		return p.scratch.Create(name+"/"+file, perm)
	})
	if err != nil {
		return math.NaN(), err
	}
	reply, err := p.train(filepath.Join(p.scratch.Dir(), name), p.args()...)
	if err != nil {
		return math.NaN(), err
	}
	return p.read(reply)
}

// args are run_pyg.py's arguments a run: from scratch, on the run's
// share of the cores, in float32 where asked.
func (p *pygPeer) args() []string {
	a := []string{"--weights", "none", "--threads", strconv.Itoa(p.threads)}
	if p.f32 {
		a = append(a, "--float32")
	}
	return a
}

// read is the accuracy table4 reads of a reply: at the last epoch, or,
// with -validation, at the epoch of best validation accuracy.
func (p *pygPeer) read(r pygReply) (float64, error) {
	acc := r.TestAccuracy
	if p.selected {
		acc = r.AtBestValidation
	}
	if acc == nil || math.IsNaN(*acc) || *acc < 0 || *acc > 1 {
		what := "test_accuracy"
		if p.selected {
			what = "test_accuracy_at_best_validation"
		}
		return math.NaN(), fmt.Errorf("its JSON line holds no %s in [0, 1]", what)
	}
	return *acc, nil
}

// precision names the float type PyG trains in.
func (p *pygPeer) precision() string {
	if p.f32 {
		return "float32"
	}
	return "float64"
}

// protocol says how the column was made of the job's models kinds, for
// the table's protocol line.
func (p *pygPeer) protocol(kinds []string) string {
	read := "at its last epoch"
	if p.selected {
		read = "at its epoch of best validation accuracy"
	}
	return fmt.Sprintf("PyG column: each run of %s exported with its graph, split, settings and seed and trained from scratch by run_pyg.py --weights none (%s, %s, %d thread%s a run), read %s as ours; only the libraries' seeded draws (initial weights, dropout) differ",
		strings.Join(slices.DeleteFunc(slices.Clone(kinds), func(k string) bool { return !hasPeer(k) }), ", "), p.versions, p.precision(), p.threads, plural(p.threads), read)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// pygColumn is what the PyG runs gave, by graph, rep and model: an
// accuracy (NaN where none) and a failed run's message.
type pygColumn struct {
	acc    [][][]float64
	failed [][][]string
	// costly says, as failed, why a PyG run was not made
	// (pygTooCostly); "" where it was.
	costly [][][]string
}

// newPyGColumn is an empty column of job's shape.
func newPyGColumn(job table4Job) *pygColumn {
	c := &pygColumn{acc: make([][][]float64, len(job.Graphs)), failed: make([][][]string, len(job.Graphs)), costly: make([][][]string, len(job.Graphs))}
	for g := range c.acc {
		c.acc[g], c.failed[g], c.costly[g] = make([][]float64, job.Reps), make([][]string, job.Reps), make([][]string, job.Reps)
		for r := range c.acc[g] {
			c.acc[g][r], c.failed[g][r], c.costly[g][r] = make([]float64, len(job.Models)), make([]string, len(job.Models)), make([]string, len(job.Models))
			for m := range c.acc[g][r] {
				c.acc[g][r][m] = math.NaN()
			}
		}
	}
	return c
}

// run is run (g, r, m)'s figure as a shard file holds it.
func (c *pygColumn) run(g, r, m int) *shardPyG {
	return &shardPyG{Acc: numOrNull(c.acc[g][r][m]), Failed: c.failed[g][r][m], Costly: c.costly[g][r][m]}
}

// set takes run (g, r, m)'s figure from a shard file.
func (c *pygColumn) set(g, r, m int, p *shardPyG) {
	c.acc[g][r][m] = math.NaN()
	if p.Acc != nil {
		c.acc[g][r][m] = float64(*p.Acc)
	}
	c.failed[g][r][m], c.costly[g][r][m] = p.Failed, p.Costly
}

// table4PyG is a cell's PyG figure: mean ± SD over the n runs that gave one.
type table4PyG struct {
	Mean numtext.Num `json:"mean"`
	SD   numtext.Num `json:"sd"`
	N    int         `json:"n"`
}

// summarise puts the column into sum: each cell of a model with a PyG
// peer its figure, the models without one named in a note (never left
// blank without a word), and each failed run a note naming it.
func (c *pygColumn) summarise(job table4Job, sum *table4Summary) {
	var none []string
	for m, kind := range job.Models {
		if !hasPeer(kind) {
			none = append(none, kind)
			continue
		}
		for g, graph := range job.Graphs {
			var xs []float64
			for r := range job.Reps {
				if x := c.acc[g][r][m]; !math.IsNaN(x) {
					xs = append(xs, x)
				}
			}
			mean, sd := experiment.MeanSD(xs)
			res := sum.Results[graph][kind]
			res.PyG = &table4PyG{Mean: round4(mean), SD: round4(sd), N: len(xs)}
			sum.Results[graph][kind] = res
		}
	}
	if len(none) > 0 {
		sum.Notes = append(sum.Notes, fmt.Sprintf("%s: no PyG peer: the export covers %s alone", strings.Join(none, ", "), strings.Join(pdn.Exportable, ", ")))
	}
	for g, graph := range job.Graphs {
		for m, kind := range job.Models {
			for r := range job.Reps {
				if why := c.costly[g][r][m]; why != "" { // the same for every rep: said once
					sum.Notes = append(sum.Notes, fmt.Sprintf("%s, %s: no PyG runs: %s", graph, kind, why))
					break
				}
			}
		}
		for r := range job.Reps {
			for m, kind := range job.Models {
				if why := c.failed[g][r][m]; why != "" {
					sum.Notes = append(sum.Notes, fmt.Sprintf("%s, %s, rep %d: the PyG run failed: %s", graph, kind, r+1, why))
				}
			}
		}
	}
}

// pygCell is a cell's PyG figure as the printed table shows it.
func pygCell(r table4Result, reps int) string {
	switch {
	case r.PyG == nil:
		return "no peer"
	case r.PyG.N == 0:
		return "–"
	}
	cell := fmt.Sprintf("%.3f±%.3f", float64(r.PyG.Mean), float64(r.PyG.SD))
	if r.PyG.N < 2 {
		cell = fmt.Sprintf("%.3f±–", float64(r.PyG.Mean))
	}
	if r.PyG.N < reps {
		cell += fmt.Sprintf(" n=%d", r.PyG.N)
	}
	return cell
}

// pygCSV is the columns of a CSV row that the PyG column adds: the run's
// own accuracy in PyG, and its cell's mean, SD and n (empty where the
// model has no peer or the run gave none).
func pygCSV(c *pygColumn, res table4Result, g, r, m int) []string {
	if res.PyG == nil {
		return []string{"", "", "", ""}
	}
	acc := ""
	if x := c.acc[g][r][m]; !math.IsNaN(x) {
		acc = strconv.FormatFloat(x, 'f', 4, 64)
	}
	mean, sd := "", ""
	if res.PyG.N > 0 {
		mean = strconv.FormatFloat(float64(res.PyG.Mean), 'f', 4, 64)
	}
	if res.PyG.N > 1 {
		sd = strconv.FormatFloat(float64(res.PyG.SD), 'f', 4, 64)
	}
	return []string{acc, mean, sd, strconv.Itoa(res.PyG.N)}
}

// pygHeader names pygCSV's columns.
var pygHeader = []string{"pyg_test_accuracy", "pyg", "pyg_sd", "pyg_n"}

// hasPeer reports whether model kind has a PyG peer.
func hasPeer(kind string) bool { return slices.Contains(pdn.Exportable, kind) }
