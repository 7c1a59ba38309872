// Command lazycg runs lazified conditional gradient algorithms.
//
// Usage:
//
//	lazycg solve  -polytope SPEC -objective SPEC -method NAME [flags]
//	lazycg online -polytope SPEC -losses linear|quadratic[:...] -method ocg|locg [flags]
//	lazycg lmo    -polytope SPEC            (minimize the polytope file's own objective)
//	lazycg bench  SUITE|SPEC_FILE [-out DIR] [-time-scale F]
//	lazycg report DIR
//	lazycg hindsight DIR [-time D]   (solve the hindsight problems of online runs again)
//	lazycg methods
//
// Run "lazycg CMD -h" for the flags of a command. Errors print one line on
// stderr. Exit codes (see exit.go and the README): 0 done (a run's result
// printed, whatever limit stopped it), 1 failure at run time, 2 bad usage
// or input, 130 interrupted by SIGINT (143 SIGTERM) with the result so far
// printed. With -json (lmo, solve, online) stdout gets one JSON object in
// every case: the result, or when the command failed before printing one
// {"error": MESSAGE, "status": STATUS, "exit_code": CODE} (see classify).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// commands maps subcommand names to their runners; files of this package
// add their own in init functions.
var commands = map[string]func(ctx context.Context, args []string, stdout, stderr io.Writer) error{}

func main() {
	ctx, stop := withSignals(context.Background(), os.Stderr)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(exitCode(err, os.Stderr))
}

// run runs the command of args. When a signal canceled ctx the outcome is
// an interruption (exit code 128 + signal), with the command's error if
// any.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usageError(fmt.Errorf("no command given (commands: %s; see lazycg -h)", strings.Join(commandNames(), ", ")))
	}
	if args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprintln(stderr, "usage: lazycg COMMAND [flags]; commands: "+strings.Join(commandNames(), ", ")+
			" (lazycg COMMAND -h for the flags of one)")
		return nil
	}
	cmd, ok := commands[args[0]]
	if !ok {
		return usageError(fmt.Errorf("unknown command %q (commands: %s)", args[0], strings.Join(commandNames(), ", ")))
	}
	out := &countingWriter{w: stdout}
	err := cmd(ctx, args[1:], out, stderr)
	if sig, ok := interruption(ctx); ok {
		err = interruptedErr{sig: sig, err: err}
	}
	if j := (jsonErr{}); errors.As(err, &j) && out.n == 0 {
		// -json and no result printed: the failure as a JSON object.
		printJSONError(stdout, err)
	}
	return err
}

func commandNames() []string {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
