package main

import (
	"bytes"
	"errors"
	"fmt"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/internal/numtext"
	"pdnexplorer/pdn"
	"pdnexplorer/wasm/protocol"
)

// localGraph is the graph the user opened from files, as read, kept for
// states whose data is experiment.GraphLocal.
type localGraph struct {
	g       *datasets.Graph
	resplit bool // it came without a split: shots and seed draw one
	name    string
}

// load reads the user's files with the readers the command line uses, so
// a bad file gets the same message (file, line, column). A graph too large
// for the browser is refused now, not when a run asks for it. The graph
// in use is not touched: a bad file loses nothing.
func (s *session) load(files []protocol.File) {
	in := make([]datasets.File, len(files))
	for i, f := range files {
		in[i] = datasets.File{Name: f.Name, Data: f.Data}
	}
	g, resplit, err := datasets.OpenFiles(in)
	if err == nil && g.E() > maxBrowserEdges {
		err = fmt.Errorf("your graph has %s edges; the browser trains graphs of up to %s (the command line has no such bound)",
			numtext.Group(g.E()), numtext.Group(maxBrowserEdges))
	}
	if err != nil {
		s.post(protocol.Event{Kind: protocol.KindError, Gen: s.gen, Error: "Your graph was not opened: " + err.Error()}, nil)
		return
	}
	name, _ := g.Meta["name"].(string)
	if name == "" || name == "graph" {
		name = files[0].Name
	}
	s.local = &localGraph{g: g, resplit: resplit, name: name}
	if s.exp.Data.Graph == experiment.GraphLocal {
		s.g = nil // the next set builds the new graph
	}
	info := &protocol.Loaded{Name: name, Nodes: g.N, Edges: g.E(), Classes: g.C, Features: g.F, Resplit: resplit}
	if g.Meta["edge_features"] != datasets.TieStrengthMeta {
		info.EdgeFeatures = g.D
	}
	s.post(protocol.Event{Kind: protocol.KindLoaded, Gen: s.gen, Loaded: info}, nil)
}

// errNoLocal says a state names the user's graph in a worker that has none:
// a link carried data=local to a page that never opened the files.
var errNoLocal = errors.New("data: local names a graph opened from files, and its files do not travel with a link: open them again with \u201cYour own graph\u201d, or pick another graph")

// buildData builds the graph d names: the user's own for GraphLocal (its
// split drawn with shots and seed if it came without one), else as the
// command line does.
func (s *session) buildData(d experiment.Data) (*datasets.Graph, error) {
	if d.Graph != experiment.GraphLocal {
		return datasets.Build(d)
	}
	if s.local == nil {
		return nil, errNoLocal
	}
	if s.local.resplit {
		datasets.ShotSplit(s.local.g, d.Shots, d.Seed)
	}
	return s.local.g, nil
}

// expectedShape is the shape of the graph d names, before it is built.
func (s *session) expectedShape(d experiment.Data) pdn.Shape {
	if d.Graph == experiment.GraphLocal && s.local != nil {
		return pdn.ShapeOf(s.local.g)
	}
	return pdn.ExpectedShape(d)
}

// export writes the current graph as a file for the user to save: DOT
// with the latest learned weights, or the bundle as a zip archive.
func (s *session) export(format string) {
	if s.g == nil {
		s.fail(errors.New("no graph to save yet"), "")
		return
	}
	base := "pdn-" + s.exp.Data.Graph
	var f protocol.File
	switch format {
	case protocol.FormatDOT:
		data, err := datasets.DOT(s.g, "pdn", s.learnedWeights())
		if err != nil {
			s.fail(err, "")
			return
		}
		f = protocol.File{Name: base + ".dot", Type: "text/vnd.graphviz", Data: data}
	case protocol.FormatBundle:
		var b bytes.Buffer
		if err := datasets.WriteBundleZip(&b, base, s.g); err != nil {
			s.fail(err, "")
			return
		}
		f = protocol.File{Name: base + ".zip", Type: "application/zip", Data: b.Bytes()}
	default:
		s.fail(fmt.Errorf("export: %s is not a format; want %s or %s", experiment.Quote(format), protocol.FormatDOT, protocol.FormatBundle), "")
		return
	}
	s.post(protocol.Event{Kind: protocol.KindFile, Gen: s.gen, File: &f}, nil)
}
