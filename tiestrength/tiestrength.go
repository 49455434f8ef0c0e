// Package tiestrength names the 11 tie-strength scores of the paper's
// Appendix F (Table 5), which datasets.TieStrength computes as edge
// features for graphs that come without any. It holds only their names, so
// that the page can label them without linking the data it would bring.
package tiestrength

// Names are the scores, in the order datasets.TieStrength writes them.
var Names = []string{
	"adamic-adar", "association-strength", "common-neighbours", "cosine", "degree-product",
	"jaccard", "max-overlap", "min-overlap", "n-measure", "pearson", "resource-allocation",
}

// short are names short enough to sit under a bar, where they differ.
var short = map[string]string{
	"association-strength": "assoc.", "common-neighbours": "common", "degree-product": "deg. prod.",
	"resource-allocation": "res. alloc.", "max-overlap": "max ovl.", "min-overlap": "min ovl.", "n-measure": "n-meas.",
}

// Short returns each name as a figure's axis writes it.
func Short(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n
		if s, ok := short[n]; ok {
			out[i] = s
		}
	}
	return out
}
