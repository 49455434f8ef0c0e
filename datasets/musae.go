package datasets

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
)

// A MUSAE folder is how the authors of the Facebook Page-Page graph (and
// its siblings) publish a graph:
//
//	edges.csv      id_1,id_2                        an edge a line
//	target.csv     id,facebook_id,page_name,page_type   the class is the last column, a string
//	features.json  {"0": [3, 17, …], …}             each node's non-zero binary features
//
// Node ids are 0..N−1; classes are numbered by their names in sorted order;
// edges are made undirected, each pair once, self-loops dropped (the
// published files hold a few of each).
var musaeFiles = []string{"edges.csv", "target.csv", "features.json"}

// MaxNodes bounds a MUSAE folder's node ids, which come in any order: a
// stray id of 2,000,000,000 is an error at its line, not a table sized to it.
const MaxNodes = 1 << 24

// IsMUSAE reports whether fsys holds a MUSAE folder's files.
func IsMUSAE(fsys fs.FS) bool {
	for _, name := range musaeFiles {
		if _, err := fs.Stat(fsys, name); err != nil {
			return false
		}
	}
	return true
}

// ReadMUSAE reads the MUSAE folder dir; see ReadMUSAEFS.
func ReadMUSAE(dir string) (*Graph, error) {
	return ReadMUSAEFS(os.DirFS(dir))
}

// ReadMUSAEFS reads a MUSAE folder at the root of fsys into a graph with
// sparse binary features, no edge features and every node a test node (the
// caller draws a split, ShotSplit). It rejects, with a *BundleError naming
// the file, line and column: a header other than the format's, an id that
// is not a node, a node listed twice or not at all, more classes than
// MaxClasses, a feature index out of [0, MaxFeatures).
func ReadMUSAEFS(fsys fs.FS) (*Graph, error) {
	g := &Graph{Meta: map[string]any{"name": "musae"}}
	classes, err := readTargets(fsys, g)
	if err != nil {
		return nil, err
	}
	g.Meta["class_names"] = classes
	if err := readMUSAEFeatures(fsys, g); err != nil {
		return nil, err
	}
	if err := readMUSAEEdges(fsys, g); err != nil {
		return nil, err
	}
	return g, g.Check()
}

// readTargets reads target.csv: the nodes, in any order, and their classes
// by name. It returns the class names, in the order of their numbers.
func readTargets(fsys fs.FS, g *Graph) ([]string, error) {
	t, err := openTable(fsys, "target.csv")
	if err != nil {
		return nil, err
	}
	defer t.closer.Close()
	if len(t.header) < 2 || t.header[0] != "id" {
		return nil, &BundleError{File: t.file, Line: 1, Msg: "header must start with id and end with the class column (id,facebook_id,page_name,page_type)"}
	}
	type row struct {
		id    int
		class string
		line  int
	}
	var rows []row
	last := len(t.header) - 1
	for {
		r, err := t.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if len(r) != len(t.header) {
			return nil, &BundleError{File: t.file, Line: t.line, Msg: fmt.Sprintf("%d fields, want %d as the header", len(r), len(t.header))}
		}
		id, err := t.int(r, 0, 0, MaxNodes-1)
		if err != nil {
			return nil, err
		}
		rows = append(rows, row{id, strings.TrimSpace(r[last]), t.line})
	}
	if len(rows) == 0 {
		return nil, &BundleError{File: t.file, Msg: "no nodes: want a line per node after the header"}
	}
	slices.SortStableFunc(rows, func(a, b row) int { return a.id - b.id })
	for i, r := range rows {
		switch {
		case i > 0 && r.id == rows[i-1].id:
			return nil, &BundleError{File: t.file, Line: r.line, Column: "id", Msg: fmt.Sprintf("node %d was listed on line %d already", r.id, rows[i-1].line)}
		case r.id != i:
			return nil, &BundleError{File: t.file, Msg: fmt.Sprintf("node %d is missing: ids must run 0..N-1", i)}
		}
	}
	names := map[string]int{}
	for _, r := range rows {
		names[r.class] = 0
	}
	if len(names) > MaxClasses {
		return nil, &BundleError{File: t.file, Column: t.header[last], Msg: fmt.Sprintf("%d classes; at most %d", len(names), MaxClasses)}
	}
	sorted := make([]string, 0, len(names))
	for name := range names {
		sorted = append(sorted, name)
	}
	slices.Sort(sorted)
	for i, name := range sorted {
		names[name] = i
	}
	g.N, g.C = len(rows), len(sorted)
	for _, r := range rows {
		g.Labels, g.Splits = append(g.Labels, names[r.class]), append(g.Splits, Test)
	}
	return sorted, nil
}

