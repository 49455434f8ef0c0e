package kernels

import "math"

// AdamStep is one step of Adam on one tensor of values val and gradients
// grad, with its moments m and v (each as long as val):
//
//	g ← g + wd·θ (for wd ≠ 0),  m ← b1·m + c1·g,  v ← b2·v + (c2·g)·g,
//	θ ← θ − step·m / (√v/bc2 + eps)
//
// for the moments' rates b1 and b2, their complements c1 = 1−β₁ and
// c2 = 1−β₂ as the caller's constants round them, the step size step and
// the second moment's bias correction bc2.
func AdamStep(val, grad, m, v []float64, wd, b1, c1, b2, c2, step, bc2, eps float64) {
	grad, m, v = fit(grad, len(val)), fit(m, len(val)), fit(v, len(val))
	if simd128 {
		wasmAdamStep(val, grad, m, v, wd, b1, c1, b2, c2, step, bc2, eps)
		return
	}
	for i, g := range grad {
		if wd != 0 {
			g += float64(wd * val[i])
		}
		m[i] = float64(b1*m[i]) + float64(c1*g)
		v[i] = float64(b2*v[i]) + float64(float64(c2*g)*g)
		val[i] -= float64(step * m[i] / (math.Sqrt(v[i])/bc2 + eps))
	}
}
