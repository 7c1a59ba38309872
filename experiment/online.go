package experiment

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/internal/spec"
	"github.com/lazycg/lazycg/objective"
	"github.com/lazycg/lazycg/online"
)

// DefaultRounds is the number of losses of the paper's online experiments.
const DefaultRounds = 100

// methodKind returns whether the method named name is lazy, checking the
// online method registry for online experiments and the offline one
// otherwise.
func methodKind(online bool, name string) (lazy bool, err error) {
	if online {
		m, err := spec.OnlineMethod(name)
		if err != nil {
			return false, err
		}
		return m.Lazy, nil
	}
	info, err := spec.Method(name)
	if err != nil {
		return false, err
	}
	return info.Lazy, nil
}

// LossStream builds the loss stream described by text over dimension n:
//
//	linear[:rounds=R,seed=S]             c_t·x + b_t, c_t ∈ [−1,1)^n, b_t ∈ [0,1)
//	quadratic[:rounds=R,density=D,seed=S] ‖A_t x − b_t‖² as the offline objectives
//
// R defaults to the paper's 100 and S to seed.
func LossStream(text string, n int, seed uint64) (objective.Stream, error) {
	s, err := spec.Parse(text)
	if err != nil {
		return nil, err
	}
	if len(s.Args) != 0 {
		return nil, fmt.Errorf("experiment: losses %q: options are key=value (e.g. rounds=100)", text)
	}
	rounds, err := s.OptInt("rounds", DefaultRounds, 1, 1<<24)
	if err != nil {
		return nil, err
	}
	if seed, err = s.OptSeed(seed); err != nil {
		return nil, err
	}
	var st objective.Stream
	switch s.Kind {
	case "linear":
		st, err = objective.LinearLosses(n, rounds, seed)
	case "quadratic":
		var density float64
		if density, err = s.OptFloat("density", spec.DefaultDensity(n), 1e-12, 1); err != nil {
			return nil, err
		}
		st, err = objective.QuadraticLosses(n, rounds, density, seed)
	default:
		return nil, fmt.Errorf("experiment: losses %q: unknown kind %q (known: linear, quadratic)", text, s.Kind)
	}
	if err != nil {
		return nil, err
	}
	if err := s.Unused(); err != nil {
		return nil, err
	}
	return st, nil
}

// hindsightKey identifies a hindsight solve of an experiment.
type hindsightKey struct{ rounds int }

// runOnline runs one online variant with online.Minimize. The best fixed
// point in hindsight is computed once per number of rounds played and
// shared by the experiment's runs.
func (r *Runner) runOnline(ctx context.Context, e *Experiment, job spec.Job, rr *RunResult, er *ExperimentResult,
	hind map[hindsightKey]*lazycg.Result) (Trace, spec.Summary, error) {
	info, err := spec.OnlineMethod(job.Method)
	if err != nil {
		return Trace{}, spec.Summary{}, err
	}
	opt := job.Options
	if info.Lazy {
		opt.OracleGap = 0
	}
	in, err := spec.Polytope(e.Polytope, opt)
	if err != nil {
		return Trace{}, spec.Summary{}, err
	}
	defer in.Close()
	n := in.Dim()
	er.Dim = n
	stream, err := LossStream(e.Losses, n, e.Seed)
	if err != nil {
		return Trace{}, spec.Summary{}, err
	}
	params := spec.DeriveOnlineParams(in, stream, spec.OnlineUserParams{K: job.Params.K, TightenPhi: e.ImprovedPhi})
	rr.Curvature = params.C
	rr.Fingerprint = Fingerprint(stream.Loss(0), in.Start)
	m := info.New(params)
	limit := r.scaledLimit(e)
	settings := &online.Settings{MaxRounds: e.MaxIterations, TimeLimit: limit, NoHindsight: true,
		SeparatorConfig: lazycg.SeparatorConfig{Cache: job.Cache, NoCache: job.NoCache, NoEarlyStop: job.NoEarlyStop}}
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
	p := online.Problem{Losses: stream, LMO: in.LMO, X0: in.Start}
	res, runErr := online.Minimize(ctx, p, settings, m)
	if res == nil {
		return Trace{}, spec.Summary{}, runErr
	}
	tr := Trace{Points: make([]lazycg.TracePoint, len(res.Trace)), OracleTime: make([]time.Duration, len(res.Trace))}
	for i, o := range res.Trace {
		tr.Points[i] = lazycg.TracePoint{Time: o.Time, Iteration: o.Round, LMOCalls: o.LMOCalls,
			CacheHits: o.CacheHits, Primal: o.CumLoss, DualBound: math.Inf(-1)}
		tr.OracleTime[i] = o.OracleTime
	}
	st := res.Stats
	sum := spec.Summary{Polytope: e.Polytope, Objective: e.Losses, Method: job.Method, Dim: n,
		Status: res.Status.String(), Iterations: res.Rounds, LMOCalls: st.LMOCalls, CacheHits: st.CacheHits,
		PositiveCalls: st.PositiveCalls, NegativeCalls: st.NegativeCalls, EarlyStops: st.EarlyStops,
		CacheHitRate: st.CacheHitRate(), Primal: res.TotalLoss, TimeS: st.Runtime.Seconds(),
		OracleTimeS: st.OracleTime.Seconds()}
	if res.Err != nil {
		sum.Error = res.Err.Error()
	}
	if res.Rounds > 0 && ctx.Err() == nil {
		key := hindsightKey{res.Rounds}
		hr, ok := hind[key]
		if !ok {
			hs := online.DefaultHindsightSettings()
			if limit > 0 {
				hs.TimeLimit = min(hs.TimeLimit, max(limit/4, time.Second))
			}
			hr, err = online.SolveHindsight(ctx, p, res.Rounds, &online.Settings{Hindsight: hs})
			if err != nil {
				er.Warnings = append(er.Warnings, fmt.Sprintf("%s: hindsight solve: %v", rr.Label, err))
			}
			hind[key] = hr
		}
		if hr != nil {
			if !math.IsNaN(hr.F) && !math.IsInf(hr.F, 0) {
				v := res.TotalLoss - hr.F
				rr.RegretLower = &v
			}
			if !math.IsNaN(hr.DualBound) && !math.IsInf(hr.DualBound, 0) {
				v := res.TotalLoss - hr.DualBound
				rr.RegretUpper = &v
			}
		}
	}
	return tr, sum, runErr
}
