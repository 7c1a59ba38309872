package mip

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/lazycg/lazycg"
)

var (
	_ lazycg.LMO           = (*Solver)(nil)
	_ lazycg.EarlyStopper  = (*Solver)(nil)
	_ lazycg.FaceMinimizer = (*Solver)(nil)
	_ lazycg.Augmenter     = (*Solver)(nil)
	_ lazycg.StandardForm  = (*Solver)(nil)
	_ lazycg.Forker        = (*Solver)(nil)

	_ lazycg.RelaxationBounder = (*Solver)(nil)
)

// Minimize implements lazycg.LMO: it stores in dst a vertex minimizing c·v,
// solving to optimality or to Options.RelGap. The previously returned
// vertex is the backend's first incumbent (warm start), so repeated calls
// with similar objectives are cheaper.
func (s *Solver) Minimize(ctx context.Context, dst, c []float64) (res lazycg.LinearResult, err error) {
	if !s.enter() {
		return notFound(), errBusy
	}
	defer s.exit()
	if s.opts.CallLog != nil {
		defer s.logDefer(CallMinimize, c, nil, nil, time.Now(), &res, &err)
	}
	return s.minimize(ctx, dst, c, nil, math.Inf(-1), math.Inf(1))
}

// MinimizeUntil implements lazycg.EarlyStopper: the backend stops as soon
// as it has a vertex v with c·v < rule.Improve (StopImproving) or proves c·v
// ≥ rule.Certify for all vertices (StopCertified; Found is then true only
// if a known vertex is returned along). When rule.Improve ≥ rule.Certify
// only solutions below rule.Improve are searched for (a cutoff), which
// prunes the tree further. If the previously returned vertex already
// satisfies c·v < rule.Improve it is returned without solving (Bound −Inf).
//
// Infinite thresholds: Improve = +Inf asks for any vertex, so the call
// ends at the first feasible point (the start vertex of a run); Improve =
// −Inf and Certify = +Inf switch their rule off (both: an exact solve);
// Certify = −Inf is met by every bound, so the call returns at once with
// StopCertified and Bound −Inf (along with the last vertex, if any).
// rule.Dive makes the search look for an improving vertex first (see
// lazycg.StopRule.Dive).
func (s *Solver) MinimizeUntil(ctx context.Context, dst, c []float64, rule lazycg.StopRule) (res lazycg.LinearResult, err error) {
	if !s.enter() {
		return notFound(), errBusy
	}
	defer s.exit()
	if math.IsNaN(rule.Improve) || math.IsNaN(rule.Certify) {
		return notFound(), fmt.Errorf("mip: stop rule has NaN (Improve %g, Certify %g)", rule.Improve, rule.Certify)
	}
	cutoff := rule.Improve
	if rule.Keep {
		if math.IsNaN(rule.KeepBelow) {
			return notFound(), errors.New("mip: stop rule has NaN KeepBelow")
		}
		cutoff = math.Max(rule.KeepBelow, rule.Improve)
	}
	if s.opts.CallLog != nil {
		defer s.logDefer(CallUntil, c, &rule, nil, time.Now(), &res, &err)
	}
	s.dive = rule.Dive
	defer func() { s.dive = false }()
	return s.minimizeCut(ctx, dst, c, nil, rule.Improve, rule.Certify, cutoff)
}

// RelaxationBound implements lazycg.RelaxationBounder: the optimal value
// of the model's LP relaxation for the objective c (one LP solve from the
// last basis, no cuts, heuristics or branching), a proven lower bound on
// c·v over the polytope. The parameter-free lazy methods start Φ from it
// instead of a full solve.
func (s *Solver) RelaxationBound(ctx context.Context, c []float64) (bound float64, err error) {
	if !s.enter() {
		return math.Inf(-1), errBusy
	}
	defer s.exit()
	if s.opts.CallLog != nil {
		start := time.Now()
		defer func() {
			res := lazycg.LinearResult{Value: math.Inf(1), Bound: bound, Reason: lazycg.StopCertified}
			err = s.logCall(CallRelaxationBound, c, nil, nil, start, res, err)
		}()
	}
	if err := s.checkObj(c); err != nil {
		return math.Inf(-1), err
	}
	s.setObjective(c)
	// Any bound certifies −MaxFloat64: the backend stops right after its
	// first LP with the LP value as its bound.
	if err := s.run(ctx, math.Inf(-1), -math.MaxFloat64, math.Inf(1), false); err != nil {
		return math.Inf(-1), err
	}
	r := &s.res
	switch r.Outcome {
	case OutcomeInfeasible:
		return math.Inf(-1), errInfeasible
	case OutcomeUnbounded:
		return math.Inf(-1), errUnbounded
	case OutcomeCertified, OutcomeOptimal:
		if math.IsNaN(r.Bound) || math.IsInf(r.Bound, 0) {
			return math.Inf(-1), fmt.Errorf("mip: the LP relaxation gave the bound %g", r.Bound)
		}
		return r.Bound, nil
	case OutcomeTimeLimit:
		return math.Inf(-1), fmt.Errorf("%w (%v) before the LP relaxation was solved", ErrTimeLimit, s.opts.TimeLimit)
	}
	return math.Inf(-1), fmt.Errorf("mip: unexpected outcome %v of the LP relaxation", r.Outcome)
}

