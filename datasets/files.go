package datasets

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"testing/fstest"

	"pdnexplorer/internal/numtext"
)

// MaxLocalBytes bounds the files a page may open as its own graph, packed
// or unpacked: a bundle of Cora with dense features is 8 MB, and the
// browser must hold the text, the parsed graph and the model at once.
const MaxLocalBytes = 64 << 20

// File is one file the user opened: its name (a path inside a folder is
// cut to its last element) and its bytes.
type File struct {
	Name string
	Data []byte
}

// FilesFS is the folder the user's files make: the files themselves, or
// the contents of a single zip archive among them (under its one top
// folder, if it has one). It refuses more than MaxLocalBytes, in all or
// unpacked, and two files of one name.
func FilesFS(files []File) (fs.FS, error) {
	total := 0
	for _, f := range files {
		total += len(f.Data)
	}
	if total > MaxLocalBytes {
		return nil, &BundleError{File: files[0].Name, Msg: fmt.Sprintf("the files hold %s bytes; the explorer opens up to %s", numtext.Group(total), numtext.Group(MaxLocalBytes))}
	}
	if len(files) == 1 && strings.HasSuffix(strings.ToLower(files[0].Name), ".zip") {
		return zipFS(files[0])
	}
	m := fstest.MapFS{}
	for _, f := range files {
		name := path.Base(strings.ReplaceAll(f.Name, "\\", "/"))
		if _, dup := m[name]; dup {
			return nil, &BundleError{File: name, Msg: "given twice; open one folder's files at a time"}
		}
		m[name] = &fstest.MapFile{Data: f.Data, Mode: 0o444}
	}
	return m, nil
}

// zipFS opens a zip archive's files, checking their unpacked size first.
func zipFS(f File) (fs.FS, error) {
	zr, err := zip.NewReader(bytes.NewReader(f.Data), int64(len(f.Data)))
	if err != nil {
		return nil, &BundleError{File: f.Name, Msg: "is not a zip archive the explorer can read: " + err.Error()}
	}
	var unpacked uint64
	top := map[string]bool{}
	for _, zf := range zr.File {
		unpacked += zf.UncompressedSize64
		if first, _, nested := strings.Cut(zf.Name, "/"); nested {
			top[first] = true
		} else {
			top[""] = true
		}
	}
	if unpacked > MaxLocalBytes {
		return nil, &BundleError{File: f.Name, Msg: fmt.Sprintf("unpacks to %s bytes; the explorer opens up to %s", numtext.Group(int(min(unpacked, 1<<62))), numtext.Group(MaxLocalBytes))}
	}
	if len(top) == 1 && !top[""] {
		for dir := range top {
			return fs.Sub(zr, dir)
		}
	}
	return zr, nil
}

// OpenFiles reads the user's files as a graph ready to train, as Load
// reads a folder: a bundle or a MUSAE folder, given as files or as one zip
// archive. resplit says the graph came without a split (a MUSAE folder),
// so Split must draw one.
func OpenFiles(files []File) (g *Graph, resplit bool, err error) {
	if len(files) == 0 {
		return nil, false, &BundleError{Msg: "no files: open a bundle (meta.json, nodes.csv, edges.csv) or a MUSAE folder's files"}
	}
	fsys, err := FilesFS(files)
	if err != nil {
		return nil, false, err
	}
	return loadFS(fsys)
}
