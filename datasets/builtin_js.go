//go:build js

package datasets

import "io/fs"

// ShipFrom gives the page's engine its way to the shipped graphs: open
// returns the folder of the shipped graph it names, with ShippedFiles
// (the worker fetches them from beside its script, where the site's build
// wrote them). Until it is called, a shipped graph is refused with a
// message that says so.
func ShipFrom(open func(name string) (fs.FS, error)) { shipped = open }
