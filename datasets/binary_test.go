package datasets

import (
	"encoding/binary"
	"math"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
)

// The binary form gives back every field, every float bit for bit, for a
// generated graph (dense features, edge kinds), a shipped one (sparse
// features, class names, a split drawn) and one read from files (notes,
// meta.json's lists and objects, a NaN's bits).
func TestBinaryRoundTrip(t *testing.T) {
	syn, err := Synthetic(defaultData())
	if err != nil {
		t.Fatal(err)
	}
	d := experiment.Default().Data
	d.Graph = experiment.GraphCora
	cora, err := Build(d)
	if err != nil {
		t.Fatal(err)
	}
	files, err := ReadBundle(writeFiles(t, map[string]string{"meta.json": `{"name": "tiny", "classes": 2, "class_names": ["a", "b"], "source": {"by": "hand", "year": 2026, "ok": true, "none": null}}`}))
	if err != nil {
		t.Fatal(err)
	}
	files.Notes = append(files.Notes, phrase.New("%d pairs given twice were summed (%s)", 3, phrase.New("as %s reads them", "karateclub")))
	files.EdgeX[0] = math.Float64frombits(0x7ff8000000000abc) // a NaN with a payload
	for _, g := range []*Graph{syn, cora, files} {
		b, err := g.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var h Graph
		if err := h.UnmarshalBinary(b); err != nil {
			t.Fatal(err)
		}
		if h.Digest() != g.Digest() {
			t.Errorf("%v: digest %s came back as %s", g.Meta["name"], g.Digest(), h.Digest())
		}
		if math.Float64bits(h.EdgeX[0]) != math.Float64bits(g.EdgeX[0]) {
			t.Errorf("%v: edge feature 0's bits %x came back as %x", g.Meta["name"], math.Float64bits(g.EdgeX[0]), math.Float64bits(h.EdgeX[0]))
		}
		h.EdgeX[0], g.EdgeX[0] = 0, 0 // a NaN is unequal to itself in DeepEqual
		if !reflect.DeepEqual(&h, g) {
			t.Errorf("%v: the graph did not come back whole:\n got %+v\nwant %+v", g.Meta["name"], h.Meta, g.Meta)
		}
	}
}

// A buffer that is not a graph, or a damaged one, is refused with the
// reason; it never panics, and never gives a graph that would index out
// of its arrays.
func TestBinaryRefusesDamage(t *testing.T) {
	g, err := Synthetic(defaultData())
	if err != nil {
		t.Fatal(err)
	}
	good, err := g.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	bad := *g
	bad.Src = append([]int32(nil), g.Src...)
	bad.Src[0] = int32(g.N) // an end outside the graph
	outside, err := bad.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{
		"empty":     nil,
		"a zip":     []byte("PK\x03\x04"),
		"truncated": good[:len(good)/2],
		"outside":   outside,
	} {
		var h Graph
		if err := h.UnmarshalBinary(b); err == nil {
			t.Errorf("%s: read as a graph of %d nodes", name, h.N)
		}
	}
}

// What a damaged or hostile buffer makes is bounded by its own size:
// lists within lists may not each claim every byte left; sizes whose
// product wraps around are refused; and a note nested deeper than the
// reader reads is refused as it is written, not handed on unreadable.
func TestBinaryBoundsWhatItMakes(t *testing.T) {
	g, err := Synthetic(defaultData())
	if err != nil {
		t.Fatal(err)
	}
	// The graph with its meta replaced by 60 lists, each within the
	// one before, each claiming 2^20 entries.
	plain := *g
	plain.Meta = nil
	head, err := plain.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	head = head[:len(head)-2] // its meta: an object, and none
	bomb := append([]byte(nil), head...)
	for range 60 {
		bomb = binary.AppendUvarint(append(bomb, valList), 1<<20+1)
	}
	bomb = append(bomb, make([]byte, 1<<20)...)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var h Graph
	err = h.UnmarshalBinary(bomb)
	runtime.ReadMemStats(&after)
	if err == nil {
		t.Error("nested lists claiming more than was sent were read")
	}
	if made := after.TotalAlloc - before.TotalAlloc; made > 64*uint64(len(bomb)) {
		t.Errorf("a buffer of %d bytes made %d bytes", len(bomb), made)
	}
	wraps := *g
	wraps.F, wraps.X, wraps.XS = 1<<62, nil, nil
	if err := wraps.checkShape(); err == nil {
		t.Errorf("a graph of %d nodes and %d features, no feature values, fits its sizes", wraps.N, wraps.F)
	}

	deep := phrase.New("%s", "x")
	for range maxDepth + 2 {
		deep = phrase.New("in %s", deep)
	}
	noted := *g
	noted.Notes = []phrase.Text{deep}
	if _, err := noted.MarshalBinary(); err == nil || strings.Contains(err.Error(), "\n") {
		t.Errorf("a note %d deep: %v", maxDepth+2, err)
	}
}
