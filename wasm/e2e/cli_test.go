package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
)

// pdnCommand is the command that runs `pdn ARGS` from the module's root
// with the page's engine: the same build the worker's bits are pinned
// to (-tags=noasm, GOEXPERIMENT=simd), whatever the environment sets,
// so that a test comparing the page's numbers with the command line's
// compares one engine, not two builds (the Makefile exports the same;
// a test run without it compared the assembly kernels' bits).
func pdnCommand(args ...string) *exec.Cmd {
	cmd := exec.Command("go", append([]string{"run", "-tags=noasm", "./cmd/pdn"}, args...)...)
	cmd.Dir = filepath.Join("..", "..")
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOEXPERIMENT=simd")
	return cmd
}
