package i18n_test

import (
	"encoding/json"
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"pdnexplorer/experiment"
	"pdnexplorer/i18n"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/tiestrength"
)

var update = flag.Bool("update", false, "write en.json from the sources")

// marks are the calls that take a key, and which of their arguments it
// is: the page's own (tr, trf, msg, words), package phrase's New, Errorf
// and Quantity (a number with its unit, called Quantity inside phrase),
// and the readers' locating helpers (t.errorf(col, key, …),
// r.errorAt(line, col, key, …)).
var marks = map[string]int{"tr": 0, "trf": 0, "msg": 0, "words": 0, "phrase.New": 0, "phrase.Errorf": 0, "phrase.Quantity": 0, "Quantity": 0, "errorf": 1, "errorAt": 2}

// sourceDirs are the packages whose words the page shows: its own, and
// those whose messages reach it (the readers, the state table's checks,
// the engine's refusals, the worker's and the figures').
var sourceDirs = []string{"app", "datasets", "experiment", "pdn", "pyg", "wasm/worker", "wasm/protocol", "wasm/fetch", "wasm/site", "viz", "internal/input", "i18n", "i18n/phrase"}

// commandLineOnly are the packages that build messages whose words only
// the command line says, in English.
var commandLineOnly = []string{"cmd/pdn"}

// Every package that builds messages (imports package phrase) has its
// keys in the catalogues, or is said to speak to the command line only:
// a new package whose messages reach the page cannot leave them out.
func TestEveryPackageOfMessagesIsRead(t *testing.T) {
	err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != ".." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(strings.TrimPrefix(path, "../")))
		for _, im := range f.Imports {
			if im.Path.Value == strconv.Quote("pdnexplorer/i18n/phrase") && !slices.Contains(sourceDirs, dir) && !slices.Contains(commandLineOnly, dir) {
				t.Errorf("%s builds messages (it imports package phrase) but is not in sourceDirs: its words are in no catalogue", path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// sourceKeys are the keys the code holds: the key argument of every
// marked call in sourceDirs, a string literal or a string constant (a key
// held in a variable, as a table's, comes from tableKeys). A key
// without a letter ("%s: %s") says nothing to translate and is left out.
func sourceKeys(t *testing.T) []string {
	t.Helper()
	var keys []string
	for _, dir := range sourceDirs {
		keys = append(keys, dirKeys(t, "../"+dir)...)
	}
	return slices.DeleteFunc(keys, func(k string) bool {
		return strings.Contains(k, "%") && !strings.ContainsFunc(verb.ReplaceAllString(k, ""), unicode.IsLetter)
	})
}

// verb matches a fmt verb, to tell a key of words from one of verbs alone.
var verb = regexp.MustCompile(`%[-+# 0-9.\[\]]*[a-zA-Z%]`)

// dirKeys are the keys of one package's files.
func dirKeys(t *testing.T, dir string) []string {
	paths, err := filepath.Glob(dir + "/*.go")
	if err != nil {
		t.Fatal(err)
	}
	fs := token.NewFileSet()
	var files []*ast.File
	consts := map[string]string{} // the package's string constants
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fs, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
		ast.Inspect(f, func(n ast.Node) bool {
			if v, ok := n.(*ast.ValueSpec); ok {
				for i, name := range v.Names {
					if i < len(v.Values) {
						if s, ok := literal(v.Values[i]); ok {
							consts[name.Name] = s
						}
					}
				}
			}
			return true
		})
	}
	var keys []string
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			at, marked := marks[callName(call.Fun)]
			if !marked || at >= len(call.Args) {
				return true
			}
			if s, ok := literal(call.Args[at]); ok {
				keys = append(keys, s)
			} else if id, ok := call.Args[at].(*ast.Ident); ok && consts[id.Name] != "" {
				keys = append(keys, consts[id.Name])
			}
			return true
		})
	}
	return keys
}

// callName is a call's function as written: tr, phrase.New, or a
// method's own name (t.errorf is errorf).
func callName(fun ast.Expr) string {
	switch f := fun.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		if x, ok := f.X.(*ast.Ident); ok && x.Name == "phrase" {
			return "phrase." + f.Sel.Name
		}
		return f.Sel.Name
	}
	return ""
}

