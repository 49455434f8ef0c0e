package pdn

import (
	"math"
	"time"

	"pdnexplorer/datasets"
	"pdnexplorer/edgekind"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/fmath"
	"pdnexplorer/pdn/internal/kernels"
)

// adam is torch.optim.Adam (β₁ = 0.9, β₂ = 0.999, ε = 1e-8) with L2 weight
// decay added to the gradient, over a list of tensors.
type adam struct {
	lr, wd      float64
	b1t, b2t    float64 // β₁ᵗ, β₂ᵗ
	params      []*tensor
	mom, second [][]float64
}

const (
	adamB1  = 0.9
	adamB2  = 0.999
	adamEps = 1e-8
)

func newAdam(params []*tensor, lr, wd float64) *adam {
	a := &adam{lr: lr, wd: wd, params: params}
	for _, p := range params {
		a.mom = append(a.mom, make([]float64, len(p.val)))
		a.second = append(a.second, make([]float64, len(p.val)))
	}
	a.reset()
	return a
}

func (a *adam) reset() {
	a.b1t, a.b2t = 1, 1
	for i := range a.mom {
		clear(a.mom[i])
		clear(a.second[i])
	}
}

// step applies one update:
//
//	g ← g + λθ,  m ← β₁m + (1−β₁)g,  v ← β₂v + (1−β₂)g²,
//	θ ← θ − (lr/(1−β₁ᵗ)) · m / (√v/√(1−β₂ᵗ) + ε).
func (a *adam) step() {
	a.b1t *= adamB1
	a.b2t *= adamB2
	stepSize := a.lr / (1 - a.b1t)
	bc2 := math.Sqrt(1 - a.b2t)
	for k, p := range a.params {
		// 1−β₁ and 1−β₂ as Go's constants round them.
		kernels.AdamStep(p.val, p.grad, a.mom[k], a.second[k], a.wd, adamB1, 1-adamB1, adamB2, 1-adamB2, stepSize, bc2, adamEps)
	}
}

// Snapshot is the state of a run after an epoch, read in evaluation mode
// (no dropout) with the weights after that epoch's update.
type Snapshot struct {
	Epoch     int
	Loss      float64 // training loss of the epoch's step (with dropout)
	TrainLoss float64 // training loss read without dropout
	TrainAcc  float64
	TestAcc   float64
	ValAcc    float64 // on the validation nodes; NaN for a split without them
	// Weights are the weights the edges carry, one per undirected edge:
	// learned for PDN, all 1 for GCN, mean attention for GAT, nil for a
	// model without them. EvaluateInto reuses the slice.
	Weights []float64
	// WIntra and WInter are the mean weights on intra- and inter-class
	// edges, NaN when the graph has no edge kinds or no weights.
	WIntra, WInter float64
	// InputHomophily is the graph's edge homophily: the share of its edges
	// that join two nodes of one class. LearnedHomophily is the share of
	// the weight the model puts on those edges, Σ_{y_u = y_v} w_e / Σ w_e:
	// the homophily of the learned structure, as graph-structure learning
	// benchmarks (OpenGSL) measure it. A model whose every edge weighs 1
	// (GCN) learns the input's. NaN without edges, or (learned) without
	// weights.
	InputHomophily, LearnedHomophily float64
	// Inputs is the linear PDN's softmax attention over its D inputs, and
	// Hops the multi-scale PDN's softmax weights over the powers of Â;
	// nil for other models.
	Inputs, Hops []float64
	// Unstable, if not nil, says the training loss has climbed far above
	// where it started: lr is likely too high, though the run goes on.
	Unstable *UnstableError
	// Pred is the class the model predicts for each node (the first
	// largest logit) and Prob the softmax probability it gives that class.
	// EvaluateInto reuses both slices.
	Pred []int
	Prob []float64
}

// reuser is a network whose next training pass can take what an
// evaluation under the same weights computed (gcnNet.reuseEvaluation).
type reuser interface{ reuseEvaluation() }

// inputsAttention and hopWeights are the models that expose them.
type inputsAttention interface{ inputWeights() []float64 }
type hopWeights interface{ hopWeights() []float64 }

