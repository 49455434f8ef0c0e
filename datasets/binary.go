package datasets

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"maps"
	"math"
	"slices"

	"pdnexplorer/edgekind"
	"pdnexplorer/i18n/phrase"
)

// binaryMagic opens every graph MarshalBinary writes, with its version.
const binaryMagic = "pdn-graph/2\n"

// MarshalBinary writes g whole, every number bit for bit, in the form
// UnmarshalBinary reads: the page's engine reads a user's files in one
// worker and hands the others the graph it read in this form, so a file
// is parsed once and every worker trains on the same bits.
//
// The form is the fields in their order, each array as its length and its
// values little-endian, each list and map with a mark for nil. It was
// encoding/gob's: gob took 10.7 s to write an ogbn-arxiv-sized graph's
// 320 MB natively (this form: a copy's time), and its code was a twentieth
// of the engine's program, which every first visit fetches.
func (g *Graph) MarshalBinary() ([]byte, error) { return g.AppendBinary(nil) }

// AppendBinary appends g's binary form (MarshalBinary) to b.
func (g *Graph) AppendBinary(b []byte) ([]byte, error) {
	w := &binWriter{b: slices.Grow(b, len(binaryMagic)+g.binarySize())}
	w.b = append(w.b, binaryMagic...)
	w.ints(g.N, g.F, g.C, g.D)
	w.float64s(g.X)
	w.bool(g.XS != nil)
	if g.XS != nil {
		w.ints(g.XS.Rows, g.XS.Cols)
		w.intSlice(g.XS.Ptr)
		w.int32s(g.XS.Col)
		w.float64s(g.XS.Val)
	}
	w.intSlice(g.Labels)
	int8sOut(w, g.Splits)
	w.int32s(g.Src)
	w.int32s(g.Dst)
	w.float64s(g.EdgeX)
	int8sOut(w, g.Kind)
	w.float64s(g.Weight)
	w.strings(g.ClassNames)
	w.strings(g.EdgeNames)
	w.length(len(g.Notes), g.Notes == nil)
	for _, n := range g.Notes {
		w.text(n, 0)
	}
	w.bool(g.SplitKept)
	w.string(g.Source)
	w.value(g.Meta, 0)
	if w.err != nil {
		return nil, fmt.Errorf("datasets: graph to binary: %w", w.err)
	}
	return w.b, nil
}

// binarySize is about the bytes g's arrays take in the binary form.
func (g *Graph) binarySize() int {
	n := 8*(len(g.X)+len(g.EdgeX)+len(g.Weight)+len(g.Labels)) + 4*(len(g.Src)+len(g.Dst)) + len(g.Splits) + len(g.Kind) + 256
	if g.XS != nil {
		n += 8*(len(g.XS.Ptr)+len(g.XS.Val)) + 4*len(g.XS.Col)
	}
	return n
}

// UnmarshalBinary reads a graph MarshalBinary wrote into g, and checks
// that its arrays fit its sizes, so a damaged buffer is refused, not
// trained on.
func (g *Graph) UnmarshalBinary(data []byte) error {
	rest, ok := bytes.CutPrefix(data, []byte(binaryMagic))
	if !ok {
		return fmt.Errorf("datasets: not a graph in the explorer's binary form (want it to open with %q)", binaryMagic)
	}
	r := &binReader{b: rest, left: len(rest)}
	var in Graph
	in.N, in.F, in.C, in.D = r.int(), r.int(), r.int(), r.int()
	in.X = r.float64s()
	if r.bool() {
		in.XS = &CSR{Rows: r.int(), Cols: r.int()}
		in.XS.Ptr, in.XS.Col, in.XS.Val = r.intSlice(), r.int32s(), r.float64s()
	}
	in.Labels = r.intSlice()
	in.Splits = int8sAs[Split](r)
	in.Src, in.Dst = r.int32s(), r.int32s()
	in.EdgeX = r.float64s()
	in.Kind = int8sAs[edgekind.Kind](r)
	in.Weight = r.float64s()
	in.ClassNames, in.EdgeNames = r.strings(), r.strings()
	if n, ok := r.length(1); ok {
		in.Notes = make([]phrase.Text, n)
		for i := range in.Notes {
			in.Notes[i] = r.text(0)
		}
	}
	in.SplitKept = r.bool()
	in.Source = r.string()
	if m := r.value(0); m != nil {
		meta, ok := m.(map[string]any)
		if !ok {
			r.fail("its meta is a %T, not an object", m)
		}
		in.Meta = meta
	}
	if r.err == nil && len(r.b) > 0 {
		r.fail("%d bytes after its end", len(r.b))
	}
	if r.err != nil {
		return fmt.Errorf("datasets: graph from binary: %w", r.err)
	}
	if err := in.checkShape(); err != nil {
		return fmt.Errorf("datasets: graph from binary: %w", err)
	}
	*g = in
	return nil
}

