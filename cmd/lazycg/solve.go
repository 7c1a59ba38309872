package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/experiment"
	"github.com/lazycg/lazycg/internal/fileio"
	"github.com/lazycg/lazycg/spec"
)

func init() {
	commands["solve"] = runSolve
	commands["methods"] = runMethods
}

// solveSettings are the run settings solve accepts as flags.
var solveSettings = []string{"polytope", "objective", "method", "K", "C", "phi0", "phi0-search", "phi0-lmo", "no-ls", "improved-phi", "phi-factor",
	"concave", "gap", "time", "iters", "lmo-calls", "seed", "oracle", "oracle-gap", "oracle-time", "cache", "early", "concurrent", "stale", "idle", "dive", "adaptive-dive", "call-budget", "lazy-gap", "max-inexact", "prune",
	"best-fit", "cache-bytes", "memory", "params", "data", "target", "line-search", "smoothness"}

func runSolve(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	def := jobDefaults()
	def.Objective, def.Method = "quadratic", "lcg"
	f := newRunFlags("solve", stderr, def, solveSettings...)
	f.outputs("write the trace as CSV to `FILE`")
	progress := durationFlag(f.fs, "progress", 2*time.Second, "progress table cadence on stderr (without -json; 0: none)")
	solution := f.fs.String("solution", "", "write the final point x to `FILE`: a comment line, then one coordinate per line (also when the run stops early: its best point)")
	calls := f.fs.String("calls", "", "write the LMO calls of concurrent weak separation (with -concurrent) as CSV to `FILE`: instance, role, start_s, end_s, f, phi, t, outcome, stale, gap")
	if err := f.parse(args); err != nil {
		if err == errHelp {
			return nil
		}
		return err
	}
	defer f.close()
	defer func() { err = withJSON(err, f.json) }()
	if *calls != "" && !f.cfg.Concurrent {
		return usageError(errors.New("solve: -calls records the calls of concurrent weak separation: add -concurrent"))
	}
	if f.cfg.Concave != "" && !flagSet(f.fs, "method") {
		// DCA's subproblems want a linearly convergent method.
		f.cfg.Method = "lazy-bpcg"
	}
	callsFile, err := createOutput("solve", "calls", *calls)
	if err != nil {
		return err
	}
	defer callsFile.Abort()
	solFile, err := createOutput("solve", "solution", *solution)
	if err != nil {
		return err
	}
	defer solFile.Abort()
	p, limit, err := f.prepare(ctx, f.cfg)
	if err != nil {
		return err
	}
	defer p.Close()
	if p.Concave != nil {
		return runDC(ctx, f, p, limit, *progress, solFile, stdout, stderr)
	}
	settings := f.cfg.Settings()
	settings.TimeLimit = limit
	if !f.json && *progress > 0 {
		settings.Callback = lazycg.NewProgressTable(stderr, *progress)
	}
	res, runErr := lazycg.Minimize(ctx, p.Problem, settings, p.Method)
	if res == nil {
		return noResult("solve", runErr)
	}
	sum := p.Summary(res)
	err = writeOutputs(f, stdout, sum, func(w io.Writer) { printSummary(w, sum, p) },
		func(w io.Writer) error { return experiment.WriteTrace(w, experiment.Trace{Points: res.Trace}) },
		solFile, res.X, runErr)
	if callsFile != nil {
		cerr := experiment.WriteCalls(callsFile, res.Calls)
		if cerr == nil {
			cerr = callsFile.Commit()
		}
		if cerr != nil {
			err = errors.Join(err, fmt.Errorf("solve: the result was printed but the calls were not written: -calls: %w", cerr))
		}
	}
	return err
}