// MinimizeFace implements lazycg.FaceMinimizer: it minimizes c·v over the
// vertices with v_i = 0 for every i with zero[i]: on a model without those
// columns when they are at least nine tenths of the model's (face.go), else
// by fixing them to 0 through their bounds for this call only. A mask that
// fixes a column whose bounds exclude 0 is an empty face.
func (s *Solver) MinimizeFace(ctx context.Context, dst, c []float64, zero []bool) (res lazycg.LinearResult, err error) {
	if !s.enter() {
		return notFound(), errBusy
	}
	defer s.exit()
	if s.eng == nil {
		return notFound(), ErrClosed
	}
	if len(zero) != len(s.vars) {
		return notFound(), fmt.Errorf("mip: face mask has length %d, dimension is %d", len(zero), len(s.vars))
	}
	if s.opts.CallLog != nil {
		defer s.logDefer(CallFace, c, nil, zero, time.Now(), &res, &err)
	}
	if s.reducible(zero) {
		if err := s.checkVec(dst, c); err != nil {
			return notFound(), err
		}
		f, err := s.faceFor(ctx, zero)
		if err != nil {
			return notFound(), err
		}
		if f != nil {
			return s.minimizeFaceReduced(ctx, dst, c, zero, f)
		}
	}
	if err := s.checkVec(dst, c); err != nil {
		return notFound(), err
	}
	for i, z := range zero {
		if j := s.vars[i]; z {
			if m := s.model; m.ColLo[j] > 0 || m.ColUp[j] < 0 {
				// No point of the model has x_j = 0.
				return notFound(), fmt.Errorf("mip: the face is empty (%d coordinates fixed to 0; column %s has bounds [%g, %g]): %w",
					countTrue(zero), colName(m, j), m.ColLo[j], m.ColUp[j], lazycg.ErrEmptyPolytope)
			}
		}
	}
	if s.changed == nil {
		s.changed = make([]int, 0, len(s.vars))
	}
	for i, z := range zero {
		// Both bounds: a column with a negative lower bound is not
		// fixed to 0 by its upper bound alone.
		if j := s.vars[i]; z && (s.model.ColLo[j] != 0 || s.model.ColUp[j] != 0) {
			s.setColBounds(j, 0, 0)
			s.changed = append(s.changed, j)
		}
	}
	defer func() {
		for _, j := range s.changed {
			s.setColBounds(j, s.model.ColLo[j], s.model.ColUp[j])
		}
		s.changed = s.changed[:0]
	}()
	res, err = s.minimize(ctx, dst, c, zero, math.Inf(-1), math.Inf(1))
	if err != nil && errors.Is(err, errInfeasible) {
		return res, fmt.Errorf("mip: the face is empty (%d coordinates fixed to 0): %w", countTrue(zero), lazycg.ErrEmptyPolytope)
	}
	return res, err
}

// countTrue returns the number of true entries of b.
func countTrue(b []bool) int {
	n := 0
	for _, v := range b {
		if v {
			n++
		}
	}
	return n
}