// Trainer runs full-batch training one epoch at a time. The caller drives
// it: call Step to train an epoch and Evaluate to read a Snapshot. Pausing
// is not calling Step; Reset goes back to the very same initial weights.
// A Trainer is not safe for concurrent use.
type Trainer struct {
	exp       experiment.Experiment
	g         *datasets.Graph
	net       network
	opt       *adam
	init      [][]float64
	epoch     int
	loss      float64
	firstLoss float64 // the loss of epoch 1, to see it climb
	// inputHomophily is the graph's edge homophily, computed once: its
	// edges and labels do not change under a trainer.
	inputHomophily float64
	unstable       *UnstableError
	train          []int
	test           []int
	val            []int
	glogits        []float64
	cost           Cost
	pc             *pacer
	// restarts is the restart remedy, when e.Model.Restarts asks for it:
	// until it is done the trainer has no network, and then it is the
	// initialisation kept.
	restarts *Restarts
	// transfer is the set-up of a model over a PDN's learned graph, when
	// e.Model.GraphFrom asks for it: until it is done the trainer has no
	// network.
	transfer *transfer
	// evaluated says the network's buffers hold an evaluation of the
	// weights as they are (EvaluateInto ran since the last step or
	// reset), which Trace reads without a forward pass of its own.
	evaluated bool
}

// NewTrainer builds the model of e on g with the weights drawn from
// e.Train.Seed. It validates e and g, refuses a graph the model cannot
// train on (one class, no training nodes, no edges for a graph model), and
// refuses, with a *CostError, a model whose estimated cost exceeds
// NativeLimits; e.Data is only carried along. With e.Model.Restarts, the
// weights are those of the initialisation the restart remedy keeps (see
// Restarts), which Prepare, Step or Evaluate choose first.
//
// It is the one constructor of a trainer: the CLI and the browser's worker
// both build every model through it.
func NewTrainer(g *datasets.Graph, e experiment.Experiment) (*Trainer, error) {
	chooseWidth() // once: the vector width this processor runs fastest
	if err := e.Validate(); err != nil {
		return nil, err
	}
	if err := checkTrainable(g, e.Data, e.Model); err != nil {
		return nil, err
	}
	cost := Estimate(ShapeOf(g), e.Model)
	if err := cost.Check(NativeLimits, nil); err != nil {
		return nil, err
	}
	if e.Model.GraphFrom == experiment.FromPDN && experiment.TakesWeights(e.Model.Kind) {
		return newTransfer(g, e, cost)
	}
	if restarts, _ := experiment.Lookup("restarts"); e.Model.Restarts > 0 && restarts.ReadByModel(e.Model) {
		return &Trainer{exp: e, g: g, cost: cost, pc: &pacer{}, loss: math.NaN(), firstLoss: math.NaN(),
			restarts: newRestarts(g, e, cost)}, nil
	}
	return newTrainer(g, e, cost), nil
}

// newTrainer builds the model of e, checked already, with the weights of
// its seed.
func newTrainer(g *datasets.Graph, e experiment.Experiment, cost Cost) *Trainer {
	net := newNetwork(g, e.Model, e.Train.Seed)
	t := &Trainer{exp: e, g: g, net: net, opt: newAdam(net.params(), e.Train.LR, e.Train.WeightDecay),
		train: g.Nodes(datasets.Train), test: g.Nodes(datasets.Test), val: g.Nodes(datasets.Val), loss: math.NaN(), firstLoss: math.NaN(),
		glogits: make([]float64, g.N*g.C), cost: cost, pc: &pacer{}, inputHomophily: homophily(g, nil)}
	net.setPacer(t.pc)
	for _, p := range net.params() {
		t.init = append(t.init, append([]float64(nil), p.val...))
	}
	return t
}

// Cost returns the estimated cost of the trainer's model on its graph.
func (t *Trainer) Cost() Cost { return t.cost }

// SetPace makes every training step call f about every million units of
// work (see Cost) with the share of the epoch done so far, estimated, in
// [0, 1). f may block: the browser's worker yields to its event loop there
// and waits while paused. Pacing changes no result. A nil f stops it.
func (t *Trainer) SetPace(f func(done float64)) {
	if f == nil {
		t.pc.fn = nil
		return
	}
	t.pc.fn = func(units float64) { f(min(units/t.cost.Epoch, 0.99)) }
}

// Prepare does up to budget of the slow set-up (the restart remedy's
// initialisations, DeepWalk's embeddings; most models have none), at least
// one piece of it, and reports whether it is complete. Step and Evaluate
// complete it anyway; a caller that must stay responsive, like the
// browser's worker, calls Prepare in pieces first.
func (t *Trainer) Prepare(budget time.Duration) bool {
	deadline := time.Now().Add(budget)
	if t.restarts != nil && !t.prepareRestarts(deadline) {
		return false
	}
	if t.transfer != nil && !t.prepareTransfer(deadline) {
		return false
	}
	p, ok := t.net.(preparer)
	return !ok || p.prepare(deadline)
}

// prepared completes the set-up, for the methods that need the network.
func (t *Trainer) prepared() {
	for !t.Prepare(time.Minute) {
	}
}

