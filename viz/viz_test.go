package viz

import (
	"encoding/xml"
	"html"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"pdnexplorer/edgekind"
)

// elements parses an SVG string and returns its elements' attributes by tag.
func elements(t *testing.T, s string) map[string][]map[string]string {
	t.Helper()
	if !strings.HasPrefix(s, "<svg") {
		t.Fatalf("figure does not start with <svg: %.40q", s)
	}
	out := map[string][]map[string]string{}
	d := xml.NewDecoder(strings.NewReader(s))
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			attrs := map[string]string{}
			for _, a := range se.Attr {
				attrs[a.Name.Local] = a.Value
			}
			out[se.Name.Local] = append(out[se.Name.Local], attrs)
		}
	}
}

func atof(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return v
}

func triangleGraph() *Graph {
	pos := []float32{0, 0, 1, 0, 0.5, 1, 2, 2}
	return NewGraph(200, 100, pos, []int{0, 0, 1, 1}, []int32{0, 1, 0, 2}, []int32{1, 2, 2, 3}, []edgekind.Kind{edgekind.Intra, edgekind.Inter, edgekind.Inter, edgekind.Intra}, []bool{false, true, false, false})
}

func TestGraphSVG(t *testing.T) {
	g := triangleGraph()
	for _, tc := range []struct {
		name      string
		weights   []float32
		threshold float64
		edges     int
	}{
		{"all", []float32{0.9, 0.05, 0.1, 0.5}, 0, 4},
		{"threshold", []float32{0.9, 0.05, 0.1, 0.5}, 0.2, 2},
		{"no graph", nil, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			el := elements(t, g.SVG(tc.weights, tc.threshold, "test"))
			nodes, count := 0, 0
			for _, p := range el["path"] {
				if p["class"] == "node" {
					nodes += int(atof(t, p["data-count"]))
					continue
				}
				count += int(atof(t, p["data-count"]))
				if strings.Contains(p["class"], "inter") != (p["stroke"] == InterColor) {
					t.Errorf("inter-class edges not in their colour: %v", p)
				}
			}
			if count != tc.edges || nodes != 4 {
				t.Errorf("%d edges and %d nodes drawn, want %d and 4", count, nodes, tc.edges)
			}
		})
	}
	// The test node is hollow, drawn last; the others are filled with
	// their class colour.
	type layer struct {
		class int
		test  bool
		count int
		fill  string
	}
	var got []layer
	for _, l := range g.NodeLayers() {
		got = append(got, layer{l.Class, l.Test, l.Count, l.Fill})
	}
	want := []layer{{0, false, 1, ClassColor(0)}, {1, false, 2, ClassColor(1)}, {0, true, 1, "#ffffff"}}
	if !slices.Equal(got, want) {
		t.Errorf("node layers %v, want %v", got, want)
	}
	for i := range 4 {
		if x, y := g.NodeAt(i); x < 0 || x > 200 || y < 0 || y > 100 {
			t.Errorf("node %d at (%v, %v) is off the 200×100 canvas", i, x, y)
		}
	}
}

func TestLevelStyleFades(t *testing.T) {
	prevOp, prevW := -1.0, -1.0
	for l := 0; l < WeightBins; l++ {
		op, w := LevelStyle(l)
		if op <= prevOp || w <= prevW || op > 1 || op <= 0 {
			t.Errorf("level %d: opacity %v, width %v do not grow within (0, 1]", l, op, w)
		}
		prevOp, prevW = op, w
	}
	for _, tc := range []struct {
		w    float64
		want int
	}{{0, 0}, {0.04, 0}, {0.05, 1}, {0.99, 19}, {1, 19}, {-1, 0}, {7, 19}} {
		if got := Level(tc.w); got != tc.want {
			t.Errorf("Level(%v) = %d, want %d", tc.w, got, tc.want)
		}
	}
}

