package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/internal/fileio"
	"github.com/lazycg/lazycg/spec"
)

// runDC is the part of solve that runs a difference-of-convex problem
// (-concave): lazycg.MinimizeDC with the method on the subproblems.
func runDC(ctx context.Context, f *runFlags, p *spec.Prepared, limit, progress time.Duration, solFile *fileio.AtomicFile,
	stdout, stderr io.Writer) error {
	settings := f.cfg.DCSettings()
	settings.TimeLimit = limit
	if !f.json && progress > 0 {
		settings.Callback = dcProgressTable(stderr, progress)
	}
	res, runErr := lazycg.MinimizeDC(ctx, p.DCProblem(), settings, p.Method)
	if res == nil {
		return noResult("solve", runErr)
	}
	sum := p.DCSummary(res)
	return writeOutputs(f, stdout, sum, func(w io.Writer) { printDCSummary(w, sum, p) },
		func(w io.Writer) error { return writeDCTrace(w, res.Trace) }, solFile, res.X, runErr)
}

// dcProgressTable prints a line per DCA iteration, at most one per cadence.
func dcProgressTable(w io.Writer, cadence time.Duration) func(lazycg.DCProgress) bool {
	var last time.Duration
	header := false
	return func(p lazycg.DCProgress) bool {
		if p.Time-last < cadence && header {
			return true
		}
		last = p.Time
		if !header {
			fmt.Fprintf(w, "%9s %9s %10s %16s %12s %9s %8s\n", "dca_iter", "time_s", "iterations", "phi", "dca_gap", "lmo_calls", "hit_rate")
			header = true
		}
		fmt.Fprintf(w, "%9d %9.2f %10d %16.10g %12.4g %9d %7.2f%%\n", p.Iteration, p.Time.Seconds(), p.Stats.Iterations,
			p.F, p.GapBound, p.Stats.LMOCalls, 100*p.Stats.CacheHitRate())
		return true
	}
}

func printDCSummary(w io.Writer, s spec.Summary, p *spec.Prepared) {
	gap, at := "none proven", ""
	if d := s.DCSummary; d.GapBound != nil {
		gap = strconv.FormatFloat(*d.GapBound, 'g', 4, 64)
		if d.CertifiedPrimal != nil && *d.CertifiedPrimal != s.Primal {
			at = fmt.Sprintf(" (at the previous iterate, φ = %.10g)", *d.CertifiedPrimal)
		}
	}
	fmt.Fprintf(w, "method      dca with %s (%s) on the subproblems\n", s.Method, p.Info.Doc)
	fmt.Fprintf(w, "polytope    %s (dimension %d)\n", s.Polytope, s.Dim)
	fmt.Fprintf(w, "objective   %s − %s (difference of convex functions)\n", s.Objective, s.DCSummary.Concave)
	fmt.Fprintf(w, "status      %s after %d DCA iterations (%d iterations of the subproblems), %.3f s (oracle %.3f s)\n",
		s.Status, s.DCSummary.DCAIterations, s.Iterations, s.TimeS, s.OracleTimeS)
	fmt.Fprintf(w, "phi         %.10g\n", s.Primal)
	fmt.Fprintf(w, "DCA gap     ≤ %s%s: a stationarity certificate; no lower bound on min φ is proven (φ is not convex)\n", gap, at)
	fmt.Fprintf(w, "LMO calls   %d (early stops %d)\n", s.LMOCalls, s.EarlyStops)
	if p.Info.Lazy {
		printSeparation(w, s)
	}
}

// writeDCTrace writes a DCA trace as CSV, one row per DCA iteration.
func writeDCTrace(w io.Writer, tr []lazycg.DCTracePoint) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "dca_iteration,time_s,oracle_time_s,iterations,lmo_calls,cache_hits,phi,dca_gap_bound")
	for _, t := range tr {
		gap := ""
		if t.GapBound <= 1e308 {
			gap = strconv.FormatFloat(t.GapBound, 'g', -1, 64)
		}
		fmt.Fprintf(bw, "%d,%g,%g,%d,%d,%d,%s,%s\n", t.Iteration, t.Time.Seconds(), t.OracleTime.Seconds(), t.InnerIterations,
			t.LMOCalls, t.CacheHits, strconv.FormatFloat(t.F, 'g', -1, 64), gap)
	}
	return bw.Flush()
}
