package lazycg

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
)

// WeakSeparator is the weak separation oracle LPsep(c, x, Φ, K) (Oracle 1 of
// the paper).
type WeakSeparator interface {
	// Dim is the ambient dimension.
	Dim() int
	// Separate either stores in dst a vertex y of P with c·(x−y) > Φ/K and
	// reports Positive, or certifies c·(x−z) ≤ Φ for every z in P
	// (a negative answer). phi > 0 and k ≥ 1.
	Separate(ctx context.Context, dst, c, x []float64, phi, k float64) (Separation, error)
}

// VertexStore is an optional capability of weak separation oracles that
// keep the vertices of P they have found (a vertex cache), so that a
// method can share vertices with them without knowing their type: it hands
// over vertices it found by other means (Remember) and looks for a good
// stored one before paying for an oracle call (Probe). CachedSeparator and
// AugmentingSeparator implement it. Methods reach it through the Oracle
// (Oracle.Remember, Oracle.Probe), which counts nothing for it.
type VertexStore interface {
	// Storing reports whether vertices are kept; false when the store is
	// switched off (no cache), and Remember and Probe then do nothing.
	Storing() bool
	// Remember stores a copy of the vertex v of P.
	Remember(v []float64)
	// Probe looks for a stored vertex y with c·y < target. When there is
	// one it copies y into dst, counts a use of y and returns (c·y, true).
	// It allocates nothing.
	Probe(dst, c []float64, target float64) (float64, bool)
}

// DefaultK is the weak separation accuracy K of every lazy method, the
// CLI and the online methods when none is given (K = 0): the value of the
// paper's experiments, which also satisfies the augmenting separator's
// K > 1. K = 1 asks the oracle for the full progress Φ.
const DefaultK = 1.1

// defaultK sets the weak separation accuracy *k to DefaultK when it is 0
// and checks that it is finite and ≥ 1 (the Init of every lazy method;
// name labels the error).
func defaultK(k *float64, name string) error {
	if err := checkK(*k, name); err != nil {
		return err
	}
	if *k == 0 {
		*k = DefaultK
	}
	return nil
}

// checkK reports a weak separation accuracy K that is neither 0 (the
// default) nor finite and ≥ 1.
func checkK(k float64, name string) error {
	if k != 0 && (!(k >= 1) || math.IsInf(k, 0)) {
		return fmt.Errorf("lazycg: %s: K must be ≥ 1 and finite, got %g", name, k)
	}
	return nil
}

// Separation describes the answer of a weak separation call.
type Separation struct {
	// Positive reports that dst holds a vertex y with c·(x−y) > Φ/K.
	Positive bool
	// Improvement is c·(x−y) for positive answers.
	Improvement float64
	// GapBound is a proven upper bound on the Wolfe gap max_z c·(x−z)
	// over P: at most Φ on negative answers, +Inf when nothing is known.
	GapBound float64
	// ExactGap reports that GapBound is the exact Wolfe gap (the LMO solved
	// to optimality), which Remark 4.3's Φ update may use.
	ExactGap bool
	// Inexact marks a negative answer that proves less than the Φ asked:
	// an early-stopping LMO call under SeparatorConfig.RelGap stopped at
	// the relative gap with its proven bound short of c·x − Φ, or an
	// inexact LMO stopped at its own precision (LinearResult.Reason
	// StopGap: eigen-solvers, closed forms with rounding-safe bounds)
	// without deciding the question. GapBound (> Φ) is then what the
	// answer proves.
	Inexact bool
	// Partial marks a positive answer whose vertex improves by less than
	// Φ/K: 0 < c·(x−y) ≤ Φ/K. It is the best vertex of an LMO call that
	// ran out of its budget (SeparatorConfig.CallBudget) with neither
	// answer decided; methods that accept it step toward y with their line
	// search and keep Φ.
	Partial bool
	// CacheHit reports that the answer came from the cache.
	CacheHit bool
	// LMOCalls is the number of LMO calls made.
	LMOCalls int
	// EarlyStop reports that an LMO call ended early.
	EarlyStop bool
	// LMOTime is the time spent in LMO calls.
	LMOTime time.Duration
}

