package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	pathpkg "path"
	"path/filepath"
	"slices"
	"strings"

	"pdnexplorer/internal/outdir"
)

// goApp is the module of the UI library.
const goApp = "github.com/maxence-charriere/go-app/v9"

// The page's program is go-app's browser half, yet go-app builds its
// server half into it too. Its Handler (pkg/app/http.go, resource.go)
// imports net/http, and with it crypto/tls, whose packages' init functions
// keep every FIPS self-test and elliptic curve in the binary: 352 kB of
// the 1.89 MB (brotli) a first visit fetched before its lab answered,
// although the page never serves or dials anything. And its router's
// regexp routes (pkg/app/route.go) keep regexp's compiler and every
// Unicode table, another 86 kB, although the page routes no pattern (see
// wasm/ui: it routes the path it is served at).
//
// Its encryption of stored states (pkg/app/crypto.go: AES-GCM, with
// crypto/rand) and the UUIDs it names a device and a store with
// (github.com/google/uuid, which brings MD5, SHA-1 and database/sql's
// driver) are linked too, though the page encrypts nothing: the
// browser's crypto.getRandomValues makes the UUIDs instead.
//
// So the page is built against a copy of go-app without those files,
// with regexp routes and encryption refused and the UUIDs the browser's,
// browserFile standing in for what the browser half calls of them.
// Nothing else of go-app changes, and every other build (the site's
// writer, the server, the tests) uses go-app as published. A go-app whose
// files differ from what this expects is refused, not patched blindly.
var (
	serverFiles = []string{"pkg/app/http.go", "pkg/app/resource.go", "pkg/app/crypto.go"}
	// fileEdits are the edits of the files that stay, each made exactly once.
	fileEdits = map[string][][2]string{
		"pkg/app/route.go": {
			{"\t\"reflect\"\n\t\"regexp\"\n", "\t\"reflect\"\n"},
			{"regexp.MustCompile(pattern)", "noRegexpRoute(pattern)"},
			{"regexp       *regexp.Regexp", "regexp       noRegexp"},
		},
		"pkg/app/context.go": {
			{"\t\"github.com/google/uuid\"\n", ""},
			{"id = uuid.NewString()", "id = browserUUID()"},
		},
		"pkg/app/state.go": {
			{"\t\"github.com/google/uuid\"\n", ""},
			{"id:     uuid.NewString(),", "id:     browserUUID(),"},
		},
	}
	browserFile = "pkg/app/browser.go"
	browserText = `// Written by PDN Explorer's site build (wasm/site/goapp.go): this copy of
// go-app is the page's, without http.go and resource.go (its server half),
// without regexp routes and without crypto.go (the encryption of stored
// states), so that net/http, regexp and crypto are not linked; its UUIDs
// are the browser's random bytes, not github.com/google/uuid's.

package app

import (
	stderrors "errors"
	"strings"
)

// Handler is served natively only.
type Handler struct{}

func isRemoteLocation(path string) bool {
	return strings.HasPrefix(path, "https://") ||
		strings.HasPrefix(path, "http://")
}

func isStaticResourcePath(path string) bool {
	return strings.HasPrefix(path, "/web/") ||
		strings.HasPrefix(path, "web/")
}

// noRegexp is a regexp route's pattern in a build that has none.
type noRegexp struct{}

func noRegexpRoute(pattern string) noRegexp {
	panic("RouteWithRegexp(" + pattern + "): this build of go-app has no regexp routes (PDN Explorer's wasm/site/goapp.go)")
}

func (noRegexp) MatchString(string) bool { return false }

// errNoCrypto is what encryption says in a build that has none.
var errNoCrypto = stderrors.New("this build of go-app encrypts nothing (PDN Explorer's wasm/site/goapp.go)")

func encrypt(string, []byte) ([]byte, error) { return nil, errNoCrypto }
func decrypt(string, []byte) ([]byte, error) { return nil, errNoCrypto }

// browserUUID is a random (version 4) UUID from crypto.getRandomValues,
// which every browser has, in secure contexts or not.
func browserUUID() string {
	var b [16]byte
	a := Window().Get("Uint8Array").New(len(b))
	Window().Get("crypto").Call("getRandomValues", a)
	CopyBytesToGo(b[:], a)
	b[6] = b[6]&0x0f | 0x40 // version 4
	b[8] = b[8]&0x3f | 0x80 // RFC 4122's variant
	const digits = "0123456789abcdef"
	var s strings.Builder
	for i, x := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			s.WriteByte('-')
		}
		s.WriteByte(digits[x>>4])
		s.WriteByte(digits[x&15])
	}
	return s.String()
}
`
)

