package objective_test

import (
	"context"
	"math"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/internal/testutil"
	"github.com/lazycg/lazycg/lmo"
	"github.com/lazycg/lazycg/objective"
)

// TestConsensusGradient checks F and ∇F against their definitions and
// finite differences, and the exact line search against a grid.
func TestConsensusGradient(t *testing.T) {
	f, _ := objective.NewDistance([]float64{1, -2, 0.5})
	obj, err := objective.NewConsensus(f, 3, 0.7)
	if err != nil {
		t.Fatal(err)
	}
	c := objective.AsConsensus(obj)
	x := []float64{0.1, 0.2, 0.3, 1, 0, -1, 0.5, 0.5, 2}
	var dis float64
	for i := 0; i < 3; i++ {
		for j := i + 1; j < 3; j++ {
			for k := 0; k < 3; k++ {
				d := x[3*i+k] - x[3*j+k]
				dis += d * d / 2
			}
		}
	}
	want := 0.7*(f.Func(x[0:3])+f.Func(x[3:6])+f.Func(x[6:9])) + dis
	if got := obj.Func(x); math.Abs(got-want) > 1e-12 || math.Abs(c.Disagreement(x)-dis) > 1e-12 {
		t.Fatalf("F = %g, want %g; disagreement %g, want %g", got, want, c.Disagreement(x), dis)
	}
	g := make([]float64, 9)
	obj.Grad(g, x)
	y := append([]float64(nil), x...)
	for k := range x {
		const h = 1e-6
		y[k] = x[k] + h
		fp := obj.Func(y)
		y[k] = x[k] - h
		fm := obj.Func(y)
		y[k] = x[k]
		if fd := (fp - fm) / (2 * h); math.Abs(fd-g[k]) > 1e-6*(1+math.Abs(fd)) {
			t.Fatalf("∂F/∂x_%d = %g, finite difference %g", k, g[k], fd)
		}
	}
	lm, ok := obj.(lazycg.LineMinimizer)
	if !ok {
		t.Fatal("the consensus of a quadratic is not a LineMinimizer")
	}
	d := []float64{0.3, -0.2, 0.1, -1, 0.5, 0.2, 0, 0.4, -0.6}
	gamma := lm.LineMinimize(x, d, g, 2)
	at := func(s float64) float64 {
		for k := range y {
			y[k] = x[k] + s*d[k]
		}
		return obj.Func(y)
	}
	for s := 0.0; s <= 2; s += 1.0 / 512 {
		if at(s) < at(gamma)-1e-12 {
			t.Fatalf("line minimum %g at %g, but %g at %g", at(gamma), gamma, at(s), s)
		}
	}
	m := make([]float64, 3)
	c.Mean(m, x)
	for k, want := range []float64{1.6 / 3, 0.7 / 3, 1.3 / 3} {
		if math.Abs(m[k]-want) > 1e-15 {
			t.Fatalf("mean %v", m)
		}
	}
	for _, bad := range []struct {
		blocks int
		lambda float64
	}{{1, 1}, {2, 0}, {2, -1}, {2, math.Inf(1)}, {2, math.NaN()}} {
		if _, err := objective.NewConsensus(f, bad.blocks, bad.lambda); err == nil {
			t.Errorf("NewConsensus(%d blocks, λ=%g) accepted", bad.blocks, bad.lambda)
		}
	}
}

