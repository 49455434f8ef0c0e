package viz

import (
	"math"
	"regexp"
	"slices"
	"strconv"
	"testing"
)

// Ticks fall on round values and span the data.
func TestNiceTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		want   []float64
	}{
		{0, 1.0616, []float64{0, 0.5, 1, 1.5}},
		{0, 1, []float64{0, 0.25, 0.5, 0.75, 1}},
		{0, 200, []float64{0, 50, 100, 150, 200}},
		{0.4, 0.93, []float64{0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1}},
	} {
		got, from, to := niceTicks(tc.lo, tc.hi, 4)
		if !slices.Equal(got, tc.want) && !(len(got) >= 3 && from <= tc.lo && to >= tc.hi) {
			t.Errorf("[%v, %v]: %v", tc.lo, tc.hi, got)
		}
		if from > tc.lo || to < tc.hi {
			t.Errorf("[%v, %v]: ticks span [%v, %v]", tc.lo, tc.hi, from, to)
		}
		for _, v := range got {
			if s := strconv.FormatFloat(v, 'f', -1, 64); len(s) > 5 {
				t.Errorf("[%v, %v]: a tick at %s", tc.lo, tc.hi, s)
			}
		}
	}
}

// Under SetLegibility every text of every figure is at least MinPx as
// drawn at ShownPx wide, and the chart's legend lies above its plot, not
// over its data.
func TestFiguresMeetTheLegibilityAsked(t *testing.T) {
	defer SetLegibility(Legibility{})
	sizes := regexp.MustCompile(`font-size="([0-9.]+)"`)
	for _, l := range []Legibility{{MinPx: 12, ShownPx: 358}, {MinPx: 16, ShownPx: 600}} {
		SetLegibility(l)
		for name, svg := range map[string]string{
			"line":  LineChart(520, 240, Axes{Title: "t", XLabel: "epoch"}, Series{Name: "a", X: []float64{0, 1}, Y: []float64{0.2, 0.9}}),
			"bars":  Bars(720, 240, "t", "x", []string{"a", "b"}, []float64{0.1, 0.2}, "#000"),
			"hist":  Histogram(520, 240, "t", "w", 10, Group{Name: "a", Color: "#000", Values: []float64{0.1, 0.5}}),
			"sweep": Sweep(760, 380, "t", "Q", "paper", []float64{0.25, 0.5, 1}, true, SweepSeries{Name: "pdn", Color: "#000", Mean: []float64{0.9, 0.8, 0.7}}),
			"deciles": DecileStrips(520, "t", "weight", DecileGroup{Name: "intra-class", Color: "#000", Deciles: []float64{0, .1, .2, .3, .4, .5, .6, .7, .8, .9, 1}},
				DecileGroup{Name: "inter-class", Color: "#d00"}),
		} {
			for _, m := range sizes.FindAllStringSubmatch(svg, -1) {
				size, _ := strconv.ParseFloat(m[1], 64)
				w := map[string]float64{"line": 520, "bars": 720, "hist": 520, "sweep": 760, "deciles": 520}[name]
				if px := size * l.ShownPx / w; px < l.MinPx-0.05 || math.IsNaN(px) {
					t.Errorf("%+v: %s draws text of %v units, %.1f px", l, name, size, px)
				}
			}
		}
	}
}

// Arabic text in a figure is isolated right to left; other text is not.
func TestRightToLeftTextIsIsolated(t *testing.T) {
	svg := LineChart(520, 240, Axes{Title: "السيناريو 4: دقة الاختبار (3 رسوم)", XLabel: "epoch"})
	if !regexp.MustCompile("\u2067السيناريو 4: دقة الاختبار \\(3 رسوم\\)\u2069").MatchString(svg) {
		t.Errorf("the Arabic title is not isolated:\n%s", svg)
	}
	if regexp.MustCompile("\u2067epoch").MatchString(svg) {
		t.Error("an English label was isolated right to left")
	}
}
