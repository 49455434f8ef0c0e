package pdn

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// On a matrix whose spectrum decays, the randomized truncated SVD finds
// the leading singular values of gonum's full SVD, its vectors are
// orthonormal and give A·v_j = s_j·u_j, and each left vector's largest
// entry is positive.
func TestTruncatedSVD(t *testing.T) {
	const r, c, k = 60, 40, 5
	rnd := rand.New(rand.NewPCG(1, 1))
	a := mat.NewDense(r, c, nil)
	for j := range c { // columns of geometrically falling weight
		w := math.Pow(0.6, float64(j))
		for i := range r {
			a.Set(i, j, w*rnd.NormFloat64())
		}
	}
	u, s, v := truncatedSVD(denseOp{a}, k, 5, rand.New(rand.NewPCG(2, 2)))
	var full mat.SVD
	full.Factorize(a, mat.SVDNone)
	want := full.Values(nil)
	for j := range k {
		if math.Abs(s[j]-want[j]) > 1e-8*want[0] {
			t.Errorf("singular value %d: %v, gonum's full SVD %v", j, s[j], want[j])
		}
		av := mat.NewVecDense(r, nil)
		av.MulVec(a, v.ColView(j))
		for i := range r {
			if math.Abs(av.AtVec(i)-s[j]*u.At(i, j)) > 1e-8*want[0] {
				t.Fatalf("A·v_%d differs from s·u at %d", j, i)
			}
		}
		big := 0.0
		for i := range r {
			if math.Abs(u.At(i, j)) > math.Abs(big) {
				big = u.At(i, j)
			}
		}
		if big < 0 {
			t.Errorf("left vector %d's largest entry %v is negative", j, big)
		}
	}
	var utu mat.Dense
	utu.Mul(u.T(), u)
	for i := range k {
		for j := range k {
			if want := float64(map[bool]int{true: 1}[i == j]); math.Abs(utu.At(i, j)-want) > 1e-10 {
				t.Errorf("UᵀU[%d][%d] = %v", i, j, utu.At(i, j))
			}
		}
	}
}
