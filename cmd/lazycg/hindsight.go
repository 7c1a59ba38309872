package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"regexp"
	"strings"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/experiment"
	"github.com/lazycg/lazycg/spec"
)

func init() {
	commands["hindsight"] = runHindsight
}

// runHindsight solves the hindsight problems of a bench output's online
// runs again with a longer time limit and prints the regret brackets.
func runHindsight(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("hindsight", flag.ContinueOnError)
	limit := durationFlag(fs, "time", experiment.DefaultRehindsightTime, "time limit of each hindsight solve")
	dataDir := fs.String("data", "", "benchmark data directory (default $LAZYCG_DATA or ../shared/data)")
	relax := fs.Float64("relax", 0, "share of each solve's time for a solve over the LP relaxation of a MIP polytope, whose dual bound counts when better (0: 0.25; negative: none)")
	polyOpts := fs.String("polytope-options", "", "`key=value,...` set in each run's polytope spec (replacing the run's value of a key it has): options that keep the polytope and strengthen its solves, e.g. cycles=1 (qubo), triangles=cuts or triangles=0,oracle=enum (cut), threads=2")
	only := fs.String("run", "", "solve only for the runs whose label or experiment/label matches the `REGEXP` (e.g. ^OCG$ — plain OCG also matches LOCG-pf — or cut-28-quadratic/)")
	usage := "lazycg hindsight DIR [flags]  (DIR is the -out directory of lazycg bench with online experiments)\n\n" +
		"Solves min_P Σ_{t≤T} f_t again for every online run in DIR (T its rounds) and prints its average\n" +
		"regret bracket as recorded and as proven by the new solve. The last points the experiment's runs\n" +
		"played (saved by lazycg bench beside their traces) are points of P: the best of them and the\n" +
		"solve's primal value give the lower end."
	pos, err := parseFlags(fs, args, true, usage, stderr)
	if err != nil {
		if err == errHelp {
			return nil
		}
		return err
	}
	if len(pos) != 1 {
		return usageError(fmt.Errorf("hindsight: want one directory, got %d arguments (see lazycg hindsight -h)", len(pos)))
	}
	if *limit <= 0 {
		return usageError(fmt.Errorf("hindsight: -time must be positive"))
	}
	if math.IsNaN(*relax) || *relax >= 1 {
		return usageError(fmt.Errorf("hindsight: -relax must be below 1"))
	}
	if err := spec.CheckPolytopeOptions(*polyOpts); err != nil {
		return usageError(fmt.Errorf("hindsight: -polytope-options: %w", err))
	}
	opt := experiment.HindsightOptions{TimeLimit: *limit, DataDir: *dataDir, Log: stderr, Relaxation: *relax, PolytopeOptions: *polyOpts}
	if *only != "" {
		if opt.Run, err = regexp.Compile(*only); err != nil {
			return usageError(fmt.Errorf("hindsight: -run: %w", err))
		}
	}
	rows, err := experiment.Rehindsight(ctx, pos[0], opt)
	if err != nil && len(rows) == 0 && ctx.Err() == nil {
		return usageError(fmt.Errorf("hindsight: %w", err))
	}
	if len(rows) == 0 && err == nil {
		return usageError(fmt.Errorf("hindsight: %s holds no online run (with rounds) that -run selects", pos[0]))
	}
	fmt.Fprintln(stdout, "| experiment | run | rounds | average regret as recorded | average regret, new solve | both (intersection) | solve |")
	fmt.Fprintln(stdout, "|---|---|---:|---|---|---|---|")
	failed := 0
	var damaged []string // the distinct input errors, in order
	seen := map[string]bool{}
	for _, r := range rows {
		solve := fmt.Sprintf("%s, %.0f s", r.Status, r.Time.Seconds())
		if r.Point != "" {
			solve += "; lower end from " + r.Point + "'s last point"
		}
		if r.Err != nil {
			solve += ": " + r.Err.Error()
			inputErrs, other := splitInputErrors(r.Err)
			if other || r.Status == lazycg.Failure && len(inputErrs) == 0 {
				failed++
			}
			for _, e := range inputErrs {
				if msg := e.Error(); !seen[msg] {
					seen[msg] = true
					damaged = append(damaged, msg)
				}
			}
		}
		fmt.Fprintf(stdout, "| %s | %s | %d | %s | %s | %s | %s |\n", r.Experiment, r.Label, r.Rounds,
			bracket(r.BeforeLower, r.BeforeUpper), bracket(r.Lower, r.Upper), bracket(r.Combined()), solve)
	}
	if err != nil {
		return err // interrupted: the rows so far are printed
	}
	var solves string
	if failed > 0 {
		solves = fmt.Sprintf("%d of %d solves failed", failed, len(rows))
	}
	if len(damaged) > 0 {
		// Bad input (exit 2), as it would have been had it been checked
		// before the solves: the rows' other results stand.
		if solves != "" {
			solves = "; " + solves
		}
		return usageError(fmt.Errorf("hindsight: bad input, not used (%d): %s%s", len(damaged), strings.Join(damaged, "; "), solves))
	}
	if failed > 0 {
		return fmt.Errorf("hindsight: %s", solves)
	}
	return nil
}

// splitInputErrors splits the error of a row of experiment.Rehindsight
// (the errors.Join of its errors) into those of its input
// (experiment.InputError: a damaged saved point file, a run that cannot be
// rebuilt) — bad input — and reports whether any other error is left: a
// failed solve.
func splitInputErrors(err error) (input []error, other bool) {
	var walk func(error)
	walk = func(e error) {
		var ie *experiment.InputError
		switch j, ok := e.(interface{ Unwrap() []error }); {
		case ok:
			for _, e := range j.Unwrap() {
				walk(e)
			}
		case errors.As(e, &ie):
			input = append(input, ie)
		default:
			other = true
		}
	}
	walk(err)
	return input, other
}

// bracket formats [lo, hi] with "?" for unknown ends.
func bracket(lo, hi float64) string {
	f := func(v float64) string {
		if math.IsNaN(v) {
			return "?"
		}
		return fmt.Sprintf("%.6g", v)
	}
	return "[" + f(lo) + ", " + f(hi) + "]"
}
