//go:build !js

package datasets

import (
	"embed"
	"io/fs"

	"pdnexplorer/internal/input"
)

// Natively (the command line, the site's build, the tests) the shipped
// graphs are embedded; the page's engine fetches them instead
// (builtin_js.go), so that its program is smaller by their 290 kB
// (brotli).
//
//go:embed builtin/cora builtin/citeseer builtin/LICENSE.planetoid
var embedded embed.FS

func init() {
	shipped = func(name string) (fs.FS, error) { return input.Sub(embedded, "builtin/"+name) }
}

// Shipped is the folder of the shipped graphs, a folder a graph, and
// their licence (LICENSE.planetoid), as the site's build writes them for
// the page's engine to fetch.
func Shipped() fs.FS {
	sub, _ := input.Sub(embedded, "builtin")
	return sub
}
