package pdn

import (
	"math"
	"sort"

	"pdnexplorer/datasets"
	"pdnexplorer/edgekind"
	"pdnexplorer/i18n/phrase"
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
	// Attention says the model is GAT (see gat.trace): α and â are its
	// attention, and the layers' activation is the ELU.
	Attention bool
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
	g := t.g
	gm, isGAT := t.net.(*gat)
	m, ok := t.net.(*gcnNet)
	switch {
	case !isGAT && (!ok || m.norm == nil):
		return nil, phrase.Errorf("the update of one node is traced for the models that pass messages over one learned graph (pdn, pdn-linear, pdn-edgeconv, gcn) and for gat, not %s", t.exp.Model.Kind)
	case i < 0 || i >= g.N:
		return nil, phrase.Errorf("node %d is not in the graph; want [0, %d]", i, g.N-1)
	}
	if !t.evaluated {
		t.net.forward(false)
		t.evaluated = true
	}
	if isGAT {
		return gm.trace(i), nil
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
	tr := &Trace{Node: i, Label: g.Labels[i], Degree: n.deg[i], Self: n.Self[i],
		SelfMsg1: scaled(n.Self[i], m.l1.xw, i, h), SelfMsg2: scaled(n.Self[i], m.l2.xw, i, c),
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
		te := TraceEdge{Edge: e, Neighbour: j, Label: g.Labels[j], Alpha: n.w[e], Degree: n.deg[j], Norm: n.Coef[e],
			NormGCN: 1 / math.Sqrt(gcnDeg(i)*gcnDeg(j)),
			Msg1:    scaled(n.Coef[e], m.l1.xw, j, h), Msg2: scaled(n.Coef[e], m.l2.xw, j, c)}
		if m.edges != nil && g.D > 0 {
			te.Features = row(g.EdgeX, e, g.D)
			te.PathHidden, _, _ = t.Pathfinder(te.Features)
		}
		for x := range tr.Pre1 {
			tr.Pre1[x] += te.Msg1[x]
		}
		total, totalGCN = total+te.Norm, totalGCN+te.NormGCN
		if edgekind.Of(te.Label, tr.Label) == edgekind.Inter {
			inter, interGCN = inter+te.Norm, interGCN+te.NormGCN
		}
		tr.Edges = append(tr.Edges, te)
	}
	for x := range tr.Pre1 {
		tr.Pre1[x] += tr.Bias1[x]
	}
	sort.SliceStable(tr.Edges, func(x, y int) bool { return tr.Edges[x].Norm > tr.Edges[y].Norm })
	tr.InterShare, tr.InterShareGCN = interShare(tr.Label, inter, total), interShare(tr.Label, interGCN, totalGCN)
	tr.Prob = make([]float64, c)
	softmax(tr.Prob, tr.Logits)
	tr.Pred = argmax(tr.Logits)
	return tr, nil
}

// trace is node i's update through GAT's two layers, in Trace's terms:
// the first layer's attention α^h_ij of each of its H heads is a softmax
// over N(i) ∪ {i}, so no degree normalises it; an edge's α and â are the
// heads' mean attention (Degree is NaN), a neighbour's first message is
// its heads' α^h_ij W^h x_j side by side, and its second α²_ij W₂ h_j, with
// the second layer's one head; h_i is the ELU of the first layer's sum.
// The shares of messages from other classes weigh the edges by the first
// layer's mean attention; with every α = 1 they are GCN's.
func (m *gat) trace(i int) *Trace {
	g, l1, l2 := m.g, m.l1, m.l2
	H, O, ho, c := l1.Heads, l1.O, l1.Heads*l1.O, g.C
	row := func(a []float64, k, w int) []float64 { return append([]float64(nil), a[k*w:(k+1)*w]...) }
	// msg1 is the first layer's message along entry k of i's
	// neighbourhood, from node j, and mean its mean attention.
	msg1 := func(k, j int) (msg []float64, mean float64) {
		msg = make([]float64, ho)
		for h := range H {
			a := l1.Alpha[k*H+h]
			mean += a / float64(H)
			for o := range O {
				msg[h*O+o] = a * l1.whAt(j, h*O+o)
			}
		}
		return msg, mean
	}
	msg2 := func(k, j int) []float64 {
		out := row(l2.WH, j, c)
		for x := range out {
			out[x] *= l2.Alpha[k]
		}
		return out
	}
	ag := l1.g
	lo, hi := int(ag.rowPtr[i]), int(ag.rowPtr[i+1])
	self := hi - 1 // the self-loop comes last
	tr := &Trace{Node: i, Label: g.Labels[i], Degree: math.NaN(), Attention: true,
		Bias1: append([]float64(nil), l1.b.val...), Bias2: append([]float64(nil), l2.b.val...),
		Pre1: row(m.a1, i, ho), Hidden: row(m.h1, i, ho), Logits: row(m.logits, i, c)}
	tr.SelfMsg1, tr.Self = msg1(self, i)
	tr.SelfMsg2 = msg2(self, i)
	gcnDeg := float64(hi - lo) // 1 + the node's edges, as GCN counts them
	deg := func(j int) float64 { return float64(ag.rowPtr[j+1] - ag.rowPtr[j]) }
	total, inter := tr.Self, 0.0
	totalGCN, interGCN := 1/gcnDeg, 0.0
	for k := lo; k < self; k++ {
		j := int(ag.col[k])
		te := TraceEdge{Edge: int(ag.eid[k]), Neighbour: j, Label: g.Labels[j], Degree: math.NaN(),
			NormGCN: 1 / math.Sqrt(gcnDeg*deg(j)), Msg2: msg2(k, j)}
		te.Msg1, te.Alpha = msg1(k, j)
		te.Norm = te.Alpha
		total, totalGCN = total+te.Norm, totalGCN+te.NormGCN
		if edgekind.Of(te.Label, tr.Label) == edgekind.Inter {
			inter, interGCN = inter+te.Norm, interGCN+te.NormGCN
		}
		tr.Edges = append(tr.Edges, te)
	}
	sort.SliceStable(tr.Edges, func(x, y int) bool { return tr.Edges[x].Norm > tr.Edges[y].Norm })
	tr.InterShare, tr.InterShareGCN = interShare(tr.Label, inter, total), interShare(tr.Label, interGCN, totalGCN)
	tr.Prob = make([]float64, c)
	softmax(tr.Prob, tr.Logits)
	tr.Pred = argmax(tr.Logits)
	return tr
}

// interShare is the share inter of total, NaN for a node without a class,
// whose messages come from no class it could be told apart from.
func interShare(label int, inter, total float64) float64 {
	if label == datasets.NoClass {
		return math.NaN()
	}
	return inter / total
}
