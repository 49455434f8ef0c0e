package datasets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pdnexplorer/experiment"
	"pdnexplorer/internal/faults"
)

// TestBundleChecks walks the table of a bundle's checks (faults.
// BundleChecks) on the explorer's reader: each spoilt bundle is refused at
// the place and with the words the table gives. The exported script's
// test (pyg) walks the same table, so a check one reader makes and the
// other does not fails one of them.
func TestBundleChecks(t *testing.T) {
	d := experiment.Default().Data
	d.PerClass = 16
	g, err := Build(d)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range faults.BundleChecks {
		t.Run(c.Name, func(t *testing.T) {
			dir := t.TempDir()
			if err := writeBundleTo(dir, g); err != nil {
				t.Fatal(err)
			}
			spoil(t, dir, c)
			_, err := ReadBundle(dir)
			if err == nil {
				t.Fatalf("read; want refused at %s: %s", c.At, c.Says)
			}
			msg := err.Error()
			at, rest, ok := strings.Cut(msg, ": ")
			if i := strings.LastIndexByte(at, ':'); ok && strings.Count(at, ":") == 2 {
				at = at[:i] // the byte column, which only the explorer gives
			}
			if !ok || at != c.At || !strings.HasPrefix(rest, c.Says) {
				t.Errorf("%q; want at %s: %s", msg, c.At, c.Says)
			}
		})
	}
}

// spoil makes check c's change to its file in the bundle dir.
func spoil(t *testing.T, dir string, c faults.BundleCheck) {
	t.Helper()
	p := filepath.Join(dir, c.File)
	b, err := os.ReadFile(p)
	if err == nil {
		b, err = c.Spoil(b)
	}
	if err == nil {
		err = os.WriteFile(p, b, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
}
