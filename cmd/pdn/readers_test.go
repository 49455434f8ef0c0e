package main

import (
	"archive/zip"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"pdnexplorer/internal/testwait"
	"strings"
	"testing"
	"unicode/utf8"
)

// The readers' cases of the audit of 28 November 2026 (text encodings,
// compressed files, file names, links), each on files built to its
// description, and what the command line now does with it: refused by
// file, line and byte with what to do, or read, and said. Every file the
// command line reads goes through package input, and datasets' cell tests
// (faults_test.go) try each class on every format; these are the cases as
// the audit ran them.

// putTree writes files under dir.
func putTree(t *testing.T, dir string, files map[string][]byte) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// runWithin runs the command line, failing the test if it has not ended
// within a few minutes: a reader that opened a pipe would wait forever.
func runWithin(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	type result struct {
		out, err string
		code     int
	}
	done := make(chan result, 1)
	go func() {
		var o, e bytes.Buffer
		err := run(args, &o, &e)
		if err != nil {
			e.WriteString(oneLine(err))
		}
		done <- result{o.String(), e.String(), exitCode(err)}
	}()
	select {
	case r := <-done:
		return r.out, r.err, r.code
	case <-testwait.Context(t).Done():
		t.Fatalf("pdn %s never ends", strings.Join(args, " "))
		return "", "", 0
	}
}

// latin1Labels is a labels file of n nodes, three classes named café,
// naïve and über, in UTF-8 up to node utf8Until and in Latin-1 after.
func latin1Labels(n, utf8Until int) []byte {
	names := []string{"café", "naïve", "über"}
	var b bytes.Buffer
	b.WriteString("id,label\n")
	for i := range n {
		name := names[i%3]
		if i >= utf8Until {
			var l []byte
			for _, r := range name {
				l = append(l, byte(r))
			}
			name = string(l)
		}
		fmt.Fprintf(&b, "%d,%s\n", i, name)
	}
	return b.Bytes()
}

