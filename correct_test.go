package lazycg

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/lazycg/lazycg/internal/testutil"
)

// testQuadDistance is f(x) = ‖x − b‖² with its exact line search.
type testQuadDistance struct{ testDistance }

func (d testQuadDistance) LineMinimize(_, dir, grad []float64, gmax float64) float64 {
	return testutil.SquaredDistanceLineMinimize(dir, grad, gmax)
}

// correctionState returns a state at x = Σ w_i e_i over the first len(w)
// unit vectors of R^n, with f = ‖x − b‖², and an active-set core holding
// that decomposition with quadratic corrections.
func correctionState(t *testing.T, n int, w, b []float64) (*State, *activeCore) {
	t.Helper()
	x := make([]float64, n)
	copy(x, w)
	stats := &Stats{}
	s := &State{X: x, Grad: make([]float64, n), Obj: testQuadDistance{testDistance{b}}, stats: stats, dual: math.Inf(-1)}
	s.Eval()
	c := &activeCore{as: NewActiveSet(n), v: make([]float64, n), d: make([]float64, n)}
	e := make([]float64, n)
	for i, wi := range w {
		clear(e)
		e[i] = 1
		k := c.as.Add(e)
		c.as.AddWeight(k, wi)
	}
	if err := c.ls.init(s, LineSearch{}, "test"); err != nil {
		t.Fatal(err)
	}
	if err := c.corr.init(s, CorrectionQuadratic, "test"); err != nil {
		t.Fatal(err)
	}
	return s, c
}

// TestCorrectionReachesFaceMinimizer: over the face spanned by e_0 … e_5
// of the simplex, f = ‖x − b‖² has its minimizer over the face's affine
// hull at x_i = b_i + (1 − Σ_{i<6} b_i)/6; when that point is in the face,
// one correction lands on it, and since the vertices are orthonormal the
// conjugate gradients need a single step.
func TestCorrectionReachesFaceMinimizer(t *testing.T) {
	const n, k = 10, 6
	w := []float64{0.5, 0.1, 0.1, 0.1, 0.1, 0.1}
	b := []float64{0.05, 0.3, 0.1, 0.2, 0.15, 0.12, 0.7, -0.2, 0.4, 0}
	s, c := correctionState(t, n, w, b)
	f0 := s.F
	if !c.correct(s) {
		t.Fatal("the correction did not move")
	}
	var sum float64
	for i := range k {
		sum += b[i]
	}
	for i := range n {
		want := 0.0
		if i < k {
			want = b[i] + (1-sum)/k
		}
		if math.Abs(s.X[i]-want) > 1e-12 {
			t.Fatalf("x = %v, want the face minimizer (coordinate %d: %g, want %g)", s.X, i, s.X[i], want)
		}
	}
	if s.F >= f0 {
		t.Errorf("f went from %g to %g", f0, s.F)
	}
	if c.corr.cgSteps != 1 || s.stats.Corrections != 1 {
		t.Errorf("%d conjugate gradient steps and %d corrections, want 1 and 1", c.corr.cgSteps, s.stats.Corrections)
	}
	checkDecomposition(t, s.X, c.as)
	// At the minimizer a second correction has nothing to do.
	if c.correct(s) {
		t.Error("a correction moved away from the face minimizer")
	}
}

// TestCorrectionTruncates: when the affine minimizer leaves the hull the
// correction stops at its boundary, drops the vertex whose weight reached
// zero and goes on over the smaller set: f decreases, the weights stay a
// convex combination, and the result is the minimizer over the face
// (the projection of b's face coordinates onto the simplex).
func TestCorrectionTruncates(t *testing.T) {
	const n, k = 8, 5
	w := []float64{0.2, 0.2, 0.2, 0.2, 0.2}
	b := []float64{0.9, 0.6, -0.3, 0.1, -0.5, 0.3, 0.2, 0.1}
	s, c := correctionState(t, n, w, b)
	f0 := s.F
	if !c.correct(s) {
		t.Fatal("the correction did not move")
	}
	if s.F >= f0 {
		t.Errorf("f went from %g to %g", f0, s.F)
	}
	if c.corr.rounds < 2 || c.as.Len() >= k {
		t.Errorf("%d rounds, %d vertices left: want drops", c.corr.rounds, c.as.Len())
	}
	checkDecomposition(t, s.X, c.as)
	want := make([]float64, k)
	copy(want, projectSimplex(b[:k]))
	for i := range n {
		wi := 0.0
		if i < k {
			wi = want[i]
		}
		if math.Abs(s.X[i]-wi) > 1e-9 {
			t.Fatalf("x = %v, want the face minimizer %v", s.X, want)
		}
	}
}

