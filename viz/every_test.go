package viz

import (
	"go/ast"
	"go/parser"
	"go/token"
	"html"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"pdnexplorer/experiment"
	"pdnexplorer/i18n"
	"pdnexplorer/tiestrength"
)

// figureCase draws one figure of the package, its words in the language
// tr gives, as the page and the command line draw it; or, where the
// function draws no figure with text, says why (notText).
type figureCase struct {
	draw    func(tr func(string) string) string
	notText string
	// also are the legibilities it is drawn at beside legibilities: the
	// page shows it in narrower columns (the XOR lab's surfaces, a node's
	// neighbourhood).
	also []Legibility
}

// everyFigure is every exported function (or method) of the package that
// returns a string: TestEveryFigureIsTried fails on one missing here, so a
// new figure cannot go around the legibility rule unseen.
var everyFigure = map[string]figureCase{
	"LineChart": {draw: func(tr func(string) string) string {
		return LineChart(520, 240, Axes{Title: tr("Weight of each power of Â over the epochs (Figure 7)"), XLabel: tr("epoch"), YMin: 0, YMax: 1, XMax: 200},
			Series{Name: "P1 (Â^1)", Color: "#000", X: []float64{0, 100, 200}, Y: []float64{0.2, 0.5, 0.9}},
			Series{Name: "P2 (Â^2)", Color: "#111", X: []float64{0, 100, 200}, Y: []float64{0.3, 0.4, 0.1}},
			Series{Name: tr("input graph"), Color: "#555", Dash: true, X: []float64{0, 200}, Y: []float64{0.5, 0.5}})
	}},
	"EdgeEmbeddings": {draw: func(tr func(string) string) string {
		xy := []float64{0, 0, 1, 1, 5, 5, 6, 4, -3, 2}
		return EdgeEmbeddings(tr, 760, 400,
			EmbeddingPanel{Name: "PDN", XY: xy, Inter: []bool{false, false, true, true, false}, K: 10, Agreement: 0.76},
			EmbeddingPanel{Name: "GAT", XY: xy, Inter: []bool{true, false, true, false, false}, K: 10, Agreement: 0.54})
	}},
	"Histogram": {draw: func(tr func(string) string) string {
		return Histogram(520, 240, tr("Learned edge weights"), tr("weight"), 20,
			Group{Name: tr("intra-class"), Color: IntraColor, Values: []float64{0.1, 0.5, 0.9, 0.95}},
			Group{Name: tr("inter-class"), Color: InterColor, Values: []float64{0.05, 0.1, 0.2}})
	}},
	"Bars": {draw: func(tr func(string) string) string {
		labels := make([]string, len(tiestrength.Names))
		values := make([]float64, len(labels))
		for i, n := range tiestrength.Names {
			labels[i], values[i] = tr(tiestrength.ShortLabel(n)), float64(i+1)/100
		}
		return Bars(720, 240, tr("Attention over the edge features, softmax(β)"), tr("tie-strength score"), labels, values, "#000")
	}},
	"GroupedBars": {draw: func(tr func(string) string) string {
		return GroupedBars(tr, 760, 380, "Table 4: test accuracy, mean ± SD over 10 seeds", "test accuracy", 0.4, []string{"cora", "citeseer", "facebook"},
			BarSeries{Name: "PDN", Color: "#000", Mean: []float64{0.8, 0.7, 0.9}, SD: []float64{0.01, 0.02, 0.01}, Reference: []float64{0.82, 0.71, math.NaN()}},
			BarSeries{Name: "GCN", Color: "#111", Mean: []float64{0.81, 0.7, 0.88}, SD: []float64{0.01, 0.02, 0.01}, Reference: []float64{0.81, 0.7, 0.87}},
			BarSeries{Name: "GAT", Color: "#222", Mean: []float64{0.82, 0.72, 0.89}})
	}},
	"TransferBars": {draw: func(tr func(string) string) string {
		runs := experiment.TransferRuns(experiment.ForLab("structure"))
		res := make([]experiment.Result, len(runs))
		for i := range res {
			res[i] = experiment.Result{Acc: 0.6 + float64(i)/50, Done: true}
		}
		return TransferBars(tr, 520, 240, runs, res)
	}},
	"InductionBars": {draw: func(tr func(string) string) string {
		runs := experiment.InductionRuns(experiment.ForLab("structure"))
		res := make([]experiment.Result, len(runs))
		for i := range res {
			res[i] = experiment.Result{Acc: 0.6 + float64(i)/50, Done: i != 4}
		}
		return InductionBars(tr, 520, 240, runs, res)
	}},
	"RobustnessChart": {draw: func(tr func(string) string) string {
		e := experiment.ForLab("structure")
		runs := experiment.RobustnessRuns(e)
		res := make([]experiment.Result, len(runs))
		for i := range res {
			res[i] = experiment.Result{Acc: 0.9 - float64(i%7)/20, Done: true}
		}
		return RobustnessChart(tr, 520, 240, experiment.Perturbations[0], e.View.Models, runs, res)
	}},
	"HomophilyChart": {draw: func(tr func(string) string) string {
		return HomophilyChart(tr, 520, 240, 200, 0.6,
			HomophilyLine{Name: "PDN", Color: "#000", Epoch: []float64{0, 100, 200}, Learned: []float64{0.6, 0.8, 0.9}},
			HomophilyLine{Name: "GAT", Color: "#111", Epoch: []float64{0, 100, 200}, Learned: []float64{0.6, 0.6, 0.65}})
	}},
	"DecileStrips": {draw: func(tr func(string) string) string {
		q := []float64{0, .1, .2, .3, .4, .5, .6, .7, .8, .9, 1}
		return DecileStrips(520, tr("Learned weights by edge kind, deciles"), tr("weight"),
			DecileGroup{Name: tr("intra-class"), Color: IntraColor, Deciles: q}, DecileGroup{Name: tr("inter-class"), Color: InterColor, Deciles: q})
	}},
	"Heatmap": {draw: func(tr func(string) string) string {
		vals := make([]float64, 24*24)
		for k := range vals {
			vals[k] = float64(k%24) / 23
		}
		var marks []Mark
		for _, z := range [][2]float64{{0, 0}, {0, 1}, {1, 0}, {1, 1}} {
			marks = append(marks, Mark{X: z[0], Y: z[1], Label: "(" + tickLabel(z[0]) + ", " + tickLabel(z[1]) + ")\nα 0.53 · 50%"})
		}
		return Heatmap(340, 300, "α(a, b): "+tr("PDN, 16 neurons"), tr("a: in layer A′"), "b", 24, vals, marks)
	}, also: []Legibility{{MinPx: 11, ShownPx: 240}, {MinPx: 16, ShownPx: 400, MaxShownH: 390}}},
	"AdjacencyMatrix": {draw: func(tr func(string) string) string {
		return AdjacencyMatrix(520, 390, strings.ReplaceAll(tr("The graph %s propagates over, nodes ordered by class"), "%s", "PDN"), 4, 2,
			[]int32{0, 1, 2}, []int32{1, 2, 3}, []int{0, 0, 1, 1}, []float32{0.9, 0.1, 0.8})
	}},
	"Sweep": {draw: func(tr func(string) string) string {
		return Sweep(760, 380, tr("Test accuracy"), "q", tr("paper (Fig. 3)"), []float64{0.25, 0.5, 1}, false,
			SweepSeries{Name: "pdn", Color: "#000", Mean: []float64{0.9, 0.8, 0.7}, SD: []float64{0.05, 0.05, 0.05}, Reference: []float64{0.91, 0.81, 0.71}})
	}},
	"SweepFigure": {draw: func(tr func(string) string) string {
		sw, err := experiment.SweepOf(experiment.ForLab("sweep"))
		if err != nil {
			panic(err)
		}
		res := make([]experiment.Result, sw.Size())
		for i := range res {
			res[i] = experiment.Result{Acc: 0.5 + float64(i%10)/25, Done: i%3 != 0}
		}
		return SweepFigure(tr, 760, 620, sw, res)
	}},
	"Neighbourhood": {draw: func(tr func(string) string) string {
		var ns []Neighbour
		for k := range 8 {
			ns = append(ns, Neighbour{Name: strconv.Itoa(1200 + k), Class: k % 3, Weight: float64(k+1) / 8})
		}
		return Neighbourhood(220, strings.ReplaceAll(tr("Node %d and its heaviest neighbours"), "%d", "1187"), "1187", 0, ns)
	}, also: []Legibility{{MinPx: 11, ShownPx: 240}, {MinPx: 12, ShownPx: 240}, {MinPx: 16, ShownPx: 240}}},
	"Strip":           {notText: "a row of bars beside its label, which the page writes as text"},
	"Grid":            {notText: "lays out figures already drawn, each by its own typeset (the command line's files)"},
	"Swatch":          {notText: "a 12 px disc of a legend's colour"},
	"Graph.SVG":       {notText: "the learned graph's nodes and edges; its words are the page's legend"},
	"Graph.Highlight": {notText: "rings and edges over the graph view"},
	"QR":              {notText: "a QR code's modules"},
	"ClassColor":      {notText: "a colour"},
	"HeatColor":       {notText: "a colour"},
	"ModelColor":      {notText: "a colour"},
}

