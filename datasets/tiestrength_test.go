package datasets

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"io"
	"math"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"pdnexplorer/edgekind"
	"pdnexplorer/experiment"
)

// path4 is the path 0–1–2–3 plus the edge 0–2: a triangle with a tail.
func path4() *Graph {
	return &Graph{N: 4, F: 0, C: 1, X: []float64{}, Labels: []int{0, 0, 0, 0}, Splits: make([]Split, 4),
		Src: []int32{0, 1, 2, 0}, Dst: []int32{1, 2, 3, 2}}
}

func TestTieStrengthByHand(t *testing.T) {
	g := rawTieStrength(path4())
	if g.D != 11 || len(g.EdgeX) != 4*11 {
		t.Fatalf("D = %d, %d features", g.D, len(g.EdgeX))
	}
	// Edge 0 is 0–1: N(0) = {1, 2}, N(1) = {0, 2}, common {2}, |N(2)| = 3, n = 4.
	want := []float64{1 / math.Log(3), 1.0 / 4, 1, 1.0 / 2, 4, 1.0 / 3, 1.0 / 2, 1.0 / 2, math.Sqrt2 / math.Sqrt(8),
		(4*1 - 4) / (math.Sqrt(8-4) * math.Sqrt(8-4)), 1.0 / 3}
	for i, w := range want {
		if got := g.EdgeX[i]; math.Abs(got-w) > 1e-12 {
			t.Errorf("%s(0–1) = %v, want %v", TieStrengthNames[i], got, w)
		}
	}
	// Edge 2 is 2–3: no common neighbour, so every overlap score is 0,
	// never NaN or infinite.
	row := g.EdgeX[2*11 : 3*11]
	for i, v := range row {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Errorf("%s(2–3) = %v", TieStrengthNames[i], v)
		}
	}
	if row[2] != 0 || row[6] != 0 || row[7] != 0 || row[4] != 3 {
		t.Errorf("2–3: %v", row)
	}
	if err := g.Check(); err != nil {
		t.Error(err)
	}
}

func TestTieStrengthExtremes(t *testing.T) {
	// A star: the centre is joined to every other node, the leaves share no
	// neighbour. Pearson is (n·0 − 2·1)/(√(3·2−4)·√(3·1−1)) = −1.
	g := &Graph{N: 3, C: 1, Labels: []int{0, 0, 0}, Splits: make([]Split, 3), Src: []int32{0, 0}, Dst: []int32{1, 2}}
	ts := rawTieStrength(g)
	if p := ts.EdgeX[9]; math.Abs(p+1) > 1e-12 {
		t.Errorf("Pearson of a star's edge = %v, want -1", p)
	}
	for _, c := range [][2]float64{{1, 0}, {0, 0}, {1, math.NaN()}, {3, 2}} {
		want := 0.0
		if c[1] == 2 {
			want = 1.5
		}
		if got := div(c[0], c[1]); got != want {
			t.Errorf("div(%v, %v) = %v, want %v", c[0], c[1], got, want)
		}
	}
}

func TestMultiplex(t *testing.T) {
	base := path4()
	base.Kind = []edgekind.Kind{KindIntra}
	g, err := Multiplex(base, [][]WeightedPair{{{0, 1, 1}, {1, 2, 0.5}}, {{1, 0, 2}, {2, 3, 1}}})
	if err != nil {
		t.Fatal(err)
	}
	if g.E() != 3 || g.D != 2 {
		t.Fatalf("E = %d, D = %d", g.E(), g.D)
	}
	want := []float64{1, 2, 0.5, 0, 0, 1}
	for i, w := range want {
		if g.EdgeX[i] != w {
			t.Errorf("features %v, want %v", g.EdgeX, want)
			break
		}
	}
	if _, err := Multiplex(base, [][]WeightedPair{{{0, 0, 1}}}); err == nil || !strings.Contains(err.Error(), "self-loop") {
		t.Errorf("a self-loop in a layer: %v", err)
	}
}

// hub is a star of n leaves around node 0, with leaf i also joined to
// leaf i+1 for the first half: degrees from 2 to n, so that the degree
// product's tail sits far above its mean, as on a social graph.
func hub(n int) *Graph {
	g := &Graph{N: n + 1, C: 1, Labels: make([]int, n+1), Splits: make([]Split, n+1)}
	for i := 1; i <= n; i++ {
		g.Src, g.Dst = append(g.Src, 0), append(g.Dst, int32(i))
	}
	for i := 1; i < n/2; i++ {
		g.Src, g.Dst = append(g.Src, int32(i)), append(g.Dst, int32(i+1))
	}
	return g
}

