package pdn

import (
	"math"
	"testing"

	"pdnexplorer/internal/fmath"
)

// mellLoss is MELL's loss over the given pairs (layer, head, tail, label)
// and its regularisers, computed plainly from the vectors.
func mellLoss(m *mell, pairs [][4]int) float64 {
	d, L := MELLDim, m.layers
	var loss float64
	for _, p := range pairs {
		h, _ := m.row(m.h, p[0], int32(p[1]))
		t, _ := m.row(m.t, p[0], int32(p[2]))
		var s float64
		for k := range d {
			s += (h[k] + m.r.val[p[0]*d+k]) * t[k]
		}
		if p[3] == 1 {
			loss -= math.Log(fmath.Sigmoid(s))
		} else {
			loss -= math.Log(1 - fmath.Sigmoid(s))
		}
	}
	for _, p := range []*tensor{m.h, m.t} {
		for _, x := range p.val {
			loss += mellLambda / float64(m.n) * x * x
		}
		for i := range m.n {
			for k := range d {
				var mean float64
				for l := range L {
					mean += p.val[(l*m.n+i)*d+k] / float64(L)
				}
				for l := range L {
					e := p.val[(l*m.n+i)*d+k] - mean
					loss += mellBeta * e * e
				}
			}
		}
	}
	for _, x := range m.r.val {
		loss += mellGamma * x * x
	}
	return loss
}

// The gradient pairGrad and regularise add is the loss's, by central
// differences at a few of the vectors' values.
func TestMELLGradient(t *testing.T) {
	g := twoCliqueLayers(4)
	m := newMELL(g, 1)
	for _, p := range []*tensor{m.h, m.t, m.r} {
		for i := range p.val {
			p.val[i] *= 0.3 // scores away from σ's flat ends
		}
	}
	pairs := [][4]int{{0, 0, 1, 1}, {1, 2, 5, 0}, {0, 3, 4, 1}, {1, 7, 0, 0}, {0, 1, 0, 1}}
	for _, p := range []*tensor{m.h, m.t, m.r} {
		clear(p.grad)
	}
	for _, p := range pairs {
		m.pairGrad(p[0], int32(p[1]), int32(p[2]), float64(p[3]))
	}
	m.regularise()
	const eps = 1e-6
	for name, p := range map[string]*tensor{"h": m.h, "t": m.t, "r": m.r} {
		for _, i := range []int{0, 1, 130, 3 * MELLDim, len(p.val) - 1} {
			if i >= len(p.val) {
				continue
			}
			x := p.val[i]
			p.val[i] = x + eps
			up := mellLoss(m, pairs)
			p.val[i] = x - eps
			down := mellLoss(m, pairs)
			p.val[i] = x
			want := (up - down) / (2 * eps)
			if math.Abs(p.grad[i]-want) > 1e-5*(1+math.Abs(want)) {
				t.Errorf("∂loss/∂%s[%d] = %g, want %g", name, i, p.grad[i], want)
			}
		}
	}
}

// The negatives are no edge of their layer, and never a loop.
func TestMELLNegatives(t *testing.T) {
	g := twoCliqueLayers(4)
	m := newMELL(g, 2)
	for range 2000 {
		l, i, j := m.negative()
		if i == j || m.edge[m.key(l, i, j)] {
			t.Fatalf("negative (%d, %d, %d) is an edge of its layer or a loop", l, i, j)
		}
	}
	if len(m.pos) != 2*(len(layerGraphs(g)[0].Src)+len(layerGraphs(g)[1].Src)) {
		t.Errorf("%d positive pairs, want every layer's edges both ways", len(m.pos))
	}
}

// Two layers whose cliques agree put every node nearer its clique, and
// the embedding is the same however its making is cut.
func TestMELLCliques(t *testing.T) {
	const k = 8
	g := twoCliqueLayers(k)
	x := sameEmbeddingHoweverCut(t, MELLSteps, func() embedder { return newMELL(g, 2) })
	eachNearerItsClique(t, x, 2*MELLDim, k)
}