func TestLineChart(t *testing.T) {
	x := []float64{1, 2, 3, 4}
	s := LineChart(400, 200, Axes{Title: "Loss", XLabel: "epoch"},
		Series{Name: "loss", Color: "#000", X: x, Y: []float64{1.1, math.NaN(), 0.5, 0.4}},
		Series{Name: "acc", Color: "#f00", Dash: true, X: x, Y: []float64{0.3, 0.5, 0.7, 0.9}})
	el := elements(t, s)
	if len(el["path"]) != 2 {
		t.Fatalf("%d series drawn, want 2", len(el["path"]))
	}
	if d := el["path"][0]["d"]; strings.Count(d, "M") != 2 {
		t.Errorf("a NaN should break the line in two: d=%q", d)
	}
	if !strings.Contains(s, ">Loss<") || !strings.Contains(s, ">epoch<") {
		t.Error("title or axis label missing")
	}
	// No data at all still draws a frame.
	elements(t, LineChart(400, 200, Axes{Title: "empty"}, Series{Name: "none", Color: "#000"}))
}

func TestHistogramShares(t *testing.T) {
	s := Histogram(400, 200, "weights", "w", 10,
		Group{Name: "intra", Color: "#000", Values: []float64{0.9, 0.95, 0.5, 0.55}},
		Group{Name: "inter", Color: "#f00", Values: []float64{0.01, 0.02, 0.03, 1}})
	el := elements(t, s)
	heights := map[string]float64{}
	for _, r := range el["rect"] {
		if r["class"] == "bar" {
			heights[r["data-group"]] += atof(t, r["height"])
		}
	}
	// Each group's bars add up to 100% of the group: equal total heights.
	if math.Abs(heights["intra"]-heights["inter"]) > 0.5 || heights["intra"] == 0 {
		t.Errorf("bar heights %v: each group should sum to the same total", heights)
	}
}

func TestFileHasProlog(t *testing.T) {
	f := string(File(LineChart(100, 100, Axes{})))
	if !strings.HasPrefix(f, "<?xml") || !strings.Contains(f, "<svg") {
		t.Errorf("file starts %.60q", f)
	}
}

func TestSweep(t *testing.T) {
	xs := []float64{0.25, 0.5, 1}
	s := Sweep(600, 300, "Scenario 4", "Q", "paper (Fig. 3)", xs, true,
		SweepSeries{Name: "pdn", Color: "#D55E00", Mean: []float64{0.9, 0.8, math.NaN()}, SD: []float64{0.01, 0.02, 0}, Reference: []float64{0.95, math.NaN(), 0.7}},
		SweepSeries{Name: "gcn", Color: "#0072B2", Mean: []float64{0.5, 0.4, 0.3}})
	el := elements(t, s)
	ours, paper := 0, 0
	for _, c := range el["circle"] {
		switch c["class"] {
		case "ours":
			ours++
		case "paper":
			paper++
		}
	}
	if ours != 5 || paper != 2 {
		t.Errorf("%d of our points and %d of the paper's, want 5 and 2", ours, paper)
	}
	if !strings.Contains(s, ">2⁻²<") || !strings.Contains(s, "paper (Fig. 3)") {
		t.Error("log₂ ticks or the paper's legend missing")
	}
}

func TestBars(t *testing.T) {
	el := elements(t, Bars(400, 200, "Hop weights", "hop", []string{"1", "2"}, []float64{0.7, 0.3}, "#000"))
	var bars []map[string]string
	for _, r := range el["rect"] {
		if r["class"] == "bar" {
			bars = append(bars, r)
		}
	}
	if len(bars) != 2 || atof(t, bars[0]["height"]) <= atof(t, bars[1]["height"]) {
		t.Errorf("bars %v", bars)
	}
}

func TestSwatchIsOneSVGWithoutStyle(t *testing.T) {
	s := Swatch(`#0072B2"/><script>`)
	if !strings.HasPrefix(s, "<svg") || strings.Count(s, "<svg") != 1 || strings.Contains(s, "style=") || strings.Contains(s, "<script>") {
		t.Errorf("swatch %s", s)
	}
}

