package lazycg_test

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"runtime"
	"testing"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/internal/testutil"
	"github.com/lazycg/lazycg/lmo"
)

// sepCall is one weak separation call seen by recordingSep.
type sepCall struct {
	f, phi, k float64
	positive  bool
	gapBound  float64
}

// recordingSep wraps the default separator and records every weak
// separation call: f at the point asked, Φ, K and the answer. It checks
// every positive answer exactly (c·(x − y) > Φ/K in exact arithmetic).
type recordingSep struct {
	*lazycg.CachedSeparator
	obj   lazycg.Objective
	calls []sepCall
	bad   []string
}

func (r *recordingSep) Separate(ctx context.Context, dst, c, x []float64, phi, k float64) (lazycg.Separation, error) {
	f := r.obj.Func(x)
	sep, err := r.CachedSeparator.Separate(ctx, dst, c, x, phi, k)
	if err != nil {
		return sep, err
	}
	if sep.Positive {
		if imp := exactImprovement(c, x, dst); imp.Cmp(exactQuo(phi, k)) <= 0 {
			g, _ := imp.Float64()
			r.bad = append(r.bad, fmt.Sprintf("positive answer (cache hit %v) improves by %.17g ≤ Φ/K = %.17g", sep.CacheHit, g, phi/k))
		}
	}
	r.calls = append(r.calls, sepCall{f: f, phi: phi, k: k, positive: sep.Positive, gapBound: sep.GapBound})
	return sep, nil
}

const exactPrec = 4096

// exactImprovement returns c·(x − y) in exact arithmetic.
func exactImprovement(c, x, y []float64) *big.Float {
	s := new(big.Float).SetPrec(exactPrec)
	t := new(big.Float).SetPrec(exactPrec)
	d := new(big.Float).SetPrec(exactPrec)
	for i := range c {
		d.Sub(new(big.Float).SetPrec(exactPrec).SetFloat64(x[i]), new(big.Float).SetPrec(exactPrec).SetFloat64(y[i]))
		t.Mul(new(big.Float).SetPrec(exactPrec).SetFloat64(c[i]), d)
		s.Add(s, t)
	}
	return s
}

// exactQuo returns phi/k rounded up (so that "≤" is a safe test).
func exactQuo(phi, k float64) *big.Float {
	return new(big.Float).SetPrec(exactPrec).SetMode(big.AwayFromZero).Quo(big.NewFloat(phi), big.NewFloat(k))
}

type theoryCase struct {
	name         string
	p            lazycg.Problem
	lower, upper float64 // f* in [lower, upper]
	c            float64 // curvature bound L·D²
}

func theoryCases(t *testing.T) []theoryCase {
	var cs []theoryCase
	{
		n := 150
		b := testutil.RandomVector(n, 11, 8.0/float64(n))
		fstar := testutil.SquaredDistance(testutil.ProjectSimplex(b), b)
		simplex, err := lmo.NewProbabilitySimplex(n, 1)
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, theoryCase{"simplex", lazycg.Problem{Objective: quadDistance{distance{b}}, LMO: simplex, X0: testutil.E0(n)},
			fstar, fstar, 2 * 2})
	}
	{
		bk, err := lmo.NewBirkhoff(8)
		if err != nil {
			t.Fatal(err)
		}
		b := testutil.RandomVector(64, 5, 0.3)
		x0 := make([]float64, 64)
		bk.Vertex(x0)
		p := lazycg.Problem{Objective: quadDistance{distance{b}}, LMO: bk, X0: x0}
		lo, up := referenceBounds(t, p)
		cs = append(cs, theoryCase{"birkhoff", p, lo, up, 2 * 2 * 8})
	}
	{
		n, k := 40, 7
		hs, err := lmo.NewHypersimplex(n, k, 1)
		if err != nil {
			t.Fatal(err)
		}
		b := testutil.RandomVector(n, 9, 0.6)
		x0 := make([]float64, n)
		for i := range k {
			x0[i] = 1
		}
		p := lazycg.Problem{Objective: quadDistance{distance{b}}, LMO: hs, X0: x0}
		lo, up := referenceBounds(t, p)
		cs = append(cs, theoryCase{"hypersimplex", p, lo, up, 2 * 2 * float64(k)})
	}
	return cs
}

