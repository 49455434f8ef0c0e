// Package fmath holds the few elementary functions whose results must be the
// same, bit for bit, on every platform the engine runs on.
//
// The standard library's math.Exp uses an assembly routine on amd64 whose
// result differs in the last bit from the portable Go code that runs under
// GOOS=js for about one input in six. A training run that must give the same
// bits natively and in the browser therefore cannot call math.Exp. Exp here
// is the portable algorithm of the Go standard library (itself from FreeBSD's
// e_exp.c), compiled the same way everywhere. math.Log's amd64 routine is an
// instruction-for-instruction copy of its portable code, so Log is math.Log;
// a test keeps both claims honest.
package fmath

import "math"

// Exp's constants: the reduction x = k·ln2 + r with ln2 split in two
// (Ln2Hi + Ln2Lo), the range where it is finite and non-zero, the band
// around 0 where it is 1 + x, and the minimax polynomial P1..P5 of
// r·(e^r+1)/(e^r−1). A vector form of Exp (pdn's, lane by lane the same
// operations) takes them from here, so both stay one algorithm.
const (
	Ln2Hi     = 6.93147180369123816490e-01
	Ln2Lo     = 1.90821492927058770002e-10
	Log2e     = 1.44269504088896338700e+00
	Overflow  = 7.09782712893383973096e+02
	Underflow = -7.45133219101941108420e+02
	NearZero  = 1.0 / (1 << 28)

	P1 = 1.66666666666666657415e-01
	P2 = -2.77777777770155933842e-03
	P3 = 6.61375632143793436117e-05
	P4 = -1.65339022054652515390e-06
	P5 = 4.13813679705723846039e-08
)

// Exp returns e**x, computed identically on every GOARCH.
//
// Special cases are as for math.Exp.
func Exp(x float64) float64 {
	const (
		ln2Hi, ln2Lo, log2e           = Ln2Hi, Ln2Lo, Log2e
		overflow, underflow, nearZero = Overflow, Underflow, NearZero
		p1, p2, p3, p4, p5            = P1, P2, P3, P4, P5
	)
	switch {
	case math.IsNaN(x):
		return x
	case x > overflow:
		return math.Inf(1)
	case x < underflow:
		return 0
	case -nearZero < x && x < nearZero:
		return 1 + x
	}
	var k int
	switch {
	case x < 0:
		k = int(log2e*x - 0.5)
	case x > 0:
		k = int(log2e*x + 0.5)
	}
	hi := x - float64(k)*ln2Hi
	lo := float64(k) * ln2Lo
	r := hi - lo
	t := r * r
	c := r - t*(p1+t*(p2+t*(p3+t*(p4+t*p5))))
	y := 1 - ((lo - (r*c)/(2-c)) - hi)
	if k > -1021 && k < 1022 {
		// y·2ᵏ is exact here and so equals math.Ldexp(y, k), only faster.
		return y * math.Float64frombits(uint64(k+1023)<<52)
	}
	return math.Ldexp(y, k)
}

// Log returns the natural logarithm of x. See the package comment for why it
// may call math.Log.
func Log(x float64) float64 { return math.Log(x) }

// Sigmoid returns 1/(1+e**-x), computed so that it never overflows.
func Sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + Exp(-x))
	}
	e := Exp(x)
	return e / (1 + e)
}

// Tanh returns the hyperbolic tangent of x, from Exp, so that it too gives
// the same bits everywhere (math.Tanh calls math.Exp).
func Tanh(x float64) float64 {
	if x < 0 {
		return -Tanh(-x)
	}
	if x > 22 {
		return 1
	}
	return 1 - 2/(Exp(2*x)+1)
}

// Pow returns x**y for x > 0 from Exp and Log, for the same reason.
func Pow(x, y float64) float64 { return Exp(y * Log(x)) }
