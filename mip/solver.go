package mip

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lazycg/lazycg"
)

// Options configures a Solver.
type Options struct {
	// RelGap is the relative gap at which a call stops: Value − Bound ≤
	// RelGap·max(|Value|, |Bound|) (0 = solve exactly; the paper's
	// baselines use 0.1). A call stopped by it reports StopGap. It must be
	// in [0, 1).
	RelGap float64
	// TimeLimit bounds the wall-clock time of each call, including its
	// first LP (0 = none). A call that reaches it reports StopTimeLimit
	// and returns its incumbent, or an error wrapping ErrTimeLimit when it
	// has none. The deadline of a call's context acts the same way when
	// the call has an incumbent by then (StopTimeLimit, no error: the run
	// that set the deadline gets the solver's best point and proven
	// bound); without one, and on cancellation, the call returns the
	// context's error.
	TimeLimit time.Duration
	// Threads is the number of solver threads (0 or 1 = one), at most
	// MaxThreads. Threaded calls run CBC's deterministic parallel search:
	// its default opportunistic mode once reported 1128 as the optimum of
	// lseu (1120) in a loaded CI run (2026-12-02), a race between the
	// threads that hand nodes and incumbents around (see the shim's
	// deterministicThreads). A threaded call repeats its answer and its
	// node count; it is faster than one thread only where there are idle
	// cores and large trees.
	Threads int
	// Vars lists the model columns that are the coordinates of the polytope,
	// in order (nil = all columns). Other columns (e.g. flow variables of an
	// extended formulation) get objective 0 and are projected away.
	Vars []int
	// RequireBinary makes NewSolver fail unless every column of Vars is an
	// integer column with bounds within [0, 1].
	RequireBinary bool
	// Preprocess says which calls use the backend's integer preprocessing
	// (CBC's CglPreProcess, as "cbc -preprocess sos", in its standard
	// search). Preprocessing cannot use a warm start (neither the last
	// vertex as incumbent nor the last LP basis), so it pays on a
	// solver's first call and rarely after: PreprocessAuto, the zero
	// value, preprocesses the first call only (measured in
	// docs/ORACLE.md: the first feasible point of air04 in 0.6 of the
	// time). CBC 2.10.8's preprocessing is not sound: on a 9-column 0/1
	// model it returned −6 as the optimum where −7 exists (standalone
	// "cbc -preprocess on -solve" too; 43 of 200 random costs wrong), so
	// only calls that ask for any feasible point (Improve = +Inf, a run's
	// start vertex) are preprocessed, under both PreprocessAuto and
	// PreprocessOn; their point is checked against the model, their
	// bound dropped (−Inf, canceled calls included), and an answer
	// without a point ("infeasible", or "certified" for a finite
	// Certify) is asked again without preprocessing.
	Preprocess Preprocess
	// Search selects the backend's search per call (SearchAuto: the
	// backend decides; see docs/ORACLE.md).
	Search Search
	// FirstLP says how each call's first LP starts (FirstLPAuto, the zero
	// value: the backend decides from its timings; FirstLPWarm makes the
	// calls independent of timings).
	FirstLP FirstLP
	// Pool says which calls separate the model's cut pool (Model.Cuts;
	// PoolAuto, the zero value: calls whose costs have both signs, see
	// PoolAuto). Models without a pool ignore it.
	Pool Pool
	// Backend is the MIP solver to use (nil = the first registered one).
	Backend Backend
	// CallLog, if not nil, receives a start line when the solver is
	// created and then one JSON line per call of Minimize, MinimizeUntil,
	// MinimizeFace and RelaxationBound: the question and its answer (see
	// Call and ReadCallLog). Forks and relaxations of the solver do not
	// log. A failed write is returned as the error of the call.
	CallLog io.Writer
}

