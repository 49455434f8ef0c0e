package input

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
)

// zipEntry is one file of a zip made for a test: its name, text and how
// its header is made.
type zipEntry struct {
	name, text string
	header     func(*zip.FileHeader)
}

// zipReader packs entries into a zip archive and opens it.
func zipReader(t *testing.T, entries ...zipEntry) *zip.Reader {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		if e.header != nil {
			e.header(h)
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, e.text)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	return zr
}

// zipFSOf is the ZipFS of zr's files by their own names.
func zipFSOf(t *testing.T, zr *zip.Reader, limit int64) *ZipFS {
	t.Helper()
	files := map[string]*zip.File{}
	for _, zf := range zr.File {
		files[zf.Name] = zf
	}
	z, err := NewZipFS("graph.zip", files, limit)
	if err != nil {
		t.Fatal(err)
	}
	return z
}

// A zip's files are a folder (fstest.TestFS holds it to fs.FS's
// contract), each read as it inflates, within the limit, never whole.
func TestZipFSIsAFolder(t *testing.T) {
	zr := zipReader(t, zipEntry{name: "g/edges.csv", text: "0,1\n"}, zipEntry{name: "g/labels.csv", text: "id,label\n0,a\n"}, zipEntry{name: "README", text: "hi"})
	z := zipFSOf(t, zr, 1<<20)
	if err := fstest.TestFS(z, "g/edges.csv", "g/labels.csv", "README"); err != nil {
		t.Fatal(err)
	}
	text, err := OpenText(z, "g/labels.csv", 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := text.All(); err != nil || string(b) != "id,label\n0,a\n" {
		t.Errorf("%q, %v", b, err)
	}
}

// What a zip's file cannot give is said by name: too large while it
// inflates, encrypted, a link, a name both a file and a folder.
func TestZipFSRefusals(t *testing.T) {
	big := strings.Repeat("\n", 1<<16)
	for _, tc := range []struct {
		name    string
		entries []zipEntry
		open    string
		want    string
	}{
		{"inflates past the limit (a bomb of blank lines)", []zipEntry{{name: "labels.csv", text: big}}, "labels.csv",
			"graph.zip: cannot unpack its file labels.csv: it unpacks to more than 1,024 bytes"},
		{"encrypted (zip -P)", []zipEntry{{name: "edges.csv", text: "0,1\n", header: func(h *zip.FileHeader) { h.Flags |= 0x1 }}}, "edges.csv",
			"graph.zip: its file edges.csv is encrypted (the zip was made with a password): unzip it with its password"},
		{"a symbolic link (zip -y)", []zipEntry{{name: "labels.csv", text: "../real.csv", header: func(h *zip.FileHeader) { h.SetMode(fs.ModeSymlink | 0o777) }}}, "labels.csv",
			"labels.csv: is a symbolic link kept as a link"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			z := zipFSOf(t, zipReader(t, tc.entries...), 1<<10)
			var err error
			if text, err2 := OpenText(z, tc.open, 1<<10); err2 != nil {
				err = err2
			} else {
				_, err = text.All()
			}
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("%v; want %q", err, tc.want)
			}
		})
	}
	zr := zipReader(t, zipEntry{name: "a", text: "x"}, zipEntry{name: "a/b.csv", text: "y"})
	files := map[string]*zip.File{"a": zr.File[0], "a/b.csv": zr.File[1]}
	if _, err := NewZipFS("graph.zip", files, 1<<10); err == nil || !strings.Contains(err.Error(), "graph.zip: holds a both as a file and as a folder") {
		t.Errorf("a file and a folder of one name: %v", err)
	}
}

// A zip's file that fails its checksum is found damaged once read to its
// end (Check), and so is one whose compressed data is invalid: the value
// read out of it is never what is blamed.
func TestZipFSDamage(t *testing.T) {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	w, _ := zw.CreateHeader(&zip.FileHeader{Name: "edges.csv", Method: zip.Store})
	io.WriteString(w, "0,1\n1,2\n")
	zw.Close()
	data := b.Bytes()
	i := bytes.Index(data, []byte("1,2"))
	data[i] = '7' // stored, so the text reads, and only its checksum tells
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	z := zipFSOf(t, zr, 1<<10)
	text, err := OpenText(z, "edges.csv", 1<<10)
	if err != nil {
		t.Fatal(err)
	}
	_, err = text.All()
	if err == nil || !strings.HasPrefix(err.Error(), "graph.zip: its file edges.csv is damaged: it fails its checksum") {
		t.Errorf("read: %v", err)
	}
	if err := Check(z, "edges.csv", 1<<10); err == nil || !strings.Contains(err.Error(), "fails its checksum") {
		t.Errorf("check: %v", err)
	}
}

// Every key given twice in one object is found, at any depth, at its line
// and byte; keys of different objects, and escapes of one key, are told
// apart as encoding/json tells them.
func TestRepeatedKey(t *testing.T) {
	for _, tc := range []struct{ name, json, want string }{
		{"none", `{"a": 1, "b": {"a": 2}, "c": [{"a": 1}, {"a": 2}]}`, ""},
		{"at the top", "{\"name\": \"g\",\n \"classes\": 3,\n \"classes\": 4}", `meta.json:3:2: the key "classes" is given twice in one object (first on line 2)`},
		{"one down", "{\"shard\": {\"at\": 0, \"acc\": 0.4,\n\"acc\": 0.9}}", `meta.json:2:1: the key "acc" is given twice in one object (first on line 1)`},
		{"in an array's object", `[{"a": 1}, {"b": 1, "b": 2}]`, `meta.json:1:21: the key "b" is given twice`},
		{"escaped alike", `{"a": 1, "\u0061": 2}`, `meta.json:1:10: the key "a" is given twice`},
		{"a key's text in a value", `{"a": "\"a\"", "b": "a"}`, ""},
		{"malformed: json.Unmarshal says it", `{"a": 1, "a`, ""},
	} {
		err := RepeatedKey("meta.json", []byte(tc.json))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
			t.Errorf("%s: %v; want %q", tc.name, err, tc.want)
		}
	}
	var v map[string]any
	if err := JSON("meta.json", []byte(`{"a": 1, "a": 2}`), &v); err == nil || !strings.Contains(err.Error(), "given twice") {
		t.Errorf("JSON: %v", err)
	}
	var keys []string
	ObjectKeys([]byte("{\"a\": {\"x\": 1},\n\"b\": [1, 2]}"), func(k string, line int) error {
		keys = append(keys, fmt.Sprintf("%s:%d", k, line))
		return nil
	})
	if strings.Join(keys, " ") != "a:1 b:2" {
		t.Errorf("ObjectKeys: %q", keys)
	}
}
