package datasets

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var updateDocs = flag.Bool("update", false, "write docs/formats.md's formats table from the formats rows")

// formatGaps lists what rows lack of a format's parts, each gap naming
// the row and the part: its fuzz target (among fuzzTargets), its fixtures
// (the class × format cells and the formats tests read them), the
// library whose reading it follows, and its row in the docs' formats
// table (doc), which is written from the rows.
func formatGaps(rows []format, fuzzTargets []string, fixtures map[string][]faultFixture, doc string) []string {
	var gaps []string
	for _, f := range rows {
		if !slices.Contains(fuzzTargets, f.fuzz) {
			gaps = append(gaps, fmt.Sprintf("%s: no fuzz target (its row names %q, and the tests have %s)", f.name, f.fuzz, strings.Join(fuzzTargets, ", ")))
		}
		if len(fixtures[f.name]) == 0 {
			gaps = append(gaps, fmt.Sprintf("%s: no fixtures in faultFixtures (faults_test.go)", f.name))
		}
		if f.library == "" {
			gaps = append(gaps, fmt.Sprintf("%s: no library named whose reading it follows", f.name))
		}
		if !strings.Contains(doc, formatsDocRow(f)) {
			gaps = append(gaps, fmt.Sprintf("%s: no row in docs/formats.md's formats table, or an old one (go test ./datasets -run FormatsDoc -update)", f.name))
		}
	}
	return gaps
}

// fuzzTargets are the package's Fuzz functions, read from its tests.
func fuzzTargets(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && strings.HasPrefix(fd.Name.Name, "Fuzz") {
				names = append(names, fd.Name.Name)
			}
		}
	}
	slices.Sort(names)
	return names
}

// Every row of the formats table has its parts.
func TestEveryFormatHasItsParts(t *testing.T) {
	doc, err := os.ReadFile(formatsDocPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, gap := range formatGaps(formats(), fuzzTargets(t), faultFixtures(t), string(doc)) {
		t.Error(gap)
	}
}

// A format added as a reader and a row, without its fuzz target, its
// fixtures, its library or its docs entry, fails, each gap by name; with
// them it passes.
func TestAFormatWithoutItsPartsFails(t *testing.T) {
	pajek := format{name: "Pajek", says: "a Pajek file", find: func(fs.FS) (readFunc, bool) { return nil, false }}
	gaps := formatGaps([]format{pajek}, fuzzTargets(t), faultFixtures(t), "")
	for _, want := range []string{"Pajek: no fuzz target", "Pajek: no fixtures", "Pajek: no library", "Pajek: no row in docs/formats.md"} {
		if !slices.ContainsFunc(gaps, func(g string) bool { return strings.HasPrefix(g, want) }) {
			t.Errorf("a row without its parts: %q is not among %q", want, gaps)
		}
	}
	pajek.fuzz, pajek.library = "FuzzReadGraphML", "NetworkX's read_pajek"
	if gaps := formatGaps([]format{pajek}, fuzzTargets(t), map[string][]faultFixture{"Pajek": {{name: "net"}}}, formatsDocRow(pajek)); len(gaps) > 0 {
		t.Errorf("a row with its parts: %q", gaps)
	}
}

const (
	formatsDocPath  = "../docs/formats.md"
	formatsDocStart = "<!-- the formats table: written from datasets' formats rows by go test ./datasets -run FormatsDoc -update -->"
	formatsDocEnd   = "<!-- end of the formats table -->"
)

// formatsDocRow is a row's line in the docs' formats table.
func formatsDocRow(f format) string {
	file := "its folder, or a zip of it"
	if f.file != "" {
		file = "`" + f.file + "` alone, in a folder or in a zip"
	}
	return fmt.Sprintf("| %s | %s | %s | %s | %s | `%s` |", f.name, f.says, file, f.library, mergeWords[f.merges], f.fuzz)
}

// mergeWords say in the docs' table how each rule merges the values of a
// pair listed again.
var mergeWords = map[merging]string{
	mergeUnsaid:  "its edges carry no values",
	refusedAgain: "refused",
	lastKept:     "the last given, as NetworkX's Graph",
	summed:       "summed, as SciPy's and PyG's coalesce",
}

// formatsDoc is the docs' formats table, written from the rows, in the
// order Open tries them.
func formatsDoc() string {
	lines := []string{formatsDocStart, "", "| format | its files | given as | read as | a pair listed again | fuzz target |", "|---|---|---|---|---|---|"}
	for _, f := range formats() {
		lines = append(lines, formatsDocRow(f))
	}
	return strings.Join(append(lines, "", formatsDocEnd), "\n")
}

// The docs' formats table is the rows'; -update writes it.
func TestFormatsDoc(t *testing.T) {
	b, err := os.ReadFile(formatsDocPath)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	start, end := strings.Index(doc, formatsDocStart), strings.Index(doc, formatsDocEnd)
	if start < 0 || end < start {
		t.Fatalf("%s has no formats table between %q and %q", formatsDocPath, formatsDocStart, formatsDocEnd)
	}
	got, want := doc[start:end+len(formatsDocEnd)], formatsDoc()
	if got == want {
		return
	}
	if !*updateDocs {
		t.Fatalf("%s's formats table is not the rows' (go test ./datasets -run FormatsDoc -update):\n%s", formatsDocPath, want)
	}
	if err := os.WriteFile(formatsDocPath, []byte(doc[:start]+want+doc[end+len(formatsDocEnd):]), 0o644); err != nil {
		t.Fatal(err)
	}
}