func TestHeatmap(t *testing.T) {
	if HeatColor(0) != "#440154" || HeatColor(1) != "#fde725" || HeatColor(0.5) != "#21918c" || HeatColor(math.NaN()) != "#cccccc" {
		t.Errorf("scale: %s %s %s %s", HeatColor(0), HeatColor(1), HeatColor(0.5), HeatColor(math.NaN()))
	}
	vals := []float64{0, 1, 1, 0}
	s := Heatmap(300, 240, "α(a, b)", "a", "b", 2, vals, []Mark{{0, 1, `(0,1) <25%>`}})
	if strings.Count(s, `fill="#fde725"`) < 2 || strings.Count(s, "<path") != 2 || !strings.Contains(s, "(0,1) &lt;25%&gt;") {
		t.Errorf("heatmap misses its bright cells or its escaped mark:\n%s", s)
	}
	if err := xml.Unmarshal([]byte(s), new(struct{})); err != nil {
		t.Errorf("not XML: %v", err)
	}
}

// A grouped bar chart has a bar per series and group with a mean, the
// values it shows in data-value, and a reference tick per known value.
func TestGroupedBars(t *testing.T) {
	s := GroupedBars(func(s string) string { return s }, 600, 300, "Table 4", "test accuracy", 0.5, []string{"cora", "citeseer"},
		BarSeries{Name: "pdn", Color: "#D55E00", Mean: []float64{0.84, 0.71}, SD: []float64{0.01, 0.02}, Reference: []float64{0.868, 0.764}},
		BarSeries{Name: "gcn", Color: "#0072B2", Mean: []float64{0.85, math.NaN()}, Reference: []float64{math.NaN(), 0.767}})
	el := elements(t, s)
	bars := map[string]string{}
	for _, r := range el["rect"] {
		if r["data-series"] != "" {
			bars[r["data-series"]+"/"+r["data-group"]] = r["data-value"]
		}
	}
	want := map[string]string{"pdn/cora": "0.84", "pdn/citeseer": "0.71", "gcn/cora": "0.85"}
	if len(bars) != len(want) {
		t.Errorf("bars %v, want %v", bars, want)
	}
	for k, v := range want {
		if bars[k] != v {
			t.Errorf("bar %s = %q, want %s", k, bars[k], v)
		}
	}
	ticks := 0
	for _, l := range el["line"] {
		if l["stroke-dasharray"] == "2,1" {
			ticks++
		}
	}
	if ticks != 2 { // the paper's values where our bar stands: pdn twice
		t.Errorf("%d reference ticks, want 2", ticks)
	}
}

// The note under grouped bars tells what is drawn, in the page's words:
// whiskers only where some bar has a spread, dashes only where some has
// the paper's value.
func TestGroupedBarsNoteTellsWhatIsDrawn(t *testing.T) {
	upper := strings.ToUpper
	for _, tc := range []struct {
		name       string
		sd, ref    float64
		want, lack []string
	}{
		{"both", 0.01, 0.8, []string{"DASHES: THE PAPER'S VALUE", "WHISKERS: ±1 SD"}, nil},
		{"no spread", 0, 0.8, []string{"DASHES"}, []string{"WHISKERS", "whiskers"}},
		{"no reference", 0.01, math.NaN(), []string{"WHISKERS"}, []string{"DASHES", "dashes"}},
		{"neither", 0, math.NaN(), nil, []string{"WHISKERS", "DASHES", "whiskers", "dashes"}},
	} {
		s := GroupedBars(upper, 600, 300, "T", "acc", 0, []string{"a"}, BarSeries{Name: "pdn", Color: "#000", Mean: []float64{0.7}, SD: []float64{tc.sd}, Reference: []float64{tc.ref}})
		for _, w := range tc.want {
			if !strings.Contains(s, html.EscapeString(w)) {
				t.Errorf("%s: the note lacks %q", tc.name, w)
			}
		}
		for _, l := range tc.lack {
			if strings.Contains(s, l) {
				t.Errorf("%s: the note says %q", tc.name, l)
			}
		}
	}
}

