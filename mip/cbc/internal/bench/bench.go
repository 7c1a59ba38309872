// Package bench measures the CBC-backed oracle of package mip for
// docs/ORACLE.md and scripts/bench-oracle.sh: CPU time to a first feasible
// point, to a 10% gap and to optimality, and early-terminated weak
// separation calls against exact calls.
package bench

import (
	"context"
	"fmt"
	"math"
	"syscall"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/mip"
	_ "github.com/lazycg/lazycg/mip/cbc" // the backend measured
	"github.com/lazycg/lazycg/objective"
)

// CPUTime returns the CPU time (user + system) the process has used.
func CPUTime() time.Duration { return cpu(syscall.RUSAGE_SELF, true) }

// UserTime returns the user CPU time the process has used: the clock of
// the cbc program's "Total time (CPU seconds)" (CoinCpuTime reads only
// ru_utime), reported beside CPUTime so that both clocks can be compared.
func UserTime() time.Duration { return cpu(syscall.RUSAGE_SELF, false) }

// ThreadCPUTime returns the CPU time (user + system) of the calling OS
// thread (Linux), for calls measured side by side on threads of their own
// (runtime.LockOSThread; CBC runs on its caller's thread).
func ThreadCPUTime() time.Duration { return cpu(rusageThread, true) }

// rusageThread is Linux's RUSAGE_THREAD.
const rusageThread = 1

// cpu returns the user (and with system, the system) CPU time that
// getrusage reports for who; 0 if it fails.
func cpu(who int, system bool) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		return 0
	}
	t := ru.Utime.Nano()
	if system {
		t += ru.Stime.Nano()
	}
	return time.Duration(t)
}

// Quadratic returns the paper's quadratic objective over n coordinates with
// the defaults of "-objective quadratic": f(x) = ‖Ax − b‖², A square with
// density min(1, 20/n) and nonzeros uniform in (0, 1], b = A·w, w uniform
// in [0, 1), seed 1.
func Quadratic(n int) (*objective.LeastSquares, error) {
	return objective.RandomLeastSquares(n, n, math.Min(1, 20/float64(n)), 1)
}

// QuadraticCost returns ∇f(½·1) of Quadratic(n): a dense cost vector of the
// kind the conditional gradient methods hand the oracle.
func QuadraticCost(n int) ([]float64, error) {
	f, err := Quadratic(n)
	if err != nil {
		return nil, err
	}
	x := make([]float64, n)
	for i := range x {
		x[i] = 0.5
	}
	c := make([]float64, n)
	f.Grad(c, x)
	return c, nil
}

// Target is what a measured call must deliver.
type Target string

const (
	First   Target = "first"   // any feasible point: MinimizeUntil(+Inf, +Inf)
	Gap     Target = "gap"     // a point within 10%: Options.RelGap = 0.1
	Optimal Target = "optimal" // an optimal point: Minimize
)

// Result is one measured call.
type Result struct {
	CPU    time.Duration // user + system
	User   time.Duration // user only
	Wall   time.Duration
	Capped bool // the CPU cap ended the call
	lazycg.LinearResult
}

// Solve runs one oracle call for target on a fresh solver over m with
// costs c and returns its CPU time, stopping it when the process has used
// cap more CPU time (cap 0: none).
func Solve(m *mip.Model, c []float64, target Target, opts mip.Options, cpuCap time.Duration) (Result, error) {
	switch target {
	case First, Optimal:
	case Gap:
		opts.RelGap = 0.1
	default:
		return Result{}, fmt.Errorf("bench: unknown target %q", target)
	}
	s, err := mip.NewSolver(m, opts)
	if err != nil {
		return Result{}, err
	}
	defer s.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cpu0, user0, wall0 := CPUTime(), UserTime(), time.Now()
	capped := make(chan bool, 1)
	if cpuCap > 0 {
		go watchCPU(ctx, cancel, cpu0+cpuCap, capped)
	}
	dst := make([]float64, s.Dim())
	var res lazycg.LinearResult
	if target == First {
		res, err = s.MinimizeUntil(ctx, dst, c, lazycg.StopRule{Improve: math.Inf(1), Certify: math.Inf(1)})
	} else {
		res, err = s.Minimize(ctx, dst, c)
	}
	r := Result{CPU: CPUTime() - cpu0, User: UserTime() - user0, Wall: time.Since(wall0), LinearResult: res}
	cancel()
	if cpuCap > 0 {
		r.Capped = <-capped
	}
	if r.Capped {
		return r, nil
	}
	return r, err
}

// watchCPU cancels when the process CPU time passes limit and reports
// whether it did.
func watchCPU(ctx context.Context, cancel func(), limit time.Duration, capped chan<- bool) {
	t := time.NewTicker(20 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			capped <- false
			return
		case <-t.C:
			if CPUTime() >= limit {
				cancel()
				capped <- true
				return
			}
		}
	}
}

