//go:build !js

package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestUIDoesNotLinkTheEngine keeps the page light and the main thread free
// of training: the browser build of the UI must not import the engine, the
// generators or gonum. It asks `go list -deps`, as a reader would.
func TestUIDoesNotLinkTheEngine(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", ".")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	for _, d := range deps {
		if d == "pdnexplorer/pdn" || d == "pdnexplorer/datasets" || strings.HasPrefix(d, "gonum.org/") {
			t.Errorf("the UI links %s", d)
		}
	}
	for _, want := range []string{"pdnexplorer/app", "pdnexplorer/experiment", "pdnexplorer/wasm/protocol", "pdnexplorer/viz"} {
		found := false
		for _, d := range deps {
			found = found || d == want
		}
		if !found {
			t.Errorf("the UI does not link %s: is the list right?", want)
		}
	}
}

// TestUIFetchesItsLanguage keeps the catalogues out of the page's program:
// it fetches the one it speaks (web/i18n, written by the site's build).
func TestUIFetchesItsLanguage(t *testing.T) {
	cmd := exec.Command("go", "list", "-f", "{{.EmbedFiles}}", "pdnexplorer/i18n")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	if got := strings.TrimSpace(string(out)); got != "[]" {
		t.Errorf("the page's program embeds %s", got)
	}
	native, err := exec.Command("go", "list", "-f", "{{.EmbedFiles}}", "pdnexplorer/i18n").Output()
	if err != nil || !strings.Contains(string(native), "es.json") {
		t.Errorf("natively i18n embeds %s (%v): is the list right?", native, err)
	}
}
