package pdn

import (
	"fmt"
	"math"
	"slices"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/pagemem"
)

// Shape is what the cost of a model depends on: nodes, undirected edges,
// node features, edge features and classes, and for sparse node features
// the number stored (NNZ; 0 for dense ones).
type Shape struct {
	N, E, F, D, C int
	NNZ           int
	// Train counts the labelled training nodes where the graph's split is
	// made (ShapeOf); 0 where it is not known yet, and a cost that grows
	// with it takes a 100-shot split's bound, 100 a class.
	Train int
	// TwoSteps is Σ_v (deg v + 1)², the walks of two steps over the graph
	// with a loop at every node: what squaring the adjacency visits, and
	// the bound on its entries, which a few hubs make near N² where the
	// mean degree says N·(d+1)² (ShapeOf); 0 where the degrees are not
	// known yet (ExpectedShape), and a cost that needs it takes the mean
	// degree's count and the bound N² for memory (twoStepPairs).
	TwoSteps int
	// LayerEdges counts the edges of every layer, an edge once for each
	// of its edge-feature columns that is not 0: a multiplex graph's
	// layers' edges, which the union's E counts once however many layers
	// share them (ShapeOf); 0 where not known yet, and a cost that needs it
	// takes E (layerEdges).
	LayerEdges int
}

// ShapeOf returns the shape of g.
func ShapeOf(g *datasets.Graph) Shape {
	s := Shape{N: g.N, E: g.E(), F: g.F, D: g.D, C: g.C}
	for i, sp := range g.Splits {
		if sp == datasets.Train && i < len(g.Labels) && g.Labels[i] != datasets.NoClass {
			s.Train++
		}
	}
	if g.XS != nil {
		s.NNZ = g.XS.NNZ()
	}
	deg := make([]int, g.N)
	for e := range g.Src {
		deg[g.Src[e]]++
		deg[g.Dst[e]]++
	}
	for _, d := range deg {
		s.TwoSteps += (d + 1) * (d + 1)
	}
	for _, v := range g.EdgeX {
		if v != 0 {
			s.LayerEdges++
		}
	}
	return s
}

// layerEdges returns the edges of a multiplex graph's layers, each
// counted in every layer that holds it (Shape.LayerEdges), or the union's
// where that is not known.
func (s Shape) layerEdges() float64 {
	if s.LayerEdges > 0 {
		return float64(s.LayerEdges)
	}
	return float64(s.E)
}

// twoStepPairs returns what squaring the adjacency with its loops costs:
// the walks of two steps it visits and the pairs it can join (its entries,
// at most N²), from the degrees where they are known (Shape.TwoSteps),
// else from the mean degree d as N·(d+1)², and the bytes to charge for
// holding those pairs as a matrix made row by row (a column and a value,
// 12 bytes a pair, and the slices' growth as rows are appended: up to
// 2.5 times that), or N² pairs' where the degrees are not known: the side
// of refusing, as a few hubs make the square near dense.
func (s Shape) twoStepPairs() (walks, pairs, bytes float64) {
	n := float64(s.N)
	if s.TwoSteps > 0 {
		walks = float64(s.TwoSteps)
		pairs = min(n*n, walks)
		return walks, pairs, 2.5 * 12 * pairs
	}
	d := 2*float64(s.E)/max(n, 1) + 1
	walks = n * d * d
	return walks, n * min(n, d*d), 12 * n * n
}

// walkedDegree is the mean degree, with the loop, of the node a step of
// a walk arrives at: Σ(deg+1)² / Σ(deg+1) (Shape.TwoSteps), which a few
// hubs make far more than the mean degree d, since a walk meets a node as
// often as it has edges; d where the degrees are not known. A power of
// the adjacency grows a row's entries by it at each step, to at most N.
func (s Shape) walkedDegree(d float64) float64 {
	if s.TwoSteps == 0 || s.N == 0 {
		return d
	}
	return max(d, float64(s.TwoSteps)/(float64(s.N)*d))
}

// inputs is the number of node-feature values a product with X touches:
// N·F dense, the non-zeros sparse.
func (s Shape) inputs() float64 {
	if s.NNZ > 0 {
		return float64(s.NNZ)
	}
	return float64(s.N) * float64(s.F)
}