// ErrInconclusive is returned (wrapped) by a weak separation oracle whose
// LMO stopped (time limit) before it could either find an improving vertex
// or certify the bound. (An LMO that stops at its own precision, Reason
// StopGap, gives an Inexact negative answer instead; see Separation.)
var ErrInconclusive = errors.New("lazycg: weak separation inconclusive")

// CachedSeparator realizes weak separation over an LMO (Algorithm 2 of the
// paper): it scans the cache first and calls the LMO only when no cached
// vertex is good enough; improving vertices found by the LMO are cached. When
// the LMO implements EarlyStopper the call ends as soon as its answer is
// decided.
type CachedSeparator struct {
	// LMO is the underlying linear minimization oracle.
	LMO LMO
	// Cache stores earlier vertices; nil disables caching.
	Cache *Cache
	// NoEarlyStop forces full LMO solves even for EarlyStoppers.
	NoEarlyStop bool
	// NoDive clears StopRule.Dive on the early-stopping LMO calls, which
	// otherwise dive for an improving vertex first (see
	// SeparatorConfig.NoDive).
	NoDive bool
	// AdaptiveDive makes each early-stopping LMO call dive when the last
	// LMO answer of this separator was positive (or there was none) and
	// search best-first after a negative one, whatever NoDive says (see
	// SeparatorConfig.AdaptiveDive).
	AdaptiveDive bool
	// CacheAll adds every vertex returned by the LMO to the cache, not only
	// improving ones.
	CacheAll bool
	// CallBudget, if positive, bounds an early-stopping LMO call (see
	// SeparatorConfig.CallBudget).
	CallBudget time.Duration
	// RelGap, if positive, allows Inexact negative answers (see
	// SeparatorConfig.RelGap).
	RelGap float64
	// MaxInexact, if positive, bounds the Inexact negative answers between
	// two proven ones (see SeparatorConfig.MaxInexact).
	MaxInexact int

	// st is the separator's state; everything above it is configuration,
	// which the per-factor separators of SeparateBlock inherit (derive).
	st separatorState
}

// separatorState is what a CachedSeparator learns from its calls.
type separatorState struct {
	partial  bool // the last LMO call gave a Partial answer
	unproven int  // Inexact negative answers since the last proven one
	// lastNegative: the last LMO answer was negative (AdaptiveDive).
	lastNegative bool

	blocks []*CachedSeparator // per-factor separators of a BlockLMO (SeparateBlock)

	// capped: the LMO calls of the next calls are bounded by left (set by
	// the Oracle under Settings.MaxLMOCalls; see callLimiter).
	capped bool
	left   int

	// The LMO of separateWith as an EarlyStopper (solve), and LMO as a
	// BlockLMO (SeparateBlock), kept between calls.
	es      resolved[EarlyStopper]
	blockLM resolved[BlockLMO]
}

// derive returns a separator over lmo with every setting of s (all
// exported fields but LMO and Cache, so a setting added to
// CachedSeparator is inherited without further code), no cache and fresh
// state.
func (s *CachedSeparator) derive(lmo LMO) *CachedSeparator {
	d := *s
	d.LMO, d.Cache, d.st = lmo, nil, separatorState{}
	return &d
}

// NewCachedSeparator returns a separator over lmo with a cache following
// policy.
func NewCachedSeparator(lmo LMO, policy CachePolicy) *CachedSeparator {
	return &CachedSeparator{LMO: lmo, Cache: newLMOCache(lmo, policy, 0)}
}

// newLMOCache returns a cache for the vertices of lmo, of dimension n (0:
// lmo's Dim; Minimize passes the dimension it checked, so that an LMO
// whose Dim changes after the check cannot give the cache another one),
// storing them in compact form when lmo is a VertexCompactor. For a nil
// lmo (or a typed nil, see CheckNotNil) it returns nil: the constructors
// do not panic, and CheckProblem refuses the separator with its own
// error.
func newLMOCache(lmo LMO, policy CachePolicy, n int) *Cache {
	if lmo == nil || CheckNotNil("the LMO", lmo) != nil {
		return nil
	}
	if n == 0 {
		n = lmo.Dim()
	}
	c := NewCache(n, policy)
	if vc, ok := lmo.(VertexCompactor); ok {
		c.SetCompactor(vc)
	}
	return c
}

