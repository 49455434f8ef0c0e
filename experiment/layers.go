package experiment

import (
	"math"
	"strconv"
	"strings"

	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/numtext"
)

// LayersForm is the layers row's Form.
const LayersForm = "2 to 6 whole percentages from 0 to 100 separated by commas, one a layer: the share of its edges that join two nodes of one class"

// MaxLayers is the most layers a multiplex graph is drawn with.
const MaxLayers = 6

// LayerShares reads d.Layers: each layer's share of edges within classes,
// in [0, 1].
func (d Data) LayerShares() ([]float64, error) {
	shares, err := parseLayers(d.Layers)
	if err != nil {
		return nil, phrase.Errorf("layers: %w", err)
	}
	return shares, nil
}

func parseLayers(s string) ([]float64, error) {
	if strings.TrimSpace(s) == "" {
		return nil, phrase.Errorf("no layers")
	}
	parts := strings.Split(s, ",")
	if len(parts) < 2 || len(parts) > MaxLayers {
		if len(parts) == 1 {
			return nil, phrase.Errorf("one layer")
		}
		return nil, phrase.Errorf("%d layers", len(parts))
	}
	out := make([]float64, len(parts))
	for i, p := range parts {
		v, err := numtext.ParseInt(strings.TrimSpace(p))
		if err != nil || v < 0 || v > 100 {
			return nil, phrase.Errorf("layer %d's share is %s", i+1, Quote(strings.TrimSpace(p)))
		}
		out[i] = float64(v) / 100
	}
	return out, nil
}

// formatLayers writes shares as the layers row keeps them: "90,60,33".
func formatLayers(s string) string {
	shares, _ := parseLayers(s)
	parts := make([]string, len(shares))
	for i, h := range shares {
		parts[i] = strconv.Itoa(int(h*100 + 0.5))
	}
	return strings.Join(parts, ",")
}

// LayerForm is the layer row's Form.
const LayerForm = "the name of one of the graph's layers (A, B, … for a generated multiplex graph; a file's edge columns' names), at most 100 characters, or nothing for all of them"

// validLayer accepts a layer's name: short, printable text, or none.
func validLayer(s string) error {
	if s == "" {
		return nil
	}
	return validColumn(s)
}

// LayerNames are the names of a generated multiplex graph's n layers: A,
// B, C, …, as the paper's figure names its layers by letter.
func LayerNames(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = string(rune('A' + i))
	}
	return out
}

// carries is the share of a layer's edges within classes at or above
// which it carries the classes (most of its edges join one class), and
// noise the share at or below which it joins nodes at random or across
// classes (a random layer's is 1/C: 0.33 at the default 3 classes).
const carries, noise = 0.5, 0.4

// layersRanked reports whether every layer that carries the classes
// (within ≥ carries) weighs more than every noisy one (within ≤ noise),
// with at least one of each.
func layersRanked(within, weights []float64) bool {
	if len(within) == 0 || len(within) != len(weights) {
		return false
	}
	lowest, highest := math.Inf(1), math.Inf(-1)
	for l, h := range within {
		switch {
		case h >= carries:
			lowest = min(lowest, weights[l])
		case h <= noise:
			highest = max(highest, weights[l])
		}
	}
	return !math.IsInf(lowest, 1) && !math.IsInf(highest, -1) && lowest > highest
}

// layerList says each layer's weight and share within classes, for a
// claim's numbers: "A 0.610 (90%), C 0.020 (33%)".
func layerList(names []string, within, weights []float64) string {
	parts := make([]string, len(weights))
	for l, w := range weights {
		name, h := strconv.Itoa(l), math.NaN()
		if l < len(names) {
			name = names[l]
		}
		if l < len(within) {
			h = within[l]
		}
		parts[l] = name + " " + strconv.FormatFloat(w, 'f', 3, 64) + " (" + strconv.FormatFloat(100*h, 'f', 0, 64) + "%)"
	}
	return strings.Join(parts, ", ")
}
