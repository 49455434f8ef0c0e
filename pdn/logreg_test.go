package pdn

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os/exec"
	"testing"
)

// logRegData is n points of d dimensions in c classes, the first half of
// them the training nodes: class k's points drawn about a centre of its
// own, at distance sep from the others (0: no signal).
func logRegData(n, d, c int, sep float64, seed uint64) (x []float64, rows, labels []int) {
	rnd := rand.New(rand.NewPCG(seed, 7))
	centres := make([]float64, c*d)
	for i := range centres {
		centres[i] = sep * rnd.NormFloat64()
	}
	x, labels = make([]float64, n*d), make([]int, n)
	for i := range n {
		labels[i] = i % c
		for j := range d {
			x[i*d+j] = centres[labels[i]*d+j] + rnd.NormFloat64()
		}
		if i < n/2 {
			rows = append(rows, i)
		}
	}
	return x, rows, labels
}

// The loss's gradient (the smooth part FISTA steps on) agrees with finite
// differences of C Σ −log softmax, in float64.
func TestLogRegGradient(t *testing.T) {
	x, rows, labels := logRegData(40, 5, 3, 1, 1)
	r := newLogReg(40, 5, 3, rows, labels)
	r.setX(x)
	rnd := rand.New(rand.NewPCG(2, 2))
	w, b := make([]float64, 15), make([]float64, 3)
	for i := range w {
		w[i] = rnd.NormFloat64()
	}
	for i := range b {
		b[i] = rnd.NormFloat64()
	}
	total := func() float64 { return LogRegC * float64(len(rows)) * r.lossGrad(w, b) }
	total()
	gw, gb := append([]float64(nil), r.gw...), append([]float64(nil), r.gb...)
	checkGrad(t, "logReg W", w, gw, total)
	checkGrad(t, "logReg b", b, gb, total)
}

// Fitted to convergence, the classifier is the ℓ1 problem's minimum: its
// optimality conditions hold (each weight either 0 with the loss's
// gradient within [−1, 1] there, or off 0 with the gradient −sign(w); the
// intercept's gradient 0), and on well-separated classes it predicts
// every training and held-out point right with some weights exactly 0.
func TestLogRegReachesTheL1Optimum(t *testing.T) {
	for _, sep := range []float64{0.5, 3} {
		x, rows, labels := logRegData(200, 8, 4, sep, 3)
		r := newLogReg(200, 8, 4, rows, labels)
		r.setX(x)
		r.lin.pc = &pacer{}
		for range 500 {
			r.trainStep()
		}
		w, b := r.lin.w.val, r.lin.b.val
		r.lossGrad(w, b)
		worst := 0.0
		for j, v := range w {
			g := r.gw[j]
			switch {
			case v > 0:
				worst = max(worst, math.Abs(g+1))
			case v < 0:
				worst = max(worst, math.Abs(g-1))
			default:
				worst = max(worst, math.Abs(g)-1)
			}
		}
		for _, g := range r.gb {
			worst = max(worst, math.Abs(g))
		}
		if worst > 1e-3 {
			t.Errorf("sep %v: the optimality conditions miss by %g", sep, worst)
		}
		if sep < 3 {
			continue
		}
		logits := r.forward()
		zeros, right := 0, 0
		for _, v := range w {
			if v == 0 {
				zeros++
			}
		}
		for i := range 200 {
			if argmax(logits[i*4:(i+1)*4]) == labels[i] {
				right++
			}
		}
		if right != 200 || zeros == 0 {
			t.Errorf("separable classes: %d of 200 right, %d of %d weights exactly 0", right, zeros, len(w))
		}
	}
}

// The classifier reaches scikit-learn's own minimum of the same problem
// (LogisticRegression(penalty="l1", C=1, solver="saga"), fitted to a
// tolerance of 1e-10): the two objectives agree to a millionth. Skipped
// where no Python with scikit-learn is at hand (PDN_PYTHON names one).
func TestLogRegMatchesScikitLearn(t *testing.T) {
	py := peerPython(t, "sklearn", "fits scikit-learn's classifier")
	const n, d, c = 120, 6, 3
	x, rows, labels := logRegData(n, d, c, 0.8, 5)
	r := newLogReg(n, d, c, rows, labels)
	r.setX(x)
	for range 3000 {
		r.trainStep()
	}
	var in struct {
		X [][]float64
		Y []int
	}
	for _, i := range rows {
		in.X, in.Y = append(in.X, x[i*d:(i+1)*d]), append(in.Y, labels[i])
	}
	b, _ := json.Marshal(in)
	const script = `import json, sys, numpy as np
from sklearn.linear_model import LogisticRegression
d = json.load(sys.stdin)
m = LogisticRegression(penalty="l1", C=1.0, solver="saga", tol=1e-10, max_iter=1000000).fit(np.array(d["X"]), np.array(d["Y"]))
print(json.dumps({"coef": m.coef_.ravel().tolist(), "intercept": m.intercept_.tolist()}))`
	cmd := exec.Command(py, "-c", script)
	cmd.Stdin = bytes.NewReader(b)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("scikit-learn: %v", err)
	}
	var sk struct{ Coef, Intercept []float64 }
	if err := json.Unmarshal(out, &sk); err != nil {
		t.Fatal(err)
	}
	objective := func(w, b []float64) float64 {
		l1 := 0.0
		for _, v := range w {
			l1 += math.Abs(v)
		}
		return l1 + LogRegC*float64(len(rows))*r.lossGrad(w, b)
	}
	ours, theirs := objective(r.lin.w.val, r.lin.b.val), objective(sk.Coef, sk.Intercept)
	t.Logf("objective: ours %.10f, scikit-learn's %.10f", ours, theirs)
	if math.Abs(ours-theirs) > 1e-6*theirs {
		t.Errorf("objective: ours %.10f, scikit-learn's %.10f", ours, theirs)
	}
}
