package testwait

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// A wait's end is the binary's deadline less a margin that leaves time to
// fail by name: a tenth of the time left, at least 1 s and at most 30 s.
func TestMargin(t *testing.T) {
	for _, tc := range []struct {
		name       string
		left, want time.Duration
	}{
		{"little left", 2 * time.Second, time.Second},
		{"a few minutes", 3 * time.Minute, 18 * time.Second},
		{"an hour", time.Hour, 30 * time.Second},
	} {
		if got := margin(tc.left); got != tc.want {
			t.Errorf("%s: margin(%v) = %v, want %v", tc.name, tc.left, got, tc.want)
		}
	}
}

// A test's waits end at its share of the binary's time (a sixth, at
// least LeastShare), counted from its first wait, or shortly before the
// deadline, whichever comes first.
func TestEndIsTheTestsShare(t *testing.T) {
	for _, tc := range []struct {
		name       string
		binary     time.Duration // go test's -timeout, from began
		firstAfter time.Duration // the test's first wait, after now
		want       time.Duration // its end, after its first wait
	}{
		{"the browser suite's 90 minutes", 90 * time.Minute, 0, 15 * time.Minute},
		{"150 minutes", 150 * time.Minute, 0, 25 * time.Minute},
		{"a package's 60 minutes: the least share", 60 * time.Minute, 0, LeastShare},
		{"one test under 10 minutes: its deadline", 10 * time.Minute, 0, 0}, // 0: the deadline less its margin
		{"a test that begins late", 90 * time.Minute, 89 * time.Minute, 0},
	} {
		deadline := began.Add(tc.binary)
		first := time.Now().Add(tc.firstAfter)
		want := first.Add(tc.want)
		if tc.want == 0 {
			want = deadline.Add(-margin(time.Until(deadline)))
		}
		if d := endOf(deadline, first).Sub(want); d < -time.Second || d > time.Second {
			t.Errorf("%s: ends %v after its first wait, want %v", tc.name, endOf(deadline, first).Sub(first).Round(time.Second), want.Sub(first).Round(time.Second))
		}
	}
}

// A condition that comes is waited for; End lies before the deadline.
func TestUntilWaitsForTheCondition(t *testing.T) {
	n := 0
	Until(t, "the third poll", time.Millisecond, func() bool { n++; return n == 3 })
	if n != 3 {
		t.Errorf("polled %d times, want 3", n)
	}
	if deadline, ok := t.Deadline(); ok && !End(t).Before(deadline) {
		t.Errorf("a wait ends at %v, not before the deadline %v", End(t), deadline)
	}
}

// A test without a deadline (a benchmark) waits without end: End is zero.
func TestNoDeadlineNoEnd(t *testing.T) {
	var b testing.B
	if !End(&b).IsZero() {
		t.Error("a benchmark's wait has an end")
	}
}

// A condition that never comes is given up once the end has passed.
func TestPollGivesUpAtTheEnd(t *testing.T) {
	if pollUntil(time.Now().Add(20*time.Millisecond), time.Millisecond, func() bool { return false }) {
		t.Error("a condition that never held was reported as held")
	}
}

// fatal records a wait's failure instead of ending the test.
type fatal struct {
	testing.TB
	msg string
}

func (f *fatal) Helper()           {}
func (f *fatal) Fatal(args ...any) { f.msg = fmt.Sprint(args...) }

// A wait through a context gives up before the context's deadline, while
// the context can still say what the test saw last.
func TestUntilInEndsBeforeItsContext(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	f := &fatal{TB: t}
	alive := false
	UntilIn(f, ctx, "nothing", 10*time.Millisecond, func() bool { return false }, func() string {
		alive = ctx.Err() == nil
		return "the last look"
	})
	if !alive || !strings.Contains(f.msg, "waited") || !strings.Contains(f.msg, "for nothing") || !strings.Contains(f.msg, "the last look") {
		t.Errorf("context alive at the last look: %v; failure %q", alive, f.msg)
	}
}