// Preparing returns the share of the slow set-up done so far: 1 when it is
// complete or there is none.
func (t *Trainer) Preparing() float64 {
	if t.net == nil && t.transfer != nil {
		return t.transfer.share()
	}
	if t.net == nil {
		return t.restarts.Share()
	}
	if p, ok := t.net.(preparer); ok {
		return p.preparing()
	}
	return 1
}

// Unstable returns the warning the run has earned, if any: its loss rose
// far above where it began (see UnstableError). Snapshots carry it too;
// this reads it without an evaluation.
func (t *Trainer) Unstable() *UnstableError { return t.unstable }

// Epoch returns the number of epochs trained since the start or the last Reset.
func (t *Trainer) Epoch() int { return t.epoch }

// Done reports whether the experiment's epochs have all been trained.
func (t *Trainer) Done() bool { return t.net != nil && t.epoch >= t.exp.Train.Epochs }

// Experiment returns the experiment the trainer was made for; with
// restarts, that one, not the initialisation kept (whose seed is its own).
func (t *Trainer) Experiment() experiment.Experiment {
	if t.restarts != nil {
		return t.restarts.e
	}
	return t.exp
}

// Scale is the size of a graph's inputs, the largest |value| among its
// node and edge features: a run that diverges or climbs on inputs far
// beyond a few units is the data's fault, and lowering lr will not help.
type Scale struct{ MaxX, MaxEdge float64 }

// hugeInput is where inputs stop being a few units and start being the
// likely cause of a loss that runs away.
const hugeInput = 1e6

func scaleOf(g *datasets.Graph) Scale {
	return Scale{largestAbs(g.FeatureValues()), largestAbs(g.EdgeX)}
}

// blame says what to change: the data if they are huge, else lr.
func (s Scale) blame(lr float64) phrase.Text {
	if s.MaxX > hugeInput || s.MaxEdge > hugeInput {
		return phrase.New("the data are to blame, not lr: node features reach |x| = %.3g and edge features %.3g; scale them to a few units",
			s.MaxX, s.MaxEdge)
	}
	p, _ := experiment.Lookup("lr")
	return phrase.New("lower lr (now %g; allowed %s)", lr, p.RangeText())
}

// DivergedError reports a loss that is no longer finite.
type DivergedError struct {
	Epoch int
	Loss  float64
	LR    float64
	Scale Scale
}

func (e *DivergedError) Error() string { return e.Phrase().String() }

// Phrase says the error as a message.
func (e *DivergedError) Phrase() phrase.Text {
	return phrase.New("training diverged at epoch %d: the loss is %v; %s", e.Epoch, e.Loss, e.Scale.blame(e.LR))
}

// InputError reports a loss that is not finite with the initial weights,
// before any update: the learning rate is not to blame, the data are.
type InputError struct {
	Loss  float64
	Scale Scale
}

func (e *InputError) Error() string { return e.Phrase().String() }

// Phrase says the error as a message.
func (e *InputError) Phrase() phrase.Text {
	return phrase.New("the loss is %v with the initial weights, before any update, so the data are to blame, not lr: "+
		"node features reach |x| = %.3g and edge features %.3g; scale them to a few units", e.Loss, e.Scale.MaxX, e.Scale.MaxEdge)
}

// UnstableError says the training loss has risen far above its first
// value: the run goes on, but lr (or the data's scale) is to blame.
type UnstableError struct {
	From, To float64
	Epoch    int
	LR       float64
	Scale    Scale
}

func (e *UnstableError) Error() string { return e.Phrase().String() }

// Phrase says the error as a message.
func (e *UnstableError) Phrase() phrase.Text {
	return phrase.New("training is unstable: the loss rose from %.3g at epoch 1 to %.3g at epoch %d; %s",
		e.From, e.To, e.Epoch, e.Scale.blame(e.LR))
}

// unstableRise is how far above its first value the loss may climb before
// the run is called unstable: dropout makes it wobble, never tenfold.
const unstableRise = 10

// largestAbs returns max |x|, 0 for none.
func largestAbs(xs []float64) float64 {
	m := 0.0
	for _, x := range xs {
		m = max(m, math.Abs(x))
	}
	return m
}

