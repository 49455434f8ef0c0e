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

// Handler serves the site in dir under prefix. A browser that accepts gzip
// gets the name.gz copy Build wrote, with the original's type; others get
// the file itself. With noStore every response says Cache-Control:
// no-store, so that in tests only the service worker can make the site
// work offline.
func Handler(dir, prefix string, noStore bool) http.Handler {
	prefix = CleanPrefix(prefix)
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
			if acceptsGzip(r) && serveGzip(w, r, dir, name) {
				return
			}
		}
		files.ServeHTTP(w, r)
	})
}

// acceptsGzip reports whether the request's Accept-Encoding allows gzip.
func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(coding), "gzip") {
			return strings.ReplaceAll(params, " ", "") != "q=0"
		}
	}
	return false
}

// serveGzip serves dir/name.gz as name, if it exists.
func serveGzip(w http.ResponseWriter, r *http.Request, dir, name string) bool {
	f, err := os.Open(filepath.Join(dir, filepath.FromSlash(name)+".gz"))
	if err != nil {
		return false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.IsDir() {
		return false
	}
	w.Header().Set("Content-Encoding", "gzip")
	http.ServeContent(w, r, name, st.ModTime(), f)
	return true
}