// Every function of the package that returns a string is a case of
// everyFigure, and every case is such a function.
func TestEveryFigureIsTried(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || !fn.Name.IsExported() || fn.Type.Results == nil || len(fn.Type.Results.List) == 0 {
				continue
			}
			if id, ok := fn.Type.Results.List[0].Type.(*ast.Ident); !ok || id.Name != "string" {
				continue
			}
			name := fn.Name.Name
			if fn.Recv != nil {
				recv := fn.Recv.List[0].Type
				if star, ok := recv.(*ast.StarExpr); ok {
					recv = star.X
				}
				name = recv.(*ast.Ident).Name + "." + name
			}
			found = append(found, name)
			if _, ok := everyFigure[name]; !ok {
				t.Errorf("%s returns a string and is not a case of everyFigure: draw it there, or say why it has no text", name)
			}
		}
	}
	for name := range everyFigure {
		if !slices.Contains(found, name) {
			t.Errorf("everyFigure has %s, which the package no longer has", name)
		}
	}
}

// The legibilities the page asks for (app.legibilityFor): a desktop's
// narrowest column at 1440 and 1280 px, a phone's card, a projector's
// column held to its screen's height, and the command line's own sizes.
var legibilities = []Legibility{
	{MinPx: 11, ShownPx: 487}, {MinPx: 11, ShownPx: 412}, {MinPx: 12, ShownPx: 328},
	{MinPx: 16, ShownPx: 1210, MaxShownH: 390}, {MinPx: 16, ShownPx: 586, MaxShownH: 390}, {MinPx: 16, ShownPx: 586},
	{},
}

