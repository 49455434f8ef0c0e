package pdn

import (
	"errors"
	"math"
	"runtime/debug"
	"testing"
	"testing/fstest"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
)

// FuzzBundleTrains reads any small bundle and trains two epochs of any
// model on it. Nothing may panic: a graph the model cannot learn from, or
// data that overflow, are refused with the engine's typed errors, and a run
// that goes through reports accuracies in [0, 1] (NaN only without test
// nodes).
func FuzzBundleTrains(f *testing.F) {
	f.Add(uint8(0), `{"name": "t"}`, "id,label,split,x0\n0,0,train,1\n1,1,train,2\n2,0,test,3\n3,1,test,4\n", "source,target,e0\n0,1,1\n1,2,1\n2,3,1\n")
	f.Add(uint8(5), `{"name": "t"}`, "id,label,split,x0\n0,0,train,1e308\n1,1,train,-1e308\n2,0,test,1\n", "source,target,e0,e1\n0,1,1,1e300\n")
	f.Add(uint8(9), `{"name": "t", "classes": 3}`, "id,label,split\n0,2,train\n1,0,test\n", "source,target\n0,1\n")
	f.Fuzz(func(t *testing.T, kind uint8, meta, nodes, edges string) {
		g, err := datasets.ReadBundleFS(fstest.MapFS{
			"meta.json": {Data: []byte(meta)}, "nodes.csv": {Data: []byte(nodes)}, "edges.csv": {Data: []byte(edges)}})
		if err != nil || g.N > 64 || g.E() > 256 || g.F > 16 || g.D > 16 {
			return
		}
		e := smallExperiment(experiment.Kinds[int(kind)%len(experiment.Kinds)])
		if epoch, setup := Estimate(ShapeOf(g), e.Model).Seconds(NativeLimits); setup+float64(e.Train.Epochs)*epoch > fuzzBudget {
			return // the degenerate table trains it (LINE's million samples on any graph)
		}
		trainsOrRefuses(t, g, e.Model.Kind)
	})
}

// fuzzBudget is the most an input may cost the fuzzer, in seconds as the
// cost model estimates them natively. The fuzzer stops a worker whose
// input has run ten seconds and fails the run, which an input estimated
// at a second can reach on a busy machine (an estimate may read several
// times short on a graph of three nodes, where LINE's samples repeat
// their targets and take the scalar loop); the costlier inputs are
// TestEveryKindOnDegenerateGraphs', which has no such clock.
const fuzzBudget = 0.1

// smallExperiment is the run of model kind the fuzzer and the degenerate
// table train: two epochs of a model four units wide.
func smallExperiment(kind string) experiment.Experiment {
	e := experiment.Default()
	e.Model.Kind = kind
	e.Model.Hidden, e.Model.EdgeHidden = 4, []int{4}
	e.Train.Epochs = 2
	return e
}

// trainsOrRefuses trains two epochs of model kind on g, small, and fails t
// if anything panics, an error is not one of the engine's typed ones, or
// an accuracy leaves [0, 1] (NaN only without test nodes): the rule every
// model keeps on every graph that passes datasets.Graph.Check.
func trainsOrRefuses(t *testing.T, g *datasets.Graph, kind string) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("%s panics: %v\n%s", kind, r, debug.Stack())
		}
	}()
	tr, err := NewTrainer(g, smallExperiment(kind))
	if err != nil {
		var ge *GraphError
		var ce *CostError
		if !errors.As(err, &ge) && !errors.As(err, &ce) {
			t.Fatalf("NewTrainer: an untyped error: %v", err)
		}
		return
	}
	for !tr.Done() {
		if _, err := tr.Step(); err != nil {
			var de *DivergedError
			var ie *InputError
			if !errors.As(err, &de) && !errors.As(err, &ie) {
				t.Fatalf("Step: an untyped error: %v", err)
			}
			return
		}
	}
	s := tr.Evaluate()
	for _, acc := range []float64{s.TrainAcc, s.TestAcc} {
		if !(acc >= 0 && acc <= 1) && !(math.IsNaN(acc) && len(g.Nodes(datasets.Test)) == 0) {
			t.Fatalf("accuracy %v", acc)
		}
	}
}