// flagSet reports whether the flag called name was given.
func flagSet(fs *flag.FlagSet, name string) (set bool) {
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// writeOutputs prints the result of a run first (the JSON line or the
// text summary), then writes the trace and the solution file: an output
// file that cannot be written costs nothing but that file. runErr is the
// run's own error.
func writeOutputs(f *runFlags, stdout io.Writer, sum spec.Summary, text func(io.Writer), trace func(io.Writer) error,
	solFile *fileio.AtomicFile, x []float64, runErr error) error {
	if f.json {
		if err := printJSON(stdout, sum); err != nil {
			return err
		}
	} else {
		text(stdout)
	}
	traceErr := f.writeTrace(trace)
	var solErr error
	if solFile != nil {
		if solErr = writeSolution(solFile, sum, x); solErr == nil {
			solErr = solFile.Commit()
		}
		if solErr != nil {
			solErr = fmt.Errorf("solve: the result was printed but the solution was not written: %w", solErr)
		}
	}
	if runErr != nil {
		return fmt.Errorf("solve: run failed: %w", runErr)
	}
	return errors.Join(traceErr, solErr)
}

// writeSolution writes x as the -solution file: a comment line with the
// run's polytope, dimension, primal value and proven dual bound, then one
// coordinate per line in full precision (readable by numpy.loadtxt and
// the like).
func writeSolution(w io.Writer, s spec.Summary, x []float64) error {
	bw := bufio.NewWriter(w)
	dual := "none"
	if s.DualBound != nil {
		dual = strconv.FormatFloat(*s.DualBound, 'g', 17, 64)
	}
	fmt.Fprintf(bw, "# lazycg solve: polytope %s, method %s, dimension %d, primal %s, dual bound %s\n",
		s.Polytope, s.Method, len(x), strconv.FormatFloat(s.Primal, 'g', 17, 64), dual)
	buf := make([]byte, 0, 32)
	for _, v := range x {
		buf = strconv.AppendFloat(buf[:0], v, 'g', -1, 64)
		buf = append(buf, '\n')
		bw.Write(buf)
	}
	return bw.Flush()
}

// printJSON prints v as one JSON line.
func printJSON(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	fmt.Fprintln(w, string(b))
	return nil
}

func printSummary(w io.Writer, s spec.Summary, p *spec.Prepared) {
	dual := "none proven"
	gap := "∞"
	if s.DualBound != nil {
		dual = strconv.FormatFloat(*s.DualBound, 'g', 10, 64)
		gap = strconv.FormatFloat(s.Primal-*s.DualBound, 'g', 4, 64)
	}
	fmt.Fprintf(w, "method      %s (%s)\n", s.Method, p.Info.Doc)
	fmt.Fprintf(w, "polytope    %s (dimension %d)\n", s.Polytope, s.Dim)
	fmt.Fprintf(w, "objective   %s\n", s.Objective)
	fmt.Fprintf(w, "status      %s after %d iterations, %.3f s (oracle %.3f s)\n", s.Status, s.Iterations, s.TimeS, s.OracleTimeS)
	corr := ""
	if s.Corrections > 0 || s.CorrectionTimeS > 0 {
		corr = fmt.Sprintf("corrections %.3f s (%d), ", s.CorrectionTimeS, s.Corrections)
	}
	own := s.TimeS - s.GradTimeS - s.CacheTimeS - s.LineSearchTimeS - s.CorrectionTimeS
	if p.Config.Concurrent {
		// The calls ran beside the method's goroutine, so their time
		// overlaps the rest: what remains of the run's time after the
		// method's measured parts includes its waits for answers.
		fmt.Fprintf(w, "time split  LMO %.3f s beside the method's work; the method: gradients %.3f s, cache %.3f s, line search %.3f s, %sother and waiting %.3f s\n",
			s.OracleTimeS, s.GradTimeS, s.CacheTimeS, s.LineSearchTimeS, corr, own)
	} else {
		fmt.Fprintf(w, "time split  LMO %.3f s, gradients %.3f s, cache %.3f s, line search %.3f s, %sother %.3f s\n",
			s.OracleTimeS, s.GradTimeS, s.CacheTimeS, s.LineSearchTimeS, corr, own-s.OracleTimeS)
	}
	fmt.Fprintf(w, "primal      %.10g\n", s.Primal)
	fmt.Fprintf(w, "dual bound  %s (gap %s)\n", dual, gap)
	fmt.Fprintf(w, "LMO calls   %d (early stops %d)\n", s.LMOCalls, s.EarlyStops)
	if p.Info.Lazy {
		printSeparation(w, s)
	}
	if s.Disagreement != nil {
		bound := "none proven"
		if s.IntersectionBound != nil {
			bound = strconv.FormatFloat(*s.IntersectionBound, 'g', 10, 64)
		}
		mean := "?"
		if s.MeanPrimal != nil {
			mean = strconv.FormatFloat(*s.MeanPrimal, 'g', 10, 64)
		}
		fmt.Fprintf(w, "consensus   min f over the intersection ≥ %s (proven); the blocks disagree by %.4g; f(mean block) = %s (in the intersection only when they agree)\n",
			bound, *s.Disagreement, mean)
		if s.Objective != "" && strings.HasPrefix(s.Objective, "consensus:zero") && s.IntersectionBound != nil && *s.IntersectionBound > 0 {
			fmt.Fprintln(w, "            with f = 0 a positive bound proves that the polytopes do not intersect")
		}
	}
}

// printSeparation prints the weak separation counters of a summary.
func printSeparation(w io.Writer, s spec.Summary) {
	fmt.Fprintf(w, "separation  %d positive, %d negative, %d cache hits (hit rate %.2f%%", s.PositiveCalls,
		s.NegativeCalls, s.CacheHits, 100*s.CacheHitRate)
	if s.LocalHits > 0 {
		fmt.Fprintf(w, ", %d from the active set", s.LocalHits)
	}
	if s.DeferredRounds > 0 {
		fmt.Fprintf(w, ", %d rounds deferred to the cache", s.DeferredRounds)
	}
	fmt.Fprintln(w, ")")
	if s.ConcurrentSteps > 0 || s.HullSteps > 0 || s.StaleRestarts > 0 {
		fmt.Fprintf(w, "concurrent  %d steps while a call ran (%d hull steps), %d stale calls restarted\n", s.ConcurrentSteps+s.HullSteps, s.HullSteps, s.StaleRestarts)
	}
	if s.Races > 0 {
		fmt.Fprintf(w, "races       %d questions asked on both instances, %d answered first by the copy\n", s.Races, s.RacesWon)
	}
	if s.Aheads > 0 {
		fmt.Fprintf(w, "ahead       %d questions asked at Φ/2 beside a call at Φ, %d of them answered the call's question too\n", s.Aheads, s.AheadsSettled)
	}
	if s.StaleOracleTimeS > 0 || s.LostOracleTimeS > 0 {
		fmt.Fprintf(w, "call time   %.3gs of the LMO's %.3gs in calls that ended stale, %.3gs in calls that gave no answer\n",
			s.StaleOracleTimeS, s.OracleTimeS, s.LostOracleTimeS)
	}
	if s.StaleAnswers > 0 {
		fmt.Fprintf(w, "stale       %d answers arrived after their question went stale: %d positive, %d of them still improving the iterate by Φ/K\n",
			s.StaleAnswers, s.StalePositives, s.StaleImproving)
	}
	if s.PartialAnswers > 0 {
		fmt.Fprintf(w, "budget      %d partial answers (calls out of -call-budget, stepping below Φ/K)\n", s.PartialAnswers)
	}
	if s.InexactAnswers > 0 {
		fmt.Fprintf(w, "lazy gap    %d of the negative answers stopped at -lazy-gap (each proves only the solver's bound)\n", s.InexactAnswers)
	}
}

func runMethods(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("methods", flag.ContinueOnError)
	pos, err := parseFlags(fs, args, false, "lazycg methods (lists the offline and online methods)", stderr)
	if err != nil {
		if err == errHelp {
			return nil
		}
		return err
	}
	if len(pos) > 0 {
		return usageError(fmt.Errorf("methods: unexpected argument %q (methods takes none)", pos[0]))
	}
	for _, online := range []bool{false, true} {
		if online {
			fmt.Fprintln(stdout, "\nonline methods (lazycg online -method NAME):")
		}
		for _, n := range spec.MethodNames(online) {
			m, _ := spec.Method(n)
			kind := "baseline"
			if m.Lazy {
				kind = "lazy (baseline " + m.Baseline + ")"
			}
			fmt.Fprintf(stdout, "%-14s %-28s %s\n", n, kind, m.Doc)
		}
	}
	return nil
}
