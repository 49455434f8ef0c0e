package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"slices"
	"time"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
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
	Sweep    string             `json:"sweep"` // "edges_per_node" or "edge_features"
	Value    int                `json:"value"`
	GCNms    float64            `json:"gcn_ms"`
	Increase map[string]float64 `json:"increase_pct"`
	Paper    map[string]float64 `json:"paper_pct"`
}

func runtimeCmd(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("runtime", flag.ContinueOnError)
	nodes := fs.Int("nodes", 1<<12, "nodes of each Watts–Strogatz graph")
	epochs := fs.Int("epochs", 5, "timed epochs per model (after 2 to warm up); the median counts")
	asJSON := fs.Bool("json", false, "print one JSON object as the last line of stdout")
	if err := parse(fs, args, stderr); err != nil {
		return err
	}
	if *nodes < 256 || *nodes > 1<<16 {
		return usageError{fmt.Errorf("flag -nodes: %d is not allowed; want [256, 65536]", *nodes)}
	}
	if *epochs < 1 || *epochs > 100 {
		return usageError{fmt.Errorf("flag -epochs: %d is not allowed; want [1, 100]", *epochs)}
	}
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
			p, err := runtimePointAt(*nodes, k, d, *epochs, stderr)
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
	fmt.Fprintf(stdout, "epoch time of PDN over GCN (%%), Watts–Strogatz, %d nodes, F = 128, C = 4; paper's Figure 6 in brackets\n", *nodes)
	fmt.Fprintf(stdout, "%-16s %6s %9s %18s %18s %18s\n", "sweep", "value", "gcn ms", "glm", "shallow [32]", "deep [32,16]")
	for _, p := range points {
		fmt.Fprintf(stdout, "%-16s %6d %9.2f", p.Sweep, p.Value, p.GCNms)
		for _, m := range runtimeModels {
			fmt.Fprintf(stdout, " %8.0f (%6.1f)", p.Increase[m.Name], p.Paper[m.Name])
		}
		fmt.Fprintln(stdout)
	}
	if *asJSON {
		b, _ := json.Marshal(map[string]any{"nodes": *nodes, "points": points})
		fmt.Fprintln(stdout, string(b))
	}
	return nil
}

// runtimePointAt times GCN and the three PDNs on one graph.
func runtimePointAt(nodes, edgesPerNode, d, epochs int, stderr io.Writer) (runtimePoint, error) {
	g, err := datasets.SmallWorld(nodes, edgesPerNode, 0.5, 128, d, 4, 1)
	if err != nil {
		return runtimePoint{}, usageError{err}
	}
	p := runtimePoint{Increase: map[string]float64{}, Paper: map[string]float64{}}
	e := experiment.Default()
	e.Model.Kind = experiment.GCN
	gcn, err := medianEpoch(g, e, epochs)
	if err != nil {
		return p, err
	}
	p.GCNms = round3(gcn)
	for _, m := range runtimeModels {
		e.Model.Kind, e.Model.EdgeHidden = experiment.PDN, m.Hidden
		t, err := medianEpoch(g, e, epochs)
		if err != nil {
			return p, err
		}
		p.Increase[m.Name] = round3((t/gcn - 1) * 100)
	}
	fmt.Fprintf(stderr, "%d edges per node, D = %d: %d edges\n", edgesPerNode, d, g.E())
	return p, nil
}

// medianEpoch returns the median time of an epoch, in ms, after two epochs
// to warm up.
func medianEpoch(g *datasets.Graph, e experiment.Experiment, epochs int) (float64, error) {
	t, err := pdn.NewTrainer(g, e)
	if err != nil {
		return 0, err
	}
	var ms []float64
	for i := 0; i < epochs+2; i++ {
		start := time.Now()
		if _, err := t.Step(); err != nil {
			return 0, err
		}
		if i >= 2 {
			ms = append(ms, float64(time.Since(start).Nanoseconds())/1e6)
		}
	}
	slices.Sort(ms)
	return ms[len(ms)/2], nil
}
