package objective

import (
	"fmt"
	"math"
	"reflect"

	"github.com/lazycg/lazycg"
)

// Sum is the objective F(x) = Σ_i f_i(x) of the losses added to it, such
// as the cumulative losses Σ_{i≤t} f_i of online conditional gradient.
//
// Linear losses (*Linear) are folded into one accumulated affine term when
// added (their C and B are read at that moment), so a sum of linear losses
// costs O(n) per evaluation however many were added. The other terms are
// kept by reference with a multiplicity: adding a loss that is already in
// the sum (the same pointer, or an equal comparable value) increments its
// weight, so the cumulative loss of a stream that draws its rounds from a
// pool of m functions (Repeat) costs m evaluations however many rounds were
// played (a value that cannot be a map key, such as a struct holding a Func
// in an interface field, is added as a term of its own). The terms are
// evaluated one by one through an internal scratch
// buffer: Func, Grad, FuncGrad and LineMinimize allocate nothing (beyond
// what the terms allocate). A Sum is not safe for concurrent use.
type Sum struct {
	n       int
	count   int
	lin     []float64 // accumulated coefficients of linear terms, nil if none
	linB    float64
	terms   []lazycg.Objective
	weights []float64 // multiplicity of terms[i]
	// The interfaces of terms[i], asserted once when it is added (nil
	// when it has none), so that evaluations make no interface type
	// assertion: since Go 1.22 one builds its call site's cache now and
	// then, an allocation at random.
	fgs     []lazycg.FuncGrader
	quads   []QuadraticLine          // nil for a *Sum (see lineCoeffs)
	scaled  []scaledLine             // the fallback of scaledStep
	index   map[lazycg.Objective]int // position of comparable terms
	general bool                     // some term is not known to be quadratic along lines
	scratch []float64                // gradient of one term
	y, g    []float64                // line search point and gradient
	dir     []float64                // direction of StepSearch
	idx     []int                    // nonzeros of a step's vertex (StepToward)
	val     []float64
	sg      sumGrad // the remembered gradient (sumstep.go)
	// lastTerm is the index in terms of the non-linear loss added last
	// (0 before the first).
	lastTerm int
}

var (
	_ lazycg.Objective     = (*Sum)(nil)
	_ lazycg.FuncGrader    = (*Sum)(nil)
	_ lazycg.LineMinimizer = (*Sum)(nil)
)

// NewSum returns the sum of losses (possibly none: the zero function, whose
// dimension is fixed by the first Add; the zero Sum is the same). It panics when the losses have
// different dimensions, like Add.
func NewSum(losses ...lazycg.Objective) *Sum {
	s := new(Sum)
	for _, f := range losses {
		s.Add(f)
	}
	return s
}

// Add adds the loss f to the sum. The first loss fixes the dimension; Add
// panics on a loss of another dimension, a programming error.
func (s *Sum) Add(f lazycg.Objective) { s.AddTimes(f, 1) }

// AddWithGrad adds the loss f like Add, given its gradient g at x: the
// online driver has just computed f_t and ∇f_t at x_t, and the next
// gradient of the sum is asked at x_t, where the remembered gradient
// (sumstep.go) then takes g instead of evaluating ∇f again. x and g are
// copied; a later call at another point ignores them.
func (s *Sum) AddWithGrad(f lazycg.Objective, x, g []float64) {
	s.AddTimes(f, 1)
	if _, ok := f.(*Linear); ok || len(x) != s.n || len(g) != s.n {
		return
	}
	h := &s.sg.hint
	h.term = s.lastTerm
	h.x = append(h.x[:0], x...)
	h.g = append(h.g[:0], g...)
	h.ok = true
}

