package i18n_test

import (
	"encoding/json"
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"pdnexplorer/experiment"
	"pdnexplorer/i18n"
)

var update = flag.Bool("update", false, "write en.json from the sources")

// marks are the page's calls whose first argument is a key.
var marks = map[string]bool{"tr": true, "trf": true, "msg": true, "words": true}

// sourceKeys are the keys the page's code holds: the literal first
// argument of every tr, trf, msg and words call in package app.
func sourceKeys(t *testing.T) []string {
	t.Helper()
	paths, err := filepath.Glob("../app/*.go")
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		fs := token.NewFileSet()
		f, err := parser.ParseFile(fs, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			if id, ok := call.Fun.(*ast.Ident); ok && marks[id.Name] {
				if s, ok := literal(call.Args[0]); ok {
					keys = append(keys, s)
				}
			}
			return true
		})
	}
	return keys
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
// the presets and the tours.
func tableKeys() []string {
	var keys []string
	for _, l := range experiment.Labs {
		keys = append(keys, l.Title)
		if l.Queue {
			continue // the sweep's runs are named by their model and value
		}
		for _, r := range l.Runs(experiment.ForLab(l.Name)) {
			if r.Title != r.Exp.Model.Kind { // a model's name is no word
				keys = append(keys, r.Title)
			}
		}
	}
	for _, p := range experiment.Params {
		keys = append(keys, p.Label, p.Usage)
	}
	for _, p := range experiment.Presets {
		keys = append(keys, p.Title)
	}
	for _, t := range experiment.Tours {
		keys = append(keys, t.Title)
		for _, s := range t.Steps {
			keys = append(keys, s.Title, s.Text)
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
				if got, want := verbs(i18n.T(l.Code, k)), verbs(k); !slices.Equal(got, want) {
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

// verbs are a message's fmt verbs, sorted: a translation may reorder
// them ("%[2]s … %[1]d") but must keep each.
func verbs(s string) []string {
	var out []string
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			continue
		}
		j := i + 1
		for j < len(s) && strings.ContainsRune("+-# 0123456789.[]", rune(s[j])) {
			j++
		}
		if j < len(s) {
			v := s[i : j+1]
			if k := strings.Index(v, "]"); k >= 0 { // %[2]s is an s
				v = "%" + v[k+1:]
			}
			out = append(out, v)
		}
		i = j
	}
	slices.Sort(out)
	return out
}
