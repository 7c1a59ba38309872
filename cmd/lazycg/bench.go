package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/lazycg/lazycg/experiment"
)

func init() {
	commands["bench"] = runBench
}

func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	out := fs.String("out", "", "output `DIR` (default bench-out/SUITE); its report keeps the experiments of earlier runs of the suite at the same time scale there")
	scale := fs.Float64("time-scale", 1, "multiply every time limit by `F` (e.g. 0.01 for a 100× shorter paper suite)")
	dataDir := fs.String("data", "", "benchmark data directory (default $LAZYCG_DATA or ../shared/data)")
	only := fs.String("run", "", "run only the experiments whose name matches the `REGEXP`")
	list := fs.Bool("list", false, "list the suite's experiments and exit")
	repeat := fs.Int("repeat", 1, "run every experiment `N` times (NAME-r1 … NAME-rN), the variants in reverse order in the even repetitions; the report adds the speedups' lower medians")
	set := fs.String("set", "", "override settings on every experiment: `key=value,...` with the suite files' keys (e.g. lazy_gap=0.1)")
	progress := durationFlag(fs, "progress", 10*time.Second, "cadence of progress lines during a run on stderr (0: none)")
	usage := fmt.Sprintf("lazycg bench SUITE|SPEC_FILE [flags]\n\nbuilt-in suites: %s\n(see the experiment package for the JSON spec format)",
		strings.Join(experiment.BuiltinNames(), ", "))
	pos, err := parseFlags(fs, args, true, usage, stderr)
	if err != nil {
		if err == errHelp {
			return nil
		}
		return err
	}
	if len(pos) != 1 {
		return usageError(fmt.Errorf("bench: want one suite name or spec file, got %d arguments (suites: %s; see lazycg bench -h)",
			len(pos), strings.Join(experiment.BuiltinNames(), ", ")))
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
	if err := suite.Override(*set); err != nil {
		return usageError(fmt.Errorf("bench: -set: %w", err))
	}
	if err := suite.Validate(); err != nil {
		return usageError(fmt.Errorf("bench: %w", err))
	}
	if suite, err = suite.Repeat(*repeat); err != nil {
		return usageError(fmt.Errorf("bench: -repeat: %w", err))
	}
	for _, e := range suite.Experiments {
		if _, err := experiment.ScaledLimit(e.TimeLimit, *scale); err != nil {
			return usageError(fmt.Errorf("bench: -time-scale: %w (experiment %s)", err, e.Name))
		}
	}
	if *list {
		for _, e := range suite.Experiments {
			limit, _ := experiment.ScaledLimit(e.TimeLimit, *scale)
			fmt.Fprintf(stdout, "%-32s %-28s limit %-8s %s\n", e.Name, e.Paper.Figure, limit, e.DisplayTitle())
		}
		return nil
	}
	if *out == "" {
		*out = filepath.Join("bench-out", suite.Name)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return usageError(fmt.Errorf("bench: -out: %w", err))
	}
	every := *progress
	if every <= 0 {
		every = -1
	}
	r := &experiment.Runner{Out: *out, TimeScale: *scale, DataDir: *dataDir, Log: stderr, ProgressEvery: every}
	res, err := r.Run(ctx, suite)
	failed := 0
	if res != nil {
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
	if failed > 0 {
		runs := "runs"
		if failed == 1 {
			runs = "run"
		}
		return fmt.Errorf("bench: %d %s failed; the report says why (%s)", failed, runs, filepath.Join(*out, experiment.ReportFile))
	}
	return nil
}
