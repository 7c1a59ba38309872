package lazycg_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/lmo"
	"github.com/lazycg/lazycg/objective"
)

// dcTestProblem is φ = F − G over the Birkhoff polytope B_6 with
// F(x) = least squares and G(x) = λ‖x − c‖², nonconvex for the λ used.
func dcTestProblem(t *testing.T, lambda float64) lazycg.DCProblem {
	t.Helper()
	poly, err := lmo.NewBirkhoff(6)
	if err != nil {
		t.Fatal(err)
	}
	f, err := objective.RandomLeastSquares(40, 36, 0.3, 7)
	if err != nil {
		t.Fatal(err)
	}
	w := make([]float64, 36)
	c := make([]float64, 36)
	for i := range w {
		w[i] = lambda
		c[i] = float64(i%7) / 7
	}
	g, err := objective.NewWeightedDistance(w, c)
	if err != nil {
		t.Fatal(err)
	}
	return lazycg.DCProblem{F: f, G: g, LMO: poly}
}

// dcModelAt returns the DCA model m_t of p at x: F − ∇G(x)·(· − x) − G(x).
func dcModelAt(p lazycg.DCProblem, x []float64) objective.Func {
	n := len(x)
	lin := make([]float64, n)
	p.G.Grad(lin, x)
	gx := p.G.Func(x)
	var lx float64
	for i := range x {
		lx += lin[i] * x[i]
	}
	return objective.Func{N: n,
		F: func(y []float64) float64 {
			v := p.F.Func(y) - gx + lx
			for i := range y {
				v -= lin[i] * y[i]
			}
			return v
		},
		G: func(dst, y []float64) {
			p.F.Grad(dst, y)
			for i := range dst {
				dst[i] -= lin[i]
			}
		}}
}

// TestMinimizeDC runs DCA on a nonconvex problem with several subproblem
// methods and checks what the theory promises: φ never increases along the
// trace, each DCA iteration's proven gap bound is at most twice its
// decrease of φ (the subproblem stopping rule), the run ends with the
// tolerance met, and the proven DCA gap bound holds against an accurate
// independent solve of the certified iterate's subproblem.
func TestMinimizeDC(t *testing.T) {
	methods := []struct {
		name string
		m    func() lazycg.Method
	}{
		{"fw", func() lazycg.Method { return &lazycg.FrankWolfe{} }},
		{"lcg", func() lazycg.Method { return &lazycg.LazyCG{} }},
		{"afw", func() lazycg.Method { return &lazycg.AwayFW{} }},
		{"lazy-bpcg", func() lazycg.Method { return &lazycg.LazyBPCG{} }},
		{"lazy-bpcg-corrected", func() lazycg.Method { return &lazycg.LazyBPCG{Correction: lazycg.CorrectionQuadratic} }},
	}
	for _, tc := range methods {
		t.Run(tc.name, func(t *testing.T) {
			p := dcTestProblem(t, 0.6)
			st := &lazycg.DCSettings{RelTolerance: 1e-6, Inner: lazycg.Settings{MaxIterations: 20000}}
			res, err := lazycg.MinimizeDC(context.Background(), p, st, tc.m())
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != lazycg.GapConverged {
				t.Fatalf("status %v after %d iterations, gap bound %g", res.Status, res.Iterations, res.GapBound)
			}
			if tol := 1e-6 * math.Max(1, math.Abs(res.CertifiedF)); !(res.GapBound <= tol) {
				t.Fatalf("gap bound %g above the tolerance %g", res.GapBound, tol)
			}
			if err := checkDoublyStochastic(res.X, 6, 1e-9); err != nil {
				t.Fatalf("X not in P: %v", err)
			}
			if got := p.F.Func(res.X) - p.G.Func(res.X); math.Abs(got-res.F) > 1e-9*math.Max(1, math.Abs(got)) {
				t.Fatalf("F = %g, φ(X) = %g", res.F, got)
			}
			if len(res.Trace) != res.Iterations+1 {
				t.Fatalf("%d trace points for %d iterations", len(res.Trace), res.Iterations)
			}
			for k := 1; k < len(res.Trace); k++ {
				prev, cur := res.Trace[k-1], res.Trace[k]
				if cur.F > prev.F {
					t.Fatalf("φ rose from %g to %g at iteration %d", prev.F, cur.F, k)
				}
				// The stopping rule gives gap ≤ 2(φ_t − φ_{t+1}); the last
				// subproblem may instead stop on the tolerance.
				if k < len(res.Trace)-1 && cur.GapBound > 2*(prev.F-cur.F)+1e-9*math.Abs(prev.F) {
					t.Fatalf("iteration %d: gap bound %g above twice the decrease %g", k, cur.GapBound, prev.F-cur.F)
				}
			}
			if res.Iterations < 2 {
				t.Fatalf("only %d DCA iterations: the test problem is too easy", res.Iterations)
			}
			checkDCCertificate(t, p, res)
			// The same after 1 and 2 DCA iterations, whose subproblems
			// stopped on the DCA rule far from their optimum.
			for _, k := range []int{1, 2} {
				res, err := lazycg.MinimizeDC(context.Background(), p, &lazycg.DCSettings{MaxIterations: k}, tc.m())
				if err != nil || res.Status != lazycg.IterationLimit {
					t.Fatalf("%d iterations: status %v, error %v", k, res.Status, err)
				}
				checkDCCertificate(t, p, res)
			}
		})
	}
}