// AddTimes adds k ≥ 1 copies of the loss f to the sum (k·f), as k calls of
// Add would. It panics when k < 1 or f has another dimension than the
// losses added before.
func (s *Sum) AddTimes(f lazycg.Objective, k int) {
	if k < 1 {
		panic(fmt.Sprintf("objective: sum: adding %d copies of a loss", k))
	}
	n := f.Dim()
	if s.count == 0 && s.n == 0 {
		s.n = n
		s.scratch = make([]float64, n)
		s.y = make([]float64, n)
		s.g = make([]float64, n)
	} else if n != s.n {
		panic(fmt.Sprintf("objective: sum: adding a loss of dimension %d to a sum of dimension %d", n, s.n))
	}
	s.count += k
	w := float64(k)
	if l, ok := f.(*Linear); ok {
		if s.lin == nil {
			s.lin = make([]float64, n)
		}
		axpy(s.lin, w, l.C)
		s.linB += w * l.B
		return
	}
	i, found, hashable := s.termIndex(f)
	if found {
		s.weights[i] += w
		s.lastTerm = i
		return
	}
	if hashable {
		if s.index == nil {
			s.index = make(map[lazycg.Objective]int)
		}
		s.index[f] = len(s.terms)
	}
	s.lastTerm = len(s.terms)
	s.terms = append(s.terms, f)
	s.weights = append(s.weights, w)
	fg, _ := f.(lazycg.FuncGrader)
	s.fgs = append(s.fgs, fg)
	var q QuadraticLine
	if _, sub := f.(*Sum); !sub {
		q, _ = f.(QuadraticLine)
	}
	s.quads = append(s.quads, q)
	sl, _ := f.(scaledLine)
	s.scaled = append(s.scaled, sl)
	s.general = s.general || !isQuadratic(f)
}

// termIndex returns the position of f among the terms kept in the index
// (found), and whether f can be a key of the index at all: a value of a
// comparable type can still panic as a map key when it holds, in an
// interface field, a value of a type that is not comparable (a struct
// wrapping a Func, say); such a loss is kept as a term of its own.
func (s *Sum) termIndex(f lazycg.Objective) (i int, found, hashable bool) {
	if !reflect.TypeOf(f).Comparable() {
		return 0, false, false
	}
	defer func() {
		if recover() != nil {
			i, found, hashable = 0, false, false
		}
	}()
	i, found = s.index[f] // panics for an unhashable f, even in a nil map
	return i, found, true
}

// isQuadratic reports whether f has quadratic restrictions to lines.
func isQuadratic(f lazycg.Objective) bool {
	if s, ok := f.(*Sum); ok {
		return !s.general
	}
	_, ok := f.(QuadraticLine)
	return ok
}

// Len returns the number of losses added (with multiplicity).
func (s *Sum) Len() int { return s.count }

// Terms returns the number of distinct non-linear terms, the number of
// evaluations Func and Grad make (besides the folded linear part).
func (s *Sum) Terms() int { return len(s.terms) }

// Dim returns the common dimension of the losses (0 before the first Add).
func (s *Sum) Dim() int { return s.n }

// Quadratic reports whether every term is a QuadraticLine (or a quadratic
// Sum), in which case LineMinimize is exact.
func (s *Sum) Quadratic() bool { return !s.general }

// Func returns Σ_i f_i(x).
func (s *Sum) Func(x []float64) float64 {
	v := s.linB
	if s.lin != nil {
		v += dot(s.lin, x)
	}
	for i, f := range s.terms {
		v += s.weights[i] * f.Func(x)
	}
	return v
}

// Grad stores Σ_i ∇f_i(x) in dst. After StepToward, at the announced point,
// a sum of least squares losses gets it from the remembered gradient in
// O(n) plus sparse products (see sumstep.go).
func (s *Sum) Grad(dst, x []float64) {
	dst = dst[:s.n]
	s.nonlinearGrad(dst, x)
	if s.lin != nil {
		axpy(dst, 1, s.lin)
	}
}

