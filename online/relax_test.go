package online

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/objective"
)

// weakKSubset is the polytope of 0/1 vectors with m ones whose oracle
// returns optimal vertices with a weak proven bound (Value − slack), as a
// MIP solver stopped at a gap does, and offers the box [0,1]^n as its
// relaxation.
type weakKSubset struct {
	augKSubset
	slack            float64
	relaxed, closed  int
	relaxErr         error
	boxCalls, pCalls int
}

func (p *weakKSubset) Minimize(ctx context.Context, dst, c []float64) (lazycg.LinearResult, error) {
	p.pCalls++
	r, err := p.augKSubset.Minimize(ctx, dst, c)
	if p.slack > 0 {
		r.Bound, r.Reason = r.Value-p.slack, lazycg.StopGap
	}
	return r, err
}

func (p *weakKSubset) Relaxation(context.Context) (lazycg.LMO, error) {
	p.relaxed++
	if p.relaxErr != nil {
		return nil, p.relaxErr
	}
	return &testBox{p: p}, nil
}

// testBox is the box [0,1]^n, closed through its polytope's counter.
type testBox struct{ p *weakKSubset }

func (b *testBox) Dim() int { return b.p.n }

func (b *testBox) Minimize(_ context.Context, dst, c []float64) (lazycg.LinearResult, error) {
	b.p.boxCalls++
	v := 0.0
	for i, ci := range c {
		dst[i] = 0
		if ci < 0 {
			dst[i], v = 1, v+ci
		}
	}
	return lazycg.Exact(v), nil
}

func (b *testBox) Close() { b.p.closed++ }

// TestHindsightRelaxation: when the oracle's bounds are weak, the solve
// over the relaxation gives the hindsight a dual bound that is still below
// min_P F (valid) and close to min over the box (tight), far above the
// weak one; it is skipped when the solve over P closes its gap, switched
// off by a negative share, and its errors are reported with the first
// solve's result intact.
func TestHindsightRelaxation(t *testing.T) {
	const n, m = 8, 2
	rng := rand.New(rand.NewPCG(7, 8))
	sum := objective.NewSum()
	mean := make([]float64, n)
	for range 5 {
		b := make([]float64, n)
		for i := range b {
			b[i] = 0.3 + 0.4*rng.Float64()
			mean[i] += b[i] / 5
		}
		sum.Add(testDistance{b})
	}
	// The sum's minimizer is the mean (inside the box, 8·½ ≠ 2 ones: not in P).
	minBox := sum.Func(mean)

	solve := func(p *weakKSubset, share float64, hs *lazycg.Settings) (*lazycg.Result, error) {
		// Blended pairwise CG: an oracle stopped at a gap is an error of
		// the lazy default's weak separation.
		return solveHindsight(context.Background(), sum, p, &Settings{Hindsight: hs, HindsightRelaxation: share,
			HindsightMethod: &lazycg.BlendedPairwise{}})
	}
	// min_P F from an exact oracle and a tight tolerance.
	exact := &weakKSubset{augKSubset: augKSubset{n, m}}
	ref, err := solve(exact, -1, &lazycg.Settings{RelGapTolerance: 1e-12, MaxIterations: 100000})
	if err != nil || ref.F-ref.DualBound > 1e-9*ref.F {
		t.Fatalf("reference solve: %+v, %v", ref, err)
	}
	minP := ref.F
	if !(minP > minBox+0.1) {
		t.Fatalf("min over P %g not above min over the box %g: the test needs a relaxation gap", minP, minBox)
	}
	if exact.relaxed != 0 {
		t.Errorf("share −1: Relaxation called %d times", exact.relaxed)
	}
	// With the exact oracle the first solve closes the gap: no relaxation.
	exact2 := &weakKSubset{augKSubset: augKSubset{n, m}}
	if _, err := solve(exact2, 0, &lazycg.Settings{RelGapTolerance: 1e-9, MaxIterations: 100000}); err != nil || exact2.relaxed != 0 {
		t.Errorf("gap closed over P: Relaxation called %d times (%v)", exact2.relaxed, err)
	}

	hs := &lazycg.Settings{RelGapTolerance: 1e-12, MaxIterations: 300}
	weak := &weakKSubset{augKSubset: augKSubset{n, m}, slack: 5}
	w, err := solve(weak, -1, hs)
	if err != nil {
		t.Fatal(err)
	}
	if !(w.DualBound < minBox-1) || math.Abs(w.F-minP) > 1e-6*minP {
		t.Fatalf("weak oracle without relaxation: F %g (min %g), bound %g (box %g): want a weak bound", w.F, minP, w.DualBound, minBox)
	}
	p := &weakKSubset{augKSubset: augKSubset{n, m}, slack: 5}
	r, err := solve(p, 0, hs)
	if err != nil {
		t.Fatal(err)
	}
	if p.relaxed != 1 || p.closed != 1 || p.boxCalls == 0 {
		t.Errorf("relaxations %d, closed %d, box calls %d; want 1, 1, > 0", p.relaxed, p.closed, p.boxCalls)
	}
	if r.F != w.F || !(r.DualBound >= w.DualBound) {
		t.Errorf("with the relaxation: F %g, bound %g; without: F %g, bound %g", r.F, r.DualBound, w.F, w.DualBound)
	}
	if r.DualBound > minBox+1e-9*minBox || r.DualBound > minP {
		t.Errorf("relaxed bound %g above min over the box %g or over P %g: not a bound", r.DualBound, minBox, minP)
	}
	if r.DualBound < minBox-1e-6*minBox {
		t.Errorf("relaxed bound %g, min over the box %g: the solve over the box did not converge", r.DualBound, minBox)
	}

	// A failing relaxation leaves the first solve's result.
	bad := &weakKSubset{augKSubset: augKSubset{n, m}, slack: 5, relaxErr: errors.New("no LP")}
	e, err := solve(bad, 0, hs)
	if err == nil || !strings.Contains(err.Error(), "relaxation") || e == nil || e.DualBound != w.DualBound || e.F != w.F {
		t.Errorf("failing relaxation: %+v, %v; want the first solve's result and an error", e, err)
	}
}
