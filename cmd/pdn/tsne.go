package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"

	"pdnexplorer/datasets"
	"pdnexplorer/edgekind"
	"pdnexplorer/experiment"
	"pdnexplorer/internal/numtext"
	"pdnexplorer/lessons"
	"pdnexplorer/viz"
)

// tsneRun is one model's Figure 4 in pdn tsne's -json output: the
// k-nearest-neighbour agreement of edge kind in the t-SNE embedding and in
// the hidden representations, and the run's test accuracy.
type tsneRun struct {
	Separation numtext.Num `json:"separation"`
	Hidden     numtext.Num `json:"hidden_separation"`
	Dim        int         `json:"dim"`
	TestAcc    numtext.Num `json:"test_accuracy"`
}

// tsneSummary is the -json output of pdn tsne.
type tsneSummary struct {
	Edges      int                `json:"edges"`
	Neighbours int                `json:"neighbours"`
	Input      numtext.Num        `json:"input_separation"` // in the edge features themselves
	Runs       map[string]tsneRun `json:"runs"`
	Files      []string           `json:"files"`
}

// parseTsne is Figure 4 (§5.1): PDN and GAT, as the degree lab trains them
// side by side, on the generator's graph unless told otherwise; each
// one's hidden edge representations of a balanced sample of edges
// embedded by t-SNE.
func parseTsne(args []string, stderr io.Writer) (runner, error) {
	e := experiment.Default()
	fs := flag.NewFlagSet("tsne", flag.ContinueOnError)
	out := new(string)
	outFlag(fs, out, "out", "directory for tsne.csv and tsne.svg (required)", true)
	asJSON := fs.Bool("json", false, "print one JSON object as the last line of stdout")
	var force bool
	forceFlag(fs, &force, "-out")
	registerLabRows(fs, &e, "degree")
	if err := parse(fs, args, stderr); err != nil {
		return nil, err
	}
	if err := unreadFlags(fs, e, tsneReader()); err != nil {
		return nil, err
	}
	return func(stdout, stderr io.Writer) error { return runTsne(e, *out, force, *asJSON, stdout, stderr) }, nil
}

// tsneReader is pdn tsne's reader: the degree lab's, whose runs are PDN
// and GAT.
func tsneReader() experiment.Reader { return commandReader("tsne", "degree") }

func runTsne(e experiment.Experiment, out string, force, asJSON bool, stdout, stderr io.Writer) (err error) {
	w, err := openOut(outSpec{flag: "out", dir: out, force: force, parts: []string{"tsne"}}, stderr)
	if err != nil {
		return err
	}
	defer finishOut(w, &err)
	g, err := datasets.Build(e.Data)
	if err != nil {
		return usageError{err}
	}
	sum := tsneSummary{Neighbours: lessons.TSNENeighbours, Runs: map[string]tsneRun{}}
	rows := [][]string{{"run", "edge", "kind", "x", "y"}}
	var panels []viz.EmbeddingPanel
	fmt.Fprintf(stdout, "Figure 4: %d-NN agreement of edge kind (chance about 0.5), %s graph, %d nodes, %d edges\n", lessons.TSNENeighbours, e.Data.Graph, g.N, g.E())
	fmt.Fprintf(stdout, "%-6s %10s %10s %6s %10s\n", "model", "t-SNE", "hidden", "dim", "test acc.")
	for _, r := range labRuns("degree", e) { // PDN and GAT
		t, err := lessons.TrainAll(g, r.Exp)
		if err != nil {
			return err
		}
		emb, ok := lessons.EmbedEdges(g, t, e.Data.Seed)
		if !ok {
			return usageError{fmt.Errorf("%s on the %s graph: nothing to embed; Figure 4 needs a pathfinder with a hidden layer (-edge-hidden) and a graph with both intra- and inter-class edges", r.Name, e.Data.Graph)}
		}
		acc := t.Evaluate().TestAcc
		sum.Edges, sum.Input = len(emb.Edges), round4(emb.Input)
		sum.Runs[r.Name] = tsneRun{Separation: round4(emb.Separation), Hidden: round4(emb.Hidden), Dim: emb.Dim, TestAcc: round4(acc)}
		fmt.Fprintf(stdout, "%-6s %10s %10s %6d %10.4f\n", r.Name, agreementText(emb.Separation), agreementText(emb.Hidden), emb.Dim, acc)
		p := viz.EmbeddingPanel{Name: r.Title, XY: emb.XY, K: lessons.TSNENeighbours, Agreement: emb.Separation}
		for i, edge := range emb.Edges {
			p.Inter = append(p.Inter, emb.Kinds[i] == edgekind.Inter)
			rows = append(rows, []string{r.Name, strconv.Itoa(edge), emb.Kinds[i].String(),
				strconv.FormatFloat(emb.XY[2*i], 'g', 8, 64), strconv.FormatFloat(emb.XY[2*i+1], 'g', 8, 64)})
		}
		panels = append(panels, p)
	}
	fmt.Fprintf(stdout, "%d edges, half of each kind; in the edge features themselves: %s\n", sum.Edges, agreementText(float64(sum.Input)))
	if math.IsNaN(float64(sum.Input)) {
		fmt.Fprintf(stdout, "n/a: the %d-NN agreement needs more than %d edges of each kind; this graph gave %d in all (a larger -per-class, or a higher -p and -q)\n",
			lessons.TSNENeighbours, lessons.TSNENeighbours, sum.Edges)
	}
	if err := writeRows(w, "tsne", "tsne.csv", rows); err != nil {
		return err
	}
	if err := w.WriteFile("tsne", "tsne.svg", viz.File(viz.EdgeEmbeddings(english, 760, 420, panels...)), 0o644); err != nil {
		return err
	}
	sum.Files = []string{w.Path("tsne.csv"), w.Path("tsne.svg")}
	fmt.Fprintln(stdout, "wrote", sum.Files[0], sum.Files[1])
	if asJSON {
		return printJSON(stdout, sum)
	}
	return nil
}

// agreementText is a k-NN agreement as the table prints it: n/a where too
// few edges of a kind left it undecided (tsne.Agreement's NaN).
func agreementText(v float64) string {
	if math.IsNaN(v) {
		return "n/a"
	}
	return strconv.FormatFloat(v, 'f', 4, 64)
}