// Under SetLegibility every text of every figure, in English, Chinese and
// Arabic, is at least MinPx as shown at ShownPx wide (and no taller than
// MaxShownH), lies inside its figure and overlaps no other text: text and
// the margins that hold it are scaled together (typeset), and titles wrap.
func TestEveryFigureMeetsTheLegibilityAsked(t *testing.T) {
	defer SetLegibility(Legibility{})
	for name, fc := range everyFigure {
		if fc.draw == nil {
			continue
		}
		for _, lang := range []string{"en", "zh", "ar"} {
			tr := func(key string) string { return i18n.T(lang, key) }
			for _, l := range append(slices.Clip(legibilities), fc.also...) {
				SetLegibility(l)
				svg := fc.draw(tr)
				for _, fault := range legibilityFaults(svg, l) {
					t.Errorf("%s in %s at %+v: %s", name, lang, l, fault)
				}
			}
		}
	}
}

var (
	viewBoxRE = regexp.MustCompile(`viewBox="0 0 ([0-9.]+) ([0-9.]+)"`)
	textRE    = regexp.MustCompile(`<text ([^>]*)>([^<]*)</text>`)
	attrRE    = regexp.MustCompile(`([a-z-]+)="([^"]*)"`)
)

// textBox is where a text is drawn, as estimated from its attributes: a
// box about its anchor (x0…x1, y0…y1) turned by angle degrees about
// (px, py), as its transform="rotate(…)" turns it.
type textBox struct {
	what                  string
	x0, x1, y0, y1, angle float64
	px, py                float64
}