// TieStrength's scores are the raw ones scaled: log1p of the unbounded
// ones, then each column's z-scores over the graph's edges (a constant
// column all 0), so that no column's values run far from a few units.
func TestTieStrengthScaled(t *testing.T) {
	for _, tc := range []struct {
		name string
		g    *Graph
	}{{"triangle with a tail", path4()}, {"hub of 60 leaves", hub(60)}, {"a star (constant columns)", &Graph{N: 3, C: 1, Labels: []int{0, 0, 0}, Splits: make([]Split, 3), Src: []int32{0, 0}, Dst: []int32{1, 2}}}} {
		t.Run(tc.name, func(t *testing.T) {
			raw, scaled := rawTieStrength(tc.g), TieStrength(tc.g)
			if scaled.Meta["edge_features"] != TieStrengthMeta || !slices.Equal(scaled.EdgeNames, TieStrengthNames) {
				t.Errorf("meta %v, names %v", scaled.Meta["edge_features"], scaled.EdgeNames)
			}
			for k, name := range TieStrengthNames {
				want := column(raw, k)
				if slices.Contains(unboundedScores, name) {
					for i, v := range want {
						want[i] = math.Log1p(v)
					}
				}
				zscores(want)
				for i, got := range column(scaled, k) {
					if math.Abs(got-want[i]) > 1e-12 {
						t.Errorf("%s, edge %d: %v, want %v", name, i, got, want[i])
						break
					}
				}
			}
			assertStandardised(t, scaled)
		})
	}
	// On the hub the raw degree product runs to 60·2 = 120 over a mean
	// near 60; log1p then the z-scores keep every value within 3 units.
	g := TieStrength(hub(60))
	for k, name := range TieStrengthNames {
		for _, v := range column(g, k) {
			if math.Abs(v) > 5 {
				t.Errorf("%s: %v, beyond 5 standard deviations", name, v)
				break
			}
		}
	}
}

// column is edge feature k of every edge of g.
func column(g *Graph, k int) []float64 {
	out := make([]float64, g.E())
	for e := range out {
		out[e] = g.EdgeX[e*g.D+k]
	}
	return out
}

// zscores sets xs to its z-scores with the population SD, 0 where xs is
// constant: NumPy's (x − x.mean()) / x.std(), the reference.
func zscores(xs []float64) {
	m, sd := experiment.MeanSD(xs)
	sd *= math.Sqrt(float64(len(xs)-1) / float64(len(xs))) // MeanSD's is the sample SD
	for i := range xs {
		if sd < 1e-12 {
			xs[i] = 0
			continue
		}
		xs[i] = (xs[i] - m) / sd
	}
}

// assertStandardised fails unless every tie-strength column of g has mean
// 0 and population SD 1, or is all 0.
func assertStandardised(t *testing.T, g *Graph) {
	t.Helper()
	if g.D != len(TieStrengthNames) {
		t.Fatalf("D = %d, want the %d tie-strength scores", g.D, len(TieStrengthNames))
	}
	for k, name := range TieStrengthNames {
		xs := column(g, k)
		m, sd := experiment.MeanSD(xs)
		sd *= math.Sqrt(float64(len(xs)-1) / float64(len(xs)))
		allZero := !slices.ContainsFunc(xs, func(v float64) bool { return v != 0 })
		if math.Abs(m) > 1e-9 || (math.Abs(sd-1) > 1e-9 && !allZero) {
			t.Errorf("%s: mean %v, SD %v: not standardised", name, m, sd)
		}
	}
}