// literal folds a string literal, or a sum of them, into its value.
func literal(e ast.Expr) (string, bool) {
	switch x := e.(type) {
	case *ast.BasicLit:
		if x.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(x.Value)
		return s, err == nil
	case *ast.BinaryExpr:
		a, ok1 := literal(x.X)
		b, ok2 := literal(x.Y)
		return a + b, ok1 && ok2 && x.Op == token.ADD
	case *ast.ParenExpr:
		return literal(x.X)
	}
	return "", false
}

// tableKeys are the words of the experiment package's tables the page
// shows: the labs' and their runs' titles, the controls' words and help,
// the presets, the claims and the tours.
func tableKeys() []string {
	var keys []string
	for _, l := range experiment.Labs {
		keys = append(keys, l.Title, l.Intro)
		if l.Queue {
			continue // the sweep's runs are named by their model and value
		}
		for _, r := range l.Runs(experiment.ForLab(l.Name)) {
			if r.Title != r.Exp.Model.Kind { // a model's name is no word
				keys = append(keys, r.Title)
			}
		}
	}
	keys = append(keys, experiment.LayerTitles[:]...) // the multiplex lab's runs for every count of layers
	for _, p := range experiment.Params {
		keys = append(keys, p.Label, p.Usage, p.Form)
	}
	keys = append(keys, experiment.GraphFormats)
	for _, p := range experiment.Presets {
		keys = append(keys, p.Title)
	}
	for _, p := range experiment.Perturbations {
		keys = append(keys, p.Title)
	}
	for _, n := range tiestrength.Names {
		keys = append(keys, tiestrength.Label(n), tiestrength.ShortLabel(n))
	}
	for _, c := range experiment.Claims {
		keys = append(keys, c.Text, c.Paper, c.Differs)
		for _, o := range c.On {
			keys = append(keys, o.Differs)
		}
	}
	for _, f := range experiment.Families {
		keys = append(keys, f.Label)
	}
	for _, g := range experiment.ModelGroups {
		keys = append(keys, g.Heading)
	}
	for _, t := range experiment.Tours {
		keys = append(keys, t.Title)
		for _, s := range t.Steps {
			keys = append(keys, s.Title, s.Text)
			if q := s.Question; q != nil {
				keys = append(keys, q.Ask)
				keys = append(keys, q.Choices...)
			}
		}
	}
	return keys
}

// allKeys is every key, sorted, once each.
func allKeys(t *testing.T) []string {
	keys := append(sourceKeys(t), tableKeys()...)
	keys = slices.DeleteFunc(keys, func(k string) bool { return strings.TrimSpace(k) == "" })
	slices.Sort(keys)
	return slices.Compact(keys)
}

// TestEnglishHasEveryKey checks that en.json lists exactly the keys the
// page's code and tables hold (go test -update writes it).
func TestEnglishHasEveryKey(t *testing.T) {
	keys := allKeys(t)
	if *update {
		b, err := json.MarshalIndent(keys, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("en.json", append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	have := i18n.Keys()
	for _, k := range keys {
		if !slices.Contains(have, k) {
			t.Errorf("en.json lacks %q (go test ./i18n -update)", k)
		}
	}
	for _, k := range have {
		if !slices.Contains(keys, k) {
			t.Errorf("en.json has %q, which no code or table uses (go test ./i18n -update)", k)
		}
	}
}

// TestEveryCatalogueHasEveryKey checks each language: a translation for
// every key English has, none for a key it lacks, and the same fmt verbs
// as the key, so that a translation formats the same values.
func TestEveryCatalogueHasEveryKey(t *testing.T) {
	for _, l := range i18n.Languages[1:] {
		t.Run(l.Code, func(t *testing.T) {
			missing := 0
			for _, k := range i18n.Keys() {
				if !i18n.Has(l.Code, k) {
					missing++
					if missing <= 10 {
						t.Errorf("%s.json lacks %q", l.Code, k)
					}
					continue
				}
				if got, want := phrase.Slots(i18n.T(l.Code, k)), phrase.Slots(k); !slices.Equal(got, want) {
					t.Errorf("%s.json: %q has verbs %v, its key %v", l.Code, i18n.T(l.Code, k), got, want)
				}
			}
			if missing > 10 {
				t.Errorf("… and %d more keys missing", missing-10)
			}
			for _, k := range i18n.CatalogueKeys(l.Code) {
				if !i18n.Has(i18n.English, k) {
					t.Errorf("%s.json has %q, which English lacks", l.Code, k)
				}
			}
		})
	}
}
