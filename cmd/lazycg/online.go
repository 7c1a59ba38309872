package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/experiment"
	"github.com/lazycg/lazycg/internal/spec"
	"github.com/lazycg/lazycg/objective"
	"github.com/lazycg/lazycg/online"
)

func init() {
	commands["online"] = runOnline
}

// onlineFlags are the flags of the online command.
type onlineFlags struct {
	polytope, losses, method, oracle string
	k, c, s, l, d                    float64
	cache, early, prune, tighten     bool
	smooth, noHindsight, asJSON, pf  bool
	timeLimit, hindsightTime         time.Duration
	oracleGap                        float64
	oracleTime                       time.Duration
	seed                             uint64
	traceFile, dataDir               string
}

func (f *onlineFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.polytope, "polytope", "", "polytope `SPEC`: "+strings.Join(spec.PolytopeKinds(), ", "))
	fs.StringVar(&f.losses, "losses", "linear", "loss stream `SPEC`: linear[:rounds=T,seed=S] or quadratic[:rounds=T,density=D,seed=S]")
	fs.StringVar(&f.method, "method", "locg-pf", "online method: "+onlineMethodList()+"; or study: the paper's caching study (ocg, locg with early termination only, locg with cache and early termination; -pf runs locg-pf in it)")
	fs.Float64Var(&f.k, "K", 1.1, "accuracy K ≥ 1 of the weak separation oracle (> 1 for -oracle aug)")
	fs.Float64Var(&f.c, "C", 0, "curvature bound C of the losses (0: estimated from the first loss and the polytope's diameter; linear losses have C = 0)")
	fs.Float64Var(&f.s, "S", 0, "strong convexity S of the losses (> 0 selects Theorem 5.1(b)'s steps)")
	fs.Float64Var(&f.l, "L", 0, "Lipschitz constant of the losses in ℓ2 (needed by -smooth; default √n for linear losses)")
	fs.Float64Var(&f.d, "D", 0, "Euclidean diameter of the polytope (default: from the polytope)")
	fs.BoolVar(&f.cache, "cache", true, "cache vertices in the weak separation oracle")
	fs.BoolVar(&f.early, "early", true, "stop LMO calls early in the weak separation oracle")
	fs.BoolVar(&f.prune, "prune", false, "the paper's cache pruning: every 100 steps keep the 100 most used vertices")
	fs.BoolVar(&f.tighten, "tighten", false, "locg: lower Φ_t to the proven Wolfe gap after negative answers (locg-pf: Φ ← gap/2, Remark 4.3)")
	fs.BoolVar(&f.pf, "pf", false, "study: run the lazy variants as locg-pf (parameter-free) instead of locg")
	fs.BoolVar(&f.smooth, "smooth", false, "run on Corollary 5.3's smoothed surrogates of the losses (adversarial Lipschitz losses)")
	fs.StringVar(&f.oracle, "oracle", "lmo", "weak separation oracle: lmo (cache + early termination) or aug (augmentation, 0/1 polytopes with an augmentation oracle)")
	fs.DurationVar(&f.timeLimit, "time", 30*time.Second, "wall-clock time limit of the online run (0: none)")
	fs.DurationVar(&f.hindsightTime, "hindsight-time", time.Minute, "time limit of the hindsight solve")
	fs.BoolVar(&f.noHindsight, "no-hindsight", false, "skip the hindsight solve (no regret)")
	fs.Float64Var(&f.oracleGap, "oracle-gap", 0.1, "relative gap of MIP oracles for ocg (the paper's 10%; lazy runs and the study use exact oracles)")
	fs.DurationVar(&f.oracleTime, "oracle-time", 0, "time limit of each MIP oracle call (0: none)")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the losses when their spec has none")
	fs.StringVar(&f.traceFile, "trace", "", "write the per-round trace as CSV to `FILE`")
	fs.BoolVar(&f.asJSON, "json", false, "print a JSON summary as the last line of stdout")
	fs.StringVar(&f.dataDir, "data", "", "benchmark data directory (default $LAZYCG_DATA or ../shared/data)")
}

