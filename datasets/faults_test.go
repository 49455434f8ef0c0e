package datasets

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"pdnexplorer/experiment"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/numtext"
)

// The class × format cells of the readers' fault classes: for every row
// of formats, each of the ways its files come (a fixture), each file of
// it altered as each cell of a class says, on every surface that reads
// files (a folder, the page's files, a zip of them, a path on the command
// line), and the one behaviour the class's rule gives: refused at
// file:line:byte saying what to do, or read as the same graph, with the
// note. A row of formats without its fixtures fails TestFaultCells; a
// new reader is a new row and its fixtures here.
//
// The classes: text encodings, byte-order marks and line endings (one
// decoder, package input's Text); compressed files cut short or damaged
// (.gz and zip); special and unreadable files and names that are not
// UTF-8 (faults_unix_test.go, on disk).

// faultFixture is one way a format's files come: the files, a word of
// one of its text files (a class name) that the Latin-1 cells write in
// Latin-1, and the start of the names that the name cell spoils, as
// spoiled ("" for a format of fixed names: its folder's name is spoiled
// instead).
type faultFixture struct {
	name     string
	files    map[string]string
	wordFile string
	word     string
	rename   string
	spoiled  string // rename's new name, not UTF-8, still a name the format finds
	// named is what messages put before a file's name: OGB's raw/ files
	// given alone are read, and named, as the folder's raw/ files.
	named string
}

// shown is a file's name as the fixture's messages give it.
func (fx faultFixture) shown(file string) string { return fx.named + file }

// faultFixtures are each format row's fixtures, by the row's name: the
// formats tests' fixtures, with class names beyond ASCII.
func faultFixtures(t testing.TB) map[string][]faultFixture {
	musae := cloneFiles(tinyMUSAE)
	musae["target.csv"] = strings.ReplaceAll(musae["target.csv"], "tvshow", "télé")
	ogb := tinyOGB(t)
	ogb["mapping/labelidx2cat.csv.gz"] = gz("label idx,category\n0,cs.AI café\n1,cs.LG café\n2,cs.CL\n")
	flat := map[string]string{}
	for name, body := range tinyOGB(t) {
		if after, ok := strings.CutPrefix(name, "raw/"); ok {
			flat[after] = body
		}
	}
	content := "31336\t0\t1\t0\tNeural_Networks\n1061127\t1\t0\t0\tRègle_Learning\n1106406\t0\t0\t1\tNeural_Networks\n13195\t1\t1\t0\tRègle_Learning\n"
	cites := "31336\t1061127\n1061127\t1106406\n13195\t31336\n"
	labels := "id,label\na,café\nb,thé\nc,café\nd,thé\n"
	return map[string][]faultFixture{
		"bundle": {{
			name: "bundle",
			files: map[string]string{
				"meta.json": "{\n  \"name\": \"films\",\n  \"class_names\": [\"café\", \"thé\"]\n}\n",
				"nodes.csv": "id,label,split,x0\n0,0,train,1\n1,1,test,2\n2,1,train,3\n3,0,test,4\n",
				"edges.csv": "source,target,kind,e0\n0,1,inter,0.5\n1,2,intra,1.5\n2,3,inter,1\n",
			},
			wordFile: "meta.json", word: "é",
		}},
		"MUSAE": {
			{name: "MUSAE", files: musae, wordFile: "target.csv", word: "télé", rename: "target.csv", spoiled: "musae_\xe9_target.csv"},
			{name: "FEATHER (karate club)", files: map[string]string{
				"target.csv":   "id,target\n0,été\n1,hiver\n2,été\n3,hiver\n",
				"edges.csv":    "id_1,id_2\n0,1\n1,2\n2,3\n",
				"features.csv": "node_id,feature_id,value\n0,0,1\n1,1,1\n2,0,1\n3,2,1\n",
			}, wordFile: "target.csv", word: "été", rename: "features.csv", spoiled: "deezer_\xff_features.csv"},
		},
		"OGB": {
			{name: "OGB folder", files: ogb, wordFile: "mapping/labelidx2cat.csv.gz", word: "café", rename: "split/time/", spoiled: "split/ti\xe9me/"},
			{name: "OGB raw files alone", files: flat, named: "raw/"},
		},
		"GraphML": {{name: "GraphML (NetworkX)", files: map[string]string{"club.graphml": strings.ReplaceAll(tinyGraphML, "Officer", "Officié")}, wordFile: "club.graphml", word: "Officié", rename: "club.graphml", spoiled: "club_\xe9.graphml"}},
		"npz":     {{name: "GNN benchmark .npz", files: map[string]string{"club.npz": npzOf(t, tinyNPZArrays())}, rename: "club.npz", spoiled: "club_\xe9.npz"}},
		"Matrix Market": {
			{name: "Matrix Market (Network Repository)", files: map[string]string{
				"club.mtx":         "%%MatrixMarket matrix coordinate pattern symmetric\n% the path a-b-c-d\n4 4 3\n2 1\n3 2\n4 3\n",
				"club.node_labels": "1,café\n2,thé\n3,café\n4,thé\n",
			}, wordFile: "club.node_labels", word: "café", rename: "club.mtx", spoiled: "club_\xe9.mtx"},
			{name: "Matrix Market gzipped, weighted, labels.csv", files: map[string]string{
				"club.mtx.gz": gz("%%MatrixMarket matrix coordinate real general\n4 4 4\n1 2 0.5\n2 1 0.5\n2 3 1\n3 4 2\n"),
				"labels.csv":  "id,label\n1,café\n2,thé\n3,café\n4,thé\n",
			}, wordFile: "labels.csv", word: "café", rename: "labels.csv", spoiled: "labels_\xff.csv"},
		},
		"GEXF": {{name: "GEXF (NetworkX)", files: map[string]string{"club.gexf": strings.ReplaceAll(tinyGEXF, "Officer", "Officié")}, wordFile: "club.gexf", word: "Officié", rename: "club.gexf", spoiled: "club_\xe9.gexf"}},
		"node-link JSON": {
			{name: "node-link JSON (NetworkX)", files: map[string]string{"club.json": strings.ReplaceAll(tinyNodeLink, "Officer", "Officié")}, wordFile: "club.json", word: "Officié", rename: "club.json", spoiled: "club_\xe9.json"},
			{name: "node-link JSON (NetworkX 3.4, edges)", files: map[string]string{"karate.json": strings.ReplaceAll(strings.Replace(tinyNodeLink, `"links"`, `"edges"`, 1), "Mr. Hi", "Müller")}, wordFile: "karate.json", word: "Müller", rename: "karate.json", spoiled: "karat\xe9.json"},
		},
		"edge list": {
			{name: "CSV", files: map[string]string{"labels.csv": labels, "edges.csv": "a,b\nb,c\nc,d\n"}, wordFile: "labels.csv", word: "café", rename: "labels.csv", spoiled: "labels_\xff.csv"},
			{name: "Planetoid", files: map[string]string{"cora.content": content, "cora.cites": cites}, wordFile: "cora.content", word: "Règle", rename: "cora.content", spoiled: "cor\xe0.content"},
			{name: "gzipped edge list", files: map[string]string{"labels.csv": labels, "edges.csv.gz": gz("a,b\nb,c\nc,d\n")}, wordFile: "labels.csv", word: "café"},
		},
	}
}

