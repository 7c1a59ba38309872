package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/lazycg/lazycg"
)

// Exit codes, one table for every command (README, "Exit codes"):
//
//	0    the command did its work; a run printed its result, whatever
//	     stopped it (convergence, an iteration, call or time limit, a
//	     stall)
//	1    failure at run time: an oracle or solver failed, no point was
//	     found before the time limit, an output file could not be written
//	     (after the result was printed)
//	2    bad usage or input: flags, specs, unreadable or malformed files,
//	     a spec above the memory budget, an empty polytope (infeasible
//	     model) or an unbounded one, an unwritable output path (checked
//	     before the run)
//	130  interrupted by SIGINT (143: SIGTERM); the result so far is printed
const (
	exitOK         = 0
	exitFailure    = 1
	exitUsage      = 2
	exitSignalBase = 128
)

// usageErr marks errors caused by bad usage or input (exit code 2).
type usageErr struct{ error }

func (e usageErr) Unwrap() error { return e.error }

// usageError marks err as a usage or input error.
func usageError(err error) error {
	if err == nil {
		return nil
	}
	return usageErr{err}
}

// signalCause is the cause of the cancellation of a command's context by
// a signal.
type signalCause struct{ sig syscall.Signal }

func (c signalCause) Error() string { return "interrupted by " + signalName(c.sig) }

func signalName(sig syscall.Signal) string {
	switch sig {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return sig.String()
}

// interruptedErr is the outcome of a command whose context a signal
// canceled: exit code 128 + the signal.
type interruptedErr struct {
	sig syscall.Signal
	err error // the command's own error, if any
}

func (e interruptedErr) Error() string {
	if e.err == nil {
		return fmt.Sprintf("interrupted by %s; the result printed is the best found until then", signalName(e.sig))
	}
	return fmt.Sprintf("interrupted by %s: %v", signalName(e.sig), e.err)
}

func (e interruptedErr) Unwrap() error { return e.err }

// withSignals returns a context that the first SIGINT or SIGTERM cancels
// with a signalCause, so that the running command stops, prints its
// result and exits with 128 + the signal. A second signal exits at once,
// without a result. stop releases the signal handlers.
func withSignals(parent context.Context, stderr io.Writer) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		first := true
		for {
			select {
			case s := <-ch:
				sig, _ := s.(syscall.Signal)
				if first {
					first = false
					cancel(signalCause{sig})
					continue
				}
				fmt.Fprintf(stderr, "lazycg: interrupted again by %s: exiting without a result\n", signalName(sig))
				os.Exit(exitSignalBase + int(sig))
			case <-done:
				return
			}
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel(nil)
	}
}

// interruption returns the signal that canceled ctx, if any.
func interruption(ctx context.Context) (syscall.Signal, bool) {
	var c signalCause
	if ctx.Err() != nil && errors.As(context.Cause(ctx), &c) {
		return c.sig, true
	}
	return 0, false
}

// exitCode prints err as one line on stderr and returns the exit code.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	fmt.Fprintln(stderr, "lazycg: "+errorLine(err))
	code, _ := classify(err)
	return code
}

// errorLine is err's message on one line.
func errorLine(err error) string {
	return strings.ReplaceAll(err.Error(), "\n", " ")
}

// The statuses of the JSON error objects (see printJSONError), one per
// kind of failure; "time-limit" and "failure" are also statuses of runs.
const (
	statusBadInput    = "bad-input"   // exit 2: flags, specs, files
	statusInfeasible  = "infeasible"  // exit 2: an empty polytope
	statusUnbounded   = "unbounded"   // exit 2: an unbounded polytope
	statusTimeLimit   = "time-limit"  // exit 1: the limit came before any point
	statusFailure     = "failure"     // exit 1: an oracle, a solver or an output failed
	statusInterrupted = "interrupted" // 128 + signal
)

// classify returns the exit code of the non-nil error err and the status
// of its JSON error object.
func classify(err error) (code int, status string) {
	var (
		u usageErr
		i interruptedErr
		t timeLimitErr
	)
	switch {
	case errors.As(err, &i):
		return exitSignalBase + int(i.sig), statusInterrupted
	case errors.Is(err, lazycg.ErrEmptyPolytope) && errors.As(err, &u):
		return exitUsage, statusInfeasible
	case errors.Is(err, lazycg.ErrUnbounded) && errors.As(err, &u):
		return exitUsage, statusUnbounded
	case errors.As(err, &u):
		return exitUsage, statusBadInput
	case errors.As(err, &t):
		return exitFailure, statusTimeLimit
	}
	return exitFailure, statusFailure
}

