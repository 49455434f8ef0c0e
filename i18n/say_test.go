package i18n_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"unicode"

	"pdnexplorer/datasets"
	"pdnexplorer/experiment"
	"pdnexplorer/i18n"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/pdn"
)

// saidWrong are errors the page shows, made as a user makes them: a bad
// link, bad files, a bad edit, a run too large, a diverging loss.
func saidWrong(t *testing.T) map[string]error {
	t.Helper()
	out := map[string]error{}
	_, out["link"] = experiment.Decode("lab=graph&lr=abc&bogus=1&classes=99&edits=a1-1&models=gat,gat&step=99&tour=graph&" + strings.Repeat("x=1&", 10))
	open := func(name string, files ...datasets.File) {
		_, _, out[name] = datasets.OpenFiles(files, datasets.Columns{})
	}
	open("no files")
	open("binary", datasets.File{Name: "edges.csv", Data: []byte{0, 1, 2, 0xff, 0}})
	open("utf-16", datasets.File{Name: "edges.csv", Data: []byte{0xff, 0xfe, 'a', 0, ',', 0}})
	open("ragged", datasets.File{Name: "edges.csv", Data: []byte("source,target\n0,1\n1,2,3\n")},
		datasets.File{Name: "target.csv", Data: []byte("id,target\n0,a\n1,b\n2,a\n")})
	open("open class", datasets.File{Name: "edges.csv", Data: []byte("id_1,id_2\n0,1\n")}, datasets.File{Name: "features.json", Data: []byte("{}")},
		datasets.File{Name: "target.csv", Data: []byte("id,colour,shape\n0,red,round\n1,red,square\n2,blue,round\n3,blue,square\n")})
	open("graphml", datasets.File{Name: "g.graphml", Data: []byte("<graphml><graph><node id='a'/><edge source='a' target='b'/></graph></graphml>")})
	open("zip", datasets.File{Name: "g.zip", Data: []byte("PK not a zip")})
	g, err := datasets.Build(experiment.Default().Data)
	if err != nil {
		t.Fatal(err)
	}
	_, out["edit"] = datasets.Make(experiment.Data{Edits: "a0-1c5-9"}, datasets.Given(g))
	_, out["edit node"] = datasets.Make(experiment.Data{Edits: "a0-99999"}, datasets.Given(g))
	big := pdn.ShapeOf(g)
	big.N, big.E = 2_000_000, 50_000_000
	out["cost"] = pdn.Estimate(big, experiment.Default().Model).Check(pdn.BrowserLimits, nil)
	out["diverged"] = &pdn.DivergedError{Epoch: 3, Loss: math.Inf(1), LR: 5}
	out["unstable"] = &pdn.UnstableError{From: 1, To: 20, Epoch: 9, LR: 0.5}
	out["input"] = &pdn.InputError{Loss: math.Inf(1), Scale: pdn.Scale{MaxX: 1e9}}
	for name, err := range out {
		if err == nil {
			t.Errorf("%s: no error to say", name)
			delete(out, name)
		}
	}
	return out
}

// TestReadersSpeakEveryLanguage checks that every word of what the
// readers, the state table and the engine say comes from the catalogues:
// each message and each message it holds has a key every language
// translates.
func TestReadersSpeakEveryLanguage(t *testing.T) {
	for name, err := range saidWrong(t) {
		text := phrase.Of(err)
		if text.String() != err.Error() {
			t.Errorf("%s: the message %q is not the error %q", name, text, err)
		}
		for _, key := range keysOf(text) {
			for _, l := range i18n.Languages {
				if !i18n.Has(l.Code, key) {
					t.Errorf("%s: %s lacks %q (in %q)", name, l.Code, key, err)
				}
			}
		}
		es := text.In(func(k string) string { return i18n.T("es", k) })
		if es == err.Error() {
			t.Errorf("%s: the same in Spanish as in English: %q", name, es)
		}
	}
}

// keysOf lists t's keys and those of the messages it holds that have
// words (a key of verbs and marks alone, "%s: %s", says nothing).
func keysOf(t phrase.Text) []string {
	var out []string
	if strings.ContainsFunc(verb.ReplaceAllString(t.Key, ""), unicode.IsLetter) {
		out = append(out, t.Key)
	}
	for _, a := range t.Args {
		if a.T != nil {
			out = append(out, keysOf(*a.T)...)
		}
	}
	return out
}

func ExampleT() {
	fmt.Println(i18n.T("es", "Your graph was not opened: %s"))
	// Output: Tu grafo no se abrió: %s
}

// A damaged catalogue is refused in the page's words, with the byte where
// it breaks off, and nothing of it is spoken.
func TestDamagedCatalogueIsSaidInThePagesWords(t *testing.T) {
	err := i18n.Add("es", []byte(`{"a": "b",`))
	var p phrase.Phrased
	if !errors.As(err, &p) {
		t.Fatalf("Add of a damaged catalogue: %v, want a phrase", err)
	}
	if got, want := p.Phrase().Key, "%s.json is not a catalogue of words this page reads: it breaks off at byte %d"; got != want {
		t.Errorf("the message's key is %q, want %q", got, want)
	}
	if !strings.Contains(err.Error(), "es.json") || !strings.Contains(err.Error(), "byte 10") {
		t.Errorf("the message %q names neither the file nor the byte", err)
	}
}
