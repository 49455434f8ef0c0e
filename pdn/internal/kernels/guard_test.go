package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// guard is the value that fills the bands around every operand: a NaN
// with a payload no kernel computes, so that a stray store shows.
var guard = math.Float64frombits(0x7ff4dead0000beef)

// awkward are the values every path must treat as the reference loops
// do: zeros of both signs, infinities, subnormals, the largest finite
// values, exponentials' edges (overflow, underflow, and 46.094287507236245,
// whose exponential a fused build rounds otherwise), and a NaN (whose bits
// the paths need not keep: only that it is one).
var awkward = []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), 5e-324, -2.5e-310,
	math.MaxFloat64, -math.MaxFloat64, 709.8, 710, -745.2, -746, 46.094287507236245, math.NaN()}

// band is how many values guard each side of an operand: more than the
// widest store (eight lanes) and the widest read past a row.
const band = 24

// space hands out operands inside guard bands and checks the bands after a
// kernel ran: no kernel may write outside its operands, read-only operands
// must come back unchanged, and every output is returned for comparison.
type space struct {
	rnd     *rand.Rand
	bufs    [][]float64
	inputs  [][]float64 // what each read-only operand held
	inputAt []int
	outputs []int
}

// buf returns n values in guard bands: random ones, or zeros.
func (s *space) buf(n int, random bool) []float64 {
	b := make([]float64, band+n+band)
	for i := range b {
		b[i] = guard
	}
	body := b[band : band+n : band+n]
	for i := range body {
		if random {
			body[i] = s.rnd.NormFloat64()
			switch s.rnd.IntN(14) {
			case 0, 1:
				body[i] = 0 // zeros, as ReLU leaves them, for the skips
			case 2:
				body[i] = awkward[s.rnd.IntN(len(awkward))]
			}
		} else {
			body[i] = 0
		}
	}
	s.bufs = append(s.bufs, b)
	return body
}

// in is a read-only operand of n random values.
func (s *space) in(n int) []float64 {
	x := s.buf(n, true)
	s.inputs, s.inputAt = append(s.inputs, slices.Clone(x)), append(s.inputAt, len(s.bufs)-1)
	return x
}

// out is an operand the kernel writes: n random values, as a kernel that
// adds to it or writes over it finds it.
func (s *space) out(n int) []float64 {
	x := s.buf(n, true)
	s.outputs = append(s.outputs, len(s.bufs)-1)
	return x
}

// check fails t where a band changed or an input did, and returns the
// outputs.
func (s *space) check(t *testing.T) [][]float64 {
	t.Helper()
	for q, b := range s.bufs {
		for i := range band {
			if math.Float64bits(b[i]) != math.Float64bits(guard) || math.Float64bits(b[len(b)-1-i]) != math.Float64bits(guard) {
				t.Fatalf("operand %d: a value outside it was written", q)
			}
		}
	}
	for q, at := range s.inputAt {
		sameBits(t, s.bufs[at][band:len(s.bufs[at])-band], s.inputs[q])
	}
	var outs [][]float64
	for _, at := range s.outputs {
		outs = append(outs, s.bufs[at][band:len(s.bufs[at])-band])
	}
	return outs
}