// FuncGrad stores ∇F(x) in dst and returns F(x), using the FuncGrad fast
// path of the terms that have one.
func (s *Sum) FuncGrad(dst, x []float64) float64 {
	dst = dst[:s.n]
	v := s.linB
	if s.lin != nil {
		copy(dst, s.lin)
		v += dot(s.lin, x)
	} else {
		clear(dst)
	}
	for i, f := range s.terms {
		w := s.weights[i]
		if fg := s.fgs[i]; fg != nil {
			v += w * fg.FuncGrad(s.scratch, x)
		} else {
			v += w * f.Func(x)
			f.Grad(s.scratch, x)
		}
		axpy(dst, w, s.scratch)
	}
	return v
}

// StepToward announces that x is about to become x + γ(v − x), computed
// by MoveToward, for a vertex v of the feasible region. For a sum of least
// squares losses over CSR matrices the next Grad at that point is then an
// update of the remembered gradient, O(n) when v recurs or has few
// nonzeros (see sumstep.go); for other sums the least squares terms are
// told when v has at most a sixteenth of its entries nonzero
// (LeastSquares.StepToward), the nonzeros of v found once for all of them.
func (s *Sum) StepToward(x, v []float64, gamma float64) {
	if !(gamma > 0) || len(s.terms) == 0 {
		return // nothing to announce: the linear part's gradient is constant
	}
	if s.sumFast() {
		s.sumGradInit()
		s.announce(x, v, gamma)
		return
	}
	var nz int
	found := false
	for _, f := range s.terms {
		ls, ok := f.(*LeastSquares)
		if !ok || !ls.stepReady(x) {
			continue
		}
		if !found {
			if cap(s.idx) < s.n/16 {
				s.idx, s.val = make([]int, s.n/16), make([]float64, s.n/16)
			}
			s.idx, s.val = s.idx[:s.n/16], s.val[:s.n/16]
			if nz = support(s.idx, s.val, nil, v, 0); nz < 0 {
				return
			}
			found = true
		}
		ls.stepToward(x, v, gamma, s.idx[:nz], s.val[:nz])
	}
}

// StepSearch returns γ ∈ [0, gmax] minimizing F(x + γ(v − x)), given
// grad = ∇F(x), for a vertex v of the feasible region, and announces the
// step x + γ(v − x) (StepToward) when γ > 0: the line search of a step
// toward a vertex (online methods with a shortened step). For a sum of
// least squares losses whose gradient is remembered at x (Grad was last
// asked at x, as the online methods do), the curvature along d = v − x
// comes from ∇F(v), which the announced step needs anyway, by the identity
// (∇F(v) − ∇F(x))·d = dᵀ∇²F·d of quadratics: one vertex gradient instead
// of a product with every term. Otherwise it is LineMinimize's. A
// non-quadratic sum is searched by LineMinimize's bisection.
func (s *Sum) StepSearch(x, v, grad []float64, gmax float64) float64 {
	if !(gmax > 0) || s.n == 0 {
		return 0
	}
	d := s.direction(x, v)
	slope := dot(grad, d)
	descent := slope < 0
	if a := math.Abs(slope); !(a >= 0x1p-900 && a <= math.MaxFloat64) {
		// The sign of a sum that overflowed or underflowed (the
		// magnitude is recomputed by scaledStep).
		descent = scaledDot(grad, d) < 0
	}
	if !descent {
		return 0
	}
	if s.rememberedAt(x) {
		sg := &s.sg
		s.announce(x, v, gmax)
		if sg.pending {
			curv := s.curvatureAlong(d) / 2
			gamma, ok := s.scaledStep(x, d, slope, curv, gmax)
			if !ok {
				gamma = minimizeQuadratic(slope, curv, slope, gmax)
			}
			switch {
			case gamma <= 0:
				sg.pending = false
			case gamma < gmax:
				s.announceStep(x, v, gamma) // v's support is announced
			}
			return gamma
		}
	}
	gamma := s.LineMinimize(x, d, grad, gmax)
	if gamma > 0 {
		s.StepToward(x, v, gamma)
	}
	return gamma
}

