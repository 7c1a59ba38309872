package integration

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/lmo"
	"github.com/lazycg/lazycg/objective"
)

// pwExtChecked wraps an objective and records the first evaluated point
// (iterate or line-search trial) that the polytope's own constraint check
// rejects.
type pwExtChecked struct {
	obj   lazycg.Objective
	check func([]float64) error
	err   error
	last  []float64
}

func (c *pwExtChecked) Dim() int { return c.obj.Dim() }
func (c *pwExtChecked) see(x []float64) {
	c.last = append(c.last[:0], x...)
	if c.err == nil {
		c.err = c.check(x)
	}
}
func (c *pwExtChecked) Func(x []float64) float64 { c.see(x); return c.obj.Func(x) }
func (c *pwExtChecked) Grad(dst, x []float64)    { c.see(x); c.obj.Grad(dst, x) }

// pwExtMethods are the methods of this work package, with LLCG and
// Garber–Hazan in their practical configurations (estimated constants:
// μ = 1, D = √n, S = β = 2 for ‖x − b‖²).
func pwExtMethods() map[string]func() lazycg.Method {
	return map[string]func() lazycg.Method{
		// The path and assignment polytopes are {x ≥ 0 : Ax = b}; the flow
		// polytope test supplies a step bound instead.
		"pcg":       func() lazycg.Method { return &lazycg.PCG{AssumeStandardForm: true} },
		"lpcg":      func() lazycg.Method { return &lazycg.LPCG{K: 1.1, AssumeStandardForm: true} },
		"afw":       func() lazycg.Method { return &lazycg.AwayFW{} },
		"lazy-afw":  func() lazycg.Method { return &lazycg.LazyAwayFW{K: 1.1} },
		"bpcg":      func() lazycg.Method { return &lazycg.BlendedPairwise{} },
		"lazy-bpcg": func() lazycg.Method { return &lazycg.LazyBPCG{K: 1.1} },
		"llcg":      func() lazycg.Method { return &lazycg.LLCG{S: 2, Beta: 2, LineSearch: true, AdaptivePhi: true} },
		"local-cg":  func() lazycg.Method { return &lazycg.LocalCG{S: 2, Beta: 2, LineSearch: true, AdaptiveRadius: true} },
	}
}

// pwCheckDecomposition verifies an active-set method's decomposition with
// the polytope's constraint check: vertices feasible and 0/1 (or integral),
// weights positive summing to 1, combination equal to x.
func pwCheckDecomposition(m lazycg.Method, x []float64, check func([]float64) error) error {
	h, ok := m.(interface{ ActiveSet() *lazycg.ActiveSet })
	if !ok {
		return nil
	}
	as := h.ActiveSet()
	v := make([]float64, len(x))
	y := make([]float64, len(x))
	var sum float64
	for k := range as.Len() {
		as.Vertex(v, k)
		if err := check(v); err != nil {
			return fmt.Errorf("active vertex %d: %w", k, err)
		}
		for i, vi := range v {
			if vi != math.Round(vi) {
				return fmt.Errorf("active vertex %d has a fractional entry %g at %d", k, vi, i)
			}
		}
		if !(as.Weight(k) > 0) {
			return fmt.Errorf("weight %d is %g", k, as.Weight(k))
		}
		sum += as.Weight(k)
	}
	if math.Abs(sum-1) > 1e-12 {
		return fmt.Errorf("weights sum to %.17g", sum)
	}
	as.Compute(y)
	for i := range y {
		if math.Abs(y[i]-x[i]) > 1e-9 {
			return fmt.Errorf("x[%d] = %.17g, decomposition gives %.17g", i, x[i], y[i])
		}
	}
	return nil
}