// corners are the box's corners as drawn.
func (b textBox) corners() [4][2]float64 {
	var out [4][2]float64
	for i, c := range [4][2]float64{{b.x0, b.y0}, {b.x1, b.y0}, {b.x0, b.y1}, {b.x1, b.y1}} {
		out[i] = turn(c[0], c[1], b.angle, b.px, b.py)
	}
	return out
}

// bounds is the upright box around the box as drawn.
func (b textBox) bounds() (x0, x1, y0, y1 float64) {
	x0, y0, x1, y1 = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, c := range b.corners() {
		x0, x1, y0, y1 = math.Min(x0, c[0]), math.Max(x1, c[0]), math.Min(y0, c[1]), math.Max(y1, c[1])
	}
	return
}

// over reports whether two texts overlap by more than a unit: their
// boxes as drawn, turned or not, have no line between them (the
// separating axis test of two rectangles).
func (b textBox) over(o textBox) bool {
	bc, oc := b.corners(), o.corners()
	for _, corners := range [][4][2]float64{bc, oc} {
		// Corners 0→1 run along the text, 0→2 across it.
		for _, edge := range [][2]int{{0, 1}, {0, 2}} {
			ax, ay := corners[edge[1]][0]-corners[edge[0]][0], corners[edge[1]][1]-corners[edge[0]][1]
			n := math.Hypot(ax, ay)
			if n == 0 {
				continue
			}
			ax, ay = ax/n, ay/n
			lo1, hi1 := project(bc, ax, ay)
			lo2, hi2 := project(oc, ax, ay)
			if overlap(lo1, hi1, lo2, hi2) <= 1 {
				return false
			}
		}
	}
	return true
}

// project is the span of corners along the unit axis (ax, ay).
func project(corners [4][2]float64, ax, ay float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, c := range corners {
		d := c[0]*ax + c[1]*ay
		lo, hi = math.Min(lo, d), math.Max(hi, d)
	}
	return lo, hi
}

// turn is (x, y) turned by angle degrees about (px, py), as SVG's rotate.
func turn(x, y, angle, px, py float64) [2]float64 {
	s, c := math.Sincos(angle * math.Pi / 180)
	dx, dy := x-px, y-py
	return [2]float64{px + dx*c - dy*s, py + dx*s + dy*c}
}

var rotateRE = regexp.MustCompile(`rotate\(([-0-9.]+) ([-0-9.]+) ([-0-9.]+)\)`)

