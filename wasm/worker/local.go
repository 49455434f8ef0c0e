package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"path"
	"runtime"
	"strconv"
	"strings"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/pdn"
	"pdnexplorer/pyg"
	"pdnexplorer/wasm/protocol"
)

// localGraph is the graph the user opened from files, as read, kept for
// states whose data is experiment.GraphLocal, with the files themselves,
// so that naming other columns (id-column, target) reads them again.
type localGraph struct {
	g       *datasets.Graph
	resplit bool // it came without a split: shots and seed draw one
	name    string
	files   []datasets.File
	cols    datasets.Columns
}

// columnsOf are the columns d names in the user's node table.
func columnsOf(d experiment.Data) datasets.Columns {
	return datasets.Columns{ID: d.IDColumn, Target: d.Target, Bins: d.Bins}
}

// load reads the user's files with the readers the command line uses, so
// a bad file gets the same message (file, line, column), with the columns
// the state names, or takes the graph another worker read from them
// (parsed). A graph too large for the browser is refused now, not when a
// run asks for it: too large for the run that opens the files (state,
// the run's; else the state this worker last set). The graph in use is
// not touched: a bad file loses nothing. A graph read here goes back to
// the page with the answer, for the engine workers.
func (s *session) load(files []protocol.File, cols datasets.Columns, parsed []byte, state string) {
	in := make([]datasets.File, len(files))
	for i, f := range files {
		in[i] = datasets.File{Name: f.Name, Data: f.Data}
	}
	var local *localGraph
	var err error
	if parsed != nil {
		local, err = handedLocal(parsed, in)
	} else {
		local, err = readLocal(in, cols)
	}
	// A graph handed from the worker that read it was held to the
	// page's run there; here, the model this worker last served may be
	// another's, and each run's set checks it again (checkSize).
	if err == nil && parsed == nil {
		err = fitsBrowser(s.runOf(state), local)
	}
	var out []byte
	if err == nil && parsed == nil {
		out, err = local.handoff()
	}
	if err != nil {
		ev := protocol.Failure(notOpened(err))
		ev.Gen, ev.Columns, ev.Load, ev.Memory = s.gen, columnsChoice(err), true, memory()
		s.post(ev, nil)
		return
	}
	s.local = local
	if s.exp.Data.Graph == experiment.GraphLocal {
		s.g = nil // the next set builds the new graph
	}
	s.post(protocol.Event{Kind: protocol.KindLoaded, Gen: s.gen, Loaded: loadedInfo(local), Load: true, Memory: memory(), Parsed: out}, nil)
}

// readLocal reads files with the columns cols, or, where those do not fit
// them, with the columns the reader finds.
//
// The state's columns (a link's id-column, target or bins, or those of the
// files opened before) are meant for the files opened next, but they are
// another graph's whenever the files do not open with them and do without
// them: a column they lack, ids the other files do not use, a class
// column of names that bins would cut as numbers. The files are then read
// with the columns the reader finds and the page is told which did not fit
// and why, so a link's columns never keep a folder from opening. Files
// that fail either way are refused with both errors where they differ:
// with the state's columns, and without them (a hexadecimal number in a
// bundle opened with a link's bins was said as bins alone).
func readLocal(in []datasets.File, cols datasets.Columns) (*localGraph, error) {
	local, err := openLocal(in, cols)
	if err != nil && cols != (datasets.Columns{}) {
		again, err2 := openLocal(in, datasets.Columns{})
		var ce *datasets.ColumnsError
		switch {
		case err2 == nil:
			again.g.Notes = append(again.g.Notes, phrase.New("the link's columns (%s) did not fit these files (%s): they were read with the columns the reader finds", columnsText(cols), phrase.Of(err)))
			local, err = again, nil
		case errors.As(err2, &ce):
			err = err2 // the files leave the class open: the chooser asks
		case err2.Error() != err.Error():
			err = phrase.Errorf("%w; and without the link's columns (%s): %w", err, columnsText(cols), err2)
		}
	}
	return local, err
}

// handoff is l as the other workers take it (handedLocal): what the
// reader made of the files, the columns it read them with, and the graph
// in its binary form (datasets.Graph.AppendBinary).
func (l *localGraph) handoff() ([]byte, error) {
	var b []byte
	for _, s := range []string{l.name, l.cols.ID, l.cols.Target} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	b = binary.AppendVarint(b, int64(l.cols.Bins))
	resplit := byte('f')
	if l.resplit {
		resplit = 't'
	}
	b = append(b, resplit)
	b, err := l.g.AppendBinary(b)
	if err != nil {
		return nil, phrase.Errorf("the graph read could not be handed to the other workers: %s", err)
	}
	return b, nil
}

