package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"
	"time"

	"github.com/lazycg/lazycg/experiment"
)

func init() {
	commands["bench"] = runBench
}

// parseInterspersed parses flags that may come before or after the
// positional arguments and returns the positional ones.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: lazycg bench SUITE|SPEC_FILE [flags]\n\nbuilt-in suites: %s\n(see the experiment package for the JSON spec format)\n\nflags:\n",
			strings.Join(experiment.BuiltinNames(), ", "))
		fs.PrintDefaults()
	}
	out := fs.String("out", "", "output `DIR` (default bench-out/SUITE)")
	scale := fs.Float64("time-scale", 1, "multiply every time limit by `F` (e.g. 0.01 for a 100× shorter paper suite)")
	dataDir := fs.String("data", "", "benchmark data directory (default $LAZYCG_DATA or ../shared/data)")
	only := fs.String("run", "", "run only the experiments whose name matches the `REGEXP`")
	list := fs.Bool("list", false, "list the suite's experiments and exit")
	progress := fs.Duration("progress", 10*time.Second, "cadence of progress lines during a run on stderr (0: none)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return usageError(err)
	}
	if len(pos) != 1 {
		fs.Usage()
		return usageError(fmt.Errorf("bench: want one suite name or spec file, got %d arguments", len(pos)))
	}
	if !(*scale > 0) || math.IsInf(*scale, 0) {
		return usageError(fmt.Errorf("bench: -time-scale must be a positive number, got %g", *scale))
	}
	suite, err := experiment.Load(pos[0])
	if err != nil {
		return usageError(fmt.Errorf("bench: %w", err))
	}
	if suite, err = suite.Select(*only); err != nil {
		return usageError(fmt.Errorf("bench: %w", err))
	}
	if err := suite.Validate(); err != nil {
		return usageError(fmt.Errorf("bench: %w", err))
	}
	if *list {
		for _, e := range suite.Experiments {
			limit := time.Duration(float64(e.TimeLimit) * *scale)
			fmt.Fprintf(stdout, "%-32s %-28s limit %-8s %s\n", e.Name, e.Paper.Figure, limit, e.DisplayTitle())
		}
		return nil
	}
	if *out == "" {
		*out = filepath.Join("bench-out", suite.Name)
	}
	every := *progress
	if every <= 0 {
		every = -1
	}
	r := &experiment.Runner{Out: *out, TimeScale: *scale, DataDir: *dataDir, Log: stderr, ProgressEvery: every}
	res, err := r.Run(ctx, suite)
	if res != nil {
		failed := 0
		for _, e := range res.Experiments {
			for _, run := range e.Runs {
				if run.Error != "" {
					failed++
				}
			}
			if e.Error != "" && len(e.Runs) == 0 {
				failed++
			}
		}
		fmt.Fprintf(stdout, "suite %s: %d experiments in %.1f s", res.Suite, len(res.Experiments), res.WallTimeS)
		if failed > 0 {
			fmt.Fprintf(stdout, ", %d runs with errors (see the report)", failed)
		}
		fmt.Fprintln(stdout)
		fmt.Fprintf(stdout, "report:  %s\n", filepath.Join(*out, experiment.ReportFile))
		fmt.Fprintf(stdout, "table:   %s\n", filepath.Join(*out, experiment.SummaryTableFile))
		fmt.Fprintf(stdout, "figures: %s\n", filepath.Join(*out, "*", experiment.FigurePNG))
	}
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	return nil
}
