// Command pdn generates the paper's synthetic graphs and trains PDN, GCN and
// MLP on them (or on a graph bundle) from the command line.
//
//	pdn gen   -out DIR [synthetic flags]
//	pdn train [-data DIR | synthetic flags] [-model pdn|gcn|mlp] [-epochs 200]
//	          [-seed 1] [-init-seed N] [-edge-hidden 16] [-hidden 32]
//	          [-lr 0.01] [-weight-decay 0] [-json]
//
// Bad flags or bad data print one line naming the flag, file or line and the
// allowed range, and exit with status 2.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// usageError is a mistake of the caller: exit status 2.
type usageError struct{ error }

func main() {
	err := run(os.Args[1:], os.Stdout, os.Stderr)
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "pdn:", oneLine(err))
	}
	os.Exit(exitCode(err))
}

// exitCode is 0 for success or help, 2 for the caller's mistakes (bad flags,
// bad data), 1 for anything else (a run that diverged, a full disk).
func exitCode(err error) int {
	var ue usageError
	switch {
	case err == nil || errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ue):
		return 2
	}
	return 1
}

// oneLine joins the lines of err (errors.Join gives one per bad field).
func oneLine(err error) string {
	return strings.ReplaceAll(err.Error(), "\n", "; ")
}

const usage = `usage: pdn <command> [flags]

commands:
  gen     write a synthetic graph bundle
  train   train a model and report its accuracy
  sweep   run one of the paper's synthetic scenarios (Figure 3)
  xor     the XOR proposition (§4.1.1): which pathfinders learn it
  runtime PDN's epoch time over GCN's (Appendix E, Figure 6)
  degree  learned edge weight against degree, GAT and PDN (§4.2)

Run 'pdn <command> -h' for the flags of a command.`

func run(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprintln(stderr, usage)
		return usageError{errors.New("no command given")}
	}
	switch args[0] {
	case "gen":
		return gen(args[1:], stdout, stderr)
	case "train":
		return train(args[1:], stdout, stderr)
	case "sweep":
		return sweep(args[1:], stdout, stderr)
	case "xor":
		return xor(args[1:], stdout, stderr)
	case "runtime":
		return runtimeCmd(args[1:], stdout, stderr)
	case "degree":
		return degree(args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		fmt.Fprintln(stdout, usage)
		return nil
	}
	return usageError{fmt.Errorf("unknown command %q; want gen or train", args[0])}
}

// parse parses args with fs, turning every failure into a one-line usage
// error; -h prints the flags to stderr.
func parse(fs *flag.FlagSet, args []string, stderr io.Writer) error {
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fs.SetOutput(stderr)
		fs.PrintDefaults()
		return err
	}
	if err != nil {
		return usageError{err}
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("unexpected argument %q", fs.Arg(0))}
	}
	return nil
}
