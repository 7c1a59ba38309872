package lazycg

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"
)

// DCProblem is the minimization of a difference of convex functions
// φ(x) = F(x) − G(x) over a polytope P given by an LMO (φ itself need not be
// convex). MinimizeDC solves it by the difference-of-convex algorithm (DCA)
// with conditional gradient subproblems.
type DCProblem struct {
	// F and G are smooth convex functions of the same dimension. Only
	// their values and gradients are used; G's convexity is what makes
	// every DCA step decrease φ, and a step that increases φ is reported
	// as an error.
	F, G Objective
	// LMO is the linear minimization oracle of P.
	LMO LMO
	// Separator is the weak separation oracle of the lazy subproblem
	// methods. When nil, MinimizeDC builds one CachedSeparator over LMO
	// (configured by DCSettings.Inner.SeparatorConfig) and uses it for
	// every subproblem, so that the vertices found for one subproblem
	// answer the weak separation questions of the next ones.
	Separator WeakSeparator
	// X0 is the starting point, a point of P. When nil, the first
	// subproblem starts as Minimize would (a vertex of P).
	X0 []float64
}

// DCSettings control a MinimizeDC run. The zero value is usable: the run
// ends when the DCA gap is proven to be at rounding level (see
// Tolerance), when it stops making progress, or after
// DefaultDCMaxIterations iterations when no other limit or tolerance is
// set.
type DCSettings struct {
	// MaxIterations bounds the DCA iterations, i.e. the subproblems solved
	// (0: none; see DCSettings for the cap of runs without any stop rule).
	MaxIterations int
	// MaxLMOCalls bounds the LMO calls of the whole run (0: none), the
	// start vertex's and those of all subproblems together, exactly:
	// each subproblem runs with the calls left as its
	// Settings.MaxLMOCalls (or its own Inner.MaxLMOCalls when lower),
	// which it never exceeds, so Stats.LMOCalls never exceeds
	// MaxLMOCalls. The run ends with status LMOCallLimit when no call is
	// left, or when a subproblem stopped at that limit; it keeps the
	// iterate that subproblem reached and every certificate proven.
	MaxLMOCalls int
	// TimeLimit bounds the wall-clock time of the whole run (0: none).
	TimeLimit time.Duration
	// Tolerance stops the run once the DCA gap at an iterate is proven to be
	// at most Tolerance (see DCResult.GapBound); RelTolerance once it is at
	// most RelTolerance·max(1, |φ|). A run always stops once the gap is
	// below the floating-point resolution of the subproblem's values,
	// 1e−13·max(u, s) for s the largest of |F|, |G| and |φ| at the iterate
	// and u that largest value at the start point capped at 1 (PhiFloor
	// when it is at least 1; see PhiSchedule.Unit).
	Tolerance, RelTolerance float64
	// Inner are the settings of each subproblem's Minimize run: its limits
	// apply to each subproblem (the time limit and the LMO call limit are
	// cut to what the whole run has left), its SeparatorConfig configures
	// the shared separator, and its Callback, when set, is called as well.
	// Subproblem runs record no trace.
	Inner Settings
	// SolveSubproblems turns the DCA stopping rule of the subproblems off:
	// each one is then solved to Inner's limits and tolerances. By
	// default a subproblem run stops as soon as its progress φ(x_t) −
	// m_t(x) is at least its proven remaining gap m_t(x) − (dual bound):
	// the rule of Pokutta ("Scalable DC optimization via adaptive
	// Frank–Wolfe algorithms", 2025), which keeps the DCA gap going to zero
	// at the rate O(1/T) with inexact subproblems (see MinimizeDC).
	SolveSubproblems bool
	// ColdPhi makes every subproblem of a lazy method find its own Φ0 (by
	// the method's PhiSchedule). By default the second and later
	// subproblems start at the Φ the previous one ended with, which saves
	// the LMO call (or the search) that finding Φ0 costs; Φ0 only affects
	// the pace of a lazy method, never what its answers prove.
	ColdPhi bool
	// Callback, when set, is called after every DCA iteration; returning
	// false stops the run with status CallbackStop.
	Callback func(DCProgress) bool
	// NoTrace disables the trace (one point per DCA iteration).
	NoTrace bool
}

