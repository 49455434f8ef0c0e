package experiment

import (
	"math"
	"slices"
	"sync"
)

// Claims decided on a pool's results. A lab that trains runs each to its
// end on a pool of workers (Lab.Trains: the structure lab's robustness
// curves and transfer table, the sweep's Figure 3) keeps of each run its
// Result, the test accuracy at its last epoch. A claim that reads nothing
// else (Claim.OnResults) is decided on those results wherever the pool
// trains all of its runs, matched by RunKey (runs of one key give the same
// bits), and the lab states it on its card with the verdict, as it states
// the claims its runs on screen decide: the structure lab's robustness and
// transfer findings came this way.

// ResultFigures are the figures a claim reads of run r trained to its end
// on a pool, whose result is res: its test accuracy at its last epoch (and
// the learned homophily where the result kept it). Nothing else of the run
// is known: the weights' figures are NaN or nil, which no OnResults claim
// reads.
func ResultFigures(r Run, res Result) Figures {
	nan := math.NaN()
	return Figures{Epoch: r.Exp.Train.Epochs, Epochs: r.Exp.Train.Epochs, TestAcc: res.Acc,
		WIntra: nan, WInter: nan, InputHomophily: nan, LearnedHomophily: res.Homophily, Saturated: nan}
}

// PoolCheck is the check of claim c that a pool trains every run of, at
// the seeds dataSeed and trainSeed (the lab's seed and init-seed rows):
// keys are the RunKey of each of the pool's runs, in its order. at gives,
// for each run name of the claim, the index of the pool's run that trains
// it. false for a claim that reads more than results (OnResults unset), or
// one a run of which the pool does not train, on any family.
func PoolCheck(c Claim, dataSeed, trainSeed uint64, keys []string) (k Checked, at map[string]int, ok bool) {
	if !c.OnResults {
		return Checked{}, nil, false
	}
	for _, check := range c.Checks() {
		if check.Family.Folder != "" {
			continue // one's own files: no row says it is this family
		}
		want := check.State(dataSeed)
		want.Train.Seed = trainSeed
		runs := RunsOf(want)
		at := map[string]int{}
		for _, r := range runs {
			i := slices.Index(keys, RunKey(r.Exp))
			if i < 0 {
				break
			}
			at[r.Name] = i
		}
		if len(at) == len(runs) {
			return check, at, true
		}
	}
	return Checked{}, nil, false
}

// ClaimsShownBy are the claims lab's card states, in the table's order:
// those whose runs it trains side by side (ClaimsOf), and those its pool
// decides as it opens (PoolDecides), though the claim's own state may be
// another lab's (the transfer table's claims read the compare lab's runs).
func ClaimsShownBy(lab string) []Claim {
	if v, ok := shownBy.Load(lab); ok {
		return v.([]Claim)
	}
	var out []Claim
	for _, c := range Claims {
		if c.Lab() == lab || PoolDecides(lab, c) {
			out = append(out, c)
		}
	}
	shownBy.Store(lab, out)
	return out
}

// PoolDecides reports whether lab's pool, as the lab opens (ForLab, seeds
// 1), trains every run of claim c, which reads results only (PoolCheck).
func PoolDecides(lab string, c Claim) bool {
	key := lab + "\x00" + c.memoKey()
	if v, ok := poolDecides.Load(key); ok {
		return v.(bool)
	}
	_, _, ok := PoolCheck(c, 1, 1, startKeys(lab))
	poolDecides.Store(key, ok)
	return ok
}

// startKeys are the RunKeys of the runs lab's pool trains as it opens;
// none for a lab without a pool.
func startKeys(lab string) []string {
	if v, ok := startKeysOf.Load(lab); ok {
		return v.([]string)
	}
	var keys []string
	if l, ok := LabNamed(lab); ok && l.Trains != nil {
		for _, r := range l.Trains(ForLab(lab)) {
			keys = append(keys, RunKey(r.Exp))
		}
	}
	startKeysOf.Store(lab, keys)
	return keys
}

// shownBy and startKeysOf hold ClaimsShownBy and startKeys by lab, and
// poolDecides PoolDecides by lab and claim: the tables they read do not
// change, and the page asks on every render of a lab's claims.
var shownBy, startKeysOf, poolDecides sync.Map