// NodeDots paints each node's square in its class's colour, the last
// class on top where squares overlap, and nothing elsewhere.
func TestNodeDots(t *testing.T) {
	labels := []int{2, 0, 2, 1, 1}
	// Nodes at three corners and the middle of a 100×100 view; the last
	// two share a place.
	pos := []float32{0, 0, 100, 0, 0, 100, 50, 50, 50, 50}
	g := NewGraph(100, 100, pos, labels, nil, nil, nil, nil)
	const px = 200
	img := g.NodeDots(px, px)
	if len(img) != 4*px*px {
		t.Fatalf("%d bytes, want %d", len(img), 4*px*px)
	}
	at := func(x, y float64) [4]byte {
		p := 4 * (int(math.Round(y))*px + int(math.Round(x)))
		return [4]byte{img[p], img[p+1], img[p+2], img[p+3]}
	}
	for i, c := range labels {
		x, y := g.x[i]*px/100, g.y[i]*px/100
		rgb := hexRGB(ClassColor(c))
		if got, want := at(x, y), [4]byte{rgb[0], rgb[1], rgb[2], 255}; got != want {
			t.Errorf("node %d (class %d) at (%.0f, %.0f): %v, want %v", i, c, x, y, got, want)
		}
	}
	if got := at(px/4, px*3/4); got[3] != 0 {
		t.Errorf("a pixel between the nodes is painted: %v", got)
	}
	// Node 1, a test node, is hollow: its square's middle is left clear.
	hollow := NewGraph(100, 100, pos, labels, nil, nil, nil, []bool{false, true, false, false, false})
	himg := hollow.NodeDots(px, px)
	mid := 4 * (int(math.Round(hollow.y[1]*px/100))*px + int(math.Round(hollow.x[1]*px/100)))
	if himg[mid+3] != 0 || img[mid+3] == 0 {
		t.Errorf("a test node's middle is painted (alpha %d), or a training node's is not (%d)", himg[mid+3], img[mid+3])
	}
	opaque := 0
	for p := 3; p < len(img); p += 4 {
		if img[p] != 0 {
			opaque++
		}
	}
	side := int(math.Round(2 * nodeRadius(len(labels)) * px / 100))
	if opaque > len(labels)*side*side || opaque < 4*side*side {
		t.Errorf("%d pixels painted for 5 nodes (4 places) of side %d", opaque, side)
	}
}

func TestHexRGB(t *testing.T) {
	for _, c := range []struct {
		in   string
		want [3]byte
	}{
		{"#0072b2", [3]byte{0x00, 0x72, 0xb2}},
		{"#FFFFFF", [3]byte{255, 255, 255}},
		{"#12", [3]byte{}},
		{"red", [3]byte{}},
		{"#gg0000", [3]byte{}},
	} {
		if got := hexRGB(c.in); got != c.want {
			t.Errorf("hexRGB(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}

// The deciles' strips carry each group's deciles, draw the median of each
// at its place on the axis, and draw a group without 11 deciles by its
// name alone.
func TestDecileStrips(t *testing.T) {
	q := []float64{0, 0.1, 0.2, 0.3, 0.4, 0.25, 0.6, 0.7, 0.8, 0.9, 1}
	svg := DecileStrips(520, "Deciles", "weight", DecileGroup{Name: "intra", Color: "#111111", Deciles: q}, DecileGroup{Name: "none", Color: "#222222", Deciles: q[:3]})
	if !strings.Contains(svg, `data-group="intra" data-deciles="0.000 0.100 0.200 0.300 0.400 0.250 0.600 0.700 0.800 0.900 1.000"`) {
		t.Errorf("the intra group's deciles are not carried:\n%s", svg)
	}
	if strings.Contains(svg, `data-group="none"`) || !strings.Contains(svg, ">none<") {
		t.Errorf("a group without 11 deciles is drawn:\n%s", svg)
	}
	// The median bar at 0.25 of the axis from 14 to 506.
	if want := `x1="` + f1(44+0.25*466) + `"`; !strings.Contains(svg, want+` y1=`) || !strings.Contains(svg, `stroke="#000000" stroke-width="3"`) {
		t.Errorf("no median bar at %s:\n%s", want, svg)
	}
}
