package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/spec"
)

func init() { commands["lmo"] = runLMO }

// lmoSummary is the JSON output of "lazycg lmo".
type lmoSummary struct {
	Polytope  string   `json:"polytope"`
	Objective string   `json:"objective"`
	Dim       int      `json:"dim"`
	Optimum   float64  `json:"optimum"`
	Bound     *float64 `json:"bound"`
	Reason    string   `json:"reason"`
	Nodes     int64    `json:"nodes"`
	TimeS     float64  `json:"time_s"`
	// Error is why the oracle failed after finding the point (exit code 1).
	Error string `json:"error,omitempty"`
}

// runLMO minimizes the polytope file's own objective with one exact oracle
// call: a validation of the oracle against published optima (MIPLIB, TSPLIB,
// QUBO).
func runLMO(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	begin := time.Now()
	fs := flag.NewFlagSet("lmo", flag.ContinueOnError)
	poly := fs.String("polytope", "", "polytope `SPEC` with an objective of its own: mps:FILE, tsp:FILE.tsp, qubo:FILE")
	limit := durationFlag(fs, "time", 0, "time limit from the start of the command, reading the file included (0: none)")
	dataDir := fs.String("data", "", "benchmark data directory (default $LAZYCG_DATA or ../shared/data)")
	memory := bytesFlag(fs, "memory", 0, "memory budget: `SIZE` such as 8GiB; larger instances are refused (0: $LAZYCG_MEMORY or half the memory the process may use: machine, cgroup limit, ulimit -v; -1: none)")
	asJSON := fs.Bool("json", false, "print a JSON summary on stdout (on failure: {\"error\", \"status\", \"exit_code\"})")
	pos, err := parseFlags(fs, args, false, "lazycg lmo -polytope SPEC [-time D] [-json]", stderr)
	if err != nil {
		if err == errHelp {
			return nil
		}
		return withJSON(err, wantsJSON(fs, args))
	}
	defer func() { err = withJSON(err, *asJSON) }()
	if len(pos) > 0 {
		return usageError(fmt.Errorf("lmo: unexpected argument %q (see lazycg lmo -h)", pos[0]))
	}
	if *poly == "" {
		return usageError(errors.New("lmo: -polytope is required (see lazycg lmo -h)"))
	}
	in, err := spec.Polytope(*poly, spec.Options{DataDir: *dataDir, OracleTimeLimit: *limit, MemoryBudget: *memory})
	if err != nil {
		return usageError(fmt.Errorf("lmo: %w", err))
	}
	defer in.Close()
	if in.Own == nil {
		return usageError(fmt.Errorf("lmo: polytope %q defines no objective of its own", *poly))
	}
	dst := make([]float64, in.Dim())
	if *limit > 0 {
		// The limit counts from the command's start: the oracle's own
		// limit (set above) bounds the solve, the deadline what setup left.
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, begin.Add(*limit))
		defer cancel()
	}
	start := time.Now()
	res, err := in.LMO.Minimize(ctx, dst, in.Own.C)
	elapsed := time.Since(start)
	timeLimit := res.Reason == lazycg.StopTimeLimit || errors.Is(err, context.DeadlineExceeded)
	if err != nil && !res.Found {
		if timeLimit {
			return timeLimitErr{fmt.Errorf("lmo: the time limit was reached before the oracle found any point: no point, no bound (%w)", err)}
		}
		return noResult("lmo", err)
	}
	own := in.Own
	sum := lmoSummary{Polytope: *poly, Objective: own.Name, Dim: in.Dim(),
		Optimum: own.Sign*res.Value + own.Const, Reason: res.Reason.String(), Nodes: res.Nodes, TimeS: elapsed.Seconds()}
	if !math.IsInf(res.Bound, -1) {
		b := own.Sign*res.Bound + own.Const
		sum.Bound = &b
	}
	failed := err != nil && !timeLimit
	if failed {
		sum.Error = err.Error()
	}
	if *asJSON {
		if err := printJSON(stdout, sum); err != nil {
			return fmt.Errorf("lmo: %w", err)
		}
	} else {
		fmt.Fprintf(stdout, "%s: %s over %d coordinates\n", *poly, own.Name, in.Dim())
		if res.Reason == lazycg.StopOptimal {
			fmt.Fprintf(stdout, "optimum     %.10g (proven, %d nodes, %.3f s)\n", sum.Optimum, sum.Nodes, sum.TimeS)
		} else {
			fmt.Fprintf(stdout, "incumbent   %.10g (stopped: %s, %d nodes, %.3f s)\n", sum.Optimum, sum.Reason, sum.Nodes, sum.TimeS)
			if sum.Bound != nil {
				fmt.Fprintf(stdout, "bound       %.10g\n", *sum.Bound)
			}
		}
	}
	if failed {
		return fmt.Errorf("lmo: the oracle failed after finding the point above: %w", err)
	}
	return nil
}
