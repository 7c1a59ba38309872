package lazycg

import (
	"context"
	"fmt"
	"math"
	"testing"
	"time"
)

// stuckLMO answers its first answers calls exactly (a simplex), then
// blocks until its context ends and returns what a MIP solver canceled in
// mid-search returns: its context's error with a proven bound, bound(c)
// ≤ min c·v, and Reason StopCanceled — or, with garbage set, Reason
// StopOptimal and Bound 0, which nothing may take for a proof.
type stuckLMO struct {
	testSimplex
	answers, calls int
	slack          float64
	garbage        bool
	stuckAt        []float64 // the costs of the blocked call
}

func (s *stuckLMO) Minimize(ctx context.Context, dst, c []float64) (LinearResult, error) {
	s.calls++
	if s.calls <= s.answers {
		return s.testSimplex.Minimize(ctx, dst, c)
	}
	s.stuckAt = append([]float64(nil), c...)
	<-ctx.Done()
	if s.garbage {
		return LinearResult{}, fmt.Errorf("stuck: %w", ctx.Err())
	}
	lo := math.Inf(1)
	for _, v := range c {
		lo = math.Min(lo, v)
	}
	return LinearResult{Value: math.Inf(1), Bound: lo - s.slack, Reason: StopCanceled}, fmt.Errorf("stuck: %w", ctx.Err())
}

func (s *stuckLMO) MinimizeUntil(ctx context.Context, dst, c []float64, _ StopRule) (LinearResult, error) {
	return s.Minimize(ctx, dst, c)
}

func (s *stuckLMO) Fork(context.Context) (LMO, error) {
	return &stuckLMO{testSimplex: s.testSimplex, answers: s.answers, slack: s.slack, garbage: s.garbage}, nil
}

// TestUnansweredCallBound: a call canceled by the run's time limit after
// it proved a bound on min c·v (UnansweredError) gives the dual bound
// f(x) − (c·x − bound) at the point it was asked about — for the non-lazy
// method's LMO call, the lazy method's weak separation call, and the
// concurrent method's calls collected at the run's end — and a result
// without a proven bound (Reason other than StopCanceled) gives nothing.
func TestUnansweredCallBound(t *testing.T) {
	const n = 6
	b := []float64{0.3, -0.2, 0.5, 0.1, 0.9, -0.4}
	obj := testDistance{b: b}
	x0 := make([]float64, n)
	x0[0] = 1
	for _, tc := range []struct {
		name       string
		method     func() Method
		concurrent bool
		answers    int
	}{
		{"cg", func() Method { return &FrankWolfe{} }, false, 4},
		{"lcg", func() Method { return &LazyCG{K: 1} }, false, 2},
		{"lcg-concurrent", func() Method { return &LazyCG{K: 1} }, true, 2},
	} {
		for _, garbage := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/garbage=%v", tc.name, garbage), func(t *testing.T) {
				lmo := &stuckLMO{testSimplex: testSimplex{n}, answers: tc.answers, slack: 1e-9, garbage: garbage}
				prev := math.Inf(-1) // the dual bound before the blocked call
				settings := &Settings{TimeLimit: 300 * time.Millisecond,
					Callback:        func(p Progress) bool { prev = p.DualBound; return true },
					SeparatorConfig: SeparatorConfig{NoCache: true, Concurrent: tc.concurrent}}
				res, err := Minimize(context.Background(), Problem{Objective: obj, LMO: lmo, X0: x0}, settings, tc.method())
				if err != nil {
					t.Fatal(err)
				}
				if res.Status != TimeLimit || lmo.stuckAt == nil {
					t.Fatalf("status %v, blocked call %v: the run must end in the blocked call", res.Status, lmo.stuckAt != nil)
				}
				// The blocked call was asked at the final iterate (no
				// step after it): its bound proves f(x) − (c·x − bound).
				g := make([]float64, n)
				obj.Grad(g, res.X)
				lo := math.Inf(1)
				for _, v := range g {
					lo = math.Min(lo, v)
				}
				proof := res.F - (dot(g, res.X) - (lo - 1e-9))
				if !(proof > prev+1e-6) {
					t.Fatalf("the blocked call's proof %.12g does not improve on the dual bound %.12g: the case tests nothing", proof, prev)
				}
				want := proof
				if garbage {
					want = prev
				}
				if fStar := exactSimplexMin(obj); res.DualBound > fStar+1e-9 || math.Abs(res.DualBound-want) > 1e-12 {
					t.Errorf("dual bound %.12g, want %.12g (before the blocked call %.12g, its proof %.12g, f = %.12g, f* = %.12g)",
						res.DualBound, want, prev, proof, res.F, fStar)
				}
			})
		}
	}
}

// exactSimplexMin returns min ‖x − b‖² over the probability simplex.
func exactSimplexMin(d testDistance) float64 {
	return d.Func(projectSimplex(d.b))
}