// handedLocal takes the graph another worker read from files (its
// handoff), bit for bit, without parsing them again.
func handedLocal(parsed []byte, files []datasets.File) (*localGraph, error) {
	l := &localGraph{files: files}
	rest, err := parsed, error(nil)
	for _, s := range []*string{&l.name, &l.cols.ID, &l.cols.Target} {
		n, k := binary.Uvarint(rest)
		if k <= 0 || n > uint64(len(rest)-k) {
			err = io.ErrUnexpectedEOF
			break
		}
		*s, rest = string(rest[k:k+int(n)]), rest[k+int(n):]
	}
	if err == nil {
		bins, k := binary.Varint(rest)
		if k <= 0 || len(rest) == k || bins < 0 || bins > 1<<20 {
			err = io.ErrUnexpectedEOF
		} else {
			l.cols.Bins, l.resplit, rest = int(bins), rest[k] == 't', rest[k+1:]
		}
	}
	if err == nil {
		l.g = new(datasets.Graph)
		err = l.g.UnmarshalBinary(rest)
	}
	if err != nil {
		return nil, phrase.Errorf("the graph another worker read came damaged (%s): open the files again", err)
	}
	return l, nil
}

// memory is what the worker's Go runtime holds of the system's memory.
func memory() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.Sys
}

// fitsBrowser refuses, before the page is told the graph opened, a graph
// the model as set cannot train in a browser: a million nodes said
// "Opened" and then were refused at Play, while the lab still showed the
// graph before it.
func fitsBrowser(e experiment.Experiment, l *localGraph) error {
	e.Data.Graph = experiment.GraphLocal
	if err := checkSize(e, pdn.ShapeOf(l.g)); err != nil {
		return withNotes(err, l.g.Notes)
	}
	return nil
}

// withNotes is the refusal of a graph that was read, with what its reader
// noted of it: a note that the features are far wider than any node uses
// is why the graph costs what the refusal says, and was lost with it.
func withNotes(err error, notes []phrase.Text) error {
	if len(notes) == 0 {
		return err
	}
	return phrase.Errorf("%w. What the reader noted of the files: %s", err, phrase.List("; ", notes))
}

// runOf is the run of state, or the one this worker last set where state
// is empty, or the default run where it set none (a reader asked for no
// run). DecodeRun keeps the default of a bad row, as set does.
func (s *session) runOf(state string) experiment.Experiment {
	if state == "" && s.exp.Model.Kind == "" {
		return experiment.Default()
	}
	if state == "" {
		return s.exp
	}
	e, _ := experiment.DecodeRun(state)
	return e
}

// columnsText names columns as the link has them: id-column=id, target=x,
// bins=5.
func columnsText(c datasets.Columns) string {
	var parts []string
	if c.ID != "" {
		parts = append(parts, "id-column="+c.ID)
	}
	if c.Target != "" {
		parts = append(parts, "target="+c.Target)
	}
	if c.Bins != 0 {
		parts = append(parts, "bins="+strconv.Itoa(c.Bins))
	}
	return strings.Join(parts, ", ")
}

// readFiles reads the user's files: datasets.OpenFiles in the reader's
// build (the build tag reader: web/reader.wasm) and natively, nil in the
// engine's, which links no reader and takes the graph the reader read
// (handedLocal): the readers are a tenth of the program (245 of 2,311 kB
// of brotli), a download the page makes only when files are opened
// (TestEngineLinksNoReader).
var readFiles func([]datasets.File, datasets.Columns) (*datasets.Graph, bool, error)

// errReadsNoFiles says files came to an engine worker to read: the page
// hands them to its reader, and the engine workers the graph it read.
var errReadsNoFiles = phrase.Errorf("this engine worker reads no files: the page's reader of files does")

// openLocal reads the user's files with the columns cols.
func openLocal(files []datasets.File, cols datasets.Columns) (*localGraph, error) {
	if readFiles == nil {
		return nil, errReadsNoFiles
	}
	// Every reader meets the page's edge bound while it reads
	// (datasets.MaxPageEdges; a test tries it on every format).
	g, resplit, err := readFiles(files, cols)
	if err != nil {
		return nil, err
	}
	name, _ := g.Meta["name"].(string)
	if name == "" || name == "graph" || name == "musae" || name == "ogb" {
		name = nameOfFiles(files)
	}
	return &localGraph{g: g, resplit: resplit, name: name, files: files, cols: cols}, nil
}

// nameOfFiles names a graph whose format names none by what the user
// opened: a folder's name, else the first file's (a zip's, with its
// extension, as the user knows it).
func nameOfFiles(files []datasets.File) string {
	name := files[0].Name
	if dir, _, ok := strings.Cut(name, "/"); ok && dir != "" {
		return dir
	}
	return name
}

