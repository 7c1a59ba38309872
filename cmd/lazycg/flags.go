package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/internal/fileio"
	"github.com/lazycg/lazycg/spec"
)

// errHelp reports that the usage was printed (exit code 0).
var errHelp = errors.New("help requested")

// parseFlags parses the flags of the command fs.Name(). With
// interspersed, flags may follow positional arguments, which are
// returned. -h prints usage (a header line) and the flags on stderr and
// returns errHelp; a bad flag gives a one-line usage error with a hint to
// -h.
func parseFlags(fs *flag.FlagSet, args []string, interspersed bool, usage string, stderr io.Writer) ([]string, error) {
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Fprintf(stderr, "usage: %s\n\nflags:\n", usage)
				fs.SetOutput(stderr)
				fs.PrintDefaults()
				return nil, errHelp
			}
			return nil, usageError(fmt.Errorf("%s: %w (see lazycg %s -h)", fs.Name(), err, fs.Name()))
		}
		if fs.NArg() == 0 || !interspersed {
			return append(pos, fs.Args()...), nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// durationValue is a duration flag read by spec.ParseDuration: a Go
// duration or seconds, never negative or NaN.
type durationValue struct{ d *time.Duration }

func (v durationValue) String() string {
	if v.d == nil {
		return ""
	}
	return v.d.String()
}

func (v durationValue) Set(s string) error {
	d, err := spec.ParseDuration(s)
	if err != nil {
		return err
	}
	*v.d = d
	return nil
}

// durationFlag defines a duration flag that rejects negative, NaN and
// unbounded values.
func durationFlag(fs *flag.FlagSet, name string, def time.Duration, usage string) *time.Duration {
	d := def
	fs.Var(durationValue{&d}, name, usage)
	return &d
}

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
	// start is when the command started: the time limit counts from it.
	start time.Time
	// traceFile is the -trace output, created by parse and committed by
	// writeTrace.
	traceFile *fileio.AtomicFile
	// cpuProfile is the -cpuprofile path; profile is its file while the
	// profile runs (from parse to close).
	cpuProfile string
	profile    *os.File
}

// newRunFlags returns the flag set of the command name with the run
// settings named (by flag) bound to a Config holding the defaults. Flag
// errors surface as one-line errors from parse; -h prints the usage.
func newRunFlags(name string, stderr io.Writer, defaults spec.Config, settings ...string) *runFlags {
	f := &runFlags{fs: flag.NewFlagSet(name, flag.ContinueOnError), cfg: defaults, stderr: stderr, start: time.Now()}
	f.settings = f.cfg.RegisterFlags(f.fs, settings...)
	return f
}

// outputs registers the -trace and -json flags.
func (f *runFlags) outputs(trace string) {
	f.fs.StringVar(&f.trace, "trace", "", trace)
	f.fs.BoolVar(&f.json, "json", false, "print a JSON summary as the last line of stdout (on failure before a result: {\"error\", \"status\", \"exit_code\"})")
	f.fs.StringVar(&f.cpuProfile, "cpuprofile", "", "write a CPU profile of the run to `FILE` (go tool pprof)")
}

// parse parses args. It returns errHelp after printing the usage for -h,
// and one-line usage errors otherwise (no positional arguments allowed),
// marked for a JSON error object with -json (withJSON). It creates the
// -trace file's temporary file, so that an unwritable path fails before
// the run; call close when done.
func (f *runFlags) parse(args []string) error {
	name := f.fs.Name()
	if _, err := parseFlags(f.fs, args, false, "lazycg "+name+" [flags]", f.stderr); err != nil {
		if err == errHelp {
			return err
		}
		return withJSON(err, wantsJSON(f.fs, args))
	}
	return withJSON(f.check(), f.json)
}