// termInputs is the number of values T_k holds, the k-th hop of a
// neighbourhood operator applied to X (a polynomial convolution's input
// term): N·F dense; sparse, each hop merges a row's non-zeros with those
// of its 2E/N neighbours on average, at most F a row. An upper bound, as
// neighbours' features overlap: the side of refusing (on Facebook
// Page-Page's counts the second hop's rows are near dense, and ChebConv's
// epoch was 30 times an estimate that took X's non-zeros for every term).
func (s Shape) termInputs(k int) float64 {
	n, f := max(float64(s.N), 1), float64(s.F)
	if s.NNZ == 0 {
		return n * f
	}
	r, d := float64(s.NNZ)/n, 2*float64(s.E)/n
	for range k {
		r = min(f, r*(1+d))
	}
	return n * r
}

// ExpectedShape returns the shape of the synthetic graph the generator
// makes from d, on average: its cost can be checked before it exists.
func ExpectedShape(d experiment.Data) Shape {
	s := drawnShape(d)
	switch d.Perturb { // the edges a perturbation adds or drops
	case experiment.PerturbAddEdges, experiment.PerturbAddInter:
		s.E += int(math.Round(d.PerturbRate * float64(s.E)))
	case experiment.PerturbDrop:
		s.E -= int(math.Round(d.PerturbRate * float64(s.E)))
	}
	return s
}

// drawnShape is the expected shape of the graph d draws or ships, before
// any perturbation.
func drawnShape(d experiment.Data) Shape {
	if d.Real() {
		b, err := datasets.ShapeOfBuiltin(d.Graph)
		if err == nil {
			// Shots labelled nodes a class, as datasets.Real draws them (a
			// class of fewer gives all it has but one: a bound).
			return Shape{N: b.Nodes, E: b.Edges, F: b.Features, D: len(datasets.TieStrengthNames), C: b.Classes, NNZ: b.NonZeros,
				Train: min(d.Shots*b.Classes, b.Nodes)}
		}
	}
	intra, inter := d.ExpectedEdges()
	s := Shape{N: d.Nodes(), E: int(intra + inter), F: d.NodeFeatures, D: d.EdgeFeatures, C: d.Classes}
	switch d.Graph {
	case experiment.GraphXOR:
		s.D = 2
	case experiment.GraphScaleFree:
		// The synthetic edges are drawn first, then replaced by about m per node.
		s.E = max(s.E, d.Nodes()*d.Attach)
	case experiment.GraphMultiplex:
		shares, _ := d.LayerShares()
		s.D, s.E = len(shares), len(shares)*d.Nodes()*d.LayerDegree/2
	}
	return s
}

// Cost estimates what training a model on a graph costs, before the model
// is built: the memory it holds and the work of one epoch, counted by kind
// (Work) from the sizes of the loops the model runs. One-off set-up
// (DeepWalk's walks and embeddings, SGC's Â²X, ClusterGCN's partition)
// counts apart, and Blocking says whether that set-up runs in one piece
// (ClusterGCN's Louvain partition, inside gonum) rather than in the pieces
// Trainer.Prepare allows.
//
// Its seconds on a platform weigh each kind of work by what it costs
// there (Limits.Weights and Limits.Speeds), as measured against real epochs of every model on
// graphs of four sizes (BenchmarkCost); its job is to refuse what would
// take too long per epoch or more memory than there is, before any of it
// is allocated.
type Cost struct {
	Bytes float64 // memory held by the graph and the model, at its peak
	// SetupBytes is the part of Bytes held only while the set-up runs
	// (an SVD's buffers), freed before the first epoch.
	SetupBytes float64
	EpochWork  Work // one training epoch
	SetupWork  Work // before the first epoch
	// Epoch, Eval and Setup are the same in units of about one
	// multiply-add (Work.Units), by which a training step paces itself.
	Epoch    float64
	Eval     float64 // one evaluation (a forward pass)
	Setup    float64
	Blocking bool   // the set-up cannot be cut into pieces
	Parts    []Part // where the cost goes, largest first
	Kind     string // the model's, whose speed (Limits.Speeds) it is timed by
	// Weights are the values the model learns (every weight and bias),
	// and Updates the optimiser's updates of them an epoch: Weights a
	// step, one step a batch.
	Weights, Updates float64
	// RestartEpochs are the epochs the restart remedy trains before the
	// run (restarts × restart-epochs, for a model that reads them): set-up
	// at the speed of an epoch.
	RestartEpochs float64
}

