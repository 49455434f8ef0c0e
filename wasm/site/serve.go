package site

import (
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// CleanPrefix returns the sub-path a site is served under as "/" or
// "/name/".
func CleanPrefix(p string) string {
	p = "/" + strings.Trim(p, "/") + "/"
	if p == "//" {
		return "/"
	}
	return p
}

// types are the MIME types a PWA needs that Go's table may lack.
var types = map[string]string{
	".wasm":        "application/wasm",
	".webmanifest": "application/manifest+json",
	".js":          "text/javascript; charset=utf-8",
	".svg":         "image/svg+xml",
}

func contentType(name string) string {
	ext := filepath.Ext(name)
	if t, ok := types[ext]; ok {
		return t
	}
	return mime.TypeByExtension(ext)
}

// Isolation returns the headers that make the page cross-origin isolated, so
// that its engine worker may share its memory with helper threads (web/
// worker.js): the page opens no window of another origin's and loads
// nothing of another origin's but what says it may be (COOP, COEP), and
// the site's own files may be embedded anywhere (CORP: the lab's <iframe>
// in a course page that is isolated itself). Handler sends them with
// every file, and the service worker adds them where a host sends none.
func Isolation() map[string]string {
	return map[string]string{
		"Cross-Origin-Opener-Policy":   "same-origin",
		"Cross-Origin-Embedder-Policy": "require-corp",
		"Cross-Origin-Resource-Policy": "cross-origin",
	}
}

// Handler serves the site in dir under prefix, with the Isolation headers. A browser that accepts
// brotli gets the name.br copy Build wrote, one that accepts gzip the
// name.gz copy, with the original's type; others get the file itself. With noStore every response says Cache-Control:
// no-store, so that in tests only the service worker can make the site
// work offline.
func Handler(dir, prefix string, noStore bool) http.Handler {
	prefix = CleanPrefix(prefix)
	files := http.StripPrefix(strings.TrimSuffix(prefix, "/"), http.FileServer(http.Dir(dir)))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if noStore {
			w.Header().Set("Cache-Control", "no-store")
		}
		for k, v := range Isolation() {
			w.Header().Set(k, v)
		}
		switch {
		case r.URL.Path+"/" == prefix:
			http.Redirect(w, r, prefix, http.StatusMovedPermanently)
			return
		case !strings.HasPrefix(r.URL.Path, prefix):
			http.NotFound(w, r)
			return
		}
		name := path.Clean("/" + strings.TrimPrefix(r.URL.Path, prefix))
		if strings.HasSuffix(r.URL.Path, "/") {
			name = path.Join(name, "index.html")
		}
		if t := contentType(name); t != "" {
			w.Header().Set("Content-Type", t)
		}
		if path.Base(name) == "app.wasm" {
			if st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(name))); err == nil {
				w.Header().Set(WasmLengthHeader, strconv.FormatInt(st.Size(), 10))
			}
		}
		if compressible[path.Ext(name)] {
			w.Header().Add("Vary", "Accept-Encoding")
			for _, e := range encodings {
				if accepts(r, e.name) && serveCopy(w, r, dir, name, e.name, e.suffix) {
					return
				}
			}
		}
		files.ServeHTTP(w, r)
	})
}

// accepts reports whether the request's Accept-Encoding allows coding.
func accepts(r *http.Request, coding string) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		c, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(c), coding) {
			return strings.ReplaceAll(params, " ", "") != "q=0"
		}
	}
	return false
}

// serveCopy serves dir/name+suffix, the copy in coding, as name, if it
// exists.
func serveCopy(w http.ResponseWriter, r *http.Request, dir, name, coding, suffix string) bool {
	f, err := os.Open(filepath.Join(dir, filepath.FromSlash(name)+suffix))
	if err != nil {
		return false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.IsDir() {
		return false
	}
	w.Header().Set("Content-Encoding", coding)
	http.ServeContent(w, r, name, st.ModTime(), f)
	return true
}