// loadedInfo is what the page is told of a graph it opened.
func loadedInfo(l *localGraph) *protocol.Loaded {
	g := l.g
	info := &protocol.Loaded{Name: l.name, Nodes: g.N, Edges: g.E(), Classes: g.C, Unlabelled: g.Unlabelled(), Features: g.F, Resplit: l.resplit,
		ClassNames: g.ClassNames, Notes: g.Notes, IDColumn: l.cols.ID, Target: l.cols.Target, Bins: l.cols.Bins}
	if g.Meta["edge_features"] != datasets.TieStrengthMeta {
		info.EdgeFeatures = g.D
		info.EdgeNames = g.EdgeNames
	}
	if c, ok := g.Meta["class_column"].(string); ok {
		info.ClassColumn = c
	}
	info.Recipe = g.Recipe()
	return info
}

// columnsChoice is what the page's column chooser shows when the files
// leave a column open; nil for any other error.
func columnsChoice(err error) *protocol.Columns {
	var ce *datasets.ColumnsError
	if !errors.As(err, &ce) {
		return nil
	}
	out := &protocol.Columns{File: ce.File, Header: ce.Header, Sample: ce.Sample}
	for _, c := range ce.Choices {
		out.Choices = append(out.Choices, protocol.ClassChoice{Column: c.Column, Classes: c.Classes, Counts: c.Counts, Bins: c.Bins})
	}
	return out
}

// errNoLocal says a state names the user's graph in a worker that has none:
// a link carried data=local to a page that never opened the files.
var errNoLocal = phrase.Errorf("data: local names a graph opened from files, and its files do not travel with a link: open them again with \u201cYour own graph\u201d, or pick another graph")

// buildData builds the graph d names: the user's own for GraphLocal (its
// split drawn with shots and seed if it came without one), else as the
// command line does.
func (s *session) buildData(d experiment.Data) (*datasets.Graph, error) {
	if d.Graph != experiment.GraphLocal {
		return datasets.Drawn(d)
	}
	if s.local == nil {
		return nil, errNoLocal
	}
	if cols := columnsOf(d); cols != s.local.cols {
		local, err := openLocal(s.local.files, cols)
		if err != nil {
			return nil, err
		}
		s.local = local
		s.post(protocol.Event{Kind: protocol.KindLoaded, Gen: s.gen, Loaded: loadedInfo(local)}, nil)
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
		s.fail(phrase.Errorf("no graph to save yet"), "")
		return
	}
	base := "pdn-" + s.graphName()
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
	case protocol.FormatPyG:
		name := base + "-" + s.exp.Model.Kind + "-pyg" // a run's export: the graph and the model
		data, err := s.pygExport(name)
		if err != nil {
			s.fail(phrase.Errorf("export to PyTorch Geometric: %w", err), "")
			return
		}
		f = protocol.File{Name: name + ".zip", Type: "application/zip", Data: data}
	default:
		s.fail(phrase.Errorf("export: %s is not a format; want %s, %s or %s", experiment.Quote(format), protocol.FormatDOT, protocol.FormatBundle, protocol.FormatPyG), "")
		return
	}
	s.post(protocol.Event{Kind: protocol.KindFile, Gen: s.gen, File: &f}, nil)
}

// graphName names the graph in a saved file's name: the generator's or
// shipped graph's row, or the name one's own files gave it (meta.json's
// name, or its first file's), kept to letters, digits, '-' and '_'.
func (s *session) graphName() string {
	name := s.exp.Data.Graph
	if name == experiment.GraphLocal && s.local != nil {
		name = strings.TrimSuffix(s.local.name, path.Ext(s.local.name))
	}
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
		if b.Len() >= 40 {
			break
		}
	}
	if out := strings.Trim(b.String(), "-"); out != "" {
		return out
	}
	return experiment.GraphLocal
}

// pygExport is the run as it stands, for PyTorch Geometric: the graph, the
// weights and the script, zipped under the folder name.
func (s *session) pygExport(name string) ([]byte, error) {
	switch {
	case s.tr == nil:
		return nil, phrase.Errorf("no model built yet: press Play or Step first")
	case !s.prepared: // its set-up (restarts) would hold the worker up
		return nil, phrase.Errorf("the model is still being set up (its restarts): wait until it trains, then save")
	}
	r, err := pyg.RunOf(s.tr)
	if err != nil {
		return nil, err
	}
	// A run carried on over edits keeps the trainer it was built with,
	// whose state has the edits of then; the graph saved is the edited one.
	r.Exp.Data.Edits = s.exp.Data.Edits
	var b bytes.Buffer
	if err := pyg.WriteZip(&b, name, s.g, r); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// notOpened says the user's files were not opened, and why.
func notOpened(err error) error { return phrase.Errorf("Your graph was not opened: %w", err) }