// kernelCases runs every kernel of the package on operands of awkward
// shapes (widths that fill every block of every path and leave tails of
// every size).
var kernelCases = []struct {
	name string
	run  func(s *space, n, k, m int)
}{
	{"MulABT", func(s *space, n, k, m int) { MulABT(s.out(n*m), s.in(n*k), s.in(m*k), n, k, m) }},
	{"MulABTBias", func(s *space, n, k, m int) {
		b := s.in(m * k)
		bt, buf := TransposedForVectors(b, m, k)
		defer ReleaseTransposed(buf)
		MulABTBias(s.out(n*m), s.in(n*k), b, bt, s.in(m), n, k, m, true)
	}},
	{"MulABTKept", func(s *space, n, k, m int) {
		b := s.in(m * k)
		bt, buf := TransposedForVectors(b, m, k)
		defer ReleaseTransposed(buf)
		var bias []float64
		if n%2 == 1 {
			bias = s.in(m)
		}
		MulABTKept(s.out(n*m), s.in(n*k), b, bt, bias, s.in(n), n, k, m, k%2 == 0)
	}},
	{"AddATB", func(s *space, n, k, m int) { AddATB(s.out(m*k), s.in(n*m), s.in(n*k), n, m, k) }},
	{"AddATBCols", func(s *space, n, k, m int) { AddATBCols(s.out(m*k), s.in(n*m), s.in(n*k), n, m, k, m/3, m) }},
	{"AddATBBlocks", func(s *space, n, k, m int) {
		c, a, b := s.out(m*k), s.in(n*m), s.in(n*k)
		q := (k + 31) / 32
		AddATBBlocks(c, a, b, n, m, k, 0, q/2) // two threads' shares
		AddATBBlocks(c, a, b, n, m, k, q/2, q)
	}},
	{"MulPair", func(s *space, n, k, m int) {
		b := s.in(m * k)
		bt, buf := TransposedForVectors(b, m, k)
		defer ReleaseTransposed(buf)
		MulPair(s.out(m), s.out(m), s.in(k), s.in(k), b, bt, s.in(m))
	}},
	{"MulRow", func(s *space, n, k, m int) { MulRow(s.out(m), s.in(k), s.in(m*k), s.in(m)) }},
	{"MulQuadRows", func(s *space, n, k, m int) {
		bt := s.in(k * m)
		MulQuadRows([4][]float64{s.out(m), s.out(m), s.out(m), s.out(m)}, [4][]float64{s.in(k), s.in(k), s.in(k), s.in(k)}, bt, s.in(m), k, m, true)
	}},
	{"Transpose", func(s *space, n, k, m int) { Transpose(s.out(n*m), s.in(n*m), n, m) }},
	{"AddRows", func(s *space, n, k, m int) { AddRows(s.out(n*m), s.in(m), n, m) }},
	{"SumRowsAdd", func(s *space, n, k, m int) { SumRowsAdd(s.out(m), s.in(n*m), n, m) }},
	{"AddTo", func(s *space, n, k, m int) { AddTo(s.out(n*m), s.in(n*m)) }},
	{"Blend", func(s *space, n, k, m int) { Blend(s.out(n*m), s.in(n*m), s.in(n*m), 0.9, 0.1) }},
	{"Scale", func(s *space, n, k, m int) { Scale(s.out(n*m), s.in(n*m), 0.9) }},
	{"Dot", func(s *space, n, k, m int) { s.out(1)[0] = Dot(s.in(n*m), s.in(n*m)) }},
	{"Dot2", func(s *space, n, k, m int) { s.out(1)[0] = Dot2(s.in(n*m), s.in(n*m), s.in(n*m), s.in(n*m)) }},
	{"Relu", func(s *space, n, k, m int) { Relu(s.out(n*m), s.in(n*m)) }},
	{"ReluBackward", func(s *space, n, k, m int) {
		y := s.buf(n*m, true)
		Relu(y, y) // an output of ReLU, as the kernel takes it
		ReluBackward(s.out(n*m), s.in(n*m), y)
	}},
	{"MulInto", func(s *space, n, k, m int) { MulInto(s.out(n*m), s.in(n*m), s.in(n*m)) }},
	{"Sigmoids", func(s *space, n, k, m int) { Sigmoids(s.out(n*m), s.in(n*m), s.in(n*m)) }},
	{"Exps", func(s *space, n, k, m int) { Exps(s.out(n*m), s.in(n*m)) }},
	{"ELU", func(s *space, n, k, m int) { ELU(s.out(n*m), s.in(n*m)) }},
	{"ELUGrad", func(s *space, n, k, m int) {
		x := s.in(n * m)
		y := s.buf(n*m, false)
		ELU(y, x)
		ELUGrad(s.out(n*m), x, y)
	}},
	{"OutputBackward", func(s *space, n, k, m int) {
		in := 32 * (1 + k%2)
		h := s.buf(n*in, true)
		Relu(h, h) // the hidden layer's output, as the kernel takes it
		wVal, g := s.in(in), s.in(n)
		wGrad, bGrad, below, dx := s.out(in), s.out(1), s.out(in), s.out(n*in)
		if !OutputBackward(wGrad, bGrad, wVal, below, dx, h, g, in, n) {
			// The passes it fuses, one after another.
			SumRowsAdd(bGrad, g, n, 1)
			AddATB(wGrad, g, h, n, 1, in)
			MulABT(dx, g, wVal, n, 1, in)
			ReluBackward(dx, dx, h)
			SumRowsAdd(below, dx, n, in)
		}
	}},
	{"Propagation.Rows", func(s *space, n, k, m int) {
		src, dst := unevenEdges(s.rnd, n, 9)
		g := newPropagation(s.rnd, n, src, dst)
		h := s.in(n * m)
		g.Rows(s.out(n*m), h, m, 0, n, g.Pad(h, m))
	}},
	{"Attention", func(s *space, n, k, m int) {
		heads, o := 8, 8
		if m%2 == 1 {
			heads, o = 1, 1+m%3
		}
		src, dst := unevenEdges(s.rnd, n, 9)
		l := newAttention(n, src, dst, heads, o)
		ho := heads * o
		copy(l.WH, s.in(len(l.WH)))
		if l.ChooseLayout() { // W h head-minor, as the layer's forward fills it
			l.WHT, l.GWHT = make([]float64, n*64), make([]float64, n*64)
			for j := range n {
				for c := range 64 {
					l.WHT[j*64+c%8*8+c/8] = l.WH[j*64+c]
				}
			}
		}
		aSrc, aDst := s.in(ho), s.in(ho)
		l.Scores(aSrc, aDst)
		y, dy := s.out(n*ho), s.in(n*ho)
		clear(y)
		for i := range n {
			l.Node(y[i*ho:(i+1)*ho], i)
		}
		for i := range n {
			l.NodeBackward(dy[i*ho:(i+1)*ho], i)
		}
		l.ParamGrads(aSrc, aDst, s.out(ho), s.out(ho))
		if l.HeadMinor() { // W h's gradient back in its own layout
			for j := range n {
				for c := range ho {
					l.GWH[j*ho+c] = l.GWHT[j*ho+c%8*8+c/8]
				}
			}
		}
		for _, f := range [][]float64{l.S, l.T, l.Pre, l.Alpha, l.GWH, l.GS, l.GT, l.GAlpha} {
			copy(s.out(len(f)), f)
		}
	}},
	{"DropoutDraw", func(s *space, n, k, m int) {
		rnd := rand.NewPCG(s.rnd.Uint64(), s.rnd.Uint64())
		keep := 0.5 + 0.4*s.rnd.Float64()
		DropoutDraw(s.out(n*m+k%2), rnd, uint64(keep*(1<<32)), 1/keep)
		next := rnd.Uint64() // where the stream goes on
		copy(s.out(2), []float64{float64(next >> 32), float64(next & 0xffffffff)})
	}},
	{"AdamStep", func(s *space, n, k, m int) {
		wd := 0.0
		if k%2 == 0 {
			wd = 5e-3
		}
		AdamStep(s.out(n*m), s.in(n*m), s.out(n*m), s.out(n*m), wd, 0.9, 1-0.9, 0.999, 1-0.999, 0.01/(1-0.9), math.Sqrt(1-0.999), 1e-8)
	}},
	{"NormForward", func(s *space, n, k, m int) {
		g := graphOf(s, n)
		NormForward(s.out(n), s.out(n), s.out(n), s.out(g.e), s.in(g.e), n, g.e, g.rowPtr, g.eid, g.src, g.dst)
	}},
	{"NormBackward", func(s *space, n, k, m int) {
		g := graphOf(s, n)
		NormBackward(s.out(g.e), s.out(n), s.in(n), s.in(g.e), s.in(n), s.in(g.e), n, g.e, g.src, g.dst)
	}},
	{"CoefGrads", func(s *space, n, k, m int) {
		g := graphOf(s, n)
		CoefGrads(s.out(n), s.out(g.e), s.in(g.e), s.in(n), s.in(g.e), n, g.e, g.src, g.dst)
	}},
	{"AccumulateEdges", func(s *space, n, k, m int) {
		g := graphOf(s, n)
		AccumulateEdges(s.out(g.e), s.in(n*m), s.in(n*m), n, m, g.e/3, g.e, g.src, g.dst)
	}},
	{"AccumulateSelf", func(s *space, n, k, m int) { AccumulateSelf(s.out(n), s.in(n*m), s.in(n*m), n, m) }},
	{"PropagateDots", func(s *space, n, k, m int) {
		g := graphOf(s, n)
		PropagateDots(s.out(n*m), s.in(n*m), s.in(n*m), n, m, n/3, n, g.rowPtr, g.col, g.eid, s.in(g.e), s.in(n), s.out(2*g.e), s.out(n))
	}},
	{"CombineDots", func(s *space, n, k, m int) {
		g := graphOf(s, n)
		CombineDots(s.out(g.e), s.in(2*g.e), g.atSrc, g.atDst, g.e/3, g.e)
	}},
	{"SpMulABT", func(s *space, n, k, m int) {
		ptr, col, val := sparseOf(s, n, k)
		lo := n / 3
		SpMulABT(s.out((n-lo)*m), ptr, col, val, k, lo, n, s.in(k*m), m)
	}},
	{"SpAccumATBCols", func(s *space, n, k, m int) {
		ptr, col, val := sparseOf(s, n, k)
		ct, mid := s.out(k*m), n/2
		SpAccumATBCols(ct, s.in(mid*m), ptr, col, val, k, 0, mid, m, 0, m)
		a := s.in((n - mid) * m)
		SpAccumATBCols(ct, a, ptr, col, val, k, mid, n, m, 0, m/3) // two threads' shares
		SpAccumATBCols(ct, a, ptr, col, val, k, mid, n, m, m/3, m)
	}},
	{"AddTransposed", func(s *space, n, k, m int) { AddTransposed(s.out(m*k), s.in(k*m), m, k) }},
	{"Pathfinder1Forward", func(s *space, n, k, m int) {
		d, nh := k, pathfinderHidden(n, m)
		var keep []float64
		if k%2 == 1 {
			keep = s.in(n)
		}
		Pathfinder1Forward(s.out(n*nh), s.out(n), s.out(n), s.in(n*d), s.in(d*nh), s.in(nh), s.in(nh), s.in(1)[0], keep, n/3, n, d, nh)
	}},
	{"Pathfinder1Backward", func(s *space, n, k, m int) {
		d, nh := k, pathfinderHidden(n, m)
		h := s.buf(n*nh, true)
		Relu(h, h) // the hidden layer's output, as the kernel takes it
		gw1, gb1, gw2, gb2 := s.out(nh*d), s.out(nh), s.out(nh), s.out(1)
		gw, w, z, w2 := s.in(n), s.in(n), s.in(n*d), s.in(nh)
		half := nh / 2 &^ 1 // two threads' shares of the hidden units
		Pathfinder1Backward(gw1, gb1, gw2, gb2, gw, w, h, z, w2, n/3&^3, n, d, nh, 0, half)
		Pathfinder1Backward(gw1, gb1, gw2, gb2, gw, w, h, z, w2, n/3&^3, n, d, nh, half, nh)
	}},
	// Embeddings of k rounded up to a multiple of 8 values: 8, 16, 40, 64
	// (DeepWalk's) and 128 (LINE's).
	{"SkipGram", func(s *space, n, k, m int) {
		d := (k + 7) / 8 * 8
		row := func() []float32 { return s.in32(d) }
		vc, o := row(), [6][]float32{row(), row(), row(), row(), row(), row()}
		var score, gk [WalkTargets]float32
		SkipGramScores(&score, vc, o[0], o[1], o[2], o[3], o[4], o[5])
		for q, v := range score {
			gk[q] = v / 40
		}
		SkipGramStep(vc, o[0], o[1], o[2], o[3], o[4], o[5], &gk)
		out := s.out(WalkTargets*(d+1) + d + 1)
		for q := range o {
			for i, v := range o[q] {
				out[q*d+i] = float64(v)
			}
			out[WalkTargets*d+q] = float64(score[q])
		}
		for i, v := range vc {
			out[WalkTargets*(d+1)+i] = float64(v)
		}
		out[len(out)-1] = float64(WalkDot(vc, o[0]))
	}},
	// MNE's step (its centre made of other vectors), at the same widths.
	{"SkipGramGrad", func(s *space, n, k, m int) {
		d := (k + 7) / 8 * 8
		row := func() []float32 { return s.in32(d) }
		vc, o, grad := row(), [6][]float32{row(), row(), row(), row(), row(), row()}, make([]float32, d)
		gk := [WalkTargets]float32{0.02, -0.01, 0.03, -0.02, 0.01, -0.03}
		SkipGramGrad(grad, vc, o[0], o[1], o[2], o[3], o[4], o[5], &gk)
		out := s.out((WalkTargets + 1) * d)
		for q := range o {
			for i, v := range o[q] {
				out[q*d+i] = float64(v)
			}
		}
		for i, v := range grad {
			out[WalkTargets*d+i] = float64(v)
		}
	}},
}

