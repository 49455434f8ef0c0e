package pdn

import (
	"fmt"
	"math"
	"sort"
)

// Trace is one node's update through the two layers of a model that
// passes messages over one weighted graph (PDN and its linear and
// EdgeConv variants, GCN), with the numbers of every step, as the model
// stands now (evaluation: no dropout):
//
//	α_e     = σ(MLP(z_e))                  the pathfinder's weight of edge e (GCN: 1)
//	d_i     = 1 + Σ_{e ∋ i} α_e              the degree the normalisation uses
//	â_ij    = α_e / √(d_i d_j),  â_ii = 1/d_i
//	m¹_j    = â_ij · x_j W₁ᵀ                 neighbour j's message to the first layer
//	h_i     = ReLU(Σ_j m¹_j + â_ii x_i W₁ᵀ + b₁)
//	m²_j    = â_ij · h_j W₂ᵀ
//	z_i     = Σ_j m²_j + â_ii h_i W₂ᵀ + b₂,   p_i = softmax(z_i)
//
// InterShare is the share of the node's aggregation weight that comes
// from nodes of other classes: Σ_{j: y_j ≠ y_i} â_ij / (â_ii + Σ_j â_ij).
// Training a PDN lowers it; GCN's stays what the graph gives. (A node
// without edges has a share of 0.)
type Trace struct {
	Node, Label, Pred int
	Degree            float64 // d_i
	Self              float64 // â_ii
	// SelfMsg1 and SelfMsg2 are the node's own messages to the layers.
	SelfMsg1, SelfMsg2 []float64
	Edges              []TraceEdge // by â_ij, largest first
	Bias1, Bias2       []float64
	Pre1               []float64 // the first layer before the ReLU
	Hidden             []float64 // h_i
	Logits, Prob       []float64
	InterShare         float64
	// InterShareGCN is InterShare with every α = 1: GCN's on this graph.
	InterShareGCN float64
}

// TraceEdge is one edge at the traced node.
type TraceEdge struct {
	Edge, Neighbour, Label int
	Features               []float64 // z_e (nil where the model reads none)
	PathHidden             []float64 // the pathfinder's last hidden layer on z_e, nil without one
	Alpha                  float64
	Degree                 float64 // d_j
	Norm                   float64 // â_ij
	NormGCN                float64 // â_ij with every α = 1: GCN's
	Msg1, Msg2             []float64
}

// Trace computes the update of node i as the model stands now. It reads
// the last evaluation (the worker traces with each snapshot, right after
// evaluating) or runs one: an evaluation draws nothing at random, so
// training goes on with the same bits as if it had not been asked.
func (t *Trainer) Trace(i int) (*Trace, error) {
	t.prepared()
	m, ok := t.net.(*gcnNet)
	if !ok || m.norm == nil {
		return nil, fmt.Errorf("the update of one node is traced for the models that pass messages over one learned graph (pdn, pdn-linear, pdn-edgeconv, gcn), not %s", t.exp.Model.Kind)
	}
	g := t.g
	if i < 0 || i >= g.N {
		return nil, fmt.Errorf("node %d is not in the graph; want [0, %d]", i, g.N-1)
	}
	if !t.evaluated {
		m.forward(false)
		t.evaluated = true
	}
	logits := m.logits
	n, h, c := m.norm, m.l1.out, g.C
	row := func(a []float64, k, w int) []float64 { return append([]float64(nil), a[k*w:(k+1)*w]...) }
	scaled := func(s float64, a []float64, k, w int) []float64 {
		out := row(a, k, w)
		for x := range out {
			out[x] *= s
		}
		return out
	}
	tr := &Trace{Node: i, Label: g.Labels[i], Degree: n.deg[i], Self: n.self[i],
		SelfMsg1: scaled(n.self[i], m.l1.xw, i, h), SelfMsg2: scaled(n.self[i], m.l2.xw, i, c),
		Bias1: append([]float64(nil), m.l1.b.val...), Bias2: append([]float64(nil), m.l2.b.val...),
		Hidden: row(m.a1, i, h), Logits: row(logits, i, c)}
	tr.Pre1 = append([]float64(nil), tr.SelfMsg1...)
	a := n.adj
	// GCN's degrees count each edge once: d = 1 + its edges.
	gcnDeg := func(j int) float64 { return float64(1 + a.rowPtr[j+1] - a.rowPtr[j]) }
	total, inter := tr.Self, 0.0
	totalGCN, interGCN := 1/gcnDeg(i), 0.0
	for k := a.rowPtr[i]; k < a.rowPtr[i+1]; k++ {
		j, e := int(a.col[k]), int(a.eid[k])
		te := TraceEdge{Edge: e, Neighbour: j, Label: g.Labels[j], Alpha: n.w[e], Degree: n.deg[j], Norm: n.coef[e],
			NormGCN: 1 / math.Sqrt(gcnDeg(i)*gcnDeg(j)),
			Msg1:    scaled(n.coef[e], m.l1.xw, j, h), Msg2: scaled(n.coef[e], m.l2.xw, j, c)}
		if m.edges != nil && g.D > 0 {
			te.Features = row(g.EdgeX, e, g.D)
			te.PathHidden, _, _ = t.Pathfinder(te.Features)
		}
		for x := range tr.Pre1 {
			tr.Pre1[x] += te.Msg1[x]
		}
		total, totalGCN = total+te.Norm, totalGCN+te.NormGCN
		if te.Label != tr.Label {
			inter, interGCN = inter+te.Norm, interGCN+te.NormGCN
		}
		tr.Edges = append(tr.Edges, te)
	}
	for x := range tr.Pre1 {
		tr.Pre1[x] += tr.Bias1[x]
	}
	sort.SliceStable(tr.Edges, func(x, y int) bool { return tr.Edges[x].Norm > tr.Edges[y].Norm })
	tr.InterShare, tr.InterShareGCN = inter/total, interGCN/totalGCN
	tr.Prob = make([]float64, c)
	softmax(tr.Prob, tr.Logits)
	tr.Pred = argmax(tr.Logits)
	return tr, nil
}
