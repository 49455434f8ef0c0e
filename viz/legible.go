package viz

import (
	"math"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/width"

	"pdnexplorer/internal/numtext"
)

// Legibility is how large a figure's text must read where it is shown.
// One place, SetLegibility, sets it for every figure: the page sets it
// for the screen it is on (a desktop, a phone, a projector) and the width
// its figures are shown at, the command line leaves the figures at their
// own sizes.
//
// The rule every figure keeps: each text is set through its typeset
// (typeFor), which scales the text and the margins that hold it together,
// so no text is smaller than MinPx as shown and none runs into another or
// off the figure. TestEveryFigureMeetsTheLegibilityAsked draws every
// figure of the package at the legibilities the page asks for.
type Legibility struct {
	// MinPx is the least size, in pixels as drawn, of any text of a
	// figure: 11 on a desktop, 12 on a phone, 16 on a projector; 0 keeps
	// the figures' own sizes (ticks of 10 units).
	MinPx float64
	// ShownPx is the width, in pixels, figures are shown at (they fill
	// their card's width); 0 takes them as drawn at their own size.
	ShownPx float64
	// MaxShownH, if not 0, is the most height, in pixels, a figure is
	// shown at (a projector's first figure fits the screen): a figure
	// that it holds is shown narrower than ShownPx.
	MaxShownH float64
}

// Legible returns the legibility in force, for a caller that changes it
// for a few figures and then restores it.
func Legible() Legibility { return legibility }

var legibility Legibility

// SetLegibility sets the legibility every figure drawn from now on meets.
func SetLegibility(l Legibility) { legibility = l }

// smallestText is the size, in a figure's own units, of its smallest text
// (the ticks), which the scale brings up to MinPx.
const smallestText = 10

// typeset is a figure's text sizes and the margins that hold its text,
// scaled by k from the figures' own (k = 1): text and margins grow
// together, so larger text never runs into the data; and the figure grows
// taller by what its text took (tall), up to maxH units, so its plot keeps
// the height it has at its own sizes.
type typeset struct{ k, maxH float64 }

// typeFor is the typeset of a figure w×h units.
func typeFor(w, h int) typeset {
	if legibility.MinPx <= 0 {
		return typeset{1, float64(h)}
	}
	shown := legibility.ShownPx
	if shown <= 0 {
		shown = float64(w)
	}
	maxH := math.Inf(1)
	if legibility.MaxShownH > 0 && h > 0 {
		shown = math.Min(shown, legibility.MaxShownH*float64(w)/float64(h))
		// Any taller, the screen's height would show it narrower than
		// its text was scaled for.
		maxH = legibility.MaxShownH * float64(w) / shown
	}
	return typeset{math.Max(1, legibility.MinPx*float64(w)/shown/smallestText), maxH}
}

// tall is the height a figure of h units at its own sizes is drawn at,
// where its text and the margins that hold it take margins units of it
// at this typeset: taller by what they grew (their share above
// margins/k), as far as maxH allows. A chart shown on a phone is then as
// tall as the text it needs, not a strip between its title and its ticks.
func (t typeset) tall(h int, margins float64) int {
	grown := float64(h) + margins*(1-1/t.k)
	return int(math.Ceil(math.Max(float64(h), math.Min(grown, t.maxH))))
}

// plotIn is a chart's plot and its height: the plot inside the margins
// plotArea leaves, at the height tall gives (h units at its own sizes),
// with under units more beneath the plot for labels.
func (t typeset) plotIn(w, h int, title string, legendRows int, under float64) (plot, int) {
	p := t.plotArea(w, h, title, legendRows)
	p.bottom -= under
	h = t.tall(h, p.top+float64(h)-p.bottom)
	p = t.plotArea(w, h, title, legendRows)
	p.bottom -= under
	return p, h
}

// size is the font-size attribute of text of base size.
func (t typeset) size(base float64) string {
	return `font-size="` + strconv.FormatFloat(math.Round(base*t.k*10)/10, 'f', -1, 64) + `"`
}

// n is a length of base units, scaled.
func (t typeset) n(base float64) int { return int(math.Round(base * t.k)) }

// f is a length of base units, scaled.
func (t typeset) f(base float64) float64 { return base * t.k }

