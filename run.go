package lazycg

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"time"
	"unsafe"
)

// Run is the clock and the counters of one run. Minimize and the online
// driver (package online) both build on it, so that a run's time limit,
// the meaning of its stop statuses and its counters are defined once:
//
//   - the start time and the time limit, passed to oracle calls as the
//     deadline of Context;
//   - Interrupted, which maps the caller's cancellation to Canceled and
//     the deadline to TimeLimit;
//   - Stats, the counters that the run's Oracle and its evaluations
//     (FuncGrad) count into.
//
// A Run is used by one goroutine; call Stop when the run ends.
type Run struct {
	// Stats are the counters of the run.
	Stats Stats

	start  time.Time
	limit  time.Duration
	parent context.Context
	ctx    context.Context
	cancel context.CancelFunc
	fg     resolved[FuncGrader] // FuncGrad's objective as a FuncGrader
}

// resolved holds the result of the assertion of an interface value to
// the interface I, and asserts again only when the value changes. The
// value (an objective, an LMO) is mostly fixed for a whole run, and a
// hot path that asserts it on every call would pay a type assertion per
// call, whose call-site cache the Go runtime builds at random moments
// (an allocation now and then, which allocation tests catch).
type resolved[I any] struct {
	of any // the value asserted (nil: none yet)
	as I
	ok bool
}

// get returns v.(I) and whether v is an I, asserting only when v is not
// the value of the previous call (see identical).
func (r *resolved[I]) get(v any) (I, bool) {
	if r.of == nil || !identical(r.of, v) {
		r.of = v
		r.as, r.ok = v.(I)
	}
	return r.as, r.ok
}

// identical reports whether a and b are the same interface value word for
// word: the same dynamic type and the same data word (the pointer, or the
// box holding a value of another type). Unlike a == b it never panics (on
// dynamic types that are not comparable) and reads no value: equal values
// in two boxes are not identical. Identical values assert to any
// interface with the same result, so that a result can be kept (resolved)
// while the value stays; the keeper holds the value, so its box cannot be
// reused for another one meanwhile.
func identical(a, b any) bool {
	return *(*[2]unsafe.Pointer)(unsafe.Pointer(&a)) == *(*[2]unsafe.Pointer)(unsafe.Pointer(&b))
}

// StartRun starts the clock of a run under ctx with the given time limit
// (0: none).
func StartRun(ctx context.Context, limit time.Duration) *Run {
	r := &Run{start: time.Now(), limit: limit, parent: ctx, ctx: ctx, cancel: func() {}}
	if limit > 0 {
		r.ctx, r.cancel = context.WithDeadline(ctx, r.start.Add(limit))
	}
	return r
}

// Context returns the context for the run's oracle calls: the caller's,
// with the deadline of the time limit.
func (r *Run) Context() context.Context { return r.ctx }

// Stop releases the resources of the deadline.
func (r *Run) Stop() { r.cancel() }

// Elapsed returns the wall-clock time since the start.
func (r *Run) Elapsed() time.Duration { return time.Since(r.start) }

// Interrupted reports whether the run must stop because the caller's
// context was canceled (Canceled) or the time limit or the deadline of
// the caller's context has passed (TimeLimit). A method or oracle error
// seen while the run is interrupted is a consequence of the interruption,
// not a failure.
func (r *Run) Interrupted() (Status, bool) {
	// The run's context first: the caller's cancellation is in its
	// context before it reaches the run's, so a run's context canceled by
	// it is always seen with the caller's canceled too. Read the other
	// way round, a cancellation between the two reads was a time limit.
	cerr := r.ctx.Err()
	perr := r.parent.Err()
	switch {
	case perr != nil && !errors.Is(perr, context.DeadlineExceeded):
		return Canceled, true
	case perr != nil || cerr != nil || (r.limit > 0 && time.Since(r.start) >= r.limit):
		return TimeLimit, true
	}
	return NotTerminated, false
}

// Finish stamps the runtime and the number of iterations (rounds) into the
// counters and returns them.
func (r *Run) Finish(iterations int) Stats {
	r.Stats.Runtime = time.Since(r.start)
	r.Stats.Iterations = iterations
	return r.Stats
}

// FuncGrad evaluates f and ∇f at x (grad receives the gradient), through
// the FuncGrader fast path when f has one, and counts one evaluation.
func (r *Run) FuncGrad(f Objective, grad, x []float64) float64 {
	return funcGrad(&r.Stats, &r.fg, f, grad, x)
}

// funcGrad is the counted evaluation of f and ∇f shared by Run and State;
// fg holds f's FuncGrader assertion (see resolved).
func funcGrad(stats *Stats, fg *resolved[FuncGrader], f Objective, grad, x []float64) float64 {
	stats.FuncGradEvals++
	start := time.Now()
	var v float64
	if fg, ok := fg.get(f); ok {
		v = fg.FuncGrad(grad, x)
	} else {
		v = f.Func(x)
		f.Grad(grad, x)
	}
	stats.GradTime += time.Since(start)
	return v
}