// maxDepth bounds how deeply meta's lists and objects, and notes' messages
// within messages, nest in the binary form: a damaged buffer may not
// recurse without end.
const maxDepth = 64

// binWriter appends the binary form; err is its first failure.
type binWriter struct {
	b   []byte
	err error
}

func (w *binWriter) uvarint(v uint64) { w.b = binary.AppendUvarint(w.b, v) }

func (w *binWriter) ints(vs ...int) {
	for _, v := range vs {
		w.b = binary.AppendVarint(w.b, int64(v))
	}
}

func (w *binWriter) bool(v bool) {
	if v {
		w.b = append(w.b, 1)
	} else {
		w.b = append(w.b, 0)
	}
}

// length writes a list's length, 0 for nil and n+1 otherwise: an empty
// list and none come back as they went.
func (w *binWriter) length(n int, isNil bool) {
	if isNil {
		w.uvarint(0)
		return
	}
	w.uvarint(uint64(n) + 1)
}

func (w *binWriter) string(s string) {
	w.uvarint(uint64(len(s)))
	w.b = append(w.b, s...)
}

func (w *binWriter) strings(ss []string) {
	w.length(len(ss), ss == nil)
	for _, s := range ss {
		w.string(s)
	}
}

// fixedOut writes a list of values, put appending each.
func fixedOut[T any](w *binWriter, vs []T, put func([]byte, T) []byte) {
	w.length(len(vs), vs == nil)
	for _, v := range vs {
		w.b = put(w.b, v)
	}
}

func (w *binWriter) float64s(vs []float64) {
	fixedOut(w, vs, func(b []byte, v float64) []byte { return binary.LittleEndian.AppendUint64(b, math.Float64bits(v)) })
}

func (w *binWriter) intSlice(vs []int) {
	fixedOut(w, vs, func(b []byte, v int) []byte { return binary.LittleEndian.AppendUint64(b, uint64(v)) })
}

func (w *binWriter) int32s(vs []int32) {
	fixedOut(w, vs, func(b []byte, v int32) []byte { return binary.LittleEndian.AppendUint32(b, uint32(v)) })
}

// int8sOut writes a list of T's as bytes.
func int8sOut[T ~int8](w *binWriter, vs []T) {
	fixedOut(w, vs, func(b []byte, v T) []byte { return append(b, byte(v)) })
}

// text writes a message: its key, whether it is a run, its arguments.
func (w *binWriter) text(t phrase.Text, depth int) {
	if depth > maxDepth {
		if w.err == nil {
			w.err = fmt.Errorf("a note nests deeper than %d", maxDepth)
		}
		return
	}
	w.string(t.Key)
	w.bool(t.Run)
	w.length(len(t.Args), t.Args == nil)
	for _, a := range t.Args {
		w.string(a.S)
		w.bool(a.T != nil)
		if a.T != nil {
			w.text(*a.T, depth+1)
		}
	}
}

// The kinds of value meta holds: what its readers and generators set, and
// what a bundle's meta.json decodes to.
const (
	valNil byte = iota
	valBool
	valString
	valFloat
	valInt
	valUint
	valList
	valObject
	valStrings
)

