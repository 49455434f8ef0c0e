package datasets

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"pdnexplorer/edgekind"
	"pdnexplorer/experiment"
)

// smallGraph is the default scenario at 16 nodes per class.
func smallGraph(t *testing.T) *Graph {
	t.Helper()
	d := defaultData()
	d.PerClass, d.P, d.Q = 16, 1.0/16, 1.0/32
	g, err := Build(d)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// A free pair of nodes of other classes, and one of the same class.
func freePair(g *Graph, intra bool) (int, int) {
	for u := range g.N {
		for v := u + 1; v < g.N; v++ {
			if (g.Labels[u] == g.Labels[v]) == intra && g.EdgeIndex(u, v) < 0 {
				return u, v
			}
		}
	}
	panic("no free pair")
}

// Adding an edge and removing it gives the graph back exactly; the graph
// edited is never the one given.
func TestEditedAddRemove(t *testing.T) {
	g := smallGraph(t)
	u, v := freePair(g, false)
	add := experiment.Edits{{Op: experiment.EditAdd, U: u, V: v}}
	h, err := edited(g, add.String())
	if err != nil {
		t.Fatal(err)
	}
	e := h.E() - 1
	if h.E() != g.E()+1 || int(h.Src[e]) != u || int(h.Dst[e]) != v || h.Kind[e] != edgekind.Inter {
		t.Fatalf("added edge %d: %d-%d %v (E %d→%d)", e, h.Src[e], h.Dst[e], h.Kind[e], g.E(), h.E())
	}
	ex := experiment.ExampleEdge(g.Src, g.Dst, g.Labels, edgekind.Inter, -1)
	if !reflect.DeepEqual(h.EdgeX[e*h.D:], g.EdgeX[ex*g.D:(ex+1)*g.D]) {
		t.Error("an add without c does not copy the first edge of its kind")
	}
	if err := h.Check(); err != nil {
		t.Fatal(err)
	}
	back, err := edited(h, "r"+strings.TrimPrefix(add.String(), "a"))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Src, g.Src) || !reflect.DeepEqual(back.Dst, g.Dst) ||
		!reflect.DeepEqual(back.EdgeX, g.EdgeX) || !reflect.DeepEqual(back.Kind, g.Kind) {
		t.Error("add then remove does not give the graph back")
	}
	if h.Meta["edits"] != add.String() || g.Meta["edits"] != nil {
		t.Errorf("meta edits: %v and %v", h.Meta["edits"], g.Meta["edits"])
	}
	if same, _ := edited(g, ""); same != g {
		t.Error("no edits copies the graph")
	}
}

// Removing an edge keeps the others in order; a set copies or sets.
func TestEditedRemoveAndSet(t *testing.T) {
	g := smallGraph(t)
	a, b := int(g.Src[3]), int(g.Dst[3])
	c, d := int(g.Src[7]), int(g.Dst[7])
	lo, hi := FeatureRanges(g)
	mid := (lo[2] + hi[2]) / 2
	es := experiment.Edits{
		{Op: experiment.EditSet, U: a, V: b, HasFrom: true, From: [2]int{d, c}},
		{Op: experiment.EditSet, U: b, V: a, Feature: 2, Value: mid},
		{Op: experiment.EditRemove, U: int(g.Src[0]), V: int(g.Dst[0])},
	}
	h, err := edited(g, es.String())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(h.Src, g.Src[1:]) || !reflect.DeepEqual(h.Kind, g.Kind[1:]) {
		t.Error("a removal does not keep the order")
	}
	want := append([]float64(nil), g.EdgeX[7*g.D:8*g.D]...)
	want[2] = mid
	if got := h.EdgeX[2*h.D : 3*h.D]; !reflect.DeepEqual(got, want) {
		t.Errorf("set edge features %v, want %v", got, want)
	}
	if g.EdgeX[3*g.D+2] == mid {
		t.Error("the given graph changed")
	}
}

// Each edit that cannot apply is named with what is wrong.
func TestEditedErrors(t *testing.T) {
	g := smallGraph(t)
	u, v := freePair(g, true)
	a, b := g.Src[0], g.Dst[0]
	pair := func(op string, x, y int32) string { return op + itoa(int(x)) + "-" + itoa(int(y)) }
	lo, hi := FeatureRanges(g)
	for _, c := range []struct{ text, want string }{
		{"a1-999", "edit 1 (a1-999): node 999 is out of range: the graph's nodes are 0 to 47"},
		{pair("a", b, a), "already"},
		{pair("r", int32(u), int32(v)), "there is no edge"},
		{pair("s", int32(u), int32(v)) + "f0~0", "there is no edge"},
		{pair("s", a, b) + "f99~0", "feature 99 is out of range: the edges have features 0 to 31"},
		{pair("s", a, b) + "f1~" + ftoa(hi[1]+1), "out of range for feature 1: the graph's edges have it in [" + ftoa(lo[1])},
		{pair("a", int32(u), int32(v)) + "c" + itoa(u) + "-" + itoa(v), "there is no edge"},
		{"r0-", "edits: edit 1"},
		{pair("r", a, b) + "_" + pair("r", a, b), "edit 2"},
	} {
		_, err := edited(g, c.text)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.text, err, c.want)
		}
	}
}

// Build applies the data's edits, so the command line and the page make
// the same edited graph.
func TestBuildApplies(t *testing.T) {
	d := defaultData()
	d.PerClass, d.P, d.Q = 16, 1.0/16, 1.0/32
	g := smallGraph(t)
	d.Edits = "r" + itoa(int(g.Src[5])) + "-" + itoa(int(g.Dst[5]))
	h, err := Build(d)
	if err != nil || h.E() != g.E()-1 {
		t.Fatalf("Build with edits: %v, %d edges of %d", err, h.E(), g.E())
	}
}

func itoa(i int) string     { return strconv.Itoa(i) }
func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