// Augment implements lazycg.Augmenter: the backend searches for a solution
// with c·y < c·x − 1e-9·max(1, |c·x|) and stops at the first one found
// (an exact solve decides when that one is not improving once rounded);
// when it proves that none exists, x is optimal for c and Augment returns
// false with dst = x.
func (s *Solver) Augment(ctx context.Context, dst, c, x []float64) (bool, error) {
	if !s.enter() {
		return false, errBusy
	}
	defer s.exit()
	if err := s.checkVec(dst, c); err != nil {
		return false, err
	}
	if len(x) != len(s.vars) {
		return false, fmt.Errorf("mip: augment: point has length %d, dimension is %d", len(x), len(s.vars))
	}
	cx := dotVec(c, x)
	if math.IsNaN(cx) || math.IsInf(cx, 0) {
		return false, fmt.Errorf("mip: augment: point has NaN or Inf")
	}
	s.setObjective(c)
	cutoff := cx - 1e-9*math.Max(1, math.Abs(cx))
	if err := s.run(ctx, math.Inf(1), math.Inf(1), cutoff, false); err != nil {
		return false, err
	}
	switch s.res.Outcome {
	case OutcomeInfeasible:
		copy(dst, x)
		return false, nil
	case OutcomeUnbounded:
		return false, errUnbounded
	}
	if s.res.Found {
		s.storeVertex(dst)
		if dotVec(c, dst) < cx {
			return true, nil
		}
	}
	if s.res.Outcome == OutcomeTimeLimit {
		copy(dst, x)
		return false, fmt.Errorf("%w (%v) before an augmenting vertex was found or ruled out", ErrTimeLimit, s.opts.TimeLimit)
	}
	// The first incumbent decided nothing: CBC may stop at a heuristic's
	// point that is not below the cutoff (at c·x, or below it only by its
	// integrality tolerance, so that the rounded point is x), or at one
	// it then discards. An exact solve decides.
	gap := s.opts.RelGap
	s.opts.RelGap = 0
	err := s.run(ctx, math.Inf(-1), math.Inf(1), math.Inf(1), false)
	s.opts.RelGap = gap
	if err != nil {
		copy(dst, x)
		return false, err
	}
	switch s.res.Outcome {
	case OutcomeInfeasible:
		copy(dst, x)
		return false, errInfeasible
	case OutcomeUnbounded:
		copy(dst, x)
		return false, errUnbounded
	}
	if s.res.Found {
		s.storeVertex(dst)
		if dotVec(c, dst) < cx {
			return true, nil
		}
	}
	copy(dst, x)
	if s.res.Outcome == OutcomeOptimal {
		return false, nil
	}
	return false, fmt.Errorf("%w (%v) before an augmenting vertex was found or ruled out", ErrTimeLimit, s.opts.TimeLimit)
}

var (
	errInfeasible = fmt.Errorf("mip: %w", lazycg.ErrEmptyPolytope)
	errUnbounded  = fmt.Errorf("mip: objective is unbounded below (LP relaxation unbounded): %w", lazycg.ErrUnbounded)
)

func notFound() lazycg.LinearResult {
	return lazycg.LinearResult{Value: math.Inf(1), Bound: math.Inf(-1)}
}

// minimize is the common part of Minimize, MinimizeUntil and MinimizeFace.
func (s *Solver) minimize(ctx context.Context, dst, c []float64, zero []bool, improve, certify float64) (lazycg.LinearResult, error) {
	return s.minimizeCut(ctx, dst, c, zero, improve, certify, improve)
}

// minimizeCut is minimize where only solutions below keep (≥ improve) are
// kept when improve ≥ certify (a cutoff; see StopRule.KeepBelow).
func (s *Solver) minimizeCut(ctx context.Context, dst, c []float64, zero []bool, improve, certify, keep float64) (lazycg.LinearResult, error) {
	res := notFound()
	if err := s.checkVec(dst, c); err != nil {
		return res, err
	}
	s.setObjective(c)

	// Warm start: the last vertex, if it lies in the face.
	warm := s.lastOK
	if warm && zero != nil {
		for i, z := range zero {
			if z && s.last[s.vars[i]] != 0 {
				warm = false
				break
			}
		}
	}
	v0 := math.Inf(1)
	if warm {
		v0 = 0
		for i, j := range s.vars {
			v0 += c[i] * s.last[j]
		}
		if v0 < improve {
			s.loadLast(dst)
			res.Found, res.Value, res.Reason = true, v0, lazycg.StopImproving
			return res, nil
		}
	}
	if math.IsInf(certify, -1) {
		// Every bound certifies c·v ≥ −Inf.
		res.Reason = lazycg.StopCertified
		if warm {
			s.loadLast(dst)
			res.Found, res.Value = true, v0
		}
		return res, nil
	}
	cutoff := math.Inf(1)
	start := warm // warm start as the backend's incumbent
	if improve >= certify && keep <= v0 {
		// Only solutions below Improve (or keep) matter: a cutoff.
		cutoff, start = keep, false
	}

	err := s.run(ctx, improve, certify, cutoff, start)
	r := &s.res
	res.Nodes = r.Nodes
	if err != nil {
		if r.Outcome == OutcomeCanceled {
			// A canceled call still reports the bound it proved.
			res.Reason = lazycg.StopCanceled
			res.Bound = math.Min(r.Bound, cutoff)
		}
		return res, err
	}
	switch r.Outcome {
	case OutcomeUnbounded:
		return res, errUnbounded
	case OutcomeInfeasible:
		if math.IsInf(cutoff, 1) {
			return res, errInfeasible
		}
		// Nothing below the cutoff Improve ≥ Certify: it is a lower bound.
		res.Bound = cutoff
		res.Reason = lazycg.StopCertified
		if warm {
			s.loadLast(dst)
			res.Found, res.Value = true, v0
		}
		return res, nil
	}
	if r.Found {
		v := 0.0
		for i, j := range s.vars {
			v += c[i] * s.x[j]
		}
		// Never return a vertex worse than the warm start.
		if !warm || v <= v0 {
			s.storeVertex(dst)
			res.Found, res.Value = true, dotVec(c, dst)
		}
	}
	if !res.Found && warm {
		s.loadLast(dst)
		res.Found, res.Value = true, v0
	}
	res.Bound = math.Min(r.Bound, cutoff)
	switch r.Outcome {
	case OutcomeOptimal:
		res.Reason = lazycg.StopOptimal
	case OutcomeGap:
		res.Reason = lazycg.StopGap
	case OutcomeImproving:
		res.Reason = lazycg.StopImproving
	case OutcomeCertified:
		res.Reason = lazycg.StopCertified
	case OutcomeTimeLimit:
		res.Reason = lazycg.StopTimeLimit
	default:
		return res, fmt.Errorf("mip: unexpected outcome %v of the backend", r.Outcome)
	}
	if !res.Found {
		if res.Reason == lazycg.StopCertified {
			return res, nil
		}
		return res, fmt.Errorf("%w (%v) before a feasible point was found", ErrTimeLimit, s.opts.TimeLimit)
	}
	if res.Reason == lazycg.StopImproving && !(res.Value < improve) {
		// The backend saw its incumbent below Improve, but not the rounded
		// vertex: an early stop that is neither improving nor certified.
		res.Reason = lazycg.StopGap
		if res.Bound >= certify {
			res.Reason = lazycg.StopCertified
		}
	}
	if res.Reason == lazycg.StopOptimal || res.Bound > res.Value {
		res.Bound = res.Value
	}
	return res, nil
}