// TestProbeTheoryLazyCG checks Theorem 4.1 and Corollary 4.2 on sequential
// runs of Algorithm 7 (exact line search, and Remark 4.4's step
// γ = min{1, Φ/(KC)}): the invariant f(x) − f* ≤ 2Φ at every question,
// f(x) − f* ≤ Φ after every negative answer, the positive answers of each
// phase of constant Φ, the negative answers until f − f* ≤ ε and the
// iterations until then.
func TestProbeTheoryLazyCG(t *testing.T) {
	for _, tc := range theoryCases(t) {
		for _, k := range []float64{1, 1.1, 2} {
			for _, rule := range []lazycg.StepRule{lazycg.StepLineSearch, lazycg.StepCurvature} {
				name := fmt.Sprintf("%s/K=%g/%v", tc.name, k, rule)
				t.Run(name, func(t *testing.T) {
					rec := &recordingSep{CachedSeparator: lazycg.NewSeparator(tc.p.LMO, lazycg.SeparatorConfig{}), obj: tc.p.Objective}
					p := tc.p
					p.Separator = rec
					m := &lazycg.LazyCG{K: k, Rule: rule, C: tc.c}
					res, err := lazycg.Minimize(context.Background(), p, &lazycg.Settings{MaxIterations: 2500, RelGapTolerance: 1e-9}, m)
					if err != nil {
						t.Fatal(err)
					}
					checkTheory(t, tc, rec, k, res)
				})
			}
		}
	}
}

func checkTheory(t *testing.T, tc theoryCase, rec *recordingSep, k float64, res *lazycg.Result) {
	t.Helper()
	for _, b := range rec.bad {
		t.Error(b)
	}
	calls := rec.calls
	if len(calls) == 0 {
		t.Fatal("no calls")
	}
	tol := 1e-10*math.Max(1, math.Abs(tc.upper)) + (tc.upper - tc.lower)
	phi0 := calls[0].phi
	C := tc.c
	// Invariants.
	for i, c := range calls {
		if h := c.f - tc.lower; h > 2*c.phi+tol {
			t.Errorf("call %d: f − f* = %g > 2Φ = %g", i, h, 2*c.phi)
		}
		if !c.positive && c.f-tc.lower > c.phi+tol {
			t.Errorf("negative call %d: f − f* = %g > Φ = %g", i, c.f-tc.lower, c.phi)
		}
	}
	// Positive answers per phase of constant Φ.
	worst := 0.0
	for i := 0; i < len(calls); {
		j, pos := i, 0
		for j < len(calls) && calls[j].phi == calls[i].phi {
			if calls[j].positive {
				pos++
			}
			j++
		}
		phi := calls[i].phi
		var prog float64
		if phi < k*C {
			prog = phi * phi / (2 * C * k * k)
		} else {
			prog = phi/k - C/2
		}
		bound := 2 * phi / prog
		worst = math.Max(worst, float64(pos)/bound)
		if float64(pos) > bound+1e-9 {
			t.Errorf("phase Φ = %g: %d positive answers, Theorem 4.1 allows %g", phi, pos, bound)
		}
		i = j
	}
	// Negative answers and iterations until f − f* ≤ ε.
	for eps := phi0; eps > 1e-6*phi0; eps /= 7 {
		neg, at := 0, -1
		for i, c := range calls {
			if c.f-tc.upper <= eps {
				at = i
				break
			}
			if !c.positive {
				neg++
			}
		}
		if at < 0 {
			continue
		}
		negBound := math.Ceil(math.Log2(phi0/eps)) + 1
		itBound := negBound + 4*k*math.Max(0, math.Ceil(math.Log2(phi0/(k*C)))) + 16*k*k*C/eps
		if float64(neg) > negBound {
			t.Errorf("ε = %g: %d negative answers, Corollary 4.2 allows %g", eps, neg, negBound)
		}
		if float64(at) > itBound {
			t.Errorf("ε = %g: %d calls, Theorem 4.1 allows %g", eps, at, itBound)
		}
		t.Logf("ε = %.3g: %d negative answers (bound %g), %d calls (bound %.4g)", eps, neg, negBound, at, itBound)
	}
	t.Logf("%v after %d calls, f − f* ≤ %.3g, Φ0 = %.4g, C ≤ %g; worst phase uses %.3g of Theorem 4.1's positive answers",
		res.Status, len(calls), res.F-tc.lower, phi0, C, worst)
}