// BrowserGoApp writes into dir the copy of go-app the page's program is
// built with (see serverFiles) and dir/browser.mod, the project's go.mod
// (read from root) using it: build with go build -modfile=dir/browser.mod.
// It asks the go command where go-app's module is, downloading it if
// needed.
func BrowserGoApp(dir, root string) error {
	src, err := moduleDir(root, goApp)
	if err != nil {
		return err
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return err
	}
	tree, err := outdir.NewTree(dir)
	if err != nil {
		return err
	}
	if err := tree.RemoveAll("go-app"); err != nil {
		return err
	}
	// Its docs (30 MB of the site's pictures) are not needed to build.
	for _, part := range []string{"go.mod", "go.sum", "LICENSE", "pkg"} {
		if err := copyTree(tree, "go-app/"+part, filepath.Join(src, part)); err != nil {
			return err
		}
	}
	for _, f := range serverFiles {
		if err := tree.Remove("go-app/" + f); err != nil {
			return fmt.Errorf("go-app changed: %w; update wasm/site/goapp.go", err)
		}
	}
	for _, f := range slices.Sorted(maps.Keys(fileEdits)) {
		if err := edit(tree, "go-app/"+f, fileEdits[f]); err != nil {
			return err
		}
	}
	if err := tree.WriteFile("go-app/"+browserFile, []byte(browserText), 0o644); err != nil {
		return err
	}
	return writeBrowserMod(tree, root, filepath.Join(dir, "go-app"))
}

// moduleDir is where the go command keeps module path's source for the
// project at root.
func moduleDir(root, path string) (string, error) {
	cmd := exec.Command("go", "mod", "download", "-json", path)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("finding %s: %w", path, err)
	}
	var m struct{ Dir, Error string }
	if err := json.Unmarshal(out, &m); err != nil || m.Dir == "" {
		return "", fmt.Errorf("finding %s: %s%v", path, m.Error, err)
	}
	return m.Dir, nil
}

// edit makes each of edits (old, new) to the file name in tree, refusing
// one whose old text is not there exactly once: go-app changed.
func edit(tree *outdir.Tree, name string, edits [][2]string) error {
	path := filepath.Join(tree.Dir(), filepath.FromSlash(name))
	text, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	for _, e := range edits {
		if n := bytes.Count(text, []byte(e[0])); n != 1 {
			return fmt.Errorf("%s: go-app changed (%q is there %d times, not once); update wasm/site/goapp.go", path, e[0], n)
		}
		text = bytes.Replace(text, []byte(e[0]), []byte(e[1]), 1)
	}
	return tree.WriteFile(name, text, 0o644)
}

// writeBrowserMod writes browser.mod and browser.sum into tree: root's
// go.mod and go.sum with go-app replaced by the copy at mod.
func writeBrowserMod(tree *outdir.Tree, root, mod string) error {
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return err
	}
	gosum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		return err
	}
	gomod = fmt.Appendf(gomod, "\nreplace %s => %s\n", goApp, strings.ReplaceAll(mod, `\`, `/`))
	if err := tree.WriteFile("browser.mod", gomod, 0o644); err != nil {
		return err
	}
	return tree.WriteFile("browser.sum", gosum, 0o644)
}

// copyTree copies src, a file or the regular files under a folder, to
// name in tree, writable (the module cache's are read-only).
func copyTree(tree *outdir.Tree, name, src string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !d.Type().IsRegular() {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return tree.WriteFile(pathpkg.Join(name, filepath.ToSlash(rel)), data, 0o644)
	})
}
