package lessons

import (
	"math"
	"math/rand/v2"
	"slices"

	"pdnexplorer/datasets"
	"pdnexplorer/edgekind"
	"pdnexplorer/internal/tsne"
)

// Figure 4's settings (§5.1): how many edges are embedded at most, and the
// neighbours the separation counts.
const (
	// TSNEEdges is the most edges embedded, half of each kind: t-SNE
	// costs the square of the points, and 600 embed in about a second
	// natively.
	TSNEEdges = 600
	// TSNENeighbours is the k of the k-nearest-neighbour agreement
	// (tsne.Agreement) that says how well the two kinds separate.
	TSNENeighbours = 10
)

// EdgeEmbedding is Figure 4 for one trained model: a sample of its edges,
// their hidden representations embedded in two dimensions by t-SNE, and
// how well the two kinds of edge separate.
type EdgeEmbedding struct {
	Edges []int           // the edges embedded, ascending
	Kinds []edgekind.Kind // each one's kind
	XY    []float64       // their embedding, rows of 2
	Dim   int             // the width of a representation
	// Separation is the TSNENeighbours-nearest-neighbour agreement of
	// edge kind in the embedding; Hidden the same in the representations
	// themselves, and Input in the edge features the model reads (NaN for
	// a graph without). With as many edges of each kind, chance is about
	// 0.5.
	Separation, Hidden, Input float64
}

// SampleEdges draws the edges of g that Figure 4 embeds: as many
// intra- as inter-class edges, up to max in all (all of the rarer kind
// where it has fewer than max/2), drawn from seed; edges of unknown kind
// are left out. It returns them ascending; none for a graph without both
// kinds.
func SampleEdges(g *datasets.Graph, max int, seed uint64) []int {
	var intra, inter []int
	for e, k := range g.Kind {
		switch k {
		case edgekind.Intra:
			intra = append(intra, e)
		case edgekind.Inter:
			inter = append(inter, e)
		}
	}
	m := min(len(intra), len(inter), max/2)
	if m == 0 {
		return nil
	}
	rnd := rand.New(rand.NewPCG(seed, 0x4649_4734)) // "FIG4"
	out := append(draw(rnd, intra, m), draw(rnd, inter, m)...)
	slices.Sort(out)
	return out
}

// draw returns m of xs without replacement (a partial Fisher–Yates
// shuffle of a copy).
func draw(rnd *rand.Rand, xs []int, m int) []int {
	xs = slices.Clone(xs)
	for i := 0; i < m; i++ {
		j := i + rnd.IntN(len(xs)-i)
		xs[i], xs[j] = xs[j], xs[i]
	}
	return xs[:m]
}

// EmbedEdges is Figure 4 of t, trained on g: the edges SampleEdges draws
// from seed, their representations (pdn.Trainer.EdgeRepresentations)
// embedded by t-SNE seeded with seed too, and the separation of the kinds.
// ok is false for a model without edge representations or a graph without
// both kinds of edge.
func EmbedEdges(g *datasets.Graph, t EdgeRepresenter, seed uint64) (EdgeEmbedding, bool) {
	r, ok := StartEmbedEdges(g, t, seed)
	if !ok {
		return EdgeEmbedding{}, false
	}
	for r.Step() {
	}
	out, edges := r.Result(), r.out.Edges
	out.Input = math.NaN()
	if g.D > 0 && len(g.EdgeX) == g.E()*g.D {
		x := make([]float64, 0, len(edges)*g.D)
		labels := make([]int, len(edges))
		for i, e := range edges {
			x, labels[i] = append(x, g.EdgeX[e*g.D:(e+1)*g.D]...), int(g.Kind[e])
		}
		out.Input = tsne.Agreement(x, len(edges), g.D, labels, TSNENeighbours)
	}
	return out, true
}