// niceTicks are round values, a step of 1, 2, 2.5 or 5 times a power of
// ten apart, from lo's multiple below or at lo to hi's at or above it,
// about n of them: an axis ticks 0, 0.25, 0.5, …, never 0.265, 0.531.
func niceTicks(lo, hi float64, n int) (ticks []float64, from, to float64) {
	if !(hi > lo) {
		hi = lo + 1
	}
	raw := (hi - lo) / float64(max(n, 1))
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * p
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*p >= raw {
			step = m * p
			break
		}
	}
	// Written to the step's decimals: 6 × 0.1 is 0.6, not 0.6000000000000001.
	digits := max(0, int(-math.Floor(math.Log10(step)))+1)
	round := func(v float64) float64 { return numtext.Round(v, digits) }
	from, to = round(math.Floor(lo/step+1e-9)*step), round(math.Ceil(hi/step-1e-9)*step)
	for k := 0; ; k++ {
		v := round(from + float64(k)*step)
		if v > to+step/2 {
			break
		}
		ticks = append(ticks, v)
	}
	return ticks, from, to
}

// legendRow is a legend row's height, in the figures' own units.
const legendRow = 16

// legendEntry is one entry of a chart's legend: its name, colour and mark
// (markLine, markDash, markBox or markHollow).
type legendEntry struct {
	name, color, mark string
}

const (
	markLine   = "line"
	markDash   = "dash"
	markBox    = "box"
	markHollow = "hollow"
)

// legendPlaces lays the entries out left to right in rows of width,
// each as wide as its name, and returns each one's x offset and row, and
// the rows taken.
func (t typeset) legendPlaces(entries []legendEntry, width float64) (xs []float64, rows []int, n int) {
	x, row := 0.0, 0
	for _, e := range entries {
		ew := t.f(24) + textWidth(e.name, t.f(11))
		if x > 0 && x+ew > width {
			x, row = 0, row+1
		}
		xs, rows = append(xs, x), append(rows, row)
		x += ew + t.f(12)
	}
	if len(entries) > 0 {
		n = row + 1
	}
	return xs, rows, n
}

// legendRows is how many rows the entries take across width.
func (t typeset) legendRows(entries []legendEntry, width float64) int {
	_, _, n := t.legendPlaces(entries, width)
	return n
}

// drawLegend draws the entries in rows from (left, top) across width:
// above the plot, where no legend covers data.
func (t typeset) drawLegend(c canvas, entries []legendEntry, left, top, width float64) {
	xs, rows, _ := t.legendPlaces(entries, width)
	for i, e := range entries {
		x, y := left+xs[i], top+float64(rows[i])*t.f(legendRow)+t.f(legendRow)/2
		switch e.mark {
		case markBox:
			c.buf.WriteString(`<rect x="` + f1(x) + `" y="` + f1(y-t.f(5)) + `" width="` + f1(t.f(14)) + `" height="` + f1(t.f(10)) + `" fill="` + e.color + `"/>`)
		case markHollow:
			c.buf.WriteString(`<circle cx="` + f1(x+t.f(9)) + `" cy="` + f1(y) + `" r="` + f1(t.f(3.5)) + `" fill="none" stroke="` + e.color + `" stroke-width="1.2"/>`)
		default:
			dash := ""
			if e.mark == markDash {
				dash = ` stroke-dasharray="5 3"`
			}
			c.buf.WriteString(`<line x1="` + f1(x) + `" y1="` + f1(y) + `" x2="` + f1(x+t.f(18)) + `" y2="` + f1(y) + `" stroke="` + e.color + `" stroke-width="2"` + dash + `/>`)
		}
		c.Text(int(math.Round(x+t.f(22))), int(math.Round(y+t.f(4))), e.name, t.size(11), `fill="#222"`)
	}
}

// plotArea is a chart's plot inside the margins that hold its title (in
// as many lines as it takes across w), legendRows rows of legend, the y
// ticks' labels and the x axis's.
func (t typeset) plotArea(w, h int, title string, legendRows int) plot {
	return plot{left: t.f(padLeft), right: float64(w) - t.f(padRight), top: t.legendTop(title, w) + t.f(4) + float64(legendRows)*t.f(legendRow),
		bottom: float64(h) - t.f(padBottom)}
}

// titleLines are a title's lines across a figure w units wide: a title
// set large for a projector, or in Chinese, wraps rather than runs off the
// figure.
func (t typeset) titleLines(text string, w int) []string {
	return wrapText(text, t.f(13), float64(w)-t.f(padLeft)-t.f(padRight), 0)
}