// Work is an amount of computation by kind. Each kind takes its own time:
// the dense products run as SIMD kernels (four or two lanes at once), the
// products through an index (propagation over edges, sparse features,
// attention) wait on memory, an exponential costs tens of operations.
type Work struct {
	Dense  float64 // multiply-adds of dense products, and elementwise passes
	Gather float64 // multiply-adds through an index
	Exp    float64 // exponentials (σ, softmax, ELU)
}

// Units is w in units of about one dense multiply-add: a gather counts a
// unit and a half, an exponential twenty.
func (w Work) Units() float64 { return w.Dense + gatherUnit*w.Gather + expUnit*w.Exp }

// Plus is w + v.
func (w Work) Plus(v Work) Work { return Work{w.Dense + v.Dense, w.Gather + v.Gather, w.Exp + v.Exp} }

// Times is w scaled by k.
func (w Work) Times(k float64) Work { return Work{k * w.Dense, k * w.Gather, k * w.Exp} }

// weighed is w in units of dense work where a unit of each kind weighs
// as weights says.
func (w Work) weighed(weights Work) float64 {
	return w.Dense*weights.Dense + w.Gather*weights.Gather + w.Exp*weights.Exp
}

// Part is one term of a Cost, with the fields of the state table (and the
// graph's "nodes" and "edges") that drive it.
type Part struct {
	What      phrase.Text
	EpochWork Work
	SetupWork Work
	Epoch     float64 // EpochWork in units, with its weights' updates
	Setup     float64 // SetupWork in units
	Bytes     float64 // with its weights' (Estimate adds them)
	// SetupBytes are held while the set-up runs alone, and freed before
	// the first epoch (an SVD's buffers): Estimate adds them to Bytes, the
	// peak the limits check.
	SetupBytes float64
	// Weights are the values it learns (its weights and biases), which
	// Estimate charges by one rule for every model: weightBytes each, and
	// an update each optimiser step (Limits.UpdateNs).
	Weights float64
	// Scratch are the values its layers hold in buffers the size of a
	// weight matrix beside the weights themselves (layerWeights: every
	// layer's Wᵀ; GAT's head-minor W and ∂W), f64 each by the same rule.
	Scratch float64
	Fields  []string
}

// Limits is what a place can afford, and how fast it works.
type Limits struct {
	Where phrase.Text // the browser, the command line
	// Elsewhere is where a run refused here may go instead (the command
	// line, for the browser), or empty where there is nowhere.
	Elsewhere   phrase.Text
	MaxBytes    float64 // memory
	MaxEpochSec float64 // one epoch
	MaxSetupSec float64 // set-up done in pieces
	MaxBlockSec float64 // set-up done in one piece
	// Weights is what a unit of each kind of work weighs there against a
	// dense one, and Speeds how fast each model works through them.
	Weights Work
	Speeds  map[string]Speed
}

// Speed is how fast a place trains one model: the ns an epoch takes per
// unit of its work (weighed by Limits.Weights) and the ns it takes whatever
// its size (the steps' passes over buffers, the loss), the ns per unit of
// its set-up, and the ns of one learned value's update a step (Cost.Updates:
// its gradient cleared, its layer's passes over the whole weight, Adam's
// update), which for millions of weights wait on memory.
type Speed struct {
	EpochNs, FixedNs, SetupNs, UpdateNs float64
}

// speed is the speed of model kind under l: the slowest of the table's
// for a model it lacks.
func (l Limits) speed(kind string) Speed {
	if sp, ok := l.Speeds[kind]; ok {
		return sp
	}
	var slowest Speed
	for _, sp := range l.Speeds {
		slowest = Speed{max(slowest.EpochNs, sp.EpochNs), max(slowest.FixedNs, sp.FixedNs), max(slowest.SetupNs, sp.SetupNs), max(slowest.UpdateNs, sp.UpdateNs)}
	}
	return slowest
}