// timeLimitErr marks the failure of a command whose time limit was
// reached before it had any result (exit code 1, status "time-limit").
type timeLimitErr struct{ error }

func (e timeLimitErr) Unwrap() error { return e.error }

// jsonErr marks the error of a command run with -json: unless the command
// printed its result on stdout before failing, run prints the error there
// as a JSON object (printJSONError), so that a script reading stdout
// always gets one.
type jsonErr struct{ error }

func (e jsonErr) Unwrap() error { return e.error }

// withJSON marks err for a JSON error object when on (-json).
func withJSON(err error, on bool) error {
	if err == nil || !on {
		return err
	}
	return jsonErr{err}
}

// wantsJSON reports whether args, the arguments of the command with the
// flags fs that could not be parsed, ask for -json: the parse stopped at
// the bad flag, so the flags after it are read here as flag.FlagSet would
// (up to the first argument that is not a flag or "--", skipping the
// values of the flags that take one, and a non-flag argument after a flag
// that is not defined, which may be its value).
func wantsJSON(fs *flag.FlagSet, args []string) bool {
	on := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || len(a) < 2 || a[0] != '-' {
			break
		}
		name, val, hasVal := strings.Cut(strings.TrimPrefix(a[1:], "-"), "=")
		if name == "json" {
			on = true
			if hasVal {
				on, _ = strconv.ParseBool(val)
			}
			continue
		}
		if hasVal {
			continue
		}
		f := fs.Lookup(name)
		if f == nil {
			// A flag the command does not define (often one of another
			// command, such as solve's -lmo-calls given to online): it
			// may take a value, so a next argument that is not a flag is
			// read as its value rather than as the end of the flags.
			if i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				i++
			}
			continue
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !ok || !b.IsBoolFlag() {
			i++ // the flag's value
		}
	}
	return on
}

// jsonError is the JSON error object of a command run with -json that
// failed without printing a result.
type jsonError struct {
	Error    string `json:"error"`
	Status   string `json:"status"`
	ExitCode int    `json:"exit_code"`
}

// printJSONError prints the failure err as one JSON line on w: its
// message (as on stderr, without the "lazycg: " prefix), its status (see
// classify) and the exit code.
func printJSONError(w io.Writer, err error) {
	code, status := classify(err)
	printJSON(w, jsonError{Error: errorLine(err), Status: status, ExitCode: code})
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// setupError classifies an error of spec.Config.PrepareContext: the time
// limit or an interruption during setup (no point: exit 1, or the
// signal's code), or bad input (exit 2).
func setupError(cmd string, err error) error {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return timeLimitErr{fmt.Errorf("%s: the time limit was reached during setup (reading and building the problem): no point, no bound", cmd)}
	case errors.Is(err, context.Canceled):
		return fmt.Errorf("%s: stopped during setup (reading and building the problem): no point, no bound", cmd)
	}
	return usageError(fmt.Errorf("%s: %w", cmd, err))
}

// noResult classifies the error of a run that returned no result: an
// empty or unbounded polytope or settings that do not fit the method
// (lazycg.ErrSettings) are bad input (exit 2), the time limit or an interruption
// before any point was known and solver failures are failures (exit 1, or
// the signal's code).
func noResult(cmd string, err error) error {
	switch {
	case errors.Is(err, lazycg.ErrEmptyPolytope):
		return usageError(fmt.Errorf("%s: %w: no point", cmd, lazycg.ErrEmptyPolytope))
	case errors.Is(err, lazycg.ErrUnbounded), errors.Is(err, lazycg.ErrSettings):
		return usageError(fmt.Errorf("%s: %w", cmd, err))
	case errors.Is(err, lazycg.ErrNoPoint) && errors.Is(err, context.DeadlineExceeded):
		return timeLimitErr{fmt.Errorf("%s: the time limit was reached before the oracle found any point of the polytope: no point, no bound", cmd)}
	case errors.Is(err, lazycg.ErrNoPoint):
		return fmt.Errorf("%s: stopped before the oracle found any point of the polytope: no point, no bound", cmd)
	}
	return fmt.Errorf("%s: %w", cmd, err)
}
