package pdn

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
)

// A graph with nodes without a class trains with them as message passers
// only: never in the trainer's train, validation or test sets, out of the
// homophily (an edge to one is of unknown kind), and a trace of one says
// it has no class to share messages across (NaN).
func TestUnlabelledNodesPassMessagesOnly(t *testing.T) {
	var labels, edges strings.Builder
	labels.WriteString("id,label\n")
	for i := range 60 {
		class := fmt.Sprint(i % 2)
		if i%5 == 4 {
			class = "NA"
		}
		fmt.Fprintf(&labels, "%d,%s\n", i, class)
		fmt.Fprintf(&edges, "%d,%d\n%d,%d\n", i, (i+1)%60, i, (i+2)%60)
	}
	g, _, err := datasets.OpenFiles([]datasets.File{{Name: "labels.csv", Data: []byte(labels.String())}, {Name: "edges.csv", Data: []byte(edges.String())}}, datasets.Columns{})
	if err != nil {
		t.Fatal(err)
	}
	datasets.ShotSplit(g, 5, 1)
	for _, kind := range []string{experiment.PDN, experiment.GCN} {
		e := experiment.Default()
		e.Model.Kind, e.Train.Epochs = kind, 2
		tr, err := NewTrainer(g, e)
		if err != nil {
			t.Fatal(err)
		}
		for _, set := range [][]int{tr.train, tr.test, tr.val} {
			for _, i := range set {
				if g.Labels[i] == datasets.NoClass {
					t.Fatalf("%s: node %d, without a class, is in a trainer's set", kind, i)
				}
			}
		}
		if len(tr.test) != 48-10 {
			t.Errorf("%s: %d test nodes, want the 38 with a class not trained on", kind, len(tr.test))
		}
		// Every edge joins i to i+1 or i+2: of those with two classes, i and
		// i+2 share one; edges to every 5th node are of unknown kind.
		same, all := 0, 0
		for e := range g.Src {
			u, v := g.Labels[g.Src[e]], g.Labels[g.Dst[e]]
			if u == datasets.NoClass || v == datasets.NoClass {
				continue
			}
			all++
			if u == v {
				same++
			}
		}
		if h := homophily(g, nil); math.Abs(h-float64(same)/float64(all)) > 1e-12 {
			t.Errorf("%s: homophily %v, want %v", kind, h, float64(same)/float64(all))
		}
		if _, err := tr.Step(); err != nil {
			t.Fatal(err)
		}
		tc, err := tr.Trace(4)
		if err != nil {
			t.Fatal(err)
		}
		if tc.Label != datasets.NoClass || !math.IsNaN(tc.InterShare) {
			t.Errorf("%s: trace of a node without a class: label %d, inter share %v", kind, tc.Label, tc.InterShare)
		}
	}
}
