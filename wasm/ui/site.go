//go:build !js

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"pdnexplorer/experiment"
	"pdnexplorer/wasm/site"
)

const usage = `usage:
  ui build -out DIR [-wasm DIR] [-root DIR] [-wasm-exec FILE]   write the static site
  ui serve -dir DIR [-addr 127.0.0.1:8080] [-prefix /pdn/] [-no-store]
  ui goapp -out DIR [-root DIR]     the go-app the page is built with, and DIR/browser.mod`

// pagePath is the path go-app routes the page at: natively, where the
// site's build asks go-app for each lab's first view (see site.Build).
func pagePath() string { return "/" }

func serveSite() {
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
		return site.Build(*out, *wasm, *root, *wasmExec, labNames())
	case "goapp":
		fs := flag.NewFlagSet("goapp", flag.ContinueOnError)
		out := fs.String("out", ".cache/browser", "directory to write go-app's copy and browser.mod into")
		root := fs.String("root", ".", "the repository root: go.mod and go.sum")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		return site.BrowserGoApp(*out, *root)
	case "serve":
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		dir := fs.String("dir", "dist", "the site to serve")
		addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
		prefix := fs.String("prefix", "/", "path to serve the site under, such as /pdn/")
		noStore := fs.Bool("no-store", false, "send Cache-Control: no-store (for offline tests)")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		if st, err := os.Stat(filepath.Join(*dir, "index.html")); err != nil || st.IsDir() {
			return fmt.Errorf("%s holds no built site: run make dist first", *dir)
		}
		ln, err := net.Listen("tcp", *addr)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, "PDN Explorer is at", "http://"+ln.Addr().String()+site.CleanPrefix(*prefix))
		return http.Serve(ln, site.Handler(*dir, *prefix, *noStore))
	}
	return errors.New(usage)
}

// labNames are the labs the entry page draws before the page's program
// starts, the default first.
func labNames() []string {
	names := []string{experiment.Labs[0].Name}
	for _, l := range experiment.Labs {
		if l.Name != names[0] {
			names = append(names, l.Name)
		}
	}
	return names
}