// SolveOwnObjective minimizes, or maximizes when m.Maximize is set, the
// model's own objective Obj·x + ObjConst with a Solver and returns the optimal
// value and solution (one entry per column). It validates models and the
// solver against known optima. opts.Vars is ignored; with opts.RelGap or
// opts.TimeLimit the result may be suboptimal: a run stopped by the time
// limit returns its incumbent together with an error wrapping ErrTimeLimit.
func SolveOwnObjective(ctx context.Context, m *Model, opts Options) (value float64, x []float64, err error) {
	opts.Vars = nil
	opts.RequireBinary = false
	s, err := NewSolver(m, opts)
	if err != nil {
		return 0, nil, err
	}
	defer s.Close()
	c := append([]float64(nil), m.Obj...)
	if m.Maximize {
		for j := range c {
			c[j] = -c[j]
		}
	}
	x = make([]float64, m.NumCols())
	res, err := s.Minimize(ctx, x, c)
	if err != nil && !(errors.Is(err, ErrTimeLimit) && res.Found) {
		return 0, nil, err
	}
	value = dotVec(m.Obj, x) + m.ObjConst
	if res.Reason == lazycg.StopTimeLimit {
		bound := res.Bound + m.ObjConst
		if m.Maximize {
			bound = -res.Bound + m.ObjConst
		}
		return value, x, fmt.Errorf("%w (%v): incumbent %g, bound %g", ErrTimeLimit, opts.TimeLimit, value, bound)
	}
	return value, x, nil
}

// checkVec validates the dimensions of dst and c and the finiteness of c.
func (s *Solver) checkVec(dst, c []float64) error {
	if s.eng == nil {
		return ErrClosed
	}
	n := len(s.vars)
	if len(c) != n || len(dst) != n {
		return fmt.Errorf("mip: objective has length %d and destination %d, dimension is %d", len(c), len(dst), n)
	}
	return s.checkObj(c)
}

// checkObj checks an objective of the right length for NaN and Inf.
func (s *Solver) checkObj(c []float64) error {
	if s.eng == nil {
		return ErrClosed
	}
	if len(c) != len(s.vars) {
		return fmt.Errorf("mip: objective has length %d, dimension is %d", len(c), len(s.vars))
	}
	for i, v := range c {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("mip: objective entry %d is %g", i, v)
		}
	}
	return nil
}

// setObjective stores c on the Vars columns and 0 elsewhere.
func (s *Solver) setObjective(c []float64) {
	if len(s.vars) != len(s.obj) {
		clear(s.obj)
	}
	for i, j := range s.vars {
		s.obj[j] = c[i]
	}
}

// storeVertex copies the backend's solution to s.last and its Vars part to dst.
func (s *Solver) storeVertex(dst []float64) {
	copy(s.last, s.x)
	s.lastOK = true
	s.loadLast(dst)
}

// loadLast copies the Vars part of s.last to dst.
func (s *Solver) loadLast(dst []float64) {
	for i, j := range s.vars {
		dst[i] = s.last[j]
	}
}

func dotVec(a, b []float64) float64 {
	var s float64
	for i, v := range a {
		s += v * b[i]
	}
	return s
}
