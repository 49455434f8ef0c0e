package app

import (
	"math"
	"regexp"
	"strconv"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/experiment"
	"pdnexplorer/viz"
)

// The one rule of figure text: 16 px on a projector (its first figure
// held to the screen's height), 12 on a phone, 11 on a desktop, each at
// the width the lab shows its figures.
func TestLegibilityFollowsTheScreen(t *testing.T) {
	for _, tc := range []struct {
		name        string
		present     bool
		w, h, shown float64
		want        viz.Legibility
	}{
		{"desktop", false, 1440, 900, 487, viz.Legibility{MinPx: 11, ShownPx: 487}},
		{"a small laptop", false, 1280, 720, 412, viz.Legibility{MinPx: 11, ShownPx: 412}},
		{"not laid out yet", false, 1440, 900, 0, viz.Legibility{MinPx: 11}},
		{"phone", false, 390, 844, 328, viz.Legibility{MinPx: 12, ShownPx: 328}},
		{"phone turned", false, 844, 390, 784, viz.Legibility{MinPx: 12, ShownPx: 784}},
		{"a desktop window just taller than a turned phone", false, 1440, 501, 487, viz.Legibility{MinPx: 11, ShownPx: 487}},
		{"the widest phone", false, 700, 900, 640, viz.Legibility{MinPx: 12, ShownPx: 640}},
		{"projector", true, 1280, 720, 586, viz.Legibility{MinPx: 16, ShownPx: 586, MaxShownH: 390}},
		{"projector on a phone", true, 390, 844, 328, viz.Legibility{MinPx: 16, ShownPx: 328, MaxShownH: 514}},
		{"a projector's short window", true, 1280, 300, 586, viz.Legibility{MinPx: 16, ShownPx: 586}},
	} {
		if got := legibilityFor(tc.present, tc.w, tc.h, tc.shown); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// Every lab's component is go-app's Resizer (its core's OnResize), so a
// window resized or a phone turned draws its figures for their new width
// whether or not its runs train.
func TestEveryLabRedrawsOnResize(t *testing.T) {
	for _, row := range experiment.Labs {
		rm := rooms[row.Name](&page{board: &Board{}})
		if _, ok := rm.(app.Resizer); !ok {
			t.Errorf("the %s lab's component is no app.Resizer", row.Name)
		}
	}
}

var (
	figureSVG = regexp.MustCompile(`(?s)<svg [^>]*viewBox="0 0 ([0-9.]+) [0-9.]+"[^>]*>(.*?)</svg>`)
	fontSize  = regexp.MustCompile(`font-size="([0-9.]+)"`)
)

// smallestText is the smallest text, in pixels, of the figures in h shown
// shown px wide, and the number of figures with text.
func smallestText(h string, shown float64) (least float64, figures int) {
	least = math.Inf(1)
	for _, svg := range figureSVG.FindAllStringSubmatch(h, -1) {
		w, _ := strconv.ParseFloat(svg[1], 64)
		sizes := fontSize.FindAllStringSubmatch(svg[2], -1)
		if len(sizes) > 0 {
			figures++
		}
		for _, m := range sizes {
			size, _ := strconv.ParseFloat(m[1], 64)
			least = math.Min(least, size*shown/w)
		}
	}
	return least, figures
}

// A window resized to a phone's, no run training, draws every lab's
// figures again for the phone: each text at least 12 px as shown. Before
// the resize they were drawn at their own sizes, smaller there.
func TestResizeRedrawsTheFiguresAtRest(t *testing.T) {
	defer func(m func() (float64, float64, float64, bool)) { measurePage = m; viz.SetLegibility(viz.Legibility{}) }(measurePage)
	const shown = 328
	for _, row := range experiment.Labs {
		t.Run(row.Name, func(t *testing.T) {
			measurePage = func() (float64, float64, float64, bool) { return 0, 0, 0, false }
			viz.SetLegibility(viz.Legibility{})
			rm, _, conns, d := mountLab(t, row.Name, "lab="+row.Name)
			if !row.Queue {
				for i, f := range *conns {
					playRun(f, i)
				}
			}
			d.Consume()
			before, n := smallestText(app.HTMLString(rm), shown)
			if n == 0 || before >= phoneMinPx {
				t.Fatalf("before the resize: %d figures, the smallest text %.1f px on a phone", n, before)
			}
			measurePage = func() (float64, float64, float64, bool) { return 390, 844, shown, true }
			doIn(d, rm, func() { rm.(app.Resizer).OnResize(nil) })
			if after, m := smallestText(app.HTMLString(rm), shown); m != n || after < phoneMinPx-0.05 {
				t.Errorf("after the resize: %d figures of %d, the smallest text %.1f px, want at least %d", m, n, after, phoneMinPx)
			}
		})
	}
}
