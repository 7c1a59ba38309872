// Command lazycg runs lazified conditional gradient algorithms.
//
// Usage:
//
//	lazycg solve  -polytope SPEC -objective SPEC -method NAME [flags]
//	lazycg online -polytope SPEC -losses linear|quadratic[:...] -method ocg|locg [flags]
//	lazycg lmo    -polytope SPEC            (minimize the polytope file's own objective)
//	lazycg bench  SUITE|SPEC_FILE [-out DIR] [-time-scale F]
//	lazycg report DIR
//	lazycg methods
//
// Run "lazycg CMD -h" for the flags of a command. Errors print one line on
// stderr; the exit code is 2 for bad usage or input and 1 for failures.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
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

// commands maps subcommand names to their runners; files of this package
// add their own in init functions.
var commands = map[string]func(ctx context.Context, args []string, stdout, stderr io.Writer) error{}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	os.Exit(exitCode(err, os.Stderr))
}

func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	msg := strings.ReplaceAll(err.Error(), "\n", " ")
	fmt.Fprintln(stderr, "lazycg: "+msg)
	var u usageErr
	if errors.As(err, &u) {
		return 2
	}
	return 1
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "help" {
		fmt.Fprintln(stderr, "usage: lazycg COMMAND [flags]; commands: "+strings.Join(commandNames(), ", "))
		if len(args) == 0 {
			return usageError(errors.New("no command given"))
		}
		return nil
	}
	cmd, ok := commands[args[0]]
	if !ok {
		return usageError(fmt.Errorf("unknown command %q (commands: %s)", args[0], strings.Join(commandNames(), ", ")))
	}
	return cmd(ctx, args[1:], stdout, stderr)
}

func commandNames() []string {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
