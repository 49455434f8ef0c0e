//go:build !unix

package main

import "pdnexplorer/internal/faults"

// specialCell: pipes and device files are made by the tests on Unix.
func specialCell(string, commandSurface) faults.Cell {
	return faults.NA("the special files (pipes, devices) are made by the tests on Unix")
}
