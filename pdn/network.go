package pdn

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/pdn/internal/kernels"
)

// Streams of the weight seed.
const (
	streamInit = iota + 1
	streamDropout
	streamBatches
	streamWalks
)

// network is a model the Trainer can train: it maps the graph to logits
// and back-propagates their gradient. The Trainer owns the loss and Adam.
type network interface {
	params() []*tensor
	// forward returns the logits, rows×C, of the nodes the network works on
	// now; training applies dropout.
	forward(training bool) []float64
	// lossRows returns the rows of the last logits that enter the loss, and
	// the label of every row.
	lossRows() (rows, labels []int)
	// backward accumulates every parameter's gradient from the gradient of
	// the logits of the last forward pass in training mode.
	backward(glogits []float64)
	// edgeWeights returns the weight each edge carries now (nil: none).
	edgeWeights() []float64
	// reseed restarts the network's own random streams (dropout, batches).
	reseed(seed uint64)
	// setPacer makes the network's long loops report to pc.
	setPacer(pc *pacer)
}

// preparer is a network with slow set-up (DeepWalk's embeddings) that can
// be done in pieces: prepare works until the deadline and reports whether
// the set-up is complete. forward completes it if need be.
type preparer interface {
	prepare(deadline time.Time) bool
	preparing() float64 // the share of the set-up done, in [0, 1]
}

// selfStepper is a network that takes its epoch's training steps itself,
// by its own optimiser, in place of the trainer's Adam (the embeddings'
// classifier, fitted as the paper fits it): trainStep returns the
// training nodes' mean loss before them; resetSteps returns to the start.
type selfStepper interface {
	trainStep() float64
	resetSteps()
}

// auxLosser is a network trained on a loss of its own beside the labels'
// (DMGI's infomax and consensus terms): the training loss is
// labelWeight()·NLL + auxLoss(), auxLoss its value at the last forward
// pass in training mode, and backward, given the labels' gradient already
// weighed, adds the gradient of auxLoss to the parameters' too.
type auxLosser interface {
	labelWeight() float64
	auxLoss() float64
}

// weighedLoss is the training loss of net given the labels' mean NLL at
// its last forward pass in training mode, with glogits, the NLL's
// gradient, weighed to match (nil: none).
func weighedLoss(net network, nll float64, glogits []float64) float64 {
	a, ok := net.(auxLosser)
	if !ok {
		return nll
	}
	w := a.labelWeight()
	for i := range glogits {
		glogits[i] *= w
	}
	return float64(w*nll) + a.auxLoss()
}

// farFuture is a deadline that never passes.
var farFuture = time.Unix(1<<40, 0)

// batched is a network that trains in several steps per epoch, one per
// batch (ClusterGCN). Batch -1 is the whole graph, for evaluation.
type batched interface {
	network
	batches() int
	setBatch(b int)
}

// GraphError says a graph cannot train a model: too few classes, no
// training nodes, no edges for a model that passes messages along them.
// Field names the state table's parameter that would mend it, if one does.
type GraphError struct {
	Field string
	Msg   phrase.Text
}

func (e *GraphError) Error() string { return e.Msg.String() }

// Phrase says the error as a message.
func (e *GraphError) Phrase() phrase.Text { return e.Msg }

// checkTrainable reports why g, drawn from d, cannot train cfg's model,
// or nil.
func checkTrainable(g *datasets.Graph, d experiment.Data, cfg experiment.Model) error {
	if err := g.Check(); err != nil {
		return err
	}
	switch {
	case g.C < 2:
		return &GraphError{Msg: phrase.New("the graph has one class (every node's label is 0), and a classifier needs two or more")}
	case len(g.Nodes(datasets.Train)) == 0:
		return &GraphError{Msg: phrase.New("the graph has no training nodes (split train), so there is nothing to learn from")}
	case trainClasses(g) < 2:
		return &GraphError{Msg: phrase.New("every training node (split train) is of one class (%s), so a classifier learns only to answer it: label nodes of another class train, or draw the split again (shots)", g.ClassName(g.Labels[g.Nodes(datasets.Train)[0]]))}
	case g.E() == 0 && UsesGraph(cfg.Kind):
		return edgelessError(g, d, cfg.Kind)
	case experiment.ReadsEdgeFeatures(cfg.Kind) && g.D == 0:
		return &GraphError{Field: "model", Msg: phrase.New("model %s needs edge features, and the graph has none", cfg.Kind)}
	case experiment.Attributed(cfg.Kind) && g.F == 0:
		return &GraphError{Field: "model", Msg: phrase.New("model %s embeds the nodes' features, and the graph has none: choose a model that reads the graph alone, or give the nodes features", cfg.Kind)}
	case experiment.Attributed(cfg.Kind) && !slices.ContainsFunc(g.FeatureValues(), func(v float64) bool { return v != 0 }):
		// Review of issue 57: TADW divided 0 by 0, and the others
		// classified every node alike.
		return &GraphError{Field: "model", Msg: phrase.New("model %s embeds the nodes' features, and every one of them is 0: choose a model that reads the graph alone, or give the nodes features that differ", cfg.Kind)}
	case experiment.ReadsLayers(cfg.Kind):
		if err := g.NotLayers(); err != nil {
			return &GraphError{Field: "model", Msg: phrase.New("model %s reads a multiplex graph's layers: %s; choose the multiplex graph, or a graph of your own whose edge columns are layers", cfg.Kind, phrase.Of(err))}
		}
	}
	return nil
}