// SeparatorConfig configures the default weak separation oracle, Algorithm
// 2 over the problem's LMO (see NewSeparator): the two lazification
// techniques, caching and early termination, and the cache's policy. The
// zero value caches every improving vertex in a first-fit cache of at
// most DefaultCacheBytes and stops early-stopping LMOs as soon as the
// answer is known.
type SeparatorConfig struct {
	// Cache is the cache's policy. NewSeparator bounds its MaxBytes by
	// DefaultCacheBytes when it is 0; a negative MaxBytes means unbounded.
	Cache CachePolicy
	// NoCache turns the cache off.
	NoCache bool
	// NoEarlyStop makes LMO calls solve to optimality.
	NoEarlyStop bool
	// NoDive makes the early-stopping LMO calls search for the bound that
	// would certify a negative answer (what package mip's CBC backend
	// does for calls without StopRule.Dive: best-first search) instead of
	// diving for an improving vertex first, the default. A hint that
	// changes only how fast calls end. Diving is the default because on
	// the paper's twelve MIP rows (120 s per run) it ended lower, with
	// better dual bounds, on the seven whose oracle time dominates; on
	// the five with a cheap oracle both ended within 4·10⁻⁶ relative (or
	// both at 0) (docs/DIVE.md).
	NoDive bool
	// AdaptiveDive chooses the search of each early-stopping LMO call from
	// the separator's last LMO answer instead: a dive for an improving
	// vertex after a positive answer (and for the first call), best-first
	// for the certifying bound after a negative one (Inexact or proven).
	// It bets that answers come in runs, as when an online player has
	// converged and many calls are proofs; on two such online cut 28 runs
	// it played 1.5–2.8× the rounds of diving, while on the seven
	// oracle-dominated offline MIP rows it lost to diving or tied
	// (docs/DIVE.md), so it is off by default. NoDive is then ignored. A
	// race's second instance (StaleRace, StaleRaceCopy) still searches
	// the other way.
	AdaptiveDive bool
	// Concurrent runs the LMO calls of weak separation in a goroutine of
	// their own while the method keeps stepping on cached vertices at the
	// relaxed threshold Φ/(2K), and then by hull steps (Idle; see
	// concurrent.go, hull.go and docs/CONCURRENT.md).
	// Minimize refuses it for methods and oracles where the argument does
	// not hold.
	Concurrent bool
	// Stale is concurrent weak separation's policy for a call whose
	// question went stale (the method ran out of cached steps at the
	// relaxed threshold while the call is in flight, and its iterate has
	// moved since the question was asked): wait for it (StaleWait, the
	// zero value), cancel it and ask again at the current iterate
	// (StaleRestart), or ask again on a second instance of the LMO while
	// it runs on (StaleFork; the LMO must be a Forker), and under
	// StaleRace also race a fresh call with a copy of its question on the
	// second instance, or under StaleAhead ask the question a negative
	// answer would lead to (Φ/2) on it. See docs/CONCURRENT.md for which
	// policy wins where.
	Stale StalePolicy
	// Idle is what a concurrent method does while calls are in flight and
	// no cached vertex improves its iterate by the relaxed threshold: hull
	// steps (IdleHull: pairwise steps over the hull of the iterate and the
	// cached vertices, for LazyCG and LPCG; see hull.go), hull steps with
	// quadratic corrections (IdleCorrected), wait for an answer
	// (IdleWait), or the zero value IdleAuto: corrected hull steps for
	// LazyCG while corrections cost little against the LMO's calls,
	// waiting for LPCG.
	Idle IdlePolicy
	// CallBudget, if positive, is the time an early-stopping LMO call of
	// weak separation may take before the separator settles for less: a
	// call that has found neither a vertex improving by Φ/K nor a proof
	// ends at the budget, and if its best vertex y still improves on the
	// iterate (c·(x−y) > 0) the answer is positive but Partial, so that the
	// method steps toward y (line search keeps f monotone) and asks again
	// from the new point, instead of waiting on one long MIP solve. A call
	// with no such vertex is asked again without a budget, and so is the
	// call after a Partial answer: between two decided answers there is at
	// most one partial step, so the paper's bounds on the decided answers
	// hold with at most twice the LMO calls. Partial answers prove nothing
	// and Φ stays; every dual bound still comes from proven LMO bounds. Minimize allows it for the methods of concurrent weak
	// separation (LazyCG, LazyAwayFW, LazyBPCG, LPCG with line search) and
	// not together with Concurrent.
	CallBudget time.Duration
	// RelGap, if positive, lets an early-stopping LMO call of weak
	// separation (MIP oracles; also the flow polytope's network simplex and
	// the nuclear-norm ball, which certify early) settle for a negative answer without the
	// proof of Φ, as the paper's experiments did with Gurobi's 10% gap
	// (section 7): besides the two answers of LPsep, the call also stops
	// once it proves c·z ≥ t − RelGap·|t| for every z, t = c·x − Φ/K
	// being the value an improving vertex must beat (where a solver at
	// relative gap RelGap with an incumbent at t would stop). Such an
	// answer is negative and Inexact; its GapBound, larger than Φ, is what
	// it proves and what the method reports as its dual bound. Φ is
	// updated as after a proven negative answer, but a run whose Φ
	// becomes negligible that way has stalled, not converged, and the
	// paper's rates do not follow (Φ may fall below the Wolfe gap; each
	// negative answer still halves Φ, so their number until Φ ≤ ε is as
	// before). 0 (the default): every negative answer proves
	// c·(x−z) ≤ Φ. LMOs that do not stop early (combinatorial oracles)
	// are exact anyway. See docs/ORACLE.md, "The lazy gap".
	RelGap float64
	// MaxInexact, if positive, bounds the run of Inexact negative answers
	// that RelGap allows: after MaxInexact of them with no proven negative
	// answer in between, the LMO calls are asked without RelGap until one
	// proves its negative answer (positive answers on the way do not
	// count). Φ then stays within a factor 2^MaxInexact of what the last
	// proof allows: a method that keeps f monotone and starts with
	// f − f* ≤ 2Φ0 (Φ0 from one LMO call) has f − f* ≤ 2^(MaxInexact+1)·Φ
	// after every iteration (2Φ with proofs only), so the paper's bounds
	// on the positive steps per value of Φ grow by the factor 2^MaxInexact
	// and the count of negative answers until Φ ≤ ε stays. 0 (the
	// default): no bound, every call may stop at RelGap, and Φ may fall
	// below the Wolfe gap by any factor (online, the player is then
	// confined to the hull of its cached vertices; docs/ONLINE.md).
	MaxInexact int
}

