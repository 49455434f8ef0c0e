package app

import (
	"testing"
	"time"
)

// The graph view redraws at graphRedraw while that costs little, and no
// more than a tenth of the time once its redraws cost more.
func TestGraphRedrawFollowsItsCost(t *testing.T) {
	for _, tc := range []struct {
		build, paint, want time.Duration
	}{
		{0, 0, graphRedraw},
		{3 * time.Millisecond, 5 * time.Millisecond, graphRedraw},
		{40 * time.Millisecond, 260 * time.Millisecond, 3 * time.Second},
	} {
		c := &GraphLab{graphBuild: tc.build}
		c.edges.cost = tc.paint
		if got := c.graphEvery(); got != tc.want {
			t.Errorf("build %v, paint %v: redraw every %v, want %v", tc.build, tc.paint, got, tc.want)
		}
	}
}
