package lazycg

import (
	"context"
	"math"
	"strings"
	"testing"
)

// badRegion is ‖x − b‖² over a product of simplices whose gradient
// (grad) or value (value) is bad (NaN or ±Inf) where x₀ > 0.3; at the
// start vertex (x₀ = 0) both are finite, and the minimizer (b₀ = 1) lies
// beyond 0.3, so the methods' line searches (and, without one, their
// steps) reach the bad region.
type badRegion struct {
	testDistance
	bad         float64
	grad, value bool
}

func (o badRegion) in(x []float64) bool { return x[0] > 0.3 }

func (o badRegion) Func(x []float64) float64 {
	if o.value && o.in(x) {
		return o.bad
	}
	return o.testDistance.Func(x)
}

func (o badRegion) Grad(dst, x []float64) {
	o.testDistance.Grad(dst, x)
	if o.grad && o.in(x) {
		dst[0] = o.bad
	}
}

// badSum is badRegion as a finite sum (the stochastic methods' batch
// gradients are bad in the same region).
type badSum struct{ badRegion }

func (f badSum) Terms() int { return len(f.b) }

func (f badSum) BatchGrad(dst, x []float64, batch []int) {
	testSum{f.testDistance}.BatchGrad(dst, x, batch)
	if f.grad && f.in(x) {
		dst[0] = f.bad
	}
}

// badLineMin is ‖x − b‖² whose exact line minimization returns NaN.
type badLineMin struct{ testDistance }

func (badLineMin) LineMinimize(x, d, grad []float64, gmax float64) float64 { return math.NaN() }

// nonFiniteCase is a method of every family, with the structure it needs.
type nonFiniteCase struct {
	name   string
	make   func() Method
	blocks bool // a product with block access
	sum    bool // a finite sum
	// trial: the method searches lines, so the bad values are met at
	// trial points; otherwise at the iterate its step reaches.
	trial bool
	st    Settings
}

func nonFiniteCases() []nonFiniteCase {
	return []nonFiniteCase{
		{name: "fw", make: func() Method { return &FrankWolfe{} }, trial: true},
		{name: "fw-adaptive", make: func() Method { return &FrankWolfe{LineSearch: LineSearch{Rule: LineSearchAdaptive}} }, trial: true},
		{name: "fw-golden", make: func() Method { return &FrankWolfe{LineSearch: LineSearch{Rule: LineSearchGolden}} }, trial: true},
		{name: "fw-monotonic", make: func() Method { return &FrankWolfe{Rule: StepMonotonic} }, trial: true},
		{name: "fw-open-loop", make: func() Method { return &FrankWolfe{Rule: StepAgnostic} }},
		{name: "lazy-textbook", make: func() Method { return &LazyTextbook{C: 4} }},
		{name: "lcg", make: func() Method { return &LazyCG{} }, trial: true},
		{name: "lcg-monotonic", make: func() Method { return &LazyCG{Rule: StepMonotonic} }, trial: true},
		{name: "lcg-concurrent", make: func() Method { return &LazyCG{} }, trial: true,
			st: Settings{SeparatorConfig: SeparatorConfig{Concurrent: true}}},
		{name: "afw", make: func() Method { return &AwayFW{} }, trial: true},
		{name: "lazy-afw", make: func() Method { return &LazyAwayFW{} }, trial: true},
		{name: "bpcg", make: func() Method { return &BlendedPairwise{} }, trial: true},
		{name: "lazy-bpcg", make: func() Method { return &LazyBPCG{} }, trial: true},
		{name: "pfw", make: func() Method { return &PairwiseFW{} }, trial: true},
		{name: "lazy-pfw", make: func() Method { return &LazyPairwiseFW{} }, trial: true},
		{name: "bcg", make: func() Method { return &BlendedCG{} }, trial: true},
		{name: "pcg", make: func() Method { return &PCG{} }, trial: true},
		{name: "lpcg", make: func() Method { return &LPCG{} }, trial: true},
		{name: "llcg", make: func() Method {
			return &LLCG{Mu: 1, D: math.Sqrt2, S: 2, Beta: 2, LineSearch: true, AdaptivePhi: true}
		}, trial: true},
		{name: "local-cg", make: func() Method {
			return &LocalCG{Mu: 1, D: math.Sqrt2, S: 2, Beta: 2, LineSearch: true, AdaptiveRadius: true}
		}, trial: true},
		{name: "llcg-fixed", make: func() Method { return &LLCG{Mu: 1, D: math.Sqrt2, S: 2, Beta: 2, AlphaScale: 100} }},
		{name: "bcfw", blocks: true, make: func() Method { return &BlockFW{} }, trial: true},
		{name: "lazy-bcfw", blocks: true, make: func() Method { return &LazyBlockFW{} }, trial: true},
		{name: "sfw", sum: true, make: func() Method { return &StochasticFW{Seed: 1} }},
		{name: "lazy-sfw", sum: true, make: func() Method { return &LazyStochasticFW{Seed: 1} }},
		// Longer epochs meet the bad region at an inner step's batch
		// gradient.
		{name: "sfw-epoch", sum: true, make: func() Method { return &StochasticFW{Seed: 1, EpochLength: 8} }},
		{name: "lazy-sfw-epoch", sum: true, make: func() Method { return &LazyStochasticFW{Seed: 1, EpochLength: 8} }},
	}
}

