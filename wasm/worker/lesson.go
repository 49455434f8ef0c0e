package main

import (
	"math"
	"time"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/lessons"
	"pdnexplorer/pdn"
	"pdnexplorer/wasm/protocol"
)

// surfaceSize is the side of the grid the XOR lab's α(a, b) is sampled on.
const surfaceSize = 21

// lessonTrainer is what the labs read of a trained model beyond its
// snapshot: its pathfinder as a function, and GAT's per-direction weights.
type lessonTrainer interface {
	lessons.Pathfinder
	DirectedWeights() (to []int32, w []float64)
}

// restartTrainer is a trainer whose set-up is the restart remedy
// (lessons.Restarts): Prepare trains the initialisations a slice of time
// at a time, then the one kept trains on. Reset tries them all again.
type restartTrainer struct {
	g    *datasets.Graph
	e    experiment.Experiment
	r    *lessons.Restarts
	pace func(float64)
	cost pdn.Cost
}

func newRestartTrainer(g *datasets.Graph, e experiment.Experiment) (*restartTrainer, error) {
	t := &restartTrainer{g: g, e: e, r: lessons.NewRestarts(g, e), cost: pdn.Estimate(pdn.ShapeOf(g), e.Model)}
	// The first step builds the first initialisation, which checks the
	// model against the graph: a bad one is refused now, not inside the
	// set-up.
	if err := t.r.Step(); err != nil {
		return nil, err
	}
	return t, nil
}

func (t *restartTrainer) Prepare(budget time.Duration) bool {
	deadline := time.Now().Add(budget)
	for !t.r.Done() {
		if err := t.r.Step(); err != nil {
			return false // NewTrainer accepted this model once; it will again
		}
		if !time.Now().Before(deadline) {
			break
		}
	}
	if t.r.Done() {
		t.r.Best().SetPace(t.pace)
	}
	return t.r.Done()
}

func (t *restartTrainer) Preparing() float64           { return t.r.Share() }
func (t *restartTrainer) Step() (float64, error)       { return t.r.Best().Step() }
func (t *restartTrainer) EvaluateInto(s *pdn.Snapshot) { t.r.Best().EvaluateInto(s) }
func (t *restartTrainer) Reset()                       { t.r = lessons.NewRestarts(t.g, t.e) }
func (t *restartTrainer) Done() bool                   { return t.r.Done() && t.r.Best().Done() }
func (t *restartTrainer) SetPace(f func(done float64)) { t.pace = f }
func (t *restartTrainer) Cost() pdn.Cost               { return pdn.Estimate(pdn.ShapeOf(t.g), t.e.Model) }

func (t *restartTrainer) Epoch() int {
	if b := t.r.Best(); b != nil {
		return b.Epoch()
	}
	return 0
}

func (t *restartTrainer) Pathfinder(z []float64) ([]float64, float64, bool) {
	return t.r.Best().Pathfinder(z)
}

func (t *restartTrainer) DirectedWeights() ([]int32, []float64) { return t.r.Best().DirectedWeights() }

// tried describes the initialisations tried so far.
func (t *restartTrainer) tried() *protocol.Restarts {
	out := &protocol.Restarts{Chosen: t.r.Chosen, Epochs: max(1, min(t.e.Model.RestartEpochs, t.e.Train.Epochs))}
	for _, r := range t.r.Tried {
		out.Seeds, out.Losses = append(out.Seeds, r.Seed), append(out.Losses, protocol.Num(r.Loss))
	}
	return out
}

// restartsOf returns what tr tried, if it is the restart remedy.
func restartsOf(tr trainer) *protocol.Restarts {
	if rt, ok := tr.(*restartTrainer); ok {
		return rt.tried()
	}
	return nil
}

// addLesson adds to a snapshot what the lab of the session's graph reads:
// the XOR graph's edge states and pathfinder, or the scale-free graph's
// weights by degree.
func (s *session) addLesson(ps *protocol.Snapshot) {
	lt, _ := s.tr.(lessonTrainer)
	ps.Restarts = restartsOf(s.tr)
	switch s.exp.Data.Graph {
	case experiment.GraphXOR:
		ps.XOR = xorView(s.g, s.exp.Model, s.snap.Weights, lt)
	case experiment.GraphScaleFree:
		if lt != nil {
			if s.deg == nil {
				s.deg = lessons.Degrees(s.g)
			}
			ps.Degree = degreeView(s.deg, lt)
		}
	}
}

// xorView is protocol.XOR for weights w learned by a model m on the XOR
// graph g. A model that passes messages without learning edge weights
// (GCN) weighs every edge 1.
func xorView(g *datasets.Graph, m experiment.Model, w []float64, lt lessonTrainer) *protocol.XOR {
	v := &protocol.XOR{}
	share := lessons.StateShares(g)
	var mean [4]float64
	switch {
	case len(w) == g.E():
		mean = lessons.StateMeans(g, w)
	case m.UsesGraph():
		mean = [4]float64{1, 1, 1, 1}
	default:
		mean = [4]float64{math.NaN(), math.NaN(), math.NaN(), math.NaN()}
	}
	for i := range mean {
		v.Mean[i], v.Share[i] = protocol.Num(mean[i]), protocol.Num(share[i])
	}
	v.Found = lessons.FoundXOR(mean)
	if lt == nil {
		return v
	}
	hidden, alpha, ok := lessons.Table3(lt)
	surf, ok2 := lessons.Surface(lt, surfaceSize)
	if !ok || !ok2 {
		return v
	}
	for i := range alpha {
		v.Alpha = append(v.Alpha, protocol.Num(alpha[i]))
		v.Hidden = append(v.Hidden, nums(hidden[i]))
	}
	v.Surface, v.Size = nums(surf), surfaceSize
	return v
}

// degreeView bins the weights each node gives its edges by its degree.
func degreeView(deg []int, lt lessonTrainer) []protocol.DegreeBin {
	to, w := lt.DirectedWeights()
	if to == nil {
		return nil
	}
	var out []protocol.DegreeBin
	for _, b := range lessons.BinByDegree(deg, to, w) {
		out = append(out, protocol.DegreeBin{MinDegree: 1 << b.Log2, Entries: b.Entries, Mean: protocol.Num(b.Mean)})
	}
	return out
}

func nums(xs []float64) []protocol.Num {
	out := make([]protocol.Num, len(xs))
	for i, x := range xs {
		out[i] = protocol.Num(x)
	}
	return out
}