// readMUSAEFeatures reads features.json: an object mapping each node id,
// as a string, to the list of its non-zero binary features.
func readMUSAEFeatures(fsys fs.FS, g *Graph) error {
	const file = "features.json"
	b, err := fs.ReadFile(fsys, file)
	if err != nil {
		return &BundleError{File: file, Msg: "cannot read: " + unwrapPath(err)}
	}
	b = bytes.TrimPrefix(b, []byte(bom))
	var raw map[string][]json.Number
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil {
		return &BundleError{File: file, Line: jsonLine(b, err), Msg: "want an object of node ids to lists of feature indices: " + err.Error()}
	}
	rows := make([][]int32, g.N)
	width := 0
	for key, list := range raw {
		id, err := strconv.Atoi(key)
		if err != nil || id < 0 || id >= g.N {
			return &BundleError{File: file, Column: key, Msg: fmt.Sprintf("not a node id in [0, %d]", g.N-1)}
		}
		cols := make([]int32, 0, len(list))
		for _, n := range list {
			f, err := strconv.ParseFloat(string(n), 64)
			if err != nil || f != math.Trunc(f) || f < 0 || f >= MaxFeatures {
				return &BundleError{File: file, Column: key, Msg: fmt.Sprintf("feature %s is not a whole number in [0, %d]", quote(string(n)), MaxFeatures-1)}
			}
			cols = append(cols, int32(f))
			width = max(width, int(f)+1)
		}
		slices.Sort(cols)
		rows[id] = slices.Compact(cols) // a feature listed twice is still one
	}
	x := &CSR{Rows: g.N, Cols: max(width, 1), Ptr: make([]int, g.N+1)}
	for i, cols := range rows {
		x.Col = append(x.Col, cols...)
		for range cols {
			x.Val = append(x.Val, 1)
		}
		x.Ptr[i+1] = len(x.Col)
	}
	g.F, g.XS = x.Cols, x
	return nil
}

// readMUSAEEdges reads edges.csv, id_1,id_2, into undirected edges.
func readMUSAEEdges(fsys fs.FS, g *Graph) error {
	t, err := openTable(fsys, "edges.csv")
	if err != nil {
		return err
	}
	defer t.closer.Close()
	if len(t.header) != 2 || t.header[0] != "id_1" || t.header[1] != "id_2" {
		return &BundleError{File: t.file, Line: 1, Msg: "header must be id_1,id_2"}
	}
	seen := map[[2]int32]bool{}
	for {
		r, err := t.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if len(r) != 2 {
			return &BundleError{File: t.file, Line: t.line, Msg: fmt.Sprintf("%d fields, want 2", len(r))}
		}
		u, err := t.int(r, 0, 0, g.N-1)
		if err != nil {
			return err
		}
		v, err := t.int(r, 1, 0, g.N-1)
		if err != nil {
			return err
		}
		key := [2]int32{int32(min(u, v)), int32(max(u, v))}
		if u == v || seen[key] {
			continue // the published files hold a few of each
		}
		seen[key] = true
		g.Src, g.Dst = append(g.Src, key[0]), append(g.Dst, key[1])
	}
	return nil
}