// in32 is s.in(d) as float32 values, a skip-gram kernel's operand.
func (s *space) in32(d int) []float32 {
	r := make([]float32, d)
	for i, v := range s.in(d) {
		r[i] = float32(v)
	}
	return r
}

// graphOf is a graph of n nodes for the graph kernels: node i has i mod 9
// edges to random nodes (itself among them, at times), so that degrees
// run from none to many.
func graphOf(s *space, n int) *adjacency {
	src, dst := unevenEdges(s.rnd, n, 9)
	return adjacencyOf(n, src, dst)
}

// sparseOf is a random n×cols matrix in compressed sparse rows of 0 to 6
// non-zeros, in random columns, their values read-only operands.
func sparseOf(s *space, n, cols int) (ptr []int, col []int32, val []float64) {
	ptr = []int{0}
	for range n {
		for range s.rnd.IntN(7) {
			col = append(col, s.rnd.Int32N(int32(cols)))
		}
		ptr = append(ptr, len(col))
	}
	return ptr, col, s.in(len(col))
}

// pathfinderHidden is the fused pathfinder's hidden units at a shape: a
// multiple of 8 up to 64, which kernels.wasm takes, or (for n a multiple
// of 5) 4 more, which it does not.
func pathfinderHidden(n, m int) int {
	nh := 8 * (1 + m%8)
	if n%5 == 0 {
		nh += 4
	}
	return nh
}