func cloneFiles(m map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

// fingerprint is what a cell that reads compares with the fixture as it
// comes: its nodes, edges, classes and their names, and its features.
func fingerprint(g *Graph) string {
	return fmt.Sprintf("N %d E %d C %d F %d classes %q", g.N, g.E(), g.C, g.F, g.ClassNames)
}

// surface is one way files reach Open.
type surface struct {
	name string
	open func(t *testing.T, files map[string]string) (*Graph, error)
}

// surfaces are every way a graph's files are read: a folder, the page's
// files (Open files…, Open a folder…), a zip of them, a path on the
// command line, a zip on the command line (read as it streams).
var surfaces = []surface{
	{"folder", func(t *testing.T, files map[string]string) (*Graph, error) {
		g, _, err := Open(mapFS(files), Columns{})
		return g, err
	}},
	{"page", func(t *testing.T, files map[string]string) (*Graph, error) {
		var fs []File
		for name, body := range files {
			fs = append(fs, File{Name: "graph/" + name, Data: []byte(body)})
		}
		g, _, err := OpenFiles(fs, Columns{})
		return g, err
	}},
	{"zip", func(t *testing.T, files map[string]string) (*Graph, error) {
		g, _, err := OpenFiles([]File{{Name: "graph.zip", Data: zipOf(t, files)}}, Columns{})
		return g, err
	}},
	{"command line", func(t *testing.T, files map[string]string) (*Graph, error) {
		dir := t.TempDir()
		writeTree(t, dir, files)
		return Load(dir, experiment.Default().Data, false)
	}},
	{"zip on the command line", func(t *testing.T, files map[string]string) (*Graph, error) {
		p := filepath.Join(t.TempDir(), "graph.zip")
		if err := os.WriteFile(p, zipOf(t, files), 0o644); err != nil {
			t.Fatal(err)
		}
		return Load(p, experiment.Default().Data, false)
	}},
}

func writeTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// textOf is a file's text, inflated if it is gzipped; withText writes a
// new text back the same way.
func textOf(t testing.TB, name, body string) string {
	if !strings.HasSuffix(name, ".gz") {
		return body
	}
	zr, err := gzip.NewReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func withText(t testing.TB, name, text string) string {
	if strings.HasSuffix(name, ".gz") {
		return gz(text)
	}
	return text
}

// utf16Text is s in UTF-16, little-endian, with or without its mark.
func utf16Text(s string, mark bool) string {
	var b []byte
	if mark {
		b = append(b, 0xff, 0xfe)
	}
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return string(b)
}

// utf16BEText is s in UTF-16, big-endian, with its mark.
func utf16BEText(s string) string {
	b := []byte{0xfe, 0xff}
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u>>8), byte(u))
	}
	return string(b)
}

