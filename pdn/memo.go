package pdn

import (
	"hash/maphash"
	"slices"
	"sync"
	"unsafe"

	"pdnexplorer/datasets"
)

// An embedding is a function of its method, the weight seed and the graph
// it reads (the node features, the edges, their features and weights),
// never of the labels, the split or a row of the classifier: a run that
// changes only those (the classifier's rows, the epochs, a reset in the
// page, the restarts, a test's second run) gets the same bits again. The
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

// keyOf hashes what an embedding reads of g. The floats are hashed as
// their bytes in memory: the key lives and dies in one process, so their
// byte order does not matter.
func (m *embeddingMemo) keyOf(kind string, g *datasets.Graph, seed uint64) embeddingKey {
	k := embeddingKey{kind: kind, seed: seed, n: g.N, f: g.F, d: g.D, e: g.E(), x: len(g.X), w: len(g.Weight)}
	if g.XS != nil {
		k.nnz = g.XS.NNZ()
	}
	for i, s := range m.seeds {
		var h maphash.Hash
		h.SetSeed(s)
		h.Write(floatBytes(g.X))
		if g.XS != nil {
			h.Write(intBytes(g.XS.Ptr))
			h.Write(int32Bytes(g.XS.Col))
			h.Write(floatBytes(g.XS.Val))
		}
		h.Write(int32Bytes(g.Src))
		h.Write(int32Bytes(g.Dst))
		h.Write(floatBytes(g.EdgeX))
		h.Write(floatBytes(g.Weight))
		k.sums[i] = h.Sum64()
	}
	return k
}

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

func floatBytes(v []float64) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), 8*len(v))
}

func intBytes(v []int) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), int(unsafe.Sizeof(0))*len(v))
}

func int32Bytes(v []int32) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), 4*len(v))
}
