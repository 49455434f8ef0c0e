package site

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"pdnexplorer/i18n"
	"pdnexplorer/i18n/phrase"
	"pdnexplorer/internal/outdir"
)

// labStub is the page's component for the tests: it draws the lab its
// query names, as the shell does.
type labStub struct {
	app.Compo
	lab string
}

func (l *labStub) OnPreRender(ctx app.Context) { l.lab = ctx.Page().URL().Query().Get("lab") }

func (l *labStub) Render() app.UI {
	return app.Div().Class("explorer").Body(
		app.Div().Class("lab").Text("the "+l.lab+" lab"),
		app.Select().Body(
			app.Option().Value("a").Selected(l.lab == "graph").Text("a"),
			app.Option().Value("b").Selected(l.lab != "graph").Text("b"),
		),
	)
}

func init() { app.RouteWithRegexpFunc("^/.*", func() app.Composer { return &labStub{} }) }

// buildTestSite builds the site from the repository's index.html and web/,
// with stand-ins for the two binaries.
func buildTestSite(t *testing.T) string {
	t.Helper()
	wasm := t.TempDir()
	big := bytes.Repeat([]byte("\x00asm stand-in "), 4096)
	for _, name := range []string{"app.wasm", "worker.wasm", ReaderWasm} {
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
	if err := Build(out, wasm, "../..", wasmExec, []string{"graph", "xor"}); err != nil {
		t.Fatal(err)
	}
	return out
}

// unpackers read the compressed copies back, by their suffix.
var unpackers = map[string]func(io.Reader) (io.Reader, error){
	".gz": func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) },
	".br": func(r io.Reader) (io.Reader, error) { return brotli.NewReader(r), nil },
}

func TestBuildWritesCompressedCopies(t *testing.T) {
	out := buildTestSite(t)
	for _, name := range []string{"index.html", "app.js", "wasm_exec.js", "web/app.wasm", "web/worker.wasm", "web/app.css", "web/worker.js", "manifest.webmanifest", "app-worker.js", "web/i18n/es.json", "web/i18n/zh.json", "web/i18n/ar.json"} {
		plain, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		for suffix, unpack := range unpackers {
			z, err := os.Open(filepath.Join(out, name+suffix))
			if err != nil {
				t.Errorf("%s has no %s copy", name, suffix)
				continue
			}
			r, err := unpack(z)
			if err != nil {
				t.Fatalf("%s%s: %v", name, suffix, err)
			}
			back, _ := io.ReadAll(r)
			z.Close()
			if !bytes.Equal(back, plain) {
				t.Errorf("%s%s does not unpack to %s", name, suffix, name)
			}
		}
	}
	for _, suffix := range []string{".gz", ".br"} {
		if _, err := os.Stat(filepath.Join(out, "web", "icon-192.png"+suffix)); err == nil {
			t.Errorf("a PNG, compressed already, got a %s copy", suffix)
		}
	}
	sw, _ := os.ReadFile(filepath.Join(out, "app-worker.js"))
	if strings.Contains(string(sw), ".gz") || strings.Contains(string(sw), ".br\"") || !strings.Contains(string(sw), `"./"`) || !strings.Contains(string(sw), `"web/worker.wasm"`) || !strings.Contains(string(sw), `"web/i18n/ar.json"`) {
		t.Errorf("the service worker's list is wrong:\n%s", sw)
	}
	// The reader of files is kept once fetched, never precached: a first
	// visit does not download it.
	if files, _, _ := strings.Cut(string(sw), "const lazy"); strings.Contains(files, ReaderWasm) || !strings.Contains(string(sw), `const lazy = ["web/`+ReaderWasm+`"]`) {
		t.Errorf("the service worker precaches the reader of files, or does not keep it once fetched:\n%s", sw)
	}
	index, _ := os.ReadFile(filepath.Join(out, "index.html"))
	if !strings.Contains(string(index), `script-src 'self' 'wasm-unsafe-eval';`) || strings.Contains(string(index), "unsafe-inline") {
		t.Error("index.html lacks the Content-Security-Policy, or it allows inline code")
	}
	appJS, _ := os.ReadFile(filepath.Join(out, "app.js"))
	if strings.Contains(string(appJS), "\ngoappInitServiceWorker();") || !strings.Contains(string(appJS), "async function goappInitServiceWorker") {
		t.Error("app.js registers the service worker as it starts, or cannot any more")
	}
	if strings.Contains(string(appJS), "\ngoappInitWebAssembly();") || !strings.Contains(string(appJS), "setTimeout(goappInitWebAssembly, 0)") {
		t.Error("app.js does not wait for the first paint to load the page's program")
	}
}