// SepResult compares early-terminated weak separation calls with exact
// calls on the same objectives.
type SepResult struct {
	Calls            int
	ExactCPU         time.Duration // total over the exact calls
	EarlyCPU         time.Duration // total over the early-terminated calls
	Improving, Certs int           // answers of the early calls
	// ExactCapped counts exact calls ended by the per-call time limit
	// (ExactCPU is then a lower bound of the exact calls' cost), and
	// EarlyCapped early calls that reached it without an answer (their
	// time counts in EarlyCPU).
	ExactCapped, EarlyCapped int
}

// Separation measures calls points: for gradients c of Quadratic at points
// x between two vertices of m's polytope (x = λv₁ + (1−λ)v₂, λ = 0.1, 0.2,
// …), an exact Minimize on one solver against MinimizeUntil with LPsep's
// rule for K = 1.1 and Φ half the Wolfe gap (Improve = c·x − Φ/K, Certify =
// c·x − Φ) on another. Both solvers first compute v₁ and v₂ and then keep
// their warm starts (last vertex, LP basis) across calls, as in a run.
// Every call is limited to callLimit of wall-clock time (0: none); an
// exact call that reaches it returns its incumbent, whose gap sets Φ.
func Separation(m *mip.Model, points int, callLimit time.Duration) (SepResult, error) {
	var out SepResult
	exact, err := mip.NewSolver(m, mip.Options{TimeLimit: callLimit})
	if err != nil {
		return out, err
	}
	defer exact.Close()
	early, err := mip.NewSolver(m, mip.Options{TimeLimit: callLimit})
	if err != nil {
		return out, err
	}
	defer early.Close()
	n := exact.Dim()
	f, err := Quadratic(n)
	if err != nil {
		return out, err
	}
	ctx := context.Background()
	v1, v2, c := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range c {
		c[i] = float64(i%7) - 3
	}
	// Both solvers start warm, from the same two calls.
	for _, s := range []*mip.Solver{early, exact} {
		if _, err := s.Minimize(ctx, v1, c); err != nil {
			return out, err
		}
		for i := range c {
			c[i] = -c[i]
		}
		if _, err := s.Minimize(ctx, v2, c); err != nil {
			return out, err
		}
		for i := range c {
			c[i] = -c[i]
		}
	}
	x, y := make([]float64, n), make([]float64, n)
	for k := 0; out.Calls < points && k < 10*points; k++ {
		lam := float64(k%9+1) / 10
		for j := range x {
			x[j] = lam*v1[j] + (1-lam)*v2[j]
		}
		f.Grad(c, x)
		cx := 0.0
		for j := range x {
			cx += c[j] * x[j]
		}
		t0 := CPUTime()
		res, err := exact.Minimize(ctx, y, c)
		t1 := CPUTime()
		if err != nil {
			return out, err
		}
		capped := res.Reason == lazycg.StopTimeLimit
		gap := cx - res.Value
		if !(gap > 0) {
			continue
		}
		phi, kk := gap/2, 1.1
		er, err := early.MinimizeUntil(ctx, y, c, lazycg.StopRule{Improve: cx - phi/kk, Certify: cx - phi})
		t2 := CPUTime()
		if err != nil {
			return out, err
		}
		switch {
		case er.Found && er.Value < cx-phi/kk:
			out.Improving++
		case er.Bound >= cx-phi:
			out.Certs++
		case er.Reason == lazycg.StopTimeLimit:
			out.EarlyCapped++
		default:
			return out, fmt.Errorf("bench: early call answered neither way: %+v", er)
		}
		if capped {
			out.ExactCapped++
		}
		out.Calls++
		out.ExactCPU += t1 - t0
		out.EarlyCPU += t2 - t1
	}
	return out, nil
}

// LPResolves measures the first LP of oracle calls: after one LP with the
// model's own objective c (maximization negated), calls times
// RelaxationBound (one LP, nothing else; from the last basis or afresh as
// first says) for costs c_j·(1 + 0.05·u_j), u_j uniform in [−1, 1] and new
// in every call, and returns their CPU time and the last bound.
func LPResolves(m *mip.Model, calls int, first mip.FirstLP) (time.Duration, float64, error) {
	s, err := mip.NewSolver(m, mip.Options{Preprocess: mip.PreprocessOff, FirstLP: first})
	if err != nil {
		return 0, 0, err
	}
	defer s.Close()
	base := append([]float64(nil), m.Obj...)
	if m.Maximize {
		for j := range base {
			base[j] = -base[j]
		}
	}
	c := append([]float64(nil), base...)
	ctx := context.Background()
	if _, err := s.RelaxationBound(ctx, c); err != nil {
		return 0, 0, err
	}
	var total time.Duration
	var b float64
	seed := uint64(1)
	for k := 0; k < calls; k++ {
		for j := range c {
			seed = seed*6364136223846793005 + 1442695040888963407
			u := float64(seed>>11)/float64(1<<53)*2 - 1
			c[j] = base[j] * (1 + 0.05*u)
		}
		t0 := CPUTime()
		b, err = s.RelaxationBound(ctx, c)
		total += CPUTime() - t0
		if err != nil {
			return total, b, err
		}
	}
	return total, b, nil
}
