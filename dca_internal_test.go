package lazycg

import (
	"context"
	"testing"

	"github.com/lazycg/lazycg/internal/testutil"
)

// TestActiveCoreKeep checks that an active-set method keeps its active
// set across runs only when asked to and when the set represents the new
// start point.
func TestActiveCoreKeep(t *testing.T) {
	n := 3
	s := &State{X: []float64{1, 0, 0}, Grad: make([]float64, n), Obj: testDistance{b: []float64{0.2, 0.3, 0.5}}}
	m := &BlendedPairwise{}
	if err := m.Init(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	c := m.activeCore()
	k := c.as.Add([]float64{0, 1, 0})
	c.as.FWStep(k, 0.5)
	x := []float64{0.5, 0.5, 0}
	for _, tc := range []struct {
		keep  bool
		start []float64
		atoms int
	}{
		{false, x, 1},                     // not asked: a fresh set with the start
		{true, []float64{0.4, 0.6, 0}, 1}, // asked, but the set is not at the start
		{true, x, 2},                      // asked, and the set represents the start
	} {
		// Rebuild the two-atom set at x before each case.
		c.as.Init([]float64{1, 0, 0})
		k := c.as.Add([]float64{0, 1, 0})
		c.as.FWStep(k, 0.5)
		c.keep = tc.keep
		copy(s.X, tc.start)
		if err := m.Init(context.Background(), s); err != nil {
			t.Fatal(err)
		}
		if c.as.Len() != tc.atoms {
			t.Errorf("keep=%v start %v: %d atoms, want %d", tc.keep, tc.start, c.as.Len(), tc.atoms)
		}
	}
}

// rowsLS is f(x) = Σ_i (a_i·x − b_i)² with the optional interfaces of a
// least-squares objective: quadraticLine and FiniteSum.
type rowsLS struct {
	a [][]float64
	b []float64
}

func (f rowsLS) Dim() int { return len(f.a[0]) }
func (f rowsLS) Func(x []float64) float64 {
	var v float64
	for i, r := range f.a {
		d := dot(r, x) - f.b[i]
		v += d * d
	}
	return v
}
func (f rowsLS) Grad(dst, x []float64) { f.BatchGrad(dst, x, []int{0, 1, 2}) }
func (f rowsLS) Terms() int            { return len(f.a) }
func (f rowsLS) BatchGrad(dst, x []float64, batch []int) {
	clear(dst)
	for _, i := range batch {
		axpy(dst, 2*(dot(f.a[i], x)-f.b[i])*float64(len(f.a))/float64(len(batch)), f.a[i])
	}
}
func (f rowsLS) LineCoeffs(x, d []float64) (slope, curv float64) {
	for i, r := range f.a {
		res, ad := dot(r, x)-f.b[i], dot(r, d)
		slope += 2 * res * ad
		curv += ad * ad
	}
	return slope, curv
}

// TestDCModel checks the subproblem objective m = F − lin·x + c: values,
// gradients, the finite-sum batch gradients and the exact line search,
// which the model has exactly when F has them.
func TestDCModel(t *testing.T) {
	f := rowsLS{a: [][]float64{{1, 2, 0}, {0, 1, -1}, {3, 0, 1}}, b: []float64{1, -1, 2}}
	lin := []float64{0.5, -1, 2}
	m, base := newDCModel(f, lin)
	base.c = 0.25
	x, d := []float64{0.2, 0.3, 0.5}, []float64{0.4, -0.1, -0.3}
	if got, want := m.Func(x), f.Func(x)-dot(lin, x)+0.25; got != want {
		t.Errorf("m(x) = %g, want %g", got, want)
	}
	g, gf := make([]float64, 3), make([]float64, 3)
	m.Grad(g, x)
	f.Grad(gf, x)
	fs, ok := m.(FiniteSum)
	if !ok {
		t.Fatal("the model of a finite sum is not a FiniteSum")
	}
	bg := make([]float64, 3)
	fs.BatchGrad(bg, x, []int{0, 1, 2})
	for i := range g {
		if g[i] != gf[i]-lin[i] || bg[i] != g[i] || fs.Terms() != 3 {
			t.Fatalf("∇m = %v, batch %v, want ∇F − lin = %v − %v", g, bg, gf, lin)
		}
	}
	lm, ok := m.(LineMinimizer)
	if !ok {
		t.Fatal("the model of a quadratic is not a LineMinimizer")
	}
	gamma := lm.LineMinimize(x, d, g, 1)
	y := make([]float64, 3)
	at := func(s float64) float64 { copy(y, x); axpy(y, s, d); return m.Func(y) }
	for s := 0.0; s <= 1; s += 1.0 / 1024 {
		if at(s) < at(gamma)-1e-12 {
			t.Fatalf("line minimum %g at γ = %g, but %g at %g", at(gamma), gamma, at(s), s)
		}
	}
	plain, _ := newDCModel(testDistance{b: []float64{1, 2, 3}}, lin)
	if _, ok := plain.(LineMinimizer); ok {
		t.Error("the model of an objective without LineCoeffs claims an exact line search")
	}
	if _, ok := plain.(FiniteSum); ok {
		t.Error("the model of an objective that is not a finite sum claims to be one")
	}
}

// TestDCModelAllocs: the subproblem objective allocates nothing per
// evaluation.
func TestDCModelAllocs(t *testing.T) {
	f := rowsLS{a: [][]float64{{1, 2, 0}, {0, 1, -1}, {3, 0, 1}}, b: []float64{1, -1, 2}}
	m, _ := newDCModel(f, []float64{0.5, -1, 2})
	x, d, g := []float64{0.2, 0.3, 0.5}, []float64{0.4, -0.1, -0.3}, make([]float64, 3)
	lm := m.(LineMinimizer)
	fg := m.(FuncGrader)
	if a := testutil.Mallocs(100, func() {
		_ = m.Func(x)
		fg.FuncGrad(g, x)
		_ = lm.LineMinimize(x, d, g, 1)
	}); a != 0 {
		t.Errorf("%d allocations in 100 evaluations", a)
	}
}
