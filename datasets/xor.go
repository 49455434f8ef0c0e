package datasets

import (
	"math/rand/v2"

	"pdnexplorer/experiment"
)

const streamXOR = 6

// XOR returns the synthetic graph of d with its edge features replaced by
// the two binary layers of the XOR proposition (§4.1.1): an intra-class
// edge lies in exactly one layer, (0,1) or (1,0), an inter-class edge in
// neither or both, (0,0) or (1,1). The right weight of an edge is then the
// XOR of its layers, which no linear function of them separates.
func XOR(d experiment.Data) (*Graph, error) {
	g, err := Synthetic(d)
	if err != nil {
		return nil, err
	}
	rnd := rand.New(stream(d.Seed, streamXOR))
	g.D = 2
	g.EdgeX = make([]float64, 2*g.E())
	for e, k := range g.Kind {
		a := float64(rnd.IntN(2))
		b := a // inter: (0,0) or (1,1)
		if k == KindIntra {
			b = 1 - a // intra: (0,1) or (1,0)
		}
		g.EdgeX[2*e], g.EdgeX[2*e+1] = a, b
	}
	g.Meta["name"] = "xor"
	g.Meta["edge_features"] = "two binary layers: intra-class edges in exactly one"
	return g, g.Check()
}
