package experiment

import (
	"cmp"
	"slices"
)

// Queue is the one scheduler of a set of runs over a pool of workers: the
// page's engine workers (the sweep lab) and the command line's goroutines
// (pdn sweep, pdn table4) alike. It hands the runs out in an order, trains
// each run key once (the runs of one key train to the same bits, RunKey)
// and gives its result to every run of the key, and takes back a run a
// worker could not end. Runs of one group (a graph's models) are handed
// out together, so a worker that draws the graph draws it once.
//
// A Queue is not safe for concurrent use: the command line guards it with
// a lock, the page uses it from its UI goroutine.
type Queue struct {
	keys   []string
	groups []int
	order  []int // the runs in the order they are handed out
	res    []Result
	under  map[string]bool // keys under way
	out    int             // runs handed out and not yet ended
}

// NewQueue schedules runs of the given keys; res holds the results known
// (a link's, or none yet), whose keys are done. groups, if not nil, puts
// each run in a group, handed out together; cost, if not nil, orders the
// groups by their summed cost, largest first (the workers then end within
// about the smallest group of each other), else in the runs' order.
func NewQueue(keys []string, groups []int, res []Result, cost []float64) *Queue {
	n := len(keys)
	q := &Queue{keys: keys, groups: groups, res: res, under: map[string]bool{}, order: make([]int, n)}
	if q.res == nil {
		q.res = make([]Result, n)
	}
	if q.groups == nil {
		q.groups = make([]int, n)
		for i := range q.groups {
			q.groups[i] = i
		}
	}
	for i := range q.order {
		q.order[i] = i
	}
	if cost != nil {
		sum := map[int]float64{}
		first := map[int]int{}
		for i, g := range q.groups {
			sum[g] += cost[i]
			if _, ok := first[g]; !ok {
				first[g] = i
			}
		}
		slices.SortStableFunc(q.order, func(a, b int) int {
			ga, gb := q.groups[a], q.groups[b]
			if c := cmp.Compare(sum[gb], sum[ga]); c != 0 {
				return c
			}
			return cmp.Compare(first[ga], first[gb])
		})
	}
	return q
}

// Results are the runs' results, by run.
func (q *Queue) Results() []Result { return q.res }

// Done is the number of runs with a result.
func (q *Queue) Done() int {
	n := 0
	for _, r := range q.res {
		if r.Done {
			n++
		}
	}
	return n
}

// UnderWay is the number of runs handed out and not yet ended.
func (q *Queue) UnderWay() int { return q.out }

// pending says run i needs training: no result, and its key neither done
// by another run nor under way.
func (q *Queue) pending(i int) bool { return !q.res[i].Done && !q.under[q.keys[i]] }

// Take hands out the next run to train and the other runs of its group
// that need training, their keys marked under way; false when none is
// left (runs whose keys are under way get their result when those end).
func (q *Queue) Take() ([]int, bool) {
	for _, i := range q.order {
		if !q.pending(i) {
			continue
		}
		var runs []int
		for _, j := range q.order {
			if q.groups[j] == q.groups[i] && q.pending(j) {
				runs = append(runs, j)
				q.under[q.keys[j]] = true
			}
		}
		slices.Sort(runs)
		q.out += len(runs)
		return runs, true
	}
	return nil, false
}

// Finish ends run i with result r: it and every run of its key without a
// result get it. It returns how many other runs got it.
func (q *Queue) Finish(i int, r Result) int {
	r.Done = true
	if q.under[q.keys[i]] {
		delete(q.under, q.keys[i])
		q.out--
	}
	q.res[i] = r
	return q.Share(i)
}

// Share gives run i's result to the runs of its key without one, and
// returns how many got it: a link's results, given before training.
func (q *Queue) Share(i int) int {
	n := 0
	for j := range q.res {
		if j != i && !q.res[j].Done && q.keys[j] == q.keys[i] {
			q.res[j] = q.res[i]
			n++
		}
	}
	return n
}

// Drop takes back run i, handed out and ended without a result (its worker
// stopped): it is pending again.
func (q *Queue) Drop(i int) {
	if q.under[q.keys[i]] {
		delete(q.under, q.keys[i])
		q.out--
	}
}
