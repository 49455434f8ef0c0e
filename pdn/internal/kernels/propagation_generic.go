//go:build !(goexperiment.simd && amd64) || purego

package kernels

// padRowsVec is nil here: no vectors run.
func (g *Propagation) padRowsVec(h []float64, m int) [][4]float64 { return nil }

// propagateNarrowVec is never called here: padRowsVec is nil.
func (g *Propagation) propagateNarrowVec(y []float64, rows [][4]float64, m, lo, hi int) {}

// propagateRowsVec does nothing here (see propagation_simd.go).
func (g *Propagation) propagateRowsVec(y, h []float64, m, lo, hi int) bool { return false }
