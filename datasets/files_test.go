package datasets

import (
	"archive/zip"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"pdnexplorer/experiment"
	"pdnexplorer/internal/numtext"
)

// zipOf packs files into a zip archive.
func zipOf(t testing.TB, files map[string]string) []byte {
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
	}{{"files", musae}, {"zip with a folder", nested}, {"zip without one", flat}, {"exactly the limit (audit case 151)", atTheLimit(musae)}} {
		g, resplit, err := OpenFiles(tc.files, Columns{})
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
		{"twice", []File{{Name: "a/edges.csv"}, {Name: "a/edges.csv"}}, "given twice"},
		{"too large", []File{{Name: "x.csv", Data: make([]byte, MaxLocalBytes+1)}}, numtext.Group(MaxLocalBytes)},
		{"not a zip", []File{{Name: "x.zip", Data: []byte("PK not really")}}, "not a zip archive"},
		{"not a graph", []File{{Name: "notes.txt", Data: []byte("hello")}}, "meta.json"},
	} {
		if _, _, err := OpenFiles(tc.files, Columns{}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// atTheLimit is files with a notes.txt beside them that brings their
// bytes to exactly MaxLocalBytes: the most the explorer opens, opened.
func atTheLimit(files []File) []File {
	total := 0
	for _, f := range files {
		total += len(f.Data)
	}
	return append(append([]File(nil), files...), File{Name: "notes.txt", Data: make([]byte, MaxLocalBytes-total)})
}

// Zips as people make them open: Finder's (a top folder and __MACOSX/),
// Windows' and zip -r's (a top folder), a zip in a zip, a folder beside a
// README; and what cannot open says what it found.
func TestZipLayouts(t *testing.T) {
	in := func(prefix string, files map[string]string) map[string]string {
		out := map[string]string{}
		for k, v := range files {
			out[prefix+k] = v
		}
		return out
	}
	finder := in("facebook/", tinyMUSAE)
	finder["__MACOSX/facebook/._edges.csv"] = "\x00\x05\x16\x07 resource fork"
	finder["facebook/.DS_Store"] = "\x00\x00\x00\x01Bud1"
	withReadme := in("data/facebook/", tinyMUSAE)
	withReadme["data/README.txt"] = "Facebook Page-Page, from the MUSAE paper"
	ogb := in("arxiv/", tinyOGB(t))
	for _, tc := range []struct {
		name  string
		files []File
	}{
		{"finder", []File{{Name: "facebook.zip", Data: zipOf(t, finder)}}},
		{"a folder in a folder beside a readme", []File{{Name: "data.zip", Data: zipOf(t, withReadme)}}},
		{"a zip in a zip", []File{{Name: "outer.zip", Data: zipOf(t, map[string]string{"inner.zip": string(zipOf(t, tinyMUSAE))})}}},
		{"an OGB folder", []File{{Name: "arxiv.zip", Data: zipOf(t, ogb)}}},
		{"a dropped folder with subfolders", filesOf(ogb)},
	} {
		if g, _, err := OpenFiles(tc.files, Columns{}); err != nil || g.N < 4 {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	two := in("a/", tinyMUSAE)
	for k, v := range in("b/", tinyMUSAE) {
		two[k] = v
	}
	for _, tc := range []struct {
		name  string
		files []File
		want  string
	}{
		{"two graphs", []File{{Name: "two.zip", Data: zipOf(t, two)}}, "two.zip: holds 2 graphs (a/, b/): open one graph at a time"},
		{"empty", []File{{Name: "empty.zip", Data: zipOf(t, map[string]string{})}}, "empty.zip: is empty"},
		{"only a macOS fork", []File{{Name: "fork.zip", Data: zipOf(t, map[string]string{"__MACOSX/._a": "x"})}}, "fork.zip: is empty"},
		{"leaves the folder", []File{{Name: "evil.zip", Data: zipOf(t, map[string]string{"../../edges.csv": "x"})}}, `evil.zip: the name "../../edges.csv" leaves its folder (..): refused`},
		{"beside loose files", []File{{Name: "g.zip", Data: zipOf(t, tinyMUSAE)}, {Name: "notes.txt"}}, "g.zip: a zip archive is unpacked only when it is opened alone"},
		{"three deep", []File{{Name: "1.zip", Data: zipOf(t, map[string]string{"2.zip": string(zipOf(t, map[string]string{"3.zip": string(zipOf(t, tinyMUSAE))}))})}}, "a zip inside a zip inside a zip"},
		{"a pad one byte over the bound packed small (audit case 152)", []File{{Name: "bomb.zip", Data: zipOf(t, map[string]string{"pad.txt": strings.Repeat("x", MaxLocalBytes+1)})}}, "bomb.zip: unpacks to " + numtext.Group(MaxLocalBytes+1) + " bytes; the explorer opens up to " + numtext.Group(MaxLocalBytes)},
		{"a zip and a file (audit case 43)", []File{{Name: "zip_r.zip", Data: zipOf(t, tinyMUSAE)}, {Name: "edges.csv"}}, "zip_r.zip: a zip archive is unpacked only when it is opened alone, and it came with 1 other files"},
		{"not a graph", []File{{Name: "photos.zip", Data: zipOf(t, map[string]string{"holiday/a.jpg": "x", "holiday/b.jpg": "y"})}}, "the files hold a.jpg, b.jpg, which is not a graph"},
	} {
		if _, _, err := OpenFiles(tc.files, Columns{}); err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// filesOf is a dropped folder: its files with their paths.
func filesOf(files map[string]string) []File {
	var out []File
	for k, v := range files {
		out = append(out, File{Name: k, Data: []byte(v)})
	}
	return out
}

// The command line opens what the page saves and what people zip: a zip
// file and a GraphML file, by path.
func TestLoadPaths(t *testing.T) {
	dir := t.TempDir()
	zipPath := filepath.Join(dir, "facebook.zip")
	os.WriteFile(zipPath, zipOf(t, map[string]string{"facebook/target.csv": tinyMUSAE["target.csv"], "facebook/edges.csv": tinyMUSAE["edges.csv"], "facebook/features.json": tinyMUSAE["features.json"]}), 0o644)
	gml := filepath.Join(dir, "club.graphml")
	os.WriteFile(gml, []byte(tinyGraphML), 0o644)
	other := filepath.Join(dir, "notes.txt")
	os.WriteFile(other, []byte("hello"), 0o644)
	// A folder whose graph is in its one subfolder, beside other files (a
	// run's export: run_pyg.py, weights.json, graph/).
	export := filepath.Join(dir, "export")
	os.MkdirAll(filepath.Join(export, "graph"), 0o755)
	os.WriteFile(filepath.Join(export, "run_pyg.py"), []byte("print(1)\n"), 0o644)
	for name, body := range tinyMUSAE {
		os.WriteFile(filepath.Join(export, "graph", name), []byte(body), 0o644)
	}
	d := experiment.Default().Data
	for _, p := range []string{zipPath, gml, export} {
		if g, err := Load(p, d, false); err != nil || g.N != 4 || g.D == 0 {
			t.Errorf("%s: %v", p, err)
		}
	}
	if _, err := Load(other, d, false); err == nil || !strings.Contains(err.Error(), "notes.txt: is a file; a graph is") {
		t.Errorf("a text file: %v", err)
	}
}

// A zip named on the command line is read as it streams, never unpacked
// whole: a zip of a few kilobytes whose labels file ends in 32 MB of blank
// lines (a zip bomb, shrunk) reads as its folder would,
// allocating a fraction of what it unpacks to.
func TestZipStreams(t *testing.T) {
	files := map[string]string{
		"edges.csv":  "a,b\nb,c\nc,d\n",
		"labels.csv": "id,label\na,x\nb,y\nc,x\nd,y\n" + strings.Repeat("\n", 32<<20),
	}
	p := filepath.Join(t.TempDir(), "bomb.zip")
	if err := os.WriteFile(p, zipOf(t, files), 0o644); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	g, err := Load(p, experiment.Default().Data, false)
	runtime.ReadMemStats(&after)
	if err != nil || g.N != 4 {
		t.Fatalf("%v, %v", g, err)
	}
	if allocated := after.TotalAlloc - before.TotalAlloc; allocated > 8<<20 {
		t.Errorf("reading a zip that unpacks to 32 MB allocated %d bytes: it was unpacked whole, not streamed", allocated)
	}
}

// A message that lists a folder's files lists a few and says how many
// more: a folder of 20,002 table files is said in a line, not in 229 kB.
func TestManyFilesAreSaidInALine(t *testing.T) {
	files := map[string]string{}
	for i := range 20002 {
		files[fmt.Sprintf("f%05d.csv", i)] = "0,1\n"
	}
	_, _, err := Open(mapFS(files), Columns{})
	if err == nil || len(err.Error()) > 600 || !strings.Contains(err.Error(), "f00000.csv, f00001.csv, f00002.csv, f00003.csv, f00004.csv, f00005.csv and 19,996 more") {
		t.Errorf("%.800v", err)
	}
}