// latin1 is s in Latin-1 (every rune of s below 256).
func latin1(s string) string {
	var b []byte
	for _, r := range s {
		b = append(b, byte(r))
	}
	return string(b)
}

// runeAt is the character at byte offset off of s.
func runeAt(s string, off int) rune {
	r, _ := utf8.DecodeRuneInString(s[off:])
	return r
}

// lineCol is the line and byte column of offset in text, as an editor
// counts them.
func lineCol(text string, offset int) (int, int) {
	before := text[:offset]
	return 1 + strings.Count(before, "\n"), offset - strings.LastIndex(before, "\n")
}

// middleLine is the offset of the start of text's middle line (0 for a
// text of one line: its middle byte, then).
func middleLine(text string) int {
	lines := strings.Count(text, "\n")
	if lines < 2 {
		return len(text) / 2
	}
	off := 0
	for range lines / 2 {
		off += strings.IndexByte(text[off:], '\n') + 1
	}
	return off
}

// encodingCell is one alteration of one text file and what must come of
// it: the text to write (ok false: the cell does not apply to this text),
// and either the refusal (its start: file:line:byte: …, and words it must
// hold) or the note a read graph must carry.
type encodingCell struct {
	name  string
	alter func(text string) (altered string, refusal string, note string, ok bool)
}

// encodingCells are the class "text encodings, byte-order marks and line
// endings", for any text file (name is the file's, as messages name it).
func encodingCells(name string) []encodingCell {
	return []encodingCell{
		{"UTF-8 with its byte-order mark", func(s string) (string, string, string, bool) { return "\ufeff" + s, "", "", true }},
		{"UTF-16 LE with its mark", func(s string) (string, string, string, bool) {
			return utf16Text(s, true), "", name + ": read as UTF-16 text, as its byte-order mark says", true
		}},
		{"UTF-16 BE with its mark", func(s string) (string, string, string, bool) {
			return utf16BEText(s), "", name + ": read as UTF-16 text", true
		}},
		{"UTF-16 without its mark", func(s string) (string, string, string, bool) {
			if strings.HasPrefix(s, "<?xml") { // as expat tells it, from "<?" in two bytes each
				return utf16Text(s, false), "", name + ": read as UTF-16 text, as its first characters show", true
			}
			return utf16Text(s, false), name + ":1: is UTF-16 text without a byte-order mark", "", len(s) > 4
		}},
		{"CRLF", func(s string) (string, string, string, bool) {
			return strings.ReplaceAll(s, "\n", "\r\n"), "", "", true
		}},
		{"CR alone (classic Mac OS; audit 159)", func(s string) (string, string, string, bool) {
			note := ""
			if strings.Contains(s, "\n") {
				note = fmt.Sprintf("%s: %d of its lines end in CR alone", name, strings.Count(s, "\n"))
			}
			return strings.ReplaceAll(s, "\n", "\r"), "", note, true
		}},
		{"two copies joined, each with its byte-order mark", func(s string) (string, string, string, bool) {
			if !strings.HasSuffix(s, "\n") {
				s += "\n"
			}
			line, col := lineCol(s+s, len(s))
			return "\ufeff" + s + "\ufeff" + s, fmt.Sprintf("%s:%d:%d: a byte-order mark (U+FEFF), which only the very start of a file may hold", name, line, col), "", true
		}},
		{"NUL bytes mid-file (audit 158)", func(s string) (string, string, string, bool) {
			off := middleLine(s)
			line, col := lineCol(s, off)
			return s[:off] + "\x00\x00" + s[off:], fmt.Sprintf("%s:%d:%d: a NUL byte: this is binary data", name, line, col), "", true
		}},
		{"a no-break space between JSON's values (a copy and paste)", func(s string) (string, string, string, bool) {
			off := strings.Index(s, "{") + 1
			line, col := lineCol(s, off)
			return s[:off] + "\u00a0" + s[off:], fmt.Sprintf("%s:%d:%d: the character U+00A0 (no-break space) is not JSON here", name, line, col), "", strings.HasSuffix(name, ".json") && off > 0
		}},
		{"a Latin-1 byte mid-file", func(s string) (string, string, string, bool) {
			off := middleLine(s)
			line, col := lineCol(s, off)
			return s[:off] + "\xe9" + s[off:], fmt.Sprintf("%s:%d:%d: byte 0xE9 is not UTF-8", name, line, col), "", true
		}},
	}
}

