package lazycg_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/internal/testutil"
	"github.com/lazycg/lazycg/lmo"
)

// countedLMO counts the calls that reach the underlying LMO (Minimize and
// MinimizeFace, on every instance: its forks share the counter), so that
// the tests see the real calls whatever the driver's counters say. An
// optional delay keeps calls in flight in concurrent mode. It forwards
// the capabilities the methods of the tests use (StandardForm,
// MinimizeFace, membership checks, Fork).
type countedLMO struct {
	lmo   lazycg.LMO
	calls *atomic.Int64
	delay time.Duration
	fresh func() lazycg.LMO // the fork's underlying LMO (nil: no Fork)
}

func (c *countedLMO) Dim() int { return c.lmo.Dim() }

func (c *countedLMO) Minimize(ctx context.Context, dst, cost []float64) (lazycg.LinearResult, error) {
	c.calls.Add(1)
	if c.delay > 0 {
		time.Sleep(c.delay)
	}
	return c.lmo.Minimize(ctx, dst, cost)
}

func (c *countedLMO) MinimizeFace(ctx context.Context, dst, cost []float64, zero []bool) (lazycg.LinearResult, error) {
	c.calls.Add(1)
	fm, ok := c.lmo.(lazycg.FaceMinimizer)
	if !ok {
		return lazycg.LinearResult{}, fmt.Errorf("%T cannot minimize over faces", c.lmo)
	}
	return fm.MinimizeFace(ctx, dst, cost, zero)
}

func (c *countedLMO) StandardForm() bool {
	sf, ok := c.lmo.(lazycg.StandardForm)
	return ok && sf.StandardForm()
}

func (c *countedLMO) Check(x []float64, tol float64) error {
	return c.lmo.(lazycg.MembershipChecker).Check(x, tol)
}

func (c *countedLMO) Fork(context.Context) (lazycg.LMO, error) {
	if c.fresh == nil {
		return nil, errors.New("no fork")
	}
	return &countedLMO{lmo: c.fresh(), calls: c.calls, delay: c.delay, fresh: c.fresh}, nil
}

// maxCallsCase is a method and settings to run under MaxLMOCalls.
type maxCallsCase struct {
	name   string
	method func() lazycg.Method
	x0     bool // start at a vertex (no start vertex call)
	conc   bool // concurrent weak separation
	stale  lazycg.StalePolicy
	delay  time.Duration
}