// DefaultDCMaxIterations is the DCA iteration limit of MinimizeDC runs
// whose DCSettings set no limit and no tolerance.
const DefaultDCMaxIterations = 1000

// DCProgress is passed to DCSettings.Callback after each DCA iteration.
type DCProgress struct {
	// Iteration is the number of DCA iterations done, Time the time since
	// the start.
	Iteration int
	Time      time.Duration
	// F is φ at the current iterate.
	F float64
	// GapBound is the proven bound on the DCA gap of the iterate the last
	// subproblem started from (+Inf if none).
	GapBound float64
	// Stats are the counters of all subproblem runs so far.
	Stats Stats
}

// DCTracePoint is one recorded state of a MinimizeDC run, after a DCA
// iteration (the first point is the start).
type DCTracePoint struct {
	Time       time.Duration
	OracleTime time.Duration
	// Iteration counts DCA iterations; InnerIterations the iterations of
	// all subproblem runs.
	Iteration       int
	InnerIterations int
	LMOCalls        int
	CacheHits       int
	// F is φ at the iterate; GapBound the proven DCA gap bound of the
	// iterate before it (+Inf at the start).
	F        float64
	GapBound float64
}

// DCResult is the outcome of MinimizeDC.
type DCResult struct {
	// X is the last iterate, the point of least φ found, and F = φ(X).
	X []float64
	F float64
	// Certified is the iterate x_t from which the last subproblem started,
	// CertifiedF = φ(x_t), and GapBound a proven bound on its DCA gap
	// φ(x_t) − min_P m_t ≥ 0, where m_t(x) = F(x) − G(x_t) − ∇G(x_t)·(x − x_t)
	// is the convex majorant of φ that DCA minimizes (+Inf when no
	// subproblem ran). The DCA gap is zero exactly at the critical points
	// of φ over P (∇φ(x_t)·(x_t − z) ≤ 0 for all z in P), and it is at most
	// the Frank–Wolfe gap of φ at x_t. It is a stationarity certificate,
	// not a bound on min φ: φ is not convex, and MinimizeDC proves no
	// lower bound on it. X equals Certified when the last subproblem did
	// not move; otherwise φ(X) ≤ CertifiedF.
	Certified  []float64
	CertifiedF float64
	GapBound   float64
	// Status says why the run stopped; GapConverged means the tolerance
	// on the DCA gap was met (an approximately critical point, not a
	// global minimum).
	Status Status
	// Err is the error behind Status Failure.
	Err error
	// Iterations counts the DCA iterations; Stats sums the counters of all
	// subproblem runs (Stats.Runtime is the whole run's).
	Iterations int
	Stats      Stats
	Trace      []DCTracePoint
}

// dcModel is the DCA subproblem objective m(x) = F(x) − lin·x + c, with
// lin = ∇G(x_t) and c = −G(x_t) + lin·x_t, so that m(x_t) = φ(x_t).
type dcModel struct {
	f   Objective
	fg  FuncGrader // f's, nil when it has none
	lin []float64
	c   float64
}

func (m *dcModel) Dim() int { return m.f.Dim() }

func (m *dcModel) Func(x []float64) float64 { return m.f.Func(x) - dot(m.lin, x) + m.c }

func (m *dcModel) Grad(dst, x []float64) {
	m.f.Grad(dst, x)
	axpy(dst, -1, m.lin)
}

// FuncGrad implements FuncGrader.
func (m *dcModel) FuncGrad(dst, x []float64) float64 {
	var f float64
	if m.fg != nil {
		f = m.fg.FuncGrad(dst, x)
	} else {
		f = m.f.Func(x)
		m.f.Grad(dst, x)
	}
	axpy(dst, -1, m.lin)
	return f - dot(m.lin, x) + m.c
}

// Smoothness implements Smoother: F's constant (0, unknown, when F does not
// know it).
func (m *dcModel) Smoothness() float64 { return smoothness(m.f, 0) }

// quadraticLine is the optional interface of objectives whose restriction
// to a line is a quadratic polynomial, f(x + γd) = f(x) + slope·γ + curv·γ²
// (package objective's QuadraticLine).
type quadraticLine interface {
	LineCoeffs(x, d []float64) (slope, curv float64)
}

// dcQuadModel is a dcModel whose F is a quadraticLine: the model is then
// minimized exactly along lines.
type dcQuadModel struct {
	*dcModel
	q quadraticLine
}

