//go:build !js

package pdn

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

// make bench-compare checks its BASE before it downloads benchstat or
// builds anything: a revision the repository does not have, or none, is
// one line and exit status 2 (audit 162: benchstat first, then git's
// "fatal: Needed a single revision" and exit 128).
func TestBenchCompareRefusesABadBase(t *testing.T) {
	for _, need := range []string{"bash", "git"} {
		if _, err := exec.LookPath(need); err != nil {
			t.Skipf("no %s to run scripts/bench-compare.sh", need)
		}
	}
	if err := exec.Command("git", "rev-parse", "--show-toplevel").Run(); err != nil {
		t.Skip("not in a git work tree: bench-compare compares commits of one")
	}
	for _, tc := range []struct{ name, base, want string }{
		{"no such revision", "nosuchrev", "BASE=nosuchrev is not a commit"},
		{"a blob, not a commit", "HEAD:go.mod", "is not a commit"},
		{"none", "", "usage: bench-compare.sh REV"},
	} {
		cmd := exec.Command("bash", "../scripts/bench-compare.sh", tc.base)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		code := -1
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		msg := strings.TrimSpace(out.String())
		if code != 2 || strings.Contains(msg, "\n") || !strings.Contains(msg, tc.want) {
			t.Errorf("%s: exit %d, %q; want 2 and one line saying %q", tc.name, code, msg, tc.want)
		}
	}
}