// TestPwPathPolytope runs every method on a layered path polytope (the
// video colocalization polytope of section 7, of the form {x ≥ 0 : Ax = b})
// and checks every evaluated point and every decomposition with the
// polytope's constraints, and that all methods agree on the optimum.
func TestPwPathPolytope(t *testing.T) {
	pp, err := lmo.LayeredDAG(6, 5, 0.5, 3)
	if err != nil {
		t.Fatal(err)
	}
	n := pp.Dim()
	obj, err := objective.RandomDistance(n, 4)
	if err != nil {
		t.Fatal(err)
	}
	check := func(x []float64) error { return pp.Check(x, 1e-9) }
	x0 := make([]float64, n)
	pp.Vertex(x0)
	best, dual := math.Inf(1), math.Inf(-1)
	results := map[string]float64{}
	for name, mk := range pwExtMethods() {
		ch := &pwExtChecked{obj: obj, check: check}
		m := mk()
		var decompErr error
		cb := func(pr lazycg.Progress) bool {
			if decompErr == nil && obj.Func(ch.last) == pr.F {
				decompErr = pwCheckDecomposition(m, ch.last, check)
			}
			return true
		}
		res, err := lazycg.Minimize(context.Background(), lazycg.Problem{Objective: ch, LMO: pp, X0: x0},
			&lazycg.Settings{MaxIterations: 3000, GapTolerance: 1e-6, Callback: cb}, m)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if ch.err != nil {
			t.Fatalf("%s: evaluated a point outside P: %v", name, ch.err)
		}
		if decompErr != nil {
			t.Fatalf("%s: %v", name, decompErr)
		}
		if err := check(res.X); err != nil {
			t.Fatalf("%s: result outside P: %v", name, err)
		}
		results[name] = res.F
		best = math.Min(best, res.F)
		dual = math.Max(dual, res.DualBound)
		t.Logf("%-9s f=%.10f dual=%.10f %v: %d iterations, %d LMO calls, %d cache hits", name, res.F, res.DualBound,
			res.Status, res.Stats.Iterations, res.Stats.LMOCalls, res.Stats.CacheHits)
	}
	if dual > best+1e-9 {
		t.Fatalf("a dual bound %.12g exceeds a primal value %.12g", dual, best)
	}
	for name, f := range results {
		if f-dual > 1e-5 {
			t.Errorf("%s: f = %.10f, proven optimum ≥ %.10f", name, f, dual)
		}
	}
}

// pwFlow is lmo's flow polytope with the exact pairwise step bound: flow
// conservation holds along v⁺ − v⁻, so only the arc bounds limit the step.
type pwFlow struct {
	*lmo.FlowPolytope
	low, cap []float64
}

func (f pwFlow) MaxPairwiseStep(x, vp, vm []float64) float64 {
	eta := 1.0
	for i := range x {
		switch d := vp[i] - vm[i]; {
		case d < 0:
			eta = math.Min(eta, (x[i]-f.low[i])/-d)
		case d > 0:
			eta = math.Min(eta, (f.cap[i]-x[i])/d)
		}
	}
	return math.Max(eta, 0)
}

// TestPwFlowPolytope runs every method on the DIMACS min-cost flow fixture
// of lmo (lower bounds and capacities, non-0/1 vertices); PCG and LPCG use
// the flow polytope's exact step bound. Every evaluated point is checked
// with FlowPolytope.Check.
func TestPwFlowPolytope(t *testing.T) {
	net, err := lmo.ReadDIMACSFile("lmo/testdata/flow_small.min")
	if err != nil {
		t.Skipf("flow fixture unavailable: %v", err)
	}
	fp, err := lmo.NewFlowPolytope(net)
	if err != nil {
		t.Fatal(err)
	}
	wrapped := pwFlow{FlowPolytope: fp}
	for _, a := range net.Arcs {
		wrapped.low = append(wrapped.low, float64(a.Low))
		wrapped.cap = append(wrapped.cap, float64(a.Cap))
	}
	n := fp.Dim()
	b := []float64{1.5, 2.5, 0.5, 1.2, 3.7}[:n]
	obj, err := objective.NewDistance(b)
	if err != nil {
		t.Fatal(err)
	}
	check := func(x []float64) error { return fp.Check(x, 1e-9) }
	x0 := make([]float64, n)
	fp.Vertex(x0)
	best, dual := math.Inf(1), math.Inf(-1)
	for name, mk := range pwExtMethods() {
		if name == "llcg" || name == "local-cg" {
			continue // their D = √n default assumes a 0/1 polytope
		}
		ch := &pwExtChecked{obj: obj, check: check}
		m := mk()
		var decompErr error
		cb := func(pr lazycg.Progress) bool {
			if decompErr == nil && obj.Func(ch.last) == pr.F {
				decompErr = pwCheckDecomposition(m, ch.last, check)
			}
			return true
		}
		res, err := lazycg.Minimize(context.Background(), lazycg.Problem{Objective: ch, LMO: wrapped, X0: x0},
			&lazycg.Settings{MaxIterations: 2000, GapTolerance: 1e-8, Callback: cb}, m)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if ch.err != nil {
			t.Fatalf("%s: evaluated a point outside P: %v", name, ch.err)
		}
		if decompErr != nil {
			t.Fatalf("%s: %v", name, decompErr)
		}
		best = math.Min(best, res.F)
		dual = math.Max(dual, res.DualBound)
		if res.Gap() > 1e-6 {
			t.Errorf("%s: gap %g after %d iterations (%v)", name, res.Gap(), res.Stats.Iterations, res.Status)
		}
	}
	if dual > best+1e-9 {
		t.Fatalf("dual bound %.12g exceeds primal %.12g", dual, best)
	}
}
