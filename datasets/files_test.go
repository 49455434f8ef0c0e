package datasets

import (
	"archive/zip"
	"bytes"
	"strings"
	"testing"
)

// zipOf packs files into a zip archive.
func zipOf(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for name, data := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(data))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// The user's files open as the CLI's folders do: a MUSAE folder's files
// (with a path before their names), or a zip of them with or without a top
// folder; a bad set is refused by name.
func TestOpenFiles(t *testing.T) {
	var musae, nested []File
	inFolder := map[string]string{}
	for name, data := range tinyMUSAE {
		musae = append(musae, File{Name: "facebook/" + name, Data: []byte(data)})
		inFolder["facebook/"+name] = data
	}
	nested = []File{{Name: "facebook.zip", Data: zipOf(t, inFolder)}}
	flat := []File{{Name: "flat.ZIP", Data: zipOf(t, tinyMUSAE)}}
	for _, tc := range []struct {
		name  string
		files []File
	}{{"files", musae}, {"zip with a folder", nested}, {"zip without one", flat}} {
		g, resplit, err := OpenFiles(tc.files)
		if err != nil || g.N != 4 || !resplit || g.D != len(TieStrengthNames) || len(g.Kind) != g.E() {
			t.Errorf("%s: %v, resplit %v, %v", tc.name, g, resplit, err)
		}
	}
	for _, tc := range []struct {
		name  string
		files []File
		want  string
	}{
		{"none", nil, "no files"},
		{"twice", []File{{Name: "a/edges.csv"}, {Name: "b/edges.csv"}}, "given twice"},
		{"too large", []File{{Name: "x.csv", Data: make([]byte, MaxLocalBytes+1)}}, "67,108,864"},
		{"not a zip", []File{{Name: "x.zip", Data: []byte("PK not really")}}, "not a zip archive"},
		{"not a graph", []File{{Name: "notes.txt", Data: []byte("hello")}}, "meta.json"},
	} {
		if _, _, err := OpenFiles(tc.files); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}