func TestAuditReaders(t *testing.T) {
	root := t.TempDir()
	dir := func(name string, files map[string][]byte) string { return putTree(t, filepath.Join(root, name), files) }
	plain := func(labels []byte) map[string][]byte {
		return map[string][]byte{"edges.csv": []byte(ring(300, ",")), "labels.csv": labels}
	}
	ogb := ogbFolder(t, 600, false)
	edge := ogb["raw/edge.csv.gz"]
	cut := cloneBytes(ogb)
	cut["raw/edge.csv.gz"] = edge[:len(edge)/2]
	flipped := cloneBytes(ogb)
	flipped["raw/edge.csv.gz"] = bytes.Clone(edge)
	flipped["raw/edge.csv.gz"][len(edge)/2] ^= 0x01
	nul := plain([]byte("id,label\n" + labelRows(300, ",", classOf2)))
	nul["labels.csv"] = append(append(bytes.Clone(nul["labels.csv"][:500]), 0, 0), nul["labels.csv"][500:]...)
	nulLine, nulCol := 1+bytes.Count(nul["labels.csv"][:500], []byte("\n")), 500-bytes.LastIndexByte(nul["labels.csv"][:500], '\n')
	cr := plain([]byte(strings.ReplaceAll("id,label\n"+labelRows(300, ",", classOf2), "\n", "\r")))
	cr["edges.csv"] = []byte(strings.ReplaceAll(string(cr["edges.csv"]), "\n", "\r"))
	huge := plain(append([]byte("id,label\n0,"), bytes.Repeat([]byte("a"), 30_000_000)...))
	names := map[string][]byte{"edg\xe9s_edges.csv": []byte(ring(40, ",")), "labels_\xff.csv": []byte(labelRows(40, ",", classOf2))}
	musae := musaeFacebook(30)
	comma := musaeFacebook(30)
	comma["features.json"] = bytes.Replace(comma["features.json"], []byte("], "), []byte("],, "), 1)
	cutJSON := musaeFacebook(30)
	cutJSON["features.json"] = cutJSON["features.json"][:len(cutJSON["features.json"])/2]
	zips := map[string][]byte{
		"empty.zip":   emptyZip(t, nil),
		"onlymac.zip": emptyZip(t, []string{"__MACOSX/._x"}),
		"fake.zip":    []byte("not a zip"),
		"trunc.zip":   zipOf(t, []string{"edges.csv", "labels.csv"}, plain([]byte(labelRows(300, ",", classOf2))))[:1000],
	}
	putTree(t, filepath.Join(root, "zips"), zips)
	dir("two", nil)
	dir("two/a", plain([]byte(labelRows(300, ",", classOf2))))
	dir("two/b", plain([]byte(labelRows(300, ",", classOf2))))
	linked := dir("symext", nil)
	musaeDir := dir("musae", musae)
	for name := range musae {
		if err := os.Symlink(filepath.Join(musaeDir, name), filepath.Join(linked, name)); err != nil {
			t.Fatal(err)
		}
	}
	loops := dir("symloop", plain([]byte(labelRows(300, ",", classOf2))))
	os.Symlink(".", filepath.Join(loops, "self"))
	os.Symlink("..", filepath.Join(loops, "up"))
	os.Symlink(musaeDir, filepath.Join(root, "link_plain"))

	for _, c := range []struct {
		id   int
		args []string
		code int
		want []string
	}{
		{22, []string{"-data", "zips/empty.zip"}, 2, []string{"empty.zip: is empty (or holds only folders and hidden files)"}},
		{22, []string{"-data", "zips/onlymac.zip"}, 2, []string{"onlymac.zip: is empty"}},
		{24, []string{"-data", "zips/fake.zip"}, 2, []string{"fake.zip: is not a zip archive the explorer can read"}},
		{24, []string{"-data", "zips/trunc.zip"}, 2, []string{"trunc.zip: is not a zip archive the explorer can read"}},
		{62, []string{"-data", "nonexistent"}, 2, []string{"nonexistent: cannot read the graph: missing"}},
		{62, []string{"-data", "musae/edges.csv"}, 2, []string{"edges.csv: is a file; a graph is"}},
		{63, []string{"-data", "two"}, 2, []string{"holds 2 graphs (a/, b/): open one graph at a time"}},
		{88, []string{"-data", dir("fj_comma", comma)}, 2, []string{"features.json:1:", "invalid character ','"}},
		{88, []string{"-data", dir("fj_cut", cutJSON)}, 2, []string{"features.json:1:", "the file ends in the middle of its JSON (cut short?)"}},
		{147, []string{"-data", dir("nonutf8", names)}, 2, []string{`its name is not UTF-8 text`, `\x`, "rename it"}},
		{148, []string{"-data", dir("scratch\xe9\xff", plain([]byte(labelRows(300, ",", classOf2))))}, 0, nil},
		{149, []string{"-data", dir("latin1", plain(latin1Labels(300, 0)))}, 2, []string{"labels.csv:2:6: byte 0xE9 is not UTF-8: the file looks like Latin-1 or Windows-1252 text (where this byte is \"é\"): save it as UTF-8"}},
		{150, []string{"-data", dir("mixedenc", plain(latin1Labels(300, 150)))}, 2, []string{"labels.csv:152:8: byte 0xE9 is not UTF-8, though line 2 holds UTF-8 text: the file mixes two encodings"}},
		{151, []string{"-data", dir("utf16both", map[string][]byte{"edges.csv": utf16(ring(300, ",")), "labels.csv": utf16(labelRows(300, ",", classOf2))})}, 0, []string{"edges.csv: read as UTF-16 text", "labels.csv: read as UTF-16 text"}},
		{152, []string{"-data", "symloop"}, 0, nil},
		{153, []string{"-data", "symext"}, 0, nil},
		{153, []string{"-data", "link_plain"}, 0, nil},
		{155, []string{"-data", dir("ogb_truncgz", cut)}, 2, []string{"raw/edge.csv.gz:", "is cut short", "gzip"}},
		{156, []string{"-data", dir("ogb_flipgz", flipped)}, 2, []string{"raw/edge.csv.gz: is damaged", "gzip"}},
		{157, []string{"-data", dir("hugeline", huge)}, 2, []string{"labels.csv:2: a line longer than 16,777,216 bytes: is this a table?"}},
		{158, []string{"-data", dir("nulbytes", nul)}, 2, []string{fmt.Sprintf("labels.csv:%d:%d: a NUL byte: this is binary data, not text", nulLine, nulCol)}},
		{159, []string{"-data", dir("cronly", cr)}, 0, []string{"labels.csv: 301 of its lines end in CR alone, as classic Mac OS wrote them", "edges.csv: 300 of its lines end in CR alone"}},
	} {
		args := []string{"train", "-quiet", "-json", "-epochs", "2"}
		for _, a := range c.args {
			if !filepath.IsAbs(a) && a != "-data" {
				a = filepath.Join(root, a)
			}
			args = append(args, a)
		}
		out, errOut, code := runWithin(t, args...)
		got := errOut
		if code == 0 {
			got = out
		}
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				code = -1
			}
		}
		if code != c.code || !utf8.ValidString(got) {
			t.Errorf("audit case %d, pdn %s: exit %d, %s\nwant exit %d and %q", c.id, strings.Join(c.args, " "), code, strings.TrimSpace(got), c.code, c.want)
		}
	}
}

func cloneBytes(files map[string][]byte) map[string][]byte {
	out := map[string][]byte{}
	for k, v := range files {
		out[k] = v
	}
	return out
}

// emptyZip is a zip archive of the given names, each empty.
func emptyZip(t *testing.T, names []string) []byte {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, n := range names {
		if _, err := zw.Create(n); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
