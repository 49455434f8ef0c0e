package main

import (
	"io"
	"strings"
	"testing"
)

// FuzzFlags parses any arguments for each command (parsing does no work).
// Nothing may panic; a refusal exits 2 with one short line.
func FuzzFlags(f *testing.F) {
	for _, tc := range badCLI {
		if len(tc.args) > 0 {
			f.Add(strings.Join(tc.args, "\x00"))
		}
	}
	f.Add("train\x00-lr\x000x1p-3\x00-edge-hidden\x00\x00-data")
	f.Fuzz(func(t *testing.T, joined string) {
		args := strings.Split(joined, "\x00")
		c, ok := lookup(args[0])
		if !ok {
			return
		}
		_, err := c.parse(args[1:], io.Discard)
		if err == nil {
			return
		}
		if code := exitCode(err); code != 2 && code != 0 {
			t.Fatalf("%q: exit %d for %v", args, code, err)
		}
		if msg := oneLine(err); len(msg) > 600 {
			t.Fatalf("%q: a message of %d bytes", args, len(msg))
		}
	})
}