// wordCells are the Latin-1 cells of a fixture's word: its first use in
// Latin-1 (audit 149), and its last, after UTF-8 uses (audit 150).
func wordCells(name, word string) []encodingCell {
	return []encodingCell{
		{"class names in Latin-1 (audit 149)", func(s string) (string, string, string, bool) {
			off := strings.Index(s, word)
			bad := off + strings.IndexFunc(word, func(r rune) bool { return r >= utf8.RuneSelf })
			line, col := lineCol(s, bad)
			return s[:off] + latin1(word) + s[off+len(word):], fmt.Sprintf("%s:%d:%d: byte 0x%02X is not UTF-8: the file looks like Latin-1 or Windows-1252 text", name, line, col, runeAt(s, bad)), "", off >= 0
		}},
		{"a byte-order mark before a class name (two files joined, the second with its mark)", func(s string) (string, string, string, bool) {
			off := strings.Index(s, word)
			line, col := lineCol(s, off)
			return s[:off] + "\ufeff" + s[off:], fmt.Sprintf("%s:%d:%d: a byte-order mark (U+FEFF)", name, line, col), "", off >= 0
		}},
		{"half UTF-8, half Latin-1 (audit 150)", func(s string) (string, string, string, bool) {
			off := strings.LastIndex(s, word)
			bad := off + strings.IndexFunc(word, func(r rune) bool { return r >= utf8.RuneSelf })
			line, col := lineCol(s, bad)
			first, _ := lineCol(s, strings.IndexFunc(s, func(r rune) bool { return r >= utf8.RuneSelf }))
			return s[:off] + latin1(word) + s[off+len(word):], fmt.Sprintf("%s:%d:%d: byte 0x%02X is not UTF-8, though line %d holds UTF-8 text: the file mixes two encodings", name, line, col, runeAt(s, bad), first), "", strings.Count(s, word) > 1
		}},
	}
}

// lineBreakInName is the fixture's word file with a line break inside
// the class name word, written as the file's format writes one: an
// escape in JSON, a character reference in XML, a quoted cell in a table.
func lineBreakInName(file, text, word string) string {
	at := 0 // within the word: after its first letter, or before a word of one
	if _, size := utf8.DecodeRuneInString(word); size < len(word) {
		at = size
	}
	var out strings.Builder
	for {
		off := strings.Index(text, word)
		if off < 0 {
			out.WriteString(text)
			return out.String()
		}
		switch {
		case strings.HasSuffix(file, ".json"):
			out.WriteString(text[:off+at] + `\n` + text[off+at:off+len(word)])
		case strings.HasSuffix(file, ".graphml"), strings.HasSuffix(file, ".gexf"):
			out.WriteString(text[:off+at] + "&#10;" + text[off+at:off+len(word)])
		default: // the field quoted, over two lines
			start := strings.LastIndexAny(text[:off], ",\t\n") + 1
			end := off + len(word) + strings.IndexAny(text[off+len(word):], ",\t\n")
			out.WriteString(text[:start] + `"` + text[start:off+at] + "\n" + text[off+at:end] + `"`)
			off = end - len(word)
		}
		text = text[off+len(word):]
	}
}

// controlFaults are the cell "a class name holding a line break" (a
// quoted cell over two lines; audit 3's 23) on each fixture's class
// names, on every surface: refused naming the file and the character,
// never a class whose name splits a note over two lines.
func controlFaults(t *testing.T, fx faultFixture) {
	if fx.wordFile == "" {
		return
	}
	text := textOf(t, fx.wordFile, fx.files[fx.wordFile])
	files := cloneFiles(fx.files)
	files[fx.wordFile] = withText(t, fx.wordFile, lineBreakInName(fx.wordFile, text, fx.word))
	for _, s := range surfaces {
		g, err := s.open(t, files)
		if err == nil || !strings.HasPrefix(err.Error(), fx.shown(fx.wordFile)) || !strings.Contains(err.Error(), "holds U+000A (line feed, a line break), a control character") || strings.Contains(err.Error(), "\n") {
			t.Errorf("a line break in a class name, %s: %v (read %v); want refused naming %s and U+000A", s.name, err, g, fx.shown(fx.wordFile))
		}
	}
}

// fixtureReads checks the fixture reads as its row's format on every
// surface, and gives its fingerprint.
func fixtureReads(t *testing.T, format string, fx faultFixture) string {
	t.Helper()
	want := ""
	for _, s := range surfaces {
		g, err := s.open(t, fx.files)
		if err != nil {
			t.Fatalf("%s: the fixture as it comes: %v", s.name, err)
		}
		if g.Meta["format"] != format || want != "" && fingerprint(g) != want {
			t.Fatalf("%s: read as %v, %s; want %s, %s", s.name, g.Meta["format"], fingerprint(g), format, want)
		}
		want = fingerprint(g)
	}
	return want
}