// value writes one of meta's values, a kind byte first; a value of
// another type is an error, not dropped.
func (w *binWriter) value(v any, depth int) {
	if depth > maxDepth {
		if w.err == nil {
			w.err = fmt.Errorf("meta nests deeper than %d", maxDepth)
		}
		return
	}
	switch v := v.(type) {
	case nil:
		w.b = append(w.b, valNil)
	case bool:
		w.b = append(w.b, valBool)
		w.bool(v)
	case string:
		w.b = append(w.b, valString)
		w.string(v)
	case float64:
		w.b = binary.LittleEndian.AppendUint64(append(w.b, valFloat), math.Float64bits(v))
	case int:
		w.b = binary.AppendVarint(append(w.b, valInt), int64(v))
	case uint64:
		w.b = binary.AppendUvarint(append(w.b, valUint), v)
	case []any:
		w.b = append(w.b, valList)
		w.length(len(v), v == nil)
		for _, x := range v {
			w.value(x, depth+1)
		}
	case map[string]any:
		w.b = append(w.b, valObject)
		w.length(len(v), v == nil)
		for _, k := range slices.Sorted(maps.Keys(v)) {
			w.string(k)
			w.value(v[k], depth+1)
		}
	case []string:
		w.b = append(w.b, valStrings)
		w.strings(v)
	default:
		if w.err == nil {
			w.err = fmt.Errorf("meta holds a %T, which the binary form does not carry", v)
		}
	}
}

// binReader reads the binary form; err is its first failure, after which
// every read gives a zero value. left is how many more elements its lists
// may hold in all: each takes a byte at least, so lists nested in lists
// cannot each claim every byte left and make far more than was sent.
type binReader struct {
	b    []byte
	left int
	err  error
}

func (r *binReader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf(format, args...)
	}
	r.b = nil
}

func (r *binReader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail("it ends, or is damaged, inside a number")
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *binReader) int() int {
	v, n := binary.Varint(r.b)
	if n <= 0 || v != int64(int(v)) {
		r.fail("it ends, or is damaged, inside a number")
		return 0
	}
	r.b = r.b[n:]
	return int(v)
}

func (r *binReader) bool() bool {
	if len(r.b) == 0 {
		r.fail("it ends inside a mark")
		return false
	}
	v := r.b[0]
	r.b = r.b[1:]
	if v > 1 {
		r.fail("a mark of %d, want 0 or 1", v)
	}
	return v == 1
}

// length reads a list's length (binWriter.length); ok is false for nil.
// A list longer than the bytes left, at size bytes an element at least,
// is damage: nothing is made for it.
func (r *binReader) length(size int) (n int, ok bool) {
	v := r.uvarint()
	if v == 0 {
		return 0, false
	}
	if v-1 > uint64(len(r.b)/size) || v-1 > uint64(r.left) {
		r.fail("a list of %d where %d bytes are left", v-1, len(r.b))
		return 0, false
	}
	r.left -= int(v - 1)
	return int(v - 1), true
}

// take returns the next n bytes.
func (r *binReader) take(n int) []byte {
	if n > len(r.b) {
		r.fail("it ends %d bytes early", n-len(r.b))
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *binReader) string() string {
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.fail("a string of %d where %d bytes are left", n, len(r.b))
		return ""
	}
	return string(r.take(int(n)))
}

func (r *binReader) strings() []string {
	n, ok := r.length(1)
	if !ok {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = r.string()
	}
	return out
}

// fixed reads a list of values of size bytes each, at decoding each.
func fixed[T any](r *binReader, size int, at func([]byte) T) []T {
	n, ok := r.length(size)
	if !ok {
		return nil
	}
	b := r.take(size * n)
	out := make([]T, n)
	for i := range out {
		out[i] = at(b[size*i:])
	}
	return out
}

func (r *binReader) float64s() []float64 {
	return fixed(r, 8, func(b []byte) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(b)) })
}

// intSlice reads ints written as 64 bits: what does not fit a smaller int
// comes back cut, and the graph's check then refuses what it breaks.
func (r *binReader) intSlice() []int {
	return fixed(r, 8, func(b []byte) int { return int(int64(binary.LittleEndian.Uint64(b))) })
}

func (r *binReader) int32s() []int32 {
	return fixed(r, 4, func(b []byte) int32 { return int32(binary.LittleEndian.Uint32(b)) })
}

// int8sAs reads a list of bytes as T's.
func int8sAs[T ~int8](r *binReader) []T {
	return fixed(r, 1, func(b []byte) T { return T(int8(b[0])) })
}