// check checks the parsed flags and starts the outputs (see parse).
func (f *runFlags) check() error {
	name := f.fs.Name()
	if f.fs.NArg() > 0 {
		return usageError(fmt.Errorf("%s: unexpected argument %q (flags start with -; see lazycg %s -h)", name, f.fs.Arg(0), name))
	}
	if err := f.settings.Err(); err != nil {
		return usageError(fmt.Errorf("%s: %w", name, err))
	}
	if err := f.settings.CheckMethod(f.cfg.Method); err != nil {
		return usageError(fmt.Errorf("%s: %w", name, err))
	}
	if !f.cfg.Concurrent {
		// The policies of concurrent weak separation mean nothing
		// without it: the run would ignore them.
		for _, p := range []string{"stale", "idle"} {
			if f.fs.Lookup(p) != nil && flagSet(f.fs, p) {
				return usageError(fmt.Errorf("%s: -%s is a policy of concurrent weak separation: add -concurrent", name, p))
			}
		}
	}
	tf, err := createOutput(name, "trace", f.trace)
	if err != nil {
		return err
	}
	f.traceFile = tf
	if f.cpuProfile != "" {
		pf, err := os.Create(f.cpuProfile)
		if err != nil {
			return usageError(fmt.Errorf("%s: -cpuprofile: %w", name, err))
		}
		if err := pprof.StartCPUProfile(pf); err != nil {
			pf.Close()
			return fmt.Errorf("%s: -cpuprofile: %w", name, err)
		}
		f.profile = pf
	}
	return nil
}

// close removes the -trace file's temporary file when the trace was not
// written, and ends the -cpuprofile profile.
func (f *runFlags) close() {
	if f.traceFile != nil {
		f.traceFile.Abort()
	}
	if f.profile != nil {
		pprof.StopCPUProfile()
		if err := f.profile.Close(); err != nil {
			fmt.Fprintf(f.stderr, "lazycg: -cpuprofile: %v\n", err)
		}
		f.profile = nil
	}
}

// prepare builds the problem of the configuration under ctx. The time
// limit (-time) counts from the command's start, setup included: prepare
// returns the time left for the run (at least 1ns when a limit is set, so
// that the run still stops at once with its start point), and a setup
// that reaches the limit ends with no point.
func (f *runFlags) prepare(ctx context.Context, cfg spec.Config) (*spec.Prepared, time.Duration, error) {
	limit := cfg.TimeLimit
	if limit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, f.start.Add(limit))
		defer cancel()
	}
	p, err := cfg.PrepareContext(ctx)
	if err != nil {
		return nil, 0, setupError(f.fs.Name(), err)
	}
	if limit > 0 {
		limit = max(time.Until(f.start.Add(limit)), time.Nanosecond)
	}
	return p, limit, nil
}

// writeTrace writes the -trace file (if requested) with write; call it
// after the result was printed.
func (f *runFlags) writeTrace(write func(w io.Writer) error) error {
	if f.traceFile == nil {
		return nil
	}
	err := write(f.traceFile)
	if err == nil {
		err = f.traceFile.Commit()
	}
	f.traceFile.Abort()
	if err != nil {
		return fmt.Errorf("%s: the result was printed but the trace was not written: %w", f.fs.Name(), err)
	}
	return nil
}

// jobDefaults are the defaults the CLI's run commands share.
func jobDefaults() spec.Config {
	return spec.Config{Seed: 1, TimeLimit: 30 * time.Second, Oracle: "lmo", OracleGap: 0.1,
		MethodParams: spec.MethodParams{K: lazycg.DefaultK}}
}

// bytesValue is a memory size flag read by spec.ParseBytes.
type bytesValue struct{ b *int64 }

func (v bytesValue) String() string {
	if v.b == nil {
		return ""
	}
	return fmt.Sprint(*v.b)
}

func (v bytesValue) Set(s string) error {
	b, err := spec.ParseBytes(s)
	if err != nil {
		return err
	}
	*v.b = b
	return nil
}

// bytesFlag defines a memory size flag ("8GiB", bytes; -1: no limit).
func bytesFlag(fs *flag.FlagSet, name string, def int64, usage string) *int64 {
	b := def
	fs.Var(bytesValue{&b}, name, usage)
	return &b
}

// createOutput starts writing the output file of flag -flag of command cmd
// at path (nil for an empty path) before the run, so that a path that
// cannot be written is a usage error at once; the caller commits or aborts
// it (Abort of nil does nothing).
func createOutput(cmd, flag, path string) (*fileio.AtomicFile, error) {
	if path == "" {
		return nil, nil
	}
	f, err := fileio.CreateAtomic(path)
	if err != nil {
		return nil, usageError(fmt.Errorf("%s: -%s: %w", cmd, flag, err))
	}
	return f, nil
}
