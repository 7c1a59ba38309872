package lmo

import (
	"context"
	"math"
	"testing"

	"github.com/lazycg/lazycg"
)

// nuclearFirstSolve replays the first solve of MinimizeUntil with
// improvement target improve on a fresh copy of the oracle (newOracle):
// whether it stops early, in its first restart cycle, with a vertex whose
// rounded value misses improve (so that MinimizeUntil runs a second solve), and
// that value. The context's deadline passes after its first check, as in
// TestNuclearFinishKeepsFirstPair, so that a solve needing a second cycle
// is time-limited instead.
func nuclearFirstSolve(t *testing.T, newOracle func() lazycg.LMO, c []float64, improve float64) (bool, float64) {
	t.Helper()
	var (
		sol svdSolution
		val float64
		err error
	)
	ctx := &checksThen{Context: context.Background(), n: 1, err: context.DeadlineExceeded}
	switch o := newOracle().(type) {
	case *NuclearBall:
		dst := make([]float64, len(c))
		if err = o.load(c); err != nil {
			t.Fatal(err)
		}
		if sol, err = o.svd.solve(ctx, "test", &o.cost, o.Tol, o.MaxIter, improveSigma(improve, o.r)); err != nil {
			t.Fatal(err)
		}
		o.write(dst, sol)
		val, err = o.value(c, dst)
	case *NuclearBallOn:
		dst := make([]float64, len(c))
		o.cost.val = c
		if sol, err = o.svd.solve(ctx, "test", &o.cost, o.Tol, o.MaxIter, improveSigma(improve, o.r)); err != nil {
			t.Fatal(err)
		}
		o.write(dst, sol)
		val, err = basicValue("test", c, dst)
		o.cost.val = nil
	default:
		t.Fatalf("unexpected oracle %T", o)
	}
	if err != nil {
		t.Fatal(err)
	}
	return sol.early && !(val < improve), val
}

// TestNuclearFinishKeepsFirstPair checks MinimizeUntil of the nuclear-norm
// balls when the first Lanczos solve stops early (its Ritz value beats the
// target) but the rounded value of its vertex misses Improve, so that a
// second solve runs, and the deadline passes between the two: the second
// solve then returns the fallback vertex of C's largest entry, and the
// call must keep the first solve's better vertex (before, it returned the
// fallback), with a valid bound and no claimed improvement.
func TestNuclearFinishKeepsFirstPair(t *testing.T) {
	const r = 1.0 // target −Improve/R without rounding
	for _, kind := range []string{"dense", "Ω"} {
		t.Run(kind, func(t *testing.T) {
			hits := 0
			for trial := 0; trial < 200 && hits < 3; trial++ {
				rng := basicRNG(uint64(700 + trial))
				m, n := 3+rng.IntN(12), 3+rng.IntN(12)
				c := make([]float64, m*n)
				for i := range c {
					c[i] = rng.NormFloat64()
				}
				omega := make([]int, m*n)
				for f := range omega {
					omega[f] = f
				}
				newOracle := func() lazycg.LMO {
					if kind == "dense" {
						b, err := NewNuclearBall(m, n, r)
						if err != nil {
							t.Fatal(err)
						}
						b.Tol = 1e-300 // never converges: each cycle ends early or restarts
						return b
					}
					b, err := NewNuclearBallOn(m, n, r, omega)
					if err != nil {
						t.Fatal(err)
					}
					b.Tol = 1e-300
					return b
				}
				sigma := basicSingularValues(t, m, n, c)[0]
				// Improve a few ulps around −R·σ₁ until the first solve
				// stops early with a rounded value that misses it.
				improve, first, found := 0.0, 0.0, false
				for k := -8; k <= 8 && !found; k++ {
					improve = -r * sigma * (1 + float64(k)*0x1p-52)
					found, first = nuclearFirstSolve(t, newOracle, c, improve)
				}
				if !found {
					continue
				}
				hits++
				t.Logf("trial %d: %d×%d, Improve %v", trial, m, n, improve)
				largest := 0.0
				for _, x := range c {
					largest = max(largest, math.Abs(x))
				}
				if !(first < -r*largest) {
					t.Fatalf("trial %d: the first vertex's value %v is not better than the fallback's %v; the test needs it", trial, first, -r*largest)
				}
				o := newOracle().(lazycg.EarlyStopper)
				dst := make([]float64, len(c))
				// One check (the first solve's) before the deadline passes:
				// the second solve finds it passed before its first cycle.
				ctx := &checksThen{Context: context.Background(), n: 1, err: context.DeadlineExceeded}
				res, err := o.MinimizeUntil(ctx, dst, c, lazycg.StopRule{Improve: improve, Certify: math.Inf(1)})
				if err != nil {
					t.Fatalf("trial %d: %v", trial, err)
				}
				if ctx.n != -1 {
					t.Fatalf("trial %d: the call checked its context %d times, want 2 (one per solve)", trial, 1-ctx.n)
				}
				if res.Value != basicNaiveDot(c, dst) {
					t.Fatalf("trial %d: Value %v, but c·dst = %v", trial, res.Value, basicNaiveDot(c, dst))
				}
				if res.Value > first {
					t.Fatalf("trial %d: Value %.17g is worse than the first solve's %.17g (the fallback vertex is %.17g)", trial, res.Value, first, -r*largest)
				}
				if !res.Found || res.Reason != lazycg.StopTimeLimit {
					t.Errorf("trial %d: %+v, want a found, time-limited answer", trial, res)
				}
				if !(res.Bound <= res.Value) || res.Bound > -r*sigma {
					t.Errorf("trial %d: Bound %v, Value %v, optimum %v", trial, res.Bound, res.Value, -r*sigma)
				}
				if res.Reason == lazycg.StopImproving || res.Value < improve {
					// res.Value < improve cannot be: the first value missed it.
					t.Errorf("trial %d: %+v with Improve %v", trial, res, improve)
				}
				var dense []float64
				if kind == "dense" {
					dense = dst
				} else {
					dense = basicScatter(m, n, omega, dst)
				}
				if g := sumSlice(basicSingularValues(t, m, n, dense)) / r; math.Abs(g-1) > 1e-9 {
					t.Errorf("trial %d: ‖dst‖_*/R = %v, want 1 (a vertex)", trial, g)
				}
			}
			if hits == 0 {
				t.Fatal("no cost found whose first solve misses Improve by rounding")
			}
		})
	}
}

func sumSlice(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s
}