// Step trains one epoch: forward with dropout, backward, one Adam update
// (one per batch for a batched model). It returns the epoch's mean loss, or
// a *DivergedError (and leaves the weights of that step untouched) when the
// loss is not finite.
func (t *Trainer) Step() (float64, error) {
	t.prepared()
	if r, ok := t.net.(reuser); ok && t.evaluated {
		r.reuseEvaluation()
	}
	t.evaluated = false
	nb := 1
	b, isBatched := t.net.(batched)
	if isBatched {
		nb = b.batches()
		defer b.setBatch(-1)
	}
	var total float64
	t.pc.start()
	defer t.pc.stop()
	for i := 0; i < nb; i++ {
		if isBatched {
			b.setBatch(i)
		}
		var loss float64
		self, ok := t.net.(selfStepper)
		if ok {
			loss = self.trainStep()
		} else {
			loss = t.step()
		}
		if math.IsNaN(loss) || math.IsInf(loss, 0) {
			if t.epoch == 0 && i == 0 {
				return loss, &InputError{Loss: loss, Scale: scaleOf(t.g)}
			}
			return loss, &DivergedError{Epoch: t.epoch + 1, Loss: loss, LR: t.exp.Train.LR, Scale: scaleOf(t.g)}
		}
		if !ok {
			t.opt.step()
		}
		total += loss
	}
	t.epoch++
	t.loss = total / float64(nb)
	if t.epoch == 1 {
		t.firstLoss = t.loss
	} else if t.unstable == nil && t.loss > unstableRise*t.firstLoss {
		t.unstable = &UnstableError{From: t.firstLoss, To: t.loss, Epoch: t.epoch, LR: t.exp.Train.LR, Scale: scaleOf(t.g)}
	}
	return t.loss, nil
}

// step runs one forward and backward pass and returns its loss.
func (t *Trainer) step() float64 {
	for _, p := range t.net.params() {
		clear(p.grad)
	}
	logits := t.net.forward(true)
	rows, labels := t.net.lossRows()
	g := t.glogits[:len(logits)]
	loss := weighedLoss(t.net, logSoftmaxNLL(g, logits, t.g.C, rows, labels), g)
	t.net.backward(g)
	return loss
}

// Reset returns to epoch 0 with the initial weights, optimiser state and
// dropout stream, so the next run repeats the first one bit for bit. With
// restarts, it tries them all again, to the same choice.
func (t *Trainer) Reset() {
	if r := t.restarts; r != nil {
		*t = Trainer{exp: r.e, g: t.g, cost: t.cost, pc: t.pc, loss: math.NaN(), firstLoss: math.NaN(),
			restarts: newRestarts(r.g, r.e, r.cost)}
		return
	}
	if t.net == nil {
		return // a PDN still learning the graph: no epoch of the model yet
	}
	for k, p := range t.net.params() {
		copy(p.val, t.init[k])
	}
	t.opt.reset()
	if s, ok := t.net.(selfStepper); ok {
		s.resetSteps()
	}
	t.net.reseed(t.exp.Train.Seed)
	t.evaluated = false
	t.epoch, t.loss, t.firstLoss, t.unstable = 0, math.NaN(), math.NaN(), nil
}

// Evaluate returns a Snapshot with its own copy of the weights.
func (t *Trainer) Evaluate() Snapshot {
	var s Snapshot
	t.EvaluateInto(&s)
	return s
}

// EvaluateInto fills s, reusing s.Weights, so that a loop that evaluates
// every epoch does not allocate.
func (t *Trainer) EvaluateInto(s *Snapshot) {
	t.prepared()
	logits := t.net.forward(false)
	t.evaluated = true
	g := t.g
	s.Epoch, s.Loss, s.Unstable = t.epoch, t.loss, t.unstable
	s.TrainLoss = logSoftmaxNLL(nil, logits, g.C, t.train, g.Labels)
	s.TrainAcc = accuracy(logits, g.C, t.train, g.Labels)
	s.TestAcc = accuracy(logits, g.C, t.test, g.Labels)
	s.ValAcc = accuracy(logits, g.C, t.val, g.Labels)
	s.Pred, s.Prob = predict(s.Pred[:0], s.Prob[:0], logits, g.C)
	s.Inputs, s.Hops = nil, nil
	if a, ok := t.net.(inputsAttention); ok {
		s.Inputs = a.inputWeights()
	}
	if h, ok := t.net.(hopWeights); ok {
		s.Hops = h.hopWeights()
	}
	w := t.net.edgeWeights()
	s.InputHomophily = t.inputHomophily
	if w == nil {
		s.Weights = s.Weights[:0]
		s.WIntra, s.WInter, s.LearnedHomophily = math.NaN(), math.NaN(), math.NaN()
		return
	}
	s.Weights = append(s.Weights[:0], w...)
	s.WIntra, s.WInter = meanByKind(w, g.Kind)
	s.LearnedHomophily = homophily(g, w)
}

