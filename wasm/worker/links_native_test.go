//go:build !js

package main

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestEngineLinksNoReader keeps the readers of the user's files out of the
// engine's program, which every first visit downloads: the page's reader
// (web/reader.wasm, the reader tag) reads them and hands the engine
// workers the graph. Every reader is reached through the formats' table
// (datasets.Open, OpenFiles), so the table unreached is every reader
// unreached, whatever a new format adds (the shipped graphs' bundle reader
// stays: Cora and Citeseer are fetched as bundles); and a package-level var that
// calls into it (or into regexp, encoding/xml) as the program starts
// would reach it, which is why the table is made on first use. It asks
// the linker what it keeps (-dumpdep), as the browser build links it;
// the reader's build must keep the table, or the test proves nothing.
func TestEngineLinksNoReader(t *testing.T) {
	readers := []string{"pdnexplorer/datasets.formatTable", "pdnexplorer/datasets.OpenFiles", "encoding/xml.NewDecoder", "archive/zip.NewReader"}
	// With the SIMD kernels (clang) and without (a build where clang is
	// missing links the Go loops).
	for _, tags := range []string{"noasm,simd128", "noasm"} {
		engine := linked(t, tags)
		for _, r := range readers {
			if engine[r] {
				t.Errorf("the engine's program (-tags=%s) links %s: the first visit downloads the readers", tags, r)
			}
		}
	}
	reader := linked(t, "noasm,simd128,reader")
	for _, r := range readers[:2] {
		if !reader[r] {
			t.Errorf("the reader's program does not link %s: is the list right?", r)
		}
	}
}

// linked is what the linker keeps of the worker's program built for the
// browser with tags: every symbol some other reaches.
func linked(t *testing.T, tags string) map[string]bool {
	t.Helper()
	// A nonce in the link's flags, so that the go command links again and
	// the linker says what it keeps (a cached link says nothing).
	nonce := strconv.FormatUint(rand.Uint64(), 36)
	cmd := exec.Command("go", "build", "-o", filepath.Join(t.TempDir(), "worker.wasm"), "-tags="+tags,
		"-ldflags=-dumpdep -X main.linkNonce="+nonce, ".")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go build -tags=%s: %v\n%s", tags, err, out)
	}
	kept := map[string]bool{}
	for line := range strings.Lines(string(out)) {
		_, to, ok := strings.Cut(strings.TrimSpace(line), " -> ")
		if ok {
			to, _, _ = strings.Cut(to, " <")
			kept[to] = true
		}
	}
	if len(kept) < 1000 {
		t.Fatalf("go build -tags=%s: the linker listed %d symbols: did -dumpdep change?", tags, len(kept))
	}
	return kept
}
