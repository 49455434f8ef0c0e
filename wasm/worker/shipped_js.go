//go:build js

package main

import (
	"io/fs"
	"slices"
	"sync"
	"testing/fstest"
	"time"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/wasm/fetch"
)

// shippedDir is where the site's build writes the shipped graphs,
// relative to this worker's script (wasm/site: web/graphs).
const shippedDir = "graphs/"

// shippedGraphs fetches a shipped graph's files the first time a run
// asks for each (the cost model reads meta.json alone; a run, all of
// them), and keeps them for the worker's lifetime: the page's program
// does not carry the graphs (datasets.ShipFrom). The service worker keeps
// them too, so that they open offline after a first visit.
type shippedGraphs struct {
	mu  sync.Mutex
	got map[string][]byte // by graph/file
}

// open returns graph name's folder, whose files are fetched as they are
// opened.
func (s *shippedGraphs) open(name string) (fs.FS, error) { return shippedFolder{s, name}, nil }

// file is the file of graph name, fetched once.
func (s *shippedGraphs) file(name, file string) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := name + "/" + file
	if b, ok := s.got[key]; ok {
		return b, nil
	}
	b, err := fetch.Bytes(shippedDir+key, fetchTimeout)
	if err != nil {
		return nil, phrase.Errorf("graph: %s could not be fetched: %s", experiment.Quote(name), err)
	}
	if s.got == nil {
		s.got = map[string][]byte{}
	}
	s.got[key] = b
	return b, nil
}

// shippedFolder is a shipped graph's folder: datasets.ShippedFiles, each
// fetched when it is first opened; no other file is there.
type shippedFolder struct {
	s    *shippedGraphs
	name string
}

func (f shippedFolder) Open(file string) (fs.File, error) {
	if file == "." {
		dir := fstest.MapFS{}
		for _, n := range datasets.ShippedFiles {
			dir[n] = &fstest.MapFile{Mode: 0o444}
		}
		return dir.Open(".")
	}
	if !slices.Contains(datasets.ShippedFiles, file) {
		return nil, &fs.PathError{Op: "open", Path: file, Err: fs.ErrNotExist}
	}
	b, err := f.s.file(f.name, file)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: file, Err: err}
	}
	return fstest.MapFS{file: {Data: b, Mode: 0o444}}.Open(file)
}

// fetchTimeout is the longest a shipped graph's file may take to come:
// Citeseer's largest, 171 kB of brotli, in well under a minute on a
// 1.6 Mbit/s link shared by a class.
const fetchTimeout = 2 * time.Minute
