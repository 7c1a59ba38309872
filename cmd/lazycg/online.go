package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/experiment"
	"github.com/lazycg/lazycg/objective"
	"github.com/lazycg/lazycg/online"
	"github.com/lazycg/lazycg/spec"
)

func init() {
	commands["online"] = runOnline
}

// onlineSettings are the run settings online accepts as flags.
var onlineSettings = []string{"polytope", "losses", "method", "K", "C", "S", "L", "D", "improved-phi", "smooth", "no-backoff", "phi-growth", "online-ls", "phi0-lmo",
	"time", "iters", "seed", "oracle", "oracle-gap", "oracle-time", "lazy-gap", "max-inexact", "dive", "adaptive-dive", "cache", "early", "prune", "best-fit", "concurrent",
	"cache-bytes", "memory", "hindsight-time", "no-hindsight", "params", "data"}

// studyMethod is the pseudo-method of the caching study.
const studyMethod = "study"

func runOnline(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	def := jobDefaults()
	def.Losses, def.Method, def.HindsightTime = "linear", "locg-pf", time.Minute
	f := newRunFlags("online", stderr, def, onlineSettings...)
	f.outputs("write the per-round trace as CSV to `FILE`")
	pf := f.fs.Bool("pf", false, "study: run the lazy variants as locg-pf (parameter-free) instead of locg")
	if err := f.parse(args); err != nil {
		if err == errHelp {
			fmt.Fprintln(stderr, "\nonline methods: "+strings.Join(spec.MethodNames(true), ", ")+", or "+studyMethod+
				": the paper's caching study (ocg, locg with early termination only, locg with cache and early termination; -pf runs locg-pf in it)")
			return nil
		}
		return err
	}
	defer f.close()
	defer func() { err = withJSON(err, f.json) }()
	cfg := f.cfg
	study := cfg.Method == studyMethod
	if info, err := spec.Method(cfg.Method); !study && (err != nil || !info.Online) {
		return usageError(fmt.Errorf("online: unknown online method %q (use %s or %s)", cfg.Method,
			strings.Join(spec.MethodNames(true), ", "), studyMethod))
	}
	if *pf && !study {
		return usageError(errors.New("online: -pf applies to -method study (use -method locg-pf for a single run)"))
	}
	if study {
		if strings.ToLower(cfg.Oracle) == "aug" {
			return usageError(errors.New("online: -method study compares cache and early termination of the LMO oracle; use -oracle lmo"))
		}
		for _, name := range []string{"cache", "early"} {
			if flagSet(f.fs, name) {
				return usageError(fmt.Errorf("online: -method study switches the cache and early termination per run (ocg, locg-early, locg-cache-early); drop -%s", name))
			}
		}
		if cfg.Concurrent {
			return usageError(errors.New("online: -method study runs ocg, which calls the LMO directly, beside locg; -concurrent applies to single runs of locg-pf"))
		}
		cfg.Method = "locg"
		if *pf {
			cfg.Method = "locg-pf"
		}
	}
	p, limit, err := f.prepare(ctx, cfg)
	if err != nil {
		return err
	}
	defer p.Close()
	objective.Generate(p.Online.Losses) // not charged to the timed run
	settings := cfg.OnlineSettings()
	settings.TimeLimit = limit
	var runs []experiment.CacheStudyRun
	var runErr error
	if study {
		prob := p.Online
		prob.Separator = nil // the study sets cache and early termination per variant
		runs, runErr = experiment.CachingStudy(ctx, prob, settings, p.OnlineParams)
		if len(runs) == 0 {
			return noResult("online", runErr)
		}
	} else {
		var res *online.Result
		res, runErr = online.Minimize(ctx, p.Online, settings, p.OnlineMethod)
		if res == nil {
			return noResult("online", runErr)
		}
		runs = []experiment.CacheStudyRun{{Name: cfg.Method, Result: res}}
	}
	sums := make([]spec.Summary, len(runs))
	for i, r := range runs {
		sums[i] = p.OnlineSummary(r.Name, r.Result)
	}
	if f.json {
		var v any = sums[0]
		if study {
			v = struct {
				Runs []spec.Summary `json:"runs"`
			}{sums}
		}
		if err := printJSON(stdout, v); err != nil {
			return err
		}
	} else {
		printOnlineSummary(stdout, p, sums)
	}
	traceErr := f.writeTrace(func(w io.Writer) error { return experiment.WriteRoundTrace(w, runs) })
	if runErr != nil {
		return fmt.Errorf("online: run stopped: %w", runErr)
	}
	return traceErr
}

func fmtOpt(v *float64) string {
	if v == nil {
		return "unknown"
	}
	return strconv.FormatFloat(*v, 'g', 6, 64)
}

func printOnlineSummary(w io.Writer, p *spec.Prepared, sums []spec.Summary) {
	s0, o := sums[0], p.OnlineParams
	fmt.Fprintf(w, "polytope    %s (dimension %d)\n", s0.Polytope, s0.Dim)
	fmt.Fprintf(w, "losses      %s\n", s0.Losses)
	fmt.Fprintf(w, "parameters  K=%g C=%g S=%g L=%g D=%g smooth=%v tighten=%v parameter-free=%v oracle=%s\n",
		o.K, o.C, o.S, o.L, o.D, o.Smoothing, o.TightenPhi, o.ParameterFree, s0.Oracle)
	for _, s := range sums {
		fmt.Fprintf(w, "\nmethod      %s\n", s.Method)
		fmt.Fprintf(w, "status      %s after %d rounds, %.3f s (oracle %.3f s)\n", s.Status, s.Rounds, s.TimeS, s.OracleTimeS)
		fmt.Fprintf(w, "total loss  %.10g\n", s.TotalLoss)
		fmt.Fprintf(w, "avg loss    %s\n", fmtOpt(s.AvgLoss))
		fmt.Fprintf(w, "avg regret  in [%s, %s] (hindsight %s)\n", fmtOpt(s.AvgRegretLower), fmtOpt(s.AvgRegretUpper), s.HindsightStatus)
		fmt.Fprintf(w, "last point  (F_T(x_T) − min F_T)/T in [%s, %s]", fmtOpt(s.AvgErrorLower), fmtOpt(s.AvgErrorUpper))
		if s.TheoremBound != nil {
			fmt.Fprintf(w, ", Theorem 5.1 bound %s", fmtOpt(s.TheoremBound))
		}
		fmt.Fprintln(w)
		if c := s.Certified; c != nil {
			fmt.Fprintf(w, "envelope    %d rounds asked Algorithm 8's question (%d steps not taken), %d ended above the envelope\n",
				c.Fallbacks, c.RejectedSteps, c.Violations)
		}
		fmt.Fprintf(w, "LMO calls   %d (early stops %d)\n", s.LMOCalls, s.EarlyStops)
		if s.PositiveCalls+s.NegativeCalls > 0 {
			printSeparation(w, s)
		}
		if s.Error != "" {
			fmt.Fprintf(w, "error       %s\n", s.Error)
		}
	}
	if aug, ok := p.Separator.(*lazycg.AugmentingSeparator); ok {
		c := aug.Counts()
		fmt.Fprintf(w, "augmentation %d calls in %d separations (at most %d per call)\n", c.AugCalls, c.Calls, c.MaxAugCalls)
	}
}