// Check reports settings that no separator can follow: a RelGap that is
// NaN, negative or not below 1, or a negative MaxInexact.
func (c SeparatorConfig) Check() error {
	if !(c.RelGap >= 0 && c.RelGap < 1) {
		return fmt.Errorf("lazycg: the weak separation's relative gap must be in [0, 1), got %g", c.RelGap)
	}
	if c.MaxInexact < 0 {
		return fmt.Errorf("lazycg: the bound on inexact answers must be ≥ 0, got %d", c.MaxInexact)
	}
	return c.Cache.Check()
}

// StalePolicy is what concurrent weak separation does with an LMO call
// whose question went stale (see SeparatorConfig.Stale).
type StalePolicy int

const (
	// StaleWait waits for the call in flight, whatever its age.
	StaleWait StalePolicy = iota
	// StaleRestart cancels the stale call and asks again at the current
	// iterate.
	StaleRestart
	// StaleFork lets the stale call run on and asks again at the current
	// iterate on a second instance of the LMO (Forker): at most two calls
	// are in flight, and the answers of both are used.
	StaleFork
	// StaleRace is StaleFork with two instances that search differently
	// — the first one's calls as SeparatorConfig.NoDive says (by default
	// diving for an improving vertex first, StopRule.Dive), the second
	// one's the other way (by default best-first for the bound, package
	// mip's CBC without StopRule.Dive) — and which race when
	// the second would idle: when the method has no step left and the one
	// call in flight is not stale, the same question is asked on the idle
	// instance too. The first answer is used; the other call is canceled
	// and only its work (and a vertex it found, for the cache) is kept.
	StaleRace
	// StaleRaceCopy is StaleRace with the searches split by role instead
	// of by instance: every question, on either instance, searches as
	// SeparatorConfig.NoDive says (by default diving), and only a race's
	// copy searches the other way (by default best-first).
	StaleRaceCopy
	// StaleAhead is StaleFork whose second instance asks ahead when it
	// would idle: when the method has no step left and the one call in
	// flight, for the question LPsep(c, x_a, Φ, K), is not stale, the
	// question a negative answer would lead to, LPsep(c, x_a, Φ/2, K), is
	// asked on the idle instance (for LPCG the pair question at Φ/2 with
	// the same away vertex). Both calls search as SeparatorConfig.NoDive
	// says. A negative answer of the call ahead proves the Wolfe gap at
	// x_a at most Φ/2, which answers the other call's question too: that
	// call is canceled and Φ becomes Φ/4 (two halvings, each proven). A
	// positive one whose vertex meets the other call's threshold Φ/K
	// answers it as well (canceled likewise); a vertex below that
	// threshold is a step at the relaxed threshold Φ/(2K), and the other
	// call runs on. When the other call answers first, negatively, Φ
	// becomes Φ/2 and the call ahead is the call for the question in
	// force; positively, the call ahead runs on as a stale call does
	// under StaleFork.
	StaleAhead
)