// The entry page holds each lab drawn by the page's component before its
// program starts, in a first element the program replaces: the first lab
// shown, the others hidden.
func TestBuildPrerendersTheLabs(t *testing.T) {
	out := buildTestSite(t)
	index, _ := os.ReadFile(filepath.Join(out, "index.html"))
	page := string(index)
	for _, want := range []string{
		"<div data-lab=\"graph\"><div class=\"explorer\">\n<div class=\"lab\">the graph lab</div>",
		"<div data-lab=\"xor\" hidden><div class=\"explorer\">\n<div class=\"lab\">the xor lab</div>",
		`<option selected value="a">a</option>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("index.html lacks %s:\n%s", want, page)
		}
	}
	_, body, _ := strings.Cut(page, "<body>")
	if first := strings.Index(body, "<div"); first < 0 || !strings.HasPrefix(body[first:], `<div class="prerendered" inert>`) {
		t.Errorf("the prerendered labs are not the body's first element:\n%.300s", body)
	}
	if strings.Contains(page, `="false"`) || strings.Count(page, " selected") != 2 {
		t.Errorf("the drawn menus select other than one option each:\n%s", page)
	}
	if strings.Contains(page, prerenderMark) {
		t.Error("the mark is left in the page")
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
	back, _ := io.ReadAll(brotli.NewReader(bytes.NewReader(body)))
	if res.StatusCode != 200 || res.Header.Get("Content-Encoding") != "br" || res.Header.Get("Content-Type") != "application/wasm" ||
		!strings.Contains(res.Header.Get("Vary"), "Accept-Encoding") || !bytes.Equal(back, plain) {
		t.Errorf("brotli: %d, %v, %d bytes of %d", res.StatusCode, res.Header, len(body), len(plain))
	}
	res = get(t, h, "/pdn/web/app.wasm", "Accept-Encoding", "gzip, deflate, br;q=0")
	body, _ = io.ReadAll(res.Body)
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

// Every answer, the entry page's, a script's, a compressed copy's, a
// missing file's, carries the headers that make the page cross-origin
// isolated (its engine's threads), and the service worker adds the same
// ones where a host sends none.
func TestEveryAnswerIsolates(t *testing.T) {
	out := buildTestSite(t)
	h := Handler(out, "/pdn/", false)
	for _, req := range [][]string{{"/pdn/"}, {"/pdn/web/worker.js"}, {"/pdn/web/app.wasm", "Accept-Encoding", "br, gzip"}, {"/pdn/web/helper.js"}, {"/pdn/web/nope.js"}} {
		res := get(t, h, req[0], req[1:]...)
		for k, v := range Isolation() {
			if got := res.Header.Get(k); got != v {
				t.Errorf("%s (%d): %s is %q, not %q", req[0], res.StatusCode, k, got, v)
			}
		}
	}
	sw, _ := os.ReadFile(filepath.Join(out, "app-worker.js"))
	for k, v := range Isolation() {
		if !strings.Contains(string(sw), fmt.Sprintf("%q:%q", k, v)) {
			t.Errorf("the service worker does not add %s: %s", k, v)
		}
	}
	if !strings.Contains(string(sw), "return isolated(hit || (await fetch(req)))") {
		t.Error("the service worker answers without the isolation headers")
	}
}

// The labs drawn in the entry page are the same in every build: each tag's
// attributes in order of name, as go-app writes them in any order.
func TestSortAttributes(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`<option value="a" selected>`, `<option selected value="a">`},
		{`<option selected value="a">`, `<option selected value="a">`},
		{`<div>`, `<div>`},
		{`<input type="range" aria-label="say \"hi\" > there" id="x">`, `<input aria-label="say \"hi\" > there" id="x" type="range">`},
		{`<svg viewBox="0 0 1 1" data-metric="acc"><path d="M0 0"></path></svg>`, `<svg data-metric="acc" viewBox="0 0 1 1"><path d="M0 0"></path></svg>`},
	} {
		if got := startTag.ReplaceAllStringFunc(c.in, sortAttributes); got != c.want {
			t.Errorf("%s: got %s, want %s", c.in, got, c.want)
		}
	}
}

// The page's program is built against go-app without its server half and
// its regexp routes and encryption: it must still build, and link neither
// net/http (nor the crypto/tls it brings), regexp, nor crypto or uuid.
// Natively go-app is as published.
func TestBrowserGoAppLeavesTheServerOut(t *testing.T) {
	dir := t.TempDir()
	if err := BrowserGoApp(dir, "../.."); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "list", "-modfile="+filepath.Join(dir, "browser.mod"), "-deps", "-f", "{{.ImportPath}} {{.Dir}}", "pdnexplorer/wasm/ui")
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	copied := false
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, pkgDir, _ := strings.Cut(line, " ")
		switch pkg {
		case "net/http", "crypto/tls", "regexp", "text/template", "crypto/aes", "crypto/cipher", "crypto/rand", "crypto/md5", "crypto/sha1", "github.com/google/uuid":
			t.Errorf("the page links %s", pkg)
		case goApp + "/pkg/app":
			copied = strings.HasPrefix(pkgDir, dir)
		}
	}
	if !copied {
		t.Errorf("the page does not build against the copy:\n%s", out)
	}
	build := exec.Command("go", "build", "-modfile="+filepath.Join(dir, "browser.mod"), "-o", filepath.Join(dir, "app.wasm"), "./wasm/ui")
	build.Dir = "../.."
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("the page does not build: %v\n%s", err, out)
	}
}

// A go-app that is not the one goapp.go was written for is refused, not
// patched blindly.
func TestEditRefusesAChangedFile(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "route.go"), []byte("package app\n\nimport \"regexp\"\n"), 0o644)
	tree, _ := outdir.NewTree(dir)
	err := edit(tree, "route.go", fileEdits["pkg/app/route.go"])
	if err == nil || !strings.Contains(err.Error(), "go-app changed") {
		t.Errorf("edit of a changed route.go: %v", err)
	}
}

// The loader's words are the page's before its program runs: app.js
// writes no browser error into the page, and holds each language's label
// and failure from the catalogues.
func TestLoaderSpeaksThePagesLanguage(t *testing.T) {
	js, err := goappJS("v1")
	if err != nil {
		t.Fatal(err)
	}
	s := string(js)
	if strings.Contains(s, "innerText = err") || strings.Contains(s, "goappLoadingLabel.replace") {
		t.Error("app.js still shows the browser's error or go-app's English label")
	}
	for _, l := range i18n.Languages {
		tr := func(key string) string { return i18n.T(l.Code, key) }
		for _, w := range []phrase.Text{loadingWords, failedWords} {
			text, _ := json.Marshal(w.In(tr))
			if !strings.Contains(s, string(text)) {
				t.Errorf("app.js lacks the %s words %s", l.Code, text)
			}
		}
	}
}

// The loader picks its words as the page picks its language, and a link
// whose lang names no language (__proto__, constructor, toString, auto,
// nothing) gets the browser's, or English: never a value that is not the
// words, which would stop the page from loading. Run in Node, as the
// browser runs app.js's function.
func TestLoaderPicksOnlyItsOwnLanguages(t *testing.T) {
	js, err := goappJS("v1")
	if err != nil {
		t.Fatal(err)
	}
	s := string(js)
	i := strings.Index(s, "function goappWords()")
	j := strings.Index(s, "// The entry page's label")
	if i < 0 || j < i {
		t.Fatal("app.js has no goappWords")
	}
	en, es := loadingWords.In(func(k string) string { return i18n.T("en", k) }), loadingWords.In(func(k string) string { return i18n.T("es", k) })
	for _, c := range []struct{ hash, langs, want string }{
		{"#lang=es", `["en-US"]`, es},
		{"#lab=graph&lang=__proto__", `["es-ES"]`, es},
		{"#lang=constructor", `[]`, en},
		{"#lang=toString", `["fr", "ES_mx"]`, es},
		{"#lang=auto", `["de"]`, en},
		{"", `["zz", "es"]`, es},
	} {
		prog := fmt.Sprintf("const location = {hash: %q}; const navigator = {languages: %s, language: undefined};\n%s\nprocess.stdout.write(goappWords().loading);", c.hash, c.langs, s[i:j])
		out, err := exec.Command("node", "-e", prog).CombinedOutput()
		if err != nil {
			t.Fatalf("node: %v\n%s", err, out)
		}
		if string(out) != c.want {
			t.Errorf("hash %q, languages %s: %q, want %q", c.hash, c.langs, out, c.want)
		}
	}
}
