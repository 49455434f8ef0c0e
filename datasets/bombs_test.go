package datasets

import (
	"path"
	"slices"
	"strings"
	"testing"

	"pdnexplorer/internal/input"
)

// A value too long to hold (a cell or an attribute of gigabytes, which a
// few megabytes of .gz inflate to) is refused at its line on every
// surface, in every text file of every format, before it is held: a row
// of a table longer than maxLine, a run of XML text longer than
// input.MaxRun. JSON files are held whole within their size limit, and
// skipped here, as are binary files (notText).
func TestAValueTooLongToHoldIsRefusedAtItsLine(t *testing.T) {
	run := strings.Repeat("1", max(maxLine, input.MaxRun)+1<<20) // past the read-ahead allowed
	for format, fixtures := range faultFixtures(t) {
		for _, fx := range fixtures {
			for _, file := range slices.Sorted(mapsKeys(fx.files)) {
				if strings.HasSuffix(strings.TrimSuffix(file, ".gz"), ".json") {
					continue
				}
				if _, binary := notText[path.Ext(file)]; binary {
					continue // no lines: an array too large to hold is TestNPZBomb's
				}
				text := textOf(t, file, fx.files[file])
				first, rest, ok := strings.Cut(text, "\n")
				if !ok {
					t.Fatalf("%s %s: one line", fx.name, file)
				}
				files := cloneFiles(fx.files)
				files[file] = withText(t, file, first+"\n"+run+rest)
				for _, s := range surfaces {
					_, err := s.open(t, files)
					if err == nil || !strings.HasPrefix(err.Error(), fx.shown(file)+":2") ||
						!strings.Contains(err.Error(), "longer than") && !strings.Contains(err.Error(), "between two tags") {
						t.Errorf("%s, %s with a value of %d bytes on line 2, %s: %.300v", format, fx.shown(file), len(run), s.name, err)
					}
				}
			}
		}
	}
}