// legibilityFaults lists what in svg breaks the legibility l: a text
// without its size, smaller than l.MinPx as shown, outside the figure, or
// over another text.
func legibilityFaults(svg string, l Legibility) []string {
	var faults []string
	m := viewBoxRE.FindStringSubmatch(svg)
	if m == nil {
		return []string{"no viewBox"}
	}
	w, _ := strconv.ParseFloat(m[1], 64)
	h, _ := strconv.ParseFloat(m[2], 64)
	shown := l.ShownPx
	if shown <= 0 {
		shown = w
	}
	if l.MaxShownH > 0 {
		shown = math.Min(shown, l.MaxShownH*w/h)
	}
	var boxes []textBox
	for _, t := range textRE.FindAllStringSubmatch(svg, -1) {
		attrs := map[string]string{}
		for _, a := range attrRE.FindAllStringSubmatch(t[1], -1) {
			attrs[a[1]] = a[2]
		}
		body := strings.Trim(html.UnescapeString(t[2]), "\u2067\u2069")
		size, err := strconv.ParseFloat(attrs["font-size"], 64)
		if err != nil {
			faults = append(faults, "a text sized outside its typeset: "+t[0])
			continue
		}
		if px := size * shown / w; l.MinPx > 0 && px < l.MinPx-0.05 {
			faults = append(faults, "text of "+strconv.FormatFloat(px, 'f', 1, 64)+" px: "+body)
		}
		x, _ := strconv.ParseFloat(attrs["x"], 64)
		y, _ := strconv.ParseFloat(attrs["y"], 64)
		b := textBox{what: body, y0: y - 0.75*size, y1: y + 0.2*size, px: x, py: y}
		if r := rotateRE.FindStringSubmatch(attrs["transform"]); r != nil {
			b.angle, _ = strconv.ParseFloat(r[1], 64)
			b.px, _ = strconv.ParseFloat(r[2], 64)
			b.py, _ = strconv.ParseFloat(r[3], 64)
		}
		across := textWidth(body, size)
		switch attrs["text-anchor"] {
		case "middle":
			b.x0, b.x1 = x-across/2, x+across/2
		case "end":
			b.x0, b.x1 = x-across, x
		default:
			b.x0, b.x1 = x, x+across
		}
		if x0, x1, y0, y1 := b.bounds(); x0 < -1 || x1 > w+1 || y0 < -1 || y1 > h+1 {
			faults = append(faults, "text off the figure "+strconv.FormatFloat(w, 'f', 0, 64)+"×"+strconv.FormatFloat(h, 'f', 0, 64)+
				" (x "+f1(x0)+" to "+f1(x1)+", y "+f1(y0)+" to "+f1(y1)+"): "+body)
		}
		for _, o := range boxes {
			if b.over(o) {
				faults = append(faults, "text over text: "+strconv.Quote(body)+" and "+strconv.Quote(o.what))
			}
		}
		boxes = append(boxes, b)
	}
	return faults
}

// overlap is how much [a0, a1] and [b0, b1] overlap, negative for a gap.
func overlap(a0, a1, b0, b1 float64) float64 { return math.Min(a1, b1) - math.Max(a0, b0) }

// A title wraps at its spaces, and between Chinese characters, to the
// width it is given; a closing mark never starts a line.
func TestWrapText(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		across     float64
		most       int
		want       []string
	}{
		{"fits", "Test accuracy", 200, 0, []string{"Test accuracy"}},
		{"at spaces", "Test accuracy over each graph", 100, 0, []string{"Test accuracy", "over each graph"}},
		{"a long word alone", "a pneumonoultramicroscopic word", 60, 0, []string{"a", "pneumonoultramicroscopic", "word"}},
		{"Chinese between characters", "场景 1：测试准确率随 q 的变化（每点 1 个图）", 130, 0, []string{"场景 1：测试准确率随 q 的", "变化（每点 1 个图）"}},
		{"no line starts with a closer", "测试准确率。", 50, 0, []string{"测试准确", "率。"}},
		{"at most two, the rest cut at a space", "one two three four five six", 60, 2, []string{"one two", "three…"}},
		{"at most two, a word cut", "one twothreefourfive six", 40, 2, []string{"one", "twoth…"}},
		{"empty", "", 100, 0, []string{""}},
	} {
		got := wrapText(tc.text, 10, tc.across, tc.most)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q", tc.name, got)
		}
		for _, line := range got {
			if tc.most == 0 && len(strings.Fields(line)) > 1 && textWidth(line, 10) > tc.across {
				t.Errorf("%s: %q is %.0f wide, more than %v", tc.name, line, textWidth(line, 10), tc.across)
			}
		}
	}
}