// kernelShapes are the n, k, m the cases run at.
var kernelShapes = [][3]int{{1, 1, 1}, {3, 7, 5}, {9, 16, 32}, {13, 40, 64}, {70, 64, 33}, {5, 128, 96}, {37, 9, 8}, {40, 64, 64}}

// TestKernelsKeepTheirBandsAndBits runs every kernel on every path this
// build has (each vector width natively, the Go loops and kernels.wasm in
// the worker's build), with each operand between guard bands: no path may
// write outside its operands or change an input, and every path must give
// the reference loops' bits (the first path).
func TestKernelsKeepTheirBandsAndBits(t *testing.T) {
	var names []string
	for _, p := range paths() {
		names = append(names, p.name)
	}
	t.Logf("paths: %v", names)
	for _, kc := range kernelCases {
		for _, sh := range kernelShapes {
			t.Run(fmt.Sprintf("%s/%dx%dx%d", kc.name, sh[0], sh[1], sh[2]), func(t *testing.T) {
				var want [][]float64
				for _, p := range paths() {
					p.set()
					s := &space{rnd: rand.New(rand.NewPCG(uint64(sh[0]), uint64(sh[1]*1000+sh[2])))}
					kc.run(s, sh[0], sh[1], sh[2])
					got := s.check(t)
					if want == nil {
						want = got
						continue
					}
					for q := range want {
						if len(got[q]) != len(want[q]) {
							t.Fatalf("%s: output %d has %d values, the reference %d", p.name, q, len(got[q]), len(want[q]))
						}
						for i := range want[q] {
							g, w := got[q][i], want[q][i]
							if math.Float64bits(g) != math.Float64bits(w) && !(g != g && w != w) {
								t.Fatalf("%s: output %d[%d] = %v, the reference loops' %v", p.name, q, i, g, w)
							}
						}
					}
				}
			})
		}
	}
}

// A path is one way this build can run the kernels.
type path struct {
	name string
	set  func()
}

// paths are this build's paths, the reference loops first; the last
// leaves the build as it found it.
func paths() []path {
	ps := []path{{"reference loops", func() { SetWidth(Scalar); SetSIMD128(false) }}}
	for _, w := range Widths()[1:] {
		ps = append(ps, path{w, func() { SetWidth(w) }})
	}
	if SetSIMD128(true) {
		ps = append(ps, path{"kernels.wasm", func() { SetSIMD128(true) }})
	}
	widest := Widths()[len(Widths())-1]
	ps = append(ps, path{"as built", func() { SetWidth(widest); SetSIMD128(true) }})
	return ps
}
