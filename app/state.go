// Package app is the explorer's user interface, built with go-app: the
// controls, the live views and the permalink. It never trains: every engine
// call goes to the Web Worker through wasm/protocol, and the package links
// neither the engine nor gonum.
package app

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"pdnexplorer/experiment"
	"pdnexplorer/internal/numtext"
	"pdnexplorer/viz"
)

// State is everything a permalink fixes: the experiment (whose table drives
// the controls, the worker's messages and the URL) and the view settings of
// the graph view.
type State struct {
	Lab       string // the lab shown, one of labs
	Exp       experiment.Experiment
	Threshold float64 // edges lighter than this are hidden, in [0, 1]
	Layout    string  // one of viz.Layouts
}

// DefaultState is the paper's default scenario with every edge shown, the
// classes in regions of their own.
func DefaultState() State {
	return State{Lab: labs[0].Name, Exp: experiment.Default(), Layout: viz.LayoutClasses}
}

// Hash returns the URL fragment (without '#') that reproduces s.
func (s State) Hash() string {
	return "lab=" + s.Lab + "&" + s.Exp.Encode() + "&threshold=" + strconv.FormatFloat(s.Threshold, 'g', -1, 64) + "&layout=" + s.Layout
}

// ParseHash reads a fragment written by Hash. It never fails as a whole:
// every bad field keeps its default and is reported in the error, one line
// each, at most experiment.MaxReported lines and then how many more.
func ParseHash(h string) (State, error) {
	h = strings.TrimPrefix(h, "#")
	var exp []string
	var probs experiment.Problems
	st := DefaultState()
	for _, kv := range strings.Split(h, "&") {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "lab":
			if _, ok := labNamed(v); !ok {
				probs.Add(fmt.Errorf("lab: %s is not allowed; want one of %s; using the default %s",
					experiment.Quote(v), strings.Join(labNames(), ", "), labs[0].Name))
				continue
			}
			st.Lab = v
			continue
		case "layout":
			if !slices.Contains(viz.Layouts, v) {
				probs.Add(fmt.Errorf("layout: %s is not allowed; want one of %s; using the default %s",
					experiment.Quote(v), strings.Join(viz.Layouts, ", "), viz.Layouts[0]))
				continue
			}
			st.Layout = v
			continue
		case "threshold":
		default:
			exp = append(exp, kv)
			continue
		}
		t, err := numtext.ParseFloat(v)
		if err != nil || !(t >= 0 && t <= 1) {
			probs.Add(fmt.Errorf("threshold: %s is not allowed; want [0, 1]; using the default 0", experiment.Quote(v)))
			continue
		}
		st.Threshold = t
	}
	st.Exp = experiment.DecodeInto(strings.Join(exp, "&"), &probs)
	return st, probs.Err()
}
