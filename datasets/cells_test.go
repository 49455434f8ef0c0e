package datasets

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/faults"
)

// TestEveryClassOnEveryFormat is the class × surface table's reader
// part: every class of internal/faults on every row of formats (each
// fixture of the row, on each way files reach Open: a folder, the page's
// files, a zip, a path on the command line). A new row, or a new class,
// without its cell fails here.
func TestEveryClassOnEveryFormat(t *testing.T) {
	var names []string
	for _, f := range formats() {
		names = append(names, f.name)
	}
	fixtures := faultFixtures(t)
	cells := map[faults.Key]faults.Cell{}
	for _, name := range names {
		check := func(f func(t *testing.T, format string, fxs []faultFixture)) faults.Cell {
			return faults.Cell{Check: func(t *testing.T) {
				if len(fixtures[name]) == 0 {
					t.Fatalf("format %s has no fixtures (faultFixtures)", name)
				}
				f(t, name, fixtures[name])
			}}
		}
		cells[faults.Key{Class: faults.Numbers, Surface: name}] = check(numberCells)
		cells[faults.Key{Class: faults.Unlabelled, Surface: name}] = check(func(t *testing.T, format string, _ []faultFixture) { unlabelledCells(t, format) })
		cells[faults.Key{Class: faults.Text, Surface: name}] = check(func(t *testing.T, format string, fxs []faultFixture) {
			for _, fx := range fxs {
				t.Run(fx.name, func(t *testing.T) { encodingFaults(t, fx, fixtureReads(t, format, fx)) })
			}
		})
		cells[faults.Key{Class: faults.Compressed, Surface: name}] = check(func(t *testing.T, format string, fxs []faultFixture) {
			for _, fx := range fxs {
				t.Run(fx.name, func(t *testing.T) {
					compressionFaults(t, fx, fixtureReads(t, format, fx))
					zipEntryFaults(t, fx)
				})
			}
		})
		cells[faults.Key{Class: faults.Special, Surface: name}] = specialFilesCell(name, fixtures[name])
		cells[faults.Key{Class: faults.Structure, Surface: name}] = check(func(t *testing.T, format string, fxs []faultFixture) {
			structureCells(t, format)
			for _, fx := range fxs {
				t.Run(fx.name, func(t *testing.T) { fixtureReads(t, format, fx); twiceFaults(t, fx); edgeBoundFaults(t, fx) })
			}
		})
		cells[faults.Key{Class: faults.Rows, Surface: name}] = check(columnCells)
		cells[faults.Key{Class: faults.Link, Surface: name}] = faults.NA("a reader is given files, not a link: what a link asks of a reader (its columns) is the rows' cell here, and a link's own cells are the labs'")
		cells[faults.Key{Class: faults.Outputs, Surface: name}] = faults.NA("a reader writes nothing")
		cells[faults.Key{Class: faults.Script, Surface: name}] = faults.NA("run_pyg.py reads the bundle an export writes, which its own cells try")
	}
	faults.Check(t, names, cells)
}

// numberEdits are, for each format, a number in one of its fixtures'
// files written as strconv would read it and the explorer refuses: the
// file, the number as the fixture writes it, and where it is.
var numberEdits = map[string][]struct{ fixture, file, old, at string }{
	"bundle": {
		{"bundle", "nodes.csv", "0,0,train,1\n", "0,0,train,%s\n"},
		{"bundle", "edges.csv", "0,1,inter,0.5\n", "0,1,inter,%s\n"},
	},
	"MUSAE": {{"FEATHER (karate club)", "features.csv", "0,0,1\n", "0,0,%s\n"}},
	"OGB": {
		{"OGB folder", "raw/node-feat.csv.gz", "0.1,0.2\n", "%s,0.2\n"},
		{"OGB folder", "raw/edge-feat.csv.gz", "1,0\n", "%s,0\n"},
		{"OGB folder", "raw/node-label.csv.gz", "0\n1\n", "0\n%s\n"},
	},
	"GraphML":        {{"GraphML (NetworkX)", "club.graphml", `<data key="d1">`, `<data key="d1">%s`}},
	"GEXF":           {{"GEXF (NetworkX)", "club.gexf", `<attvalue for="1" value="3" />`, `<attvalue for="1" value="%s" />`}, {"GEXF (NetworkX)", "club.gexf", `weight="2"`, `weight="%s"`}},
	"node-link JSON": {{"node-link JSON (NetworkX)", "club.json", `"age": 3,`, `"age": %s,`}, {"node-link JSON (NetworkX)", "club.json", `{"actor": 1, "note"`, `{"actor": %s, "note"`}},
	"edge list":      {{"CSV", "edges.csv", "a,b\n", "source,target,weight\na,b,%s\n"}},
	"Matrix Market":  {{"Matrix Market gzipped, weighted, labels.csv", "club.mtx.gz", "1 2 0.5\n", "1 2 %s\n"}},
}

