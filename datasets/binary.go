package datasets

import (
	"bytes"
	"encoding/gob"
	"fmt"
)

// Meta's values are what a bundle's meta.json decodes to (numbers,
// strings, booleans, lists and objects) or what a reader or the generator
// sets; gob carries an interface value only of a registered type.
func init() {
	gob.Register([]any(nil))
	gob.Register(map[string]any(nil))
}

// graphFields is a Graph without its methods: gob would call
// MarshalBinary on a Graph, and so on forever.
type graphFields Graph

// binaryMagic opens every graph MarshalBinary writes, with its version.
const binaryMagic = "pdn-graph/1\n"

// MarshalBinary writes g whole, every number bit for bit, in the form
// UnmarshalBinary reads: the page's engine reads a user's files in one
// worker and hands the others the graph it read in this form, so a file
// is parsed once and every worker trains on the same bits.
//
// It is encoding/gob's (its floats keep their bits; a hand-written form
// would be one more reader to keep), behind a magic line that names the
// version.
func (g *Graph) MarshalBinary() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(binaryMagic)
	if err := gob.NewEncoder(&b).Encode((*graphFields)(g)); err != nil {
		return nil, fmt.Errorf("datasets: graph to binary: %w", err)
	}
	return b.Bytes(), nil
}

// UnmarshalBinary reads a graph MarshalBinary wrote into g, and checks
// that its arrays fit its sizes, so a damaged buffer is refused, not
// trained on.
func (g *Graph) UnmarshalBinary(data []byte) error {
	rest, ok := bytes.CutPrefix(data, []byte(binaryMagic))
	if !ok {
		return fmt.Errorf("datasets: not a graph in the explorer's binary form (want it to open with %q)", binaryMagic)
	}
	var in Graph
	if err := gob.NewDecoder(bytes.NewReader(rest)).Decode((*graphFields)(&in)); err != nil {
		return fmt.Errorf("datasets: graph from binary: %w", err)
	}
	if err := in.checkShape(); err != nil {
		return fmt.Errorf("datasets: graph from binary: %w", err)
	}
	*g = in
	return nil
}

// checkShape says whether g's arrays fit its sizes and its indices its
// nodes, features and classes.
func (g *Graph) checkShape() error {
	n, e := g.N, len(g.Src)
	switch {
	case g.N < 0 || g.F < 0 || g.C < 0 || g.D < 0:
		return fmt.Errorf("negative size: N=%d F=%d C=%d D=%d", g.N, g.F, g.C, g.D)
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
