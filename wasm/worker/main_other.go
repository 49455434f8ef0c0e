//go:build !js

// Command worker is the explorer's engine worker. It runs only as
// WebAssembly in a browser's Web Worker: build it with GOOS=js GOARCH=wasm.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "worker: build with GOOS=js GOARCH=wasm; it runs in a browser's Web Worker")
	os.Exit(2)
}
