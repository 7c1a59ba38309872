package cbc_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lazycg/lazycg/mip"
)

// relaxation returns the LP relaxation of s, closed at the end of the test.
func relaxation(t *testing.T, s *mip.Solver) *mip.Solver {
	t.Helper()
	q, err := s.Relaxation(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	r := q.(*mip.Solver)
	t.Cleanup(r.Close)
	return r
}

// TestRelaxationP0033 checks the LP relaxation of p0033 against MIPLIB's
// published values: LP optimum 2520.57, integer optimum 3089.
func TestRelaxationP0033(t *testing.T) {
	m := cbcFixture(t, "p0033")
	s := cbcSolver(t, m, mip.Options{Threads: 1})
	r := relaxation(t, s)
	dst := make([]float64, r.Dim())
	res, err := r.Minimize(context.Background(), dst, m.Obj)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Found || math.Abs(res.Value-2520.5717) > 1e-3 || math.Abs(dot(m.Obj, dst)-res.Value) > 1e-6 {
		t.Errorf("LP relaxation: %+v (c·x %g), want the value 2520.5717", res, dot(m.Obj, dst))
	}
	frac := 0
	for _, v := range dst {
		if math.Abs(v-math.Round(v)) > 1e-6 {
			frac++
		}
	}
	if frac == 0 {
		t.Error("the LP optimum of p0033 is integral: the relaxation kept the integrality")
	}
	if err := m.Check(dst, 1e-6); err == nil {
		t.Error("the fractional LP vertex passes the integer model's check")
	}
	// The original solver is untouched: still the integer optimum.
	if v, _ := s.Minimize(context.Background(), dst, m.Obj); math.Abs(v.Value-3089) > 1e-6 {
		t.Errorf("MIP after Relaxation: %+v, want 3089", v)
	}
	// A relaxation of a relaxation is the same LP.
	rr := relaxation(t, r)
	if v, _ := rr.Minimize(context.Background(), dst, m.Obj); math.Abs(v.Value-res.Value) > 1e-6 {
		t.Errorf("relaxation of the relaxation: %g, want %g", v.Value, res.Value)
	}
	s.Close()
	if _, err := s.Relaxation(context.Background()); !errors.Is(err, mip.ErrClosed) {
		t.Errorf("Relaxation of a closed solver: %v, want ErrClosed", err)
	}
}

// TestRelaxationBooleanQuadric compares the LP relaxation of Boolean
// quadric formulations with their integer hull on random costs: the LP
// value is never above the MIP optimum, and on a triangle whose McCormick
// relaxation has the fractional vertex x = ½, y_12 = y_13 = ½, y_23 = 0 it
// is strictly below.
func TestRelaxationBooleanQuadric(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	strict := false
	for _, tc := range []struct {
		n    int
		p    float64
		seed uint64
	}{{3, 1, 1}, {6, 0.6, 2}, {8, 0.5, 3}} {
		q, f := randomBQP(t, tc.n, tc.p, tc.seed)
		s := buildSolver(t, f, nil)
		r := relaxation(t, s)
		if r.Dim() != s.Dim() {
			t.Fatalf("relaxation has dimension %d, the polytope %d", r.Dim(), s.Dim())
		}
		costs := [][]float64{mip.QUBOObjective(q)}
		if tc.n == 3 {
			// x_0 costs 1, y_01 and y_02 −1, y_12 +1 (couplings in order
			// (0,1), (0,2), (1,2)): integer optimum 0, LP −½.
			costs = append(costs, []float64{1, 0, 0, -1, -1, 1})
		}
		for range 20 {
			c := make([]float64, s.Dim())
			for i := range c {
				c[i] = 2*rng.Float64() - 1
			}
			costs = append(costs, c)
		}
		dst := make([]float64, s.Dim())
		for k, c := range costs {
			mipRes, err := s.Minimize(context.Background(), dst, c)
			if err != nil {
				t.Fatal(err)
			}
			lpRes, err := r.Minimize(context.Background(), dst, c)
			if err != nil {
				t.Fatal(err)
			}
			if lpRes.Value > mipRes.Value+1e-7 {
				t.Errorf("n=%d cost %d: LP value %g above the MIP optimum %g", tc.n, k, lpRes.Value, mipRes.Value)
			}
			if lpRes.Value < mipRes.Value-1e-6 {
				strict = true
			}
			if math.Abs(dot(c, dst)-lpRes.Value) > 1e-6 {
				t.Errorf("n=%d cost %d: LP vertex has c·x %g, reported %g", tc.n, k, dot(c, dst), lpRes.Value)
			}
			// The LP vertex satisfies the rows and bounds (integrality aside).
			lp := *f.Model
			lp.Integer = make([]bool, len(lp.Integer))
			if !cbcFeasible(&lp, dst) {
				t.Errorf("n=%d cost %d: LP vertex %v violates the relaxation", tc.n, k, dst)
			}
			if tc.n == 3 && k == 1 && math.Abs(lpRes.Value+0.5) > 1e-7 {
				t.Errorf("triangle: LP value %g, want −½ (%v)", lpRes.Value, dst)
			}
			b, err := r.RelaxationBound(context.Background(), c)
			if err != nil || math.Abs(b-lpRes.Value) > 1e-6 {
				t.Errorf("n=%d cost %d: RelaxationBound %g (%v), LP value %g", tc.n, k, b, err, lpRes.Value)
			}
		}
	}
	if !strict {
		t.Error("no cost separated the LP relaxation from the integer hull")
	}
}
