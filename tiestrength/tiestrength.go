// Package tiestrength names the 11 tie-strength scores of the paper's
// Appendix F (Table 5), which datasets.TieStrength computes as edge
// features for graphs that come without any. It holds only their names, so
// that the page can label them without linking the data it would bring.
package tiestrength

import "slices"

// Names are the scores, in the order datasets.TieStrength writes them.
var Names = []string{
	"adamic-adar", "association-strength", "common-neighbours", "cosine", "degree-product",
	"jaccard", "max-overlap", "min-overlap", "n-measure", "pearson", "resource-allocation",
}

// labels are each score's name in words, and the shorter one a figure's
// axis writes under a bar: the page shows them in its language (they are
// catalogue keys), the command line in English.
var labels = map[string][2]string{
	"adamic-adar":          {"Adamic–Adar", "Adamic–Adar"},
	"association-strength": {"association strength", "assoc."},
	"common-neighbours":    {"common neighbours", "common"},
	"cosine":               {"cosine", "cosine"},
	"degree-product":       {"degree product", "deg. prod."},
	"jaccard":              {"Jaccard", "Jaccard"},
	"max-overlap":          {"max overlap", "max ovl."},
	"min-overlap":          {"min overlap", "min ovl."},
	"n-measure":            {"n-measure", "n-meas."},
	"pearson":              {"Pearson", "Pearson"},
	"resource-allocation":  {"resource allocation", "res. alloc."},
}

// Label is the score called name in words; a name that is no score is
// itself.
func Label(name string) string {
	if l, ok := labels[name]; ok {
		return l[0]
	}
	return name
}

// ShortLabel is the score called name as a figure's axis writes it.
func ShortLabel(name string) string {
	if l, ok := labels[name]; ok {
		return l[1]
	}
	return name
}

// Short returns each name as a figure's axis writes it (ShortLabel).
func Short(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = ShortLabel(n)
	}
	return out
}

// Figure 8's statement (§6.2, after the figure): "unnormalized edge
// similarity scores such as the degree product and common neighbours tend
// to receive low attention […]. On most datasets similarity metrics which
// are normalized and do not consider the degree of shared neighbors (e.g.
// association strength and minimal overlap) receive relatively high
// attention." PaperLow and PaperHigh are the scores it names, in its order.
var (
	PaperLow  = []string{"degree-product", "common-neighbours"}
	PaperHigh = []string{"association-strength", "min-overlap"}
)

// PaperSays is what Figure 8's text says of the score called name: "low",
// "high", or "" for a score it does not name.
func PaperSays(name string) string {
	switch {
	case slices.Contains(PaperLow, name):
		return "low"
	case slices.Contains(PaperHigh, name):
		return "high"
	}
	return ""
}