// dcSum makes a dcModel whose F is a FiniteSum one too (for the
// stochastic methods): F's terms, with the linear term in every batch
// gradient, which keeps the estimate unbiased.
type dcSum struct {
	fs  FiniteSum
	lin []float64
}

// Terms implements FiniteSum.
func (m dcSum) Terms() int { return m.fs.Terms() }

// BatchGrad implements FiniteSum.
func (m dcSum) BatchGrad(dst, x []float64, batch []int) {
	m.fs.BatchGrad(dst, x, batch)
	axpy(dst, -1, m.lin)
}

// newDCModel returns the subproblem objective over F with the linear term
// lin (set with its constant through the returned *dcModel), with F's
// exact line search and finite-sum structure when F has them.
func newDCModel(f Objective, lin []float64) (Objective, *dcModel) {
	base := &dcModel{f: f, lin: lin}
	base.fg, _ = f.(FuncGrader)
	q, quad := f.(quadraticLine)
	fs, sum := f.(FiniteSum)
	switch {
	case quad && sum:
		return &struct {
			*dcQuadModel
			dcSum
		}{&dcQuadModel{base, q}, dcSum{fs, lin}}, base
	case quad:
		return &dcQuadModel{base, q}, base
	case sum:
		return &struct {
			*dcModel
			dcSum
		}{base, dcSum{fs, lin}}, base
	}
	return base, base
}

// LineMinimize implements LineMinimizer.
func (m *dcQuadModel) LineMinimize(x, d, _ []float64, gmax float64) float64 {
	slope, curv := m.q.LineCoeffs(x, d)
	slope -= dot(m.lin, d)
	if !(gmax > 0) || math.IsNaN(slope) || math.IsNaN(curv) {
		return 0
	}
	if curv > 0 {
		return math.Min(math.Max(-slope/(2*curv), 0), gmax)
	}
	if slope < 0 {
		return gmax
	}
	return 0
}

// phiWarmer is implemented by the lazy methods (through PhiSchedule).
type phiWarmer interface {
	Phi() float64
	phiStart() float64
	setPhiStart(phi float64)
}

func (p *PhiSchedule) phiStart() float64       { return p.Phi0 }
func (p *PhiSchedule) setPhiStart(phi float64) { p.Phi0 = phi }

// The active-set methods whose active set MinimizeDC carries from one
// subproblem to the next.
func (m *AwayFW) activeCore() *activeCore          { return &m.core }
func (m *LazyAwayFW) activeCore() *activeCore      { return &m.core }
func (m *BlendedPairwise) activeCore() *activeCore { return &m.core }
func (m *LazyBPCG) activeCore() *activeCore        { return &m.core }
func (m *BlendedCG) activeCore() *activeCore       { return &m.core }
func (m *PairwiseFW) activeCore() *activeCore      { return &m.core }
func (m *LazyPairwiseFW) activeCore() *activeCore  { return &m.core }