// check validates the flags (usage errors).
func (f *onlineFlags) check() error {
	if f.polytope == "" {
		return errors.New("-polytope is required")
	}
	lazy := true
	if f.method != "study" {
		info, err := spec.OnlineMethod(f.method)
		if err != nil {
			return fmt.Errorf("unknown online method %q (use %s or study)", f.method, strings.Join(spec.OnlineMethodNames(), ", "))
		}
		lazy = info.Lazy
	}
	if f.pf && f.method != "study" {
		return errors.New("-pf applies to -method study (use -method locg-pf for a single run)")
	}
	switch f.oracle {
	case "lmo", "aug":
	default:
		return fmt.Errorf("unknown oracle %q (use lmo or aug)", f.oracle)
	}
	if !(f.k >= 1) || math.IsInf(f.k, 0) {
		return fmt.Errorf("-K must be a number ≥ 1, got %g", f.k)
	}
	if f.oracle == "aug" && !(f.k > 1) {
		return errors.New("-oracle aug needs -K > 1 (K = 1 needs infinitely many augmentations)")
	}
	if f.oracle == "aug" && !lazy {
		return fmt.Errorf("-oracle aug applies to locg and locg-pf (%s calls the LMO)", f.method)
	}
	if f.oracle == "aug" && f.method == "study" {
		return errors.New("-method study compares cache and early termination of the LMO oracle; use -oracle lmo")
	}
	for name, v := range map[string]float64{"-C": f.c, "-S": f.s, "-L": f.l, "-D": f.d, "-oracle-gap": f.oracleGap} {
		if !(v >= 0) || math.IsInf(v, 0) {
			return fmt.Errorf("%s must be a finite number ≥ 0, got %g", name, v)
		}
	}
	if f.timeLimit < 0 || f.hindsightTime < 0 || f.oracleTime < 0 {
		return errors.New("time limits must not be negative")
	}
	return nil
}

// onlineSummary is the JSON summary of one online run.
type onlineSummary struct {
	Method        string  `json:"method"`
	Polytope      string  `json:"polytope"`
	Losses        string  `json:"losses"`
	Oracle        string  `json:"oracle"`
	Dim           int     `json:"dim"`
	K             float64 `json:"K"`
	Status        string  `json:"status"`
	Rounds        int     `json:"rounds"`
	LMOCalls      int     `json:"lmo_calls"`
	CacheHits     int     `json:"cache_hits"`
	PositiveCalls int     `json:"positive_calls"`
	NegativeCalls int     `json:"negative_calls"`
	EarlyStops    int     `json:"early_stops"`
	CacheHitRate  float64 `json:"cache_hit_rate"`
	TotalLoss     float64 `json:"total_loss"`
	// The regret fields are null when unknown (no hindsight bound).
	RegretLower     *float64 `json:"regret_lower"`
	RegretUpper     *float64 `json:"regret_upper"`
	AvgRegretLower  *float64 `json:"avg_regret_lower"`
	AvgRegretUpper  *float64 `json:"avg_regret_upper"`
	HindsightStatus string   `json:"hindsight_status,omitempty"`
	TimeS           float64  `json:"time_s"`
	OracleTimeS     float64  `json:"oracle_time_s"`
	Error           string   `json:"error,omitempty"`
}

