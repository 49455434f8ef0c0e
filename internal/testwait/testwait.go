// Package testwait is how a test waits for something that takes its time:
// a page to load, a worker to answer, a cluster's jobs to end. It polls a
// condition until it holds, for as long as the test binary may still run
// (go test's -timeout, which the Makefile sizes for a machine several
// times slower than a quiet one), never for a fixed time: a wait with its
// own limit fails on a busy machine for no fault of the code.
//
// A wait that runs out stops a little before the binary's deadline, so the
// test fails naming what it waited for rather than go test panicking with
// every goroutine's stack. Under -timeout 0 a wait has no end.
//
// One test's waits end, too, once its Share of the binary's time (a
// sixth, and at least 15 minutes) has passed since it first waited: a
// wait that can never hold (a click that went astray, a page that will
// not answer) then fails its own test by name and leaves the tests after
// it their time. Before, one such wait in the browser suite held it for
// its whole 90 minutes, past the time CI gives all of make test. The
// share is several times what the slowest test takes on a machine at a
// load of 13 (the browser suite's slowest, under 5 of its 15 minutes).
//
// Tests only: it imports testing.
package testwait

import (
	"context"
	"sync"
	"testing"
	"time"
)

// margin is what a wait leaves of the binary's time to fail and clean up
// in: a tenth of what was left when the wait began, within [1 s, 30 s].
func margin(left time.Duration) time.Duration {
	return min(max(left/10, time.Second), 30*time.Second)
}

// deadliner is a *testing.T (a *testing.B or *testing.F has no deadline).
type deadliner interface {
	Deadline() (time.Time, bool)
}

// began is when the test binary began, near enough: its deadline less
// this is the time go test's -timeout gave it.
var began = time.Now()

// Share is the part of the binary's time one test may spend waiting, and
// LeastShare the least it gets: one test run alone under a short
// -timeout keeps the time it was given.
const (
	Share      = 6
	LeastShare = 15 * time.Minute
)

// firstWaits holds when each test running first asked when to give up.
var firstWaits sync.Map // testing.TB → time.Time

// firstWait is when t first asked End.
func firstWait(t testing.TB) time.Time {
	at, loaded := firstWaits.LoadOrStore(t, time.Now())
	if !loaded {
		t.Cleanup(func() { firstWaits.Delete(t) })
	}
	return at.(time.Time)
}

// End is when a wait that begins now gives up: shortly before t's
// deadline or t's share of the binary's time is spent, whichever comes
// first; the zero time when t has no deadline.
func End(t testing.TB) time.Time {
	d, ok := t.(deadliner)
	if !ok {
		return time.Time{}
	}
	deadline, ok := d.Deadline()
	if !ok {
		return time.Time{}
	}
	return endOf(deadline, firstWait(t))
}

// endOf is End for a binary whose deadline is deadline, of a test that
// first waited at first.
func endOf(deadline, first time.Time) time.Time {
	end := deadline.Add(-margin(time.Until(deadline)))
	if share := first.Add(max(deadline.Sub(began)/Share, LeastShare)); share.Before(end) {
		return share
	}
	return end
}

// Until polls cond every poll until it holds. If the test's time runs out
// first it fails t, saying it waited for what (and how long); last, if
// not nil, adds what the test saw last.
func Until(t testing.TB, what string, poll time.Duration, cond func() bool, last ...func() string) {
	t.Helper()
	start := time.Now()
	if !For(t, poll, cond) {
		msg := "waited " + time.Since(start).Round(time.Second).String() + " for " + what + ", until the test's time ran out (its share of the binary's, or the binary's)"
		for _, f := range last {
			msg += ": " + f()
		}
		t.Fatal(msg)
	}
}

// UntilIn is Until for a condition read through ctx (a browser's): it
// gives up a little before ctx's deadline too, while ctx can still tell
// last what the test saw.
func UntilIn(t testing.TB, ctx context.Context, what string, poll time.Duration, cond func() bool, last ...func() string) {
	t.Helper()
	start, end := time.Now(), End(t)
	if d, ok := ctx.Deadline(); ok {
		if early := d.Add(-margin(time.Until(d))); end.IsZero() || early.Before(end) {
			end = early
		}
	}
	if !pollUntil(end, poll, cond) {
		msg := "waited " + time.Since(start).Round(time.Second).String() + " for " + what + ", until the test's time ran out (its share of the binary's, or the binary's)"
		for _, f := range last {
			msg += ": " + f()
		}
		t.Fatal(msg)
	}
}

// For polls cond every poll until it holds, and reports whether it did
// before the test's time ran out.
func For(t testing.TB, poll time.Duration, cond func() bool) bool {
	return pollUntil(End(t), poll, cond)
}

// pollUntil polls cond every poll until it holds (true) or end has passed
// (false); a zero end never passes.
func pollUntil(end time.Time, poll time.Duration, cond func() bool) bool {
	for {
		if cond() {
			return true
		}
		if !end.IsZero() && time.Now().After(end) {
			return false
		}
		time.Sleep(poll)
	}
}

// Context is a context that ends when the test's time runs out (or when
// the test ends), for the commands a test runs and the browser it drives.
func Context(t testing.TB) context.Context {
	ctx, cancel := Bound(t, context.Background())
	t.Cleanup(cancel)
	return ctx
}

// Bound is parent, ended too when the test's time runs out.
func Bound(t testing.TB, parent context.Context) (context.Context, context.CancelFunc) {
	if end := End(t); !end.IsZero() {
		return context.WithDeadline(parent, end)
	}
	return context.WithCancel(parent)
}
