package experiment

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/objective"
	"github.com/lazycg/lazycg/online"
	"github.com/lazycg/lazycg/spec"
)

// hindsightKey identifies a hindsight solve of an experiment: the losses
// of its runs are the same stream (same spec and seed), so the best fixed
// point in hindsight of the first rounds losses is shared by all runs.
type hindsightKey struct{ rounds int }

// regretCheckpoints is the number of rounds, spaced geometrically up to
// the last one, at which an online run's average regret is computed for
// the figure (each needs a hindsight solve).
const regretCheckpoints = 8

// RegretPoint is the average regret of an online run after Round rounds
// (at wall-clock time TimeS): Lower and Upper bracket
// (1/t)(Σ_{i≤t} f_i(x_i) − min_P Σ_{i≤t} f_i) by the hindsight solve's
// primal value and dual bound (nil when unknown).
type RegretPoint struct {
	Round int      `json:"round"`
	TimeS float64  `json:"time_s"`
	Lower *float64 `json:"lower"`
	Upper *float64 `json:"upper"`
}

// runOnline runs one online variant with online.Minimize. The best fixed
// point in hindsight is computed after the run, with an exact oracle (the
// non-lazy baseline's own oracle may stop at a relative gap), once per
// number of rounds and shared by the experiment's runs: for the last round
// (the summary's regret) and for regretCheckpoints rounds before it (the
// figure's regret curve, RunResult.Regret).
func (r *Runner) runOnline(ctx context.Context, e *Experiment, cfg spec.Config, rr *RunResult, er *ExperimentResult,
	hind map[hindsightKey]*lazycg.Result, points *[]knownPoint) (Trace, spec.Summary, error) {
	cfg.NoHindsight = true
	p, err := cfg.PrepareContext(ctx)
	if err != nil {
		return Trace{}, spec.Summary{}, err
	}
	defer p.Close()
	objective.Generate(p.Online.Losses) // not charged to the timed run
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
				r.logf("    %s/%s: %6.1f s  round %d  average loss %.8g  LMO calls %d  cache hits %d",
					e.Name, rr.Label, o.Time.Seconds(), o.Round, o.CumLoss/float64(o.Round), o.LMOCalls, o.CacheHits)
			}
			return true
		}
	}
	res, runErr := online.Minimize(ctx, p.Online, settings, p.OnlineMethod)
	if res == nil {
		return Trace{}, spec.Summary{}, runErr
	}
	if res.Rounds > 0 && ctx.Err() == nil {
		h := &hindsighter{ctx: ctx, cfg: cfg, p: p, hind: hind, er: er, label: rr.Label}
		defer h.close()
		if hr := h.solve(res.Rounds, false); hr != nil {
			res.SetHindsight(hr, nil)
		}
		rr.Regret = h.curve(res)
	}
	from := ""
	if res.Rounds > 0 && res.LastPoint != nil {
		if ctx.Err() == nil {
			from = crossPoints(p.Online, rr, res, er, hind, points)
		} else { // saved all the same: a point of P
			*points = append(*points, knownPoint{label: rr.Label, fingerprint: rr.Fingerprint, rounds: res.Rounds, x: slices.Clone(res.LastPoint)})
		}
	}
	sum := p.OnlineSummary(cfg.Method, res)
	sum.HindsightPoint = from
	rr.RegretLower, rr.RegretUpper = sum.RegretLower, sum.RegretUpper
	return OnlineTrace(res), sum, runErr
}

// knownPoint is the last point played by a finished online run of an
// experiment: a point of P.
type knownPoint struct {
	label, fingerprint string
	rounds             int // the round in which x was played
	x                  []float64
}