// encodingFaults runs the encoding cells on each text file of fx.
func encodingFaults(t *testing.T, fx faultFixture, want string) {
	controlFaults(t, fx)
	for _, file := range slices.Sorted(mapsKeys(fx.files)) {
		if _, binary := notText[path.Ext(file)]; binary {
			continue
		}
		text := textOf(t, file, fx.files[file])
		cells := encodingCells(fx.shown(file))
		if file == fx.wordFile {
			cells = append(cells, wordCells(fx.shown(file), fx.word)...)
		}
		for _, cell := range cells {
			altered, refusal, note, ok := cell.alter(text)
			if !ok {
				continue
			}
			files := cloneFiles(fx.files)
			files[file] = withText(t, file, altered)
			for _, s := range surfaces {
				g, err := s.open(t, files)
				where := fmt.Sprintf("%s, %s, %s", file, cell.name, s.name)
				switch {
				case refusal != "":
					if err == nil || !strings.HasPrefix(err.Error(), refusal) || !namesAFile(err) {
						t.Errorf("%s: %v; want refused %q", where, err, refusal)
					} else if !strings.Contains(err.Error(), "binary data") && !strings.Contains(err.Error(), "save it") {
						t.Errorf("%s: %v says nothing of what to do", where, err)
					}
				case err != nil:
					t.Errorf("%s: %v; want read", where, err)
				case fingerprint(g) != want:
					t.Errorf("%s: read %s; want %s", where, fingerprint(g), want)
				case note != "" && !hasNote(g, note):
					t.Errorf("%s: notes %v; want %q", where, g.Notes, note)
				}
			}
		}
	}
}

