package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"

	"pdnexplorer/datasets"
	"pdnexplorer/internal/outdir"
	"pdnexplorer/pdn"
	"pdnexplorer/pyg"
)

// exportTarget refuses, before any training, an -export the run could not
// write: a model PyTorch Geometric has no counterpart for. The folder
// itself (a file, the -data folder, a user's files, another run writing
// it) is the writer's to refuse, as the run starts.
func exportTarget(dir, kind string, force bool) error {
	if dir == "" {
		if force {
			return usageError{errors.New("flag -force: applies to -export's folder only; give -export DIR")}
		}
		return nil
	}
	if err := pdn.CheckExportable(kind); err != nil {
		return usageError{fmt.Errorf("flag -export: %w", err)}
	}
	return nil
}

// exportRun stages the trained run's export in w and says how to run it.
func exportRun(w *outdir.Run, g *datasets.Graph, t *pdn.Trainer, stdout io.Writer) error {
	r, err := pyg.RunOf(t)
	if err != nil {
		return err
	}
	if err := pyg.WriteFiles(g, r, func(name string, perm fs.FileMode) (io.WriteCloser, error) { return w.Create("export", name, perm) }); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "exported to %s: python3 %s trains it in PyTorch Geometric\n", w.Dir(), filepath.Join(w.Dir(), pyg.ScriptFile))
	return nil
}