// NativeLimits are the CLI's: a 2-core machine with memory to spare. Its
// speeds are those measured on one core (BenchmarkCost).
var NativeLimits = Limits{Where: phrase.New("the command line"), MaxBytes: pagemem.NativeBytes,
	MaxEpochSec: 60, MaxSetupSec: 600, MaxBlockSec: 600, Weights: nativeWeights, Speeds: nativeSpeeds}

// BrowserLimits are the explorer's worker's, estimated on one thread: its
// hot loops run as SIMD kernels (pdn/internal/kernels), on helper threads
// too only where the page is cross-origin isolated (UseThreads); its memory is
// one heap of at most 4 GiB, of which a graph and its models may hold
// pagemem.Bytes (the worker holds Go's collector to pagemem.GoLimit). An
// epoch of a second keeps the views alive; the worker cuts longer work
// into pieces anyway, so pause acts at once.
var BrowserLimits = Limits{Where: phrase.New("the browser"), Elsewhere: phrase.New("the command line (pdn train)"), MaxBytes: pagemem.Bytes,
	MaxEpochSec: 1, MaxSetupSec: 120, MaxBlockSec: 3, Weights: browserWeights, Speeds: browserSpeeds}

// Seconds returns how long an epoch and the set-up take under l.
func (c Cost) Seconds(l Limits) (epoch, setup float64) {
	sp := l.speed(c.Kind)
	epoch = (c.EpochWork.weighed(l.Weights)*sp.EpochNs + sp.FixedNs + c.Updates*sp.UpdateNs) * 1e-9
	setup = c.SetupWork.weighed(l.Weights)*sp.SetupNs*1e-9 + c.RestartEpochs*epoch
	return epoch, setup
}

// CostError refuses a run that exceeds its limits, naming the fields to
// lower; Field is the first of them.
type CostError struct {
	Cost   Cost
	Limits Limits
	Field  string
	msg    phrase.Text
}

func (e *CostError) Error() string { return e.msg.String() }

// Phrase says the error as a message.
func (e *CostError) Phrase() phrase.Text { return e.msg }

// Check returns a *CostError if c exceeds l, or nil. lever turns a field
// name into what the user should lower (the CLI says "the bundle's edges"
// where the worker says p, q or per-class); nil keeps the names.
func (c Cost) Check(l Limits, lever func(field string) []string) error {
	epoch, setup := c.Seconds(l)
	setupLimit := l.MaxSetupSec
	if c.Blocking {
		setupLimit = l.MaxBlockSec
	}
	var over []phrase.Text
	var key func(Part) float64
	switch {
	case c.Bytes > l.MaxBytes:
		over = append(over, phrase.New("about %s of memory (%s allows %s)", bytesText(c.Bytes), l.Where, bytesText(l.MaxBytes)))
		key = func(p Part) float64 { return p.Bytes }
	case epoch > l.MaxEpochSec:
		over = append(over, phrase.New("about %s per epoch (%s allows %s)", secondsText(epoch), l.Where, secondsText(l.MaxEpochSec)))
		key = func(p Part) float64 { return p.Epoch }
	case setup > setupLimit:
		over = append(over, phrase.New("about %s to set up (%s allows %s)", secondsText(setup), l.Where, secondsText(setupLimit)))
		key = func(p Part) float64 { return p.Setup }
	default:
		return nil
	}
	parts := slices.Clone(c.Parts)
	slices.SortStableFunc(parts, func(a, b Part) int { return cmpDesc(key(a), key(b)) })
	top := parts[0]
	var lower []string
	for _, f := range top.Fields {
		names := []string{f}
		if lever != nil {
			names = lever(f)
		}
		for _, n := range names {
			if !slices.Contains(lower, n) {
				lower = append(lower, n)
			}
		}
	}
	field := firstField(lower)
	msg := phrase.New("this run needs %s, most of it for %s: lower %s", over[0], top.What, orList(lower))
	// A size no row sets (a shipped graph's nodes) is no advice: say
	// what can change instead.
	switch {
	case field == "" && l.Elsewhere.Key != "":
		msg = phrase.New("this run needs %s, most of it for %s; that grows with %s, and no setting here lowers them: choose another model or a smaller graph, or train it from %s",
			over[0], top.What, andList(lower), l.Elsewhere)
	case field == "":
		msg = phrase.New("this run needs %s, most of it for %s; that grows with %s, and no setting here lowers them: choose another model or a smaller graph",
			over[0], top.What, andList(lower))
	}
	return &CostError{Cost: c, Limits: l, Field: field, msg: msg}
}

