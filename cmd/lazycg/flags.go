package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/spec"
)

// runFlags are the flags of the commands that run a job (solve, online):
// the run settings of spec.Config, registered from its settings table, and
// the outputs.
type runFlags struct {
	fs       *flag.FlagSet
	cfg      spec.Config
	settings *spec.Flags
	trace    string
	json     bool
	stderr   io.Writer
}

// newRunFlags returns the flag set of the command name with the run
// settings named (by flag) bound to a Config holding the defaults. Flag
// errors surface as one-line errors from parse; -h prints the usage.
func newRunFlags(name string, stderr io.Writer, defaults spec.Config, settings ...string) *runFlags {
	f := &runFlags{fs: flag.NewFlagSet(name, flag.ContinueOnError), cfg: defaults, stderr: stderr}
	f.fs.SetOutput(io.Discard)
	f.settings = f.cfg.RegisterFlags(f.fs, settings...)
	return f
}

// outputs registers the -trace and -json flags.
func (f *runFlags) outputs(trace string) {
	f.fs.StringVar(&f.trace, "trace", "", trace)
	f.fs.BoolVar(&f.json, "json", false, "print a JSON summary as the last line of stdout")
}

// parse parses args. It returns errHelp after printing the usage for -h,
// and one-line usage errors otherwise (no positional arguments allowed).
func (f *runFlags) parse(args []string) error {
	if err := f.fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(f.stderr, "usage: lazycg %s [flags]\n\nflags:\n", f.fs.Name())
			f.fs.SetOutput(f.stderr)
			f.fs.PrintDefaults()
			return errHelp
		}
		return usageError(fmt.Errorf("%s: %w (see lazycg %s -h)", f.fs.Name(), err, f.fs.Name()))
	}
	if f.fs.NArg() > 0 {
		return usageError(fmt.Errorf("%s: unexpected argument %q", f.fs.Name(), f.fs.Arg(0)))
	}
	if err := f.settings.Err(); err != nil {
		return usageError(fmt.Errorf("%s: %w", f.fs.Name(), err))
	}
	return nil
}

// errHelp reports that the usage was printed (exit code 0).
var errHelp = errors.New("help requested")

// jobDefaults are the defaults the CLI's run commands share.
func jobDefaults() spec.Config {
	return spec.Config{Seed: 1, TimeLimit: 30 * time.Second, Oracle: "lmo", OracleGap: 0.1,
		MethodParams: spec.MethodParams{K: lazycg.DefaultK}}
}
