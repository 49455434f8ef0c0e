package main

import (
	"fmt"
	"io"
	"sync"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
)

// graphNotes says what a reader changed or supplied in a graph of one's
// own (nodes without a class, pairs dropped as repeats, features made
// from degrees, text read as UTF-16, the first of two graphs): every
// command that reads one says them, once a graph, so that none reads a
// graph without a word. pdn train says them as it reads the graph (not
// with -quiet) and in its results.
type graphNotes struct {
	w    io.Writer
	mu   sync.Mutex
	said map[string]bool
}

// newGraphNotes says notes on w; nil w says nothing (the caller shows
// g.Notes itself).
func newGraphNotes(w io.Writer) *graphNotes { return &graphNotes{w: w, said: map[string]bool{}} }

// readGraph is the one way a command reads a graph of one's own: the
// folder, zip or GraphML file at path, as datasets.Load reads it, with its
// notes said once.
func readGraph(path string, d experiment.Data, resplit bool, notes *graphNotes) (*datasets.Graph, error) {
	g, err := datasets.Load(path, d, resplit)
	if err == nil && notes != nil {
		notes.say(path, g.Notes)
	}
	return g, err
}

func (n *graphNotes) say(path string, notes []phrase.Text) {
	if n.w == nil {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.said[path] {
		return
	}
	n.said[path] = true
	for _, t := range notes {
		fmt.Fprintf(n.w, "note: %s: %s\n", quotePath(path), t)
	}
}
