package pdn

import (
	"math"
	"math/rand/v2"
	"testing"

	"pdnexplorer/datasets"
)

// A layer's input vector is b + uᵀX, and a step e moves X by u eᵀ and u
// by X e, both as they were, then X back to norm 1000 past it, computed
// plainly in float64.
// The tests that train every model in every build train MNE at two
// passes of its common stage and one of each layer's (mnePasses): the
// same steps, kernels and bits as its authors' passes, fifty times fewer.
// TestMNECliques trains it at the authors' passes.
func init() { mnePasses = mneSchedule{base: 2, layer: 1} }

// atAuthorsPasses trains MNE at its authors' passes for the rest of t.
func atAuthorsPasses(t *testing.T) {
	light := mnePasses
	mnePasses = mneAuthors
	t.Cleanup(func() { mnePasses = light })
}

func TestMNELayerStep(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	draw := func(n int, scale float64) []float32 {
		out := make([]float32, n)
		for i := range out {
			out[i] = float32(scale * rnd.NormFloat64())
		}
		return out
	}
	for _, scale := range []float64{0.1, 40} { // the second past the norm's limit
		l := &mneLayer{base: draw(2*MNEDim, 1), u: draw(2*MNEAddDim, 1), x: draw(MNEAddDim*MNEDim, scale), v: make([]float32, MNEDim)}
		l.measure()
		u, x, b := l.u[MNEAddDim:], l.x, l.base[MNEDim:]
		v := l.vector(1)
		for k := range MNEDim {
			want := float64(b[k])
			for a := range MNEAddDim {
				want += float64(u[a]) * float64(x[a*MNEDim+k])
			}
			if math.Abs(float64(v[k])-want) > 1e-4*(1+math.Abs(want)) {
				t.Fatalf("v[%d] = %g, want %g", k, v[k], want)
			}
		}
		e := draw(MNEDim, 0.01)
		wantX := make([]float64, len(x))
		for a := range MNEAddDim {
			for k := range MNEDim {
				wantX[a*MNEDim+k] = float64(x[a*MNEDim+k]) + float64(u[a])*float64(e[k])
			}
		}
		wantU := make([]float64, MNEAddDim)
		for a := range MNEAddDim {
			wantU[a] = float64(u[a])
			for k := range MNEDim {
				wantU[a] += float64(x[a*MNEDim+k]) * float64(e[k])
			}
		}
		var sq float64
		for _, w := range wantX {
			sq += w * w
		}
		if norm := math.Sqrt(sq); norm > mneNormLimit {
			for i := range wantX {
				wantX[i] *= mneNormLimit / norm
			}
		}
		l.update(1, e)
		for i, w := range wantX {
			if math.Abs(float64(l.x[i])-w) > 1e-4*(1+math.Abs(w)) {
				t.Fatalf("scale %v: X[%d] = %g, want %g", scale, i, l.x[i], w)
			}
		}
		for a, w := range wantU {
			if math.Abs(float64(u[a])-w) > 1e-4*(1+math.Abs(w)) {
				t.Fatalf("scale %v: u[%d] = %g, want %g", scale, a, u[a], w)
			}
		}
		// The norm kept step by step is the norm summed anew.
		for range 1000 {
			l.update(int32(rnd.IntN(2)), draw(MNEDim, 0.01))
		}
		kept := l.sq
		if sq := l.measure(); math.Abs(kept-sq) > 1e-6*sq {
			t.Errorf("scale %v: ‖X‖² kept at %g after 1,000 steps, summed %g", scale, kept, sq)
		}
	}
}

// Two layers whose cliques agree put every node nearer its clique, a
// node with no edge in a layer is its common vector there, and the
// embedding is the same however its making is cut.
func TestMNECliques(t *testing.T) {
	atAuthorsPasses(t)
	const k = 8
	g := twoCliqueLayers(k)
	x := sameEmbeddingHoweverCut(t, 50, func() embedder { return newMNE(g, 2) })
	eachNearerItsClique(t, x, 2*MNEDim, k)

	// Node 2 has no edge in the second layer: it is in none of its walks,
	// and its additional vector there is 0, its common vector its own.
	lone := &datasets.Graph{N: 3, Src: []int32{0, 1, 0}, Dst: []int32{1, 2, 2}}
	ring := &datasets.Graph{N: 3, Src: []int32{0}, Dst: []int32{1}}
	m := newMNE(multiplexOf(3, lone, ring), 4)
	for !m.sg.done() {
		m.sg.run(64)
	}
	m.endStage()
	m.startLayer(1)
	for _, w := range m.sg.ws {
		for _, v := range w {
			if v == 2 {
				t.Fatalf("node 2 in the walk %v of a layer it has no edge in", w)
			}
		}
	}
	for a := range MNEAddDim {
		if m.layer.u[2*MNEAddDim+a] != 0 || m.layer.u[a] == 0 {
			t.Fatalf("u of node 2 %v, of node 0 %v", m.layer.u[2*MNEAddDim:], m.layer.u[:MNEAddDim])
		}
	}
}
