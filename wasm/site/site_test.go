package site

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// buildTestSite builds the site from the repository's index.html and web/,
// with stand-ins for the two binaries.
func buildTestSite(t *testing.T) string {
	t.Helper()
	wasm := t.TempDir()
	big := bytes.Repeat([]byte("\x00asm stand-in "), 4096)
	for _, name := range []string{"app.wasm", "worker.wasm"} {
		if err := os.WriteFile(filepath.Join(wasm, name), big, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "dist")
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	wasmExec := filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js")
	if err := Build(out, wasm, "../..", wasmExec); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestBuildWritesCompressedCopies(t *testing.T) {
	out := buildTestSite(t)
	for _, name := range []string{"index.html", "app.js", "wasm_exec.js", "web/app.wasm", "web/worker.wasm", "web/app.css", "web/worker.js", "manifest.webmanifest", "app-worker.js"} {
		plain, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		z, err := os.Open(filepath.Join(out, name+".gz"))
		if err != nil {
			t.Errorf("%s has no gzip copy", name)
			continue
		}
		r, err := gzip.NewReader(z)
		if err != nil {
			t.Fatalf("%s.gz: %v", name, err)
		}
		back, _ := io.ReadAll(r)
		z.Close()
		if !bytes.Equal(back, plain) {
			t.Errorf("%s.gz does not unpack to %s", name, name)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "web", "icon-192.png.gz")); err == nil {
		t.Error("a PNG, compressed already, got a gzip copy")
	}
	sw, _ := os.ReadFile(filepath.Join(out, "app-worker.js"))
	if strings.Contains(string(sw), ".gz") || !strings.Contains(string(sw), `"./"`) || !strings.Contains(string(sw), `"web/worker.wasm"`) {
		t.Errorf("the service worker's list is wrong:\n%s", sw)
	}
	index, _ := os.ReadFile(filepath.Join(out, "index.html"))
	if !strings.Contains(string(index), `script-src 'self' 'wasm-unsafe-eval';`) || strings.Contains(string(index), "unsafe-inline") {
		t.Error("index.html lacks the Content-Security-Policy, or it allows inline code")
	}
}

func get(t *testing.T, h http.Handler, path string, header ...string) *http.Response {
	t.Helper()
	req := httptest.NewRequest("GET", path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func TestHandlerServesGzipToThoseWhoAcceptIt(t *testing.T) {
	out := buildTestSite(t)
	h := Handler(out, "/pdn/", false)
	plain, _ := os.ReadFile(filepath.Join(out, "web", "app.wasm"))

	res := get(t, h, "/pdn/web/app.wasm", "Accept-Encoding", "gzip, deflate, br")
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || res.Header.Get("Content-Encoding") != "gzip" || res.Header.Get("Content-Type") != "application/wasm" ||
		!strings.Contains(res.Header.Get("Vary"), "Accept-Encoding") || len(body) >= len(plain) {
		t.Errorf("gzip: %d, %v, %d bytes of %d", res.StatusCode, res.Header, len(body), len(plain))
	}
	if res.Header.Get(WasmLengthHeader) != "57344" {
		t.Errorf("%s: %q", WasmLengthHeader, res.Header.Get(WasmLengthHeader))
	}

	res = get(t, h, "/pdn/web/app.wasm", "Accept-Encoding", "gzip;q=0, identity")
	body, _ = io.ReadAll(res.Body)
	if res.Header.Get("Content-Encoding") != "" || !bytes.Equal(body, plain) {
		t.Error("gzip;q=0 was served gzip")
	}
	res = get(t, h, "/pdn/")
	body, _ = io.ReadAll(res.Body)
	if res.StatusCode != 200 || res.Header.Get("Content-Encoding") != "" || !strings.Contains(string(body), "<!DOCTYPE html>") {
		t.Errorf("the entry page without gzip: %d %v", res.StatusCode, res.Header)
	}
	res = get(t, h, "/pdn/", "Accept-Encoding", "gzip")
	if res.Header.Get("Content-Encoding") != "gzip" || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		t.Errorf("the entry page with gzip: %v", res.Header)
	}
	if res := get(t, h, "/pdn/web/icon-192.png", "Accept-Encoding", "gzip"); res.Header.Get("Content-Encoding") != "" || res.StatusCode != 200 {
		t.Errorf("a PNG: %d %v", res.StatusCode, res.Header)
	}
	// A repeat request the browser can validate costs no body.
	res = get(t, h, "/pdn/app-worker.js", "Accept-Encoding", "gzip")
	lm := res.Header.Get("Last-Modified")
	res = get(t, h, "/pdn/app-worker.js", "Accept-Encoding", "gzip", "If-Modified-Since", lm)
	if lm == "" || res.StatusCode != http.StatusNotModified {
		t.Errorf("revalidation: Last-Modified %q, then %d", lm, res.StatusCode)
	}
}

func TestHandlerPaths(t *testing.T) {
	out := buildTestSite(t)
	h := Handler(out, "pdn", true)
	if res := get(t, h, "/pdn"); res.StatusCode != http.StatusMovedPermanently || res.Header.Get("Location") != "/pdn/" {
		t.Errorf("/pdn: %d → %s", res.StatusCode, res.Header.Get("Location"))
	}
	for _, p := range []string{"/", "/elsewhere/index.html", "/pdn/../../etc/passwd", "/pdn/web/nope.js"} {
		if res := get(t, h, p, "Accept-Encoding", "gzip"); res.StatusCode != http.StatusNotFound && res.StatusCode != http.StatusMovedPermanently {
			t.Errorf("%s: %d", p, res.StatusCode)
		}
	}
	if res := get(t, h, "/pdn/app.js"); res.Header.Get("Cache-Control") != "no-store" || res.Header.Get("Content-Type") != "text/javascript; charset=utf-8" {
		t.Errorf("app.js: %v", res.Header)
	}
}