// StepDelta returns F(x + γ(v − x)) − F(x) for a vertex v, given grad =
// ∇F(x), and whether it could be computed cheaply: for a sum of least
// squares losses whose gradient is remembered at x (Grad was last asked at
// x, as the online methods do) the curvature along d = v − x comes from
// ∇F(v) as in StepSearch, in O(n) for a remembered or sparse vertex, and
// the step is announced (StepToward) as if it were taken; a step not taken
// leaves the remembered gradient at x. Otherwise it reports false and
// announces nothing (F must then be evaluated at both points).
func (s *Sum) StepDelta(x, v, grad []float64, gamma float64) (float64, bool) {
	if s.n == 0 || !s.rememberedAt(x) {
		return 0, false
	}
	d := s.direction(x, v)
	slope := dot(grad, d)
	s.announce(x, v, gamma)
	if !s.sg.pending {
		return 0, false
	}
	return gamma*slope + gamma*gamma/2*s.curvatureAlong(d), true
}

// direction stores d = v − x in the Sum's direction buffer and returns it.
func (s *Sum) direction(x, v []float64) []float64 {
	if len(s.dir) != s.n {
		s.dir = make([]float64, s.n)
	}
	d := s.dir
	for i := range d {
		d[i] = v[i] - x[i]
	}
	return d
}

// rememberedAt reports whether the sum is quadratic, its gradient can be
// updated along steps (sumFast) and is remembered at x for the current
// weights: the route of StepSearch and StepDelta.
func (s *Sum) rememberedAt(x []float64) bool {
	if s.general || len(s.terms) == 0 || !s.sumFast() {
		return false
	}
	s.sumGradInit()
	sg := &s.sg
	return sg.ok && sameVec(x, sg.x) && len(sg.wAt) == len(s.weights) && s.changedTerms(s.weights) == 0
}

// curvatureAlong returns dᵀ∇²F·d = (∇F(v) − ∇F(x))·d for the announced
// vertex v and d = v − x at the remembered point x (quadratic sums).
func (s *Sum) curvatureAlong(d []float64) float64 {
	gv := s.vertexGradient()
	var curv float64
	for i, di := range d {
		curv += (gv[i] - s.sg.g[i]) * di
	}
	return curv
}

// lineCoeffs returns the coefficients of F(x + γd) − F(x) = slope·γ +
// curv·γ²; valid only when s.Quadratic().
func (s *Sum) lineCoeffs(x, d []float64) (slope, curv float64) {
	if s.lin != nil {
		slope = dot(s.lin, d)
	}
	for i, f := range s.terms {
		var a, c float64
		if t, ok := f.(*Sum); ok {
			a, c = t.lineCoeffs(x, d)
		} else {
			a, c = s.quads[i].LineCoeffs(x, d)
		}
		slope += s.weights[i] * a
		curv += s.weights[i] * c
	}
	return slope, curv
}

// scaledStep is the fallback of the exact line search of a quadratic sum
// whose coefficients slope and curv (of lineCoeffs) fail coeffsReliable
// (sums that overflow, or underflow: entries beyond about 1e±150): it
// returns the minimizer over [0, gmax] of the coefficients recomputed
// scaled by powers of two (scaledLineCoeffs), and true. It returns false
// when the coefficients are reliable, a term cannot be scaled, or the
// function is constant along the line.
func (s *Sum) scaledStep(x, d []float64, slope, curv, gmax float64) (float64, bool) {
	if coeffsReliable(slope, curv, 1) && coeffsReliable(slope, curv, s.lineWmax()) {
		return 0, false
	}
	sl, cu, ok := s.scaledLineCoeffs(x, d)
	if !ok || (sl.m == 0 && cu.m == 0) {
		return 0, false
	}
	return minimizeScaled(sl, cu, gmax), true
}

