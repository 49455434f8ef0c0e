package experiment

import (
	"math"
	"slices"
	"testing"
)

// The queue hands out each key once, a group's runs together, the groups
// by their cost (largest first), and gives a run's result to every run of
// its key; a run dropped is handed out again; a link's results are kept
// and shared.
func TestQueue(t *testing.T) {
	keys := []string{"a", "b", "a", "c", "d", "c"}
	groups := []int{0, 0, 1, 1, 2, 2}
	cost := []float64{1, 1, 5, 5, 2, 2}
	q := NewQueue(keys, groups, nil, cost)
	first, ok := q.Take()
	if !ok || !slices.Equal(first, []int{2, 3}) { // group 1 costs most
		t.Fatalf("first batch %v", first)
	}
	second, _ := q.Take() // group 2 (cost 4): d; c is under way
	if !slices.Equal(second, []int{4}) {
		t.Fatalf("second batch %v", second)
	}
	third, _ := q.Take() // group 0: b; a is under way
	if !slices.Equal(third, []int{1}) {
		t.Fatalf("third batch %v", third)
	}
	if _, ok := q.Take(); ok || q.UnderWay() != 4 {
		t.Fatalf("a fourth batch with every key under way (%d under way)", q.UnderWay())
	}
	if n := q.Finish(2, Result{Acc: 0.5}); n != 1 || q.Results()[0] != (Result{Acc: 0.5, Done: true}) {
		t.Errorf("a's result went to %d others: %v", n, q.Results())
	}
	q.Drop(4)
	if again, ok := q.Take(); !ok || !slices.Equal(again, []int{4}) {
		t.Errorf("the dropped run came back as %v", again)
	}
	q.Finish(3, Result{Acc: math.NaN()})
	q.Finish(4, Result{Acc: 0.25})
	q.Finish(1, Result{Acc: 0.75})
	if q.Done() != len(keys) || q.UnderWay() != 0 || !math.IsNaN(q.Results()[5].Acc) {
		t.Errorf("done %d, under way %d, results %v", q.Done(), q.UnderWay(), q.Results())
	}

	// A link's results: a's is known, so no run of a is handed out, and
	// Share gives it to the other.
	res := make([]Result, len(keys))
	res[0] = Result{Acc: 0.9, Done: true}
	q = NewQueue(keys, nil, res, nil)
	if n := q.Share(0); n != 1 || !res[2].Done {
		t.Errorf("shared to %d: %v", n, res)
	}
	var order []int
	for {
		b, ok := q.Take()
		if !ok {
			break
		}
		order = append(order, b...)
		for _, i := range b {
			q.Finish(i, Result{Acc: 0.1})
		}
	}
	if !slices.Equal(order, []int{1, 3, 4}) {
		t.Errorf("handed out %v, want each key without a result once, in order", order)
	}
}