// NewOracle returns the run's counted Oracle over lmo and sep; when sep
// is nil the default separator NewSeparator(lmo, cfg) is used. Check the
// problem first (CheckProblem).
func (r *Run) NewOracle(lmo LMO, sep WeakSeparator, cfg SeparatorConfig) *Oracle {
	return r.NewCheckedOracle(lmo, sep, cfg, 0)
}

// NewCheckedOracle is NewOracle for a problem checked at dimension n (0:
// the LMO's Dim, read when needed): the default separator's cache and the
// vectors of concurrent and background weak separation are of dimension
// n, whatever the LMO's Dim says after the check (Minimize and the online
// driver read it once).
func (r *Run) NewCheckedOracle(lmo LMO, sep WeakSeparator, cfg SeparatorConfig, n int) *Oracle {
	if sep == nil {
		sep = newSeparator(lmo, cfg, n)
	}
	o := NewOracle(lmo, sep, &r.Stats)
	o.n = n
	return o
}

// CheckProblem checks what the offline and the online problem over R^n
// have in common: lmo must be set and of dimension n, sep (when set) of
// dimension n, neither a typed nil (a nil pointer in the interface: see
// CheckNotNil), an AugmentingSeparator fit to run (an oracle that is set,
// not a typed nil, of a 0/1 polytope with an ℓ1-diameter bound and a
// dimension in [1, MaxDim]), and the start point x0 (when set: nil lets
// the driver choose) must have n finite entries.
func CheckProblem(n int, lmo LMO, sep WeakSeparator, x0 []float64) error {
	if lmo == nil {
		return errors.New("lazycg: problem needs an LMO")
	}
	if err := CheckNotNil("the LMO", lmo); err != nil {
		return err
	}
	if err := CheckNotNil("the separator", sep); err != nil {
		return err
	}
	if cs, ok := sep.(*CachedSeparator); ok {
		if cs.LMO == nil {
			return errors.New("lazycg: the separator (a CachedSeparator) has no LMO")
		}
		if err := CheckNotNil("the separator's LMO", cs.LMO); err != nil {
			return err
		}
	}
	if as, ok := sep.(*AugmentingSeparator); ok {
		// Its Dim is its oracle's: a missing or typed-nil oracle panicked
		// in the dimension check below.
		if _, err := as.diameter(); err != nil {
			return err
		}
	}
	if n <= 0 || n > MaxDim {
		return fmt.Errorf("lazycg: problem dimension %d out of range (1 to %d)", n, MaxDim)
	}
	if lmo.Dim() != n {
		return fmt.Errorf("lazycg: problem dimension %d differs from polytope dimension %d", n, lmo.Dim())
	}
	if sep != nil && sep.Dim() != n {
		return fmt.Errorf("lazycg: separator dimension %d differs from problem dimension %d", sep.Dim(), n)
	}
	if x0 == nil {
		return nil
	}
	if len(x0) != n {
		return fmt.Errorf("lazycg: start point has dimension %d, want %d", len(x0), n)
	}
	if !CheckFinite(x0) {
		return errors.New("lazycg: start point has NaN or Inf entries")
	}
	if err := CheckMember(lmo, x0); err != nil {
		return SettingsError(fmt.Errorf("lazycg: the start point is not in the polytope: %w", err))
	}
	return nil
}

// CheckMember checks a point x of the right dimension against the
// polytope of lmo when lmo is a MembershipChecker, within the tolerance
// CheckProblem allows a start point, CheckMemberTol(lmo, x, 1e-9): an
// absolute tolerance 1e-9·max(s, max_i |x_i|), s the polytope's own scale
// when lmo is a ScaledChecker and 1 otherwise. It returns the checker's
// error for a point outside, and nil when lmo cannot check (x is then
// taken to lie in P). Saved points used as bounds (experiment's
// hindsight) go through it too. A point with a NaN or infinite entry is
// never in a polytope: it gets an error whatever lmo is.
func CheckMember(lmo LMO, x []float64) error {
	return CheckMemberTol(lmo, x, startTol)
}

// CheckMemberTol checks x against the polytope of lmo with the relative
// tolerance rel: by lmo's CheckScaled(x, rel) when lmo is a ScaledChecker,
// by its Check(x, ScaledTol(rel, 1, x)) when it is only a
// MembershipChecker, and not at all (nil) otherwise. Products check
// their blocks with it, each at its own scale. A point with a NaN or
// infinite entry gets an error naming that entry, whatever lmo is: no
// polytope holds it (and the tolerance scaled by such an entry was +Inf
// or NaN, under which checkers accepted x = (+Inf, 0, …) as a point of
// the simplex).
func CheckMemberTol(lmo LMO, x []float64, rel float64) error {
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("lazycg: entry %d of the point is %g, not a finite number", i, v)
		}
	}
	switch mc := lmo.(type) {
	case ScaledChecker:
		return mc.CheckScaled(x, rel)
	case MembershipChecker:
		return mc.Check(x, ScaledTol(rel, 1, x))
	}
	return nil
}