func (r *binReader) text(depth int) phrase.Text {
	if depth > maxDepth {
		r.fail("a message nests deeper than %d", maxDepth)
		return phrase.Text{}
	}
	t := phrase.Text{Key: r.string(), Run: r.bool()}
	if n, ok := r.length(2); ok {
		t.Args = make([]phrase.Arg, n)
		for i := range t.Args {
			t.Args[i].S = r.string()
			if r.bool() {
				sub := r.text(depth + 1)
				t.Args[i].T = &sub
			}
		}
	}
	return t
}

// value reads one of meta's values (binWriter.value).
func (r *binReader) value(depth int) any {
	if depth > maxDepth {
		r.fail("meta nests deeper than %d", maxDepth)
		return nil
	}
	kind := r.take(1)
	if kind == nil {
		return nil
	}
	switch kind[0] {
	case valNil:
		return nil
	case valBool:
		return r.bool()
	case valString:
		return r.string()
	case valFloat:
		if b := r.take(8); b != nil {
			return math.Float64frombits(binary.LittleEndian.Uint64(b))
		}
		return nil
	case valInt:
		return r.int()
	case valUint:
		return r.uvarint()
	case valList:
		n, ok := r.length(1)
		if !ok {
			return []any(nil)
		}
		out := make([]any, n)
		for i := range out {
			out[i] = r.value(depth + 1)
		}
		return out
	case valObject:
		n, ok := r.length(2)
		if !ok {
			return map[string]any(nil)
		}
		out := make(map[string]any, n)
		for range n {
			k := r.string()
			out[k] = r.value(depth + 1)
		}
		return out
	case valStrings:
		return r.strings()
	}
	r.fail("a value of kind %d", kind[0])
	return nil
}

// checkShape says whether g's arrays fit its sizes and its indices its
// nodes, features and classes.
func (g *Graph) checkShape() error {
	n, e := g.N, len(g.Src)
	switch {
	case g.N < 0 || g.F < 0 || g.C < 0 || g.D < 0 || g.F > 0 && n > math.MaxInt/g.F || g.D > 0 && e > math.MaxInt/g.D:
		return fmt.Errorf("sizes out of range: N=%d F=%d C=%d D=%d over %d edges", g.N, g.F, g.C, g.D, e)
	case len(g.Labels) != n || len(g.Splits) != n:
		return fmt.Errorf("%d nodes, %d labels and %d splits", n, len(g.Labels), len(g.Splits))
	case len(g.Dst) != e || len(g.EdgeX) != e*g.D || g.Kind != nil && len(g.Kind) != e || g.Weight != nil && len(g.Weight) != e:
		return fmt.Errorf("%d edges, %d ends, %d edge features (want %d×%d) and %d kinds", e, len(g.Dst), len(g.EdgeX), e, g.D, len(g.Kind))
	case g.XS == nil && len(g.X) != n*g.F:
		return fmt.Errorf("%d feature values, want %d×%d", len(g.X), n, g.F)
	}
	if s := g.XS; s != nil {
		if s.Rows != n || s.Cols != g.F || len(s.Ptr) != n+1 || s.Ptr[0] != 0 || s.Ptr[n] != len(s.Col) || len(s.Val) != len(s.Col) {
			return fmt.Errorf("sparse features do not fit %d×%d", n, g.F)
		}
		for i := range n {
			if s.Ptr[i] > s.Ptr[i+1] {
				return fmt.Errorf("sparse features: row %d ends before it starts", i)
			}
		}
		for _, c := range s.Col {
			if c < 0 || int(c) >= g.F {
				return fmt.Errorf("sparse features: column %d outside 0..%d", c, g.F-1)
			}
		}
	}
	for i, l := range g.Labels {
		if (l < 0 || l >= g.C) && l != NoClass || (l == NoClass) != (g.Splits[i] == Unlabelled) {
			return fmt.Errorf("node %d's class %d outside 0..%d (or -1 in the split unlabelled)", i, l, g.C-1)
		}
	}
	for i, sp := range g.Splits {
		if sp < Train || sp > Unlabelled {
			return fmt.Errorf("node %d's split %d is none of train, test, val, unlabelled", i, sp)
		}
	}
	for k := range e {
		if s, d := g.Src[k], g.Dst[k]; s < 0 || d < 0 || int(s) >= n || int(d) >= n {
			return fmt.Errorf("edge %d joins %d and %d, outside 0..%d", k, s, d, n-1)
		}
	}
	return nil
}
