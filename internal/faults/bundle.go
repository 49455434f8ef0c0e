package faults

import (
	"encoding/json"
	"strings"
)

// BundleCheck is one check a reader of graph bundles makes: a bundle as
// the explorer writes it, spoilt in one way, and the refusal it gets. Two
// readers walk the table: the explorer's (datasets.ReadBundle) and the
// exported script's (run_pyg.py), which holds a bundle to the same rules
// before torch loads; a check one of them makes and the other does not
// fails the other's test.
type BundleCheck struct {
	Name string
	File string // the bundle's file spoilt: meta.json, nodes.csv, edges.csv
	// Meta sets meta.json's keys to these JSON values (File meta.json).
	Meta map[string]string
	// Cells sets a CSV file's cells: row (0 the header), column, text.
	Cells []CellEdit
	// Rows keeps only a CSV file's first Rows lines (1: the header), when
	// above 0.
	Rows int
	// HeaderAt puts a copy of a CSV file's header in this row, when above 0.
	HeaderAt int
	// At is where the refusal points (file:line, or the file), and Says
	// what it says there (the column or key, and why); the byte column,
	// which only the explorer gives, comes between them.
	At, Says string
}

// CellEdit sets one cell of a CSV file.
type CellEdit struct {
	Row, Col int
	Text     string
}

// BundleChecks are the checks of a bundle both readers make, each
// refused naming the file, the line or key, and why.
var BundleChecks = []BundleCheck{
	{Name: "count null", File: "meta.json", Meta: map[string]string{"features": "null"}, At: "meta.json", Says: "key features: null is not a whole number in [1, "},
	{Name: "count as text", File: "meta.json", Meta: map[string]string{"features": `"abc"`}, At: "meta.json", Says: `key features: is text ("abc"), not a number: write it without quotes`},
	{Name: "count not whole", File: "meta.json", Meta: map[string]string{"features": "2.7"}, At: "meta.json", Says: "key features: 2.7 is not a whole number in [1, "},
	{Name: "count true", File: "meta.json", Meta: map[string]string{"classes": "true"}, At: "meta.json", Says: "key classes: true is not a whole number in [1, 1000]"},
	{Name: "count out of range", File: "meta.json", Meta: map[string]string{"nodes": "0"}, At: "meta.json", Says: "key nodes: 0 is not a whole number in [1, "},
	{Name: "count twice, differing", File: "meta.json", Meta: map[string]string{"num_edges": "1"}, At: "meta.json", Says: "key num_edges: says 1, and edges says"},
	{Name: "count disagrees with the file", File: "meta.json", Meta: map[string]string{"nodes": "5"}, At: "meta.json", Says: "key nodes: says 5, but nodes.csv holds"},
	{Name: "key misspelt", File: "meta.json", Meta: map[string]string{"clases": "3"}, At: "meta.json", Says: "key clases: is no key the explorer reads: did you mean classes?"},
	{Name: "name missing", File: "meta.json", Meta: map[string]string{"name": "7"}, At: "meta.json", Says: "key name: missing or not a string"},
	{Name: "class names not strings", File: "meta.json", Meta: map[string]string{"class_names": "[1, 2]"}, At: "meta.json", Says: "key class_names: want a list of the classes' names"},
	{Name: "edges cut to the header", File: "edges.csv", Rows: 1, At: "meta.json", Says: "key edges: says"},
	{Name: "self-loop", File: "edges.csv", Cells: []CellEdit{{1, 0, "0"}, {1, 1, "0"}}, At: "edges.csv:2", Says: "column target: self-loop on node 0"},
	{Name: "pair repeated", File: "edges.csv", Cells: []CellEdit{{1, 0, "0"}, {1, 1, "1"}, {2, 0, "1"}, {2, 1, "0"}}, At: "edges.csv:3", Says: "column target: the pair (1,0) repeats line 2"},
	{Name: "end out of range", File: "edges.csv", Cells: []CellEdit{{1, 1, "99999"}}, At: "edges.csv:2", Says: "column target: 99999 is out of range [0, "},
	{Name: "end not whole", File: "edges.csv", Cells: []CellEdit{{1, 0, "1.0"}}, At: "edges.csv:2", Says: `column source: "1.0" is not a whole number in [0, `},
	{Name: "edge kind", File: "edges.csv", Cells: []CellEdit{{1, 2, "both"}}, At: "edges.csv:2", Says: `column kind: "both" is not intra or inter`},
	{Name: "edge feature hexadecimal", File: "edges.csv", Cells: []CellEdit{{1, 3, "0x1p-2"}}, At: "edges.csv:2", Says: `column e0: "0x1p-2" is not a decimal number`},
	{Name: "edge header", File: "edges.csv", Cells: []CellEdit{{0, 3, "e99"}}, At: "edges.csv:1", Says: "column e99: want e0"},
	{Name: "column named twice", File: "edges.csv", Cells: []CellEdit{{0, 3, "e1"}}, At: "edges.csv:1", Says: "column e1: is named twice in the header (columns 4 and 5)"},
	{Name: "header repeated", File: "edges.csv", HeaderAt: 2, At: "edges.csv:3", Says: "this row repeats the header"},
	{Name: "id out of order", File: "nodes.csv", Cells: []CellEdit{{2, 0, "0"}}, At: "nodes.csv:3", Says: "column id: ids must be 0..N-1 in order: want 1, got \"0\""},
	{Name: "label beyond the classes", File: "nodes.csv", Cells: []CellEdit{{1, 1, "5000"}}, At: "nodes.csv:2", Says: "column label: 5000 is out of range [0, "},
	{Name: "split unknown", File: "nodes.csv", Cells: []CellEdit{{1, 2, "Train"}}, At: "nodes.csv:2", Says: `column split: "Train" is not train, test, val or unlabelled`},
	{Name: "feature not finite", File: "nodes.csv", Cells: []CellEdit{{1, 3, "1e999"}}, At: "nodes.csv:2", Says: `column x0: "1e999" is too large to be a finite number`},
	{Name: "feature nan", File: "nodes.csv", Cells: []CellEdit{{2, 3, "nan"}}, At: "nodes.csv:3", Says: `column x0: "nan" is not a decimal number`},
	{Name: "row too wide", File: "nodes.csv", Cells: []CellEdit{{1, 3, "1,2"}}, At: "nodes.csv:2", Says: "extra column: "},
	{Name: "node header", File: "nodes.csv", Cells: []CellEdit{{0, 1, "class"}}, At: "nodes.csv:1", Says: "header must start with id,label,split"},
}

// Spoil is the check's change to its file's text b (File's, in a bundle
// as the explorer writes it); the test writes it back.
func (c BundleCheck) Spoil(b []byte) ([]byte, error) {
	if c.Meta != nil {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, err
		}
		for k, v := range c.Meta {
			m[k] = json.RawMessage(v)
		}
		var err error
		if b, err = json.MarshalIndent(m, "", "  "); err != nil {
			return nil, err
		}
	}
	lines := strings.Split(string(b), "\n")
	for _, e := range c.Cells {
		cells := strings.Split(lines[e.Row], ",")
		cells[e.Col] = e.Text
		lines[e.Row] = strings.Join(cells, ",")
	}
	if c.HeaderAt > 0 {
		lines[c.HeaderAt] = lines[0]
	}
	if c.Rows > 0 {
		lines = append(lines[:c.Rows], "")
	}
	return []byte(strings.Join(lines, "\n")), nil
}
