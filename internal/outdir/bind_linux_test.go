package outdir

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A folder reached through a bind mount is the folder itself: an output
// folder inside the mount of an input folder (mount --bind b1 bb; -out
// bb/t, -datasets b1), or around it, is refused as it is through a
// symbolic link, though no path resolves one to the other. It needs root
// (and a kernel that lets it mount), and says so where it cannot.
func TestInputsAreFoundThroughABindMount(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("a bind mount needs root; run the test as root to try it")
	}
	root := t.TempDir()
	b1, bb := filepath.Join(root, "b1"), filepath.Join(root, "bb")
	for _, d := range []string{filepath.Join(b1, "sub"), bb} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mount(b1, bb, "", syscall.MS_BIND, ""); err != nil {
		t.Skipf("cannot bind-mount here (%v): the test needs root in a namespace that may mount", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(bb, 0); err != nil {
			t.Errorf("unmount %s: %v", bb, err)
		}
	})
	for _, c := range []struct {
		out, in string
		refused bool
	}{
		{filepath.Join(bb, "t"), b1, true},         // inside the input, through the mount
		{bb, b1, true},                             // the input itself
		{filepath.Join(bb, "sub", "t"), b1, true},  // further down
		{filepath.Join(b1, "t"), bb, true},         // the mount given as the input
		{filepath.Join(root, "out"), b1, false},    // beside it
		{bb, filepath.Join(b1, "sub"), true},       // around the input, through the mount
		{filepath.Join(root, "x", "t"), bb, false}, // elsewhere
		{filepath.Join(bb, "sub"), filepath.Join(b1, "sub"), true},
	} {
		if got := Overlaps(c.out, c.in); got != c.refused {
			t.Errorf("Overlaps(%s, %s) = %v, want %v", c.out, c.in, got, c.refused)
		}
		o := opts("p")
		o.Force = true
		o.Inputs = []Input{{Flag: "datasets", Path: c.in}}
		r, err := Open(c.out, o)
		if r != nil {
			r.Abort()
		}
		if refused := err != nil && strings.Contains(err.Error(), "-datasets f"); refused != c.refused {
			t.Errorf("out %s, input %s: %v; want refused %v", c.out, c.in, err, c.refused)
		}
	}
}
