//go:build !js

package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"text/template"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

const usage = `usage:
  ui build -out DIR [-wasm DIR] [-root DIR]   write the static site
  ui serve -dir DIR [-addr 127.0.0.1:8080] [-prefix /pdn/] [-no-store]`

func site() {
	if err := runSite(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "ui:", err)
		os.Exit(2)
	}
}

func runSite(args []string, stdout io.Writer) error {
	if len(args) == 0 {
		return errors.New(usage)
	}
	switch args[0] {
	case "build":
		fs := flag.NewFlagSet("build", flag.ContinueOnError)
		out := fs.String("out", "dist", "directory to write the site into")
		wasm := fs.String("wasm", "", "directory holding app.wasm and worker.wasm (default: OUT/web)")
		root := fs.String("root", ".", "the repository root: index.html and web/")
		wasmExec := fs.String("wasm-exec", "", "the toolchain's wasm_exec.js (default: from `go env GOROOT`)")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		if *wasm == "" {
			*wasm = filepath.Join(*out, "web")
		}
		if *wasmExec == "" {
			goroot, err := exec.Command("go", "env", "GOROOT").Output()
			if err != nil {
				return fmt.Errorf("finding wasm_exec.js: %w; pass -wasm-exec", err)
			}
			*wasmExec = filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js")
		}
		return build(*out, *wasm, *root, *wasmExec)
	case "serve":
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		dir := fs.String("dir", "dist", "the site to serve")
		addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
		prefix := fs.String("prefix", "/", "path to serve the site under, such as /pdn/")
		noStore := fs.Bool("no-store", false, "send Cache-Control: no-store (for offline tests)")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		ln, err := net.Listen("tcp", *addr)
		if err != nil {
			return err
		}
		h, url := siteHandler(*dir, *prefix, *noStore), "http://"+ln.Addr().String()+cleanPrefix(*prefix)
		fmt.Fprintln(stdout, "PDN Explorer is at", url)
		return http.Serve(ln, h)
	}
	return errors.New(usage)
}

func cleanPrefix(p string) string {
	p = "/" + strings.Trim(p, "/") + "/"
	if p == "//" {
		return "/"
	}
	return p
}

// siteHandler serves dir under prefix, with the MIME types a PWA needs.
func siteHandler(dir, prefix string, noStore bool) http.Handler {
	prefix = cleanPrefix(prefix)
	files := http.StripPrefix(strings.TrimSuffix(prefix, "/"), http.FileServer(http.Dir(dir)))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if noStore {
			w.Header().Set("Cache-Control", "no-store")
		}
		switch {
		case r.URL.Path+"/" == prefix:
			http.Redirect(w, r, prefix, http.StatusMovedPermanently)
			return
		case !strings.HasPrefix(r.URL.Path, prefix):
			http.NotFound(w, r)
			return
		case strings.HasSuffix(r.URL.Path, ".wasm"):
			w.Header().Set("Content-Type", "application/wasm")
		case strings.HasSuffix(r.URL.Path, ".webmanifest"):
			w.Header().Set("Content-Type", "application/manifest+json")
		}
		files.ServeHTTP(w, r)
	})
}

// build writes the static site: the root index.html (the real entry page),
// web/ (styles, the worker's bootstrap, icons), both wasm binaries, go-app's
// app.js, the toolchain's wasm_exec.js, the manifest and the service worker.
// Every URL in it is relative, so the same files work at / and under any
// sub-path.
func build(out, wasmDir, root, wasmExec string) error {
	if err := os.MkdirAll(filepath.Join(out, "web"), 0o755); err != nil {
		return err
	}
	for _, name := range []string{"app.wasm", "worker.wasm"} {
		src, dst := filepath.Join(wasmDir, name), filepath.Join(out, "web", name)
		if src != dst {
			if err := copyFile(dst, src); err != nil {
				return fmt.Errorf("%s: build it first with GOOS=js GOARCH=wasm: %w", name, err)
			}
		}
	}
	if err := copyDir(filepath.Join(out, "web"), filepath.Join(root, "web")); err != nil {
		return err
	}
	if err := copyFile(filepath.Join(out, "index.html"), filepath.Join(root, "index.html")); err != nil {
		return err
	}
	// The loader must match the Go that compiled the binaries.
	if err := copyFile(filepath.Join(out, "wasm_exec.js"), wasmExec); err != nil {
		return err
	}
	for _, size := range []int{192, 512} {
		if err := writeIcon(filepath.Join(out, "web", fmt.Sprintf("icon-%d.png", size)), size); err != nil {
			return err
		}
	}
	version, err := hashDir(out)
	if err != nil {
		return err
	}
	appJS, err := goappJS(version)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "app.js"), appJS, 0o644); err != nil {
		return err
	}
	if err := writeManifest(filepath.Join(out, "manifest.webmanifest")); err != nil {
		return err
	}
	return writeServiceWorker(filepath.Join(out, "app-worker.js"), out, version)
}