// TestProbeTheoryConcurrent checks, for lazy CG with concurrent weak
// separation under each stale-call policy, what docs/CONCURRENT.md says
// still holds, on the call records: every question (f(x_a), Φ) meets
// f(x_a) − f* ≤ 2Φ, every negative answer f(x_a) − f* ≤ Φ, and
// Corollary 4.2's count of negative answers until f − f* ≤ ε (under the
// policies with two instances plus one per question asked again).
func TestProbeTheoryConcurrent(t *testing.T) {
	n := 60
	b := testutil.RandomVector(n, 21, 6.0/float64(n))
	fstar := testutil.SquaredDistance(testutil.ProjectSimplex(b), b)
	for _, policy := range []lazycg.StalePolicy{lazycg.StaleWait, lazycg.StaleRestart, lazycg.StaleFork, lazycg.StaleRace, lazycg.StaleAhead} {
		for _, idle := range []lazycg.IdlePolicy{lazycg.IdleWait, lazycg.IdleCorrected} {
			t.Run(fmt.Sprintf("%v/%v", policy, idle), func(t *testing.T) {
				fresh := func() lazycg.LMO {
					l, err := lmo.NewProbabilitySimplex(n, 1)
					if err != nil {
						panic(err)
					}
					return l
				}
				slow := &slowLMO{LMO: fresh(), delay: 100 * time.Microsecond, fresh: fresh}
				p := lazycg.Problem{Objective: quadDistance{distance{b}}, LMO: slow, X0: testutil.E0(n)}
				x1 := p.X0
				phi0 := (p.Objective.Func(x1) - fstar) / 2
				var negAt []int
				var eps []float64
				for e := phi0; e > 1e-6*phi0; e /= 5 {
					eps = append(eps, e)
					negAt = append(negAt, -1)
				}
				var againAt []int = make([]int, len(eps))
				cb := func(pr lazycg.Progress) bool {
					for i, e := range eps {
						if negAt[i] < 0 && pr.F-fstar <= e {
							negAt[i], againAt[i] = pr.Stats.NegativeCalls, pr.Stats.StaleRestarts
						}
					}
					return true
				}
				before := runtime.NumGoroutine()
				res, err := lazycg.Minimize(context.Background(), p, &lazycg.Settings{MaxIterations: 3000, Callback: cb,
					SeparatorConfig: lazycg.SeparatorConfig{Concurrent: true, Stale: policy, Idle: idle}},
					&lazycg.LazyCG{K: 1.1, PhiSchedule: lazycg.PhiSchedule{Phi0: phi0}})
				if err != nil {
					t.Fatal(err)
				}
				tol := 1e-10 * math.Max(1, fstar)
				worst := 0.0
				for i, c := range res.Calls {
					h := c.F - fstar
					ask := c.Phi
					if c.Role == lazycg.CallAhead {
						ask *= 2 // asked at Φ/2 beside the question at Φ
					}
					if h > 2*ask+tol {
						t.Errorf("call %d (%v): f(x_a) − f* = %g > 2Φ = %g", i, c.Role, h, 2*ask)
					}
					if c.Outcome == lazycg.CallNegative {
						worst = math.Max(worst, h/c.Phi)
						if h > c.Phi+tol || c.Gap > c.Phi*(1+1e-12) || c.F-c.Gap > fstar+tol {
							t.Errorf("negative call %d: f(x_a) − f* = %g, Φ = %g, gap %g", i, h, c.Phi, c.Gap)
						}
					}
				}
				for i, e := range eps {
					neg, again := negAt[i], againAt[i]
					if neg < 0 {
						neg, again = res.Stats.NegativeCalls, res.Stats.StaleRestarts
					}
					limit := int(math.Ceil(math.Log2(phi0/e))) + 1
					if policy.TwoInstances() {
						limit += again
					}
					if neg > limit {
						t.Errorf("ε = %g: %d negative answers, Corollary 4.2 allows %d", e, neg, limit)
					}
				}
				for k, s := range slow.instances() {
					if s.overlaps.Load() != 0 || s.busy.Load() != 0 {
						t.Errorf("instance %d: %d overlaps, %d busy", k, s.overlaps.Load(), s.busy.Load())
					}
				}
				checkGoroutines(t, before)
				t.Logf("%v: %d calls recorded, %d negative, f − f* = %.3g; worst (f(x_a) − f*)/Φ at a negative answer %.3g",
					res.Status, len(res.Calls), res.Stats.NegativeCalls, res.F-fstar, worst)
			})
		}
	}
}
