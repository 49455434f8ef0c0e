package viz

import (
	"encoding/xml"
	"io"
	"math"
	"strings"
	"testing"
)

// Grid makes one well-formed SVG of figures whatever their own tags say:
// a figure with width and height of its own (GroupedBars) once gave its
// cell two of each, which no XML reader takes.
func TestGridIsWellFormed(t *testing.T) {
	bars := GroupedBars(func(s string) string { return s }, 480, 420, "t", "y", 0, []string{"a", "b"},
		BarSeries{Name: "s", Color: "#000", Mean: []float64{0.5, 0.7}, SD: []float64{0, 0}, Reference: []float64{math.NaN(), math.NaN()}})
	out := Grid(480, 420, 2, bars, bars)
	d := xml.NewDecoder(strings.NewReader(out))
	for {
		_, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("Grid's SVG is not well-formed XML: %v", err)
		}
	}
	if n := strings.Count(out, `width="480.0"`); n != 2 {
		t.Errorf("%d cells of the grid's width; want 2", n)
	}
}