func cmpDesc(a, b float64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}

// firstField is the first field of the state table among fields, for the
// control to mark.
func firstField(fields []string) string {
	for _, f := range fields {
		if _, ok := experiment.Lookup(f); ok {
			return f
		}
	}
	return ""
}

func orList(s []string) phrase.Text {
	return listText(s, func(head, last phrase.Text) phrase.Text { return phrase.New("%s or %s", head, last) })
}

func andList(s []string) phrase.Text {
	return listText(s, func(head, last phrase.Text) phrase.Text { return phrase.New("%s and %s", head, last) })
}

// listText joins Lever's names, the last by join, each said in the
// reader's language (experiment.LeverText).
func listText(s []string, join func(head, last phrase.Text) phrase.Text) phrase.Text {
	switch len(s) {
	case 0:
		return phrase.New("the size of the graph")
	case 1:
		return experiment.LeverText(s[0])
	}
	head := experiment.LeverText(s[0])
	for _, n := range s[1 : len(s)-1] {
		head = phrase.New("%s, %s", head, experiment.LeverText(n))
	}
	return join(head, experiment.LeverText(s[len(s)-1]))
}

func bytesText(b float64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GB", b/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.0f MB", b/(1<<20))
	}
	return fmt.Sprintf("%.0f KB", b/(1<<10))
}

func secondsText(s float64) string {
	switch {
	case s >= 3600:
		return fmt.Sprintf("%.1f h", s/3600)
	case s >= 120:
		return fmt.Sprintf("%.0f min", s/60)
	case s >= 10:
		return fmt.Sprintf("%.0f s", s)
	case s >= 1:
		return fmt.Sprintf("%.1f s", s)
	}
	return fmt.Sprintf("%.0f ms", s*1000)
}

// Units of work per loop element, relative to a dense multiply-add, by
// which a step paces itself (see Work.Units).
const (
	gatherUnit = 1.5 // a multiply-add through an index (propagation over edges)
	expUnit    = 20  // an exponential (σ, softmax, ELU)
	f64        = 8   // bytes of a float64
	// updateUnits is a learned value's step (Speed.UpdateNs) in units,
	// by which Check ranks the parts: about its 30–70 ns over a dense
	// unit's 0.05–0.13.
	updateUnits = 500
	// weightBytes is what a learned value holds: itself, its gradient,
	// Adam's two moments and the copy Trainer.Reset returns to.
	weightBytes = 5 * f64
)