// relativeResources makes go-app load its wasm relative to the page.
type relativeResources struct{}

func (relativeResources) Package() string { return "" }
func (relativeResources) Static() string  { return "." }
func (relativeResources) AppWASM() string { return "web/app.wasm" }

// goappJS renders go-app's loader script for this site.
func goappJS(version string) ([]byte, error) {
	h := &app.Handler{
		Name:      "PDN Explorer",
		Resources: relativeResources{},
		Version:   version,
		Icon:      app.Icon{Default: "web/icon-192.png", Large: "web/icon-512.png", SVG: "web/icon.svg"},
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	res, err := http.Get(srv.URL + "/app.js")
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	js, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	// go-app writes the service worker's path from the site root; the site
	// must work under any path, so it is made relative to the page.
	abs := []byte(`"/app-worker.js"`)
	if bytes.Count(js, abs) != 1 {
		return nil, errors.New("go-app's app.js changed: cannot find the service worker registration")
	}
	return bytes.Replace(js, abs, []byte(`"app-worker.js"`), 1), nil
}

func writeManifest(path string) error {
	m := map[string]any{
		"name":             "PDN Explorer",
		"short_name":       "PDN Explorer",
		"description":      "Watch a Pathfinder Discovery Network learn the graph its messages travel on.",
		"scope":            "./",
		"start_url":        "./",
		"display":          "standalone",
		"background_color": "#ffffff",
		"theme_color":      "#1d3557",
		"icons": []map[string]string{
			{"src": "web/icon-192.png", "type": "image/png", "sizes": "192x192"},
			{"src": "web/icon-512.png", "type": "image/png", "sizes": "512x512", "purpose": "any"},
			{"src": "web/icon.svg", "type": "image/svg+xml", "sizes": "any"},
		},
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// serviceWorker precaches the whole site and answers from the cache first,
// so that after one visit the explorer loads and trains offline. Unlike
// go-app's default it resolves every path against its own scope (the site
// works under any sub-path), ignores query strings, and answers every
// navigation inside its scope with the entry page (permalinks work offline).
var serviceWorker = template.Must(template.New("sw").Parse(`// PDN Explorer service worker, version {{.Version}}.
const cacheName = "pdn-explorer-{{.Version}}";
const scope = self.registration.scope;
const files = {{.Files}}.map((f) => new URL(f, scope).href);

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(cacheName).then((cache) => cache.addAll(files)).then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== cacheName).map((k) => caches.delete(k))))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET" || !req.url.startsWith(scope)) {
    return;
  }
  event.respondWith(
    caches.open(cacheName).then(async (cache) => {
      let hit = await cache.match(req, { ignoreSearch: true });
      if (!hit && req.mode === "navigate") {
        hit = await cache.match(scope);
      }
      return hit || fetch(req);
    })
  );
});
`))

func writeServiceWorker(path, out, version string) error {
	var files []string
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		rel = filepath.ToSlash(rel)
		switch rel {
		case "app-worker.js":
			return nil
		case "index.html":
			rel = "./" // the scope URL itself is the entry page
		}
		files = append(files, rel)
		return nil
	})
	if err != nil {
		return err
	}
	sort.Strings(files)
	list, _ := json.Marshal(files)
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := serviceWorker.Execute(f, struct{ Version, Files string }{version, string(list)}); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// hashDir names a build by its contents, so a new build gets a new service
// worker and browsers fetch it.
func hashDir(dir string) (string, error) {
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		name := filepath.Base(p)
		if name == "app.js" || name == "app-worker.js" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s %d\n", filepath.ToSlash(p), len(b))
		h.Write(b)
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))[:12], err
}

func copyFile(dst, src string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o644)
}

func copyDir(dst, src string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		return copyFile(target, p)
	})
}
