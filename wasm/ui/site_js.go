//go:build js

package main

import (
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// pagePath is the path go-app routes the page at: the address's, less the
// root prefix go-app takes off before it routes.
func pagePath() string {
	path := strings.TrimPrefix(app.Window().Get("location").Get("pathname").String(), app.Getenv("GOAPP_ROOT_PREFIX"))
	if path == "" {
		return "/"
	}
	return path
}

// serveSite is native only: in the browser RunWhenOnBrowser never returns.
func serveSite() {}
