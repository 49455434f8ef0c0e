package pdn

import (
	"errors"
	"math"
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
		e := experiment.Default()
		e.Model.Kind = experiment.Kinds[int(kind)%len(experiment.Kinds)]
		e.Model.Hidden, e.Model.EdgeHidden = 4, []int{4}
		e.Train.Epochs = 2
		tr, err := NewTrainer(g, e)
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
	})
}