// StartEmbedEdges is EmbedEdges an iteration of t-SNE at a time (the
// browser's engine embeds as the model trains), without Input: the
// representations of t as they stand now, the same sample and seed.
func StartEmbedEdges(g *datasets.Graph, t EdgeRepresenter, seed uint64) (*EmbeddingRun, bool) {
	reps, dim, ok := t.EdgeRepresentations()
	if !ok || len(g.Kind) != g.E() {
		return nil, false
	}
	edges := SampleEdges(g, TSNEEdges, seed)
	if len(edges) == 0 {
		return nil, false
	}
	return StartEmbedding(reps, dim, g.Kind, edges, seed), true
}

// OneKind reports whether g lacks edges of one kind (or of both), so that
// Figure 4 has nothing to embed whatever the model (SampleEdges draws
// none): a graph whose inter-class edges were all removed.
func OneKind(g *datasets.Graph) bool {
	return len(g.Kind) != g.E() || len(SampleEdges(g, TSNEEdges, 0)) == 0
}

// EdgeRepresenter is a trained model's edge representations
// (pdn.Trainer.EdgeRepresentations).
type EdgeRepresenter interface {
	EdgeRepresentations() (reps []float64, dim int, ok bool)
}

// Separation is the TSNENeighbours-nearest-neighbour agreement of edge
// kind among the hidden representations of the edges SampleEdges draws
// from seed (EdgeEmbedding.Hidden, without the t-SNE): what the claims
// read, as a number t-SNE's own randomness and distortions do not move.
// NaN where EmbedEdges has nothing to embed.
func Separation(g *datasets.Graph, t EdgeRepresenter, seed uint64) float64 {
	reps, dim, ok := t.EdgeRepresentations()
	if !ok || len(g.Kind) != g.E() {
		return math.NaN()
	}
	edges := SampleEdges(g, TSNEEdges, seed)
	if len(edges) == 0 {
		return math.NaN()
	}
	x := make([]float64, 0, len(edges)*dim)
	labels := make([]int, len(edges))
	for i, e := range edges {
		x, labels[i] = append(x, reps[e*dim:(e+1)*dim]...), int(g.Kind[e])
	}
	return tsne.Agreement(x, len(edges), dim, labels, TSNENeighbours)
}

// Embedding embeds the rows of reps (one of dim per edge) of the given
// edges, whose kinds are kinds[edge], seeded with seed.
func Embedding(reps []float64, dim int, kinds []edgekind.Kind, edges []int, seed uint64) EdgeEmbedding {
	r := StartEmbedding(reps, dim, kinds, edges, seed)
	for r.Step() {
	}
	return r.Result()
}

// EmbeddingRun is Embedding an iteration of t-SNE at a time, for a caller
// that spreads its seconds (the browser's engine, which trains between):
// StartEmbedding copies the rows it embeds, so the model may train on.
type EmbeddingRun struct {
	out    EdgeEmbedding
	x      []float64
	labels []int
	run    *tsne.Run
}

// StartEmbedding starts Embedding: it copies the rows of the edges and
// computes t-SNE's affinities.
func StartEmbedding(reps []float64, dim int, kinds []edgekind.Kind, edges []int, seed uint64) *EmbeddingRun {
	n := len(edges)
	r := &EmbeddingRun{x: make([]float64, 0, n*dim), labels: make([]int, n),
		out: EdgeEmbedding{Edges: edges, Kinds: make([]edgekind.Kind, n), Dim: dim}}
	for i, e := range edges {
		r.x = append(r.x, reps[e*dim:(e+1)*dim]...)
		r.out.Kinds[i], r.labels[i] = kinds[e], int(kinds[e])
	}
	r.run = tsne.Start(r.x, n, dim, tsne.Options{Seed: seed})
	return r
}

// Step runs one iteration of t-SNE; it reports whether any remain.
func (r *EmbeddingRun) Step() bool { return r.run.Step() }

// Done reports whether every iteration has run.
func (r *EmbeddingRun) Done() bool { return r.run.Done() }

// Result is the embedding and both agreements, once Done.
func (r *EmbeddingRun) Result() EdgeEmbedding {
	out, n := r.out, len(r.out.Edges)
	out.XY = r.run.Y()
	out.Separation = tsne.Agreement(out.XY, n, 2, r.labels, TSNENeighbours)
	out.Hidden = tsne.Agreement(r.x, n, out.Dim, r.labels, TSNENeighbours)
	return out
}
