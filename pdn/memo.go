package pdn

import (
	"encoding/binary"
	"hash/maphash"
	"math"
	"slices"
	"sync"

	"pdnexplorer/datasets"
)

// An embedding is a function of its method, the weight seed and the graph
// it reads (the node features, the edges, their features and weights),
// never of the labels, the split or a row of the classifier: a run that
// changes only those (the classifier's rows, the epochs, a reset in the
// page, a test's second run) gets the same bits again. The
// memo keeps the last few made, so that such a run classifies at once
// instead of making the embedding again (seconds, for MELL a minute on a
// large graph). It is bounded in bytes, so that it never holds more than
// a fraction of what the page's memory limit allows a run.
const (
	memoEntries = 4
	memoBytes   = 64 << 20
)

// embeddingKey names an embedding by its method, seed and the graph's
// contents, hashed twice with independent seeds (maphash, 2×64 bits).
type embeddingKey struct {
	kind       string
	seed       uint64
	n, f, d, e int
	x, nnz, w  int // the lengths of X, XS's values and Weight
	sums       [2]uint64
}

type memoEntry struct {
	key embeddingKey
	emb []float64
}

// embeddingMemo is the process's memo: the worker's, the CLI's. Several
// runs may train at once (the compare lab, a sweep's workers), so it is
// locked; two runs that miss together both make the embedding, with the
// same bits.
type embeddingMemo struct {
	mu      sync.Mutex
	seeds   [2]maphash.Seed
	entries []memoEntry // the most recently used last
	off     int         // > 0: neither read nor kept (benchmarks timing the set-up)
}

var embeddings = newEmbeddingMemo()

func newEmbeddingMemo() *embeddingMemo {
	return &embeddingMemo{seeds: [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}}
}

// keyOf hashes what an embedding reads of g.
func (m *embeddingMemo) keyOf(kind string, g *datasets.Graph, seed uint64) embeddingKey {
	k := embeddingKey{kind: kind, seed: seed, n: g.N, f: g.F, d: g.D, e: g.E(), x: len(g.X), w: len(g.Weight)}
	if g.XS != nil {
		k.nnz = g.XS.NNZ()
	}
	for i, s := range m.seeds {
		h := memoHash{}
		h.SetSeed(s)
		h.floats(g.X)
		if g.XS != nil {
			h.ints(g.XS.Ptr)
			h.int32s(g.XS.Col)
			h.floats(g.XS.Val)
		}
		h.int32s(g.Src)
		h.int32s(g.Dst)
		h.floats(g.EdgeX)
		h.floats(g.Weight)
		k.sums[i] = h.Sum64()
	}
	return k
}

// memoHash writes values to a maphash 4,096 at a time, as their bits.
type memoHash struct {
	maphash.Hash
	buf [8 << 12]byte
}

func (h *memoHash) words(n int, word func(i int) uint64) {
	for lo := 0; lo < n; lo += 4096 {
		b := h.buf[:0]
		for i := lo; i < min(lo+4096, n); i++ {
			b = binary.LittleEndian.AppendUint64(b, word(i))
		}
		h.Write(b)
	}
}

func (h *memoHash) floats(v []float64) {
	h.words(len(v), func(i int) uint64 { return math.Float64bits(v[i]) })
}
func (h *memoHash) ints(v []int)     { h.words(len(v), func(i int) uint64 { return uint64(v[i]) }) }
func (h *memoHash) int32s(v []int32) { h.words(len(v), func(i int) uint64 { return uint64(v[i]) }) }

// get returns the embedding kept for k, or nil.
func (m *embeddingMemo) get(k embeddingKey) []float64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.off > 0 {
		return nil
	}
	i := slices.IndexFunc(m.entries, func(e memoEntry) bool { return e.key == k })
	if i < 0 {
		return nil
	}
	e := m.entries[i]
	m.entries = append(slices.Delete(m.entries, i, i+1), e)
	return e.emb
}

// put keeps emb for k, forgetting the least recently used entries while
// there are too many or they hold too many bytes; an embedding larger
// than the bound is not kept.
func (m *embeddingMemo) put(k embeddingKey, emb []float64) {
	size := 8 * len(emb)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.off > 0 || size > memoBytes {
		return
	}
	m.entries = slices.DeleteFunc(m.entries, func(e memoEntry) bool { return e.key == k })
	m.entries = append(m.entries, memoEntry{k, emb})
	for len(m.entries) > memoEntries || m.bytes() > memoBytes {
		m.entries = slices.Delete(m.entries, 0, 1)
	}
}

func (m *embeddingMemo) bytes() int {
	n := 0
	for _, e := range m.entries {
		n += 8 * len(e.emb)
	}
	return n
}

// pause turns the memo off until the returned function is called: a
// benchmark that times the set-up must make every embedding it times.
func (m *embeddingMemo) pause() (resume func()) {
	m.mu.Lock()
	m.off++
	m.mu.Unlock()
	return func() {
		m.mu.Lock()
		m.off--
		m.mu.Unlock()
	}
}
