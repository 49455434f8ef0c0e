package viz

import (
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
