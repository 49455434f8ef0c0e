//go:build !unix

package main

import (
	"testing"

	"pdnexplorer/internal/faults"
)

// specialCell: pipes and device files are made by the tests on Unix.
func specialCell(string, commandSurface) faults.Cell {
	return faults.NA("the special files (pipes, devices) are made by the tests on Unix")
}

// specialFolders: pipes, devices and links are made by the tests on Unix.
func specialFolders(*testing.T) map[string]string { return nil }
