// Package viz draws the explorer's figures as SVG with svgo: the learned
// graph (and the strokes its canvas paints), layouts, curves over epochs,
// histograms and bars, heat maps, the sweep's figure, the node trace's
// strips and the QR code of a link. The browser and the CLI call the same
// functions, so a figure looks the same in both.
//
// The figures come as an inline <svg> element (no XML prolog), ready to be
// put into a page; File adds the prolog for a standalone .svg file. The
// helpers beside them return what a figure is made of (colours, levels,
// positions, a graph's strokes). The package knows nothing of training or
// of the browser.
package viz

import (
	"bytes"
	"html"
	"strconv"
	"strings"

	svg "github.com/ajstarks/svgo"
)

// ClassColors is the Okabe–Ito palette, which stays distinguishable under
// the common colour-vision deficiencies, in the order classes use it.
// Vermillion is kept for inter-class edges.
var ClassColors = []string{"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#F0E442", "#000000"}

// Edge colours: intra-class edges are dark and solid, inter-class edges
// vermillion and dashed, so they differ in hue, lightness and pattern.
const (
	IntraColor = "#333333"
	InterColor = "#D55E00"
)

// NoClassColor is the neutral grey of a node without a class.
const NoClassColor = "#BBBBBB"

// ClassColor returns the colour of class c, NoClassColor for a node
// without one (a negative label).
func ClassColor(c int) string {
	if c < 0 {
		return NoClassColor
	}
	return ClassColors[c%len(ClassColors)]
}

// canvas is an svgo canvas writing into a buffer.
type canvas struct {
	*svg.SVG
	buf *bytes.Buffer
}

// newCanvas starts a w×h figure that scales with its container.
func newCanvas(w, h int, label string) canvas {
	var b bytes.Buffer
	c := canvas{SVG: svg.New(&b), buf: &b}
	c.Startview(w, h, 0, 0, w, h)
	c.Title(label)
	return c
}

// inline ends the figure and returns it without svgo's XML prolog and
// comment: go-app's Raw mounts only the first node of its string, so it must
// be the <svg> element itself.
func (c canvas) inline() string {
	c.End()
	s := c.buf.String()
	return s[strings.Index(s, "<svg"):]
}

// Swatch is a small disc of colour c for a legend, as SVG: a fill
// attribute, not a style, so the page's Content-Security-Policy, which
// allows no inline style, lets it show.
func Swatch(c string) string {
	var b bytes.Buffer
	s := svg.New(&b)
	s.Start(12, 12, `class="swatch"`, `aria-hidden="true"`)
	s.Circle(6, 6, 6, `fill="`+html.EscapeString(c)+`"`)
	s.End()
	out := b.String()
	return out[strings.Index(out, "<svg"):]
}

// File turns an inline figure into a standalone SVG file's contents.
func File(inline string) []byte {
	return []byte(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + inline)
}

// f1 formats x with one decimal, enough for screen coordinates.
func f1(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }

// f3 formats x with three decimals, for opacities and widths.
func f3(x float64) string { return strconv.FormatFloat(x, 'f', 3, 64) }

// Text writes t at (x, y), as svgo does, isolated right to left (RLI …
// PDI) where it holds a right-to-left script: a figure stays left to right
// in an Arabic page, and an Arabic title in it would otherwise have its
// words, numbers and brackets reordered ("(3 …) … 4").
func (c canvas) Text(x, y int, t string, s ...string) {
	if rightToLeft(t) {
		t = "\u2067" + t + "\u2069"
	}
	c.SVG.Text(x, y, t, s...)
}

// rightToLeft reports whether s holds a letter of a right-to-left script
// (Hebrew, Arabic and their supplements).
func rightToLeft(s string) bool {
	for _, r := range s {
		if r >= 0x0590 && r <= 0x08FF || r >= 0xFB1D && r <= 0xFDFF || r >= 0xFE70 && r <= 0xFEFF {
			return true
		}
	}
	return false
}
