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
		c := &GraphLab{}
		for range 3 {
			c.graphBuild.add(tc.build)
			c.edges.cost.add(tc.paint)
		}
		if got := c.graphEvery(); got != tc.want {
			t.Errorf("build %v, paint %v: redraw every %v, want %v", tc.build, tc.paint, got, tc.want)
		}
	}
}

// One slow measure (the first paint, as the page starts) does not hold
// the view back: the pace follows the least of the last three, once two
// have come.
func TestGraphRedrawIgnoresASpike(t *testing.T) {
	c := &GraphLab{}
	c.edges.cost.add(160 * time.Millisecond)
	if got := c.graphEvery(); got != graphRedraw {
		t.Fatalf("after one measure of 160 ms: every %v, want %v", got, graphRedraw)
	}
	c.edges.cost.add(2 * time.Millisecond)
	if got := c.graphEvery(); got != graphRedraw {
		t.Errorf("after a measure of 2 ms: every %v, want %v", got, graphRedraw)
	}
	for range 3 {
		c.edges.cost.add(200 * time.Millisecond) // a graph that really costs
	}
	if got := c.graphEvery(); got != 2*time.Second {
		t.Errorf("after three measures of 200 ms: every %v, want 2s", got)
	}
}
