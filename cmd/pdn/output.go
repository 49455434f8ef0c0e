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

// folderFlag is a flag naming a folder to write into (-out, -export):
// every such flag of every command is one (outFlag), and the one flag
// parser (parseWithArgs) checks each (checkFolders), so that no command
// takes a folder to write that the writer would refuse only once the work
// is done: a required one left out, one given as empty text (which would
// write nothing, without a word), or a path that is no folder (a file, a
// pipe, a device, a socket, a loop of links: outdir.CheckFolder).
type folderFlag struct {
	dir      *string
	required bool
}

func (f folderFlag) String() string {
	if f.dir == nil {
		return ""
	}
	return *f.dir
}

func (f folderFlag) Set(s string) error {
	*f.dir = s
	return nil
}

// outFlag registers on fs the flag name of a folder to write into, kept in
// dir; required says the command needs it.
func outFlag(fs *flag.FlagSet, dir *string, name, usage string, required bool) {
	fs.Var(folderFlag{dir, required}, name, usage)
}

// checkFolders checks every folder flag of fs (folderFlag), once it has
// parsed: each required one given, each given one not empty, and what is
// there a folder or nothing yet.
func checkFolders(fs *flag.FlagSet) error {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var errs []error
	fs.VisitAll(func(f *flag.Flag) {
		ff, ok := f.Value.(folderFlag)
		switch {
		case !ok || !given[f.Name] && !ff.required:
		case !given[f.Name]:
			errs = append(errs, fmt.Errorf("flag -%s: a directory is required", f.Name))
		case *ff.dir == "" && ff.required:
			errs = append(errs, fmt.Errorf("flag -%s: empty; give the directory to write into", f.Name))
		case *ff.dir == "":
			errs = append(errs, fmt.Errorf("flag -%s: empty; give the directory to write into, or leave the flag out", f.Name))
		default:
			if err := outdir.CheckFolder(f.Name, *ff.dir); err != nil {
				errs = append(errs, err)
			}
		}
	})
	if len(errs) > 0 {
		return usageError{errors.Join(errs...)}
	}
	return nil
}

// outSpec is what a command writes and reads.
type outSpec struct {
	flag   string // "out" or "export"
	dir    string
	force  bool
	parts  []string
	inputs []outdir.Input
	// alone says what the run's files make of the folder where they are
	// the folder's alone (a graph, which a reader opens as the whole
	// folder): outdir.Options.Exclusive.
	alone string
}

// openOut begins the command's run of the writer on spec's folder: the
// refusals (a user's files, an input's folder, a run writing the same
// part) are the caller's to fix, exit status 2.
func openOut(spec outSpec, stderr io.Writer) (*outdir.Run, error) {
	r, err := outdir.Open(spec.dir, outdir.Options{
		Flag: spec.flag, Command: commandLine(), Parts: spec.parts, Force: spec.force, Inputs: spec.inputs, Exclusive: spec.alone, Stderr: stderr,
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
