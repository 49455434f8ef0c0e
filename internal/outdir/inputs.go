package outdir

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// An Input is a file or folder a run reads, by the flag that names it.
type Input struct {
	Flag string // "data", "datasets", or "" for a command's arguments
	Path string
}

// checkInputs refuses an output folder dir that is an input, lies inside
// one or holds one: a reader descends into the folder it is given, so a
// file written anywhere in it, or in a folder around it, lands among the
// files it reads (a bundle's edges.csv over a MUSAE folder's, results
// beside a graph's files that then no longer open).
func checkInputs(flagName, dir string, inputs []Input) error {
	for _, in := range inputs {
		if in.Path == "" || !Overlaps(dir, in.Path) {
			continue
		}
		kind, reads := "file", ""
		if st, err := os.Stat(in.Path); err == nil && st.IsDir() {
			kind, reads = "folder", ", which the reader descends into"
		}
		what := "the input " + kind + " " + quote(in.Path) + reads
		if in.Flag != "" {
			what = "the -" + in.Flag + " " + kind + " " + quote(in.Path) + reads
		}
		return &RefusedError{Msg: fmt.Sprintf("flag -%s: %s is, holds or lies inside %s; the run would write its files among the ones it reads: write them to another folder", flagName, quote(dir), what)}
	}
	return nil
}

// Overlaps reports whether a and b are one file or folder or one holds
// the other, however spelled (relative, through a link, with .. in it) and
// however reached (a bind mount, a hard link): the path's folders, as far
// as it exists, are compared with the other by identity (os.SameFile), not
// only by the path they resolve to, which a bind mount leaves apart.
func Overlaps(a, b string) bool { return within(a, b) || within(b, a) }

// within reports whether x is y or lies inside it: y's resolved path holds
// x's, or x or one of its folders is y itself.
func within(x, y string) bool {
	rx, ry := realPath(x), realPath(y)
	if rel, err := filepath.Rel(ry, rx); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return true
	}
	sy, err := os.Stat(y)
	if err != nil {
		return false
	}
	for d := rx; ; d = filepath.Dir(d) {
		if sd, err := os.Stat(d); err == nil && os.SameFile(sd, sy) {
			return true
		}
		if d == filepath.Dir(d) {
			return false
		}
	}
}

// realPath is p absolute with its links resolved, as far as it exists
// (the rest joined on as written).
func realPath(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	rest := ""
	for dir := abs; ; dir = filepath.Dir(dir) {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(real, rest)
		}
		if dir == filepath.Dir(dir) {
			return abs
		}
		rest = filepath.Join(filepath.Base(dir), rest)
	}
}
