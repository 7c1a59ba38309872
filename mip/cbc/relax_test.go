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
		costs := bqpCosts(q, s.Dim(), rng)
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

// bqpCosts returns the costs the relaxation tests of Boolean quadric
// formulations use: the QUBO objective; on a triangle (q.N = 3) the cost
// x_0 + y_12 − y_01 − y_02 (couplings in order (0,1), (0,2), (1,2)), whose
// integer optimum is 0 and McCormick LP value −½ (second entry); and 20
// random costs in [−1, 1]^dim.
func bqpCosts(q *mip.QUBO, dim int, rng *rand.Rand) [][]float64 {
	costs := [][]float64{mip.QUBOObjective(q)}
	if q.N == 3 {
		costs = append(costs, []float64{1, 0, 0, -1, -1, 1})
	}
	for range 20 {
		c := make([]float64, dim)
		for i := range c {
			c[i] = 2*rng.Float64() - 1
		}
		costs = append(costs, c)
	}
	return costs
}

// TestRelaxationCyclePool checks that the relaxation of a model with a cut
// pool includes the pool's inequalities: with the cycle inequalities of
// mip.CycleCuts the LP value lies between the plain relaxation's and the
// MIP optimum for every cost, and on a triangle — whose Boolean quadric
// polytope the McCormick rows and the 4 cycle inequalities describe — it
// equals the MIP optimum where the plain relaxation is ½ below.
func TestRelaxationCyclePool(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	tighter := false
	for _, tc := range []struct {
		n    int
		p    float64
		seed uint64
	}{{3, 1, 1}, {8, 0.5, 3}, {10, 0.5, 4}} {
		q, f := randomBQP(t, tc.n, tc.p, tc.seed)
		s, plain := buildSolver(t, f, nil), relaxation(t, buildSolver(t, f, nil))
		withPool := *f.Model
		withPool.Cuts = mip.CycleCuts(q)
		r := relaxation(t, buildSolver(t, f, &withPool))
		costs := bqpCosts(q, s.Dim(), rng)
		dst := make([]float64, s.Dim())
		for k, c := range costs {
			opt, err := s.Minimize(context.Background(), dst, c)
			if err != nil {
				t.Fatal(err)
			}
			lo, err := plain.Minimize(context.Background(), dst, c)
			if err != nil {
				t.Fatal(err)
			}
			mid, err := r.Minimize(context.Background(), dst, c)
			if err != nil {
				t.Fatal(err)
			}
			if mid.Value < lo.Value-1e-7 || mid.Value > opt.Value+1e-7 {
				t.Errorf("n=%d cost %d: relaxation with the pool %g outside [%g, %g]", tc.n, k, mid.Value, lo.Value, opt.Value)
			}
			if mid.Value > lo.Value+1e-6 {
				tighter = true
			}
			if tc.n == 3 && k == 1 && (math.Abs(mid.Value-opt.Value) > 1e-7 || math.Abs(lo.Value+0.5) > 1e-7) {
				t.Errorf("triangle: relaxation %g with the pool and %g without, MIP optimum %g; want 0, −½, 0", mid.Value, lo.Value, opt.Value)
			}
		}
	}
	if !tighter {
		t.Error("the cycle inequalities never tightened the relaxation")
	}
}
