//go:build js

package datasets

import (
	"io/fs"
	"os"

	"pdnexplorer/internal/input"
)

// Under Node the tests read the shipped graphs from this package's
// folder, as the page's engine reads those the site's build wrote.
func init() {
	ShipFrom(func(name string) (fs.FS, error) { return input.Sub(os.DirFS("builtin"), name) })
}
