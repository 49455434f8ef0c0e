// Package app is the explorer's user interface, built with go-app: the
// controls, the live views and the permalink. It never trains: every engine
// call goes to the Web Worker through wasm/protocol, and the package links
// neither the engine nor gonum.
package app

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"pdnexplorer/experiment"
)

// State is everything a permalink fixes: the experiment (whose table drives
// the controls, the worker's messages and the URL) and the one view setting,
// the weight threshold of the graph view.
type State struct {
	Exp       experiment.Experiment
	Threshold float64 // edges lighter than this are hidden, in [0, 1]
}

// DefaultState is the paper's default scenario with every edge shown.
func DefaultState() State {
	return State{Exp: experiment.Default()}
}

// Hash returns the URL fragment (without '#') that reproduces s.
func (s State) Hash() string {
	return s.Exp.Encode() + "&threshold=" + strconv.FormatFloat(s.Threshold, 'g', -1, 64)
}

// ParseHash reads a fragment written by Hash. It never fails as a whole:
// every bad field keeps its default and is reported in the error.
func ParseHash(h string) (State, error) {
	h = strings.TrimPrefix(h, "#")
	var exp, errs []string
	st := DefaultState()
	var thresholdErr error
	for _, kv := range strings.Split(h, "&") {
		k, v, _ := strings.Cut(kv, "=")
		if k != "threshold" {
			exp = append(exp, kv)
			continue
		}
		t, err := strconv.ParseFloat(v, 64)
		if err != nil || !(t >= 0 && t <= 1) {
			thresholdErr = fmt.Errorf("threshold: %q is not allowed; want [0, 1]; using the default 0", v)
			continue
		}
		st.Threshold = t
	}
	e, err := experiment.Decode(strings.Join(exp, "&"))
	st.Exp = e
	if err != nil {
		errs = append(errs, err.Error())
	}
	if thresholdErr != nil {
		errs = append(errs, thresholdErr.Error())
	}
	if len(errs) > 0 {
		return st, errors.New(strings.Join(errs, "\n"))
	}
	return st, nil
}
