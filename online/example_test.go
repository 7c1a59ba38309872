package online_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/lmo"
	"github.com/lazycg/lazycg/objective"
	"github.com/lazycg/lazycg/online"
)

// ExampleMinimize plays lazy online conditional gradient (Algorithm 8)
// on the paper's random linear losses over a spanning tree polytope and
// brackets the regret with the best spanning tree in hindsight.
func ExampleMinimize() {
	poly, err := lmo.CompleteGraphSpanningTree(8)
	if err != nil {
		panic(err)
	}
	losses, err := objective.LinearLosses(poly.Dim(), 100, 1)
	if err != nil {
		panic(err)
	}
	p := online.Problem{Losses: losses, LMO: poly}
	res, err := online.Minimize(context.Background(), p, nil, &online.LOCG{Params: online.Params{K: 1.1}})
	if err != nil {
		panic(err)
	}
	lo, hi := res.AverageRegret()
	fmt.Println("rounds:", res.Rounds, "status:", res.Status)
	fmt.Println("separation calls:", res.Stats.PositiveCalls+res.Stats.NegativeCalls)
	fmt.Println("regret bracket is tight:", math.Abs(hi-lo) < 1e-9)
	// Output:
	// rounds: 100 status: iteration-limit
	// separation calls: 99
	// regret bracket is tight: true
}

// ExampleLOCG_parameterFree compares, on the paper's quadratic losses
// over the Birkhoff polytope, OCG (one LMO call per round), LOCG with
// Theorem 5.1's constants (Algorithm 8, whose worst-case Φ_t makes it stay
// at x_1) and the parameter-free LOCG, which moves every round it finds a
// good vertex, mostly in its cache.
func ExampleLOCG_parameterFree() {
	poly, err := lmo.NewBirkhoff(6)
	if err != nil {
		panic(err)
	}
	losses, err := objective.QuadraticLosses(poly.Dim(), 100, 0.5, 1)
	if err != nil {
		panic(err)
	}
	p := online.Problem{Losses: losses, LMO: poly}
	quad := losses.Loss(0).(*objective.LeastSquares)
	params := online.Params{K: 1.1, C: quad.Curvature(math.Sqrt(12))} // ‖X − Y‖₂² ≤ 2·6 on the polytope
	for _, run := range []struct {
		name string
		m    online.Method
	}{
		{"ocg", &online.OCG{Params: params}},
		{"locg", &online.LOCG{Params: params}},
		{"locg-pf", &online.LOCG{Params: online.Params{K: 1.1, ParameterFree: true}}},
	} {
		res, err := online.Minimize(context.Background(), p, nil, run.m)
		if err != nil {
			panic(err)
		}
		_, hi := res.AverageRegret()
		fmt.Printf("%-8s LMO calls %3d  positive answers %3d  average regret %.3g\n",
			run.name, res.Stats.LMOCalls, res.Stats.PositiveCalls, hi)
	}
	// Output:
	// ocg      LMO calls  99  positive answers   0  average regret 5.64
	// locg     LMO calls  99  positive answers   0  average regret 20.8
	// locg-pf  LMO calls  23  positive answers  94  average regret 5.93
}

// ExampleLOCG_certified plays 2,000 rounds drawn from the paper's 100
// random linear losses over the spanning trees of K8 with Algorithm 8
// (Theorem 5.1's constants), the parameter-free LOCG, and the
// parameter-free LOCG kept inside the theorem's envelope (Certified),
// which carries the theorem's bound on (1/T)(F_T(x_T) − min F_T) at a
// fraction of Algorithm 8's LMO calls. L = √n bounds the losses' gradients
// c ∈ [−1, 1)^n; D comes from the polytope's ℓ1-diameter.
func ExampleLOCG_certified() {
	poly, err := lmo.CompleteGraphSpanningTree(8)
	if err != nil {
		panic(err)
	}
	pool, err := objective.LinearLosses(poly.Dim(), 100, 1)
	if err != nil {
		panic(err)
	}
	losses, err := objective.Repeat(pool, 2000, objective.OrderRandom, 1)
	if err != nil {
		panic(err)
	}
	p := online.Problem{Losses: losses, LMO: poly}
	params := online.Params{K: 1.1, L: math.Sqrt(float64(poly.Dim()))}
	for _, run := range []struct {
		name      string
		free, cer bool
	}{{"locg", false, false}, {"locg-pf", true, false}, {"locg-cert", true, true}} {
		q := params
		q.ParameterFree, q.Certified = run.free, run.cer
		res, err := online.Minimize(context.Background(), p, nil, &online.LOCG{Params: q})
		if err != nil {
			panic(err)
		}
		bound := "none"
		if b, err := q.TheoremBound(poly, res.Rounds); err == nil {
			bound = fmt.Sprint(res.ErrorUpper/float64(res.Rounds) <= b)
		}
		fmt.Printf("%-9s LMO calls %4d  within Theorem 5.1's bound: %s\n", run.name, res.Stats.LMOCalls, bound)
	}
	// Output:
	// locg      LMO calls 1983  within Theorem 5.1's bound: true
	// locg-pf   LMO calls   42  within Theorem 5.1's bound: none
	// locg-cert LMO calls   54  within Theorem 5.1's bound: true
}

// TestOnlineObjectiveStreams runs OCG and LOCG (with the LMO and with
// augmentation) on the objective package's streams over a spanning tree
// polytope.
func TestOnlineObjectiveStreams(t *testing.T) {
	ctx := context.Background()
	poly, err := lmo.CompleteGraphSpanningTree(7)
	if err != nil {
		t.Fatal(err)
	}
	n := poly.Dim()
	lin, err := objective.LinearLosses(n, 60, 3)
	if err != nil {
		t.Fatal(err)
	}
	quad, err := objective.QuadraticLosses(n, 30, 0.3, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range []struct {
		name   string
		stream objective.Stream
	}{{"linear", lin}, {"quadratic", quad}, {"quadratic-fallback", quad}} {
		for _, variant := range []string{"ocg", "locg", "locg-aug"} {
			var m online.Method = &online.OCG{}
			p := online.Problem{Losses: st.stream, LMO: poly}
			if variant != "ocg" {
				m = &online.LOCG{Params: online.Params{K: 1.1}}
			}
			if variant == "locg-aug" {
				p.Separator, _ = lazycg.NewAugmentingSeparator(poly)
			}
			res, err := online.Minimize(ctx, p, nil, m)
			if err != nil {
				t.Fatalf("%s %s: %v", st.name, variant, err)
			}
			lo, hi := res.AverageRegret()
			if res.Rounds != st.stream.Rounds() || !(lo <= hi+1e-9) || math.IsInf(hi, 0) {
				t.Errorf("%s %s: %d rounds, regret [%g, %g]", st.name, variant, res.Rounds, lo, hi)
			}
			// The iterates stay in the polytope: each is a convex combination
			// of spanning trees, so its coordinates sum to nodes−1 = 6.
			var sum float64
			for _, v := range res.X {
				if v < -1e-12 || v > 1+1e-12 {
					t.Fatalf("%s %s: coordinate %g outside [0,1]", st.name, variant, v)
				}
				sum += v
			}
			if math.Abs(sum-6) > 1e-9 {
				t.Errorf("%s %s: coordinates sum to %g", st.name, variant, sum)
			}
		}
	}
}