// CheckNotNil returns an error when v, an interface value that is not nil
// (a user's Objective, LMO, separator, method, …), holds a nil pointer,
// func or channel: a typed nil, as in
//
//	var o *MyObjective // never assigned
//	p := lazycg.Problem{Objective: o, …}
//
// which compares unequal to nil and whose methods panic (or, for a
// channel, block) deep inside a run. The error says "lazycg: " + what +
// " is a nil *pkg.Type". A nil v itself passes: callers say what is
// missing in their own words. So do nil maps and slices, which are
// usable empty values (a nil list of vertices is an empty Decomposer; a
// vector type of length 0 fails the dimension checks). Minimize, Check,
// MinimizeDC and CheckProblem (and so the online driver) call it on what
// they are given.
func CheckNotNil(what string, v any) error {
	if v == nil {
		return nil
	}
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.Pointer, reflect.Func, reflect.Chan, reflect.UnsafePointer:
		if rv.IsNil() {
			return fmt.Errorf("lazycg: %s is a nil %T", what, v)
		}
	}
	return nil
}

// MaxDim is the largest problem dimension CheckProblem accepts (2^40: a
// single vector of that length takes 8 TiB).
const MaxDim = 1 << 40

// startTol is the relative tolerance of the membership check of a start
// point (MembershipChecker, ScaledChecker).
const startTol = 1e-9

// MembershipChecker is an optional interface of LMOs that can check
// whether a point lies in their polytope P: Check returns an error naming
// a violated constraint when x is not in P within tol (absolute, per
// constraint), and nil when x is in P. A checker may test necessary
// conditions only (a product whose factors cannot all check), and then
// returns nil for some points outside P. CheckProblem (and so Minimize,
// MinimizeDC and the online driver) refuses a start point with it (see
// CheckMember for the tolerance, and ScaledChecker for polytopes whose
// scale is not 1); without it a start point is taken to lie in P, which
// no method can check from linear minimization alone, and the results
// (primal values, gaps) hold only if it does.
type MembershipChecker interface {
	Check(x []float64, tol float64) error
}

// ScaledChecker is an optional interface of MembershipCheckers whose
// polytope has a scale s of its own (a radius, max |vertex entry|), so
// that a relative tolerance rel is relative to s rather than to 1: for a
// polytope of one scale, CheckScaled(x, rel) is Check(x, ScaledTol(rel,
// s, x)), the rule that CheckMemberTol applies with s = 1 to a checker
// without it (the 0/1 polytopes, flows with integer data); a product
// checks each block by CheckMemberTol, at the block's own scale. With 1
// in place of s, the floor 1e-9 of CheckMember's tolerance let a ball of
// radius 1e-10 accept a start point 15 times its radius away from it; with
// s it shrinks and grows with the polytope, so that the tolerance of a
// point of P is 1e-9 relative to P's scale at every scale.
type ScaledChecker interface {
	MembershipChecker
	CheckScaled(x []float64, rel float64) error
}

// ScaledTol returns the absolute tolerance rel·max(scale, max_i |x_i|) of
// a membership check with relative tolerance rel of x against a polytope
// of the given scale (ScaledChecker): relative to the polytope's scale
// for its points, and to x's own entries (their rounding) for a point
// with larger entries. Entries that are NaN or infinite are left out of
// the maximum, so that the tolerance stays finite and such a point fails
// the check instead of passing it under an infinite (or NaN) tolerance.
func ScaledTol(rel, scale float64, x []float64) float64 {
	m := 0.0
	for _, v := range x {
		if a := math.Abs(v); a > m && !math.IsInf(a, 1) {
			m = a
		}
	}
	return rel * math.Max(scale, m)
}

// CheckFinite reports whether every entry of v is finite (neither NaN nor
// ±Inf).
func CheckFinite(v []float64) bool {
	// x − x is 0 for finite x and NaN for ±Inf and NaN; the sums of those
	// stay 0 exactly when every entry is finite. No branch per entry.
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+3 < len(v); i += 4 {
		s0 += v[i] - v[i]
		s1 += v[i+1] - v[i+1]
		s2 += v[i+2] - v[i+2]
		s3 += v[i+3] - v[i+3]
	}
	for ; i < len(v); i++ {
		s0 += v[i] - v[i]
	}
	return s0+s1+s2+s3 == 0
}
