package datasets

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"pdnexplorer/experiment"
)

func defaultData() experiment.Data { return experiment.Default().Data }

func TestSyntheticDefaultScenario(t *testing.T) {
	d := defaultData()
	g, err := Synthetic(d)
	if err != nil {
		t.Fatal(err)
	}
	if g.N != 1500 || g.F != 32 || g.D != 32 || g.C != 3 {
		t.Fatalf("shape: %v", g)
	}
	counts := make([]int, g.C)
	for _, l := range g.Labels {
		counts[l]++
	}
	if !slices.Equal(counts, []int{500, 500, 500}) {
		t.Errorf("class sizes %v, want 500 each", counts)
	}
	if tr := len(g.Nodes(Train)); tr != 1200 || len(g.Nodes(Test)) != 300 {
		t.Errorf("split %d/%d, want 1200/300", tr, len(g.Nodes(Test)))
	}
	var intra, inter int
	var vIntra, vInter []float64
	for e := range g.Src {
		same := g.Labels[g.Src[e]] == g.Labels[g.Dst[e]]
		if same != (g.Kind[e] == KindIntra) {
			t.Fatalf("edge %d kind %d disagrees with labels", e, g.Kind[e])
		}
		row := g.EdgeX[e*g.D : (e+1)*g.D]
		if same {
			intra++
			vIntra = append(vIntra, row...)
		} else {
			inter++
			vInter = append(vInter, row...)
		}
	}
	// Binomial counts: expected 3·C(500,2)·P and 3·500²·Q, within 5 standard deviations.
	for _, c := range []struct {
		name  string
		got   int
		pairs float64
		p     float64
	}{{"intra", intra, 3 * 500 * 499 / 2, d.P}, {"inter", inter, 3 * 500 * 500, d.Q}} {
		mean, sd := c.pairs*c.p, math.Sqrt(c.pairs*c.p*(1-c.p))
		if math.Abs(float64(c.got)-mean) > 5*sd {
			t.Errorf("%s edges %d, want %.0f ± %.0f", c.name, c.got, mean, 5*sd)
		}
	}
	if v := stat.Variance(vIntra, nil); math.Abs(v-1) > 0.05 {
		t.Errorf("intra-class edge feature variance %.3f, want 1", v)
	}
	if v := stat.Variance(vInter, nil); math.Abs(v-d.SigmaD*d.SigmaD) > 0.2 {
		t.Errorf("inter-class edge feature variance %.3f, want %.1f", v, d.SigmaD*d.SigmaD)
	}
	// Node features have unit variance (a correlation, not a covariance).
	col := make([]float64, g.N)
	for j := 0; j < g.F; j++ {
		for i := range col {
			col[i] = g.X[i*g.F+j]
		}
		if v := stat.Variance(col, nil); math.Abs(v-1) > 0.15 {
			t.Errorf("feature %d variance %.3f, want 1", j, v)
		}
	}
}

func TestSyntheticDeterministicAndStreamsIndependent(t *testing.T) {
	d := defaultData()
	d.PerClass = 64
	a, _ := Synthetic(d)
	b, _ := Synthetic(d)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("same seed, different graphs")
	}
	d.SigmaD = 8
	c, _ := Synthetic(d)
	if !slices.Equal(a.X, c.X) || !slices.Equal(a.Src, c.Src) || !slices.Equal(a.Dst, c.Dst) || !slices.Equal(a.Labels, c.Labels) {
		t.Error("changing σD changed the nodes or edges")
	}
	if slices.Equal(a.EdgeX, c.EdgeX) {
		t.Error("changing σD left the edge features alone")
	}
	d.SigmaD, d.Seed = 2, 2
	e, _ := Synthetic(d)
	if slices.Equal(a.X, e.X) {
		t.Error("another seed gave the same features")
	}
}

func TestSyntheticRejectsBadParameters(t *testing.T) {
	for _, tc := range []struct {
		name string
		mod  func(*experiment.Data)
		want string
	}{
		{"classes", func(d *experiment.Data) { d.Classes = 7 }, "classes"},
		{"per-class", func(d *experiment.Data) { d.PerClass = 8 }, "per-class"},
		{"p", func(d *experiment.Data) { d.P = 0.5 }, "p:"},
		{"q", func(d *experiment.Data) { d.Q = math.NaN() }, "q:"},
		{"sigma-f", func(d *experiment.Data) { d.SigmaF = 0 }, "sigma-f"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := defaultData()
			tc.mod(&d)
			_, err := Synthetic(d)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error = %v, want it to name %s", err, tc.want)
			}
		})
	}
}

