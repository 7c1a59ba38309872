package main

import (
	"context"
	"encoding/json"
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
}

// runLMO minimizes the polytope file's own objective with one exact oracle
// call: a validation of the oracle against published optima (MIPLIB, TSPLIB,
// QUBO).
func runLMO(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("lmo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	poly := fs.String("polytope", "", "polytope `SPEC` with an objective of its own: mps:FILE, tsp:FILE.tsp, qubo:FILE")
	limit := fs.Duration("time", 0, "time limit of the oracle call (0: none)")
	dataDir := fs.String("data", "", "benchmark data directory (default $LAZYCG_DATA or ../shared/data)")
	asJSON := fs.Bool("json", false, "print a JSON summary")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return usageError(err)
	}
	if *poly == "" || fs.NArg() > 0 {
		return usageError(errors.New("lmo: usage: lazycg lmo -polytope SPEC [-time D] [-json]"))
	}
	in, err := spec.Polytope(*poly, spec.Options{DataDir: *dataDir, OracleTimeLimit: *limit})
	if err != nil {
		return usageError(fmt.Errorf("lmo: %w", err))
	}
	defer in.Close()
	if in.Own == nil {
		return usageError(fmt.Errorf("lmo: polytope %q defines no objective of its own", *poly))
	}
	dst := make([]float64, in.Dim())
	start := time.Now()
	res, err := in.LMO.Minimize(ctx, dst, in.Own.C)
	elapsed := time.Since(start)
	if err != nil && !res.Found {
		return fmt.Errorf("lmo: %w", err)
	}
	own := in.Own
	sum := lmoSummary{Polytope: *poly, Objective: own.Name, Dim: in.Dim(),
		Optimum: own.Sign*res.Value + own.Const, Reason: res.Reason.String(), Nodes: res.Nodes, TimeS: elapsed.Seconds()}
	if !math.IsInf(res.Bound, -1) {
		b := own.Sign*res.Bound + own.Const
		sum.Bound = &b
	}
	if *asJSON {
		b, _ := json.Marshal(sum)
		fmt.Fprintln(stdout, string(b))
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
	if err != nil {
		return fmt.Errorf("lmo: %w", err)
	}
	return nil
}
