package lazycg

import (
	"context"
	"errors"
	"math"
)

// LMO is a linear minimization oracle over a polytope P ⊂ R^n.
type LMO interface {
	// Dim is the ambient dimension n.
	Dim() int
	// Minimize stores a vertex v of P minimizing c·v (or, for inexact
	// oracles, a vertex that is good enough) in dst and describes it.
	// Combinatorial oracles return errors only for invalid input
	// (NaN or Inf in c); solver-backed ones also for solver failure,
	// time limits without a solution and cancellation.
	Minimize(ctx context.Context, dst, c []float64) (LinearResult, error)
}

// LinearResult describes the answer of an LMO call.
type LinearResult struct {
	// Found reports whether dst holds a vertex of P. It is always true for
	// Minimize; MinimizeUntil may stop with a certificate and no vertex.
	Found bool
	// Value is c·dst when Found, +Inf otherwise.
	Value float64
	// Bound is a proven lower bound on min over P of c·v. It equals Value
	// when the oracle solved the problem to optimality and is -Inf when
	// nothing is known.
	Bound float64
	// Reason says why the oracle stopped.
	Reason StopReason
	// Nodes is the number of branch-and-bound nodes for solver-backed
	// oracles, 0 otherwise.
	Nodes int64
}

// UnansweredError is the error of an LMO call that ended without its
// answer — canceled (LinearResult.Reason StopCanceled: the context ended)
// or, for a weak separation call, stopped before it decided its question
// (ErrInconclusive) — after it had proven Bound ≤ min over P of c·v. That
// bound is a proof like any other: for c = ∇f(x) the Wolfe gap of x is at
// most c·x − Bound, so the methods report it as a dual bound before they
// return the error, and a run that stops in the middle of a call keeps
// what the call proved. Err is the call's own error (Unwrap).
type UnansweredError struct {
	Bound float64
	Err   error
}

// Error returns the call's own error message.
func (e *UnansweredError) Error() string { return e.Err.Error() }

// Unwrap returns the call's own error.
func (e *UnansweredError) Unwrap() error { return e.Err }

// unanswered returns err, wrapped in an UnansweredError with res.Bound
// when that is a finite bound the call proved: a call canceled with its
// bound (StopCanceled), or one whose err is ErrInconclusive.
func unanswered(res LinearResult, err error) error {
	if err == nil || math.IsNaN(res.Bound) || math.IsInf(res.Bound, 0) ||
		!(res.Reason == StopCanceled || errors.Is(err, ErrInconclusive)) {
		return err
	}
	return &UnansweredError{Bound: res.Bound, Err: err}
}

// Exact returns the result of an oracle that solved min c·v to optimality
// with optimum value v.
func Exact(v float64) LinearResult {
	return LinearResult{Found: true, Value: v, Bound: v, Reason: StopOptimal}
}

// Optimal reports whether the result is proven optimal.
func (r LinearResult) Optimal() bool { return r.Found && r.Bound >= r.Value }

// StopReason says why an oracle call ended.
type StopReason int

const (
	// StopOptimal: the returned vertex is proven optimal.
	StopOptimal StopReason = iota
	// StopGap: the relative gap of an inexact oracle was reached.
	StopGap
	// StopImproving: early termination, a vertex with c·v < Improve was found.
	StopImproving
	// StopCertified: early termination, the bound proved c·v ≥ Certify for
	// every vertex v.
	StopCertified
	// StopTimeLimit: the per-call time limit was reached.
	StopTimeLimit
	// StopCanceled: the context was canceled.
	StopCanceled
)

var stopReasonNames = [...]string{"optimal", "gap", "improving", "certified", "time-limit", "canceled"}

// String returns the stop reason's name as call logs and summaries print it.
func (r StopReason) String() string {
	if r < 0 || int(r) >= len(stopReasonNames) {
		return "unknown"
	}
	return stopReasonNames[r]
}

// StopRule tells an early-stopping oracle when it may stop.
type StopRule struct {
	// Improve: stop as soon as a vertex v with c·v < Improve is known
	// (the weak separation oracle uses c·x − Φ/K).
	Improve float64
	// Certify: stop as soon as the solver proves c·v ≥ Certify for every v
	// in P (the weak separation oracle uses c·x − Φ).
	Certify float64
	// KeepBelow, with Keep set, asks a solver that prunes by its
	// incumbents to keep every vertex with c·v < KeepBelow (> Improve) as
	// an incumbent, so that a call cut short by its context's deadline
	// can return its best such vertex (the weak separation oracle uses c·x
	// under SeparatorConfig.CallBudget). Without Keep, solvers may search
	// for vertices below Improve only (a cutoff), which prunes more.
	KeepBelow float64
	Keep      bool
	// Dive asks a solver that searches a tree to look for a vertex below
	// Improve first (depth-first dives) rather than to raise its bound
	// (best-first search, which solvers may prefer when Certify is
	// finite). A hint: it changes how fast each exit is reached, never
	// what an answer means. Weak separation sets it on every
	// early-stopping call unless SeparatorConfig.NoDive; the race policies
	// make the calls of the second LMO instance (StaleRace) or a race's
	// copy (StaleRaceCopy) search the other way.
	Dive bool
}

// EarlyStopper is an optional interface of LMOs that can end a solve as soon
// as the answer of a weak separation call is known.
type EarlyStopper interface {
	// MinimizeUntil is Minimize with early termination by rule. When it
	// stops with StopCertified, Found may be false and dst is unspecified;
	// Bound ≥ rule.Certify then holds.
	MinimizeUntil(ctx context.Context, dst, c []float64, rule StopRule) (LinearResult, error)
}

