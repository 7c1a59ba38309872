package lazycg_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/lmo"
	"github.com/lazycg/lazycg/objective"
)

// TestInfiniteToleranceNeedsProof checks that an infinite GapTolerance or
// RelGapTolerance (accepted by Settings.Check) does not end a run as
// GapConverged before any dual bound is proven: the gap is then +Inf, and
// Inf ≤ Inf made FrankWolfe stop at iteration 0 "converged" with
// DualBound −Inf.
func TestInfiniteToleranceNeedsProof(t *testing.T) {
	for _, st := range []lazycg.Settings{
		{GapTolerance: math.Inf(1)},
		{RelGapTolerance: math.Inf(1)},
	} {
		poly, _ := lmo.NewProbabilitySimplex(5, 1)
		obj, _ := objective.NewDistance([]float64{0.1, 0.5, 0.2, 0.9, 0.3})
		st := st
		res, err := lazycg.Minimize(context.Background(), lazycg.Problem{Objective: obj, LMO: poly}, &st, &lazycg.FrankWolfe{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status == lazycg.GapConverged && math.IsInf(res.DualBound, -1) {
			t.Errorf("%+v: status %v with dual bound %g: converged without any proof", st, res.Status, res.DualBound)
		}
		if math.IsInf(res.DualBound, -1) {
			t.Errorf("%+v: no dual bound at the end (status %v, %d iterations)", st, res.Status, res.Stats.Iterations)
		}
	}
}

// TestCheckMemberNonFinite checks that CheckMember rejects points with
// infinite or NaN entries, and names the entry: the tolerance
// ScaledTol(rel, s, x) scaled by max |x_i| was +Inf for x = (+Inf, 0, 0),
// under which the simplex, the ℓ1 ball, the box, the Birkhoff polytope,
// the hypersimplex, the spanning tree polytope and products accepted it,
// and NaN for a NaN entry, which the checkers then blamed on entry 0.
func TestCheckMemberNonFinite(t *testing.T) {
	simplex, _ := lmo.NewProbabilitySimplex(3, 1)
	l1, _ := lmo.NewL1Ball(3, 1)
	box, _ := lmo.NewBox([]float64{0, 0, 0}, []float64{1, 1, 1})
	hyper, _ := lmo.NewHypersimplex(3, 1, 1)
	tree, _ := lmo.CompleteGraphSpanningTree(3)
	prod, _ := lmo.NewProduct(simplex, l1)
	birk, _ := lmo.NewBirkhoff(2)
	for _, c := range []struct {
		name string
		lmo  lazycg.LMO
		x    []float64
	}{
		{"simplex", simplex, []float64{math.Inf(1), 0, 0}},
		{"l1", l1, []float64{math.Inf(1), 0, 0}},
		{"box", box, []float64{math.Inf(1), 0, 0}},
		{"hypersimplex", hyper, []float64{math.Inf(1), 0, 0}},
		{"spanning tree", tree, []float64{math.Inf(1), 0, 1}},
		{"product", prod, []float64{1, 0, 0, math.Inf(1), 0, 0}},
		{"birkhoff", birk, []float64{math.Inf(1), 0, 0, math.Inf(1)}},
	} {
		if err := lazycg.CheckMember(c.lmo, c.x); err == nil {
			t.Errorf("%s: CheckMember(%v) = nil, want an error", c.name, c.x)
		}
	}
	err := lazycg.CheckMember(simplex, []float64{0.5, 0.5, math.NaN()})
	if err == nil || !strings.Contains(err.Error(), "entry 2") {
		t.Errorf("CheckMember with a NaN entry 2: %v, want an error naming entry 2", err)
	}
	rel := 1e-9
	if tol := lazycg.ScaledTol(rel, 1, []float64{math.Inf(1), 2}); tol != rel*2 {
		t.Errorf("ScaledTol with an infinite entry = %g, want 2e-9 (finite entries only)", tol)
	}
	if tol := lazycg.ScaledTol(rel, 1, []float64{math.NaN(), 3}); tol != rel*3 {
		t.Errorf("ScaledTol with a NaN entry = %g, want 3e-9 (finite entries only)", tol)
	}
}

// unprovenFirstLMO is an exact oracle of the box [0,1]^n except for its
// first call (the one that gives Φ0 when the run starts at a given X0),
// which answers like an inexact oracle that proved nothing
// (Bound −Inf, Reason StopGap), a legal LinearResult.
type unprovenFirstLMO struct {
	n     int
	calls int
}

func (b *unprovenFirstLMO) Dim() int { return b.n }

func (b *unprovenFirstLMO) Minimize(_ context.Context, dst, c []float64) (lazycg.LinearResult, error) {
	b.calls++
	v := 0.0
	for i := range c {
		dst[i] = 0
		if c[i] < 0 {
			dst[i] = 1
			v += c[i]
		}
	}
	if b.calls == 1 {
		return lazycg.LinearResult{Found: true, Value: v, Bound: math.Inf(-1), Reason: lazycg.StopGap}, nil
	}
	return lazycg.Exact(v), nil
}

// TestPhi0FromUnprovenAnswer checks that the parameter-free lazy methods
// start when the LMO call that gives Φ0 proves no bound (Bound −Inf): Φ0
// was half an infinite Wolfe gap, and the first weak separation call
// failed with "need Φ > 0 finite"; now Φ0 comes from the binary search.
func TestPhi0FromUnprovenAnswer(t *testing.T) {
	target := []float64{0.3, -0.5, 1.7, 0.5, 0.9}
	fstar := 0.0
	for _, v := range target {
		c := math.Min(1, math.Max(0, v))
		fstar += (c - v) * (c - v)
	}
	for _, m := range []lazycg.Method{&lazycg.LazyCG{}, &lazycg.LazyAwayFW{}, &lazycg.LazyBPCG{}, &lazycg.BlendedCG{}, &lazycg.LazyPairwiseFW{}} {
		obj, _ := objective.NewDistance(target)
		res, err := lazycg.Minimize(context.Background(), lazycg.Problem{Objective: obj, LMO: &unprovenFirstLMO{n: len(target)}, X0: make([]float64, len(target))},
			&lazycg.Settings{MaxIterations: 5000}, m)
		if err != nil {
			t.Errorf("%T: %v", m, err)
			continue
		}
		if math.IsInf(res.DualBound, -1) || res.DualBound > fstar+1e-9 || res.F-fstar > 1e-3 || res.F < fstar-1e-9 {
			t.Errorf("%T: status %v, F %g, dual %g, want both near f* = %g", m, res.Status, res.F, res.DualBound, fstar)
		}
	}
	// The theorem-parameter methods need a proven Φ0 and say so.
	obj, _ := objective.NewDistance(target)
	_, err := lazycg.Minimize(context.Background(), lazycg.Problem{Objective: obj, LMO: &unprovenFirstLMO{n: len(target)}, X0: make([]float64, len(target))},
		&lazycg.Settings{MaxIterations: 10}, &lazycg.LazyTextbook{C: 10})
	if err == nil || !strings.Contains(err.Error(), "proves no bound") {
		t.Errorf("lazy textbook: %v, want an error saying the LMO's answer proves no bound", err)
	}
}
