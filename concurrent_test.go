package lazycg_test

import (
	"context"
	"math"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/internal/testutil"
	"github.com/lazycg/lazycg/lmo"
	"github.com/lazycg/lazycg/mip"
	"github.com/lazycg/lazycg/spec"
)

// slowLMO delegates to a real LMO after a deterministic delay (so that the
// method has time to step while a call is in flight); it forwards the
// optional capabilities the methods use, and records overlapping calls
// (the LMO must never be called by two goroutines at once). Calls after
// the first blockAfter (when > 0) block until their context ends, and the
// first such call runs onBlock.
type slowLMO struct {
	lazycg.LMO
	delay      time.Duration
	blockAfter int64
	onBlock    func()
	// fresh, when set, makes a new instance of the wrapped LMO for Fork
	// (Go LMOs keep buffers: an instance must not serve two goroutines);
	// without it Fork forks the wrapped LMO, which must be a Forker.
	fresh func() lazycg.LMO
	// forks are the instances Fork made (each records its own calls).
	forks []*slowLMO

	calls, busy, overlaps atomic.Int64
	untils, dives         atomic.Int64 // MinimizeUntil calls, those with StopRule.Dive
	closed                atomic.Bool
}

// Fork implements lazycg.Forker: a slow instance of its own over a new
// instance of the wrapped LMO.
func (s *slowLMO) Fork(ctx context.Context) (lazycg.LMO, error) {
	var inner lazycg.LMO
	if s.fresh != nil {
		inner = s.fresh()
	} else {
		l, err := s.LMO.(lazycg.Forker).Fork(ctx)
		if err != nil {
			return nil, err
		}
		inner = l
	}
	f := &slowLMO{LMO: inner, delay: s.delay}
	s.forks = append(s.forks, f)
	return f, nil
}

// Close records that the instance was closed and closes the wrapped LMO
// (Minimize closes the forks it made).
func (s *slowLMO) Close() {
	s.closed.Store(true)
	if c, ok := s.LMO.(interface{ Close() }); ok {
		c.Close()
	}
}

// instances returns s and its forks.
func (s *slowLMO) instances() []*slowLMO { return append([]*slowLMO{s}, s.forks...) }