// crossPoints evaluates the last points of the experiment's online runs on
// each other's hindsight problems: a point x of P proves min_P F_T ≤
// F_T(x), and a player's last point can be better than the time-limited
// hindsight solve's primal value (on QUBO 502 with quadratic losses by
// 9 per round). The run's own bracket (res) is raised where an earlier
// run's point does better, and the earlier runs' summaries where this
// run's point does (same fingerprint only). The runs that played the same
// number of rounds share one hindsight problem (hindsightKey): a better
// primal value of it raises every one of them. It returns the label of the
// run whose point now gives res its lower end ("" for the solve's own).
func crossPoints(prob online.Problem, rr *RunResult, res *online.Result, er *ExperimentResult,
	hind map[hindsightKey]*lazycg.Result, points *[]knownPoint) string {
	from := ""
	if hr := hind[hindsightKey{res.Rounds}]; hr != nil && res.Hindsight == hr {
		best, at := hr.F, ""
		for _, kp := range *points {
			if kp.fingerprint != rr.Fingerprint {
				continue
			}
			if v, err := online.LossAt(prob, res.Rounds, kp.x); err == nil && v < best {
				best, at = v, kp.label
			}
		}
		if at != "" {
			lowerHindsight(er, rr.Fingerprint, hind, res.Rounds, best, at)
			res.SetHindsight(hind[hindsightKey{res.Rounds}], nil)
			raiseCurve(rr.Regret, res.Rounds, hr.F-best)
			from = at
		}
	}
	*points = append(*points, knownPoint{label: rr.Label, fingerprint: rr.Fingerprint, rounds: res.Rounds, x: slices.Clone(res.LastPoint)})
	done := map[int]bool{}
	for j := range er.Runs {
		o := &er.Runs[j]
		s := o.Summary
		if o.Fingerprint != rr.Fingerprint || s == nil || s.OnlineSummary == nil || s.Rounds <= 0 || done[s.Rounds] {
			continue
		}
		done[s.Rounds] = true
		hr := hind[hindsightKey{s.Rounds}]
		if hr == nil || math.IsNaN(hr.F) {
			continue
		}
		if v, err := online.LossAt(prob, s.Rounds, res.LastPoint); err == nil && v < hr.F {
			lowerHindsight(er, rr.Fingerprint, hind, s.Rounds, v, rr.Label)
		}
	}
	return from
}

// lowerHindsight sets the primal value of the shared hindsight problem of
// rounds rounds to v, the loss of the last point of the run labeled from,
// and raises the lower ends of the brackets of the runs of er (with the
// fingerprint fp) that played those rounds, which rest on that problem.
func lowerHindsight(er *ExperimentResult, fp string, hind map[hindsightKey]*lazycg.Result, rounds int, v float64, from string) {
	key := hindsightKey{rounds}
	hr := hind[key]
	c := *hr
	c.F = v
	hind[key] = &c
	d, t := hr.F-v, float64(rounds)
	for j := range er.Runs {
		o := &er.Runs[j]
		s := o.Summary
		if o.Fingerprint != fp || s == nil || s.OnlineSummary == nil || s.Rounds != rounds {
			continue
		}
		if math.IsInf(hr.F, 1) {
			lo := s.TotalLoss - v
			s.RegretLower, s.AvgRegretLower = &lo, floatPtr(lo/t)
		} else {
			addTo(s.RegretLower, d)
			addTo(s.AvgRegretLower, d/t)
			addTo(s.AvgErrorLower, d/t)
		}
		o.RegretLower = s.RegretLower
		raiseCurve(o.Regret, s.Rounds, d)
		s.HindsightPoint = from
	}
}

// raiseCurve raises the lower end of the regret curve's point at round
// rounds by d/rounds (a better primal value of its hindsight problem).
func raiseCurve(curve []RegretPoint, rounds int, d float64) {
	for i := range curve {
		if curve[i].Round == rounds && curve[i].Lower != nil {
			curve[i].Lower = floatPtr(*curve[i].Lower + d/float64(rounds))
		}
	}
}

func addTo(p *float64, d float64) {
	if p != nil {
		*p += d
	}
}

func floatPtr(v float64) *float64 { return &v }

// hindsighter computes the hindsight solves of one run.
type hindsighter struct {
	ctx   context.Context
	cfg   spec.Config
	p     *spec.Prepared
	hind  map[hindsightKey]*lazycg.Result
	er    *ExperimentResult
	label string
	exact *spec.Instance // exact oracle when the run's oracle is not
	prob  online.Problem
	ready bool
	limit time.Duration // time limit of every solve (0: the runner's share)
	relax float64       // online.Settings.HindsightRelaxation
}

