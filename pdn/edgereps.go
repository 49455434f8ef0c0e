package pdn

import "pdnexplorer/pdn/internal/kernels"

// EdgeRepresentations returns each edge's hidden representation, the
// numbers the model computes for one edge before it turns them into the
// edge's weight, rows of dim per edge in the graph's edge order (E×dim):
// what Figure 4 of the paper embeds by t-SNE (§5.1, "Implicit learning of
// inter- and intra-class edges"). ok is false for a model without one
// (GCN and the other fixed-graph models weigh every edge by the graph
// alone; the linear PDN has no hidden layer).
//
// For the PDN it is the activations of the pathfinder MLP's last hidden
// layer, h^{L−1}_e = ReLU(…) (see pathfinder), from which the weight is
// w_e = σ(h^{L−1}_e W^L + b^L): dim is that layer's width.
//
// For GAT it is the first layer's attention logits of the edge, both
// directions, every head: e^h_uv = LeakyReLU(a_dst^hᵀ W h_v + a_src^hᵀ W h_u)
// for the message from u = Src to v = Dst in heads 1…H, then e^h_vu
// likewise (dim is 2H = 16). These are the one quantity GAT computes per
// edge, as PyG's GATConv does in its edge_update (alpha before the
// softmax): the counterpart of the pathfinder's hidden layer, the numbers
// the weight (α, the softmax of the logits over the receiving node's
// neighbourhood) is made of. The concatenated endpoint features W h_u ‖
// W h_v would embed the nodes, not what the model makes of the edge; and
// α itself is one number per head, scaled by each neighbourhood's size
// (§4.2), not a representation.
//
// It reads the model as last evaluated, evaluating it first if a step came
// since (Evaluate), and allocates the rows it returns.
func (t *Trainer) EdgeRepresentations() (reps []float64, dim int, ok bool) {
	t.prepared()
	if !t.evaluated {
		t.net.forward(false)
		t.evaluated = true
	}
	if a, isGAT := t.net.(*gat); isGAT {
		return a.edgeLogits(), 2 * a.l1.Heads, true
	}
	m, isGCN := t.net.(*gcnNet)
	if !isGCN {
		return nil, 0, false
	}
	p, isMLP := m.edges.(*pathfinder)
	if !isMLP || len(p.layers) < 2 {
		return nil, 0, false
	}
	// The hidden layers again, into buffers of their own: the fused
	// kernels keep no activations, and a forward pass with DropEdge left
	// the dropped edges' rows stale. The same products in the same order,
	// so the same bits as the weights were made from.
	x := p.acts[0]
	for _, layer := range p.layers[:len(p.layers)-1] {
		y := make([]float64, p.rows*layer.out)
		layer.forwardReLU(y, x, p.rows)
		x = y
	}
	return x, p.layers[len(p.layers)-2].out, true
}

// edgeLogits is EdgeRepresentations for GAT: per edge, the first layer's
// H logits of the message Src→Dst, then the H of Dst→Src.
func (m *gat) edgeLogits() []float64 {
	l, g := m.l1, m.g
	H := l.Heads
	out := make([]float64, g.E()*2*H)
	for i := 0; i < l.g.n; i++ {
		for k := l.g.rowPtr[i]; k < l.g.rowPtr[i+1]; k++ {
			e := int(l.g.eid[k])
			if e < 0 {
				continue // the self-loop
			}
			half := 1 // i receives from Dst: the message Dst→Src
			if int(g.Dst[e]) == i && int(g.Src[e]) != i {
				half = 0
			}
			for h := 0; h < H; h++ {
				out[e*2*H+half*H+h] = kernels.Leaky(l.Pre[int(k)*H+h])
			}
		}
	}
	return out
}
