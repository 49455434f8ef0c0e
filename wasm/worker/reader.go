//go:build !js || reader

package main

import "pdnexplorer/datasets"

// The reader's build (and the native one, whose tests read files) reads
// the user's files; the engine's links no reader (readFiles).
func init() { readFiles = datasets.OpenFiles }