var staleNames = [...]string{StaleWait: "wait", StaleRestart: "restart", StaleFork: "fork", StaleRace: "race",
	StaleRaceCopy: "race-copy", StaleAhead: "ahead"}

// String returns the policy's name: wait, restart, fork, race, race-copy
// or ahead.
func (p StalePolicy) String() string { return policyName(staleNames[:], p, "StalePolicy") }

// TwoInstances reports whether the policy runs a second instance of the
// LMO (a Forker's fork): StaleFork, StaleRace, StaleRaceCopy and
// StaleAhead.
func (p StalePolicy) TwoInstances() bool { return p == StaleFork || p == StaleAhead || p.races() }

// races reports whether the policy races fresh questions on the idle
// instance: StaleRace and StaleRaceCopy.
func (p StalePolicy) races() bool { return p == StaleRace || p == StaleRaceCopy }

// ParseStalePolicy returns the policy named wait, restart, fork, race,
// race-copy or ahead.
func ParseStalePolicy(name string) (StalePolicy, error) {
	return parsePolicy[StalePolicy](staleNames[:], name, "stale-call policy")
}

// policyNames lists the names of a policy type for messages: "a, b or c".
func policyNames(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// policyName returns names[p], or Type(p) for values without a name.
func policyName[P ~int](names []string, p P, typ string) string {
	if p >= 0 && int(p) < len(names) {
		return names[p]
	}
	return fmt.Sprintf("%s(%d)", typ, int(p))
}

// parsePolicy returns the P named name; what names the kind in errors.
func parsePolicy[P ~int](names []string, name, what string) (P, error) {
	for p, n := range names {
		if n == name {
			return P(p), nil
		}
	}
	return 0, fmt.Errorf("lazycg: unknown %s %q (want %s)", what, name, policyNames(names))
}

// IdlePolicy is what concurrent weak separation does while calls are in
// flight and the cache has no vertex at the relaxed threshold (see
// SeparatorConfig.Idle).
type IdlePolicy int

const (
	// IdleAuto, the zero value, picks the policy by method: corrected hull
	// steps for LazyCG (plain hull steps when the objective has no exact
	// line search), waiting for LPCG, whose hull steps did as well or
	// worse on the measured MIP rows but for air04 (docs/CONCURRENT.md,
	// "Choosing the idle policy", has the runs this choice rests on). The
	// active-set methods wait under every policy. LazyCG's corrections
	// run only while the mean correction costs at most a quarter of the
	// recent mean LMO call; otherwise its hull steps are IdleHull's
	// (cheap LMOs such as the network simplex: docs/CONCURRENT.md,
	// "2026-12-01: flow polytopes").
	IdleAuto IdlePolicy = iota
	// IdleHull takes hull steps (hull.go) until the hull of the iterate
	// and the cached vertices is nearly optimal, then waits. Hull steps
	// also wait while every core (runtime.GOMAXPROCS) has a call in
	// flight: on one core, or under StaleFork on two.
	IdleHull
	// IdleWait waits for an answer.
	IdleWait
	// IdleCorrected takes hull steps with quadratic corrections: after a
	// hull step that brings a cached vertex into the hull's decomposition,
	// CorrectionQuadratic minimizes f over the convex hull of the
	// decomposition's points (see Correction). These steps come before
	// the relaxed steps (for LazyCG they contain them: a hull step from a
	// new decomposition steps toward the best cached vertex). It needs an
	// objective with an exact line search (LineMinimizer).
	IdleCorrected
)

var idleNames = [...]string{IdleAuto: "auto", IdleHull: "hull", IdleWait: "wait", IdleCorrected: "corrected"}

// String returns the policy's name: auto, hull, wait or corrected.
func (p IdlePolicy) String() string { return policyName(idleNames[:], p, "IdlePolicy") }

// ParseIdlePolicy returns the IdlePolicy named name (auto, hull, wait or
// corrected).
func ParseIdlePolicy(name string) (IdlePolicy, error) {
	return parsePolicy[IdlePolicy](idleNames[:], name, "idle policy")
}

// DefaultCacheBytes is the memory budget of the default separator's
// cache when SeparatorConfig sets none (1 GiB), for the library and the
// CLI alike.
const DefaultCacheBytes = 1 << 30

// NewSeparator returns the weak separation oracle configured by cfg over
// lmo: the separator the drivers use when a problem gives none. Its cache
// holds at most DefaultCacheBytes unless cfg.Cache.MaxBytes says
// otherwise (negative: unbounded).
func NewSeparator(lmo LMO, cfg SeparatorConfig) *CachedSeparator {
	return newSeparator(lmo, cfg, 0)
}

// newSeparator is NewSeparator with a cache of dimension n (0: lmo's Dim;
// see newLMOCache).
func newSeparator(lmo LMO, cfg SeparatorConfig, n int) *CachedSeparator {
	cs := &CachedSeparator{LMO: lmo, NoEarlyStop: cfg.NoEarlyStop, NoDive: cfg.NoDive, AdaptiveDive: cfg.AdaptiveDive, CallBudget: cfg.CallBudget, RelGap: cfg.RelGap, MaxInexact: cfg.MaxInexact}
	if !cfg.NoCache {
		policy := cfg.Cache
		switch {
		case policy.MaxBytes == 0:
			policy.MaxBytes = DefaultCacheBytes
		case policy.MaxBytes < 0:
			policy.MaxBytes = 0
		}
		cs.Cache = newLMOCache(lmo, policy, n)
	}
	return cs
}

// Dim returns the ambient dimension.
func (s *CachedSeparator) Dim() int { return s.LMO.Dim() }

// Storing implements VertexStore: vertices are kept when Cache is set.
func (s *CachedSeparator) Storing() bool { return s.Cache != nil }

// Remember implements VertexStore: v enters the cache.
func (s *CachedSeparator) Remember(v []float64) { cacheRemember(s.Cache, v) }

// Probe implements VertexStore: a first-fit (or the policy's) search of
// the cache.
func (s *CachedSeparator) Probe(dst, c []float64, target float64) (float64, bool) {
	return cacheProbe(s.Cache, dst, c, target)
}

// best copies the cached vertex minimizing c·y into dst (false: no cache,
// or an empty one).
func (s *CachedSeparator) best(dst, c []float64) (float64, bool) {
	if s.Cache == nil {
		return 0, false
	}
	return s.Cache.Best(dst, c)
}

// cacheRemember adds v to c unless c is nil (no cache).
func cacheRemember(c *Cache, v []float64) {
	if c != nil {
		c.Add(v)
	}
}

// cacheProbe searches c unless c is nil (no cache).
func cacheProbe(c *Cache, dst, cost []float64, target float64) (float64, bool) {
	if c == nil {
		return 0, false
	}
	return c.Search(dst, cost, target)
}

// limitCalls implements callLimiter.
func (s *CachedSeparator) limitCalls(n int) { s.st.capped, s.st.left = n >= 0, n }

// Separate implements WeakSeparator.
func (s *CachedSeparator) Separate(ctx context.Context, dst, c, x []float64, phi, k float64) (Separation, error) {
	return s.separateWith(ctx, s.LMO, dst, c, x, phi, k)
}

// separateWith is Separate with the LMO call made on lmo (an instance of
// s.LMO's polytope: s.LMO itself or a fork of it).
func (s *CachedSeparator) separateWith(ctx context.Context, lmo LMO, dst, c, x []float64, phi, k float64) (Separation, error) {
	if sep, ok, err := s.fromCache(dst, c, x, phi, k); err != nil || ok {
		return sep, err
	}
	if s.st.capped && s.st.left < 1 {
		return Separation{GapBound: math.Inf(1)}, ErrLMOCallLimit
	}
	es, _ := s.st.es.get(lmo)
	sep, found, err := s.solve(ctx, lmo, es, dst, c, x, phi, k, s.relGap(), s.dive(false))
	s.keep(dst, sep, found)
	s.note(sep, err)
	return sep, err
}

// relGap is the relative gap of the next LMO call: RelGap, or 0 once
// MaxInexact Inexact answers have come since the last proven negative
// answer.
func (s *CachedSeparator) relGap() float64 {
	if s.MaxInexact > 0 && s.st.unproven >= s.MaxInexact {
		return 0
	}
	return s.RelGap
}

// dive reports whether the next early-stopping LMO call dives for an
// improving vertex (StopRule.Dive): as NoDive says, or with AdaptiveDive
// unless the last LMO answer was negative; other inverts it (the second
// instance of a race). It reads the separator's state, so it is called on
// the caller's goroutine, before a call starts.
func (s *CachedSeparator) dive(other bool) bool {
	d := !s.NoDive
	if s.AdaptiveDive {
		d = !s.st.lastNegative
	}
	return d != other
}

// note counts the answer sep of an LMO call for MaxInexact (an Inexact
// negative answer adds to the run, a proven one ends it) and for
// AdaptiveDive (whether it was negative; an error leaves it as it was).
func (s *CachedSeparator) note(sep Separation, err error) {
	if err == nil {
		s.st.lastNegative = !sep.Positive
	}
	switch {
	case err != nil || sep.Positive:
	case sep.Inexact:
		s.st.unproven++
	default:
		s.st.unproven = 0
	}
}

// fromCache is the first half of Separate: it checks the arguments and
// looks for a cached vertex y with c·(x−y) > Φ/K (a positive answer,
// ok). It touches the cache, never the LMO.
func (s *CachedSeparator) fromCache(dst, c, x []float64, phi, k float64) (Separation, bool, error) {
	if !(phi > 0) || !(k >= 1) || math.IsInf(phi, 0) {
		return Separation{}, false, fmt.Errorf("lazycg: separate: need Φ > 0 finite and K ≥ 1, got Φ=%g K=%g", phi, k)
	}
	if s.Cache == nil {
		return Separation{}, false, nil
	}
	s.Cache.Tick()
	cx := dot(c, x)
	if v, ok := s.Cache.Search(dst, c, cx-phi/k); ok {
		return Separation{Positive: true, Improvement: cx - v, GapBound: math.Inf(1), CacheHit: true}, true, nil
	}
	return Separation{}, false, nil
}

// solve is the second half of Separate: one call of lmo (s.LMO or a fork
// of it), early terminated when it is an EarlyStopper (es: lmo as one,
// nil when it is not; callers keep the assertion), decides the answer.
// It touches lmo and dst, never the cache, so it may run in a goroutine of its own while
// the caller scans the cache (see concurrent.go); found reports that dst
// holds a vertex of P, to be kept by keep on the caller's goroutine.
func (s *CachedSeparator) solve(ctx context.Context, lmo LMO, es EarlyStopper, dst, c, x []float64, phi, k, relGap float64, dive bool) (sep Separation, found bool, err error) {
	cx := dot(c, x)
	improve := cx - phi/k
	// dive: StopRule.Dive, from s.dive on the caller's goroutine.
	rule := StopRule{Improve: improve, Certify: certifyBelow(cx, phi, improve, relGap), Dive: dive}
	var res LinearResult
	start := time.Now()
	canStop := es != nil
	sep = Separation{LMOCalls: 1, GapBound: math.Inf(1)}
	budget := false
	if canStop && !s.NoEarlyStop && s.CallBudget > 0 {
		// Only with a budget, which excludes concurrent calls: solve
		// touches no state of s otherwise.
		budget, s.st.partial = !s.st.partial, false
	}
	switch {
	case budget:
		res, err = s.budgeted(ctx, es, dst, c, rule, cx)
		// A call that failed decided nothing, whatever its result holds
		// (an LMO that errs at the deadline returns a zero result, whose
		// Bound 0 is no proof).
		undecided := err != nil || !(res.Found && res.Value < improve) && !(res.Bound >= rule.Certify)
		if ctx.Err() == nil && undecided && (err == nil && res.Reason == StopTimeLimit || errors.Is(err, context.DeadlineExceeded)) {
			if err == nil && res.Found && res.Value < cx {
				// The budget ran out with a vertex that improves on x.
				s.st.partial = true
				sep.Positive, sep.Partial, sep.Improvement, sep.EarlyStop = true, true, cx-res.Value, true
				if !math.IsInf(res.Bound, -1) && !math.IsNaN(res.Bound) {
					sep.GapBound = cx - res.Bound
				}
				sep.LMOTime = time.Since(start)
				return sep, true, nil
			}
			// Nothing to step to: ask again without a budget, if the
			// run's limit leaves a call for it (the bound is read here
			// only: a budget excludes concurrent calls).
			if s.st.capped && s.st.left < 2 {
				sep.LMOTime = time.Since(start)
				return sep, false, ErrLMOCallLimit
			}
			sep.LMOCalls++
			res, err = es.MinimizeUntil(ctx, dst, c, rule)
		}
	case canStop && !s.NoEarlyStop:
		res, err = es.MinimizeUntil(ctx, dst, c, rule)
	default:
		res, err = lmo.Minimize(ctx, dst, c)
	}
	sep.LMOTime = time.Since(start)
	if err != nil {
		return sep, false, unanswered(res, err)
	}
	check := checkAnswer
	if !canStop || s.NoEarlyStop {
		check = checkMinimize
	}
	if err := check(lmo, dst, res); err != nil {
		return sep, false, err
	}
	sep.EarlyStop = res.Reason == StopImproving || res.Reason == StopCertified
	if !math.IsInf(res.Bound, -1) && !math.IsNaN(res.Bound) {
		sep.GapBound = cx - res.Bound
		sep.ExactGap = res.Optimal()
	}
	if res.Found && res.Value < improve {
		sep.Positive = true
		sep.Improvement = cx - res.Value
		return sep, true, nil
	}
	if res.Bound >= cx-phi {
		if sep.GapBound > phi {
			sep.GapBound = phi
		}
		return sep, res.Found, nil
	}
	if res.Bound >= rule.Certify {
		// Within RelGap of the improvement asked for: a negative answer
		// that proves the Wolfe gap ≤ GapBound only.
		sep.Inexact = true
		return sep, res.Found, nil
	}
	if res.Reason == StopGap && !math.IsInf(res.Bound, -1) && !math.IsNaN(res.Bound) {
		// The LMO reached its own precision (an eigen-solver's residual
		// tolerance, the rounding of a closed form, a MIP solver's
		// relative gap) with neither answer decided: Φ is finer than it
		// resolves. Its bound still proves the Wolfe gap ≤ GapBound > Φ,
		// a negative answer that is Inexact; Φ then shrinks as after any
		// negative answer, and the run ends Stalled, not Converged, when
		// Φ becomes negligible (State.settle).
		sep.Inexact = true
		return sep, res.Found, nil
	}
	return sep, res.Found, unanswered(res, fmt.Errorf("%w: LMO stopped (%v) with value %g and bound %g, need value < %g or bound ≥ %g",
		ErrInconclusive, res.Reason, res.Value, res.Bound, improve, cx-phi))
}

// certifyBelow is the Certify of the stop rule of a call at c·x = cx
// with Φ = phi and Improve = improve: c·x − Φ, or with a relative gap
// the lower improve − relGap·|improve| when that is lower
// (SeparatorConfig.RelGap).
func certifyBelow(cx, phi, improve, relGap float64) float64 {
	t := cx - phi
	if relGap > 0 {
		t = math.Min(t, improve-relGap*math.Abs(improve))
	}
	return t
}

// budgeted is solve's LMO call under CallBudget: rule, keeping every
// incumbent below c·x, within the budget. solve decides the answer; a call
// the budget cut short gives a Partial one when its vertex improves on x.
func (s *CachedSeparator) budgeted(ctx context.Context, es EarlyStopper, dst, c []float64, rule StopRule, cx float64) (LinearResult, error) {
	bctx, cancel := context.WithTimeout(ctx, s.CallBudget)
	defer cancel()
	rule.KeepBelow, rule.Keep = cx, true
	return es.MinimizeUntil(bctx, dst, c, rule)
}

// keep caches the vertex dst that solve found: improving vertices always,
// the others when CacheAll is set.
func (s *CachedSeparator) keep(dst []float64, sep Separation, found bool) {
	if sep.Positive || (found && s.CacheAll) {
		s.Remember(dst)
	}
}
