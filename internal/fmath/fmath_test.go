package fmath

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestExpCloseToMath(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 200000; i++ {
		x := (r.Float64() - 0.5) * 1400
		got, want := Exp(x), math.Exp(x)
		if want == 0 || math.IsInf(want, 0) {
			if got != want {
				t.Fatalf("Exp(%v) = %v, want %v", x, got, want)
			}
			continue
		}
		// The two algorithms differ by a few ulps at most.
		if d := math.Abs(got-want) / want; d > 1e-15 {
			t.Fatalf("Exp(%v) = %v, want %v (relative error %g > 1e-15)", x, got, want, d)
		}
	}
}

func TestExpSpecialCases(t *testing.T) {
	for _, tc := range []struct{ x, want float64 }{
		{0, 1}, {math.Inf(1), math.Inf(1)}, {math.Inf(-1), 0}, {1e-30, 1}, {710, math.Inf(1)}, {-746, 0},
	} {
		if got := Exp(tc.x); got != tc.want {
			t.Errorf("Exp(%v) = %v, want %v", tc.x, got, tc.want)
		}
	}
	if !math.IsNaN(Exp(math.NaN())) {
		t.Error("Exp(NaN) is not NaN")
	}
}

// TestLogMatchesPortable checks the claim that lets Log call math.Log: the
// platform's routine gives the bits of the portable algorithm.
func TestLogMatchesPortable(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 200000; i++ {
		x := r.Float64() * math.Pow(2, float64(r.IntN(200)-100))
		if x == 0 {
			continue
		}
		if got, want := Log(x), portableLog(x); got != want {
			t.Fatalf("Log(%v) = %v, portable %v", x, got, want)
		}
	}
}

func TestSigmoid(t *testing.T) {
	for _, tc := range []struct{ x, want float64 }{
		{0, 0.5}, {800, 1}, {-800, 0}, {2, 1 / (1 + math.Exp(-2))},
	} {
		if got := Sigmoid(tc.x); math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("Sigmoid(%v) = %v, want %v", tc.x, got, tc.want)
		}
	}
}

// portableLog is the standard library's portable log (FreeBSD's e_log.c).
func portableLog(x float64) float64 {
	const (
		ln2Hi = 6.93147180369123816490e-01
		ln2Lo = 1.90821492927058770002e-10
		l1    = 6.666666666666735130e-01
		l2    = 3.999999999940941908e-01
		l3    = 2.857142874366239149e-01
		l4    = 2.222219843214978396e-01
		l5    = 1.818357216161805012e-01
		l6    = 1.531383769920937332e-01
		l7    = 1.479819860511658591e-01
	)
	f1, ki := math.Frexp(x)
	if f1 < math.Sqrt2/2 {
		f1 *= 2
		ki--
	}
	f := f1 - 1
	k := float64(ki)
	s := f / (2 + f)
	s2 := s * s
	s4 := s2 * s2
	t1 := s2 * (l1 + s4*(l3+s4*(l5+s4*l7)))
	t2 := s4 * (l2 + s4*(l4+s4*l6))
	r := t1 + t2
	hfsq := 0.5 * f * f
	return k*ln2Hi - ((hfsq - (s*(hfsq+r) + k*ln2Lo)) - f)
}

func TestTanhAndPow(t *testing.T) {
	for _, x := range []float64{-30, -3, -0.5, -1e-9, 0, 1e-9, 0.3, 1, 5, 25} {
		if got, want := Tanh(x), math.Tanh(x); math.Abs(got-want) > 1e-15 {
			t.Errorf("Tanh(%v) = %v, want %v", x, got, want)
		}
	}
	for _, c := range [][2]float64{{2, 0.75}, {1, 0.75}, {1e6, 0.75}, {0.5, 3}} {
		if got, want := Pow(c[0], c[1]), math.Pow(c[0], c[1]); math.Abs(got-want) > 1e-12*want {
			t.Errorf("Pow(%v, %v) = %v, want %v", c[0], c[1], got, want)
		}
	}
}
