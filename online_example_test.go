package lazycg_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/lmo"
	"github.com/lazycg/lazycg/objective"
)

// olSummed gives an objective stream the cumulative fast path of
// objective.Sum.
type olSummed struct{ lazycg.LossStream }

func (olSummed) NewCumulative() lazycg.CumulativeLoss { return objective.NewSum() }

// ExampleMinimizeOnline plays lazy online conditional gradient (Algorithm 8)
// on the paper's random linear losses over a spanning tree polytope and
// brackets the regret with the best spanning tree in hindsight.
func ExampleMinimizeOnline() {
	poly, err := lmo.CompleteGraphSpanningTree(8)
	if err != nil {
		panic(err)
	}
	losses, err := objective.LinearLosses(poly.Dim(), 100, 1)
	if err != nil {
		panic(err)
	}
	p := lazycg.OnlineProblem{Losses: olSummed{losses}, LMO: poly}
	res, err := lazycg.MinimizeOnline(context.Background(), p, nil, &lazycg.LOCG{Params: lazycg.OnlineParams{K: 1.1}})
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
	p := lazycg.OnlineProblem{Losses: olSummed{losses}, LMO: poly}
	quad := losses.Loss(0).(*objective.LeastSquares)
	params := lazycg.OnlineParams{K: 1.1, C: quad.Curvature(math.Sqrt(12))} // ‖X − Y‖₂² ≤ 2·6 on the polytope
	for _, run := range []struct {
		name string
		m    lazycg.OnlineMethod
	}{
		{"ocg", &lazycg.OCG{Params: params}},
		{"locg", &lazycg.LOCG{Params: params}},
		{"locg-pf", &lazycg.LOCG{Params: lazycg.OnlineParams{K: 1.1, ParameterFree: true}}},
	} {
		res, err := lazycg.MinimizeOnline(context.Background(), p, nil, run.m)
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

// ExampleAugmentingSeparator answers weak separation queries over a
// spanning tree polytope with edge exchanges only (Algorithm 9).
func ExampleAugmentingSeparator() {
	poly, err := lmo.CompleteGraphSpanningTree(5)
	if err != nil {
		panic(err)
	}
	sep, err := lazycg.NewAugmentingSeparator(poly)
	if err != nil {
		panic(err)
	}
	n := poly.Dim()
	x := make([]float64, n)
	poly.Vertex(x)
	c := make([]float64, n)
	for i := range c {
		c[i] = float64((7 * i) % 5)
	}
	y := make([]float64, n)
	N, _ := lazycg.AugmentationBound(2, poly.L1Diameter())
	ans, err := sep.Separate(context.Background(), y, c, x, 3, 2)
	if err != nil {
		panic(err)
	}
	fmt.Println("positive:", ans.Positive, "improvement > Φ/K:", ans.Improvement > 1.5)
	fmt.Println("augmentations ≤ N:", ans.LMOCalls <= N, "N =", N)
	// Output:
	// positive: true improvement > Φ/K: true
	// augmentations ≤ N: true N = 6
}

// TestAugmentSpanningTreeProposition61 checks Proposition 6.1 with the
// spanning tree polytope's edge-exchange augmentation against Kruskal.
func TestAugmentSpanningTreeProposition61(t *testing.T) {
	ctx := context.Background()
	poly, err := lmo.CompleteGraphSpanningTree(7)
	if err != nil {
		t.Fatal(err)
	}
	n := poly.Dim()
	k := poly.L1Diameter()
	seed := uint64(1)
	rnd := func() float64 { // SplitMix64 in [0, 1)
		seed += 0x9e3779b97f4a7c15
		z := seed
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		return float64((z^(z>>31))>>11) / (1 << 53)
	}
	y, opt, v := make([]float64, n), make([]float64, n), make([]float64, n)
	var pos, neg int
	for trial := range 300 {
		sep, err := lazycg.NewAugmentingSeparator(poly)
		if err != nil {
			t.Fatal(err)
		}
		// x: a random spanning tree (Kruskal on random costs) or a convex
		// combination of two, given as a decomposition.
		c := make([]float64, n)
		x := make([]float64, n)
		var verts olVertices
		for range 1 + trial%2 {
			for i := range c {
				c[i] = rnd()
			}
			w := make([]float64, n)
			if _, err := poly.Minimize(ctx, w, c); err != nil {
				t.Fatal(err)
			}
			verts = append(verts, w)
		}
		for _, w := range verts {
			for i := range x {
				x[i] += w[i] / float64(len(verts))
			}
		}
		sep.Decomposition = verts
		for i := range c {
			c[i] = 2*rnd() - 1
		}
		res, _ := poly.Minimize(ctx, opt, c)
		cx := olDot(c, x)
		gap := cx - res.Value
		phi := (0.05 + 2*rnd()) * math.Max(gap, 0.1)
		K := []float64{1.05, 1.5, 3}[trial%3]
		N, _ := lazycg.AugmentationBound(K, k)
		ans, err := sep.Separate(ctx, y, c, x, phi, K)
		if err != nil {
			t.Fatal(err)
		}
		if ans.LMOCalls > N {
			t.Errorf("trial %d: %d augmentations > N = %d", trial, ans.LMOCalls, N)
		}
		if ans.Positive {
			pos++
			if imp := cx - olDot(c, y); !(imp > phi/K) {
				t.Errorf("trial %d: improvement %g ≤ Φ/K = %g", trial, imp, phi/K)
			}
			// y must be a spanning tree: Augment accepts only trees.
			if _, err := poly.Augment(ctx, v, c, y); err != nil {
				t.Errorf("trial %d: answer is not a spanning tree: %v", trial, err)
			}
		} else {
			neg++
			if gap > phi*(1+1e-12) {
				t.Errorf("trial %d: negative answer with Wolfe gap %g > Φ = %g", trial, gap, phi)
			}
		}
		// Augmenting to the end reaches Kruskal's optimum.
		copy(v, opt)
		cur := slices.Clone(verts[0])
		for {
			ok, err := poly.Augment(ctx, v, c, cur)
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				break
			}
			cur, v = v, cur
		}
		if math.Abs(olDot(c, cur)-res.Value) > 1e-12 {
			t.Errorf("trial %d: augmentation stops at %g, optimum %g", trial, olDot(c, cur), res.Value)
		}
	}
	if pos < 30 || neg < 30 {
		t.Errorf("%d positive and %d negative answers", pos, neg)
	}
}

type olVertices [][]float64

func (l olVertices) Vertices(yield func([]float64) bool) {
	for _, v := range l {
		if !yield(v) {
			return
		}
	}
}

func olDot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
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
		stream lazycg.LossStream
	}{{"linear", olSummed{lin}}, {"quadratic", olSummed{quad}}, {"quadratic-fallback", quad}} {
		for _, variant := range []string{"ocg", "locg", "locg-aug"} {
			var m lazycg.OnlineMethod = &lazycg.OCG{}
			p := lazycg.OnlineProblem{Losses: st.stream, LMO: poly}
			if variant != "ocg" {
				m = &lazycg.LOCG{Params: lazycg.OnlineParams{K: 1.1}}
			}
			if variant == "locg-aug" {
				p.Separator, _ = lazycg.NewAugmentingSeparator(poly)
			}
			res, err := lazycg.MinimizeOnline(ctx, p, nil, m)
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

// ExampleCachingStudy reruns the paper's caching study ("Effect of
// caching") on random linear losses over the probability simplex: OCG
// calls the LMO in every round, LOCG with early termination only in every
// round too, and LOCG with cache and early termination saves the calls
// answered from the cache.
func ExampleCachingStudy() {
	simplex, err := lmo.NewProbabilitySimplex(50, 1)
	if err != nil {
		panic(err)
	}
	losses, err := objective.LinearLosses(50, 300, 7)
	if err != nil {
		panic(err)
	}
	p := lazycg.OnlineProblem{Losses: olSummed{losses}, LMO: simplex}
	// A small D (below the simplex's √2) and TightenPhi make LOCG less lazy.
	params := lazycg.OnlineParams{K: 1.1, D: 0.2, TightenPhi: true}
	runs, err := lazycg.CachingStudy(context.Background(), p, &lazycg.OnlineSettings{NoHindsight: true}, params)
	if err != nil {
		panic(err)
	}
	for _, r := range runs {
		fmt.Printf("%-16s LMO calls %d, cache hits %d\n", r.Name, r.Result.Stats.LMOCalls, r.Result.Stats.CacheHits)
	}
	// Output:
	// ocg              LMO calls 299, cache hits 0
	// locg-early       LMO calls 299, cache hits 0
	// locg-cache-early LMO calls 252, cache hits 47
}