// Estimate returns the cost of training m on a graph of shape s.
func Estimate(s Shape, m experiment.Model) Cost {
	kind := models[m.Kind]
	var parts []Part
	if kind.cost != nil {
		parts = kind.cost(s, m)
	}
	parts = append(parts, graphCost(s))
	c := Cost{Parts: parts, Blocking: kind.blocking, Kind: m.Kind}
	steps := float64(max(kind.steps, 1))
	for i, p := range parts {
		// Every part's weights, by one rule: their memory, the scratch of
		// their size its layers hold (TestEstimateFollowsMemoryOnWideFeatures)
		// and their updates, a step (TestEveryCostCountsItsWeights).
		parts[i].Bytes += weightBytes*p.Weights + f64*p.Scratch + p.SetupBytes
		c.SetupBytes += p.SetupBytes
		parts[i].Epoch, parts[i].Setup = p.EpochWork.Units()+updateUnits*steps*p.Weights, p.SetupWork.Units()
		c.Bytes += parts[i].Bytes
		c.Weights += p.Weights
		c.EpochWork = c.EpochWork.Plus(p.EpochWork)
		c.SetupWork = c.SetupWork.Plus(p.SetupWork)
	}
	c.Updates = steps * c.Weights
	// Epoch is what a step's kernels tick off as they go (its progress),
	// the weights' passes apart.
	c.Epoch, c.Setup = c.EpochWork.Units(), c.SetupWork.Units()
	// A forward pass is about a third of a training step: the backward
	// pass does the forward's products twice over (inputs and weights).
	c.Eval = c.Epoch / 3
	// The restarts train their epochs before the run (Trainer.Prepare):
	// a part of the set-up, said as such, that the rows restarts and
	// restart-epochs lower (a review of issue 57: 20 restarts were
	// accepted at the estimate of none).
	if restarts, _ := experiment.Lookup("restarts"); m.Restarts > 0 && restarts.ReadByModel(m) {
		c.RestartEpochs = float64(m.Restarts * max(m.RestartEpochs, 1))
		c.Parts = append(c.Parts, Part{What: phrase.New("the restarts' epochs"), Setup: c.RestartEpochs * c.Epoch, Fields: []string{"restarts", "restart-epochs"}})
		c.Setup += c.RestartEpochs * c.Epoch
	}
	// A model over PDN's learned graph builds and trains that PDN first,
	// and holds it beside itself (newTransfer): its memory is the model's
	// too, with a graph of its own where it learns on another draw (a
	// review of issue 58: the link that hung the browser passed as a GCN
	// over its PDN's graph).
	if m.GraphFrom == experiment.FromPDN && experiment.TakesWeights(m.Kind) {
		src := m
		src.Kind, src.GraphFrom, src.PathfinderSeed, src.PathfinderRows = experiment.PDN, experiment.FromInput, 0, ""
		from := Estimate(s, src)
		p := heldPart(phrase.New("the PDN whose learned graph it propagates over"), s, from)
		if m.PathfinderSeed != 0 {
			p.Bytes += GraphBytes(s)
		}
		c.Parts = append(c.Parts, p)
		c.Bytes += p.Bytes
	}
	return c
}

// GraphBytes is what a graph of shape s holds itself, in every estimate
// of a model over it: what two models trained on one graph share.
func GraphBytes(s Shape) float64 { return graphCost(s).Bytes }

// Beside is c, the cost of a model to be built on a graph of shape s that
// already holds the models whose costs are held (each estimated on that
// graph): their memory, less the graph each counts, is one more part of
// c's, so that Check refuses c where they and it together exceed the
// limits, and names the fields that lower the largest. Its epoch stays c's
// own: a model beside a run trains in the run's spare time.
func Beside(c Cost, s Shape, held ...Cost) Cost {
	part := heldPart(phrase.New("the models this graph holds already"), s, held...)
	out := c
	out.Parts = append(slices.Clone(c.Parts), part)
	out.Bytes += part.Bytes
	return out
}

// heldPart is what the models of held, each estimated on a graph of shape
// s, hold beyond the graph, as one part called what, with the fields that
// lower the largest of their own parts.
func heldPart(what phrase.Text, s Shape, held ...Cost) Part {
	g := graphCost(s)
	part, top := Part{What: what}, 0.0
	for _, h := range held {
		part.Bytes += h.Bytes - g.Bytes
		for _, p := range h.Parts {
			if p.Bytes > top && len(p.Fields) > 0 && p.What.Key != g.What.Key {
				top, part.Fields = p.Bytes, p.Fields
			}
		}
	}
	return part
}

// graphCost is the graph itself: features, edges with their features, and
// the map Check keeps of every pair while it looks for repeats, by the
// bytes an edge the page's reader bounds its edges by
// (pagemem.GraphEdgeBytes). The copy of sparse features a layer keeps
// transposed is the model's, not the graph's (sparseTransposeBytes): two
// models on one graph hold one graph and two transposes.
func graphCost(s Shape) Part {
	n, e := float64(s.N), float64(s.E)
	x := f64 * s.inputs()
	if s.NNZ > 0 {
		x += 4*s.inputs() + 8*n // column indices and row offsets
	}
	return Part{What: phrase.New("the graph"), Bytes: x + e*float64(pagemem.GraphEdgeBytes(s.D)) + 9*n,
		Fields: []string{"nodes", "node-features", "edges", "edge-features"}}
}