// TestMinimizeDCLazyCache checks that a lazy subproblem method reuses the
// vertices of earlier subproblems (one separator for the whole run) and
// that both Φ starts reach the tolerance; the method's Phi0 is restored.
func TestMinimizeDCLazyCache(t *testing.T) {
	for _, cold := range []bool{false, true} {
		p := dcTestProblem(t, 0.6)
		m := &lazycg.LazyCG{}
		res, err := lazycg.MinimizeDC(context.Background(), p, &lazycg.DCSettings{RelTolerance: 1e-7, ColdPhi: cold}, m)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != lazycg.GapConverged || res.Stats.CacheHits == 0 || res.Stats.LMOCalls == 0 {
			t.Fatalf("cold=%v: status %v, %d cache hits, %d LMO calls", cold, res.Status, res.Stats.CacheHits, res.Stats.LMOCalls)
		}
		if m.Phi0 != 0 {
			t.Fatalf("cold=%v: Phi0 left at %g", cold, m.Phi0)
		}
		t.Logf("cold=%v: %d DCA iterations, %d inner iterations, %d LMO calls, %d cache hits, φ = %.10g",
			cold, res.Iterations, res.Stats.Iterations, res.Stats.LMOCalls, res.Stats.CacheHits, res.F)
	}
}

// TestMinimizeDCConvex: with G = 0 DCA is one convex solve, and the gap
// bound is the proven optimality gap; the projection onto the simplex is
// known.
func TestMinimizeDCConvex(t *testing.T) {
	simplex, _ := lmo.NewProbabilitySimplex(4, 1)
	f, _ := objective.NewDistance([]float64{0.5, 0.4, -0.2, 0.1})
	zero := objective.Func{N: 4, F: func([]float64) float64 { return 0 }, G: func(dst, _ []float64) { clear(dst) }}
	res, err := lazycg.MinimizeDC(context.Background(), lazycg.DCProblem{F: f, G: zero, LMO: simplex},
		&lazycg.DCSettings{Tolerance: 1e-10, Inner: lazycg.Settings{GapTolerance: 1e-12}}, &lazycg.AwayFW{})
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{0.5, 0.4, 0, 0.1} // projection of (0.5, 0.4, −0.2, 0.1)
	for i := range want {
		if math.Abs(res.X[i]-want[i]) > 1e-5 {
			t.Fatalf("X = %v, want %v (status %v, gap %g)", res.X, want, res.Status, res.GapBound)
		}
	}
	if res.Status != lazycg.GapConverged || res.GapBound > 1e-10 {
		t.Fatalf("status %v, gap bound %g", res.Status, res.GapBound)
	}
}

