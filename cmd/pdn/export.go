package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"pdnexplorer/datasets"
	"pdnexplorer/pdn"
	"pdnexplorer/pyg"
)

// exportTarget refuses, before any training, an -export the run could not
// write or would lose data by: a model PyTorch Geometric has no
// counterpart for, the -data folder itself, or a folder that holds files
// of its own (an earlier export's files are written over).
func exportTarget(dir, data, kind string) error {
	if dir == "" {
		return nil
	}
	if err := pdn.CheckExportable(kind); err != nil {
		return usageError{fmt.Errorf("flag -export: %w", err)}
	}
	if data != "" && overlaps(dir, data) {
		return usageError{fmt.Errorf("flag -export: %s is, holds or lies inside the -data folder %s; the export would write its files among the graph's it reads: choose another folder", quoteArg(dir), quoteArg(data))}
	}
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return usageError{fmt.Errorf("flag -export: %s is a file; want a folder to write the run into", quoteArg(dir))}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !slices.Contains(exportNames, e.Name()) {
			return usageError{fmt.Errorf("flag -export: %s holds %s, which is not an export's; choose a new or empty folder", quoteArg(dir), quoteArg(e.Name()))}
		}
	}
	return nil
}

// exportNames are the names an export writes in its folder.
var exportNames = []string{pyg.ScriptFile, pyg.WeightsFile, pyg.ReadmeFile, pyg.GraphFolder}

// exportRun writes the trained run to dir and says how to run it.
func exportRun(dir string, g *datasets.Graph, t *pdn.Trainer, stdout io.Writer) error {
	r, err := pyg.RunOf(t)
	if err != nil {
		return err
	}
	if err := pyg.WriteDir(dir, g, r); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "exported to %s: python3 %s trains it in PyTorch Geometric\n", dir, filepath.Join(dir, pyg.ScriptFile))
	return nil
}