// TestMaxCallsExact runs methods of every family under the LMO call
// limits 1, 2, 3, 5 and 17 and checks that the limit is a hard bound: no
// more calls than the limit, counted by the run and at the LMO itself,
// the status LMOCallLimit (or an earlier legitimate stop), a returned
// point in P whose value is the one returned, and dual bounds ≤ f*.
func TestMaxCallsExact(t *testing.T) {
	const n = 40
	b := testutil.RandomVector(n, 11, 3.0/n)
	fstar := testutil.SquaredDistance(testutil.ProjectSimplex(b), b)
	simplex := func() lazycg.LMO {
		l, err := lmo.NewProbabilitySimplex(n, 1)
		if err != nil {
			panic(err)
		}
		return l
	}
	local := func() lazycg.Method {
		return &lazycg.LLCG{Mu: 1, D: math.Sqrt2, S: 2, Beta: 2, LineSearch: true, AdaptivePhi: true}
	}
	cases := []maxCallsCase{
		{name: "cg", method: func() lazycg.Method { return &lazycg.FrankWolfe{} }},
		{name: "cg-x0", method: func() lazycg.Method { return &lazycg.FrankWolfe{} }, x0: true},
		{name: "lcg", method: func() lazycg.Method { return &lazycg.LazyCG{} }},
		{name: "lcg-binary-search", method: func() lazycg.Method {
			return &lazycg.LazyCG{PhiSchedule: lazycg.PhiSchedule{Phi0Rule: lazycg.Phi0BinarySearch}}
		}, x0: true},
		{name: "lpcg", method: func() lazycg.Method { return &lazycg.LPCG{} }, x0: true},
		{name: "lpcg-binary-search", method: func() lazycg.Method {
			return &lazycg.LPCG{PhiSchedule: lazycg.PhiSchedule{Phi0Rule: lazycg.Phi0BinarySearch}}
		}, x0: true},
		{name: "pcg", method: func() lazycg.Method { return &lazycg.PCG{} }, x0: true},
		{name: "afw", method: func() lazycg.Method { return &lazycg.AwayFW{} }},
		{name: "lazy-afw", method: func() lazycg.Method { return &lazycg.LazyAwayFW{} }, x0: true},
		{name: "lazy-bpcg", method: func() lazycg.Method { return &lazycg.LazyBPCG{} }},
		{name: "bpcg", method: func() lazycg.Method { return &lazycg.BlendedPairwise{} }, x0: true},
		{name: "llcg", method: local, x0: true},
		{name: "local-cg", method: func() lazycg.Method {
			return &lazycg.LocalCG{Mu: 1, D: math.Sqrt2, S: 2, Beta: 2, AlphaScale: 10}
		}, x0: true},
		{name: "lcg-concurrent", method: func() lazycg.Method { return &lazycg.LazyCG{} }, conc: true,
			delay: 100 * time.Microsecond},
		{name: "lcg-concurrent-x0", method: func() lazycg.Method { return &lazycg.LazyCG{} }, x0: true, conc: true,
			delay: 100 * time.Microsecond},
		{name: "lcg-concurrent-race", method: func() lazycg.Method { return &lazycg.LazyCG{} }, x0: true, conc: true,
			stale: lazycg.StaleRace, delay: 100 * time.Microsecond},
		{name: "lcg-concurrent-ahead", method: func() lazycg.Method { return &lazycg.LazyCG{} }, x0: true, conc: true,
			stale: lazycg.StaleAhead, delay: 100 * time.Microsecond},
		{name: "lpcg-concurrent", method: func() lazycg.Method { return &lazycg.LPCG{} }, x0: true, conc: true,
			stale: lazycg.StaleFork, delay: 100 * time.Microsecond},
	}
	for _, c := range cases {
		for _, budget := range []int{1, 2, 3, 5, 17} {
			t.Run(fmt.Sprintf("%s/%d", c.name, budget), func(t *testing.T) {
				var calls atomic.Int64
				counted := &countedLMO{lmo: simplex(), calls: &calls, delay: c.delay, fresh: simplex}
				p := lazycg.Problem{Objective: distance{b}, LMO: counted}
				if c.x0 {
					p.X0 = testutil.E0(n)
				}
				var duals []float64
				st := &lazycg.Settings{MaxLMOCalls: budget, TraceEvery: 1,
					Callback: func(pr lazycg.Progress) bool { duals = append(duals, pr.DualBound); return true }}
				st.Concurrent, st.Stale = c.conc, c.stale
				res, err := lazycg.Minimize(context.Background(), p, st, c.method())
				checkMaxCalls(t, res, err, budget, calls.Load(), fstar, duals, func(x []float64) (float64, error) {
					return testutil.SquaredDistance(x, b), counted.Check(x, 1e-9)
				})
			})
		}
	}
}