// TestMinimizeDCConcave: φ = −‖x‖² over the simplex (F = 0) is minimized
// at the vertices; from (0.4, 0.3, 0.2, 0.1) DCA moves to e_1 in one step
// and proves a zero gap there. From the barycenter, a critical point that
// is the maximum of φ, it proves a zero gap at once and stops: DCA finds
// critical points, not minima.
func TestMinimizeDCConcave(t *testing.T) {
	simplex, _ := lmo.NewProbabilitySimplex(4, 1)
	zero := objective.Func{N: 4, F: func([]float64) float64 { return 0 }, G: func(dst, _ []float64) { clear(dst) }}
	g, _ := objective.NewDistance(make([]float64, 4))
	p := lazycg.DCProblem{F: zero, G: g, LMO: simplex, X0: []float64{0.4, 0.3, 0.2, 0.1}}
	res, err := lazycg.MinimizeDC(context.Background(), p, nil, &lazycg.FrankWolfe{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != lazycg.GapConverged || res.F != -1 || res.X[0] != 1 || res.GapBound != 0 || res.Iterations != 2 {
		t.Fatalf("status %v, X %v, φ %g, gap %g, %d iterations", res.Status, res.X, res.F, res.GapBound, res.Iterations)
	}
	p.X0 = []float64{0.25, 0.25, 0.25, 0.25}
	res, err = lazycg.MinimizeDC(context.Background(), p, nil, &lazycg.FrankWolfe{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != lazycg.GapConverged || res.F != -0.25 || res.GapBound != 0 || res.Iterations != 1 {
		t.Fatalf("barycenter: status %v, X %v, φ %g, gap %g, %d iterations", res.Status, res.X, res.F, res.GapBound, res.Iterations)
	}
}

// TestMinimizeDCErrors covers bad input and a G that is not convex.
func TestMinimizeDCErrors(t *testing.T) {
	simplex, _ := lmo.NewProbabilitySimplex(4, 1)
	f, _ := objective.NewDistance(make([]float64, 4))
	f3, _ := objective.NewDistance(make([]float64, 3))
	concave := objective.Func{N: 4,
		F: func(x []float64) float64 { return -f.Func(x) },
		G: func(dst, x []float64) {
			f.Grad(dst, x)
			for i := range dst {
				dst[i] = -dst[i]
			}
		}}
	nan := objective.Func{N: 4, F: func([]float64) float64 { return math.NaN() }, G: func(dst, _ []float64) { clear(dst) }}
	x0 := []float64{0.4, 0.3, 0.2, 0.1}
	cases := []struct {
		name string
		p    lazycg.DCProblem
		st   *lazycg.DCSettings
		m    lazycg.Method
		want string
	}{
		{"no G", lazycg.DCProblem{F: f, LMO: simplex}, nil, &lazycg.FrankWolfe{}, "needs both F and G"},
		{"dimensions", lazycg.DCProblem{F: f, G: f3, LMO: simplex}, nil, &lazycg.FrankWolfe{}, "dimension"},
		{"no LMO", lazycg.DCProblem{F: f, G: f}, nil, &lazycg.FrankWolfe{}, "needs an LMO"},
		{"no method", lazycg.DCProblem{F: f, G: f, LMO: simplex}, nil, nil, "no method"},
		{"tolerance", lazycg.DCProblem{F: f, G: f, LMO: simplex}, &lazycg.DCSettings{Tolerance: -1}, &lazycg.FrankWolfe{}, "tolerances"},
		{"start NaN", lazycg.DCProblem{F: f, G: nan, LMO: simplex, X0: x0}, nil, &lazycg.FrankWolfe{}, "not finite"},
		{"start length", lazycg.DCProblem{F: f, G: f, LMO: simplex, X0: x0[:3]}, nil, &lazycg.FrankWolfe{}, "dimension 3"},
	}
	for _, tc := range cases {
		res, err := lazycg.MinimizeDC(context.Background(), tc.p, tc.st, tc.m)
		if err == nil || res != nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: result %v, error %v (want one containing %q)", tc.name, res, err, tc.want)
		}
	}
	// G concave: φ = ‖x‖² − ... rises along the DCA step; the run fails
	// with its best point.
	zero := objective.Func{N: 4, F: func([]float64) float64 { return 0 }, G: func(dst, _ []float64) { clear(dst) }}
	res, err := lazycg.MinimizeDC(context.Background(), lazycg.DCProblem{F: zero, G: concave, LMO: simplex, X0: x0}, nil, &lazycg.FrankWolfe{})
	if err == nil || !strings.Contains(err.Error(), "G is not convex") || res == nil || res.Status != lazycg.Failure {
		t.Fatalf("concave G: result %+v, error %v", res, err)
	}
	if res.F != f.Func(x0) || res.X[0] != x0[0] {
		t.Fatalf("concave G: best point %v (φ %g), want the start", res.X, res.F)
	}
}

// TestMinimizeDCStops covers cancellation, time, iteration and LMO call
// limits and the callback: each returns a point of P with its φ.
func TestMinimizeDCStops(t *testing.T) {
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	p := dcTestProblem(t, 0.6)
	if _, err := lazycg.MinimizeDC(canceled, p, nil, &lazycg.LazyCG{}); !errors.Is(err, lazycg.ErrNoPoint) {
		t.Fatalf("canceled without a start point: %v", err)
	}
	x0 := make([]float64, 36)
	for i := 0; i < 6; i++ {
		x0[i*6+i] = 1
	}
	p.X0 = x0
	calls := 0
	cases := []struct {
		name string
		ctx  context.Context
		st   *lazycg.DCSettings
		want lazycg.Status
	}{
		{"canceled", canceled, nil, lazycg.Canceled},
		{"iterations", context.Background(), &lazycg.DCSettings{MaxIterations: 2}, lazycg.IterationLimit},
		{"lmo calls", context.Background(), &lazycg.DCSettings{MaxLMOCalls: 3}, lazycg.LMOCallLimit},
		{"time", context.Background(), &lazycg.DCSettings{TimeLimit: time.Nanosecond}, lazycg.TimeLimit},
		{"callback", context.Background(), &lazycg.DCSettings{Callback: func(lazycg.DCProgress) bool { calls++; return calls < 2 }}, lazycg.CallbackStop},
	}
	for _, tc := range cases {
		res, err := lazycg.MinimizeDC(tc.ctx, p, tc.st, &lazycg.LazyCG{})
		if err != nil || res.Status != tc.want {
			t.Fatalf("%s: status %v, error %v", tc.name, res.Status, err)
		}
		if err := checkDoublyStochastic(res.X, 6, 1e-9); err != nil {
			t.Fatalf("%s: X not in P: %v", tc.name, err)
		}
		if tc.want == lazycg.LMOCallLimit && res.Stats.LMOCalls > 3 {
			t.Fatalf("%d LMO calls over the limit 3", res.Stats.LMOCalls)
		}
		if tc.want == lazycg.IterationLimit && res.Iterations != 2 {
			t.Fatalf("%d DCA iterations, limit 2", res.Iterations)
		}
	}
}

// checkDoublyStochastic reports whether x (n×n, row-major) is in B_n.
func checkDoublyStochastic(x []float64, n int, tol float64) error {
	for i := 0; i < n; i++ {
		var r, c float64
		for j := 0; j < n; j++ {
			if x[i*n+j] < -tol || x[j*n+i] < -tol {
				return errors.New("negative entry")
			}
			r += x[i*n+j]
			c += x[j*n+i]
		}
		if math.Abs(r-1) > tol || math.Abs(c-1) > tol {
			return errors.New("row or column sum differs from 1")
		}
	}
	return nil
}

// checkDCCertificate checks the DCA gap bound of res against an
// independent accurate solve of its certified iterate's subproblem:
// φ(x_t) − min m_t ≤ GapBound (with min m_t ≤ the solve's primal value).
func checkDCCertificate(t *testing.T, p lazycg.DCProblem, res *lazycg.DCResult) {
	t.Helper()
	ref, err := lazycg.Minimize(context.Background(), lazycg.Problem{Objective: dcModelAt(p, res.Certified), LMO: p.LMO},
		&lazycg.Settings{RelGapTolerance: 1e-12, MaxIterations: 200000}, &lazycg.BlendedPairwise{})
	if err != nil {
		t.Fatal(err)
	}
	if truth := res.CertifiedF - ref.F; truth > res.GapBound+1e-9*math.Max(1, math.Abs(res.CertifiedF)) {
		t.Fatalf("after %d iterations: DCA gap at least %g, proven bound %g", res.Iterations, truth, res.GapBound)
	}
	if res.F > res.CertifiedF {
		t.Fatalf("φ(X) = %g above φ(certified) = %g", res.F, res.CertifiedF)
	}
}