func mapsKeys(m map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// compressionFaults are the class "compressed files cut short or
// damaged": the fixture in a zip whose file fails its checksum, or cut
// in half; each .gz cut in half, or with a byte flipped (audits 155, 156).
func compressionFaults(t *testing.T, fx faultFixture, want string) {
	whole := zipOf(t, fx.files)
	for _, tc := range []struct {
		name, want string
		data       []byte
	}{
		{"a zip file failing its checksum", "graph.zip: its file ", damagedZip(t, whole)},
		{"a zip cut in half", "graph.zip: is not a zip archive the explorer can read", whole[:len(whole)/2]},
	} {
		_, _, err := OpenFiles([]File{{Name: "graph.zip", Data: tc.data}}, Columns{})
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || !namesAFile(err) {
			t.Errorf("%s: %v; want %q", tc.name, err, tc.want)
		} else if strings.Contains(tc.name, "checksum") && !strings.Contains(err.Error(), "is damaged") {
			t.Errorf("%s: %v does not say it is damaged", tc.name, err)
		}
	}
	compressedForms(t, fx, want)
	for _, file := range slices.Sorted(mapsKeys(fx.files)) {
		if !strings.HasSuffix(file, ".gz") {
			continue
		}
		body := fx.files[file]
		flipped := []byte(body)
		flipped[10+(len(flipped)-18)/2] ^= 0xff // a byte of its deflate data
		for _, tc := range []struct{ name, data, says string }{
			{"cut in half", body[:len(body)/2], "is cut short"},
			{"a byte flipped", string(flipped), "damaged"},
			{"bytes after its stream", body + "GARBAGE", fmt.Sprintf("has trailing bytes after the compressed data at byte %d", len(body))},
			{"zeros after its stream (padding)", body + strings.Repeat("\x00", 512), fmt.Sprintf("has trailing bytes after the compressed data at byte %d", len(body))},
		} {
			files := cloneFiles(fx.files)
			files[file] = tc.data
			for _, s := range surfaces {
				_, err := s.open(t, files)
				if err == nil || !strings.HasPrefix(err.Error(), fx.shown(file)+":") || !strings.Contains(err.Error(), tc.says) || !strings.Contains(err.Error(), "gzip") {
					t.Errorf("%s %s, %s: %v; want %s: … %s (its gzip data)", file, tc.name, s.name, err, fx.shown(file), tc.says)
				}
			}
		}
	}
}

// compressedFiles are, by fixture, the files that may come compressed
// beside those that come so (every .gz file): a GraphML file (NetworkX
// reads club.graphml.gz), an edge list's tables, a MUSAE or FEATHER
// folder's tables (pandas' read_csv, as their readers read them, infers
// the compression from the name).
var compressedFiles = map[string][]string{
	"GraphML (NetworkX)":                 {"club.graphml"},
	"MUSAE":                              {"target.csv", "edges.csv"},
	"FEATHER (karate club)":              {"target.csv", "edges.csv", "features.csv"},
	"CSV":                                {"edges.csv", "labels.csv"},
	"Matrix Market (Network Repository)": {"club.mtx", "club.node_labels"},
	"GEXF (NetworkX)":                    {"club.gexf"},
	"node-link JSON (NetworkX)":          {"club.json"},
}

// notText are the files whose text the encoding cells cannot alter, by
// their names' ending, and why: they hold no text.
var notText = map[string]string{
	".npz": "a .npz is numpy's zip of binary arrays: its names (a unicode array) are UTF-32 code points, which carry no encoding, byte-order mark or line end; " +
		"a damaged or joined .npz is the compressed and structure cells', a spoiled array TestNPZRefuses'",
}

// compressedForms are the cells of the compressions read and not read,
// on every surface: each file that may come compressed, in gzip and in
// bzip2, is the same graph; a bzip2 file cut short, or followed by bytes
// that are no bzip2 stream, is refused saying so; a file in a
// compression the explorer does not read (xz, Zstandard) is refused
// naming it, and the graph in an archive (a .tar.gz) likewise, each
// saying to unpack it.
func compressedForms(t *testing.T, fx faultFixture, want string) {
	for _, file := range slices.Sorted(mapsKeys(fx.files)) {
		text := textOf(t, file, fx.files[file])
		plain := strings.TrimSuffix(file, ".gz")
		cells := []struct{ name, file, data, says string }{
			{"in xz", plain + ".xz", "\xfd7zXZ\x00", "is xz-compressed (.xz), which the explorer does not read: unpack it"},
			{"in Zstandard", plain + ".zst", "\x28\xb5\x2f\xfd", "is Zstandard-compressed (.zst), which the explorer does not read: unpack it"},
		}
		if strings.HasSuffix(file, ".gz") || slices.Contains(compressedFiles[fx.name], file) {
			bz := bzip2Of(t, text)
			cells = append(cells, []struct{ name, file, data, says string }{
				{"gzipped", plain + ".gz", gz(text), ""},
				{"in bzip2", plain + ".bz2", bz, ""},
				{"in bzip2, cut short", plain + ".bz2", bz[:len(bz)*2/3], "is cut short, or damaged: its bzip2 data stops"},
				{"in bzip2, bytes after its stream", plain + ".bz2", bz + "GARBAGE", "has trailing bytes after the compressed data"},
			}...)
		}
		for _, tc := range cells {
			files := cloneFiles(fx.files)
			delete(files, file)
			files[tc.file] = tc.data
			for _, s := range surfaces {
				g, err := s.open(t, files)
				where := fmt.Sprintf("%s %s, %s", file, tc.name, s.name)
				switch {
				case tc.says == "" && err != nil:
					t.Errorf("%s: %v; want read", where, err)
				case tc.says == "" && fingerprint(g) != want:
					t.Errorf("%s: read %s; want %s", where, fingerprint(g), want)
				case tc.says != "" && (err == nil || !strings.HasPrefix(err.Error(), fx.shown(tc.file)+":") && !strings.HasPrefix(err.Error(), tc.file+":") || !strings.Contains(err.Error(), tc.says) || !namesAFile(err)):
					t.Errorf("%s: %v; want %s: … %s", where, err, fx.shown(tc.file), tc.says)
				}
			}
		}
	}
	for _, archive := range []struct{ name, says string }{
		{"graph.tar.gz", "graph.tar.gz: is a gzipped tar archive (.tar.gz), which the explorer does not read: unpack it (tar -xzf graph.tar.gz)"},
		{"graph.tgz", "graph.tgz: is a gzipped tar archive (.tgz)"},
		{"graph.tar", "graph.tar: is a tar archive (.tar)"},
		{"graph.7z", "graph.7z: is a 7-Zip archive (.7z)"},
		{"graph.rar", "graph.rar: is a RAR archive (.rar)"},
		{"graph.tar.xz", "graph.tar.xz: is an xz tar archive (.tar.xz)"},
	} {
		data := []byte(gz("not read"))
		_, _, err := OpenFiles([]File{{Name: archive.name, Data: data}}, Columns{})
		p := filepath.Join(t.TempDir(), archive.name)
		mustWrite(t, p, data)
		_, err2 := Load(p, experiment.Default().Data, false)
		for i, err := range []error{err, err2} {
			if err == nil || !strings.Contains(err.Error(), archive.says) || !strings.Contains(err.Error(), "or zip that") {
				t.Errorf("%s (%s): %v; want %q", archive.name, []string{"page", "command line"}[i], err, archive.says)
			}
		}
	}
}

// damagedZip is the zip archive data with a byte of its first file's
// data flipped, so that the file fails its checksum or its inflating.
func damagedZip(t testing.TB, data []byte) []byte {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	zf := zr.File[0]
	off, err := zf.DataOffset()
	if err != nil {
		t.Fatal(err)
	}
	out := bytes.Clone(data)
	out[off+int64(zf.CompressedSize64)/2] ^= 0xff
	return out
}

// A gzip member cut short, whose last whole line is garbage to a reader
// (a number cut in two), is reported as cut short, not as the garbage; so
// is one whose damage only its CRC shows (audit 156: the value parsed out
// of it is never blamed).
func TestDamagedGzipIsBlamedNotItsValues(t *testing.T) {
	var edges strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&edges, "%d,%d\n", i%5, (i+1)%5)
	}
	files := tinyOGB(t)
	whole := gz(edges.String())
	cut := whole[:len(whole)*2/3]
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(strings.Replace(edges.String(), "2,3\n", "2,9\n", 1))) // a value out of range
	zw.Close()
	lying := b.Bytes()
	// Its CRC and size are those of the text without the bad value: only
	// the check at the end of the stream tells.
	copy(lying[len(lying)-8:], whole[len(whole)-8:])
	for _, tc := range []struct{ name, data, want string }{
		{"cut short", cut, "raw/edge.csv.gz:"},
		{"fails its CRC", string(lying), "raw/edge.csv.gz: is damaged: its gzip data fails its checksum (CRC-32)"},
	} {
		files["raw/edge.csv.gz"] = tc.data
		_, _, err := Open(mapFS(files), Columns{})
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || strings.Contains(err.Error(), "out of range") || !strings.Contains(err.Error(), "gzip") {
			t.Errorf("%s: %v; want %q", tc.name, err, tc.want)
		}
	}
}

