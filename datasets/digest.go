package datasets

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"math"
)

// Digest names g by its contents: its size, classes, node features,
// edges and edge features, and not its split (which a seed draws) or its
// name. Two graphs with one digest train alike from the same seeds, so a
// shard of a job names its graphs by digest, and pdn merge can refuse
// shards of two graphs that share a folder's name.
func (g *Graph) Digest() string {
	h := sha256.New()
	hashInts(h, g.N, g.F, g.C, g.D, len(g.Src))
	for _, l := range g.Labels {
		hashInts(h, l)
	}
	if g.XS != nil {
		hashInts(h, g.XS.Ptr...)
		for _, c := range g.XS.Col {
			hashInts(h, int(c))
		}
	}
	hashFloats(h, g.FeatureValues())
	for e := range g.Src {
		hashInts(h, int(g.Src[e]), int(g.Dst[e]))
	}
	hashFloats(h, g.EdgeX)
	hashFloats(h, g.Weight)
	return hex.EncodeToString(h.Sum(nil))
}

func hashInts(h hash.Hash, vs ...int) {
	var b [8]byte
	for _, v := range vs {
		binary.LittleEndian.PutUint64(b[:], uint64(v))
		h.Write(b[:])
	}
}

func hashFloats(h hash.Hash, vs []float64) {
	var b [8]byte
	for _, v := range vs {
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
		h.Write(b[:])
	}
}