// Solver minimizes linear objectives over the integer hull of a Model with
// a MIP solver backend. Its vertices are the projections onto Options.Vars
// of the feasible solutions of the model.
//
// Solver implements lazycg.LMO, lazycg.EarlyStopper, lazycg.FaceMinimizer,
// lazycg.Augmenter and lazycg.StandardForm, and offers KnownVertex and
// Relaxation (a Solver over its LP relaxation). Each
// call hands the backend a question (exact, within a gap, or a weak
// separation rule) and the backend stops as soon as it is answered. The
// last vertex returned is remembered and handed to the backend as the
// first incumbent of the next call (warm start). Every point a backend
// returns is checked against the model's bounds, integrality and rows
// (tolerance 1e-5) before it is accepted, and integer coordinates are
// rounded.
//
// A Solver holds solver memory: Close must be called when it is no longer
// needed. A Solver is not safe for concurrent use: a call of Minimize,
// MinimizeUntil, MinimizeFace, RelaxationBound, Augment, Fork or Relaxation
// made while another one runs on the same Solver returns an error without
// touching the backend (Fork gives a Solver of its own to each goroutine).
type Solver struct {
	eng     Engine
	model   *Model // private copy: checks and standard-form detection
	opts    Options
	vars    []int
	obj     []float64 // per column: objective of the current call
	x       []float64 // per column: the backend's solution
	last    []float64 // per column: last vertex returned
	lastOK  bool
	buf     []float64  // 2·rows: Model.check's buffer
	changed []int      // columns that MinimizeFace fixed to 0
	face    *faceModel // MinimizeFace's last reduced model (face.go)
	params  SolveParams
	res     SolveResult
	solves  int    // backend solves so far
	std     int8   // StandardForm: 0 not yet decided, 1 yes, −1 no
	lps     [3]int // first LPs solved warm, cold, and warm cut short (FirstLPs)
	pooled  int    // solves that separated the cut pool (Pooled)
	dive    bool   // the current MinimizeUntil's StopRule.Dive

	// busy is held by the call in progress (enter, exit): a Solver is
	// not safe for concurrent use, and a second call that overlaps one
	// gets errBusy instead of corrupting the backend's state. closeReq
	// is a Close that came during a call: the call closes on its exit.
	busy     sync.Mutex
	closeReq atomic.Bool
}

// errBusy is the error of a call made while another call on the same
// Solver runs.
var errBusy = errors.New("mip: concurrent calls on one Solver: a Solver is not safe for concurrent use (Fork makes a second one)")

// enter marks the start of a call; it reports false when another call is
// in progress.
func (s *Solver) enter() bool { return s.busy.TryLock() }

// exit marks the end of a call, closing the solver if Close was called in
// the meantime.
func (s *Solver) exit() {
	s.busy.Unlock()
	if s.closeReq.Load() && s.busy.TryLock() {
		s.closeLocked()
		s.busy.Unlock()
	}
}

// MaxThreads is the largest Options.Threads. CBC starts every thread of a
// call anew, so that each thread costs time whether or not there are cores
// to run it (2.4 ms per thread and call measured: 256 threads make a 30 ms
// solve of p0033 take 0.6 s), and a count such as 100000 left a single
// call running for many minutes while it started threads.
//
// CBC's command line reads a thread count of 100 or more as a thread mode
// plus a count, so counts stay below 100.
const MaxThreads = 99

// checkTol is the tolerance of the check of returned points.
const checkTol = 1e-5

// NewSolver is NewSolverContext with context.Background().
func NewSolver(m *Model, opts Options) (*Solver, error) {
	return NewSolverContext(context.Background(), m, opts)
}

