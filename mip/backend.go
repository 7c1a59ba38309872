package mip

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
)

// Backend is a MIP solver engine that Solvers are built on. Backends
// register themselves with RegisterBackend when their package is imported;
// github.com/lazycg/lazycg/mip/cbc registers CBC as "cbc".
type Backend interface {
	// Load copies m into a new engine. m has been validated (consistent
	// arrays, no NaN, ordered bounds, 32-bit sizes) and may be modified
	// after Load returns. Load should give up with ctx.Err() when ctx is
	// done.
	Load(ctx context.Context, m *Model) (Engine, error)
}

// Engine is one model loaded into a MIP solver. Engines are used by one
// goroutine at a time.
type Engine interface {
	// Solve minimizes p.Obj over the model's feasible points, stopping as
	// p asks, and fills r. It returns an error only for solver failures;
	// cancellation (ctx done) is the outcome OutcomeCanceled.
	Solve(ctx context.Context, p *SolveParams, r *SolveResult) error
	// SetColBounds changes the bounds of column j for later solves
	// (MinimizeFace fixes the columns of a face to 0 with it, lower
	// bounds below 0 included, and restores them afterwards).
	SetColBounds(j int, lo, up float64)
	// Close frees the engine; it is called once.
	Close()
}

// SolveParams describes one engine solve. Infinite thresholds switch a
// rule off, except Improve = +Inf, which means "stop at the first feasible
// point".
type SolveParams struct {
	// Obj is the objective to minimize, one finite entry per column.
	Obj []float64
	// Improve: stop as soon as an incumbent with value < Improve is known
	// (−Inf: never; +Inf: at the first incumbent).
	Improve float64
	// Certify: stop as soon as the best bound is ≥ Certify (+Inf: never).
	Certify float64
	// Cutoff: only solutions with value < Cutoff are wanted (+Inf: all).
	// A search that finds none reports OutcomeInfeasible.
	Cutoff float64
	// RelGap: stop when Value − Bound ≤ RelGap·max(|Value|, |Bound|)
	// (0: solve exactly).
	RelGap float64
	// TimeLimit bounds the wall-clock time of the solve, including its
	// first LP (0: none).
	TimeLimit time.Duration
	// Start is a feasible point to use as the first incumbent, or nil.
	Start []float64
	// Threads is the number of solver threads (≤ 1: one).
	Threads int
	// Preprocess enables the engine's integer preprocessing for this
	// solve (mip.Solver decides it from Options.Preprocess).
	Preprocess bool
	// Search selects the engine's search (SearchAuto: the engine decides).
	Search Search
	// FirstLP says how the solve's first LP starts (FirstLPAuto: the
	// engine decides from its timings).
	FirstLP FirstLP
	// Pool asks the engine to separate the model's cut pool (Model.Cuts)
	// in this solve (mip.Solver decides it from Options.Pool).
	Pool bool
	// Dive asks the engine to search for an incumbent below Improve
	// first (depth-first) even when Certify is finite
	// (lazycg.StopRule.Dive).
	Dive bool
}

// Search selects how much a backend invests in one call.
type Search int

const (
	// SearchAuto lets the backend choose (package cbc: see its doc).
	SearchAuto Search = iota
	// SearchStandard is the solver's standard strategy (CBC: what "cbc
	// -solve" runs: its full cut loop, in the tree as well, and its
	// heuristics).
	SearchStandard
	// SearchLight is a lighter branch-and-cut: cuts at the root only, a
	// few rounds, quick heuristics. It is cheaper per call on small or
	// easy models.
	SearchLight
)

var searchNames = [...]string{"auto", "standard", "light"}

// ParseSearch returns the Search named name ("auto", "standard" or
// "light").
func ParseSearch(name string) (Search, error) {
	return parseSetting[Search]("search", searchNames[:], name)
}

// FirstLP says how a solve's first LP (the root relaxation) starts: from
// the optimal basis of the previous solve's (warm) or from scratch (cold).
type FirstLP int

const (
	// FirstLPAuto lets the backend choose per call from the times its warm
	// and cold first LPs took (package cbc: warm until warm re-solves cost
	// several cold solves; see docs/ORACLE.md, "Cold or warm first
	// LPs"). Where the two costs are close, two runs can differ.
	FirstLPAuto FirstLP = iota
	// FirstLPWarm always re-solves from the last basis: the behaviour
	// before FirstLPAuto, independent of timings.
	FirstLPWarm
	// FirstLPCold always solves from scratch.
	FirstLPCold
)

var firstLPNames = [...]string{"auto", "warm", "cold"}

// String returns the setting's name.
func (f FirstLP) String() string { return settingName("FirstLP", firstLPNames[:], f) }

// ParseFirstLP returns the FirstLP named name ("auto", "warm" or "cold").
func ParseFirstLP(name string) (FirstLP, error) {
	return parseSetting[FirstLP]("first LP", firstLPNames[:], name)
}

// Pool says which calls of a Solver separate the model's cut pool
// (Model.Cuts; see Options.Pool).
type Pool int

const (
	// PoolAuto separates the pool on calls whose costs have both signs,
	// the smaller part (positive or negative, summed over the columns)
	// at least PoolBalance of the total: on costs of one sign the
	// inequalities a pool holds (the cut polytope's triangles) leave the
	// bound weak while every node's LP grows (docs/ORACLE.md, "Triangle
	// inequalities as a cut pool").
	PoolAuto Pool = iota
	// PoolOn separates the pool on every call.
	PoolOn
	// PoolOff never separates it.
	PoolOff
)

// PoolBalance is the least share of the smaller sign in a call's costs for
// which PoolAuto separates the cut pool.
const PoolBalance = 0.1

var poolNames = [...]string{"auto", "on", "off"}