// checkMaxCalls checks a run under the limit budget: real is the number
// of calls that reached the LMO, fstar the optimal value, duals the dual
// bounds the callback saw, eval f at a point and its membership in P.
func checkMaxCalls(t *testing.T, res *lazycg.Result, err error, budget int, real int64, fstar float64, duals []float64,
	eval func(x []float64) (float64, error)) {
	t.Helper()
	if err != nil {
		t.Fatalf("error %v", err)
	}
	switch res.Status {
	case lazycg.LMOCallLimit, lazycg.GapConverged, lazycg.Stalled:
	default:
		t.Fatalf("status %v, want %v (or an earlier stop)", res.Status, lazycg.LMOCallLimit)
	}
	if res.Stats.LMOCalls > budget {
		t.Errorf("Stats.LMOCalls %d above the limit %d", res.Stats.LMOCalls, budget)
	}
	if real > int64(budget) {
		t.Errorf("%d calls reached the LMO, above the limit %d", real, budget)
	}
	if real != int64(res.Stats.LMOCalls) {
		t.Errorf("%d calls reached the LMO, Stats.LMOCalls says %d", real, res.Stats.LMOCalls)
	}
	f, merr := eval(res.X)
	if merr != nil {
		t.Errorf("the returned point is not in P: %v", merr)
	}
	if !(math.Abs(f-res.F) <= 1e-12*math.Max(1, math.Abs(f))) {
		t.Errorf("f(X) = %.17g, but F = %.17g", f, res.F)
	}
	tol := 1e-9 * math.Max(1, math.Abs(fstar))
	if res.DualBound > fstar+tol {
		t.Errorf("dual bound %.17g above f* = %.17g", res.DualBound, fstar)
	}
	for _, d := range duals {
		if d > fstar+tol {
			t.Errorf("callback dual bound %.17g above f* = %.17g", d, fstar)
		}
	}
	for _, tp := range res.Trace {
		if tp.DualBound > fstar+tol {
			t.Errorf("trace dual bound %.17g above f* = %.17g (iteration %d)", tp.DualBound, fstar, tp.Iteration)
		}
		if tp.LMOCalls > budget {
			t.Errorf("trace point with %d LMO calls above the limit %d", tp.LMOCalls, budget)
		}
	}
}

// TestMaxCallsDC checks MinimizeDC's limit over all subproblems, with
// and without a start point (the start vertex's call counts).
func TestMaxCallsDC(t *testing.T) {
	methods := []struct {
		name string
		new  func() lazycg.Method
	}{
		{"lcg", func() lazycg.Method { return &lazycg.LazyCG{} }},
		{"lcg-binary-search", func() lazycg.Method {
			return &lazycg.LazyCG{PhiSchedule: lazycg.PhiSchedule{Phi0Rule: lazycg.Phi0BinarySearch}}
		}},
		{"lpcg", func() lazycg.Method { return &lazycg.LPCG{} }},
	}
	for _, m := range methods {
		for _, x0 := range []bool{false, true} {
			for _, budget := range []int{1, 2, 3, 5, 17} {
				t.Run(fmt.Sprintf("%s/x0=%v/%d", m.name, x0, budget), func(t *testing.T) {
					p := dcTestProblem(t, 0.6)
					var calls atomic.Int64
					p.LMO = &countedLMO{lmo: p.LMO, calls: &calls}
					if x0 {
						p.X0 = make([]float64, 36)
						for i := range 6 {
							p.X0[i*6+i] = 1
						}
					}
					res, err := lazycg.MinimizeDC(context.Background(), p, &lazycg.DCSettings{MaxLMOCalls: budget}, m.new())
					if err != nil {
						t.Fatal(err)
					}
					if res.Status != lazycg.LMOCallLimit && res.Status != lazycg.GapConverged && res.Status != lazycg.Stalled {
						t.Fatalf("status %v", res.Status)
					}
					if res.Stats.LMOCalls > budget || calls.Load() > int64(budget) {
						t.Errorf("%d LMO calls (%d counted) above the limit %d", calls.Load(), res.Stats.LMOCalls, budget)
					}
					if err := checkDoublyStochastic(res.X, 6, 1e-9); err != nil {
						t.Errorf("X not in P: %v", err)
					}
					if phi := p.F.Func(res.X) - p.G.Func(res.X); !(math.Abs(phi-res.F) <= 1e-12*math.Max(1, math.Abs(phi))) {
						t.Errorf("φ(X) = %g, F = %g", phi, res.F)
					}
				})
			}
		}
	}
}