// NewSolverContext loads m into a MIP solver backend (opts.Backend, or the
// first registered backend). The model is copied, so m may be changed or
// discarded afterwards. It checks the model (array lengths, NaN, bounds,
// m.Known) and opts, but not feasibility: an infeasible model is reported
// by the first call that solves. Loading gives up when ctx is done.
func NewSolverContext(ctx context.Context, m *Model, opts Options) (*Solver, error) {
	b := opts.Backend
	if b == nil {
		var err error
		if b, err = defaultBackend(); err != nil {
			return nil, err
		}
	}
	if err := checkModel(m); err != nil {
		return nil, err
	}
	if !(opts.RelGap >= 0 && opts.RelGap < 1) {
		// A gap of 1 or more stops every call at its first incumbent,
		// whatever its value: not a gap.
		return nil, fmt.Errorf("mip: Options.RelGap must be in [0, 1), got %g", opts.RelGap)
	}
	if opts.TimeLimit < 0 {
		return nil, fmt.Errorf("mip: negative TimeLimit %v", opts.TimeLimit)
	}
	if opts.Threads < 0 || opts.Threads > MaxThreads {
		return nil, fmt.Errorf("mip: Options.Threads must be in [0, %d], got %d", MaxThreads, opts.Threads)
	}
	if opts.Search < SearchAuto || opts.Search > SearchLight {
		return nil, fmt.Errorf("mip: unknown Search %d", opts.Search)
	}
	if opts.FirstLP < FirstLPAuto || opts.FirstLP > FirstLPCold {
		return nil, fmt.Errorf("mip: unknown FirstLP %d", opts.FirstLP)
	}
	if opts.Pool < PoolAuto || opts.Pool > PoolOff {
		return nil, fmt.Errorf("mip: unknown Pool %d", opts.Pool)
	}
	if opts.Preprocess < PreprocessAuto || opts.Preprocess > PreprocessOn {
		return nil, fmt.Errorf("mip: unknown Preprocess %d", opts.Preprocess)
	}
	nc := m.NumCols()
	if nc == 0 {
		return nil, errors.New("mip: model has no columns")
	}
	vars := opts.Vars
	if vars == nil {
		vars = make([]int, nc)
		for j := range vars {
			vars[j] = j
		}
	} else {
		if len(vars) == 0 {
			return nil, errors.New("mip: Options.Vars is empty (nil selects all columns)")
		}
		seen := make([]bool, nc)
		for i, j := range vars {
			if j < 0 || j >= nc {
				return nil, fmt.Errorf("mip: Options.Vars[%d] = %d is not a column (model has %d)", i, j, nc)
			}
			if seen[j] {
				return nil, fmt.Errorf("mip: Options.Vars lists column %d twice", j)
			}
			seen[j] = true
		}
		vars = append([]int(nil), vars...)
	}
	if opts.RequireBinary {
		for _, j := range vars {
			if !m.Integer[j] || m.ColLo[j] < 0 || m.ColUp[j] > 1 {
				return nil, fmt.Errorf("mip: column %s is not binary (integer %v, bounds [%g, %g]) but binary variables are required",
					colName(m, j), m.Integer[j], m.ColLo[j], m.ColUp[j])
			}
		}
	}
	opts.Vars = vars
	opts.Backend = b
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("mip: loading %s: %w", m.Name, err)
	}
	if m.Cuts != nil {
		if err := m.Cuts.validate(nc); err != nil {
			return nil, fmt.Errorf("mip: model %s: %v", m.Name, err)
		}
	}
	cp := copyModel(m)
	// Integer columns get integral bounds: the backend need not round
	// them, and a column whose bounds contain no integer makes the model
	// infeasible before any solve.
	for j, isInt := range cp.Integer {
		if !isInt {
			continue
		}
		lo, up := math.Ceil(cp.ColLo[j]-1e-9), math.Floor(cp.ColUp[j]+1e-9)
		if lo > up {
			return nil, fmt.Errorf("mip: integer column %s has bounds [%g, %g] that contain no integer: %w",
				colName(m, j), cp.ColLo[j], cp.ColUp[j], lazycg.ErrEmptyPolytope)
		}
		cp.ColLo[j], cp.ColUp[j] = lo, up
	}
	buf := make([]float64, 2*cp.NumRows())
	if cp.Known != nil {
		if err := cp.check(cp.Known, 1e-9, buf, true); err != nil {
			return nil, fmt.Errorf("mip: the known point of model %s is infeasible: %v", m.Name, err)
		}
		if cp.Cuts != nil {
			if err := cp.Cuts.check(cp.Known, 1e-9); err != nil {
				return nil, fmt.Errorf("mip: the known point of model %s violates the cut pool, which must hold for every feasible point: %v", m.Name, err)
			}
		}
	}
	eng, err := b.Load(ctx, cp)
	if err != nil {
		return nil, err
	}
	s := &Solver{
		eng:   eng,
		model: cp,
		opts:  opts,
		vars:  vars,
		obj:   make([]float64, nc),
		x:     make([]float64, nc),
		last:  make([]float64, nc),
		buf:   buf,
	}
	s.res.X = s.x
	if opts.CallLog != nil {
		if err := s.logStart(); err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

// withPoolRows returns a copy of m (sharing no mutable memory with it) in
// which the inequalities of m's cut pool are rows, named "pool_I", and
// which has no pool.
func withPoolRows(m *Model) *Model {
	c := copyModel(m)
	p := c.Cuts
	c.Cuts = nil
	if p == nil || p.NumRows() == 0 {
		return c
	}
	nr, nc := m.NumRows(), m.NumCols()
	count := make([]int, nc+1)
	for _, j := range p.Index {
		count[j+1]++
	}
	start := make([]int, nc+1)
	for j := range nc {
		start[j+1] = start[j] + (m.Start[j+1] - m.Start[j]) + count[j+1]
	}
	index := make([]int, start[nc])
	value := make([]float64, start[nc])
	next := append([]int(nil), start[:nc]...)
	for j := range nc {
		for k := m.Start[j]; k < m.Start[j+1]; k++ {
			index[next[j]], value[next[j]] = m.Index[k], m.Value[k]
			next[j]++
		}
	}
	// Name the pool rows only when the model names all its rows (a
	// shorter list leaves the rest unnamed; see rowName).
	named := len(c.RowNames) >= nr
	if named {
		c.RowNames = c.RowNames[:nr:nr]
	}
	for i := range p.NumRows() {
		for k := p.Start[i]; k < p.Start[i+1]; k++ {
			j := p.Index[k]
			index[next[j]], value[next[j]] = nr+i, p.Value[k]
			next[j]++
		}
		if named {
			c.RowNames = append(c.RowNames, fmt.Sprintf("pool_%d", i))
		}
	}
	c.Start, c.Index, c.Value = start, index, value
	c.RowLo = append(c.RowLo, p.Lo...)
	c.RowUp = append(c.RowUp, p.Up...)
	return c
}

// copyModel returns a copy of m that shares no mutable memory with it.
func copyModel(m *Model) *Model {
	c := *m
	c.ColNames = append([]string(nil), m.ColNames...)
	c.RowNames = append([]string(nil), m.RowNames...)
	c.Obj = append([]float64(nil), m.Obj...)
	c.ColLo = append([]float64(nil), m.ColLo...)
	c.ColUp = append([]float64(nil), m.ColUp...)
	c.Integer = append([]bool(nil), m.Integer...)
	c.RowLo = append([]float64(nil), m.RowLo...)
	c.RowUp = append([]float64(nil), m.RowUp...)
	c.Start = append([]int(nil), m.Start...)
	c.Index = append([]int(nil), m.Index...)
	c.Value = append([]float64(nil), m.Value...)
	if m.Known != nil {
		c.Known = append([]float64(nil), m.Known...)
	}
	if m.Cuts != nil {
		c.Cuts = m.Cuts.clone()
	}
	return &c
}

// Close frees the solver memory. It must be called exactly when the solver
// is no longer used; later calls of Close do nothing, later solves return
// ErrClosed. KnownVertex keeps working.
//
// A Close during a call on another goroutine (a misuse) does not free the
// memory under the running call: the call closes the solver when it ends.
func (s *Solver) Close() {
	s.closeReq.Store(true)
	if !s.busy.TryLock() {
		return // the running call closes on its exit
	}
	s.closeLocked()
	s.busy.Unlock()
}

// closeLocked frees the backend; the caller holds s.busy.
func (s *Solver) closeLocked() {
	if s.eng == nil {
		return
	}
	s.closeFace()
	s.eng.Close()
	s.eng = nil
}

// Fork implements lazycg.Forker: a second Solver over the same model and
// options, with a backend instance of its own (loaded anew: the memory of
// a second solver; ctx bounds the loading), warm-started at the last
// vertex of s. The two share no mutable state and may solve at the same
// time on different goroutines (concurrent weak separation's StaleFork
// policy). The fork must be closed when no longer needed.
func (s *Solver) Fork(ctx context.Context) (lazycg.LMO, error) {
	if !s.enter() {
		return nil, errBusy
	}
	defer s.exit()
	if s.eng == nil {
		return nil, ErrClosed
	}
	f, err := NewSolverContext(ctx, s.model, s.innerOptions())
	if err != nil {
		return nil, err
	}
	copy(f.last, s.last)
	f.lastOK, f.std = s.lastOK, s.std
	return f, nil
}

// Relaxation returns a Solver over the LP relaxation of s's model: the
// same rows, bounds and coordinates (Options.Vars) with every integrality
// restriction dropped, so that its polytope Q — the projection of the
// relaxation's feasible set — contains s's polytope P and each linear
// minimization is one LP (the backend's search over a model without
// integer columns). Minimizing a convex f over Q gives proven lower
// bounds on min_P f: min_Q f ≤ min_P f (the online package's hindsight
// solves use it so). Q's vertices are the relaxation's basic solutions,
// fractional in general: they are not vertices of P. The relaxation is a
// new backend instance (ctx bounds its loading; s is not touched) and
// must be closed when no longer needed. It never preprocesses, and
// Options.RelGap is 0 (LPs are solved exactly). The inequalities of the
// model's cut pool (Model.Cuts), valid for every point of P, become rows
// of the relaxation, so Q is the tighter for them.
func (s *Solver) Relaxation(ctx context.Context) (lazycg.LMO, error) {
	if !s.enter() {
		return nil, errBusy
	}
	defer s.exit()
	if s.eng == nil {
		return nil, ErrClosed
	}
	m := withPoolRows(s.model)
	for j := range m.Integer {
		m.Integer[j] = false
	}
	m.Name = s.model.Name + "-lp"
	opts := s.innerOptions()
	opts.RelGap, opts.Preprocess, opts.RequireBinary = 0, PreprocessOff, false
	return NewSolverContext(ctx, m, opts)
}

// innerOptions are the options of a solver that s makes for itself (a
// fork, a relaxation, the reduced model of a face call): s's own, without
// the call log — only s logs, each call once, with the full costs.
func (s *Solver) innerOptions() Options {
	opts := s.opts
	opts.CallLog = nil
	return opts
}

// Dim returns the dimension of the polytope, len(Options.Vars).
func (s *Solver) Dim() int { return len(s.vars) }

// Check implements lazycg.MembershipChecker with necessary conditions: x
// must respect the bounds of its columns and, when the coordinates are
// all of the model's columns, the rows (the LP relaxation contains P). A
// point of the relaxation may still lie outside P (the convex hull of the
// integer points), and with hidden columns (an extended formulation) only
// the bounds are checked. An infinite or NaN value is a violation.
func (s *Solver) Check(x []float64, tol float64) error {
	if len(x) != len(s.vars) {
		return fmt.Errorf("mip: point has length %d, dimension is %d", len(x), len(s.vars))
	}
	m := s.model
	if len(s.vars) < m.NumCols() {
		for i, j := range s.vars {
			t := tol * math.Max(1, math.Abs(x[i]))
			if math.IsInf(x[i], 0) || !(x[i] >= m.ColLo[j]-t && x[i] <= m.ColUp[j]+t) {
				return fmt.Errorf("mip: column %s = %g violates its bounds [%g, %g]", colName(m, j), x[i], m.ColLo[j], m.ColUp[j])
			}
		}
		return nil
	}
	y := make([]float64, m.NumCols())
	for i, j := range s.vars {
		y[j] = x[i]
	}
	if err := m.check(y, tol, make([]float64, 2*m.NumRows()), false); err != nil {
		return fmt.Errorf("mip: %w", err)
	}
	return nil
}

// ZeroOne reports whether the polytope is a 0/1 polytope: every coordinate
// (Options.Vars) is an integer column with bounds within [0, 1], so every
// vertex is a 0/1 vector (the projection of the model's integer hull onto
// binary columns). Augmenting weak separation (lazycg.AugmentingSeparator)
// needs it.
func (s *Solver) ZeroOne() bool {
	for _, j := range s.vars {
		if !s.model.Integer[j] || s.model.ColLo[j] < 0 || s.model.ColUp[j] > 1 {
			return false
		}
	}
	return true
}

// L1Diameter returns an upper bound on ‖y − z‖₁ over vertices y, z of the
// polytope: Σ (upper − lower bound) over its coordinates (for a 0/1
// polytope its dimension), saturating at math.MaxInt when a bound is
// infinite (see lazycg.Diameter1).
func (s *Solver) L1Diameter() int {
	sum := 0.0
	for _, j := range s.vars {
		sum += math.Ceil(s.model.ColUp[j] - s.model.ColLo[j])
	}
	if !(sum < math.MaxInt32) { // +Inf, NaN or huge
		return math.MaxInt
	}
	return int(sum)
}

// Vars returns the model columns that are the coordinates of the polytope.
// The slice must not be modified.
func (s *Solver) Vars() []int { return s.vars }

// KnownVertex copies a vertex of the polytope that is known without
// solving into dst and reports whether there is one: the last vertex a
// call returned (for every model, including MPS files), else the
// projection of the model's Known point (formulations built by this
// package). It panics if len(dst) != Dim().
func (s *Solver) KnownVertex(dst []float64) bool {
	if len(dst) != len(s.vars) {
		panic(fmt.Sprintf("mip: KnownVertex: destination has length %d, dimension is %d", len(dst), len(s.vars)))
	}
	switch {
	case s.lastOK:
		s.loadLast(dst)
	case s.model.Known != nil:
		for i, j := range s.vars {
			dst[i] = s.model.Known[j]
		}
	default:
		return false
	}
	return true
}

// ErrClosed is returned by calls on a closed Solver.
var ErrClosed = errors.New("mip: solver is closed")

// ErrTimeLimit is wrapped by errors of calls that reached Options.TimeLimit
// without the answer they need (a feasible point, or a decided augmentation).
var ErrTimeLimit = errors.New("mip: time limit reached")

// run solves min obj·x (obj already in s.obj) with the backend. improve,
// certify and cutoff are as in SolveParams; with warm, s.last is the first
// incumbent. A returned solution (s.res.Found) is in s.x, checked against
// the model and rounded on integer columns.
func (s *Solver) run(ctx context.Context, improve, certify, cutoff float64, warm bool) error {
	if s.eng == nil {
		return ErrClosed
	}
	r := &s.res
	r.Found, r.Value, r.Bound, r.Nodes = false, math.Inf(1), math.Inf(-1), 0
	if err := ctx.Err(); err != nil {
		r.Outcome = OutcomeCanceled
		return fmt.Errorf("mip: %w", err)
	}
	p := &s.params
	*p = SolveParams{Obj: s.obj, Improve: improve, Certify: certify, Cutoff: cutoff, RelGap: s.opts.RelGap,
		TimeLimit: s.opts.TimeLimit, Threads: s.opts.Threads, Search: s.opts.Search, FirstLP: s.opts.FirstLP,
		Dive: s.dive}
	// Only calls that ask for any feasible point (Improve = +Inf: a run's
	// start vertex) are preprocessed: CBC 2.10.8's preprocessing is not
	// sound (see Options.Preprocess), and such a call's point is checked
	// below while its bound is dropped.
	switch firstFeasible := math.IsInf(improve, 1); s.opts.Preprocess {
	case PreprocessOn:
		p.Preprocess = firstFeasible
	case PreprocessAuto:
		// The first call has no basis and no incumbent to lose.
		p.Preprocess = firstFeasible && s.solves == 0
	}
	if warm {
		p.Start = s.last
	}
	if s.model.Cuts != nil && s.model.Cuts.NumRows() > 0 {
		switch s.opts.Pool {
		case PoolOn:
			p.Pool = true
		case PoolAuto:
			pos, neg := 0.0, 0.0
			for _, v := range s.obj {
				if v > 0 {
					pos += v
				} else {
					neg -= v
				}
			}
			p.Pool = math.Min(pos, neg) >= PoolBalance*(pos+neg) && pos+neg > 0
		}
		if p.Pool {
			s.pooled++
		}
	}
	s.solves++
	r.FirstLP, r.WarmCut = FirstLPAuto, false
	err := s.eng.Solve(ctx, p, r)
	switch r.FirstLP {
	case FirstLPWarm:
		s.lps[0]++
	case FirstLPCold:
		s.lps[1]++
	}
	if r.WarmCut {
		s.lps[2]++
	}
	if err != nil {
		return err
	}
	if r.Outcome == OutcomeCanceled && r.Found && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		// A deadline is a time limit (the run's, for lazycg's drivers):
		// the call ends as one that reached Options.TimeLimit, with its
		// incumbent and proven bound, as a MIP solver's time limit does.
		r.Outcome = OutcomeTimeLimit
	}
	if r.Outcome == OutcomeCanceled {
		if p.Preprocess {
			// The bound may come from the preprocessed model, which
			// proves nothing (see below).
			r.Bound = math.Inf(-1)
		}
		err := ctx.Err()
		if err == nil {
			err = context.Canceled
		}
		return fmt.Errorf("mip: %w", err)
	}
	if p.Preprocess {
		if !r.Found && r.Outcome != OutcomeTimeLimit {
			// Infeasible or certified after preprocessing (a finite
			// Certify): ask again without it, which alone can prove
			// that; a certified answer must carry its bound.
			p0 := s.opts.Preprocess
			s.opts.Preprocess = PreprocessOff
			defer func() { s.opts.Preprocess = p0 }()
			return s.run(ctx, improve, certify, cutoff, warm)
		}
		// Preprocessing proves nothing: the call reports its point, which
		// is what it asked for (Improve = +Inf), and no bound.
		r.Bound = math.Inf(-1)
		if r.Found {
			r.Outcome = OutcomeImproving
		}
	}
	if !r.Found {
		return nil
	}
	if err := s.model.check(s.x, checkTol, s.buf, true); err != nil {
		return fmt.Errorf("mip: the solver returned an infeasible point: %v", err)
	}
	for _, j := range s.changed {
		if math.Abs(s.x[j]) > checkTol {
			return fmt.Errorf("mip: the solver returned a point outside the face: column %s = %g", colName(s.model, j), s.x[j])
		}
	}
	for j, v := range s.x {
		if s.model.Integer[j] {
			s.x[j] = math.Round(v)
		}
	}
	return nil
}

