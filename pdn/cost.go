package pdn

import (
	"fmt"
	"slices"
	"strings"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/internal/numtext"
)

// Shape is what the cost of a model depends on: nodes, undirected edges,
// node features, edge features and classes, and for sparse node features
// the number stored (NNZ; 0 for dense ones).
type Shape struct {
	N, E, F, D, C int
	NNZ           int
}

// ShapeOf returns the shape of g.
func ShapeOf(g *datasets.Graph) Shape {
	s := Shape{N: g.N, E: g.E(), F: g.F, D: g.D, C: g.C}
	if g.XS != nil {
		s.NNZ = g.XS.NNZ()
	}
	return s
}

// inputs is the number of node-feature values a product with X touches:
// N·F dense, the non-zeros sparse.
func (s Shape) inputs() float64 {
	if s.NNZ > 0 {
		return float64(s.NNZ)
	}
	return float64(s.N) * float64(s.F)
}

// ExpectedShape returns the shape of the synthetic graph the generator
// makes from d, on average: its cost can be checked before it exists.
func ExpectedShape(d experiment.Data) Shape {
	if d.Real() {
		b, err := datasets.ShapeOfBuiltin(d.Graph)
		if err == nil {
			return Shape{N: b.Nodes, E: b.Edges, F: b.Features, D: len(datasets.TieStrengthNames), C: b.Classes, NNZ: b.NonZeros}
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
	}
	return s
}

// Cost estimates what training a model on a graph costs, before the model
// is built: the memory it holds and the work of one epoch, in units of
// about one multiply-add of a dense kernel, counted from the sizes of the
// loops the model runs. Sparse, gathering loops count a unit and a half per
// multiply-add; one-off set-up (DeepWalk's walks and embeddings, SGC's Â²X,
// ClusterGCN's partition) counts apart, as Setup, and Blocking says whether
// that set-up runs in one piece (ClusterGCN's Louvain partition, inside
// gonum) rather than in the pieces Trainer.Prepare allows.
//
// The estimate is meant to be right within a factor of two; its job is to
// refuse what would take minutes per epoch or more memory than there is,
// before any of it is allocated.
type Cost struct {
	Bytes    float64 // memory held by the graph and the model
	Epoch    float64 // work units of one training epoch
	Eval     float64 // work units of one evaluation (a forward pass)
	Setup    float64 // work units before the first epoch
	Blocking bool    // the set-up cannot be cut into pieces
	Parts    []Part  // where the cost goes, largest first
}

// Part is one term of a Cost, with the fields of the state table (and the
// graph's "nodes" and "edges") that drive it.
type Part struct {
	What   string
	Epoch  float64
	Setup  float64
	Bytes  float64
	Fields []string
}

// Limits is what a place can afford.
type Limits struct {
	Where       string  // "the browser", "the command line"
	MaxBytes    float64 // memory
	NsPerUnit   float64 // how long a work unit takes there
	MaxEpochSec float64 // one epoch
	MaxSetupSec float64 // set-up done in pieces
	MaxBlockSec float64 // set-up done in one piece
}

// NativeLimits are the CLI's: a 2-core machine with memory to spare. A
// unit takes about 0.45 ns natively (measured: the default PDN's epoch is
// 13 M units in 6 ms).
var NativeLimits = Limits{Where: "the command line", MaxBytes: 8 << 30, NsPerUnit: 0.45,
	MaxEpochSec: 60, MaxSetupSec: 600, MaxBlockSec: 600}

// BrowserLimits are the explorer's worker's: WebAssembly is about three
// times slower than native Go and has no threads; its memory is one heap
// of at most 4 GiB that Go's collector must be able to double. An epoch of
// a second keeps the views alive; the worker cuts longer work into pieces
// anyway, so pause acts at once.
var BrowserLimits = Limits{Where: "the browser", MaxBytes: 1 << 30, NsPerUnit: 1.4,
	MaxEpochSec: 1, MaxSetupSec: 120, MaxBlockSec: 3}

// Seconds returns how long an epoch and the set-up take under l.
func (c Cost) Seconds(l Limits) (epoch, setup float64) {
	return c.Epoch * l.NsPerUnit * 1e-9, c.Setup * l.NsPerUnit * 1e-9
}

// CostError refuses a run that exceeds its limits, naming the fields to
// lower; Field is the first of them.
type CostError struct {
	Cost   Cost
	Limits Limits
	Field  string
	msg    string
}

func (e *CostError) Error() string { return e.msg }

// Check returns a *CostError if c exceeds l, or nil. lever turns a field
// name into what the user should lower (the CLI says "the bundle's edges"
// where the worker says p, q or per-class); nil keeps the names.
func (c Cost) Check(l Limits, lever func(field string) []string) error {
	epoch, setup := c.Seconds(l)
	setupLimit := l.MaxSetupSec
	if c.Blocking {
		setupLimit = l.MaxBlockSec
	}
	var over []string
	var key func(Part) float64
	switch {
	case c.Bytes > l.MaxBytes:
		over = append(over, fmt.Sprintf("about %s of memory (%s allows %s)", bytesText(c.Bytes), l.Where, bytesText(l.MaxBytes)))
		key = func(p Part) float64 { return p.Bytes }
	case epoch > l.MaxEpochSec:
		over = append(over, fmt.Sprintf("about %s per epoch (%s allows %s)", secondsText(epoch), l.Where, secondsText(l.MaxEpochSec)))
		key = func(p Part) float64 { return p.Epoch }
	case setup > setupLimit:
		over = append(over, fmt.Sprintf("about %s to set up (%s allows %s)", secondsText(setup), l.Where, secondsText(setupLimit)))
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
	msg := fmt.Sprintf("this run needs %s, most of it for %s: lower %s", over[0], top.What, orList(lower))
	return &CostError{Cost: c, Limits: l, Field: firstField(lower), msg: msg}
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

func orList(s []string) string {
	switch len(s) {
	case 0:
		return "the size of the graph"
	case 1:
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
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

// Units of work per loop element, relative to a dense multiply-add.
const (
	gatherUnit = 1.5 // a multiply-add through an index (propagation over edges)
	expUnit    = 20  // an exponential (σ, softmax, ELU)
	f64        = 8   // bytes of a float64
)

// Estimate returns the cost of training m on a graph of shape s.
func Estimate(s Shape, m experiment.Model) Cost {
	kind := models[m.Kind]
	var parts []Part
	if kind.cost != nil {
		parts = kind.cost(s, m)
	}
	parts = append(parts, graphCost(s))
	c := Cost{Parts: parts, Blocking: kind.blocking}
	for _, p := range parts {
		c.Bytes += p.Bytes
		c.Epoch += p.Epoch
		c.Setup += p.Setup
	}
	// A forward pass is about a third of a training step: the backward
	// pass does the forward's products twice over (inputs and weights).
	c.Eval = c.Epoch / 3
	return c
}

// graphCost is the graph itself: features, edges, and the map Check keeps
// of every pair while it looks for repeats.
func graphCost(s Shape) Part {
	n, e := float64(s.N), float64(s.E)
	x := f64 * s.inputs()
	if s.NNZ > 0 {
		x += 4*s.inputs() + 8*n // column indices and row offsets
	}
	return Part{What: "the graph", Bytes: x + f64*e*float64(s.D) + 9*e + 9*n + 64*e,
		Fields: []string{"nodes", "node-features", "edges", "edge-features"}}
}

// convCost is one graph convolution in→out over n nodes and e edges
// (without a graph when e < 0), with dx when withDx, and the gradient of
// Â when learn.
//
// The input's entries are n·in, or fewer for sparse node features (xs).
func convCost(n, e, in, out, xs float64, withDx, learn bool) (epoch, bytes float64) {
	dense := xs * out
	if e < 0 { // an MLP layer
		epoch = 2 * dense
		if withDx {
			epoch += dense
		}
		return epoch, f64 * in * out * 6
	}
	prop := gatherUnit * (n + 2*e) * out
	epoch = 2*dense + 2*prop
	if withDx {
		epoch += dense
	}
	if learn {
		epoch += prop
	}
	return epoch, f64 * (2*n*out + 6*in*out)
}

// gcnNetCost is gcnNet: an edge model (PDN and its variants), two
// convolutions, and the buffers between them.
func gcnNetCost(s Shape, m experiment.Model) []Part {
	n, e := float64(s.N), float64(s.E)
	f, h, c := float64(s.F), float64(m.Hidden), float64(s.C)
	kind := models[m.Kind]
	learn, graph := kind.edges != nil, kind.graph
	ge := e
	if !graph {
		ge = -1
	}
	e1, b1 := convCost(n, ge, f, h, s.inputs(), false, learn)
	e2, b2 := convCost(n, ge, h, c, n*h, true, learn)
	parts := []Part{
		{What: "the first layer over the node features", Epoch: e1, Bytes: b1 + f64*6*n*h, Fields: []string{"hidden", "node-features", "nodes", "edges"}},
		{What: "the second layer", Epoch: e2, Bytes: b2 + f64*3*n*c, Fields: []string{"hidden", "nodes", "edges"}},
	}
	if graph {
		// Â: the adjacency both ways (int32), degrees, coefficients and
		// their gradients, the edge weights, DropEdge's mask.
		parts = append(parts, Part{What: "the normalised adjacency", Epoch: gatherUnit * 8 * (n + e),
			Bytes: 4*(n+4*e) + f64*(5*n+6*e), Fields: []string{"edges", "nodes"}})
	}
	if kind.edgesCost != nil {
		parts = append(parts, kind.edgesCost(s, m))
	}
	return parts
}

// pathfinderCost is the pathfinder MLP over the edges' features.
func pathfinderCost(s Shape, m experiment.Model) Part {
	e := float64(s.E)
	var epoch, acts, params float64
	in := float64(s.D)
	sizes := append(slices.Clone(m.EdgeHidden), 1)
	for i, hs := range sizes {
		out := float64(hs)
		epoch += 2 * e * in * out // forward and the weights' gradient
		if i > 0 {
			epoch += e * in * out // the input's gradient
		}
		acts += out
		params += (in + 1) * out
		in = out
	}
	epoch += expUnit * e
	return Part{What: fmt.Sprintf("the pathfinder MLP over %s edges", numtext.Group(s.E)), Epoch: epoch,
		Bytes: f64 * (2*e*acts + e + 6*params), Fields: []string{"edge-hidden", "edge-features", "edges"}}
}

// linearPathfinderCost is the linear PDN's one neuron.
func linearPathfinderCost(s Shape, _ experiment.Model) Part {
	e := float64(s.E)
	return Part{What: "the linear pathfinder", Epoch: 2*e*float64(s.D) + expUnit*e, Bytes: f64 * 2 * e,
		Fields: []string{"edge-features", "edges"}}
}

// edgeConvCost is EdgeConv's node embeddings and their similarities.
func edgeConvCost(s Shape, m experiment.Model) Part {
	n, e, h := float64(s.N), float64(s.E), float64(m.Hidden)
	return Part{What: "the EdgeConv embeddings", Epoch: 2*s.inputs()*h + 3*gatherUnit*e*h + (expUnit*2)*e + expUnit*n*h,
		Bytes: f64 * (3*n*h + 2*e), Fields: []string{"hidden", "node-features", "edges"}}
}

// clusterGCNCost is a GCN whose subgraphs hold a second copy of every
// buffer, after a Louvain partition. gonum's Louvain grows about as the
// square of the edges (natively 0.19 s at 7,429 edges, 0.45 s at 15,653,
// 52 s at 110,422): 10 units an edge².
func clusterGCNCost(s Shape, m experiment.Model) []Part {
	gcn := m
	gcn.Kind = experiment.GCN
	parts := gcnNetCost(s, gcn)
	for i := range parts {
		parts[i].Bytes *= 2
	}
	return append(parts, Part{What: "the Louvain partition", Setup: 10 * float64(s.E) * float64(s.E),
		Bytes: 200 * float64(s.E+s.N), Fields: []string{"edges", "nodes"}})
}

func multiScaleCost(s Shape, m experiment.Model) []Part {
	n, e := float64(s.N), float64(s.E)
	h, c := float64(m.Hidden), float64(s.C)
	k := float64(max(m.Hops, 1))
	layer := func(xs, out float64, withDx bool) float64 {
		w := 2*xs*out + 2*k*gatherUnit*(n+2*e)*out + 3*k*n*out
		if withDx {
			w += xs * out
		}
		return w
	}
	return []Part{
		{What: "the first multi-scale layer", Epoch: layer(s.inputs(), h, false), Bytes: f64 * (2*(k+1)*n*h + 4*n*h),
			Fields: []string{"hidden", "node-features", "nodes", "edges"}},
		{What: "the second multi-scale layer", Epoch: layer(n*h, c, true), Bytes: f64 * 2 * (k + 1) * n * c,
			Fields: []string{"hidden", "nodes", "edges"}},
		{What: "the normalised adjacency", Bytes: 4*(n+4*e) + f64*(5*n+3*e), Fields: []string{"edges", "nodes"}},
	}
}

func sgcCost(s Shape) []Part {
	n, e, f, c := float64(s.N), float64(s.E), float64(s.F), float64(s.C)
	return []Part{
		{What: "the propagated features Â²X", Setup: SGCHops * gatherUnit * (n + 2*e) * f, Bytes: f64 * 2 * n * f,
			Fields: []string{"node-features", "edges", "nodes"}},
		{What: "the linear layer", Epoch: 2 * n * f * c, Bytes: f64 * 3 * n * c, Fields: []string{"node-features", "nodes"}},
		{What: "the normalised adjacency", Bytes: 4*(n+4*e) + f64*(5*n+3*e), Fields: []string{"edges", "nodes"}},
	}
}

func appnpCost(s Shape, m experiment.Model) []Part {
	n, e := float64(s.N), float64(s.E)
	h, c := float64(m.Hidden), float64(s.C)
	return []Part{
		{What: "the MLP over the node features", Epoch: 2*s.inputs()*h + 3*n*h*c, Bytes: f64 * (6*n*h + 3*n*c),
			Fields: []string{"hidden", "node-features", "nodes"}},
		{What: "the propagation", Epoch: 2 * APPNPSteps * (gatherUnit*(n+2*e)*c + 2*n*c), Bytes: f64 * (APPNPSteps + 4) * n * c,
			Fields: []string{"edges", "nodes"}},
		{What: "the normalised adjacency", Bytes: 4*(n+4*e) + f64*(5*n+3*e), Fields: []string{"edges", "nodes"}},
	}
}

func gatCost(s Shape, m experiment.Model) []Part {
	n, e, c := float64(s.N), float64(s.E), float64(s.C)
	ho := float64(GATHeads * GATHeadDim)
	arcs := 2*e + n // both directions and a self-loop per node
	attn := func(heads, o float64) float64 {
		return arcs * heads * (gatherUnit*3*o + 2*expUnit)
	}
	return []Part{
		{What: "the first attention layer's transform", Epoch: 2*s.inputs()*ho + expUnit*n*ho, Bytes: f64 * (7*n*ho + 2*s.inputs()),
			Fields: []string{"node-features", "nodes"}},
		{What: "the attention over the edges", Epoch: attn(GATHeads, GATHeadDim) + attn(1, c) + 3*n*ho*c,
			Bytes: (4 + f64*3*GATHeads) * arcs, Fields: []string{"edges", "nodes"}},
	}
}

func deepWalkCost(s Shape) []Part {
	n := float64(s.N)
	pairs := WalksPerNode * WalkLength * float64(WalkWindow+1) // centre–context pairs per node, both sides
	return []Part{
		{What: "DeepWalk's walks and embeddings", Setup: n * pairs * (WalkNegatives + 1) * (6*WalkDim + expUnit),
			Bytes: n * (4*WalksPerNode*WalkLength + f64*3*WalkDim), Fields: []string{"nodes"}},
		{What: "the regression", Epoch: 3 * n * WalkDim * float64(s.C), Bytes: f64 * 3 * n * float64(s.C), Fields: []string{"nodes"}},
	}
}
