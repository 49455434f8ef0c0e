package main

import (
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"pdnexplorer/internal/outdir"
)

// Every command that writes files writes them through one run of
// internal/outdir: staged, put in place together when the run is whole,
// its parts locked, a folder holding files pdn did not write refused
// without -force, and never a folder any input comes from. pdn claims
// writes nothing.

// forceFlag registers -force on a command that writes into a folder.
func forceFlag(fs *flag.FlagSet, force *bool, what string) {
	fs.BoolVar(force, "force", false, "write into "+what+" even if it holds files pdn did not write: beside them, and over any of the same names")
}

// outSpec is what a command writes and reads.
type outSpec struct {
	flag   string // "out" or "export"
	dir    string
	force  bool
	parts  []string
	inputs []outdir.Input
}

// openOut begins the command's run of the writer on spec's folder: the
// refusals (a user's files, an input's folder, a run writing the same
// part) are the caller's to fix, exit status 2.
func openOut(spec outSpec, stderr io.Writer) (*outdir.Run, error) {
	r, err := outdir.Open(spec.dir, outdir.Options{
		Flag: spec.flag, Command: commandLine(), Parts: spec.parts, Force: spec.force, Inputs: spec.inputs, Stderr: stderr,
	})
	var re *outdir.RefusedError
	if errors.As(err, &re) {
		return nil, usageError{err}
	}
	return r, err
}

// finishOut commits r if the command's work ended without error (*err is
// nil); otherwise, or if the commit fails, it drops the run's files and
// says in *err that the folder is as it was.
func finishOut(r *outdir.Run, err *error) {
	if *err == nil {
		if *err = r.Commit(); *err == nil {
			return
		}
	}
	if r.Abort() {
		*err = fmt.Errorf("%w; %s", *err, r.Untouched())
	}
}

// inputDirs are the paths a command reads, by the flag that names them
// ("" for a command's arguments); an empty path is skipped.
func inputDirs(flagName string, paths ...string) []outdir.Input {
	var in []outdir.Input
	for _, p := range paths {
		if p != "" {
			in = append(in, outdir.Input{Flag: flagName, Path: p})
		}
	}
	return in
}

// commandLine is the process's command line, for the writer's lock and
// manifest: what a second run names when it finds the folder busy.
func commandLine() string {
	return shorten("pdn " + strings.Join(os.Args[1:], " "))
}

// writeRows stages a CSV file of part in r.
func writeRows(r *outdir.Run, part, name string, rows [][]string) error {
	f, err := r.Create(part, name, 0o644)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	w.WriteAll(rows)
	return errors.Join(w.Error(), f.Close())
}

// graphInputs are the graphs of -datasets that are paths.
func graphInputs(gs []table4Graph) []outdir.Input {
	var paths []string
	for _, g := range gs {
		paths = append(paths, g.dir)
	}
	return inputDirs("datasets", paths...)
}