// numberCells puts, in each of numberEdits, a hexadecimal float, an
// infinity, a NaN and digits with an underscore where the format holds a
// number: each is refused naming the file and the value, or, where a
// column of a node table may hold text, read as text and said so; never
// read as the number strconv makes of it.
func numberCells(t *testing.T, format string, fxs []faultFixture) {
	if format == "npz" {
		binaryNumberCells(t, fxs[0])
		return
	}
	edits := numberEdits[format]
	if len(edits) == 0 {
		t.Fatalf("format %s has no number to spoil in numberEdits", format)
	}
	for _, ed := range edits {
		i := slices.IndexFunc(fxs, func(fx faultFixture) bool { return fx.name == ed.fixture })
		if i < 0 {
			t.Fatalf("no fixture %q", ed.fixture)
		}
		fx := fxs[i]
		for _, bad := range []string{"0x1p-2", "Inf", "NaN", "1_0"} {
			if bad == "NaN" && strings.Contains(ed.file, "node-label") {
				continue // OGB's mark of a node without a class: the unlabelled cells'
			}
			files := cloneFiles(fx.files)
			text := textOf(t, ed.file, files[ed.file])
			if !strings.Contains(text, ed.old) {
				t.Fatalf("%s holds no %q", ed.file, ed.old)
			}
			spoiled := strings.Replace(text, ed.old, strings.Replace(ed.at, "%s", bad, 1), 1)
			if ed.file == "edges.csv" && format == "edge list" {
				spoiled = strings.Replace(spoiled, "b,c\n", "b,c,1\n", 1)
				spoiled = strings.Replace(spoiled, "c,d\n", "c,d,1\n", 1)
			}
			files[ed.file] = withText(t, ed.file, spoiled)
			for _, s := range surfaces {
				g, err := s.open(t, files)
				where := ed.file + " " + bad + " " + s.name
				switch {
				case err != nil:
					if !strings.Contains(err.Error(), bad) || !namesAFile(err) {
						t.Errorf("%s: %v; want the value and the file named", where, err)
					}
				case !slices.ContainsFunc(g.Notes, func(n phrase.Text) bool { return strings.Contains(n.String(), bad) }):
					t.Errorf("%s: read without a word (notes %v)", where, g.Notes)
				}
			}
		}
	}
}

// columnCells are the rows that do not apply to a reader: columns chosen
// for a format whose columns are fixed (a bundle, an OGB folder), a
// column that is not there, a class column cut into bins when it holds
// no numbers. Each is refused by name.
func columnCells(t *testing.T, format string, fxs []faultFixture) {
	fx := fxs[0]
	fixed := format == "bundle" || format == "OGB" || format == "npz"
	for _, tc := range []struct {
		cols Columns
		want string
	}{
		{Columns{Target: "nosuch"}, "nosuch"},
		{Columns{ID: "nosuch"}, "nosuch"},
	} {
		_, _, err := Open(mapFS(fx.files), tc.cols)
		switch {
		case err == nil:
			t.Errorf("%+v: read", tc.cols)
		case fixed && !strings.Contains(err.Error(), "has no columns to choose"):
			t.Errorf("%+v: %v; want a format of fixed columns said so", tc.cols, err)
		case !strings.Contains(err.Error(), tc.want):
			t.Errorf("%+v: %v; want %q named", tc.cols, err, tc.want)
		}
	}
	// One column named as both the ids and the classes (audit 3's 13):
	// refused naming both flags where the format reads both, never the
	// repeat of a class taken for an id given twice.
	_, _, err := Open(mapFS(fx.files), Columns{ID: "2", Target: "2"})
	f, _ := formatOf(mapFS(fx.files))
	switch {
	case err == nil:
		t.Errorf("id-column and target both 2: read")
	case f.chooses == every && !strings.Contains(err.Error(), `-id-column "2" and -target "2" (id-column and target in a link) name this one column`):
		t.Errorf("id-column and target both 2: %v; want both flags named", err)
	case f.chooses != every && !strings.Contains(err.Error(), "-id-column"):
		t.Errorf("id-column and target both 2: %v; want -id-column refused", err)
	}
	if _, _, err := Open(mapFS(fx.files), Columns{Bins: 3}); err == nil {
		t.Errorf("bins 3 on %s's classes (no measurement): read", fx.name)
	}
}

// binaryNumberCells are the number cells of a binary format (a .npz),
// whose numbers are IEEE floats, never text: a hexadecimal float or
// digits with an underscore cannot arise, an infinity and a NaN can. Each
// in a float array is refused naming the file, the array and the value,
// on every surface.
func binaryNumberCells(t *testing.T, fx faultFixture) {
	for _, bad := range []float64{math.Inf(1), math.Inf(-1), math.NaN()} {
		files := map[string]string{"club.npz": npzOf(t, withArray(tinyNPZArrays(), npyArr{key: "attr_data", descr: "<f4", shape: []int{4}, data: f4(1, 1, bad, 1)}))}
		want := fmt.Sprintf("club.npz: attr_data: value 2 (at [2]) is %s: want finite numbers", fmtNum(bad))
		for _, s := range surfaces {
			if _, err := s.open(t, files); err == nil || !strings.HasPrefix(err.Error(), want) || !namesAFile(err) {
				t.Errorf("%v in attr_data, %s: %v; want %q", bad, s.name, err, want)
			}
		}
	}
	if fx.files["club.npz"] == "" {
		t.Fatalf("fixture %s holds no club.npz", fx.name)
	}
}