// A GraphML file that declares its encoding is read in it, as NetworkX
// reads it; one whose declaration names none the explorer reads is
// refused by name.
func TestGraphMLDeclaredEncoding(t *testing.T) {
	body := strings.ReplaceAll(tinyGraphML, "Officer", "Officié")
	for _, tc := range []struct{ name, body, want, note string }{
		{"ISO-8859-1", latin1(strings.Replace(body, "encoding='utf-8'", "encoding='ISO-8859-1'", 1)), "Officié", "club.graphml: read as ISO 8859-1 text, as its XML declaration says"},
		{"windows-1252, CR alone", strings.ReplaceAll(latin1(strings.Replace(body, "encoding='utf-8'", "encoding='windows-1252'", 1)), "\n", "\r"), "Officié", "end in CR alone"},
		{"UTF-16 declared, with its mark", utf16Text(strings.Replace(body, "encoding='utf-8'", "encoding='UTF-16'", 1), true), "Officié", "read as UTF-16"},
		{"Big5", strings.Replace(body, "encoding='utf-8'", "encoding='Big5'", 1), "club.graphml:1: its XML declaration names the encoding Big5, which the explorer does not read", ""},
	} {
		g, _, err := Open(mapFS(map[string]string{"club.graphml": tc.body}), Columns{})
		switch {
		case tc.note == "":
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("%s: %v; want %q", tc.name, err, tc.want)
			}
		case err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case !slices.Contains(g.ClassNames, tc.want) || !hasNote(g, tc.note):
			t.Errorf("%s: classes %q notes %v", tc.name, g.ClassNames, g.Notes)
		}
	}
}

// The formats' sentence, which messages and the page show, is the rows'.
func TestFormatsSentenceIsTheRows(t *testing.T) {
	var says []string
	for _, f := range formats() {
		says = append(says, f.says)
	}
	sentence := strings.Join(says[:len(says)-1], ", ") + ", or " + says[len(says)-1]
	if sentence != experiment.GraphFormats {
		t.Errorf("the rows say %q\nexperiment.GraphFormats says %q", sentence, experiment.GraphFormats)
	}
}

// twiceFaults are the class "a file holding two graphs, repeated ids,
// things that come twice" on every file of a fixture, on every surface:
//   - the file joined to a copy of itself (cat a.csv a.csv): refused
//     naming it, at its line (the header again, a JSON or XML document
//     after the end of the first, a node listed again) or for what it
//     holds (twice the lines of another file), or read by the format's
//     rule with a note on it the fixture's reading has not (an edge
//     list's pairs listed again are dropped, and counted);
//   - the file beside itself gzipped, or inflated, saying other things:
//     refused naming both (one is the graph's, and nothing says which);
//   - the graph below the graph (a copy of the fixture in a folder of
//     it): refused naming the folder below.
//
// edgeBoundFaults reads fx with the page's limits but for its edges,
// bounded one under the fixture's: every reader stops at the bound while
// it reads, naming it (the page's bound is millions, pagemem's; a reader
// that went past it would hold what the bound is there to refuse), and
// reads the fixture at its own count.
func edgeBoundFaults(t *testing.T, fx faultFixture) {
	g, _, err := Open(limitedTo(mapFS(fx.files), pageLimits), Columns{})
	if err != nil || g.E() == 0 {
		t.Fatalf("the fixture within the page's limits: %v", err)
	}
	for _, tc := range []struct {
		edges int
		fail  bool
	}{{g.E() - 1, true}, {g.E(), false}} {
		lim := pageLimits
		lim.edges = tc.edges
		_, _, err := Open(limitedTo(mapFS(fx.files), lim), Columns{})
		want := fmt.Sprintf("more than %s edges", numtext.Group(tc.edges))
		if tc.fail && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("%d edges, the bound %d: %v, want %q", g.E(), tc.edges, err, want)
		}
		if !tc.fail && err != nil {
			t.Errorf("%d edges, the bound %d: %v", g.E(), tc.edges, err)
		}
	}
}