// trainClasses is the number of classes among g's training nodes.
func trainClasses(g *datasets.Graph) int {
	seen := map[int]bool{}
	for _, i := range g.Nodes(datasets.Train) {
		seen[g.Labels[i]] = true
	}
	return len(seen)
}

// edgelessError says a graph without edges cannot train model kind, naming what
// took them: the perturbation that dropped them (and no edit after it), or
// else the generator's chances of an edge.
func edgelessError(g *datasets.Graph, d experiment.Data, kind string) error {
	how, _ := g.Meta["perturb"].(string)
	if _, edited := g.Meta["edits"]; how == experiment.PerturbDrop && !edited {
		return &GraphError{Field: "perturb-rate", Msg: phrase.New("the graph has no edges: perturb drop-edges at perturb-rate %v dropped them all, "+
			"and model %s passes messages along edges: lower perturb-rate, or use model mlp", g.Meta["perturb_rate"], kind)}
	}
	// The rows that draw this graph's edges (Data.Lever: p and q, attach,
	// layer-degree), none for a real or one's own graph: read from the
	// graph's own source, never from rows that did not draw it.
	rows := sourceData(g, d).Lever("edges")
	if _, isRow := experiment.Lookup(rows[0]); !isRow {
		return &GraphError{Msg: phrase.New("the graph has no edges, and model %s passes messages along edges: use model mlp, or a graph with edges", kind)}
	}
	return &GraphError{Field: rows[0], Msg: phrase.New("the graph has no edges, and model %s passes messages along edges: "+
		"use model mlp, or a graph with edges (raise one of %s)", kind, strings.Join(rows, ", "))}
}

// sourceData is d with the graph g's own source (datasets.Graph.Source):
// local for a graph read from files, whatever graph the rows name.
func sourceData(g *datasets.Graph, d experiment.Data) experiment.Data {
	d.Graph = cmp.Or(g.Source, experiment.GraphLocal)
	return d
}

// newNetwork builds the network of cfg, a model of the registry that g
// can train, with weights drawn from seed.
func newNetwork(g *datasets.Graph, cfg experiment.Model, seed uint64) network {
	net := models[cfg.Kind].build(g, cfg, rand.New(rand.NewPCG(seed, streamInit)), seed)
	net.reseed(seed)
	return net
}

// dropout is inverted dropout with its own random stream.
type dropout struct {
	p       float64
	mask    []float64
	rnd     *rand.PCG // called directly: through rand.Rand, each draw is two more calls
	dropped bool      // the last apply drew a mask
}

func newDropout(p float64, n int) *dropout {
	return &dropout{p: p, mask: make([]float64, n)}
}

func (d *dropout) reseed(seed uint64) { d.rnd = rand.NewPCG(seed, streamDropout) }

// apply sets y = x ⊙ mask for a fresh mask when training with p > 0, and
// returns x itself otherwise.
func (d *dropout) apply(y, x []float64, training bool) []float64 {
	d.dropped = training && d.p > 0
	if !d.dropped {
		return x
	}
	d.draw(len(x))
	kernels.MulInto(y[:len(x)], x, d.mask[:len(x)])
	return y[:len(x)]
}

// applyDrawn is apply with the mask draw drew last: for a caller that
// needed the mask before it had x.
func (d *dropout) applyDrawn(y, x []float64) []float64 {
	d.dropped = true
	kernels.MulInto(y[:len(x)], x, d.mask[:len(x)])
	return y[:len(x)]
}

// draw draws inverted dropout: each unit is kept with probability 1−p and
// then scaled by 1/(1−p).
func (d *dropout) draw(n int) {
	keep := 1 - d.p
	thresh := uint64(keep * (1 << 32))
	scale := 1 / keep
	kernels.DropoutDraw(d.mask[:n], d.rnd, thresh, scale)
}

// backward sets dx = dy ⊙ mask (in place is fine) if the last apply
// dropped units, else dx = dy.
func (d *dropout) backward(dx, dy []float64) {
	if !d.dropped {
		copy(dx, dy)
		return
	}
	kernels.MulInto(dx[:len(dy)], dy, d.mask[:len(dy)])
}