// TestConsensusIntersection minimizes ‖x − (1, 0, 0)‖² over the simplex ∩
// the box [0, ½]³ (minimum 0.375 at (½, ¼, ¼)) by alternating linear
// minimization: block-coordinate FW and BPCG over the product of the two,
// each of which has its own LMO. The bound IntersectionBound proves stays
// below the true minimum, the blocks come to agree as λ shrinks, and their
// mean approaches the minimizer.
func TestConsensusIntersection(t *testing.T) {
	simplex, _ := lmo.NewProbabilitySimplex(3, 1)
	box, _ := lmo.NewBox([]float64{0, 0, 0}, []float64{0.5, 0.5, 0.5})
	prod, err := lmo.NewProduct(simplex, box)
	if err != nil {
		t.Fatal(err)
	}
	f, _ := objective.NewDistance([]float64{1, 0, 0})
	const fStar = 0.375
	for _, tc := range []struct {
		name string
		m    func() lazycg.Method
	}{
		{"bcfw", func() lazycg.Method { return &lazycg.BlockFW{} }},
		{"bpcg", func() lazycg.Method { return &lazycg.BlendedPairwise{} }},
		{"lazy-bpcg", func() lazycg.Method { return &lazycg.LazyBPCG{} }},
	} {
		lastDis := math.Inf(1)
		for _, lambda := range []float64{1, 0.1, 0.001} {
			obj, _ := objective.NewConsensus(f, 2, lambda)
			c := objective.AsConsensus(obj)
			res, err := lazycg.Minimize(context.Background(), lazycg.Problem{Objective: obj, LMO: prod},
				&lazycg.Settings{GapTolerance: 1e-10 * lambda, MaxIterations: 200000}, tc.m())
			if err != nil {
				t.Fatalf("%s λ=%g: %v", tc.name, lambda, err)
			}
			lb := c.IntersectionBound(res.DualBound)
			if !(lb <= fStar+1e-12) {
				t.Fatalf("%s λ=%g: proven bound %g above min over the intersection %g", tc.name, lambda, lb, fStar)
			}
			dis := c.Disagreement(res.X)
			if dis > lastDis+1e-12 {
				t.Fatalf("%s λ=%g: disagreement %g grew from %g", tc.name, lambda, dis, lastDis)
			}
			lastDis = dis
			if lambda == 0.001 {
				mean := make([]float64, 3)
				c.Mean(mean, res.X)
				want := []float64{0.5, 0.25, 0.25}
				for k := range want {
					if math.Abs(mean[k]-want[k]) > 0.002 {
						t.Fatalf("%s: mean %v, want about %v", tc.name, mean, want)
					}
				}
				if fStar-lb > 0.01 {
					t.Fatalf("%s: bound %g, %g below the minimum", tc.name, lb, fStar-lb)
				}
			}
		}
	}
}

// TestConsensusFeasibility: with f = Zero the consensus objective is the
// blocks' disagreement; for the probability simplex and the ℓ1 ball of
// radius ½ (disjoint: their points have ℓ1 norms 1 and ≤ ½) a run proves a
// positive bound, i.e. that they do not intersect, and for the simplex and
// the unit box it drives the disagreement to 0 without proving anything
// positive.
func TestConsensusFeasibility(t *testing.T) {
	simplex, _ := lmo.NewProbabilitySimplex(3, 1)
	small, _ := lmo.NewL1Ball(3, 0.5)
	box, _ := lmo.NewBox([]float64{0, 0, 0}, []float64{1, 1, 1})
	for _, tc := range []struct {
		name     string
		other    lazycg.LMO
		disjoint bool
	}{{"l1 ball ½", small, true}, {"box", box, false}} {
		prod, _ := lmo.NewProduct(simplex, tc.other)
		obj, _ := objective.NewConsensus(objective.Zero{N: 3}, 2, 1)
		c := objective.AsConsensus(obj)
		res, err := lazycg.Minimize(context.Background(), lazycg.Problem{Objective: obj, LMO: prod},
			&lazycg.Settings{GapTolerance: 1e-12, MaxIterations: 100000}, &lazycg.BlendedPairwise{})
		if err != nil {
			t.Fatal(err)
		}
		lb := c.IntersectionBound(res.DualBound)
		// The distance between the two sets is 1/(2√3) (from (⅓,⅓,⅓) to (⅙,⅙,⅙)): min F = ½·(1/12).
		if tc.disjoint && !(lb > 0 && math.Abs(res.F-1.0/24) < 1e-9) {
			t.Errorf("%s: bound %g, F %g: disjointness not proven (min F = 1/24)", tc.name, lb, res.F)
		}
		if !tc.disjoint && (lb > 1e-12 || c.Disagreement(res.X) > 1e-10) {
			t.Errorf("%s: bound %g, disagreement %g for intersecting sets", tc.name, lb, c.Disagreement(res.X))
		}
	}
}

// TestConsensusAllocs: F, ∇F and the line search allocate nothing.
func TestConsensusAllocs(t *testing.T) {
	f, _ := objective.NewDistance([]float64{1, -2, 0.5})
	obj, _ := objective.NewConsensus(f, 3, 0.7)
	x := []float64{0.1, 0.2, 0.3, 1, 0, -1, 0.5, 0.5, 2}
	d := []float64{0.3, -0.2, 0.1, -1, 0.5, 0.2, 0, 0.4, -0.6}
	g := make([]float64, 9)
	lm := obj.(lazycg.LineMinimizer)
	if a := testutil.Mallocs(100, func() {
		_ = obj.Func(x)
		obj.Grad(g, x)
		_ = lm.LineMinimize(x, d, g, 1)
	}); a != 0 {
		t.Errorf("%d allocations in 100 evaluations", a)
	}
}