func twiceFaults(t *testing.T, fx faultFixture) {
	before := map[string]bool{}
	if g, _, err := Open(mapFS(fx.files), Columns{}); err == nil {
		for _, n := range g.Notes {
			before[n.String()] = true
		}
	}
	for _, file := range slices.Sorted(mapsKeys(fx.files)) {
		text := textOf(t, file, fx.files[file])
		if !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		joined := cloneFiles(fx.files)
		joined[file] = withText(t, file, text+text)
		other := file + ".gz"
		if plain, ok := strings.CutSuffix(file, ".gz"); ok {
			other = plain
		}
		beside := cloneFiles(fx.files)
		beside[other] = withText(t, other, text+text)
		for _, s := range surfaces {
			g, err := s.open(t, joined)
			where := fmt.Sprintf("%s joined to itself, %s", file, s.name)
			switch {
			case err != nil:
				if !strings.Contains(err.Error(), fx.shown(file)) || !namesAFile(err) {
					t.Errorf("%s: %v; want refused naming %s", where, err, fx.shown(file))
				}
			case !slices.ContainsFunc(g.Notes, func(n phrase.Text) bool {
				return !before[n.String()] && strings.Contains(n.String(), fx.shown(file))
			}):
				t.Errorf("%s: read without a word (notes %v)", where, g.Notes)
			}
			_, err = s.open(t, beside)
			if where := fmt.Sprintf("%s beside %s, %s", other, file, s.name); err == nil || !strings.Contains(err.Error(), path.Base(file)) || !strings.Contains(err.Error(), path.Base(other)) {
				t.Errorf("%s: %v; want refused naming both", where, err)
			}
		}
	}
	below := cloneFiles(fx.files)
	for name, body := range fx.files {
		below["copy/"+name] = body
	}
	for _, s := range surfaces {
		if _, err := s.open(t, below); err == nil || !strings.Contains(err.Error(), "holds another below it (copy/)") {
			t.Errorf("a copy of the graph in its folder, %s: %v; want refused naming copy/", s.name, err)
		}
	}
}

// zipEntryFaults are the zip's own faults, on the fixture zipped, each
// file in turn: encrypted (zip -P), stored as a symbolic link (zip -y),
// its name given twice; each said by name, on the page and the command
// line.
func zipEntryFaults(t *testing.T, fx faultFixture) {
	names := slices.Sorted(mapsKeys(fx.files))
	for _, first := range names {
		zipEntryFault(t, fx, names, first)
	}
}

func zipEntryFault(t *testing.T, fx faultFixture, names []string, first string) {
	for _, tc := range []struct {
		name   string
		header func(h *zip.FileHeader)
		twice  bool
		want   string
	}{
		{"encrypted (zip -P)", func(h *zip.FileHeader) { h.Flags |= 0x1 }, false, "graph.zip: its file " + first + " is encrypted (the zip was made with a password): unzip it with its password"},
		{"a symbolic link (zip -y)", func(h *zip.FileHeader) { h.SetMode(os.ModeSymlink | 0o777) }, false, fx.shown(first) + ": is a symbolic link kept as a link"},
		{"a name twice", nil, true, "graph.zip: holds the name " + first + " twice, as two files"},
	} {
		var b bytes.Buffer
		zw := zip.NewWriter(&b)
		for _, name := range names {
			h := &zip.FileHeader{Name: name, Method: zip.Deflate}
			if name == first && tc.header != nil {
				tc.header(h)
			}
			w, err := zw.CreateHeader(h)
			if err != nil {
				t.Fatal(err)
			}
			io.WriteString(w, fx.files[name])
			if name == first && tc.twice {
				w, _ := zw.Create(name)
				io.WriteString(w, fx.files[name])
			}
		}
		zw.Close()
		_, _, err := OpenFiles([]File{{Name: "graph.zip", Data: b.Bytes()}}, Columns{})
		p := filepath.Join(t.TempDir(), "graph.zip")
		mustWrite(t, p, b.Bytes())
		_, err2 := Load(p, experiment.Default().Data, false)
		for i, err := range []error{err, err2} {
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) || !namesAFile(err) {
				t.Errorf("%s, %s (%s): %v; want %q", first, tc.name, []string{"page", "command line"}[i], err, tc.want)
			}
		}
	}
}

func mustWrite(t *testing.T, p string, b []byte) {
	t.Helper()
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
