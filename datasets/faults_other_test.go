//go:build !unix

package datasets

import "pdnexplorer/internal/faults"

// specialFilesCell: pipes, sockets and device links are made here only
// on Unix.
func specialFilesCell(string, []faultFixture) faults.Cell {
	return faults.NA("the special files (pipes, sockets, links to devices) are made by the tests on Unix")
}