// homophily is the share of the weight w (every edge 1 for nil) on the
// edges of g whose ends share a class, of the edges whose ends both have
// one (an edge to a node without a class is of unknown kind); NaN for
// none.
func homophily(g *datasets.Graph, w []float64) float64 {
	var same, all float64
	for e := range g.Src {
		kind := edgekind.Of(g.Labels[g.Src[e]], g.Labels[g.Dst[e]])
		if kind == edgekind.Unknown {
			continue
		}
		x := 1.0
		if w != nil {
			x = w[e]
		}
		all += x
		if kind == edgekind.Intra {
			same += x
		}
	}
	if all == 0 {
		return math.NaN()
	}
	return same / all
}

// accuracy returns the share of rows whose largest logit is their label
// (the first largest on ties), NaN for no rows.
func accuracy(logits []float64, c int, rows, labels []int) float64 {
	if len(rows) == 0 {
		return math.NaN()
	}
	right := 0
	for _, i := range rows {
		if argmax(logits[i*c:(i+1)*c]) == labels[i] {
			right++
		}
	}
	return float64(right) / float64(len(rows))
}

// predict appends each row's first largest logit and its softmax
// probability, exp(0)/Σⱼ exp(zⱼ − z_max).
func predict(pred []int, prob, logits []float64, c int) ([]int, []float64) {
	for i := 0; i+c <= len(logits); i += c {
		row := logits[i : i+c]
		k := argmax(row)
		var sum float64
		for _, z := range row {
			sum += math.Exp(z - row[k])
		}
		pred, prob = append(pred, k), append(prob, 1/sum)
	}
	return pred, prob
}

func argmax(x []float64) int {
	best := 0
	for j, v := range x {
		if v > x[best] {
			best = j
		}
	}
	return best
}

// meanByKind returns the mean of w over intra- and inter-class edges.
func meanByKind(w []float64, kind []edgekind.Kind) (intra, inter float64) {
	var si, se float64
	var ni, ne int
	for e, k := range kind {
		switch k {
		case datasets.KindIntra:
			si += w[e]
			ni++
		case datasets.KindInter:
			se += w[e]
			ne++
		}
	}
	return si / float64(ni), se / float64(ne)
}

// Pathfinder runs the trainer's pathfinder on one edge's features z and
// returns the activations of its MLP's last hidden layer (nil without one)
// and the edge weight: the PDN's MLP, or the linear PDN's σ(softmax(β)·z).
// ok is false for a model without a pathfinder over edge features.
func (t *Trainer) Pathfinder(z []float64) (hidden []float64, weight float64, ok bool) {
	t.prepared()
	m, isGCN := t.net.(*gcnNet)
	if !isGCN {
		return nil, 0, false
	}
	if l, isLinear := m.edges.(*linearPathfinder); isLinear {
		if len(z) != len(l.p) {
			return nil, 0, false
		}
		p := make([]float64, len(z))
		softmax(p, l.beta.val)
		return nil, fmath.Sigmoid(kernels.Dot(z, p)), true
	}
	p, isMLP := m.edges.(*pathfinder)
	if !isMLP || len(z) != p.layers[0].in {
		return nil, 0, false
	}
	x := append([]float64(nil), z...)
	for l, layer := range p.layers {
		y := make([]float64, layer.out)
		layer.forward(y, x, 1)
		if l+1 < len(p.layers) {
			kernels.Relu(y, y)
			hidden = y
		}
		x = y
	}
	return hidden, fmath.Sigmoid(x[0]), true
}

// DirectedWeights returns, for every edge seen from each of its ends, the
// receiving node and the weight it gives the edge: GAT's first-layer
// attention α_ij averaged over heads (it depends on i's neighbourhood), or
// the edge's one weight, twice, for models that learn one per edge. It is
// nil for models without edge weights. Call it after Evaluate.
func (t *Trainer) DirectedWeights() (to []int32, w []float64) {
	t.prepared()
	if a, ok := t.net.(*gat); ok {
		l := a.l1
		for i := 0; i < l.g.n; i++ {
			for k := l.g.rowPtr[i]; k < l.g.rowPtr[i+1]; k++ {
				if l.g.eid[k] < 0 {
					continue // the self-loop
				}
				var s float64
				for h := 0; h < l.Heads; h++ {
					s += l.Alpha[int(k)*l.Heads+h]
				}
				to, w = append(to, int32(i)), append(w, s/float64(l.Heads))
			}
		}
		return to, w
	}
	ew := t.net.edgeWeights()
	if ew == nil {
		return nil, nil
	}
	for e, x := range ew {
		to, w = append(to, t.g.Src[e], t.g.Dst[e]), append(w, x, x)
	}
	return to, w
}
