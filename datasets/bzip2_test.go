package datasets

import (
	"bytes"
	"compress/bzip2"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Go's library reads bzip2 and writes none, so the bzip2 copies of the
// fixtures' texts the compression cells read are kept in testdata/bzip2,
// by their text's digest; -bzip2 writes those missing with the bzip2
// command.
var writeBzip2 = flag.Bool("bzip2", false, "write the missing bzip2 copies of the fixtures' texts (testdata/bzip2) with the bzip2 command")

// bzip2Of is text compressed with bzip2, from testdata/bzip2.
func bzip2Of(t testing.TB, text string) string {
	t.Helper()
	sum := sha256.Sum256([]byte(text))
	p := filepath.Join("testdata", "bzip2", hex.EncodeToString(sum[:8])+".bz2")
	b, err := os.ReadFile(p)
	if err != nil && *writeBzip2 {
		cmd := exec.Command("bzip2", "-c", "-9")
		cmd.Stdin = strings.NewReader(text)
		if b, err = cmd.Output(); err == nil {
			if err = os.MkdirAll(filepath.Dir(p), 0o755); err == nil {
				err = os.WriteFile(p, b, 0o644)
			}
		}
	}
	if err != nil {
		t.Fatalf("no bzip2 copy of the text %.40q (%s: %v): run go test ./datasets -run TestEveryClassOnEveryFormat -bzip2", text, p, err)
	}
	back, err := io.ReadAll(bzip2.NewReader(bytes.NewReader(b)))
	if err != nil || string(back) != text {
		t.Fatalf("%s does not inflate to its text: %v", p, err)
	}
	return string(b)
}
