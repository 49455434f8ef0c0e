package datasets

import (
	"io/fs"
	"path"
	"slices"
	"strings"

	"pdnexplorer/internal/input"
	"pdnexplorer/internal/numtext"
)

// A plain graph is two text files: an edge list (two node ids a line,
// any further columns edge weights) and a labels file (a line per node:
// its id, its class, any further numeric columns its features), each a
// CSV, a TSV or fields apart by spaces, with or without a header.
// Planetoid's cora.cites and cora.content are one. The id and class
// columns are found as in a MUSAE target.csv, or named by Columns.
type plainFiles struct{ edges, labels string }

// tableExts are the names a plain graph's files end in.
var tableExts = []string{".csv", ".tsv", ".txt", ".edges", ".edgelist", ".el", ".cites", ".content", ".labels", ".dat", ""}

// edgeWords mark the edge list among two files.
var edgeWords = []string{"edge", "cites", "link", "adj", "graph"}

// findPlain finds a plain graph's two files at the root of fsys: of two
// table files, the one whose name says edges (edges.csv, cora.cites).
func findPlain(fsys fs.FS) (plainFiles, bool) {
	var tables []string
	for _, n := range rootFiles(fsys) {
		if slices.Contains(tableExts, strings.ToLower(path.Ext(input.Plain(n)))) {
			tables = append(tables, n)
		}
	}
	if len(tables) != 2 {
		return plainFiles{}, false
	}
	says := func(n string) bool {
		l := strings.ToLower(n)
		return slices.ContainsFunc(edgeWords, func(w string) bool { return strings.Contains(l, w) })
	}
	a, b := says(tables[0]), says(tables[1])
	switch {
	case a && !b:
		return plainFiles{edges: tables[0], labels: tables[1]}, true
	case b && !a:
		return plainFiles{edges: tables[1], labels: tables[0]}, true
	}
	return plainFiles{}, false
}

// looksLikeHeader says a labels file's first row is its header: a cell
// is a name headers use (id, label, class, …) or no cell is a number.
func looksLikeHeader(first []string) bool {
	numbers := 0
	for _, c := range first {
		l := strings.ToLower(strings.TrimSpace(c))
		if slices.Contains(idNames, l) || slices.Contains(classNames, l) {
			return true
		}
		if _, err := numtext.ParseFloat(l); err == nil {
			numbers++
		}
	}
	return numbers == 0
}

// readPlain reads a plain graph: nodes, classes and dense node features
// from the labels file, edges (and their weights) from the edge list.
func readPlain(fsys fs.FS, pf plainFiles, cols Columns) (*Graph, error) {
	name := strings.TrimSuffix(pf.labels, path.Ext(pf.labels))
	g := &Graph{Meta: map[string]any{"name": name}}
	nt, err := readNodeTable(fsys, "edge list", pf.labels, cols, looksLikeHeader)
	if err != nil {
		return nil, err
	}
	id, class, err := nt.choose(cols)
	if err != nil {
		return nil, err
	}
	ids, order, err := nt.fill(g, id, class)
	if err != nil {
		return nil, err
	}
	features := nt.numericColumns(id, class)
	nt.denseFeatures(g, features, order)
	g.Notes = append(g.Notes, nt.notFeatures(features, id, class)...)
	if err := readEdgeList(fsys, "edge list", pf.edges, g, ids, pf.labels); err != nil {
		return nil, err
	}
	return g, g.Check()
}