// lineWmax returns the largest weight of the terms w·(r·d) and w·d² of
// the line coefficients of the sum (see coeffsReliable): the
// multiplicities times the terms' own.
func (s *Sum) lineWmax() float64 {
	m := 1.0
	for i, f := range s.terms {
		m = math.Max(m, s.weights[i]*lineWmax(f))
	}
	return m
}

// lineWmax returns the weight bound of coeffsReliable for the line
// coefficients of f (1 unless f has weights).
func lineWmax(f any) float64 {
	switch t := f.(type) {
	case *Distance:
		return math.Max(t.wmax, 1)
	case *Sum:
		return t.lineWmax()
	case *quadConsensus:
		return math.Max(t.lambda*lineWmax(t.q), float64(t.blocks))
	}
	return 1
}

// scaledLineCoeffs implements scaledLine: lineCoeffs from the terms'
// scaledLineCoeffs; ok is false when a term has none.
func (s *Sum) scaledLineCoeffs(x, d []float64) (slope, curv xf, ok bool) {
	if s.lin != nil {
		if slope, ok = scaledDotXF(s.lin, d); !ok {
			return xf{}, xf{}, false
		}
	}
	for i, t := range s.scaled {
		if t == nil {
			return xf{}, xf{}, false
		}
		a, c, ok := t.scaledLineCoeffs(x, d)
		if !ok {
			return xf{}, xf{}, false
		}
		slope = slope.add(a.scale(s.weights[i]))
		curv = curv.add(c.scale(s.weights[i]))
	}
	return slope, curv, true
}

// Line search parameters of the bisection fallback.
const (
	bisectIter    = 200
	bracketDouble = 1100 // doublings of the bracket when gmax = +Inf
)

// LineMinimize returns argmin over γ in [0, gmax] of F(x + γd).
//
// When Quadratic() holds it is exact: the quadratic coefficients of the
// terms are added up and the parabola minimized (when it is flat, 0 if
// ⟨grad, d⟩ ≥ 0 and gmax otherwise). Otherwise F is assumed convex and the
// root of φ'(γ) = ⟨∇F(x + γd), d⟩ is located by bisection to relative
// precision about 1e-15 (one gradient evaluation per step, at most 200);
// for gmax = +Inf the bracket is first doubled from 1 until φ' ≥ 0. A nil
// grad is computed from x.
func (s *Sum) LineMinimize(x, d, grad []float64, gmax float64) float64 {
	if !s.general {
		slope, curv := s.lineCoeffs(x, d)
		if g, ok := s.scaledStep(x, d, slope, curv, gmax); ok {
			return g
		}
		gd := slope
		if grad != nil && curv == 0 {
			gd = dot(grad, d)
		}
		return minimizeQuadratic(slope, curv, gd, gmax)
	}
	if !(gmax > 0) {
		return 0
	}
	var d0 float64
	if grad != nil {
		d0 = dot(grad, d)
	} else {
		d0 = s.slopeAt(x, d, 0)
	}
	if !(d0 < 0) {
		return 0
	}
	lo, hi := 0.0, gmax
	if math.IsInf(gmax, 1) {
		hi = 1
		for k := 0; s.slopeAt(x, d, hi) < 0; k++ {
			if k == bracketDouble {
				return math.Inf(1)
			}
			lo, hi = hi, 2*hi
		}
	} else if s.slopeAt(x, d, hi) <= 0 {
		return gmax
	}
	for k := 0; k < bisectIter && hi-lo > 1e-15*hi; k++ {
		mid := lo + (hi-lo)/2
		if s.slopeAt(x, d, mid) < 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + (hi-lo)/2
}

// slopeAt returns ⟨∇F(x + γd), d⟩.
func (s *Sum) slopeAt(x, d []float64, gamma float64) float64 {
	y := s.y
	x, d = x[:len(y)], d[:len(y)]
	for i := range y {
		y[i] = x[i] + gamma*d[i]
	}
	s.Grad(s.g, y)
	return dot(s.g, d)
}
