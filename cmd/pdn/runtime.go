package main

import (
	"flag"
	"fmt"
	"io"
	"runtime"
	"slices"
	"time"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/internal/numtext"
	"pdnexplorer/pdn"
)

// runtimeModel is one PDN of the runtime experiment, timed against GCN.
type runtimeModel struct {
	Name   string
	Hidden []int
}

var runtimeModels = []runtimeModel{{"glm", nil}, {"shallow", []int{32}}, {"deep", []int{32, 16}}}

// figure6 is the paper's Figure 6: % increase over GCN of the GLM, shallow
// and deep PDN, against log₂ edges per node (2..6) and log₂ edge features
// (5..9).
var figure6 = map[string][2][5]float64{
	"glm":     {{27.374, 26.038, 24.225, 30.276, 28.608}, {9.778, 17.688, 23.487, 33.516, 51.527}},
	"shallow": {{45.182, 42.058, 42.472, 44.161, 46.009}, {24.023, 33.737, 39.255, 49.778, 72.853}},
	"deep":    {{54.326, 54.76, 51.096, 55.266, 55.516}, {35.916, 46.083, 49.474, 59.484, 84.09}},
}

type runtimePoint struct {
	Sweep     string                 `json:"sweep"` // "edges_per_node" or "edge_features"
	Value     int                    `json:"value"`
	Edges     int                    `json:"edges"`
	GCNms     numtext.Num            `json:"gcn_ms"`
	Increase  map[string]numtext.Num `json:"increase_pct"`
	PerEdgeNs map[string]numtext.Num `json:"extra_ns_per_edge"`
	Paper     map[string]float64     `json:"paper_pct"`
}

func parseRuntime(args []string, stderr io.Writer) (runner, error) {
	fs := flag.NewFlagSet("runtime", flag.ContinueOnError)
	nodes := numtext.Int(fs, "nodes", 1<<12, 256, 1<<16, "nodes of each Watts–Strogatz graph")
	epochs := numtext.Int(fs, "epochs", 9, 1, 100, "timed epochs per model, taken in turns after 2 rounds to warm up; the median counts")
	asJSON := fs.Bool("json", false, "print one JSON object as the last line of stdout")
	if err := parse(fs, args, stderr); err != nil {
		return nil, err
	}
	return func(stdout, stderr io.Writer) error { return runRuntime(*nodes, *epochs, *asJSON, stdout, stderr) }, nil
}

func runRuntime(nodes, epochs int, asJSON bool, stdout, stderr io.Writer) error {
	// Appendix E: 2⁴ edges per node and 2⁷ edge features, but for the
	// parameter swept.
	sweeps := []struct {
		name   string
		values []int
		at     func(v int) (edgesPerNode, d int)
	}{
		{"edges_per_node", []int{4, 8, 16, 32, 64}, func(v int) (int, int) { return v, 128 }},
		{"edge_features", []int{32, 64, 128, 256, 512}, func(v int) (int, int) { return 16, v }},
	}
	var points []runtimePoint
	for s, sw := range sweeps {
		for i, v := range sw.values {
			k, d := sw.at(v)
			p, err := runtimePointAt(nodes, k, d, epochs, stderr)
			if err != nil {
				return err
			}
			p.Sweep, p.Value = sw.name, v
			for name, fig := range figure6 {
				p.Paper[name] = fig[s][i]
			}
			points = append(points, p)
		}
	}
	fmt.Fprintf(stdout, "epoch time of PDN over GCN in %%, paper's Figure 6 in brackets, and PDN's extra ns per edge; Watts–Strogatz, %d nodes, F = 128, C = 4\n", nodes)
	fmt.Fprintf(stdout, "%-16s %6s %8s %9s %19s %19s %19s\n", "sweep", "value", "edges", "gcn ms", "glm", "shallow [32]", "deep [32,16]")
	for _, p := range points {
		fmt.Fprintf(stdout, "%-16s %6d %8d %9.2f", p.Sweep, p.Value, p.Edges, p.GCNms)
		for _, m := range runtimeModels {
			fmt.Fprintf(stdout, " %5.0f (%4.0f) %6.0f", p.Increase[m.Name], p.Paper[m.Name], p.PerEdgeNs[m.Name])
		}
		fmt.Fprintln(stdout)
	}
	if asJSON {
		if err := printJSON(stdout, map[string]any{"nodes": nodes, "points": points}); err != nil {
			return err
		}
	}
	return nil
}

// runtimePointAt times GCN and the three PDNs on one graph. Besides the
// relative increase it reports each PDN's extra time per edge: the paper's
// complexity argument says that extra is O(|E|·D), so at fixed D it should
// not change with edges per node even where the ratio does.
func runtimePointAt(nodes, edgesPerNode, d, epochs int, stderr io.Writer) (runtimePoint, error) {
	g, err := datasets.SmallWorld(nodes, edgesPerNode, 0.5, 128, d, 4, 1)
	if err != nil {
		return runtimePoint{}, usageError{err}
	}
	e := experiment.Default()
	e.Model.Kind = experiment.GCN
	e.Model.EdgeDrop = 0 // the paper times the official PDN, without DropEdge
	trainers := make([]*pdn.Trainer, 1+len(runtimeModels))
	if trainers[0], err = pdn.NewTrainer(g, e); err != nil {
		return runtimePoint{}, err
	}
	for i, m := range runtimeModels {
		e.Model.Kind, e.Model.EdgeHidden = experiment.PDN, m.Hidden
		if trainers[i+1], err = pdn.NewTrainer(g, e); err != nil {
			return runtimePoint{}, err
		}
	}
	ms, err := medianEpochs(trainers, epochs)
	if err != nil {
		return runtimePoint{}, err
	}
	p := runtimePoint{Edges: g.E(), GCNms: round3(ms[0]), Increase: map[string]numtext.Num{}, PerEdgeNs: map[string]numtext.Num{}, Paper: map[string]float64{}}
	for i, m := range runtimeModels {
		p.Increase[m.Name] = round3((ms[i+1]/ms[0] - 1) * 100)
		p.PerEdgeNs[m.Name] = round3((ms[i+1] - ms[0]) * 1e6 / float64(g.E()))
	}
	fmt.Fprintf(stderr, "%d edges per node, D = %d: %d edges\n", edgesPerNode, d, g.E())
	return p, nil
}

// medianEpochs returns the median epoch time of each trainer, in ms. The
// trainers take turns, one epoch each, so a drift in the machine's speed
// (another process, the clock) hits them all alike; two rounds warm up the
// buffers first, and the heap is collected before each round so that no
// trainer pays for another's garbage.
func medianEpochs(trainers []*pdn.Trainer, epochs int) ([]float64, error) {
	ms := make([][]float64, len(trainers))
	for round := 0; round < epochs+2; round++ {
		runtime.GC()
		for i, t := range trainers {
			start := time.Now()
			if _, err := t.Step(); err != nil {
				return nil, err
			}
			if round >= 2 {
				ms[i] = append(ms[i], float64(time.Since(start).Nanoseconds())/1e6)
			}
		}
	}
	med := make([]float64, len(trainers))
	for i, m := range ms {
		slices.Sort(m)
		med[i] = m[len(m)/2]
	}
	return med, nil
}