// String returns the setting's name.
func (p Pool) String() string { return settingName("Pool", poolNames[:], p) }

// ParsePool returns the Pool named name ("auto", "on" or "off").
func ParsePool(name string) (Pool, error) {
	return parseSetting[Pool]("pool", poolNames[:], name)
}

// Preprocess says which calls of a Solver use the backend's integer
// preprocessing (see Options.Preprocess).
type Preprocess int

const (
	// PreprocessAuto preprocesses a Solver's first call only.
	PreprocessAuto Preprocess = iota
	// PreprocessOff never preprocesses.
	PreprocessOff
	// PreprocessOn preprocesses every call (and so never warm-starts
	// one with the last vertex or basis).
	PreprocessOn
)

var preprocessNames = [...]string{"auto", "off", "on"}

// String returns the setting's name.
func (p Preprocess) String() string { return settingName("Preprocess", preprocessNames[:], p) }

// ParsePreprocess returns the Preprocess named name ("auto", "off" or
// "on").
func ParsePreprocess(name string) (Preprocess, error) {
	return parseSetting[Preprocess]("preprocess", preprocessNames[:], name)
}

// settingName returns names[v], or type(v) for a value out of range.
func settingName[T ~int](typ string, names []string, v T) string {
	if v < 0 || int(v) >= len(names) {
		return fmt.Sprintf("%s(%d)", typ, int(v))
	}
	return names[v]
}

// parseSetting returns the value named name among names, or an error that
// lists them.
func parseSetting[T ~int](what string, names []string, name string) (T, error) {
	for i, n := range names {
		if n == name {
			return T(i), nil
		}
	}
	return 0, fmt.Errorf("mip: unknown %s %q (%s)", what, name, strings.Join(names[:len(names)-1], ", ")+" or "+names[len(names)-1])
}

// String returns the search's name.
func (s Search) String() string { return settingName("Search", searchNames[:], s) }

// Outcome says how an engine solve ended.
type Outcome int

const (
	// OutcomeOptimal: the search is complete; X is optimal if Found.
	OutcomeOptimal Outcome = iota
	// OutcomeGap: RelGap was reached.
	OutcomeGap
	// OutcomeImproving: an incumbent below Improve was found.
	OutcomeImproving
	// OutcomeCertified: the bound reached Certify.
	OutcomeCertified
	// OutcomeTimeLimit: TimeLimit was reached.
	OutcomeTimeLimit
	// OutcomeCanceled: ctx was done.
	OutcomeCanceled
	// OutcomeInfeasible: no feasible point below Cutoff exists.
	OutcomeInfeasible
	// OutcomeUnbounded: the LP relaxation is unbounded.
	OutcomeUnbounded
)

var outcomeNames = [...]string{"optimal", "gap", "improving", "certified", "time-limit", "canceled", "infeasible", "unbounded"}

// String returns the outcome's name.
func (o Outcome) String() string {
	if o < 0 || int(o) >= len(outcomeNames) {
		return fmt.Sprintf("Outcome(%d)", int(o))
	}
	return outcomeNames[o]
}

// SolveResult is the answer of an engine solve.
type SolveResult struct {
	// X is set by the caller to a slice of one value per column; Solve
	// stores the best solution found in it.
	X []float64
	// Found reports whether X holds a feasible point.
	Found bool
	// Value is the objective of X when Found, +Inf otherwise.
	Value float64
	// Bound is a proven lower bound on the objective over the feasible
	// points (below Cutoff), −Inf when none is known.
	Bound float64
	// Nodes is the number of branch-and-bound nodes.
	Nodes int64
	// Outcome says why the solve ended.
	Outcome Outcome
	// FirstLP is how the first LP was solved (FirstLPWarm or FirstLPCold;
	// FirstLPAuto when the engine does not say), and WarmCut reports a warm
	// re-solve that was cut short at its budget and solved again cold
	// (FirstLP is then FirstLPCold).
	FirstLP FirstLP
	WarmCut bool
}

// ErrNoBackend is returned by NewSolver when no backend is registered.
var ErrNoBackend = errors.New("mip: no MIP solver backend: this program was built without CBC " +
	"(import _ \"github.com/lazycg/lazycg/mip/cbc\"; needs cgo and Debian's coinor-libcbc-dev)")

var backends struct {
	mu    sync.Mutex
	byKey map[string]Backend
	first string
}

// RegisterBackend makes a backend available under name. The first backend
// registered is the default of NewSolver. It panics if name is empty,
// b is nil or name is already registered.
func RegisterBackend(name string, b Backend) {
	backends.mu.Lock()
	defer backends.mu.Unlock()
	if name == "" || b == nil {
		panic("mip: RegisterBackend: empty name or nil backend")
	}
	if _, dup := backends.byKey[name]; dup {
		panic("mip: RegisterBackend: backend " + name + " registered twice")
	}
	if backends.byKey == nil {
		backends.byKey = map[string]Backend{}
		backends.first = name
	}
	backends.byKey[name] = b
}

// LookupBackend returns the backend registered under name.
func LookupBackend(name string) (Backend, bool) {
	backends.mu.Lock()
	defer backends.mu.Unlock()
	b, ok := backends.byKey[name]
	return b, ok
}

// Backends returns the names of the registered backends, sorted.
func Backends() []string {
	backends.mu.Lock()
	defer backends.mu.Unlock()
	names := make([]string, 0, len(backends.byKey))
	for k := range backends.byKey {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// defaultBackend returns the first registered backend.
func defaultBackend() (Backend, error) {
	backends.mu.Lock()
	defer backends.mu.Unlock()
	if backends.byKey == nil {
		return nil, ErrNoBackend
	}
	return backends.byKey[backends.first], nil
}