// legendTop is where the legend's rows start: under the title's lines.
func (t typeset) legendTop(title string, w int) float64 {
	return t.f(padTop) - t.f(4) + float64(len(t.titleLines(title, w))-1)*t.f(16)
}

// title draws a chart's title, wrapped to the figure's width.
func (t typeset) title(c canvas, text string, w int) {
	for k, line := range t.titleLines(text, w) {
		c.Text(t.n(padLeft), t.n(16+16*float64(k)), line, t.size(13), `font-weight="600"`, `fill="#222"`)
	}
}

// emsOf is how many ems rune r takes, about, set bold (a title is, and a
// projector sets every figure's text bold) in DejaVu Sans, the widest of
// the faces a browser or an SVG viewer commonly sets a figure in, so that
// a text measured by it fits in any: a wide (East Asian) character a whole
// em, a capital, m or w 0.82, a narrow letter, a space or a stop 0.4, an
// Arabic letter (joined, slimmer) 0.6, a mark over or under a letter
// (Arabic's vowels, the isolates around right-to-left text) nothing, any
// other 0.7. (Measured in Chromium on the page's figures: at most 0.68 em
// a character in English, 0.56 in Arabic.)
func emsOf(r rune) float64 {
	switch k := width.LookupRune(r).Kind(); {
	case k == width.EastAsianWide || k == width.EastAsianFullwidth:
		return 1
	case unicode.In(r, unicode.Mn, unicode.Cf):
		return 0
	case strings.ContainsRune(" .,:;'!|()[]{}ijlftr", r):
		return 0.4
	case unicode.IsUpper(r) || r == 'm' || r == 'w':
		return 0.82
	case r >= 0x0600 && r <= 0x06FF:
		return 0.6
	}
	return 0.7
}

// textWidth is about how wide s is set at size units.
func textWidth(s string, size float64) float64 {
	ems := 0.0
	for _, r := range s {
		ems += emsOf(r)
	}
	return ems * size
}

// wrapText splits text into lines at most across units wide set at size,
// at its spaces and, in Chinese or Japanese, between wide characters
// (never before a closing mark or after an opening one); a single word
// wider than across keeps a line of its own. With most > 0, the lines
// after the most-th are joined to it, which ends in "…" where it is then
// too wide.
func wrapText(text string, size, across float64, most int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		for i, piece := range breakWide(word) {
			sep := " "
			if i > 0 || line == "" {
				sep = ""
			}
			if line != "" && textWidth(line+sep+piece, size) > across {
				lines, line, sep = append(lines, line), "", ""
			}
			line += sep + piece
		}
	}
	lines = append(lines, line)
	if most > 0 && len(lines) > most {
		lines = append(lines[:most-1], cutToFit(strings.Join(lines[most-1:], " "), size, across))
	}
	return lines
}

// cutToFit is text cut, with "…", to fit across units set at size: at a
// space where one leaves a word or more, else inside the word.
func cutToFit(text string, size, across float64) string {
	if textWidth(text, size) <= across {
		return text
	}
	rs := []rune(text)
	fits := func(n int) bool { return textWidth(string(rs[:n])+"…", size) <= across }
	for n := len(rs) - 1; n > 0; n-- {
		if rs[n] == ' ' && fits(n) {
			return string(rs[:n]) + "…"
		}
	}
	n := len(rs) - 1
	for n > 1 && !fits(n) {
		n--
	}
	return string(rs[:n]) + "…"
}

// breakWide splits a word (no spaces) where a line may break inside it:
// between two characters one of which is wide, unless the second closes
// (，。）」…) or the first opens (（「…).
func breakWide(word string) []string {
	rs := []rune(word)
	var pieces []string
	from := 0
	for i := 1; i < len(rs); i++ {
		wide := emsOf(rs[i-1]) == 1 || emsOf(rs[i]) == 1
		if wide && !strings.ContainsRune(closers, rs[i]) && !strings.ContainsRune(openers, rs[i-1]) {
			pieces = append(pieces, string(rs[from:i]))
			from = i
		}
	}
	return append(pieces, string(rs[from:]))
}

// The marks a line may not start with (closers) or end with (openers).
const (
	closers = "，。、；：？！）」』】〉》”’%)]}.,;:!?…・ー"
	openers = "（「『【〈《“‘([{"
)