func finitePtr(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

func summarizeOnline(f *onlineFlags, name string, dim int, res *online.Result) onlineSummary {
	st := res.Stats
	s := onlineSummary{Method: name, Polytope: f.polytope, Losses: f.losses, Oracle: f.oracle, Dim: dim, K: f.k,
		Status: res.Status.String(), Rounds: res.Rounds, LMOCalls: st.LMOCalls, CacheHits: st.CacheHits,
		PositiveCalls: st.PositiveCalls, NegativeCalls: st.NegativeCalls, EarlyStops: st.EarlyStops,
		CacheHitRate: st.CacheHitRate(), TotalLoss: res.TotalLoss,
		RegretLower: finitePtr(res.RegretLower), RegretUpper: finitePtr(res.RegretUpper),
		TimeS: st.Runtime.Seconds(), OracleTimeS: st.OracleTime.Seconds()}
	if res.Rounds > 0 {
		lo, hi := res.AverageRegret()
		s.AvgRegretLower, s.AvgRegretUpper = finitePtr(lo), finitePtr(hi)
	}
	if res.Hindsight != nil {
		s.HindsightStatus = res.Hindsight.Status.String()
		if res.Hindsight.Err != nil && s.Error == "" {
			s.Error = "hindsight: " + res.Hindsight.Err.Error()
		}
	}
	if res.Err != nil {
		s.Error = res.Err.Error()
	}
	return s
}

// onlineMethodList describes the registered online methods for the help.
func onlineMethodList() string {
	var parts []string
	for _, n := range spec.OnlineMethodNames() {
		info, _ := spec.OnlineMethod(n)
		parts = append(parts, n+": "+info.Doc)
	}
	return strings.Join(parts, "; ")
}

// onlineParams derives the method parameters from the flags, the instance
// and the stream.
func onlineParams(f *onlineFlags, in *spec.Instance, stream objective.Stream) online.Params {
	p := spec.DeriveOnlineParams(in, stream, spec.OnlineUserParams{K: f.k, C: f.c, S: f.s, L: f.l, D: f.d,
		TightenPhi: f.tighten, Smoothing: f.smooth})
	p.ParameterFree = f.method == "locg-pf" || (f.method == "study" && f.pf)
	return p
}

func runOnline(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("online", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f onlineFlags
	f.register(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return usageError(err)
	}
	if fs.NArg() > 0 {
		return usageError(fmt.Errorf("online: unexpected argument %q", fs.Arg(0)))
	}
	if err := f.check(); err != nil {
		return usageError(fmt.Errorf("online: %w", err))
	}
	opt := spec.Options{DataDir: f.dataDir, OracleTimeLimit: f.oracleTime}
	if info, err := spec.OnlineMethod(f.method); err == nil && !info.Lazy {
		opt.OracleGap = f.oracleGap
	}
	in, err := spec.Polytope(f.polytope, opt)
	if err != nil {
		return usageError(fmt.Errorf("online: %w", err))
	}
	defer in.Close()
	stream, err := experiment.LossStream(f.losses, in.Dim(), f.seed)
	if err != nil {
		return usageError(fmt.Errorf("online: %w", err))
	}
	params := onlineParams(&f, in, stream)
	if f.smooth && !(params.L > 0) {
		return usageError(errors.New("online: -smooth needs the Lipschitz constant -L for these losses"))
	}
	p := online.Problem{Losses: stream, LMO: in.LMO, X0: in.Start}
	var aug *lazycg.AugmentingSeparator
	if f.oracle == "aug" {
		a, ok := in.LMO.(lazycg.Augmenter)
		if !ok {
			return usageError(fmt.Errorf("online: polytope %q has no augmentation oracle (use spanningtree, flow or dag)", f.polytope))
		}
		if aug, err = lazycg.NewAugmentingSeparator(a); err != nil {
			return usageError(fmt.Errorf("online: %w", err))
		}
		if f.cache {
			aug.Cache = lazycg.NewCache(in.Dim(), lazycg.CachePolicy{})
		}
		p.Separator = aug
	}
	settings := &online.Settings{TimeLimit: f.timeLimit, SeparatorConfig: lazycg.SeparatorConfig{NoCache: !f.cache, NoEarlyStop: !f.early},
		NoHindsight: f.noHindsight, Hindsight: online.DefaultHindsightSettings()}
	settings.Hindsight.TimeLimit = f.hindsightTime
	if f.prune {
		settings.Cache = lazycg.PaperPruning
		if aug != nil && aug.Cache != nil {
			aug.Cache = lazycg.NewCache(in.Dim(), lazycg.PaperPruning)
		}
	}
	// Check the parameters up front so that bad constants are usage errors.
	if err := params.Check(in.LMO); err != nil {
		return usageError(fmt.Errorf("online: %w", err))
	}

	var runs []experiment.CacheStudyRun
	var runErr error
	if f.method == "study" {
		runs, runErr = experiment.CachingStudy(ctx, p, settings, params)
	} else {
		info, _ := spec.OnlineMethod(f.method) // checked by f.check
		m := info.New(params)
		var res *online.Result
		res, runErr = online.Minimize(ctx, p, settings, m)
		if res == nil {
			return usageError(fmt.Errorf("online: %w", runErr))
		}
		runs = []experiment.CacheStudyRun{{Name: f.method, Result: res}}
	}
	if f.traceFile != "" {
		if err := writeOnlineTrace(f.traceFile, runs); err != nil {
			return err
		}
	}
	sums := make([]onlineSummary, len(runs))
	for i, r := range runs {
		sums[i] = summarizeOnline(&f, r.Name, in.Dim(), r.Result)
	}
	if f.asJSON {
		var v any = sums[0]
		if f.method == "study" {
			v = struct {
				Runs []onlineSummary `json:"runs"`
			}{sums}
		}
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, string(b))
	} else {
		printOnlineSummary(stdout, &f, params, sums, aug)
	}
	if runErr != nil {
		return fmt.Errorf("online: run stopped: %w", runErr)
	}
	return nil
}

func fmtOpt(v *float64) string {
	if v == nil {
		return "unknown"
	}
	return strconv.FormatFloat(*v, 'g', 6, 64)
}

func printOnlineSummary(w io.Writer, f *onlineFlags, p online.Params, sums []onlineSummary, aug *lazycg.AugmentingSeparator) {
	s0 := sums[0]
	fmt.Fprintf(w, "polytope    %s (dimension %d)\n", s0.Polytope, s0.Dim)
	fmt.Fprintf(w, "losses      %s\n", s0.Losses)
	fmt.Fprintf(w, "parameters  K=%g C=%g S=%g L=%g D=%g smooth=%v tighten=%v parameter-free=%v oracle=%s\n",
		p.K, p.C, p.S, p.L, p.D, p.Smoothing, p.TightenPhi, p.ParameterFree, f.oracle)
	for _, s := range sums {
		fmt.Fprintf(w, "\nmethod      %s\n", s.Method)
		fmt.Fprintf(w, "status      %s after %d rounds, %.3f s (oracle %.3f s)\n", s.Status, s.Rounds, s.TimeS, s.OracleTimeS)
		fmt.Fprintf(w, "total loss  %.10g\n", s.TotalLoss)
		fmt.Fprintf(w, "avg regret  in [%s, %s] (hindsight %s)\n", fmtOpt(s.AvgRegretLower), fmtOpt(s.AvgRegretUpper), s.HindsightStatus)
		fmt.Fprintf(w, "LMO calls   %d (early stops %d)\n", s.LMOCalls, s.EarlyStops)
		if s.PositiveCalls+s.NegativeCalls > 0 {
			fmt.Fprintf(w, "separation  %d positive, %d negative, %d cache hits (hit rate %.2f%%)\n",
				s.PositiveCalls, s.NegativeCalls, s.CacheHits, 100*s.CacheHitRate)
		}
		if s.Error != "" {
			fmt.Fprintf(w, "error       %s\n", s.Error)
		}
	}
	if aug != nil {
		c := aug.Counts()
		fmt.Fprintf(w, "augmentation %d calls in %d separations (at most %d per call)\n", c.AugCalls, c.Calls, c.MaxAugCalls)
	}
}

// writeOnlineTrace writes the per-round records of the runs as CSV.
func writeOnlineTrace(path string, runs []experiment.CacheStudyRun) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("trace: %w", err)
	}
	w := csv.NewWriter(f)
	w.Write([]string{"method", "round", "time_s", "oracle_time_s", "loss", "cum_loss", "avg_loss",
		"lmo_calls", "cache_hits", "positive_calls", "negative_calls", "bound", "phi"})
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', 17, 64) }
	for _, r := range runs {
		for _, o := range r.Result.Trace {
			w.Write([]string{r.Name, strconv.Itoa(o.Round), g(o.Time.Seconds()), g(o.OracleTime.Seconds()),
				g(o.Loss), g(o.CumLoss), g(o.CumLoss / float64(o.Round)), strconv.Itoa(o.LMOCalls),
				strconv.Itoa(o.CacheHits), strconv.Itoa(o.PositiveCalls), strconv.Itoa(o.NegativeCalls),
				g(o.Bound), g(o.Phi)})
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		f.Close()
		return fmt.Errorf("trace: %w", err)
	}
	return f.Close()
}