// countTransposes is whether estimates count sparseTransposeBytes: off
// only in the test that holds them to the transposes the models build.
var countTransposes = true

// sparseTransposeBytes is what a layer that reads nnz stored values of
// sparse features keeps of them transposed for its weight gradient
// (transposed: a value, a row and where it came from a non-zero, an
// offset a feature column); nothing where the features are dense. Every
// cost whose layer reads the sparse features adds it, once a layer and
// term (TestEstimateCountsEveryTranspose walks the built models).
func (s Shape) sparseTransposeBytes(nnz float64) float64 {
	if s.NNZ == 0 || !countTransposes {
		return 0
	}
	return (f64+8)*nnz + 8*float64(s.F+1)
}

// features is the work of products with the node features, k multiply-adds
// a value, for a layer of out outputs: dense over N·F values, or through
// an index over the stored ones, which read and add to rows of the
// layer's F×out Wᵀ (spill).
func (s Shape) features(k, out float64) Work {
	if s.NNZ > 0 {
		return Work{Gather: k * float64(s.NNZ) * spill(float64(s.F)*out)}
	}
	return Work{Dense: k * float64(s.N) * float64(s.F)}
}

// spill is what a multiply-add of a sparse product (kernels.SpMulABT and
// SpAccumATBCols: each non-zero (j, v) of a row reads or adds to row j of
// a matrix of values, Wᵀ or the weight gradient's transposed scratch)
// costs against one whose matrix stays in the caches, as on the graphs
// the speeds were fitted to (Facebook Page-Page's 4,714 features, 16
// outputs: 0.6 MB). Past the caches every non-zero brings its row from
// memory: 5,000 rows of 200 non-zeros into 32 outputs took 1.5 ns a
// multiply-add over 4,714 columns (1.2 MB), 2.7–5.2 over 20,000 (5 MB),
// 2.7–7.6 over 50,000, 11–22 over 200,000 (51 MB) and 3.5–39 over a
// million (the gather, then the scatter; on a loaded machine): about
// linear in the matrix's bytes past a few MB, up to a tenfold and more.
func spill(values float64) float64 {
	return min(max(f64*values/spillBytes, 1), spillMax)
}

const (
	spillBytes = 4 << 20 // a matrix up to this stays in the caches
	spillMax   = 12      // a row from memory a non-zero, at worst
)

// layerWeights are the learned values and the weight-sized scratch of a
// layer as the engine builds every layer with a weight matrix (conv,
// dense, polyConv, gatLayer, msLayer): terms matrices of out×in (one W_k
// a term) and a bias of out, and one Wᵀ of in·out (wt), in which the
// input's gradient reads W and which the sparse products (xMulWT, addGTX)
// use for their transposed scratch, shared by the terms.
func layerWeights(in, out, terms float64) (weights, scratch float64) {
	return terms*in*out + out, in * out
}

// convCost is one graph convolution in→out over n nodes and e edges
// (without a graph when e < 0), whose input products are xw (per output
// column), with dx when withDx, and the gradient of Â when learn; its
// weights are in·out and a bias (layerWeights).
func convCost(n, e, in, out float64, xw Work, withDx, learn bool) (epoch Work, bytes, weights, scratch float64) {
	// forward and the weights' gradient, and the input's gradient
	products := xw.Times(2 * out)
	if withDx {
		products = products.Plus(xw.Times(out))
	}
	weights, scratch = layerWeights(in, out, 1)
	if e < 0 { // an MLP layer
		return products, 0, weights, scratch
	}
	prop := (n + 2*e) * out
	epoch = products.Plus(Work{Gather: 2 * prop})
	if learn {
		epoch.Gather += prop
	}
	return epoch, f64 * 2 * n * out, weights, scratch // x·Wᵀ and its gradient
}