// degenerateBundles are small graphs at the edges of what datasets.Graph.Check
// lets through, which the fuzzer finds one at a time: no node features, a
// node alone, one edge, two components, an all-zero feature and edge
// features, two nodes, more columns than nodes, values near overflow,
// unlabelled nodes.
var degenerateBundles = []struct{ name, meta, nodes, edges string }{
	{"no features", `{"name": "t"}`, "id,label,split\n0,0,train\n1,1,train\n2,0,test\n3,1,test\n", "source,target\n0,1\n1,2\n2,3\n"},
	{"no features, one edge", `{"name": "t", "classes": 3}`, "id,label,split\n0,2,train\n1,0,test\n", "source,target\n0,1\n"},
	{"isolated nodes", `{"name": "t"}`, "id,label,split,x0\n0,0,train,1\n1,1,train,2\n2,0,test,3\n3,1,test,4\n4,0,test,5\n", "source,target\n0,1\n"},
	{"zero feature", `{"name": "t"}`, "id,label,split,x0\n0,0,train,0\n1,1,train,0\n2,0,test,0\n3,1,test,0\n", "source,target,e0\n0,1,0\n1,2,0\n2,3,0\n"},
	{"two components", `{"name": "t"}`, "id,label,split,x0\n0,0,train,1\n1,1,train,2\n2,0,test,3\n3,1,test,4\n", "source,target\n0,2\n1,3\n"},
	{"two nodes", `{"name": "t"}`, "id,label,split,x0\n0,0,train,1\n1,1,train,-1\n", "source,target\n0,1\n"},
	{"wide", `{"name": "t"}`, "id,label,split,x0,x1,x2,x3,x4,x5,x6,x7\n0,0,train,1,0,0,0,0,0,0,1\n1,1,train,0,1,0,0,0,0,1,0\n2,0,test,0,0,1,0,0,1,0,0\n", "source,target,e0,e1,e2,e3,e4\n0,1,1,0,0,0,0\n1,2,0,1,0,0,0\n"},
	{"huge values", `{"name": "t"}`, "id,label,split,x0\n0,0,train,1e308\n1,1,train,-1e308\n2,0,test,1\n", "source,target,e0,e1\n0,1,1,1e300\n"},
	{"unlabelled nodes", `{"name": "t"}`, "id,label,split,x0\n0,0,train,1\n1,1,train,2\n2,,unlabelled,3\n3,,unlabelled,4\n", "source,target\n0,2\n1,3\n2,3\n"},
}

// TestEveryKindOnDegenerateGraphs holds every model to trainsOrRefuses on
// each degenerate bundle, so a model added later meets the fuzzer's cases
// on every run of the tests, not only when the fuzzer happens on its kind.
func TestEveryKindOnDegenerateGraphs(t *testing.T) {
	for _, b := range degenerateBundles {
		g, err := datasets.ReadBundleFS(fstest.MapFS{
			"meta.json": {Data: []byte(b.meta)}, "nodes.csv": {Data: []byte(b.nodes)}, "edges.csv": {Data: []byte(b.edges)}})
		if err != nil {
			t.Fatalf("%s: %v", b.name, err)
		}
		for _, kind := range experiment.Kinds {
			t.Run(b.name+"/"+kind, func(t *testing.T) {
				trainsOrRefuses(t, g, kind)
				// A graph the MLP cannot train either (its training nodes
				// all of one class) is refused for that first.
				if g.F > 0 || !experiment.Attributed(kind) || checkTrainable(g, experiment.Data{}, experiment.Model{Kind: experiment.MLP}) != nil {
					return
				}
				var ge *GraphError
				if _, err := NewTrainer(g, smallExperiment(kind)); !errors.As(err, &ge) || ge.Field != "model" {
					t.Errorf("an attributed embedding on a graph without features: %v, want the model refused", err)
				}
			})
		}
	}
}