func TestRandomCorrelationKeepsSpectrum(t *testing.T) {
	const f = 12
	std := distuv.Normal{Mu: 0, Sigma: 1, Src: rand.NewPCG(7, 7)}
	eig := make([]float64, f)
	var sum float64
	for i := range eig {
		eig[i] = math.Abs(std.Rand())
		sum += eig[i]
	}
	for i := range eig {
		eig[i] *= f / sum
	}
	r := randomCorrelation(eig, std)
	for i := 0; i < f; i++ {
		if r.At(i, i) != 1 {
			t.Errorf("R[%d,%d] = %v, want 1", i, i, r.At(i, i))
		}
	}
	var es mat.EigenSym
	if !es.Factorize(r, false) {
		t.Fatal("eigendecomposition failed")
	}
	got := es.Values(nil)
	slices.Sort(got)
	slices.Sort(eig)
	for i := range got {
		if math.Abs(got[i]-eig[i]) > 1e-9 {
			t.Errorf("eigenvalue %d = %v, want %v", i, got[i], eig[i])
		}
	}
}

func TestSkipPairs(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 1))
	for _, tc := range []struct {
		m int
		p float64
	}{{1000, 0}, {1000, 1}, {200000, 0.01}, {200000, 0.3}, {0, 0.5}} {
		var got []int
		skipPairs(tc.m, tc.p, rnd, func(k int) { got = append(got, k) })
		if !slices.IsSorted(got) || (len(got) > 0 && (got[0] < 0 || got[len(got)-1] >= tc.m)) {
			t.Errorf("m=%d p=%v: indices not increasing within range", tc.m, tc.p)
		}
		mean := float64(tc.m) * tc.p
		if sd := math.Sqrt(mean * (1 - tc.p)); math.Abs(float64(len(got))-mean) > 5*sd+1e-9 {
			t.Errorf("m=%d p=%v: %d chosen, want %.0f ± %.0f", tc.m, tc.p, len(got), mean, 5*sd)
		}
	}
}

func TestTrianglePairIsABijection(t *testing.T) {
	k := 0
	for i := 1; i < 300; i++ {
		for j := 0; j < i; j++ {
			if gi, gj := trianglePair(k); gi != i || gj != j {
				t.Fatalf("trianglePair(%d) = (%d,%d), want (%d,%d)", k, gi, gj, i, j)
			}
			k++
		}
	}
}

func TestXORLayers(t *testing.T) {
	d := defaultData()
	d.PerClass = 64
	g, err := XOR(d)
	if err != nil {
		t.Fatal(err)
	}
	states := map[[2]float64]int{}
	for e, k := range g.Kind {
		a, b := g.EdgeX[2*e], g.EdgeX[2*e+1]
		if (a != b) != (k == KindIntra) {
			t.Fatalf("edge %d (%v) has layers (%v,%v)", e, k, a, b)
		}
		states[[2]float64{a, b}]++
	}
	if len(states) != 4 {
		t.Errorf("edge states %v: want all four", states)
	}
}

func TestSmallWorldAndScaleFree(t *testing.T) {
	sw, err := SmallWorld(256, 4, 0.5, 8, 8, 4, 1)
	if err != nil {
		t.Fatal(err)
	}
	if e := sw.E(); e > 256*4 || e < 256*4*98/100 { // a rewired edge may land on an existing one
		t.Errorf("small world has %d edges, want about %d", e, 256*4)
	}
	again, _ := SmallWorld(256, 4, 0.5, 8, 8, 4, 1)
	if !slices.Equal(sw.Src, again.Src) || !slices.Equal(sw.Dst, again.Dst) {
		t.Error("the same seed gave another small world")
	}
	d := defaultData()
	d.PerClass = 100
	sf, err := ScaleFree(d, 3)
	if err != nil {
		t.Fatal(err)
	}
	deg := make([]int, sf.N)
	for e := range sf.Src {
		deg[sf.Src[e]]++
		deg[sf.Dst[e]]++
	}
	if top := slices.Max(deg); top < 8*3 {
		t.Errorf("the largest degree is %d: not skewed", top)
	}
}

func TestBuild(t *testing.T) {
	for _, tc := range []struct {
		graph   string
		attach  int
		meta    string
		edgeDim int
	}{
		{experiment.GraphSynthetic, 5, "synthetic", 8},
		{experiment.GraphXOR, 5, "xor", 2},
		{experiment.GraphScaleFree, 3, "scale-free", 8},
		{experiment.GraphScaleFree, 50, "scale-free", 8},
	} {
		t.Run(tc.graph, func(t *testing.T) {
			d := experiment.Default().Data
			d.Graph, d.Attach, d.PerClass, d.EdgeFeatures = tc.graph, tc.attach, 32, 8
			g, err := Build(d)
			if err != nil {
				t.Fatal(err)
			}
			if g.Meta["name"] != tc.meta || g.D != tc.edgeDim || g.N != 96 {
				t.Errorf("built %v named %v with D = %d", g, g.Meta["name"], g.D)
			}
		})
	}
	d := experiment.Default().Data
	d.Graph = "grid"
	if _, err := Build(d); err == nil || !strings.Contains(err.Error(), "graph") {
		t.Errorf("an unknown graph gave %v", err)
	}
}
