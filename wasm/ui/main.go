// Command ui is the explorer's page. Built with GOOS=js it is the go-app UI
// (web/app.wasm); built natively it writes the static site and serves it:
//
//	ui build -out dist -wasm DIR     write the site into dist
//	ui serve -dir dist [-addr 127.0.0.1:8080] [-prefix /pdn/] [-no-store]
//
// The same route serves both, as go-app expects: the page at the path it
// is served from (pagePath).
package main

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"

	ui "pdnexplorer/app"
)

func main() {
	// One page, at whatever path the site is hosted: the shell of the labs.
	// Not a pattern route: the page's go-app has none (wasm/site/goapp.go).
	app.RouteFunc(pagePath(), func() app.Composer { return &ui.Shell{} })
	ui.GuardLocation() // before go-app parses the address
	app.RunWhenOnBrowser()
	serveSite()
}
