package shaped_test

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"pdnexplorer/datasets"
	"pdnexplorer/datasets/shaped"
)

// small is a sparse shape of the Facebook family, small enough for a test.
var small = shaped.Shape{
	Name: "small", Nodes: 600, Edges: 2400, Features: 40, PerNode: 4,
	Shares: []float64{0.5, 0.3, 0.2}, ClassNames: []string{"tvshow", "company", "politician"}, Homophily: 0.9,
}

// smallOGB is a dense shape with a split.
var smallOGB = shaped.Shape{
	Name: "small-ogb", Nodes: 500, Edges: 1500, Features: 8,
	Shares: []float64{0.25, 0.25, 0.25, 0.25}, Homophily: 0.6, Split: [3]int{300, 100, 100},
}

// open reads files as the explorer reads a user's.
func open(t *testing.T, files []shaped.File) *datasets.Graph {
	t.Helper()
	var in []datasets.File
	for _, f := range files {
		in = append(in, datasets.File{Name: f.Name, Data: f.Data})
	}
	g, _, err := datasets.OpenFiles(in, datasets.Columns{})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// The written folders read back with the shape's counts, class names and
// homophily, in both formats.
func TestReadsBackWithItsCounts(t *testing.T) {
	for _, tc := range []struct {
		shape shaped.Shape
		files func(*shaped.Graph) []shaped.File
	}{
		{small, (*shaped.Graph).MUSAE},
		{smallOGB, (*shaped.Graph).OGB},
		{shaped.Facebook, (*shaped.Graph).MUSAE},
	} {
		t.Run(tc.shape.Name, func(t *testing.T) {
			s := tc.shape
			gen, err := shaped.Generate(s, 7)
			if err != nil {
				t.Fatal(err)
			}
			g := open(t, tc.files(gen))
			if g.N != s.Nodes || g.E() != s.Edges || g.F != s.Features || g.C != len(s.Shares) {
				t.Errorf("read N=%d E=%d F=%d C=%d, want %d %d %d %d", g.N, g.E(), g.F, g.C, s.Nodes, s.Edges, s.Features, len(s.Shares))
			}
			if s.ClassNames != nil {
				names := slices.Sorted(slices.Values(s.ClassNames))
				if !slices.Equal(g.ClassNames, names) {
					t.Errorf("classes %v, want %v", g.ClassNames, names)
				}
			}
			intra := 0
			for e := range g.E() {
				if g.Labels[g.Src[e]] == g.Labels[g.Dst[e]] {
					intra++
				}
			}
			// within-class picks plus the chance share of the rest
			if h := float64(intra) / float64(g.E()); h < s.Homophily-0.03 || h > s.Homophily+0.03 {
				t.Errorf("homophily %.3f, want %.2f ± 0.03", h, s.Homophily)
			}
			if s.Split != [3]int{} {
				for k, want := range s.Split {
					if got := len(g.Nodes(datasets.Split(k))); got != want {
						t.Errorf("split %d holds %d nodes, want %d", k, got, want)
					}
				}
			}
		})
	}
}

// The same seed writes the same bytes; another seed other bytes.
func TestSameSeedSameFiles(t *testing.T) {
	files := func(seed uint64) []shaped.File {
		g, err := shaped.Generate(small, seed)
		if err != nil {
			t.Fatal(err)
		}
		return g.MUSAE()
	}
	a, b, c := files(3), files(3), files(4)
	for i := range a {
		if !bytes.Equal(a[i].Data, b[i].Data) {
			t.Errorf("%s differs between two draws of seed 3", a[i].Name)
		}
	}
	if bytes.Equal(a[1].Data, c[1].Data) {
		t.Error("seeds 3 and 4 drew the same edges")
	}
}

// Shapes that cannot be drawn are refused with the count at fault.
func TestRefusesImpossibleShapes(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*shaped.Shape)
		want string
	}{
		{"too many edges", func(s *shaped.Shape) { s.Edges = 100000 }, "100000 edges for 600 nodes"},
		{"one node", func(s *shaped.Shape) { s.Nodes = 1 }, "1 nodes"},
		{"shares", func(s *shaped.Shape) { s.Shares = []float64{0.5, 0.6, 0.2} }, "sum to 1.3"},
		{"names", func(s *shaped.Shape) { s.ClassNames = s.ClassNames[:2] }, "3 class shares and 2 names"},
		{"split", func(s *shaped.Shape) { s.Split = [3]int{1, 1, 1} }, "a split of 3 nodes for 600"},
		{"homophily", func(s *shaped.Shape) { s.Homophily = 2 }, "homophily 2"},
	} {
		s := small
		tc.edit(&s)
		_, err := shaped.Generate(s, 1)
		if err == nil || !bytes.Contains([]byte(err.Error()), []byte(tc.want)) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

func ExampleGenerate() {
	g, err := shaped.Generate(shaped.Facebook, 1)
	if err != nil {
		panic(err)
	}
	for _, f := range g.MUSAE() {
		fmt.Println(f.Name)
	}
	// Output:
	// musae_facebook_target.csv
	// musae_facebook_edges.csv
	// musae_facebook_features.json
}