// Every way a graph gets tie-strength scores goes through TieStrength's
// scaling, and the same graph gives the same bits however it arrives:
// Cora as shipped (Real, which the CLI's cora and the page's worker read),
// from files without edge features (Open, which the CLI's -data, the
// page's "Your own graph" and a MUSAE folder go through), and as a bundle
// that holds the scores (a PyTorch Geometric export's graph, read as it is,
// never scaled twice).
func TestEveryArrivalScalesTieStrength(t *testing.T) {
	d := experiment.Default().Data
	d.Graph, d.Seed = experiment.GraphCora, 1
	shipped, err := Real(d)
	if err != nil {
		t.Fatal(err)
	}
	bare, err := Builtin(experiment.GraphCora)
	if err != nil {
		t.Fatal(err)
	}
	if bare.D != 0 {
		t.Fatalf("shipped Cora has %d edge features, want none", bare.D)
	}
	fromFiles, _, err := Open(bundleFS(t, bare), Columns{})
	if err != nil {
		t.Fatal(err)
	}
	withScores, _, err := Open(bundleFS(t, shipped), Columns{})
	if err != nil {
		t.Fatal(err)
	}
	musae, _, err := OpenFiles(filesOf(tinyMUSAE), Columns{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		g    *Graph
	}{{"shipped (Real)", shipped}, {"files without edge features (Open)", fromFiles}, {"a bundle with the scores", withScores}, {"a MUSAE folder (OpenFiles)", musae}} {
		t.Run(tc.name, func(t *testing.T) {
			assertStandardised(t, tc.g)
			if tc.g.N == shipped.N && !slices.Equal(tc.g.EdgeX, shipped.EdgeX) {
				t.Errorf("Cora's scores differ from the shipped graph's: not the same bits")
			}
		})
	}
}

// bundleFS is g written as a bundle, in memory.
func bundleFS(t *testing.T, g *Graph) fstest.MapFS {
	t.Helper()
	fsys := fstest.MapFS{}
	err := WriteBundle(g, func(name string) (io.WriteCloser, error) {
		return &mapFile{fsys: fsys, name: name}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return fsys
}

// mapFile writes one file of a fstest.MapFS when it is closed.
type mapFile struct {
	fsys fstest.MapFS
	name string
	strings.Builder
}

func (f *mapFile) Close() error {
	f.fsys[f.name] = &fstest.MapFile{Data: []byte(f.String())}
	return nil
}

// A graph's own edge features stay as given, but one past a few units
// (a count, a raw degree product) is named in a note that says what to
// do: the pathfinder would saturate on it without a word.
func TestOwnEdgeFeaturesPastAFewUnitsAreNoted(t *testing.T) {
	for _, tc := range []struct {
		name  string
		x     []float64
		names []string
		note  string // "" for none
	}{
		{"a few units", []float64{0.5, -3, 1, 2, 0, 99}, []string{"trust", "calls"}, ""},
		{"a count in the thousands", []float64{0.5, 5000, 1, 2, 0, 99}, []string{"trust", "calls"}, "edge features calls reach |x| = 5000"},
		{"anonymous, negative", []float64{-250, 1, 1, 2, 0, 3}, nil, "edge features e0 reach |x| = 250"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := path4()
			g.Src, g.Dst = g.Src[:3], g.Dst[:3]
			g.D, g.EdgeX, g.EdgeNames = 2, tc.x, tc.names
			back, _, err := Open(bundleFS(t, g), Columns{})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(back.EdgeX, tc.x) {
				t.Errorf("the features came back as %v, want them as given", back.EdgeX)
			}
			var notes []string
			for _, n := range back.Notes {
				if strings.Contains(n.String(), "saturates") {
					notes = append(notes, n.String())
				}
			}
			switch {
			case tc.note == "" && len(notes) > 0:
				t.Errorf("notes %q, want none", notes)
			case tc.note != "" && (len(notes) != 1 || !strings.HasPrefix(notes[0], tc.note)):
				t.Errorf("notes %q, want one starting %q", notes, tc.note)
			}
		})
	}
}

// scaledCoraDigest pins Cora's scaled scores, the bits of every value in
// order: natively and under GOOS=js (the page's worker), so the CLI and
// the page feed the pathfinder the same inputs. The scaling rounds each
// product on its own and takes fmath's Log for that.
const scaledCoraDigest = "049f7665bd33b830aec2aeb00d06ca80ccefca345abd78b0c20a46bd9b7863f7"

func TestScaledScoresSameEverywhere(t *testing.T) {
	d := experiment.Default().Data
	d.Graph = experiment.GraphCora
	g, err := Real(d)
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	for _, v := range g.EdgeX {
		binary.Write(h, binary.LittleEndian, math.Float64bits(v))
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != scaledCoraDigest {
		t.Errorf("Cora's scaled scores digest to %s, pinned %s", got, scaledCoraDigest)
	}
}