// TestNonFiniteObjective: a gradient or value of the objective that is
// NaN or ±Inf only beyond x₀ = 0.3 — at trial points of the line search,
// or at the iterate a step without one reaches — ends the run of every
// method with Status Failure and an error that names the quantity and
// the iteration, and the result is the last good iterate (x₀ ≤ 0.3) with
// its value. A NaN gradient met only inside a line search used to end
// the run as "stalled" without an error (and ±Inf made the searches crawl
// toward the region's edge).
func TestNonFiniteObjective(t *testing.T) {
	type kind struct {
		name        string
		bad         float64
		grad, value bool
		want        string // in the error
	}
	kinds := []kind{
		{"grad NaN", math.NaN(), true, false, "gradient"},
		{"grad +Inf", math.Inf(1), true, false, "gradient"},
		{"grad -Inf", math.Inf(-1), true, false, "gradient"},
		{"value NaN", math.NaN(), false, true, "value"},
		{"value +Inf", math.Inf(1), false, true, "value"},
	}
	for _, tc := range nonFiniteCases() {
		for _, k := range kinds {
			t.Run(tc.name+"/"+k.name, func(t *testing.T) {
				poly := pwProduct{1, 3}
				if tc.blocks {
					poly = pwProduct{2, 3}
				}
				b := make([]float64, poly.Dim())
				b[0] = 1
				if tc.blocks {
					b[poly.m] = 1
				}
				x0 := make([]float64, poly.Dim())
				for blk := range poly.k {
					x0[blk*poly.m+1] = 1
				}
				bad := badRegion{testDistance{b}, k.bad, k.grad, k.value}
				var obj Objective = bad
				if tc.sum {
					obj = badSum{bad}
				}
				p := Problem{Objective: obj, LMO: poly, X0: x0}
				if tc.blocks {
					p.LMO = pwBlocksOf(poly)
				}
				st := tc.st
				st.MaxIterations = 500
				res, err := Minimize(context.Background(), p, &st, tc.make())
				if err == nil || res == nil || res.Status != Failure {
					var status Status
					if res != nil {
						status = res.Status
					}
					t.Fatalf("status %v, error %v; want a failure", status, err)
				}
				msg := err.Error()
				if !strings.HasPrefix(msg, "lazycg: ") || !strings.Contains(msg, "not finite") || !strings.Contains(msg, k.want) ||
					!strings.Contains(msg, "iteration") {
					t.Errorf("error %q: want a lazycg error that says the %s is not finite, and at which iteration", msg, k.want)
				}
				if tc.trial && !strings.Contains(msg, "trial point") && !strings.Contains(msg, "iterate") {
					t.Errorf("error %q does not say where", msg)
				}
				if !CheckFinite(res.X) || bad.in(res.X) || res.F != bad.Func(res.X) || poly.contains(res.X, 1e-9) != nil {
					t.Errorf("result x = %v, f = %g: want the last good iterate (x₀ ≤ 0.3) with its value", res.X, res.F)
				}
				if res.DualBound > res.F {
					t.Errorf("dual bound %g above f = %g", res.DualBound, res.F)
				}
			})
		}
	}
}

// TestNonFiniteLineMinimize: an objective whose exact line minimization
// returns NaN fails the run (it ended as "stalled").
func TestNonFiniteLineMinimize(t *testing.T) {
	b := []float64{1, 0, 0}
	for _, m := range []Method{&FrankWolfe{}, &LazyCG{}, &BlendedPairwise{}} {
		p := Problem{Objective: badLineMin{testDistance{b}}, LMO: pwProduct{1, 3}, X0: []float64{0, 1, 0}}
		res, err := Minimize(context.Background(), p, &Settings{MaxIterations: 100}, m)
		if err == nil || res == nil || res.Status != Failure || !strings.Contains(err.Error(), "LineMinimize") {
			t.Errorf("%T: result %v, error %v; want a failure naming LineMinimize", m, res, err)
		}
	}
}
