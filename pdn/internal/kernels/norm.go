package kernels

import "math"

// The symmetric normalisation of a weighted graph with one self-loop of
// weight 1 per node (Kipf and Welling; PyG's gcn_norm), over n nodes and
// ne undirected edges e = {src[e], dst[e]} of weights w, node i's edges
// listed as eid[k] for k from rowPtr[i] to rowPtr[i+1]:
//
//	d_i    = 1 + Σ_{e ∋ i} w_e
//	r_i    = d_i^{-1/2}            (0 where d_i ≤ 0)
//	coef_e = r_u · w_e · r_v      for e = {u, v}
//	self_i = r_i²

// NormForward sets the degrees deg, their inverse roots r, the self-loops'
// coefficients self (n each) and the edges' coef (ne) from the weights w.
func NormForward(deg, r, self, coef, w []float64, n, ne int, rowPtr, eid, src, dst []int32) {
	deg, r, self, rowPtr = fit(deg, n), fit(r, n), fit(self, n), fit(rowPtr, n+1)
	coef, w, src, dst = fit(coef, ne), fit(w, ne), fit(src, ne), fit(dst, ne)
	if simd128 {
		wasmNormForward(deg, r, self, coef, w, n, ne, rowPtr, eid, src, dst)
		return
	}
	for i := 0; i < n; i++ {
		d := 1.0
		for k := rowPtr[i]; k < rowPtr[i+1]; k++ {
			d += w[eid[k]]
		}
		deg[i] = d
		if d > 0 {
			r[i] = 1 / math.Sqrt(d)
		} else {
			r[i] = 0
		}
		self[i] = float64(r[i] * r[i])
	}
	for e := 0; e < ne; e++ {
		coef[e] = float64(r[src[e]]*w[e]) * r[dst[e]]
	}
}

// NormBackward sets gw (ne), the gradient of the weights, from gCoef and
// gSelf, those of the coefficients, through r and w as NormForward used
// them; gR (n) is scratch:
//
//	∂r_i/∂d_i = -r_i³/2,   ∂d_u/∂w_e = ∂d_v/∂w_e = 1.
func NormBackward(gw, gR, gSelf, gCoef, r, w []float64, n, ne int, src, dst []int32) {
	gR, gSelf, r = fit(gR, n), fit(gSelf, n), fit(r, n)
	gw, gCoef, w, src, dst = fit(gw, ne), fit(gCoef, ne), fit(w, ne), fit(src, ne), fit(dst, ne)
	if simd128 {
		wasmNormBackward(gw, gR, gSelf, gCoef, r, w, n, ne, src, dst)
		return
	}
	for i := 0; i < n; i++ {
		gR[i] = float64(2*gSelf[i]) * r[i]
	}
	CoefGrads(gR, gw, gCoef, r, w, n, ne, src, dst)
	for i := 0; i < n; i++ { // gR becomes ∂L/∂d_i
		ri := r[i]
		gR[i] = float64(-0.5*gR[i]) * float64(ri*ri) * ri
	}
	for e := 0; e < ne; e++ {
		gw[e] += gR[src[e]] + gR[dst[e]]
	}
}

// CoefGrads adds each coefficient's gradient through r_u and r_v into gR
// (n), ∂L/∂r, and sets gw (ne) to its part through w_e itself:
//
//	coef_e = r_u · w_e · r_v.
//
// NormBackward takes it, and the engine's normalisation whose self-loops
// weigh their node's mean edge weight.
func CoefGrads(gR, gw, gCoef, r, w []float64, n, ne int, src, dst []int32) {
	gR, r = fit(gR, n), fit(r, n)
	gw, gCoef, w, src, dst = fit(gw, ne), fit(gCoef, ne), fit(w, ne), fit(src, ne), fit(dst, ne)
	for e := 0; e < ne; e++ {
		u, v := src[e], dst[e]
		gc := float64(gCoef[e] * w[e])
		gR[u] += float64(gc * r[v])
		gR[v] += float64(gc * r[u])
		gw[e] = float64(gCoef[e]*r[u]) * r[v]
	}
}
