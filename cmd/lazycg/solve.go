package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/experiment"
	"github.com/lazycg/lazycg/internal/spec"
)

func init() {
	commands["solve"] = runSolve
	commands["methods"] = runMethods
}

// solveFlags are the flags shared by solve-like commands.
type solveFlags struct {
	polytope, objective, method string
	k, c, phi0, gapTol          float64
	phi0Search, noLS, improved  bool
	timeLimit                   time.Duration
	iters, lmoCalls             int
	seed                        uint64
	oracle                      string
	oracleGap                   float64
	oracleTime                  time.Duration
	cache, early                bool
	prune                       bool
	bestFit                     bool
	dataDir                     string
	params                      string
}

func (f *solveFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.polytope, "polytope", "", "polytope `SPEC`: "+strings.Join(spec.PolytopeKinds(), ", ")+" (e.g. simplex:100, flow:FILE.min, mps:FILE)")
	fs.StringVar(&f.objective, "objective", "quadratic", "objective `SPEC`: distance[:seed=S], quadratic[:seed=S,density=D,rows=R], completion[:seed=S,rank=R]")
	fs.StringVar(&f.method, "method", "lcg", "method `NAME` (see lazycg methods)")
	fs.Float64Var(&f.k, "K", 1.1, "accuracy K ≥ 1 of the weak separation oracle")
	fs.Float64Var(&f.c, "C", 0, "curvature constant (0: estimate from the objective and the polytope's diameter when possible)")
	fs.Float64Var(&f.phi0, "phi0", 0, "initial bound Φ0 (0: the method's rule)")
	fs.BoolVar(&f.phi0Search, "phi0-search", false, "find Φ0 by binary search with the weak separation oracle (no full LMO solve)")
	fs.BoolVar(&f.noLS, "no-ls", false, "no line search: prescribed steps (lcg: Remark 4.4's γ = min{1, Φ/(KC)})")
	fs.BoolVar(&f.improved, "improved-phi", false, "Remark 4.3: set Φ to half the exact Wolfe gap after negative calls")
	fs.Float64Var(&f.gapTol, "gap", 0, "stop when primal − dual bound ≤ this absolute gap")
	fs.DurationVar(&f.timeLimit, "time", 30*time.Second, "wall-clock time limit (0: none)")
	fs.IntVar(&f.iters, "iters", 0, "iteration limit (0: none)")
	fs.IntVar(&f.lmoCalls, "lmo-calls", 0, "LMO call limit (0: none)")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of random objectives and instances (when their spec has none)")
	fs.StringVar(&f.oracle, "oracle", "lmo", "weak separation oracle: lmo (cache + early termination) or aug (augmentation, 0/1 polytopes)")
	fs.Float64Var(&f.oracleGap, "oracle-gap", 0.1, "relative gap of MIP oracles for non-lazy baselines (the paper's 10%)")
	fs.DurationVar(&f.oracleTime, "oracle-time", 0, "time limit of each MIP oracle call (0: none)")
	fs.BoolVar(&f.cache, "cache", true, "cache vertices in the weak separation oracle")
	fs.BoolVar(&f.early, "early", true, "stop LMO calls early in the weak separation oracle")
	fs.BoolVar(&f.prune, "prune", false, "the paper's cache pruning: every 100 steps keep the 100 most used vertices")
	fs.BoolVar(&f.bestFit, "best-fit", false, "best-fit cache search instead of first fit")
	fs.StringVar(&f.params, "params", "", "method-specific settings `key=value,...` (e.g. dyadic=1,s=2 for lpcg; see each method's doc)")
	fs.StringVar(&f.dataDir, "data", "", "benchmark data directory (default $LAZYCG_DATA or ../shared/data)")
}

func (f *solveFlags) job() (spec.Job, error) {
	if f.polytope == "" {
		return spec.Job{}, errors.New("-polytope is required")
	}
	if !(f.k >= 1) || math.IsInf(f.k, 0) {
		return spec.Job{}, fmt.Errorf("-K must be a number ≥ 1, got %g", f.k)
	}
	for name, v := range map[string]float64{"-C": f.c, "-phi0": f.phi0, "-gap": f.gapTol, "-oracle-gap": f.oracleGap} {
		if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			return spec.Job{}, fmt.Errorf("%s must be a finite number ≥ 0, got %g", name, v)
		}
	}
	if f.timeLimit < 0 || f.iters < 0 || f.lmoCalls < 0 || f.oracleTime < 0 {
		return spec.Job{}, errors.New("limits must not be negative")
	}
	extra, err := parseParams(f.params)
	if err != nil {
		return spec.Job{}, err
	}
	j := spec.Job{Polytope: f.polytope, Objective: f.objective, Method: f.method, Seed: f.seed,
		Params: spec.MethodParams{K: f.k, C: f.c, Phi0: f.phi0, Phi0Search: f.phi0Search,
			NoLineSearch: f.noLS, ImprovedPhi: f.improved, Extra: extra},
		Options: spec.Options{DataDir: f.dataDir, OracleGap: f.oracleGap, OracleTimeLimit: f.oracleTime},
		Oracle:  f.oracle, NoCache: !f.cache, NoEarlyStop: !f.early}
	if f.prune {
		j.Cache = lazycg.PaperPruning
	}
	if f.bestFit {
		j.Cache.Search = lazycg.BestFit
	}
	return j, nil
}