func (s *slowLMO) enter(ctx context.Context) error {
	if s.busy.Add(1) > 1 {
		s.overlaps.Add(1)
	}
	n := s.calls.Add(1)
	if s.blockAfter > 0 && n > s.blockAfter {
		if n == s.blockAfter+1 && s.onBlock != nil {
			s.onBlock()
		}
		<-ctx.Done()
		return ctx.Err()
	}
	if s.delay > 0 {
		t := time.NewTimer(s.delay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

func (s *slowLMO) leave() { s.busy.Add(-1) }

func (s *slowLMO) Minimize(ctx context.Context, dst, c []float64) (lazycg.LinearResult, error) {
	defer s.leave()
	if err := s.enter(ctx); err != nil {
		return lazycg.LinearResult{}, err
	}
	return s.LMO.Minimize(ctx, dst, c)
}

func (s *slowLMO) MinimizeUntil(ctx context.Context, dst, c []float64, rule lazycg.StopRule) (lazycg.LinearResult, error) {
	// Counted before enter, so that a call canceled in its delay counts.
	s.untils.Add(1)
	if rule.Dive {
		s.dives.Add(1)
	}
	defer s.leave()
	if err := s.enter(ctx); err != nil {
		return lazycg.LinearResult{}, err
	}
	if es, ok := s.LMO.(lazycg.EarlyStopper); ok {
		return es.MinimizeUntil(ctx, dst, c, rule)
	}
	return s.LMO.Minimize(ctx, dst, c)
}

func (s *slowLMO) MinimizeFace(ctx context.Context, dst, c []float64, zero []bool) (lazycg.LinearResult, error) {
	defer s.leave()
	if err := s.enter(ctx); err != nil {
		return lazycg.LinearResult{}, err
	}
	return s.LMO.(lazycg.FaceMinimizer).MinimizeFace(ctx, dst, c, zero)
}

func (s *slowLMO) StandardForm() bool {
	sf, ok := s.LMO.(lazycg.StandardForm)
	return ok && sf.StandardForm()
}

// distance is f(x) = ‖x − b‖².
type distance struct{ b []float64 }

func (d distance) Dim() int                 { return len(d.b) }
func (d distance) Func(x []float64) float64 { return testutil.SquaredDistance(x, d.b) }
func (d distance) Grad(dst, x []float64)    { testutil.SquaredDistanceGrad(dst, x, d.b) }

// quadDistance is distance with its exact line search (for corrections).
type quadDistance struct{ distance }

func (d quadDistance) LineMinimize(_, dir, grad []float64, gmax float64) float64 {
	return testutil.SquaredDistanceLineMinimize(dir, grad, gmax)
}

// concurrentCase is a problem with a known optimal value: f* in
// [lower, upper] (equal when known in closed form).
type concurrentCase struct {
	name         string
	p            lazycg.Problem
	lower, upper float64
	method       func(phi0 float64) lazycg.Method
	iters        int
	// stale is the stale-call policy, idle the idle policy.
	stale lazycg.StalePolicy
	idle  lazycg.IdlePolicy
}

func lazyCG(phi0 float64) lazycg.Method {
	return &lazycg.LazyCG{K: 1.1, PhiSchedule: lazycg.PhiSchedule{Phi0: phi0}}
}
func lazyAFW(phi0 float64) lazycg.Method {
	return &lazycg.LazyAwayFW{K: 1.1, PhiSchedule: lazycg.PhiSchedule{Phi0: phi0}}
}
func lazyBPCG(phi0 float64) lazycg.Method {
	return &lazycg.LazyBPCG{K: 1.1, PhiSchedule: lazycg.PhiSchedule{Phi0: phi0}}
}
func lazyBPCGCorrected(phi0 float64) lazycg.Method {
	return &lazycg.LazyBPCG{K: 1.1, PhiSchedule: lazycg.PhiSchedule{Phi0: phi0}, Correction: lazycg.CorrectionQuadratic}
}
func lpcg(phi0 float64) lazycg.Method {
	return &lazycg.LPCG{K: 1.1, PhiSchedule: lazycg.PhiSchedule{Phi0: phi0}}
}

// referenceBounds solves p sequentially with lazy BPCG to a tiny gap
// and returns its proven dual bound and primal value: f* lies between.
func referenceBounds(t *testing.T, p lazycg.Problem) (float64, float64) {
	t.Helper()
	p.LMO = unwrap(p.LMO)
	res, err := lazycg.Minimize(context.Background(), p, &lazycg.Settings{RelGapTolerance: 1e-11, MaxIterations: 200000},
		&lazycg.LazyBPCG{})
	if err != nil {
		t.Fatal(err)
	}
	if gap := res.F - res.DualBound; !(gap <= 1e-9*math.Max(1, math.Abs(res.F))) {
		t.Fatalf("reference run: gap %g too large (%v)", gap, res.Status)
	}
	return res.DualBound, res.F
}

func unwrap(l lazycg.LMO) lazycg.LMO {
	if s, ok := l.(*slowLMO); ok {
		return s.LMO
	}
	return l
}

func concurrentCases(t *testing.T) []concurrentCase {
	var cs []concurrentCase
	// Simplex: f* by projection.
	for _, m := range []struct {
		name string
		new  func(float64) lazycg.Method
	}{{"lcg", lazyCG}, {"lazy-afw", lazyAFW}, {"lazy-bpcg", lazyBPCG}, {"lpcg", lpcg}} {
		n := 200
		b := testutil.RandomVector(n, 7, 6.0/float64(n))
		fstar := testutil.SquaredDistance(testutil.ProjectSimplex(b), b)
		simplex, err := lmo.NewProbabilitySimplex(n, 1)
		if err != nil {
			t.Fatal(err)
		}
		fresh := func() lazycg.LMO {
			l, err := lmo.NewProbabilitySimplex(n, 1)
			if err != nil {
				panic(err)
			}
			return l
		}
		p := lazycg.Problem{Objective: distance{b}, LMO: &slowLMO{LMO: simplex, delay: 200 * time.Microsecond, fresh: fresh}, X0: testutil.E0(n)}
		cs = append(cs, concurrentCase{name: m.name + "/simplex", p: p, lower: fstar, upper: fstar, method: m.new, iters: 4000})
	}
	// Birkhoff 10×10, b random: f* from a reference run.
	for _, m := range []struct {
		name string
		new  func(float64) lazycg.Method
	}{{"lcg", lazyCG}, {"lazy-bpcg", lazyBPCG}, {"lpcg", lpcg}, {"lazy-bpcg-corrected", lazyBPCGCorrected},
		{"lcg-hull-corrected", lazyCG}, {"lpcg-hull-corrected", lpcg}} {
		bk, err := lmo.NewBirkhoff(10)
		if err != nil {
			t.Fatal(err)
		}
		b := testutil.RandomVector(100, 3, 0.25)
		x0 := make([]float64, 100)
		bk.Vertex(x0)
		fresh := func() lazycg.LMO {
			l, err := lmo.NewBirkhoff(10)
			if err != nil {
				panic(err)
			}
			return l
		}
		var obj lazycg.Objective = distance{b}
		idle := lazycg.IdleHull
		if strings.HasSuffix(m.name, "-corrected") {
			obj = quadDistance{distance{b}}
		}
		if strings.HasSuffix(m.name, "-hull-corrected") {
			idle = lazycg.IdleCorrected
		}
		p := lazycg.Problem{Objective: obj, LMO: &slowLMO{LMO: bk, delay: 200 * time.Microsecond, fresh: fresh}, X0: x0}
		lo, up := referenceBounds(t, p)
		cs = append(cs, concurrentCase{name: m.name + "/birkhoff", p: p, lower: lo, upper: up, method: m.new, iters: 3000, idle: idle})
	}
	return cs
}

// checkConcurrentRun runs c's method with concurrent weak separation and
// checks what docs/CONCURRENT.md claims: f never increases, every proven
// dual bound is at most f*, Corollary 4.2's bound on the negative answers
// received before f − f* ≤ ε, one LMO call at a time, and no goroutine
// left behind.
func checkConcurrentRun(t *testing.T, c concurrentCase) lazycg.Stats {
	t.Helper()
	x1 := c.p.X0
	if x1 == nil {
		t.Fatal("cases give X0")
	}
	f1 := c.p.Objective.Func(x1)
	phi0 := (f1 - c.lower) / 2 // f(x_1) − f* ≤ 2Φ0
	tol := 1e-9 * math.Max(1, math.Abs(c.upper))
	epsilons := []float64{}
	for e := phi0; e > 1e-7*math.Max(1, phi0); e /= 10 {
		epsilons = append(epsilons, e)
	}
	negAt := make([]int, len(epsilons))
	againAt := make([]int, len(epsilons))
	for i := range negAt {
		negAt[i] = -1
	}
	prevF := math.Inf(1)
	var bad []string
	cb := func(pr lazycg.Progress) bool {
		if pr.F > prevF+1e-12*math.Max(1, math.Abs(prevF)) {
			bad = append(bad, "f increased")
		}
		prevF = pr.F
		if pr.DualBound > c.upper+tol {
			bad = append(bad, "dual bound above f*")
		}
		for i, e := range epsilons {
			if negAt[i] < 0 && pr.F-c.lower <= e {
				negAt[i], againAt[i] = pr.Stats.NegativeCalls, pr.Stats.StaleRestarts
			}
		}
		return len(bad) == 0
	}
	before := runtime.NumGoroutine()
	slow, _ := c.p.LMO.(*slowLMO)
	if slow != nil {
		slow.forks = nil
	}
	iters := c.iters
	if c.idle != lazycg.IdleWait {
		// Most iterations of LazyCG and LPCG are then hull steps, taken
		// while the LMO works (several per call: they are cheap).
		iters *= 10
	}
	settings := &lazycg.Settings{MaxIterations: iters, Callback: cb,
		SeparatorConfig: lazycg.SeparatorConfig{Concurrent: true, Stale: c.stale, Idle: c.idle}}
	res, err := lazycg.Minimize(context.Background(), c.p, settings, c.method(phi0))
	if err != nil {
		t.Fatal(err)
	}
	if len(bad) > 0 {
		t.Fatalf("%s after %d iterations", bad[0], res.Stats.Iterations)
	}
	if res.DualBound > c.upper+tol || res.F < c.lower-tol {
		t.Errorf("result: primal %.12g, dual bound %.12g, f* in [%.12g, %.12g]", res.F, res.DualBound, c.lower, c.upper)
	}
	for i, e := range epsilons {
		neg, again := negAt[i], againAt[i]
		if neg < 0 {
			// Not reached: all answers so far came before.
			neg, again = res.Stats.NegativeCalls, res.Stats.StaleRestarts
		}
		limit := int(math.Ceil(math.Log2(phi0/e))) + 1
		if c.stale.TwoInstances() {
			// A forked question is asked at the Φ of the call still in
			// flight: its negative answer proves its dual bound without
			// halving Φ again (docs/CONCURRENT.md).
			limit += again
		}
		if neg > limit {
			t.Errorf("ε=%g: %d negative answers before f − f* ≤ ε, Corollary 4.2 allows %d", e, neg, limit)
		}
	}
	if slow != nil {
		for k, s := range slow.instances() {
			if s.overlaps.Load() != 0 || s.busy.Load() != 0 {
				t.Errorf("LMO instance %d: %d overlapping calls, %d calls running after Minimize returned", k, s.overlaps.Load(), s.busy.Load())
			}
			if k > 0 && !s.closed.Load() {
				t.Errorf("LMO fork %d not closed after Minimize returned", k)
			}
		}
		if forks := len(slow.forks); c.stale.TwoInstances() != (forks == 1) {
			t.Errorf("%d forks of the LMO under the stale-call policy %v", forks, c.stale)
		}
	}
	checkGoroutines(t, before)
	if !(res.F-c.lower <= 1e-3*math.Max(1, phi0)) {
		t.Errorf("no progress: f − f* = %g after %d iterations (%v)", res.F-c.lower, res.Stats.Iterations, res.Status)
	}
	if c.stale == lazycg.StaleWait && res.Stats.StaleRestarts != 0 {
		t.Errorf("%d questions asked again under the waiting policy", res.Stats.StaleRestarts)
	}
	if st := res.Stats; (c.stale != lazycg.StaleRace && c.stale != lazycg.StaleRaceCopy && st.Races != 0) || st.RacesWon > st.Races {
		t.Errorf("%d races (%d won) under the stale-call policy %v", st.Races, st.RacesWon, c.stale)
	}
	if st := res.Stats; (c.stale != lazycg.StaleAhead && st.Aheads != 0) || st.AheadsSettled > st.Aheads {
		t.Errorf("%d questions asked ahead (%d settled) under the stale-call policy %v", st.Aheads, st.AheadsSettled, c.stale)
	}
	// The stale and lost parts of the LMO's time: within it, and not empty
	// when a call was canceled for going stale (StaleRestart) or lost a
	// race.
	if st := res.Stats; st.StaleOracleTime > st.OracleTime || st.LostOracleTime > st.OracleTime ||
		(c.stale == lazycg.StaleRestart && st.StaleRestarts > 0 && (st.StaleOracleTime == 0 || st.LostOracleTime == 0)) ||
		(st.Races > 0 && st.LostOracleTime == 0) {
		t.Errorf("%v: LMO time %v, of it %v stale and %v lost (%d stale restarts, %d races)", c.stale, st.OracleTime,
			st.StaleOracleTime, st.LostOracleTime, st.StaleRestarts, st.Races)
	}
	// Stale answers: counted among the answers, positive ones among the
	// positive answers, improving ones among those.
	if st := res.Stats; st.StaleImproving > st.StalePositives || st.StalePositives > st.PositiveCalls ||
		st.StaleAnswers-st.StalePositives > st.NegativeCalls || st.StalePositives > st.StaleAnswers {
		t.Errorf("%v: %d stale answers, %d positive, %d improving; %d positive and %d negative answers in all", c.stale,
			st.StaleAnswers, st.StalePositives, st.StaleImproving, st.PositiveCalls, st.NegativeCalls)
	}
	checkCallRecords(t, c.stale, res)
	t.Logf("%v after %d iterations: f − f* ≤ %.3g, gap %.3g, %d LMO calls, %d negative, %d concurrent steps, %d hull steps, %d stale restarts, %d questions ahead (%d settled), %d stale answers (%d positive, %d improving)", res.Status,
		res.Stats.Iterations, res.F-c.lower, res.Gap(), res.Stats.LMOCalls, res.Stats.NegativeCalls, res.Stats.ConcurrentSteps,
		res.Stats.HullSteps, res.Stats.StaleRestarts, res.Stats.Aheads, res.Stats.AheadsSettled, res.Stats.StaleAnswers, res.Stats.StalePositives, res.Stats.StaleImproving)
	return res.Stats
}

// checkCallRecords checks Result.Calls against the run's counters: one
// record per background call, on an instance the policy runs, each
// ended within the run; as many questions asked ahead and race copies as
// Stats counts, at least as many retired calls as races won and
// questions settled ahead, no call of the second instance under the
// one-instance policies, and the stale and lost LMO time of Stats made
// of the records' durations exactly.
func checkCallRecords(t *testing.T, policy lazycg.StalePolicy, res *lazycg.Result) {
	t.Helper()
	st := res.Stats
	if len(res.Calls) == 0 || len(res.Calls) > st.LMOCalls {
		t.Fatalf("%d call records for %d LMO calls", len(res.Calls), st.LMOCalls)
	}
	var stale, lost time.Duration
	roles, outcomes := map[lazycg.CallRole]int{}, map[lazycg.CallOutcome]int{}
	best := math.Inf(-1) // the best dual bound a record proves
	for i, c := range res.Calls {
		// A proof at Φ (LPCG: at Φ less the away part's bound) or below;
		// an inexact one, above Φ; none (+Inf) from most positive and
		// failed calls.
		if math.IsNaN(c.Gap) || c.Outcome == lazycg.CallNegative && c.Gap > c.Phi*(1+1e-12) {
			t.Fatalf("call record %d: gap %g for outcome %v at Φ = %g", i, c.Gap, c.Outcome, c.Phi)
		}
		best = math.Max(best, c.F-c.Gap)
		if c.Instance < 0 || c.Instance > 1 || (c.Instance == 1 && !policy.TwoInstances()) ||
			c.Start < 0 || c.End < c.Start || c.End > st.Runtime || !(c.Phi > 0) || !(c.T > 0) ||
			(i > 0 && c.Start < res.Calls[i-1].Start) {
			t.Fatalf("call record %d of %d: %+v (runtime %v, policy %v)", i, len(res.Calls), c, st.Runtime, policy)
		}
		roles[c.Role]++
		outcomes[c.Outcome]++
		if c.Stale {
			stale += c.End - c.Start
		}
		switch c.Outcome {
		case lazycg.CallRetired, lazycg.CallCanceled, lazycg.CallFailed:
			lost += c.End - c.Start
		}
	}
	if roles[lazycg.CallAhead] != st.Aheads || roles[lazycg.CallRaceCopy] != st.Races ||
		outcomes[lazycg.CallRetired] < st.AheadsSettled+st.RacesWon {
		t.Errorf("records: roles %v, outcomes %v; %d asked ahead (%d settled), %d races (%d won)", roles, outcomes,
			st.Aheads, st.AheadsSettled, st.Races, st.RacesWon)
	}
	if stale != st.StaleOracleTime || lost != st.LostOracleTime {
		t.Errorf("records: %v stale and %v lost, Stats: %v and %v", stale, lost, st.StaleOracleTime, st.LostOracleTime)
	}
	// Every record's proof reached the run's dual bound (which the final
	// value caps).
	if want := math.Min(best, res.F); res.DualBound < want {
		t.Errorf("dual bound %.12g below the best proof of the call records, %.12g", res.DualBound, want)
	}
}

// checkGoroutines waits until the number of goroutines is back to before
// (a goroutine that sent its last result may still be on its way out).
func checkGoroutines(t *testing.T, before int) {
	t.Helper()
	for range 1000 {
		if runtime.NumGoroutine() <= before {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Errorf("goroutine leak: %d goroutines, %d before the run", runtime.NumGoroutine(), before)
}

func TestConcurrentTheorems(t *testing.T) {
	// Hull steps need a core beside the call in flight.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0))))
	for _, c := range concurrentCases(t) {
		t.Run(c.name, func(t *testing.T) {
			st := checkConcurrentRun(t, c)
			if c.idle == lazycg.IdleCorrected && (st.HullSteps == 0 || st.Corrections == 0) {
				t.Errorf("IdleCorrected: %d hull steps, %d corrections", st.HullSteps, st.Corrections)
			}
		})
	}
}

// TestConcurrentStalePolicies runs the same cases under the stale-call
// policies StaleRestart, StaleFork and StaleRace: the guarantees are those
// of the waiting policy (checkConcurrentRun; under StaleFork and StaleRace
// Corollary 4.2's count grows by at most one negative answer per forked
// question, and a race's second answer is never used), and questions
// whose call went stale are asked again — restarted calls are collected
// before the next one starts, forked ones run on their own LMO instance
// (no overlap on either instance; the fork is closed at the end). Under
// StaleRace and StaleRaceCopy fresh calls are raced too, and under
// StaleAhead joined by the question at Φ/2 (whose proofs take Φ to Φ/4:
// Corollary 4.2's count is checked with no allowance for them).
func TestConcurrentStalePolicies(t *testing.T) {
	for _, policy := range []lazycg.StalePolicy{lazycg.StaleRestart, lazycg.StaleFork, lazycg.StaleRace, lazycg.StaleRaceCopy, lazycg.StaleAhead} {
		t.Run(policy.String(), func(t *testing.T) {
			again, forkCalls, races, aheads, stale := map[string]int{}, int64(0), 0, 0, 0
			for _, c := range concurrentCases(t) {
				c.stale = policy
				t.Run(c.name, func(t *testing.T) {
					st := checkConcurrentRun(t, c)
					again[c.name] = st.StaleRestarts
					races += st.Races
					aheads += st.Aheads
					stale += st.StaleAnswers
					for _, f := range c.p.LMO.(*slowLMO).forks {
						forkCalls += f.calls.Load()
					}
				})
			}
			if (policy == lazycg.StaleRace || policy == lazycg.StaleRaceCopy) && races == 0 {
				t.Error("no race in any run")
			}
			if policy == lazycg.StaleAhead && aheads == 0 {
				t.Error("no question asked ahead in any run")
			}
			total := 0
			for _, n := range again {
				total += n
			}
			if total == 0 {
				t.Errorf("no question asked again in any run: %v", again)
			}
			if policy != lazycg.StaleRestart && forkCalls == 0 {
				t.Error("no call on the LMO's fork in any run")
			}
			// A forked question leaves a stale call running; its answer
			// arrives stale.
			if policy.TwoInstances() && stale == 0 {
				t.Error("no stale answer in any run")
			}
		})
	}
}

// TestConcurrentMIP runs the concurrent lazy methods over the cut polytope
// of a random 8-node graph with CBC as the LMO (early terminated).
func TestConcurrentMIP(t *testing.T) {
	cfg := spec.Config{Polytope: "cut:8", Objective: "quadratic", Method: "lcg", Seed: 1}
	p, err := cfg.Prepare()
	if err != nil {
		t.Skipf("cut polytope unavailable: %v", err)
	}
	defer p.Close()
	if p.Problem.X0 == nil {
		p.Problem.X0 = make([]float64, p.Instance.Dim()) // the empty cut
	}
	prob := lazycg.Problem{Objective: p.Problem.Objective, LMO: &slowLMO{LMO: p.Instance.LMO}, X0: p.Problem.X0}
	lo, up := referenceBounds(t, prob)
	for _, m := range []struct {
		name string
		new  func(float64) lazycg.Method
	}{{"lcg", lazyCG}, {"lazy-afw", lazyAFW}, {"lazy-bpcg", lazyBPCG}} {
		prob.LMO = &slowLMO{LMO: p.Instance.LMO}
		t.Run(m.name, func(t *testing.T) {
			if testing.Short() && m.name == "lazy-afw" {
				t.Skip("short mode")
			}
			checkConcurrentRun(t, concurrentCase{name: m.name, p: prob, lower: lo, upper: up, method: m.new, iters: 3000})
		})
	}
	// Restarting stale calls cancels CBC in mid-solve and reuses the
	// solver for the next question.
	prob.LMO = &slowLMO{LMO: p.Instance.LMO}
	t.Run("lcg-restart", func(t *testing.T) {
		checkConcurrentRun(t, concurrentCase{name: "lcg-restart", p: prob, lower: lo, upper: up, method: lazyCG, iters: 3000, stale: lazycg.StaleRestart})
	})
	// Forking runs two CBC solvers over the same model at the same time.
	prob.LMO = &slowLMO{LMO: p.Instance.LMO}
	t.Run("lcg-fork", func(t *testing.T) {
		checkConcurrentRun(t, concurrentCase{name: "lcg-fork", p: prob, lower: lo, upper: up, method: lazyCG, iters: 3000, stale: lazycg.StaleFork})
	})
	// Racing: under race the calls of the LMO dive in CBC (StopRule.Dive)
	// and those of its fork search best-first, under race-copy only the
	// race copies do; the call that loses is canceled mid-solve.
	for _, policy := range []lazycg.StalePolicy{lazycg.StaleRace, lazycg.StaleRaceCopy} {
		slow := &slowLMO{LMO: p.Instance.LMO}
		prob.LMO = slow
		name := "lcg-" + policy.String()
		t.Run(name, func(t *testing.T) {
			st := checkConcurrentRun(t, concurrentCase{name: name, p: prob, lower: lo, upper: up, method: lazyCG, iters: 3000, stale: policy})
			checkRaces(t, st, slow, policy)
		})
	}
	// Asking ahead: the call at Φ/2 runs beside the one at Φ on CBC's
	// fork; when its proof answers both questions the call at Φ is
	// canceled mid-solve.
	slow := &slowLMO{LMO: p.Instance.LMO}
	prob.LMO = slow
	t.Run("lcg-ahead", func(t *testing.T) {
		st := checkConcurrentRun(t, concurrentCase{name: "lcg-ahead", p: prob, lower: lo, upper: up, method: lazyCG, iters: 3000, stale: lazycg.StaleAhead})
		checkAheads(t, st, slow)
	})
}

// checkAheads checks that a run under StaleAhead asked questions ahead on
// the LMO's fork, raced none, and let every early-stopping call of both
// instances search as the default says (diving).
func checkAheads(t *testing.T, st lazycg.Stats, slow *slowLMO) {
	t.Helper()
	dives, untils := slow.dives.Load(), slow.untils.Load()
	for _, f := range slow.forks {
		dives += f.dives.Load()
		untils += f.untils.Load()
	}
	if st.Aheads == 0 || st.AheadsSettled > st.Aheads || st.Races != 0 || len(slow.forks) != 1 || slow.forks[0].untils.Load() == 0 || dives != untils {
		t.Errorf("ahead: %d questions asked ahead (%d settled), %d races; %d of %d early-stopping calls dived", st.Aheads, st.AheadsSettled,
			st.Races, dives, untils)
	}
}

// checkRaces checks that a run under StaleRace or StaleRaceCopy raced its
// questions and that the searches were split as the policy says: under
// StaleRace every early-stopping call of the LMO dived (the default) and
// none of its fork's; under StaleRaceCopy exactly one call per race — the
// copy's — did not dive, and both instances asked questions.
func checkRaces(t *testing.T, st lazycg.Stats, slow *slowLMO, policy lazycg.StalePolicy) {
	t.Helper()
	dives, untils := int64(0), int64(0)
	for _, f := range slow.forks {
		dives += f.dives.Load()
		untils += f.untils.Load()
	}
	bad := st.Races == 0 || st.RacesWon > st.Races || untils == 0 || slow.untils.Load() == 0 || st.LostOracleTime == 0
	switch policy {
	case lazycg.StaleRace:
		bad = bad || dives != 0 || slow.dives.Load() != slow.untils.Load()
	case lazycg.StaleRaceCopy:
		bestFirst := untils - dives + slow.untils.Load() - slow.dives.Load()
		bad = bad || bestFirst != int64(st.Races) || dives == 0
	default:
		t.Fatalf("checkRaces: policy %v does not race", policy)
	}
	if bad {
		t.Errorf("%v: %d races (%d won); the fork: %d of %d early-stopping calls dived; the LMO: %d of %d", policy, st.Races, st.RacesWon,
			dives, untils, slow.dives.Load(), slow.untils.Load())
	}
}

// TestConcurrentMIPPairwise runs concurrent LPCG over the assignment
// polytope as a MIP (standard form) with CBC as the LMO, its face
// minimization included.
func TestConcurrentMIPPairwise(t *testing.T) {
	const k = 6
	f, err := mip.AssignmentPolytope(k)
	if err != nil {
		t.Fatal(err)
	}
	solver, err := mip.NewSolver(f.Model, mip.Options{Vars: f.Vars})
	if err != nil {
		t.Fatal(err)
	}
	defer solver.Close()
	x0 := make([]float64, k*k)
	for i := range k {
		x0[i*k+i] = 1
	}
	b := testutil.RandomVector(k*k, 11, 0.35)
	prob := lazycg.Problem{Objective: distance{b}, LMO: &slowLMO{LMO: solver}, X0: x0}
	lo, up := referenceBounds(t, prob)
	for _, m := range []struct {
		name string
		new  func(float64) lazycg.Method
	}{{"lpcg", lpcg}, {"lcg", lazyCG}} {
		prob.LMO = &slowLMO{LMO: solver}
		t.Run(m.name, func(t *testing.T) {
			checkConcurrentRun(t, concurrentCase{name: m.name, p: prob, lower: lo, upper: up, method: m.new, iters: 2000})
		})
	}
	prob.LMO = &slowLMO{LMO: solver}
	t.Run("lpcg-restart", func(t *testing.T) {
		checkConcurrentRun(t, concurrentCase{name: "lpcg-restart", p: prob, lower: lo, upper: up, method: lpcg, iters: 2000, stale: lazycg.StaleRestart})
	})
	prob.LMO = &slowLMO{LMO: solver}
	t.Run("lpcg-fork", func(t *testing.T) {
		checkConcurrentRun(t, concurrentCase{name: "lpcg-fork", p: prob, lower: lo, upper: up, method: lpcg, iters: 2000, stale: lazycg.StaleFork})
	})
	// CBC answers these in about 100 µs, before the method runs out of
	// steps and races; a millisecond per call makes races a matter of the
	// run, not of scheduling (18–26 races per run under -race and load).
	for _, policy := range []lazycg.StalePolicy{lazycg.StaleRace, lazycg.StaleRaceCopy} {
		slow := &slowLMO{LMO: solver, delay: time.Millisecond}
		prob.LMO = slow
		name := "lpcg-" + policy.String()
		t.Run(name, func(t *testing.T) {
			st := checkConcurrentRun(t, concurrentCase{name: name, p: prob, lower: lo, upper: up, method: lpcg, iters: 2000, stale: policy})
			checkRaces(t, st, slow, policy)
		})
	}
	slow := &slowLMO{LMO: solver, delay: time.Millisecond}
	prob.LMO = slow
	t.Run("lpcg-ahead", func(t *testing.T) {
		st := checkConcurrentRun(t, concurrentCase{name: "lpcg-ahead", p: prob, lower: lo, upper: up, method: lpcg, iters: 2000, stale: lazycg.StaleAhead})
		checkAheads(t, st, slow)
	})
}

// TestConcurrentStops checks that a run whose LMO call never returns on
// its own ends at the time limit and on cancellation, with its best point
// and a valid bound, and leaves no goroutine behind.
func TestConcurrentStops(t *testing.T) {
	n := 100
	b := testutil.RandomVector(n, 5, 6.0/float64(n))
	fstar := testutil.SquaredDistance(testutil.ProjectSimplex(b), b)
	for _, tc := range []struct {
		name   string
		limit  time.Duration
		cancel bool
		want   lazycg.Status
	}{
		// The limit leaves the 8 calls before the blocking one time to
		// happen on a loaded machine; the run then waits for it.
		{"time-limit", time.Second, false, lazycg.TimeLimit},
		{"cancel", 0, true, lazycg.Canceled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			simplex, err := lmo.NewProbabilitySimplex(n, 1)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			slow := &slowLMO{LMO: simplex, blockAfter: 8}
			if tc.cancel {
				slow.onBlock = cancel
			}
			before := runtime.NumGoroutine()
			p := lazycg.Problem{Objective: distance{b}, LMO: slow, X0: testutil.E0(n)}
			res, err := lazycg.Minimize(ctx, p, &lazycg.Settings{TimeLimit: tc.limit,
				SeparatorConfig: lazycg.SeparatorConfig{Concurrent: true}}, lazyCG(0))
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != tc.want {
				t.Errorf("status %v, want %v", res.Status, tc.want)
			}
			if res.DualBound > fstar+1e-9 || res.F < fstar-1e-9 || math.IsInf(res.DualBound, -1) {
				t.Errorf("primal %g, dual bound %g, f* = %g", res.F, res.DualBound, fstar)
			}
			if got := testutil.SquaredDistance(res.X, b); got != res.F {
				t.Errorf("f(X) = %g, F = %g", got, res.F)
			}
			if slow.busy.Load() != 0 || slow.calls.Load() <= 8 {
				t.Errorf("LMO: %d calls running after Minimize returned, %d calls", slow.busy.Load(), slow.calls.Load())
			}
			checkGoroutines(t, before)
		})
	}
}

// TestConcurrentRefused checks the clear errors where the argument of
// docs/CONCURRENT.md does not hold.
func TestConcurrentRefused(t *testing.T) {
	n := 20
	b := testutil.RandomVector(n, 1, 0.1)
	simplex, err := lmo.NewProbabilitySimplex(n, 1)
	if err != nil {
		t.Fatal(err)
	}
	p := lazycg.Problem{Objective: distance{b}, LMO: simplex, X0: testutil.E0(n)}
	own := p
	own.Separator = opaqueSeparator{lazycg.NewSeparator(simplex, lazycg.SeparatorConfig{})}
	for _, tc := range []struct {
		name string
		p    lazycg.Problem
		m    lazycg.Method
		want string
	}{
		{"non-lazy", p, &lazycg.FrankWolfe{}, "does not support it"},
		{"textbook", p, &lazycg.LazyTextbook{C: 1}, "does not support it"},
		{"curvature-step", p, &lazycg.LazyCG{Rule: lazycg.StepCurvature, C: 4}, "line search only"},
		{"short-step", p, &lazycg.LazyCG{LineSearch: lazycg.LineSearch{Rule: lazycg.LineSearchShortStep, L: 2}}, "monotonically"},
		{"dyadic", p, &lazycg.LPCG{Rule: lazycg.PairwiseDyadic, S: 1, C: 1, Alpha: 1}, "rule only"},
		{"own-separator", own, &lazycg.LazyCG{}, "cannot run its LMO call apart"},
		{"fork-without-forker", p, &lazycg.LazyCG{}, "Forker"},
		{"unknown-policy", p, &lazycg.LazyCG{}, "unknown stale-call policy"},
		{"unknown-idle", p, &lazycg.LazyCG{}, "unknown idle policy"},
		{"corrected-without-line-minimizer", p, &lazycg.LazyCG{}, "LineMinimizer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stale, idle := lazycg.StaleWait, lazycg.IdleHull
			switch tc.name {
			case "fork-without-forker":
				stale = lazycg.StaleFork
			case "unknown-policy":
				stale = lazycg.StalePolicy(7)
			case "unknown-idle":
				idle = lazycg.IdlePolicy(7)
			case "corrected-without-line-minimizer":
				idle = lazycg.IdleCorrected
			}
			_, err := lazycg.Minimize(context.Background(), tc.p, &lazycg.Settings{MaxIterations: 10,
				SeparatorConfig: lazycg.SeparatorConfig{Concurrent: true, Stale: stale, Idle: idle}}, tc.m)
			if err == nil || !strings.Contains(err.Error(), "concurrent weak separation") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want a concurrent weak separation error with %q", err, tc.want)
			}
		})
	}
}

// opaqueSeparator is a weak separation oracle that offers nothing but
// Separate (as a problem's own separator may).
type opaqueSeparator struct{ lazycg.WeakSeparator }

// BenchmarkConcurrent measures the wall-clock time LCG and LPCG need to
// reach a fixed primal value (f* + 1e-6·(f(x_1) − f*)) over the Birkhoff
// polytope 30×30 whose LMO takes 1 ms more per call (a sleep: the call
// does not compete for the CPU, as when it runs on a core of its own),
// sequential vs concurrent weak separation. It shows what overlapping
// the LMO with the cached steps can gain when nothing else competes for
// the cores; the MIP rows of the concurrent suite (docs/CONCURRENT.md)
// show it with CBC.
func BenchmarkConcurrent(b *testing.B) {
	bk, err := lmo.NewBirkhoff(30)
	if err != nil {
		b.Fatal(err)
	}
	target := testutil.RandomVector(900, 3, 0.08)
	x0 := make([]float64, 900)
	bk.Vertex(x0)
	p := lazycg.Problem{Objective: distance{target}, LMO: bk, X0: x0}
	ref, err := lazycg.Minimize(context.Background(), p, &lazycg.Settings{RelGapTolerance: 1e-11, MaxIterations: 1 << 20}, &lazycg.LazyBPCG{})
	if err != nil {
		b.Fatal(err)
	}
	goal := ref.DualBound + 1e-6*(p.Objective.Func(x0)-ref.DualBound)
	for _, m := range []struct {
		name string
		new  func(float64) lazycg.Method
	}{{"lcg", lazyCG}, {"lpcg", lpcg}} {
		for _, conc := range []bool{false, true} {
			name := m.name + "/sequential"
			if conc {
				name = m.name + "/concurrent"
			}
			b.Run(name, func(b *testing.B) {
				var calls, steps int
				for b.Loop() {
					q := p
					q.LMO = &slowLMO{LMO: bk, delay: time.Millisecond}
					res, err := lazycg.Minimize(context.Background(), q, &lazycg.Settings{TargetPrimal: goal, HasTargetPrimal: true,
						MaxIterations: 1 << 22, SeparatorConfig: lazycg.SeparatorConfig{Concurrent: conc}}, m.new(0))
					if err != nil || res.Status != lazycg.TargetReached {
						b.Fatalf("%v %v", res.Status, err)
					}
					calls += res.Stats.LMOCalls
					steps += res.Stats.ConcurrentSteps
				}
				b.ReportMetric(float64(calls)/float64(b.N), "lmo-calls/op")
				b.ReportMetric(float64(steps)/float64(b.N), "concurrent-steps/op")
			})
		}
	}
}

// TestStalePolicyNames checks that the policies' names parse back, that
// other names are refused, and which policies run a second instance.
func TestStalePolicyNames(t *testing.T) {
	for _, p := range []lazycg.StalePolicy{lazycg.StaleWait, lazycg.StaleRestart, lazycg.StaleFork, lazycg.StaleRace, lazycg.StaleRaceCopy, lazycg.StaleAhead} {
		got, err := lazycg.ParseStalePolicy(p.String())
		if err != nil || got != p {
			t.Errorf("ParseStalePolicy(%q) = %v, %v", p.String(), got, err)
		}
		if two := p >= lazycg.StaleFork; p.TwoInstances() != two {
			t.Errorf("%v.TwoInstances() = %v, want %v", p, p.TwoInstances(), two)
		}
	}
	for _, name := range []string{"", "Wait", "cancel", "fork ", "race_copy", "copy"} {
		if _, err := lazycg.ParseStalePolicy(name); err == nil {
			t.Errorf("ParseStalePolicy(%q) accepted", name)
		}
	}
	if s := lazycg.StalePolicy(9).String(); s != "StalePolicy(9)" {
		t.Errorf("String of an unknown policy: %q", s)
	}
}

// TestIdlePolicyNames checks that the idle policies' names parse back and
// that other names are refused.
func TestIdlePolicyNames(t *testing.T) {
	for _, p := range []lazycg.IdlePolicy{lazycg.IdleAuto, lazycg.IdleHull, lazycg.IdleWait, lazycg.IdleCorrected} {
		got, err := lazycg.ParseIdlePolicy(p.String())
		if err != nil || got != p {
			t.Errorf("ParseIdlePolicy(%q) = %v, %v", p.String(), got, err)
		}
	}
	for _, name := range []string{"", "Hull", "spin"} {
		if _, err := lazycg.ParseIdlePolicy(name); err == nil {
			t.Errorf("ParseIdlePolicy(%q) accepted", name)
		}
	}
	if s := lazycg.IdlePolicy(7).String(); s != "IdlePolicy(7)" {
		t.Errorf("String of an unknown policy: %q", s)
	}
}

// TestConcurrentIdle: under IdleWait no hull step is taken and the
// theorem checks hold as under IdleHull and the default IdleAuto; under IdleHull the
// methods without an active set of their own (LazyCG, LPCG) take hull
// steps while calls are in flight, and the active-set methods never do;
// with one core (GOMAXPROCS 1) the call in flight has it and no hull step
// is taken either.
func TestConcurrentIdle(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(procs)
	for _, c := range concurrentCases(t) {
		if !strings.HasSuffix(c.name, "/simplex") {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			runtime.GOMAXPROCS(1)
			one := checkConcurrentRun(t, c)
			if one.HullSteps != 0 {
				t.Errorf("%d hull steps with one core, which the call in flight has", one.HullSteps)
			}
			runtime.GOMAXPROCS(max(2, procs))
			c.idle = lazycg.IdleHull
			hull := checkConcurrentRun(t, c)
			c.idle = lazycg.IdleWait
			wait := checkConcurrentRun(t, c)
			if wait.HullSteps != 0 {
				t.Errorf("%d hull steps under IdleWait", wait.HullSteps)
			}
			own := strings.HasPrefix(c.name, "lazy-afw") || strings.HasPrefix(c.name, "lazy-bpcg")
			if own && hull.HullSteps != 0 {
				t.Errorf("%d hull steps of a method with an active set of its own", hull.HullSteps)
			}
			if !own && hull.HullSteps == 0 {
				t.Error("no hull step under IdleHull")
			}
			// IdleAuto, the zero value: LazyCG takes hull steps, corrected
			// when the objective has an exact line search; LPCG and the
			// active-set methods wait.
			c.idle = lazycg.IdleAuto
			for _, exact := range []bool{false, true} {
				if exact {
					d := c.p.Objective.(distance)
					c.p.Objective = quadDistance{d}
				}
				auto := checkConcurrentRun(t, c)
				lcg := strings.HasPrefix(c.name, "lcg/")
				switch {
				case lcg && auto.HullSteps == 0:
					t.Errorf("IdleAuto (exact line search %v): no hull step of LazyCG", exact)
				case lcg && exact != (auto.Corrections > 0):
					t.Errorf("IdleAuto (exact line search %v): %d corrections", exact, auto.Corrections)
				case !lcg && auto.HullSteps != 0:
					t.Errorf("IdleAuto (exact line search %v): %d hull steps", exact, auto.HullSteps)
				}
			}
		})
	}
}

// TestSeparatorDive checks that every early-stopping LMO call of a
// sequential run dives (StopRule.Dive) by default, and that with
// SeparatorConfig.NoDive none does.
func TestSeparatorDive(t *testing.T) {
	n := 50
	b := testutil.RandomVector(n, 3, 6.0/float64(n))
	for _, dive := range []bool{false, true} {
		simplex, err := lmo.NewProbabilitySimplex(n, 1)
		if err != nil {
			t.Fatal(err)
		}
		slow := &slowLMO{LMO: simplex}
		p := lazycg.Problem{Objective: distance{b}, LMO: slow, X0: testutil.E0(n)}
		settings := &lazycg.Settings{MaxIterations: 200, SeparatorConfig: lazycg.SeparatorConfig{NoDive: !dive}}
		res, err := lazycg.Minimize(context.Background(), p, settings, &lazycg.LazyCG{})
		if err != nil {
			t.Fatal(err)
		}
		untils, dives := slow.untils.Load(), slow.dives.Load()
		if untils == 0 || (dive && dives != untils) || (!dive && dives != 0) {
			t.Errorf("NoDive %v: %d of %d early-stopping LMO calls dived (%d LMO calls)", !dive, dives, untils, res.Stats.LMOCalls)
		}
	}
}

// diveLog is an LMO that records StopRule.Dive of each MinimizeUntil call.
type diveLog struct {
	lazycg.LMO
	dives []bool
}

func (d *diveLog) MinimizeUntil(ctx context.Context, dst, c []float64, rule lazycg.StopRule) (lazycg.LinearResult, error) {
	d.dives = append(d.dives, rule.Dive)
	return d.LMO.Minimize(ctx, dst, c)
}

// TestSeparatorAdaptiveDive checks SeparatorConfig.AdaptiveDive: the first
// early-stopping call dives, and each later one dives exactly when the
// LMO answer before it was positive, whatever NoDive says; without it
// NoDive decides every call.
func TestSeparatorAdaptiveDive(t *testing.T) {
	simplex, err := lmo.NewProbabilitySimplex(3, 1)
	if err != nil {
		t.Fatal(err)
	}
	x := []float64{1, 0, 0}
	improving, flat := []float64{1, 0, 0}, []float64{0, 1, 1} // gap 1 and gap 0 at x
	answers := []bool{true, false, false, true, false, true, true}
	for _, tc := range []struct {
		cfg  lazycg.SeparatorConfig
		want func(i int) bool
	}{
		{lazycg.SeparatorConfig{NoCache: true, AdaptiveDive: true}, func(i int) bool { return i == 0 || answers[i-1] }},
		{lazycg.SeparatorConfig{NoCache: true, AdaptiveDive: true, NoDive: true}, func(i int) bool { return i == 0 || answers[i-1] }},
		{lazycg.SeparatorConfig{NoCache: true}, func(int) bool { return true }},
		{lazycg.SeparatorConfig{NoCache: true, NoDive: true}, func(int) bool { return false }},
	} {
		log := &diveLog{LMO: simplex}
		sep := lazycg.NewSeparator(log, tc.cfg)
		dst := make([]float64, 3)
		for i, positive := range answers {
			c := flat
			if positive {
				c = improving
			}
			res, err := sep.Separate(context.Background(), dst, c, x, 0.5, 1)
			if err != nil {
				t.Fatal(err)
			}
			if res.Positive != positive {
				t.Fatalf("%+v: question %d answered %v, want %v", tc.cfg, i, res.Positive, positive)
			}
		}
		if len(log.dives) != len(answers) {
			t.Fatalf("%+v: %d early-stopping calls, want %d", tc.cfg, len(log.dives), len(answers))
		}
		for i, d := range log.dives {
			if d != tc.want(i) {
				t.Errorf("%+v: call %d dived %v, want %v (dives %v)", tc.cfg, i, d, tc.want(i), log.dives)
			}
		}
	}
	// The per-factor separators of a product search as their parent says.
	for _, noDive := range []bool{false, true} {
		blocks := []*diveLog{{LMO: simplex}, {LMO: simplex}}
		prod, err := lmo.NewProduct(blocks[0], blocks[1])
		if err != nil {
			t.Fatal(err)
		}
		sep := lazycg.NewSeparator(prod, lazycg.SeparatorConfig{NoCache: true, NoDive: noDive})
		dst := make([]float64, 6)
		c, x6 := []float64{1, 0, 0, 1, 0, 0}, []float64{1, 0, 0, 1, 0, 0}
		for k := range blocks {
			if _, err := sep.SeparateBlock(context.Background(), k, dst, c, x6, 0.5, 1); err != nil {
				t.Fatal(err)
			}
			if len(blocks[k].dives) != 1 || blocks[k].dives[0] == noDive {
				t.Errorf("NoDive %v: block %d's calls dived %v", noDive, k, blocks[k].dives)
			}
		}
	}
}