// checkDecomposition checks that as holds nonnegative weights summing to
// 1 whose combination is x.
func checkDecomposition(t *testing.T, x []float64, as *ActiveSet) {
	t.Helper()
	if math.Abs(as.Sum()-1) > 1e-12 {
		t.Errorf("the weights sum to %g", as.Sum())
	}
	for k := range as.Len() {
		if as.Weight(k) < 0 {
			t.Errorf("weight %d is %g", k, as.Weight(k))
		}
	}
	y := make([]float64, len(x))
	as.Compute(y)
	for i := range x {
		if math.Abs(y[i]-x[i]) > 1e-12 {
			t.Fatalf("the active set gives %v, x is %v", y, x)
		}
	}
}

// TestCorrectionAllocs: a correction with warm buffers allocates nothing.
func TestCorrectionAllocs(t *testing.T) {
	const n = 40
	w := make([]float64, 12)
	for i := range w {
		w[i] = 1.0 / 12
	}
	b := testutil.RandomVector(n, 5, 1)
	s, c := correctionState(t, n, w, b)
	c.correct(s)
	allocs := testutil.Mallocs(50, func() {
		// Move x back into the middle of the face, then correct again.
		for k := range c.as.Len() {
			c.as.AddWeight(k, 1.0/float64(c.as.Len())-c.as.Weight(k))
		}
		c.as.Recompute(s.X)
		s.Eval()
		c.correct(s)
	})
	if allocs != 0 {
		t.Errorf("50 corrections allocate %d times", allocs)
	}
}

// TestCorrectionMethods runs every active-set method with and without
// quadratic corrections on the projection onto a simplex whose solution
// has many nonzeros: every run reaches the optimum, f never increases,
// the iterate stays in the simplex and matches its active set
// (TestCorrectionFewerCalls compares the LMO calls).
func TestCorrectionMethods(t *testing.T) {
	const n = 120
	b := testutil.RandomVector(n, 11, 3/float64(n))
	opt := make([]float64, n)
	copy(opt, projectSimplex(b))
	fOpt := testutil.SquaredDistance(opt, b)
	methods := map[string]func(Correction) Method{
		"afw":       func(c Correction) Method { return &AwayFW{Correction: c} },
		"lazy-afw":  func(c Correction) Method { return &LazyAwayFW{Correction: c} },
		"bpcg":      func(c Correction) Method { return &BlendedPairwise{Correction: c} },
		"lazy-bpcg": func(c Correction) Method { return &LazyBPCG{Correction: c} },
		"pfw":       func(c Correction) Method { return &PairwiseFW{Correction: c} },
		"lazy-pfw":  func(c Correction) Method { return &LazyPairwiseFW{Correction: c} },
		"bcg":       func(c Correction) Method { return &BlendedCG{Correction: c} },
	}
	for name, mk := range methods {
		t.Run(name, func(t *testing.T) {
			for _, corr := range []Correction{CorrectionNone, CorrectionQuadratic} {
				last := math.Inf(1)
				settings := &Settings{GapTolerance: 1e-9, MaxIterations: 20000, Callback: func(p Progress) bool {
					if p.Primal > last+1e-12 {
						t.Errorf("%v: f rose from %g to %g at iteration %d", corr, last, p.Primal, p.Iteration)
					}
					last = p.Primal
					return true
				}}
				m := mk(corr)
				r, err := Minimize(context.Background(), Problem{Objective: testQuadDistance{testDistance{b}}, LMO: testSimplex{n}}, settings, m)
				if err != nil {
					t.Fatal(err)
				}
				if r.Status != GapConverged || r.F > fOpt+1e-8 {
					t.Fatalf("%v: %v with f = %.12g, optimum %.12g", corr, r.Status, r.F, fOpt)
				}
				var sum float64
				for _, v := range r.X {
					if v < -1e-12 {
						t.Fatalf("%v: x leaves the simplex (%g)", corr, v)
					}
					sum += v
				}
				if math.Abs(sum-1) > 1e-9 {
					t.Fatalf("%v: Σx = %g", corr, sum)
				}
				checkDecomposition(t, r.X, m.(activeSetMethod).activeCore().as)
				if (corr == CorrectionQuadratic) != (r.Stats.Corrections > 0) {
					t.Errorf("%v: %d corrections", corr, r.Stats.Corrections)
				}
			}
		})
	}
}

