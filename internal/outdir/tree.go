package outdir

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// A Tree is a build output: a folder the build owns whole (the site under
// dist/, a cache, a test's fixture), which a build writes into beside
// files other tools wrote there (the go command's binaries). Each file is
// written under a temporary name and renamed into place when whole, so a
// build cut short leaves each file old or new, never cut; a Tree is
// neither locked nor checked for others' files, and keeps no manifest.
type Tree struct{ dir string }

// NewTree makes the folder dir if need be.
func NewTree(dir string) (*Tree, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return &Tree{dir: dir}, nil
}

// Dir is the tree's folder.
func (t *Tree) Dir() string { return t.dir }

// path is name's path in the tree, refusing one that leaves it.
func (t *Tree) path(name string) (string, error) {
	if name == "." {
		return t.dir, nil
	}
	if !fs.ValidPath(name) {
		return "", fmt.Errorf("outdir: %q is not a path inside %s", name, t.dir)
	}
	return filepath.Join(t.dir, filepath.FromSlash(name)), nil
}

// WriteFile writes name (a path in the tree, with /), making its folders.
func (t *Tree) WriteFile(name string, data []byte, perm fs.FileMode) error {
	w, err := t.Create(name, perm)
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return errors.Join(err, w.Close())
}

// Create opens name for writing under a temporary name; Close renames it
// into place.
func (t *Tree) Create(name string, perm fs.FileMode) (io.WriteCloser, error) {
	p, err := t.path(name)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(filepath.Dir(p), "."+filepath.Base(p)+".tmp*")
	if err != nil {
		return nil, err
	}
	return &treeFile{f: f, to: p, perm: perm}, nil
}

type treeFile struct {
	f    *os.File
	to   string
	perm fs.FileMode
	err  error
}

func (w *treeFile) Write(b []byte) (int, error) {
	n, err := w.f.Write(b)
	if err != nil && w.err == nil {
		w.err = err
	}
	return n, err
}

func (w *treeFile) Close() error {
	err := errors.Join(w.err, w.f.Chmod(w.perm), w.f.Close())
	if err == nil {
		err = os.Rename(w.f.Name(), w.to)
	}
	if err != nil {
		os.Remove(w.f.Name())
	}
	return err
}

// MkdirAll makes the folder name in the tree.
func (t *Tree) MkdirAll(name string) error {
	p, err := t.path(name)
	if err != nil {
		return err
	}
	return os.MkdirAll(p, 0o755)
}

// Remove removes the file name from the tree.
func (t *Tree) Remove(name string) error {
	p, err := t.path(name)
	if err != nil {
		return err
	}
	return os.Remove(p)
}

// RemoveAll removes name and all it holds from the tree, if it is there.
func (t *Tree) RemoveAll(name string) error {
	p, err := t.path(name)
	if err != nil {
		return err
	}
	if p == t.dir {
		return fmt.Errorf("outdir: RemoveAll(%q) would remove the tree itself", name)
	}
	return os.RemoveAll(p)
}
