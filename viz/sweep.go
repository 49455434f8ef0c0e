package viz

import (
	"html"
	"math"
	"slices"
	"strconv"
	"strings"

	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
)

// SweepSeries is one model's results across a sweep: the mean and standard
// deviation of its test accuracy at each x, and the paper's value there
// (NaN where there is none).
type SweepSeries struct {
	Name      string
	Color     string
	Mean, SD  []float64
	Reference []float64
	// Reps, where given, are each graph's accuracy at each x (NaN for
	// none), drawn as small faint dots under the mean.
	Reps [][]float64
}

// SweepColors are the models' colours in Figure 3's legend order.
var SweepColors = []string{"#D55E00", "#0072B2", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"}

// Sweep draws accuracy (0..1) against a swept parameter: for each model a
// line through its means with ±1 SD bars, and the paper's values as hollow
// marks just beside ours, so the two read side by side. With logX the x
// axis is in powers of two; paperLabel names the hollow marks.
func Sweep(w, h int, title, xlabel, paperLabel string, xs []float64, logX bool, series ...SweepSeries) string {
	t := typeFor(w, h)
	entries := make([]legendEntry, 0, len(series)+1)
	for _, s := range series {
		entries = append(entries, legendEntry{s.Name, s.Color, markLine})
	}
	entries = append(entries, legendEntry{paperLabel, "#333", markHollow})
	p, h := t.plotIn(w, h, title, t.legendRows(entries, float64(w)-t.f(padLeft)-t.f(padRight)), 0)
	c := newCanvas(w, h, title)
	p.y0, p.y1 = 0, 1
	tx := func(x float64) float64 {
		if logX {
			return math.Log2(x)
		}
		return x
	}
	p.x0, p.x1 = tx(xs[0]), tx(xs[len(xs)-1])
	pad := (p.x1 - p.x0) * 0.05
	p.x0, p.x1 = p.x0-pad, p.x1+pad
	c.Rect(0, 0, w, h, `fill="#ffffff"`)
	t.title(c, title, w)
	for i := 0; i <= 4; i++ {
		y := float64(i) / 4
		yy := p.py(y)
		c.buf.WriteString(`<line x1="` + f1(p.left) + `" y1="` + f1(yy) + `" x2="` + f1(p.right) + `" y2="` + f1(yy) + `" stroke="#e4e4e4"/>`)
		c.Text(int(p.left-t.f(4)), int(yy+t.f(4)), tickLabel(y), t.size(10), `text-anchor="end"`, `fill="#555"`)
	}
	// Every value's label where they fit, else every second one.
	every := 1
	if float64(len(xs))*t.f(28) > p.right-p.left {
		every = 2
	}
	for i, x := range xs {
		if i%every != 0 {
			continue
		}
		label := tickLabel(x)
		if logX {
			label = "2" + superscript.Replace(strconv.Itoa(int(math.Round(math.Log2(x)))))
		}
		c.Text(int(p.px(tx(x))), int(p.bottom+t.f(14)), label, t.size(10), `text-anchor="middle"`, `fill="#555"`)
	}
	c.buf.WriteString(`<rect x="` + f1(p.left) + `" y="` + f1(p.top) + `" width="` + f1(p.right-p.left) + `" height="` + f1(p.bottom-p.top) + `" fill="none" stroke="#999"/>`)
	c.Text(int(p.left+p.right)/2, h-t.n(4), xlabel, t.size(11), `text-anchor="middle"`, `fill="#333"`)
	step := (p.px(tx(xs[len(xs)-1])) - p.px(tx(xs[0]))) / float64(max(1, len(xs)-1))
	for si, s := range series {
		off := (float64(si) - float64(len(series)-1)/2) * math.Min(3, step/float64(2*len(series)+2))
		var d []byte
		for i, x := range xs {
			xx := p.px(tx(x)) + off
			if i < len(s.Reference) && !math.IsNaN(s.Reference[i]) {
				c.buf.WriteString(`<circle class="paper" data-model="` + s.Name + `" cx="` + f1(xx+4) + `" cy="` + f1(p.py(s.Reference[i])) + `" r="3" fill="none" stroke="` + s.Color + `" stroke-width="1.2"/>`)
			}
			if i < len(s.Reps) {
				drawReps(&c, s, i, x, xx-6, p)
			}
			if i >= len(s.Mean) || math.IsNaN(s.Mean[i]) {
				continue
			}
			if len(d) == 0 {
				d = append(d, 'M')
			} else {
				d = append(d, 'L')
			}
			d = append(d, f1(xx)+" "+f1(p.py(s.Mean[i]))...)
			if i < len(s.SD) && s.SD[i] > 0 {
				lo, hi := math.Max(0, s.Mean[i]-s.SD[i]), math.Min(1, s.Mean[i]+s.SD[i])
				c.buf.WriteString(`<line class="spread" x1="` + f1(xx) + `" y1="` + f1(p.py(lo)) + `" x2="` + f1(xx) + `" y2="` + f1(p.py(hi)) + `" stroke="` + s.Color + `" stroke-width="1.2"/>`)
			}
			name, at := html.EscapeString(s.Name), strconv.FormatFloat(x, 'g', -1, 64)
			c.buf.WriteString(`<circle class="ours" data-metric="sweep-accuracy" data-model="` + name + `" data-run="` + name + `" data-x="` + at +
				`" data-value="` + strconv.FormatFloat(s.Mean[i], 'g', -1, 64) + `" cx="` + f1(xx) + `" cy="` + f1(p.py(s.Mean[i])) + `" r="2.6" fill="` + html.EscapeString(s.Color) + `"/>`)
		}
		if len(d) > 0 {
			c.buf.WriteString(`<path class="series" data-name="` + s.Name + `" d="` + string(d) + `" fill="none" stroke="` + s.Color + `" stroke-width="1.6"/>`)
		}
	}
	t.drawLegend(c, entries, p.left, t.legendTop(title, w), p.right-p.left)
	return c.inline()
}

// drawReps draws each graph's accuracy at the i-th x as a faint dot at
// xx, naming its model, x and rep, so that a page can open that run.
func drawReps(c *canvas, s SweepSeries, i int, x, xx float64, p plot) {
	for r, acc := range s.Reps[i] {
		if math.IsNaN(acc) {
			continue
		}
		c.buf.WriteString(`<circle class="rep" data-run="` + html.EscapeString(s.Name) + `" data-x="` + strconv.FormatFloat(x, 'g', -1, 64) + `" data-rep="` + strconv.Itoa(r+1) +
			`" cx="` + f1(xx) + `" cy="` + f1(p.py(acc)) + `" r="1.8" fill="` + html.EscapeString(s.Color) + `" fill-opacity="0.45"/>`)
	}
}

// superscript writes the powers of two as the paper's axes do, 2⁻¹⁰
// rather than 2^-10.
var superscript = strings.NewReplacer("-", "⁻", "0", "⁰", "1", "¹", "2", "²", "3", "³", "4", "⁴", "5", "⁵", "6", "⁶", "7", "⁷", "8", "⁸", "9", "⁹")

// SweepFigure draws a sweep as Figure 3 does, from the results so far:
// each model's mean and ±1 SD over the graphs that gave one, each graph's
// accuracy as a faint dot, and the paper's values as hollow marks, each
// model in its colour of Figure 3's legend. The CLI's SVG and the page's
// figure are this one, its words in those tr gives each key (nil:
// English).
func SweepFigure(tr func(key string) string, w, h int, sw experiment.Sweep, res []experiment.Result) string {
	pts := sw.Summary(res)
	series := make([]SweepSeries, len(sw.Models))
	for m, kind := range sw.Models {
		s := SweepSeries{Name: kind, Color: ModelColor(kind, m)}
		for v := range sw.Scenario.Values {
			s.Mean, s.SD = append(s.Mean, pts[m][v].Mean), append(s.SD, pts[m][v].SD)
			reps := make([]float64, sw.Reps)
			for r := range reps {
				reps[r] = math.NaN()
				if x := res[sw.Index(v, r, m)]; x.Done {
					reps[r] = x.Acc
				}
			}
			s.Reps = append(s.Reps, reps)
		}
		for _, p := range sw.Scenario.Paper[kind] {
			s.Reference = append(s.Reference, p/100)
		}
		series[m] = s
	}
	title := phrase.New("Scenario %d: test accuracy against %s (%d graphs a point)", sw.Scenario.Number, sw.Scenario.Param, sw.Reps)
	return Sweep(w, h, title.In(tr), sw.Scenario.Param, phrase.New("paper (Fig. 3)").In(tr), sw.Scenario.Values, sw.Scenario.Log, series...)
}

// ModelColor is a model's colour: its colour in Figure 3's legend, or
// the i-th colour for a model the figure does not show.
func ModelColor(kind string, i int) string {
	if j := slices.Index(experiment.PaperModels, kind); j >= 0 {
		return SweepColors[j]
	}
	return SweepColors[i%len(SweepColors)]
}
