package experiment

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/online"
	"github.com/lazycg/lazycg/spec"
)

// hindsightKey identifies a hindsight solve of an experiment.
type hindsightKey struct{ rounds int }

// runOnline runs one online variant with online.Minimize. The best fixed
// point in hindsight is computed once per number of rounds played and
// shared by the experiment's runs.
func (r *Runner) runOnline(ctx context.Context, e *Experiment, cfg spec.Config, rr *RunResult, er *ExperimentResult,
	hind map[hindsightKey]*lazycg.Result) (Trace, spec.Summary, error) {
	cfg.NoHindsight = true
	p, err := cfg.PrepareContext(ctx)
	if err != nil {
		return Trace{}, spec.Summary{}, err
	}
	defer p.Close()
	er.Dim = p.Instance.Dim()
	rr.Curvature = p.Curvature
	rr.Fingerprint = Fingerprint(p.Online.Losses.Loss(0), p.Online.X0)
	settings := cfg.OnlineSettings()
	if every := r.ProgressEvery; every >= 0 && r.Log != nil {
		if every == 0 {
			every = 10 * time.Second
		}
		next := every
		settings.Callback = func(o *online.Round, _ []float64) bool {
			if o.Time >= next {
				next = o.Time + every
				r.logf("    %s/%s: %6.1f s  round %d  cumulative loss %.8g  LMO calls %d  cache hits %d",
					e.Name, rr.Label, o.Time.Seconds(), o.Round, o.CumLoss, o.LMOCalls, o.CacheHits)
			}
			return true
		}
	}
	res, runErr := online.Minimize(ctx, p.Online, settings, p.OnlineMethod)
	if res == nil {
		return Trace{}, spec.Summary{}, runErr
	}
	if res.Rounds > 0 && ctx.Err() == nil {
		key := hindsightKey{res.Rounds}
		hr, ok := hind[key]
		if !ok {
			hs := online.DefaultHindsightSettings()
			if cfg.TimeLimit > 0 {
				hs.TimeLimit = min(hs.TimeLimit, max(cfg.TimeLimit/4, time.Second))
			}
			hr, err = online.SolveHindsight(ctx, p.Online, res.Rounds, &online.Settings{Hindsight: hs})
			if err != nil {
				er.Warnings = append(er.Warnings, fmt.Sprintf("%s: hindsight solve: %v", rr.Label, err))
			}
			hind[key] = hr
		}
		if hr != nil {
			res.SetHindsight(hr, nil)
		}
	}
	sum := p.OnlineSummary(cfg.Method, res)
	rr.RegretLower, rr.RegretUpper = sum.RegretLower, sum.RegretUpper
	return OnlineTrace(res), sum, runErr
}

// OnlineTrace returns the trace of an online run: per round the time, the
// round, the LMO calls, the cache hits, the cumulative loss as the primal
// value (no dual bound) and the oracle time.
func OnlineTrace(res *online.Result) Trace {
	tr := Trace{Points: make([]lazycg.TracePoint, len(res.Trace)), OracleTime: make([]time.Duration, len(res.Trace))}
	for i, o := range res.Trace {
		tr.Points[i] = lazycg.TracePoint{Time: o.Time, Iteration: o.Round, LMOCalls: o.LMOCalls,
			CacheHits: o.CacheHits, Primal: o.CumLoss, DualBound: math.Inf(-1)}
		tr.OracleTime[i] = o.OracleTime
	}
	return tr
}