// FirstLPs returns how many of the solver's calls so far solved their first
// LP warm (from the last basis) and cold, and how many warm re-solves were
// cut short at their budget and solved again cold (counted as cold too);
// see Options.FirstLP. Face calls on a reduced model count in their own
// solver, not here.
func (s *Solver) FirstLPs() (warm, cold, cut int) { return s.lps[0], s.lps[1], s.lps[2] }

// Pooled returns how many of the solver's calls so far asked the backend to
// separate the model's cut pool (see Options.Pool).
func (s *Solver) Pooled() int { return s.pooled }

// setColBounds changes the bounds of column j in the backend.
func (s *Solver) setColBounds(j int, lo, up float64) { s.eng.SetColBounds(j, lo, up) }

// checkModel validates the arrays of m.
func checkModel(m *Model) error {
	if m == nil {
		return errors.New("mip: nil model")
	}
	nc, nr := len(m.ColLo), len(m.RowLo)
	if len(m.ColUp) != nc || len(m.Integer) != nc || len(m.Obj) != nc || len(m.Start) != nc+1 {
		return fmt.Errorf("mip: inconsistent model: %d lower bounds, %d upper bounds, %d integrality flags, %d objective entries, %d column starts",
			nc, len(m.ColUp), len(m.Integer), len(m.Obj), len(m.Start))
	}
	if len(m.RowUp) != nr {
		return fmt.Errorf("mip: inconsistent model: %d row lower bounds, %d upper bounds", nr, len(m.RowUp))
	}
	if len(m.Index) != len(m.Value) || m.Start[0] != 0 || m.Start[nc] != len(m.Index) {
		return fmt.Errorf("mip: inconsistent model: %d row indices, %d values, column starts from %d to %d",
			len(m.Index), len(m.Value), m.Start[0], m.Start[nc])
	}
	if m.Known != nil && len(m.Known) != nc {
		return fmt.Errorf("mip: inconsistent model: known point has %d values for %d columns", len(m.Known), nc)
	}
	if uint64(len(m.Index)) > math.MaxInt32 || nc > math.MaxInt32-1 || nr > math.MaxInt32 {
		return errors.New("mip: model too large for 32-bit solver indices")
	}
	// All starts first: a start beyond the nonzeros that later ones
	// come back from would index past them.
	for j := 0; j < nc; j++ {
		if m.Start[j+1] < m.Start[j] {
			return fmt.Errorf("mip: column starts decrease at column %s", colName(m, j))
		}
	}
	for j := 0; j < nc; j++ {
		lo, up := m.ColLo[j], m.ColUp[j]
		if math.IsNaN(lo) || math.IsNaN(up) || math.IsInf(lo, 1) || math.IsInf(up, -1) || lo > up {
			return fmt.Errorf("mip: column %s has invalid bounds [%g, %g]", colName(m, j), lo, up)
		}
		if o := m.Obj[j]; math.IsNaN(o) || math.IsInf(o, 0) {
			return fmt.Errorf("mip: column %s has objective coefficient %g", colName(m, j), o)
		}
		for k := m.Start[j]; k < m.Start[j+1]; k++ {
			if i := m.Index[k]; i < 0 || i >= nr {
				return fmt.Errorf("mip: column %s has an entry in row %d (model has %d rows)", colName(m, j), i, nr)
			}
			if v := m.Value[k]; math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("mip: column %s has coefficient %g", colName(m, j), v)
			}
		}
	}
	for i := 0; i < nr; i++ {
		lo, up := m.RowLo[i], m.RowUp[i]
		if math.IsNaN(lo) || math.IsNaN(up) || math.IsInf(lo, 1) || math.IsInf(up, -1) || lo > up {
			return fmt.Errorf("mip: row %s has invalid bounds [%g, %g]", rowName(m, i), lo, up)
		}
	}
	if math.IsNaN(m.ObjConst) || math.IsInf(m.ObjConst, 0) {
		return fmt.Errorf("mip: objective constant %g", m.ObjConst)
	}
	return nil
}
