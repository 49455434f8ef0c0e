//go:build !js

// Natively the worker only says how to build it.

package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "worker: build with GOOS=js GOARCH=wasm; it runs in a browser's Web Worker")
	os.Exit(2)
}