// TestCorrectionNeedsLineMinimizer: quadratic corrections refuse an
// objective without an exact line search, and unknown rules are errors.
func TestCorrectionNeedsLineMinimizer(t *testing.T) {
	b := []float64{0.2, 0.3, 0.5}
	for _, m := range []Method{&BlendedPairwise{Correction: CorrectionQuadratic}, &LazyAwayFW{Correction: CorrectionQuadratic}} {
		_, err := Minimize(context.Background(), Problem{Objective: testDistance{b}, LMO: testSimplex{3}}, &Settings{MaxIterations: 5}, m)
		if err == nil || !strings.Contains(err.Error(), "exact line search") {
			t.Errorf("%T: got %v, want an error about the exact line search", m, err)
		}
	}
	_, err := Minimize(context.Background(), Problem{Objective: testQuadDistance{testDistance{b}}, LMO: testSimplex{3}},
		&Settings{MaxIterations: 5}, &AwayFW{Correction: Correction(7)})
	if err == nil || !strings.Contains(err.Error(), "unknown correction") {
		t.Errorf("got %v, want an unknown correction error", err)
	}
	if CorrectionQuadratic.String() != "quadratic" || Correction(7).String() != "Correction(7)" {
		t.Error("Correction.String")
	}
}

// TestLineSearchGolden: the golden-section search finds the minimizer of
// a quadratic along a line within its tolerance, inside [0, γmax], at
// γmax when the minimizer is beyond, with an unbounded γmax by doubling,
// and returns 0 along an ascent direction; f never increases.
func TestLineSearchGolden(t *testing.T) {
	b := []float64{0.3, -0.2, 0.9, 0.1}
	obj := testDistance{b}
	x := []float64{1, 0, 0, 0}
	var stats Stats
	s := &State{X: x, Grad: make([]float64, 4), Obj: obj, stats: &stats}
	s.Eval()
	var ls lineSearcher
	if err := ls.init(s, LineSearch{Rule: LineSearchGolden}, "test"); err != nil {
		t.Fatal(err)
	}
	d := []float64{-1, 0, 1, 0} // toward e_2
	// f(x + γd) = (1−γ−0.3)² + 0.04 + (γ−0.9)² + 0.01: minimizer γ* = 0.8.
	for _, tc := range []struct{ gmax, want float64 }{{1, 0.8}, {0.5, 0.5}, {math.Inf(1), 0.8}, {100, 0.8}} {
		g := ls.search(s, d, tc.gmax)
		if math.Abs(g-tc.want) > 1e-6 {
			t.Errorf("γmax %g: γ = %.9g, want %g", tc.gmax, g, tc.want)
		}
	}
	for i := range d {
		d[i] = -d[i]
	}
	if g := ls.search(s, d, 1); g != 0 {
		t.Errorf("ascent direction: γ = %g", g)
	}
	if stats.FuncEvals == 0 || stats.FuncGradEvals != 1 {
		t.Errorf("%d function and %d gradient evaluations: the search must use values only", stats.FuncEvals, stats.FuncGradEvals)
	}
	if r, err := ParseLineSearchRule("golden"); err != nil || r != LineSearchGolden || r.String() != "golden" {
		t.Errorf("ParseLineSearchRule: %v %v", r, err)
	}
}