// MinimizeDC minimizes φ = F − G over P by the difference-of-convex
// algorithm: at the iterate x_t it minimizes the convex majorant
// m_t(x) = F(x) − G(x_t) − ∇G(x_t)·(x − x_t) ≥ φ(x) over P with method,
// through Minimize, starting at x_t, and takes the point reached as
// x_{t+1}. Since m_t(x_t) = φ(x_t) and the subproblem run never ends above
// its start, φ(x_{t+1}) ≤ m_t(x_{t+1}) ≤ φ(x_t).
//
// Each subproblem run proves a lower bound d_t on min_P m_t (its dual
// bound), hence the DCA gap of x_t is at most φ(x_t) − d_t (DCResult.GapBound).
// By default (DCSettings.SolveSubproblems false) a subproblem run stops
// once φ(x_t) − m_t(x) ≥ m_t(x) − d_t, which gives
// φ(x_t) − d_t ≤ 2(φ(x_t) − φ(x_{t+1})): the proven DCA gaps sum to at most
// 2(φ(x_0) − inf φ), so the smallest of the first T is O(1/T).
//
// Any Method of this package that accepts a start point serves for the
// subproblems; the active-set methods take the start x_t as their first
// atom. With a lazy method all subproblems share one weak separation
// oracle (DCProblem.Separator, or one built from Inner.SeparatorConfig),
// so vertices found for one subproblem answer the questions of the
// following ones, and each subproblem starts at the Φ the previous one
// ended with (unless ColdPhi); the method's own Phi0 is restored when
// MinimizeDC returns. The method value is reused for every subproblem.
//
// It returns an error without a result for an invalid problem; when a
// subproblem fails mid-run, or φ increases or ends above the model's
// value (G is not convex, or its gradient is wrong), it returns the
// result so far (Status Failure, the best point) and the error. A run
// stopped by its time limit or by ctx returns the best point and the last
// proven gap bound.
func MinimizeDC(ctx context.Context, p DCProblem, settings *DCSettings, method Method) (*DCResult, error) {
	if settings == nil {
		settings = &DCSettings{}
	}
	if p.F == nil || p.G == nil {
		return nil, errors.New("lazycg: dca: the problem needs both F and G")
	}
	if err := CheckNotNil("dca: F", p.F); err != nil {
		return nil, err
	}
	if err := CheckNotNil("dca: G", p.G); err != nil {
		return nil, err
	}
	n := p.F.Dim()
	if p.G.Dim() != n {
		return nil, fmt.Errorf("lazycg: dca: F has dimension %d, G dimension %d", n, p.G.Dim())
	}
	if err := CheckProblem(n, p.LMO, p.Separator, p.X0); err != nil {
		return nil, err
	}
	if method == nil {
		return nil, errors.New("lazycg: no method")
	}
	if err := CheckNotNil("the method", method); err != nil {
		return nil, err
	}
	if err := settings.Inner.SeparatorConfig.Check(); err != nil {
		return nil, err
	}
	if settings.Tolerance < 0 || settings.RelTolerance < 0 || math.IsNaN(settings.Tolerance) || math.IsNaN(settings.RelTolerance) {
		return nil, fmt.Errorf("lazycg: dca: tolerances must be ≥ 0 (got %g and %g)", settings.Tolerance, settings.RelTolerance)
	}
	if settings.MaxIterations < 0 || settings.MaxLMOCalls < 0 || settings.TimeLimit < 0 {
		// A negative limit lifted the DefaultDCMaxIterations cap without
		// bounding the run.
		return nil, SettingsError(fmt.Errorf("lazycg: dca: limits must be ≥ 0 (got MaxIterations %d, MaxLMOCalls %d, TimeLimit %v)",
			settings.MaxIterations, settings.MaxLMOCalls, settings.TimeLimit))
	}
	keepActive := func() {}
	sep := p.Separator
	if sep == nil {
		sep = NewSeparator(p.LMO, settings.Inner.separatorConfig())
	}
	warm, _ := method.(phiWarmer)
	if warm != nil {
		defer warm.setPhiStart(warm.phiStart())
	}
	if am, ok := method.(activeSetMethod); ok {
		c := am.activeCore()
		defer func() { c.keep = false }()
		// The first subproblem starts afresh; the later ones start where
		// the previous one ended, with its active set.
		c.keep = false
		keepActive = func() { c.keep = true }
	}
	// tolerance is the DCA gap that ends the run at φ: the settings', and
	// at least the resolution of the subproblem's values, sums of terms as
	// large as scale = max |F|, |G| at the iterate (PhiFloor).
	// The floor's unit is that scale at the first model's point, capped
	// at 1 (as PhiUnit for Minimize): a problem of values 1e−20 is not
	// "converged" at a gap 10^7 times its values.
	unit := 0.0
	tolerance := func(phi, scale float64) float64 {
		return math.Max(math.Max(settings.Tolerance, settings.RelTolerance*math.Max(1, math.Abs(phi))), phiFloorAt(unit, scale))
	}
	var modelScale, certScale float64 // max |F|, |G|, |φ| at the model's point and at the certified one
	maxIter := settings.MaxIterations
	if maxIter == 0 && settings.MaxLMOCalls == 0 && settings.TimeLimit == 0 && settings.Tolerance == 0 && settings.RelTolerance == 0 {
		maxIter = DefaultDCMaxIterations
	}
	run := StartRun(ctx, settings.TimeLimit)
	defer run.Stop()
	// limits reports the status of a run whose certified gap, iteration
	// count or LMO call count has reached its settings.
	var res *DCResult
	limits := func() (Status, bool) {
		switch {
		case res.GapBound <= tolerance(res.CertifiedF, certScale):
			return GapConverged, true
		case maxIter > 0 && res.Iterations >= maxIter:
			return IterationLimit, true
		case settings.MaxLMOCalls > 0 && run.Stats.LMOCalls >= settings.MaxLMOCalls:
			return LMOCallLimit, true
		}
		return NotTerminated, false
	}

	lin := make([]float64, n)
	model, base := newDCModel(p.F, lin)
	setModel := func(x []float64) (phi float64) {
		g := p.G.Func(x)
		p.G.Grad(lin, x)
		base.c = dot(lin, x) - g
		f := p.F.Func(x)
		modelScale = math.Max(math.Max(math.Abs(f), math.Abs(g)), math.Abs(f-g))
		if unit == 0 {
			unit = math.Min(1, modelScale)
			if !(unit > 0) {
				unit = 1 // phiFloorAt's unit for 0 or NaN
			}
		}
		return f - g
	}

	res = &DCResult{GapBound: math.Inf(1), CertifiedF: math.NaN()}
	stats := &run.Stats
	x := p.X0
	phi := math.NaN()
	if x != nil {
		x = append([]float64(nil), x...)
		phi = setModel(x)
		if math.IsNaN(phi) || math.IsInf(phi, 0) || !CheckFinite(lin) {
			return nil, fmt.Errorf("lazycg: dca: φ or ∇G is not finite at the start point (φ=%g)", phi)
		}
	}
	record := func() {
		if !settings.NoTrace {
			res.Trace = append(res.Trace, DCTracePoint{Time: run.Elapsed(), OracleTime: stats.OracleTime,
				Iteration: res.Iterations, InnerIterations: stats.Iterations, LMOCalls: stats.LMOCalls,
				CacheHits: stats.CacheHits, F: res.F, GapBound: res.GapBound})
		}
	}
	finish := func(st Status, err error) (*DCResult, error) {
		res.Status, res.Err = st, err
		stats.Runtime = run.Elapsed()
		res.Stats = *stats
		if n := len(res.Trace); n == 0 || res.Trace[n-1].Iteration != res.Iterations {
			record()
		}
		return res, err
	}
	if x != nil {
		res.X, res.F = x, phi
		record()
	}
	for {
		if res.X != nil {
			if st, stop := limits(); stop {
				return finish(st, nil)
			}
		}
		if st, ok := run.Interrupted(); ok {
			if res.X == nil {
				return nil, fmt.Errorf("lazycg: dca: stopped before a start point was known: %w", ErrNoPoint)
			}
			return finish(st, nil)
		}

		inner := settings.Inner
		inner.NoTrace = true
		// The whole run's limits below must not lift the cap of
		// subproblems that set no stop rule of their own.
		inner.MaxIterations = settings.Inner.maxIterations()
		if settings.TimeLimit > 0 {
			left := settings.TimeLimit - run.Elapsed()
			if left <= 0 {
				return finish(TimeLimit, nil)
			}
			if inner.TimeLimit == 0 || left < inner.TimeLimit {
				inner.TimeLimit = left
			}
		}
		var phiT, scaleT float64 // φ(x_t) and its scale, fixed once the start is known
		userCB := settings.Inner.Callback
		inner.Callback = func(pr Progress) bool {
			if userCB != nil && !userCB(pr) {
				return false
			}
			if phiT-pr.DualBound <= tolerance(phiT, scaleT) {
				return false // x_t is certified: the run ends after this subproblem
			}
			return settings.SolveSubproblems || pr.Primal-pr.DualBound > phiT-pr.Primal
		}
		if res.Iterations > 0 {
			keepActive()
		}
		if warm != nil && res.Iterations > 0 && !settings.ColdPhi {
			if phi := warm.Phi(); phi > 0 && !math.IsInf(phi, 0) {
				warm.setPhiStart(phi)
			}
		}
		if x == nil {
			// The first subproblem starts where Minimize starts: at the
			// vertex the LMO knows, else at one good for ∇φ(0), the
			// gradient at 0 of the model linearized at 0.
			x = make([]float64, n)
			setModel(x)
			s := &State{X: x, Grad: make([]float64, n), Obj: model, Oracle: NewOracle(p.LMO, sep, stats), stats: stats}
			if err := startVertex(run, s); err != nil {
				return nil, fmt.Errorf("lazycg: dca: %w", err)
			}
			phi = setModel(x)
			if math.IsNaN(phi) || math.IsInf(phi, 0) || !CheckFinite(lin) {
				return nil, fmt.Errorf("lazycg: dca: φ or ∇G is not finite at the start vertex (φ=%g)", phi)
			}
			res.X, res.F = x, phi
			record()
		}
		// The subproblem's LMO calls are cut to what the whole run has
		// left after the start vertex's call (cut: the whole run's limit
		// binds it); none left ends the run (an inner limit of 0 would
		// be none at all).
		cut := false
		if settings.MaxLMOCalls > 0 {
			left := settings.MaxLMOCalls - stats.LMOCalls
			if left <= 0 {
				return finish(LMOCallLimit, nil)
			}
			if inner.MaxLMOCalls == 0 || left <= inner.MaxLMOCalls {
				inner.MaxLMOCalls, cut = left, true
			}
		}
		phiT, scaleT = phi, modelScale
		r, err := Minimize(run.Context(), Problem{Objective: model, LMO: p.LMO, Separator: sep, X0: x}, &inner, method)
		if r == nil {
			if st, ok := run.Interrupted(); ok {
				return finish(st, nil)
			}
			return finish(Failure, fmt.Errorf("lazycg: dca: subproblem %d: %w", res.Iterations+1, err))
		}
		stats.add(r.Stats)
		res.Iterations++
		// The subproblem's dual bound proves the DCA gap bound of x_t,
		// whatever the run's status.
		if gb := phiT - r.DualBound; gb <= 1e308 {
			// A proven bound (a subproblem stopped before it proved any
			// keeps the previous iterate's certificate).
			res.Certified = append(res.Certified[:0], x...)
			res.CertifiedF, res.GapBound, certScale = phiT, math.Max(gb, 0), scaleT
		}
		next := r.X
		phiNext := setModel(next)
		if math.IsNaN(phiNext) || math.IsInf(phiNext, 0) || !CheckFinite(lin) {
			setModel(x)
			return finish(Failure, fmt.Errorf("lazycg: dca: φ or ∇G is not finite after subproblem %d (φ=%g)", res.Iterations, phiNext))
		}
		// φ(x_{t+1}) ≤ m_t(x_{t+1}) ≤ φ(x_t) holds in exact arithmetic for
		// convex G; allow for the rounding of the values compared.
		slack := 1e-9 * (scaleT + math.Abs(r.F) + 1)
		moved := phiNext < phiT
		if phiNext > phiT+slack || phiNext > r.F+slack {
			setModel(x)
			if phiNext > phiT+slack {
				return finish(Failure, fmt.Errorf("lazycg: dca: φ rose from %g to %g in iteration %d (the model's value %g): G is not convex or ∇G is wrong", phiT, phiNext, res.Iterations, r.F))
			}
			// φ fell, but not to the model's value or below: the model is
			// no majorant of φ, so the next step may raise φ.
			return finish(Failure, fmt.Errorf("lazycg: dca: φ = %g in iteration %d (from %g) is above the model's value %g: the model does not majorize φ, G is not convex or ∇G is wrong", phiNext, res.Iterations, phiT, r.F))
		}
		if moved {
			copy(x, next)
			phi = phiNext
			res.X, res.F = x, phi
		} else {
			setModel(x)
		}
		record()
		if settings.Callback != nil && !settings.Callback(DCProgress{Iteration: res.Iterations, Time: run.Elapsed(),
			F: res.F, GapBound: res.GapBound, Stats: *stats}) {
			return finish(CallbackStop, nil)
		}
		switch r.Status {
		case Failure:
			return finish(Failure, fmt.Errorf("lazycg: dca: subproblem %d: %w", res.Iterations, r.Err))
		case TimeLimit, Canceled:
			if st, ok := run.Interrupted(); ok {
				return finish(st, nil)
			}
		case LMOCallLimit:
			if cut {
				// The whole run's calls are spent, or what is left
				// cannot serve a step of the subproblem's method.
				return finish(LMOCallLimit, nil)
			}
		}
		if !moved {
			if st, stop := limits(); stop {
				return finish(st, nil)
			}
			// The next subproblem would be this one again.
			return finish(Stalled, nil)
		}
	}
}