// TestMaxCallsAugmenting checks the limit with the augmenting separator,
// whose Separate calls make several augmentation calls (counted as LMO
// calls): the separator stops at the limit itself.
func TestMaxCallsAugmenting(t *testing.T) {
	const n, k = 30, 6
	b := testutil.RandomVector(n, 5, 0.4)
	for _, budget := range []int{1, 2, 3, 5, 17} {
		t.Run(fmt.Sprint(budget), func(t *testing.T) {
			h, err := lmo.NewHypersimplex(n, k, 1)
			if err != nil {
				t.Fatal(err)
			}
			lo, _ := referenceBounds(t, lazycg.Problem{Objective: distance{b}, LMO: h})
			aug := &countedAugmenter{Hypersimplex: h}
			sep, err := lazycg.NewAugmentingSeparator(aug)
			if err != nil {
				t.Fatal(err)
			}
			x0 := make([]float64, n)
			for i := range k {
				x0[i] = 1
			}
			p := lazycg.Problem{Objective: distance{b}, LMO: aug, Separator: sep, X0: x0}
			// Φ0 given: every LMO call of the run is an augmentation.
			m := &lazycg.LazyCG{K: 1.1, PhiSchedule: lazycg.PhiSchedule{Phi0: 2}}
			res, err := lazycg.Minimize(context.Background(), p, &lazycg.Settings{MaxLMOCalls: budget}, m)
			real := aug.augments + aug.calls
			checkMaxCalls(t, res, err, budget, real, lo, nil, func(x []float64) (float64, error) {
				return testutil.SquaredDistance(x, b), h.Check(x, 1e-9)
			})
			if budget == 17 && sep.Counts().MaxAugCalls < 2 {
				t.Errorf("no Separate call took several augmentations (%+v): the test tests nothing", sep.Counts())
			}
		})
	}
}

// countedAugmenter is the hypersimplex with a weak augmentation oracle
// (Augment: the single swap that improves least on cur, so that a
// Separate call takes several augmentations) that counts its calls
// (augments) and its LMO calls (calls). It is no EarlyStopper: the
// methods' direct LMO calls go to Minimize.
type countedAugmenter struct {
	*lmo.Hypersimplex
	augments, calls int64
}

func (a *countedAugmenter) Minimize(ctx context.Context, dst, c []float64) (lazycg.LinearResult, error) {
	a.calls++
	return a.Hypersimplex.Minimize(ctx, dst, c)
}

func (a *countedAugmenter) Augment(_ context.Context, dst, c, cur []float64) (bool, error) {
	a.augments++
	in, out, gain := -1, -1, math.Inf(1)
	for i := range c {
		for j := range c {
			if cur[i] < 0.5 && cur[j] > 0.5 {
				if d := c[j] - c[i]; d > 1e-12 && d < gain {
					in, out, gain = i, j, d
				}
			}
		}
	}
	copy(dst, cur)
	if in < 0 {
		return false, nil
	}
	dst[in], dst[out] = 1, 0
	return true, nil
}

// TestNewNegativeDimension checks that NewCache and NewActiveSet refuse a
// negative dimension at once, naming the function and the value.
func TestNewNegativeDimension(t *testing.T) {
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"NewCache", func() { lazycg.NewCache(-3, lazycg.CachePolicy{}) }},
		{"NewActiveSet", func() { lazycg.NewActiveSet(-3) }},
	} {
		func() {
			defer func() {
				r := recover()
				msg, _ := r.(string)
				if r == nil || !strings.HasPrefix(msg, "lazycg: ") || !strings.Contains(msg, c.name) || !strings.Contains(msg, "-3") {
					t.Errorf("%s(-3): panic %v, want one prefixed \"lazycg: \" naming %s and -3", c.name, r, c.name)
				}
			}()
			c.f()
		}()
	}
	// Zero stays allowed.
	lazycg.NewCache(0, lazycg.CachePolicy{})
	lazycg.NewActiveSet(0)
}