// problem returns the online problem with an exact LMO.
func (h *hindsighter) problem() (online.Problem, error) {
	if h.ready {
		return h.prob, nil
	}
	h.ready = true
	h.prob = h.p.Online
	if h.p.Info.Lazy || h.cfg.OracleGap == 0 {
		return h.prob, nil // lazy methods get exact oracles
	}
	in, err := spec.Polytope(h.cfg.Polytope, spec.Options{DataDir: h.cfg.DataDir, OracleTimeLimit: h.cfg.OracleTimeLimit})
	if err != nil {
		return h.prob, err
	}
	h.exact = in
	h.prob.LMO, h.prob.Separator = in.LMO, nil
	return h.prob, nil
}

func (h *hindsighter) close() {
	if h.exact != nil && h.exact.Close != nil {
		h.exact.Close()
	}
}

// solve returns the (shared) hindsight solve of the first rounds losses,
// nil when it failed (with a warning). The solve may take a quarter of the
// run's time limit (at most a minute), a checkpoint's a sixteenth.
func (h *hindsighter) solve(rounds int, checkpoint bool) *lazycg.Result {
	key := hindsightKey{rounds}
	if hr, ok := h.hind[key]; ok {
		return hr
	}
	prob, err := h.problem()
	if err != nil {
		h.er.Warnings = append(h.er.Warnings, fmt.Sprintf("%s: hindsight oracle: %v", h.label, err))
		h.hind[key] = nil
		return nil
	}
	hs := online.DefaultHindsightSettings()
	if h.limit > 0 {
		hs.TimeLimit, hs.MaxIterations = h.limit, 0 // the time limit decides
	} else if h.cfg.TimeLimit > 0 {
		share := h.cfg.TimeLimit / 4
		if checkpoint {
			share = h.cfg.TimeLimit / 16
		}
		hs.TimeLimit = min(hs.TimeLimit, max(share, time.Second))
	}
	hr, err := online.SolveHindsight(h.ctx, prob, rounds, &online.Settings{Hindsight: hs, HindsightRelaxation: h.relax})
	if err != nil {
		h.er.Warnings = append(h.er.Warnings, fmt.Sprintf("%s: hindsight solve of %d rounds: %v", h.label, rounds, err))
	}
	h.hind[key] = hr
	return hr
}

// curve returns the average regret at up to regretCheckpoints recorded
// rounds spaced geometrically up to the last one.
func (h *hindsighter) curve(res *online.Result) []RegretPoint {
	var out []RegretPoint
	T := float64(res.Rounds)
	next := 0
	for k := 1; k <= regretCheckpoints; k++ {
		target := int(math.Ceil(math.Pow(T, float64(k)/regretCheckpoints)))
		for next < len(res.Trace) && res.Trace[next].Round < target {
			next++
		}
		if next == len(res.Trace) || (len(out) > 0 && out[len(out)-1].Round == res.Trace[next].Round) {
			continue
		}
		o := res.Trace[next]
		hr := h.solve(o.Round, o.Round < res.Rounds)
		if h.ctx.Err() != nil {
			break
		}
		pt := RegretPoint{Round: o.Round, TimeS: o.Time.Seconds()}
		if hr != nil {
			t := float64(o.Round)
			pt.Lower = finitePtr((o.CumLoss - hr.F) / t)
			pt.Upper = finitePtr((o.CumLoss - hr.DualBound) / t)
		}
		out = append(out, pt)
	}
	return out
}

func finitePtr(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// OnlineTrace returns the trace of an online run: per recorded round the
// time, the round, the LMO calls, the cache hits, the average loss
// (1/t)·Σ_{i≤t} f_i(x_i) as the primal value (no dual bound) and the
// oracle time.
func OnlineTrace(res *online.Result) Trace {
	tr := Trace{Points: make([]lazycg.TracePoint, len(res.Trace)), OracleTime: make([]time.Duration, len(res.Trace))}
	for i, o := range res.Trace {
		tr.Points[i] = lazycg.TracePoint{Time: o.Time, Iteration: o.Round, LMOCalls: o.LMOCalls,
			CacheHits: o.CacheHits, Primal: o.CumLoss / float64(o.Round), DualBound: math.Inf(-1)}
		tr.OracleTime[i] = o.OracleTime
	}
	return tr
}