// RelaxationBounder is an optional interface of LMOs that can prove a
// lower bound on min_{z∈P} c·z much faster than they minimize, from a
// relaxation of P (MIP oracles: the LP relaxation of the model, one LP
// solve without branching). The parameter-free lazy methods start Φ from
// it (Phi0Auto): c·x − bound is a proven upper bound on the Wolfe gap.
type RelaxationBounder interface {
	// RelaxationBound returns a proven lower bound on c·z over P (finite,
	// or an error: an empty polytope wraps ErrEmptyPolytope, an unbounded
	// relaxation ErrUnbounded).
	RelaxationBound(ctx context.Context, c []float64) (float64, error)
}

// FaceMinimizer is an optional interface of LMOs over 0/1 polytopes that can
// minimize over the face {v ∈ P : v_i = 0 for every i with zero[i]}. It
// realizes the "−∞ gradient entries" of the decomposition-invariant pairwise
// method. The face must be non-empty; callers guarantee that by passing the
// zero set of a point of P.
type FaceMinimizer interface {
	MinimizeFace(ctx context.Context, dst, c []float64, zero []bool) (LinearResult, error)
}

// Augmenter is an augmentation oracle AUG(c, x) over a 0/1 polytope
// (Oracle 2 of the paper).
type Augmenter interface {
	// Dim is the ambient dimension n.
	Dim() int
	// Augment stores in dst a vertex y with c·y < c·x and returns true, or
	// returns false when x is optimal for c (dst is then a copy of x).
	// x must be a vertex of P.
	Augment(ctx context.Context, dst, c, x []float64) (bool, error)
}

// Diameter1 is an optional interface of polytopes that know an upper
// bound k on their ℓ1-diameter max ‖y1 − y2‖₁ (used by augmenting weak
// separation and by the online methods' default diameters). It is meant
// for 0/1 polytopes; a polytope that is one only for some of its
// parameters (a simplex of radius r, a flow polytope with capacities)
// implements ZeroOner too, and says there when it is not (IsZeroOne).
type Diameter1 interface {
	L1Diameter() int
}

// ZeroOner is an optional interface of polytopes that are 0/1 polytopes
// (every vertex a 0/1 vector) for some of their parameters only: ZeroOne
// reports whether this one is. See IsZeroOne.
type ZeroOner interface {
	ZeroOne() bool
}

// IsZeroOne reports whether the polytope of p (an LMO or Augmenter) is
// known to be a 0/1 polytope: by its ZeroOne method when it is a
// ZeroOner, and otherwise when it is a Diameter1 or an Augmenter, the
// interfaces documented for 0/1 polytopes. Anything else (a ball, a
// simplex without the method) is not taken for one. Augmenting weak
// separation needs a 0/1 polytope, and the diameter bounds √k in ℓ2 and 1
// in ℓ∞ that the online methods derive from the ℓ1-diameter k hold only
// for one.
func IsZeroOne(p any) bool {
	if z, ok := p.(ZeroOner); ok {
		return z.ZeroOne()
	}
	_, d := p.(Diameter1)
	_, a := p.(Augmenter)
	return d || a
}

// ErrEmptyPolytope is wrapped by the errors of LMOs whose polytope has no
// point at all (an infeasible model): no run over it can start.
var ErrEmptyPolytope = errors.New("the polytope is empty (the model is infeasible)")

// ErrUnbounded is wrapped by the errors of LMOs whose feasible set is
// unbounded in the direction asked: it is not a polytope.
var ErrUnbounded = errors.New("the feasible set is unbounded (not a polytope)")

// VertexHinter is an optional interface of LMOs that may know a vertex of
// P without solving anything: the last vertex they returned, or a vertex
// their formulation is built around (a tour of a TSP formulation, the
// empty cut of a cut polytope). Minimize starts from it instead of asking
// the LMO for a start vertex, so that a run whose oracle cannot answer
// before the time limit still has a point to return.
type VertexHinter interface {
	// KnownVertex stores a known vertex of P in dst and reports whether
	// one is known (dst is unspecified otherwise).
	KnownVertex(dst []float64) bool
}

// Vertexer is an optional interface of polytopes that can write some
// vertex without solving anything (a start point that does not depend on
// an objective, as online learning needs).
type Vertexer interface {
	// Vertex stores a vertex of P in dst.
	Vertex(dst []float64)
}

// MoveRecorder is an optional capability of LMOs that follow the iterate
// as a combination of the vertices they returned, so that a point can be
// rebuilt on request in a richer form than its coordinates (for
// lmo.NuclearBallOn, the full low-rank matrix behind the observed
// entries). Methods report their moves through Oracle.Moved; FrankWolfe,
// LazyCG and LazyTextbook do. A recorder must check on request that its
// record reproduces the point asked for, since a method that moves without
// reporting leaves the record behind.
type MoveRecorder interface {
	// RecordMove records that the iterate x became alpha·x + beta·v
	// (alpha = 0 starts a new record at beta·v), where v is normally a
	// vertex the LMO returned, directly or through a vertex store.
	RecordMove(alpha, beta float64, v []float64)
}

// Forker is an optional capability of expensive LMOs (MIP solvers) that can
// make a second, independent instance of themselves over the same
// polytope, for concurrent weak separation's StaleFork policy: the fork
// answers a fresh question while the original finishes a stale one. The
// fork must not share mutable state with the original (the two are called
// from different goroutines at the same time). The caller owns the fork:
// when it has a method Close() or Close() error, the caller calls it once
// it is done with the fork.
type Forker interface {
	Fork(ctx context.Context) (LMO, error)
}