func (f *solveFlags) settings() *lazycg.Settings {
	return &lazycg.Settings{MaxIterations: f.iters, MaxLMOCalls: f.lmoCalls, TimeLimit: f.timeLimit,
		GapTolerance: f.gapTol}
}

func runSolve(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("solve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f solveFlags
	f.register(fs)
	traceFile := fs.String("trace", "", "write the trace as CSV to `FILE`")
	asJSON := fs.Bool("json", false, "print a JSON summary as the last line of stdout")
	progress := fs.Duration("progress", 2*time.Second, "progress table cadence on stderr (without -json; 0: none)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return usageError(err)
	}
	if fs.NArg() > 0 {
		return usageError(fmt.Errorf("solve: unexpected argument %q", fs.Arg(0)))
	}
	job, err := f.job()
	if err != nil {
		return usageError(fmt.Errorf("solve: %w", err))
	}
	p, err := job.Prepare()
	if err != nil {
		return usageError(fmt.Errorf("solve: %w", err))
	}
	defer p.Close()
	settings := f.settings()
	if !*asJSON && *progress > 0 {
		settings.Callback = progressTable(stderr, *progress)
	}
	res, runErr := lazycg.Minimize(ctx, p.Problem, settings, p.Method)
	if res == nil {
		if errors.Is(runErr, context.DeadlineExceeded) || errors.Is(runErr, context.Canceled) {
			return fmt.Errorf("solve: stopped before a start vertex was found: %w", runErr)
		}
		return usageError(fmt.Errorf("solve: %w", runErr))
	}
	sum := spec.Summarize(job, p.Instance.Dim(), res)
	if *traceFile != "" {
		if err := experiment.WriteTraceFile(*traceFile, experiment.Trace{Points: res.Trace}); err != nil {
			return err
		}
	}
	if *asJSON {
		b, err := json.Marshal(sum)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, string(b))
	} else {
		printSummary(stdout, sum, p)
	}
	if runErr != nil {
		return fmt.Errorf("solve: run stopped: %w", runErr)
	}
	return nil
}

// progressTable returns a callback printing a progress line every cadence.
func progressTable(w io.Writer, cadence time.Duration) func(lazycg.Progress) bool {
	var last time.Duration
	header := false
	return func(p lazycg.Progress) bool {
		if p.Time-last < cadence {
			return true
		}
		last = p.Time
		if !header {
			fmt.Fprintf(w, "%10s %9s %16s %16s %12s %8s\n", "iteration", "time_s", "primal", "dual_bound", "gap", "hit_rate")
			header = true
		}
		fmt.Fprintf(w, "%10d %9.2f %16.8g %16.8g %12.4g %7.2f%%\n", p.Iteration, p.Time.Seconds(),
			p.Primal, p.DualBound, p.Primal-p.DualBound, 100*p.Stats.CacheHitRate())
		return true
	}
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
	fmt.Fprintf(w, "primal      %.10g\n", s.Primal)
	fmt.Fprintf(w, "dual bound  %s (gap %s)\n", dual, gap)
	fmt.Fprintf(w, "LMO calls   %d (early stops %d)\n", s.LMOCalls, s.EarlyStops)
	if p.Info.Lazy {
		fmt.Fprintf(w, "separation  %d positive, %d negative, %d cache hits (hit rate %.2f%%)\n",
			s.PositiveCalls, s.NegativeCalls, s.CacheHits, 100*s.CacheHitRate)
	}
}

// parseParams parses "key=value,..." with numeric values.
func parseParams(text string) (map[string]float64, error) {
	if strings.TrimSpace(text) == "" {
		return nil, nil
	}
	out := map[string]float64{}
	for _, kv := range strings.Split(text, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("-params: %q is not key=value", kv)
		}
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("-params: %s must be a finite number, got %q", k, v)
		}
		if _, dup := out[k]; dup {
			return nil, fmt.Errorf("-params: %s given twice", k)
		}
		out[k] = x
	}
	return out, nil
}

func runMethods(_ context.Context, args []string, stdout, _ io.Writer) error {
	for _, n := range spec.MethodNames() {
		m, _ := spec.Method(n)
		kind := "baseline"
		if m.Lazy {
			kind = "lazy (baseline " + m.Baseline + ")"
		}
		fmt.Fprintf(stdout, "%-14s %-28s %s\n", n, kind, m.Doc)
	}
	fmt.Fprintln(stdout, "\nonline methods (lazycg online -method NAME):")
	for _, n := range spec.OnlineMethodNames() {
		m, _ := spec.OnlineMethod(n)
		kind := "baseline"
		if m.Lazy {
			kind = "lazy"
		}
		fmt.Fprintf(stdout, "%-14s %-28s %s\n", n, kind, m.Doc)
	}
	return nil
}
