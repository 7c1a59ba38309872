//go:build cgo

package cbc_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/mip"
	"github.com/lazycg/lazycg/mip/cbc"
	"github.com/lazycg/lazycg/mip/internal/brute"
)

// kind is one CBC-backed polytope kind with an objective whose LP
// relaxation is not integral (except for the spanning tree formulation,
// which is integral).
type kind struct {
	name string
	f    *mip.Formulation
	c    []float64
}

// kinds returns one instance of every polytope kind package mip builds or
// reads.
func kinds(t *testing.T) []kind {
	t.Helper()
	var ks []kind
	m := cbcFixture(t, "stein27")
	ks = append(ks, kind{"mps stein27", &mip.Formulation{Model: m, Vars: allColumns(m)}, m.Obj})
	inst := mip.RandomTSP(12, 3)
	tsp, err := mip.TSP(12)
	if err != nil {
		t.Fatal(err)
	}
	ks = append(ks, kind{"tsp 12", tsp, inst.ArcCosts()})
	edges := mip.RandomGraph(12, 0.8, 4)
	cut, err := mip.CutPolytope(12, edges, mip.CutOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ks = append(ks, kind{"cut 12", cut, brute.RandomCosts(len(edges), -10, 3, 5)})
	tree, err := mip.SpanningTreeExt(8, mip.CompleteGraph(8))
	if err != nil {
		t.Fatal(err)
	}
	ks = append(ks, kind{"spanningtree-ext 8", tree, brute.RandomRealCosts(tree.Dim(), 6)})
	q, err := mip.ReadQUBO(strings.NewReader(brute.RandomQUBO(16, 0.5, 7)))
	if err != nil {
		t.Fatal(err)
	}
	bqp, err := mip.BooleanQuadric(q)
	if err != nil {
		t.Fatal(err)
	}
	ks = append(ks, kind{"qubo 16", bqp, mip.QUBOObjective(q)})
	return ks
}

func allColumns(m *mip.Model) []int {
	vars := make([]int, m.NumCols())
	for j := range vars {
		vars[j] = j
	}
	return vars
}

// isZeroOne reports whether every entry of x is 0 or 1.
func isZeroOne(x []float64) bool {
	for _, v := range x {
		if v != 0 && v != 1 {
			return false
		}
	}
	return true
}

// TestStartVertexEveryKind is the regression test of the start-vertex bug:
// MinimizeUntil with Improve = Certify = +Inf (any vertex) must stop at the
// first incumbent (StopImproving), not solve exactly, on every kind of
// polytope. The spanning tree formulation is integral: its LP answers the
// call without a search.
func TestStartVertexEveryKind(t *testing.T) {
	for _, search := range []mip.Search{mip.SearchLight, mip.SearchStandard} {
		t.Run(search.String(), func(t *testing.T) { testStartVertex(t, search) })
	}
}

func testStartVertex(t *testing.T, search mip.Search) {
	anyVertex := lazycg.StopRule{Improve: math.Inf(1), Certify: math.Inf(1)}
	for _, k := range kinds(t) {
		s, err := mip.NewSolver(k.f.Model, mip.Options{Vars: k.f.Vars, Search: search})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		dst := make([]float64, s.Dim())
		res, err := s.MinimizeUntil(context.Background(), dst, k.c, anyVertex)
		if err != nil {
			t.Fatalf("%s: %v", k.name, err)
		}
		exact, err := mip.NewSolver(k.f.Model, mip.Options{Vars: k.f.Vars, Search: search})
		if err != nil {
			t.Fatal(err)
		}
		defer exact.Close()
		opt, err := exact.Minimize(context.Background(), make([]float64, s.Dim()), k.c)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: first %+v, exact %+v", k.name, res, opt)
		if !res.Found || !isZeroOne(dst) || !buildNear(res.Value, dot(k.c, dst)) || res.Value < opt.Value-1e-6*(1+math.Abs(opt.Value)) {
			t.Errorf("%s: bad first vertex: %+v (optimum %g)", k.name, res, opt.Value)
		}
		if res.Bound > opt.Value+1e-6*(1+math.Abs(opt.Value)) {
			t.Errorf("%s: bound %g above the optimum %g", k.name, res.Bound, opt.Value)
		}
		if strings.HasPrefix(k.name, "spanningtree") {
			if res.Nodes != 0 {
				t.Errorf("%s: the integral LP should answer, got %d nodes", k.name, res.Nodes)
			}
			continue
		}
		if res.Reason != lazycg.StopImproving || res.Nodes > opt.Nodes {
			t.Errorf("%s: want a stop at the first incumbent (improving, ≤ %d nodes), got %v after %d nodes",
				k.name, opt.Nodes, res.Reason, res.Nodes)
		}
		// The last vertex now answers such calls without solving.
		again, err := s.MinimizeUntil(context.Background(), dst, k.c, anyVertex)
		if err != nil || again.Reason != lazycg.StopImproving || again.Nodes != 0 || again.Value != res.Value {
			t.Errorf("%s: second call %+v %v", k.name, again, err)
		}
	}
}

// TestRelGapStopsEarly: a RelGap call stops as soon as incumbent and
// bound are within the gap. On lseu the exact solve needs a search tree;
// the 10% call ends at the root with a proven bound within the gap.
func TestRelGapStopsEarly(t *testing.T) {
	for _, search := range []mip.Search{mip.SearchLight, mip.SearchStandard} {
		t.Run(search.String(), func(t *testing.T) { testRelGap(t, search) })
	}
}

func testRelGap(t *testing.T, search mip.Search) {
	m := cbcFixture(t, "lseu")
	dst := make([]float64, m.NumCols())
	exact, err := cbcSolver(t, m, mip.Options{Search: search}).Minimize(context.Background(), dst, m.Obj)
	if err != nil {
		t.Fatal(err)
	}
	if exact.Nodes == 0 || exact.Value != 1120 {
		t.Fatalf("exact solve %+v: want the optimum 1120 after a search", exact)
	}
	const g = 0.1
	res, err := cbcSolver(t, m, mip.Options{RelGap: g, Search: search}).Minimize(context.Background(), dst, m.Obj)
	if err != nil {
		t.Fatal(err)
	}
	cbcCheckResult(t, "gap", m, res, dst, m.Obj, 1120)
	if res.Reason != lazycg.StopGap || res.Value-res.Bound > g*math.Max(math.Abs(res.Value), math.Abs(res.Bound)) {
		t.Errorf("gap call: %+v, want a stop within %g", res, g)
	}
	if res.Nodes >= exact.Nodes {
		t.Errorf("gap call used %d nodes, the exact one %d", res.Nodes, exact.Nodes)
	}
}

// TestInfiniteThresholds covers the infinities a weak separation rule can
// carry to the backend.
func TestInfiniteThresholds(t *testing.T) {
	m := cbcFixture(t, "p0033")
	ctx := context.Background()
	dst := make([]float64, m.NumCols())
	inf := math.Inf(1)

	// Certify = −Inf is met by any bound: no solve.
	s := cbcSolver(t, m, mip.Options{})
	res, err := s.MinimizeUntil(ctx, dst, m.Obj, lazycg.StopRule{Improve: 3000, Certify: -inf})
	if err != nil || res.Reason != lazycg.StopCertified || res.Found || res.Nodes != 0 || !math.IsInf(res.Bound, -1) {
		t.Errorf("Certify −Inf: %+v %v", res, err)
	}
	// Improve = −Inf, Certify = +Inf: exact.
	res, err = s.MinimizeUntil(ctx, dst, m.Obj, lazycg.StopRule{Improve: -inf, Certify: inf})
	if err != nil || res.Reason != lazycg.StopOptimal || res.Value != 3089 {
		t.Errorf("exact rule: %+v %v", res, err)
	}
	// Both −Inf: certified at once, with the last vertex along.
	res, err = s.MinimizeUntil(ctx, dst, m.Obj, lazycg.StopRule{Improve: -inf, Certify: -inf})
	if err != nil || res.Reason != lazycg.StopCertified || !res.Found || res.Value != 3089 {
		t.Errorf("Improve and Certify −Inf: %+v %v", res, err)
	}
	// A tiny objective (scaled up by 2^k inside the shim) with a huge
	// finite Improve that overflows when scaled: still "any vertex".
	c := make([]float64, len(m.Obj))
	for j, v := range m.Obj {
		c[j] = v * 1e-300
	}
	res, err = cbcSolver(t, m, mip.Options{}).MinimizeUntil(ctx, dst, c, lazycg.StopRule{Improve: 1e300, Certify: inf})
	if err != nil || res.Reason != lazycg.StopImproving || !res.Found {
		t.Errorf("overflowing Improve: %+v %v", res, err)
	}
	// Φ that underflows next to c·x: Improve = Certify = c·x.
	x := append([]float64(nil), dst...)
	cx := dot(c, x)
	res, err = cbcSolver(t, m, mip.Options{}).MinimizeUntil(ctx, dst, c, lazycg.StopRule{Improve: cx, Certify: cx})
	if err != nil || !(res.Found && res.Value < cx || res.Bound >= cx) {
		t.Errorf("Improve = Certify = c·x: %+v %v", res, err)
	}
}

// largeTSP returns the flow formulation of a random 120-node TSP (about
// 28,000 columns): its first LP takes far longer than a millisecond.
func largeTSP(t *testing.T) (*mip.Formulation, []float64) {
	t.Helper()
	f, err := mip.TSP(120)
	if err != nil {
		t.Fatal(err)
	}
	return f, mip.RandomTSP(120, 1).ArcCosts()
}

// TestFirstLPTimeLimit: the time limit ends the first LP itself. A call
// that returned only after its LP would know the LP bound; this one knows
// no bound at all.
func TestFirstLPTimeLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a large TSP model")
	}
	f, c := largeTSP(t)
	s, err := mip.NewSolver(f.Model, mip.Options{Vars: f.Vars, TimeLimit: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	res, err := s.Minimize(context.Background(), make([]float64, s.Dim()), c)
	if !errors.Is(err, mip.ErrTimeLimit) || res.Found || !math.IsInf(res.Bound, -1) || res.Nodes != 0 {
		t.Errorf("1ms limit: %+v %v, want a time limit inside the first LP", res, err)
	}
}

// TestFirstLPCancel: a cancellation ends the first LP itself.
func TestFirstLPCancel(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a large TSP model")
	}
	f, c := largeTSP(t)
	s, err := mip.NewSolver(f.Model, mip.Options{Vars: f.Vars})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	res, err := s.Minimize(ctx, make([]float64, s.Dim()), c)
	if !errors.Is(err, context.DeadlineExceeded) || res.Reason != lazycg.StopCanceled || !math.IsInf(res.Bound, -1) {
		t.Errorf("canceled: %+v %v, want a cancellation inside the first LP", res, err)
	}
	// Loading honours the context too.
	done, stop := context.WithCancel(context.Background())
	stop()
	if _, err := mip.NewSolverContext(done, f.Model, mip.Options{Vars: f.Vars}); !errors.Is(err, context.Canceled) {
		t.Errorf("load with a canceled context: %v", err)
	}
}

// TestKnownVertex: builders' known vertices before any call, the last
// vertex after one, nothing for a fresh MPS model.
func TestKnownVertex(t *testing.T) {
	for _, k := range kinds(t) {
		s, err := mip.NewSolver(k.f.Model, mip.Options{Vars: k.f.Vars})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		dst := make([]float64, s.Dim())
		ok := s.KnownVertex(dst)
		if isMPS := strings.HasPrefix(k.name, "mps"); ok == isMPS {
			t.Errorf("%s: KnownVertex %v before any call", k.name, ok)
		}
		if ok && !isZeroOne(dst) {
			t.Errorf("%s: known vertex %v is not 0/1", k.name, dst)
		}
		res, err := s.Minimize(context.Background(), dst, k.c)
		if err != nil {
			t.Fatal(err)
		}
		got := make([]float64, s.Dim())
		if !s.KnownVertex(got) || !buildNear(dot(k.c, got), res.Value) {
			t.Errorf("%s: after a call KnownVertex should be the last vertex (value %g)", k.name, res.Value)
		}
	}
}

// TestStandardFormSolver: the solver reports its model's standard form;
// PCG accepts the assignment polytope and refuses p0033.
func TestStandardFormSolver(t *testing.T) {
	b := mip.NewBuilder("assignment")
	const k = 4
	for i := range k * k {
		b.AddCol(fmt.Sprintf("x%d", i), 0, 1, true)
	}
	idx := make([]int, k)
	ones := []float64{1, 1, 1, 1}
	for i := range k {
		for j := range k {
			idx[j] = i*k + j
		}
		b.AddRow(fmt.Sprintf("r%d", i), 1, 1, idx, ones)
		for j := range k {
			idx[j] = j*k + i
		}
		b.AddRow(fmt.Sprintf("c%d", i), 1, 1, idx, ones)
	}
	if s := cbcSolver(t, b.Build(), mip.Options{}); !s.StandardForm() {
		t.Error("assignment polytope not in standard form")
	}
	if s := cbcSolver(t, cbcFixture(t, "p0033"), mip.Options{}); s.StandardForm() {
		t.Error("p0033 (inequality rows) declared standard form")
	}
}

// TestRelaxationBound checks the LP relaxation bound: p0033's known LP
// value, a lower bound on the exact optimum for random costs on random
// models, and errors for bad input and an empty polytope.
func TestRelaxationBound(t *testing.T) {
	ctx := context.Background()
	m := cbcFixture(t, "p0033")
	s := cbcSolver(t, m, mip.Options{})
	b, err := s.RelaxationBound(ctx, m.Obj)
	if err != nil || math.Abs(b-2520.5717) > 1e-3 {
		t.Fatalf("p0033: LP relaxation bound %.6g, %v; want 2520.5717 (its known LP value)", b, err)
	}
	// The solver still solves exactly afterwards.
	dst := make([]float64, m.NumCols())
	if res, err := s.Minimize(ctx, dst, m.Obj); err != nil || res.Value != 3089 {
		t.Fatalf("p0033 after the relaxation: %+v %v", res, err)
	}

	rng := rand.New(rand.NewPCG(7, 8))
	for k := range 6 {
		rm := cbcRandomModel(rng, 25, 8)
		rs := cbcSolver(t, rm, mip.Options{})
		c := make([]float64, rm.NumCols())
		for j := range c {
			c[j] = rng.NormFloat64()
		}
		b, err := rs.RelaxationBound(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		x := make([]float64, rm.NumCols())
		res, err := rs.Minimize(ctx, x, c)
		if err != nil {
			t.Fatal(err)
		}
		if b > res.Value+1e-9 {
			t.Errorf("model %d: relaxation bound %g above the optimum %g", k, b, res.Value)
		}
	}

	if _, err := s.RelaxationBound(ctx, m.Obj[:3]); err == nil {
		t.Error("short objective accepted")
	}
	bad := append([]float64(nil), m.Obj...)
	bad[2] = math.NaN()
	if _, err := s.RelaxationBound(ctx, bad); err == nil {
		t.Error("NaN objective accepted")
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.RelaxationBound(cctx, m.Obj); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled context: %v", err)
	}

	// x0 + x1 ≥ 3 over binaries: the LP relaxation is empty.
	bl := mip.NewBuilder("empty")
	bl.AddCol("x0", 0, 1, true)
	bl.AddCol("x1", 0, 1, true)
	bl.AddRow("r", 3, math.Inf(1), []int{0, 1}, []float64{1, 1})
	es, err := mip.NewSolver(bl.Build(), mip.Options{})
	if err != nil {
		if !errors.Is(err, lazycg.ErrEmptyPolytope) {
			t.Fatalf("empty model: %v", err)
		}
		return
	}
	defer es.Close()
	if _, err := es.RelaxationBound(ctx, []float64{1, 1}); !errors.Is(err, lazycg.ErrEmptyPolytope) {
		t.Errorf("empty polytope: %v, want ErrEmptyPolytope", err)
	}
}

// TestStopRuleKeep: without Keep, a call whose Improve is out of reach
// searches below Improve only and returns no vertex; with Keep it keeps
// the incumbents below KeepBelow and returns the best one.
func TestStopRuleKeep(t *testing.T) {
	ctx := context.Background()
	m := cbcFixture(t, "p0033")
	dst := make([]float64, m.NumCols())
	rule := lazycg.StopRule{Improve: 3000, Certify: 2999} // optimum 3089
	res, err := cbcSolver(t, m, mip.Options{}).MinimizeUntil(ctx, dst, m.Obj, rule)
	if err != nil || res.Found || res.Reason != lazycg.StopCertified || res.Bound < 2999 {
		t.Fatalf("without Keep: %+v %v, want no vertex, certified", res, err)
	}
	rule.Keep, rule.KeepBelow = true, 4000
	res, err = cbcSolver(t, m, mip.Options{}).MinimizeUntil(ctx, dst, m.Obj, rule)
	if err != nil || !res.Found || res.Value < 3089 || res.Value >= 4000 || res.Bound < 2999 {
		t.Fatalf("with Keep: %+v %v, want an incumbent below 4000 kept", res, err)
	}
	if err := m.Check(dst, 1e-6); err != nil {
		t.Fatal(err)
	}
	rule.KeepBelow = math.NaN()
	if _, err := cbcSolver(t, m, mip.Options{}).MinimizeUntil(ctx, dst, m.Obj, rule); err == nil {
		t.Error("NaN KeepBelow accepted")
	}
}

// TestWarmLPResolve: the first LP of a call, re-solved from the previous
// call's basis, has the value of a cold solve — with the primal simplex
// (a model below 200 rows: TSP(8), 80 rows) and with the dual simplex
// (the cut polytope of K₁₂, 264 rows), over a sequence of objectives
// as a method's gradients change, and with exact calls in between.
func TestWarmLPResolve(t *testing.T) {
	ctx := context.Background()
	tsp, err := mip.TSP(8)
	if err != nil {
		t.Fatal(err)
	}
	cut, err := mip.CutPolytope(12, mip.RandomGraph(12, 1, 3), mip.CutOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []*mip.Formulation{tsp, cut} {
		if r := f.Model.NumRows(); (f == tsp) != (r < 200) {
			t.Fatalf("%s has %d rows: the test needs one model on each side of 200", f.Model.Name, r)
		}
		warm := cbcSolver(t, f.Model, mip.Options{Vars: f.Vars})
		rng := rand.New(rand.NewPCG(9, uint64(f.Model.NumRows())))
		c := make([]float64, len(f.Vars))
		dst := make([]float64, len(f.Vars))
		for k := range 12 {
			for j := range c {
				c[j] = rng.NormFloat64()
			}
			got, err := warm.RelaxationBound(ctx, c)
			if err != nil {
				t.Fatal(err)
			}
			cold := cbcSolver(t, f.Model, mip.Options{Vars: f.Vars})
			want, err := cold.RelaxationBound(ctx, c)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(got-want) > 1e-7*math.Max(1, math.Abs(want)) {
				t.Errorf("%s, objective %d: warm LP value %.12g, cold %.12g", f.Model.Name, k, got, want)
			}
			if k%3 == 2 {
				if _, err := warm.Minimize(ctx, dst, c); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// TestSolverFork checks mip.Solver.Fork on every polytope kind: the fork
// and the original solve different objectives at the same time on two
// goroutines (two CBC models in one process) and both get the optima the
// original found alone; closing the fork leaves the original working, and
// a closed solver cannot be forked.
func TestSolverFork(t *testing.T) {
	ctx := context.Background()
	for _, k := range kinds(t) {
		t.Run(k.name, func(t *testing.T) {
			s, err := mip.NewSolver(k.f.Model, mip.Options{Vars: k.f.Vars})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			n := s.Dim()
			c2 := make([]float64, n)
			for i := range c2 {
				c2[i] = -k.c[i] + float64(i%3)
			}
			v := make([]float64, n)
			want := make([]float64, 2)
			for i, c := range [][]float64{k.c, c2} {
				res, err := s.Minimize(ctx, v, c)
				if err != nil || !res.Optimal() {
					t.Fatalf("objective %d alone: %v %+v", i, err, res)
				}
				want[i] = res.Value
			}
			l, err := s.Fork(ctx)
			if err != nil {
				t.Fatal(err)
			}
			fork := l.(*mip.Solver)
			errs := make(chan error, 2)
			for i, sv := range []*mip.Solver{s, fork} {
				c := [][]float64{k.c, c2}[i]
				go func() {
					dst := make([]float64, n)
					for range 3 {
						res, err := sv.Minimize(ctx, dst, c)
						if err == nil && (!res.Optimal() || math.Abs(res.Value-want[i]) > 1e-6*math.Max(1, math.Abs(want[i]))) {
							err = fmt.Errorf("objective %d: value %g, want %g (%+v)", i, res.Value, want[i], res)
						}
						if err != nil {
							errs <- err
							return
						}
					}
					errs <- nil
				}()
			}
			for range 2 {
				if err := <-errs; err != nil {
					t.Error(err)
				}
			}
			fork.Close()
			if _, err := fork.Minimize(ctx, v, k.c); !errors.Is(err, mip.ErrClosed) {
				t.Errorf("closed fork: err = %v, want ErrClosed", err)
			}
			if res, err := s.Minimize(ctx, v, k.c); err != nil || math.Abs(res.Value-want[0]) > 1e-6*math.Max(1, math.Abs(want[0])) {
				t.Errorf("original after closing the fork: %v %+v", err, res)
			}
		})
	}
	s, err := mip.NewSolver(kinds(t)[0].f.Model, mip.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := s.Fork(ctx); !errors.Is(err, mip.ErrClosed) {
		t.Errorf("fork of a closed solver: err = %v, want ErrClosed", err)
	}
}

// TestFirstLPModes: every way of solving the first LP gives the optima of
// a fresh solver over a sequence of objectives, on Martin's extended
// spanning tree formulation (columns without upper bounds, where warm
// re-solves are slow: the reason for FirstLPAuto) and on the cut polytope
// of K₁₂; the counters say which way was taken (warm after the first call
// with FirstLPWarm, cold always with FirstLPCold). The engine's test mode
// that cuts every warm re-solve at its first iteration reaches the
// fallback to a cold solve on a fresh copy of the model, and its answers
// are exact too.
func TestFirstLPModes(t *testing.T) {
	ctx := context.Background()
	st, err := mip.SpanningTreeExt(9, mip.CompleteGraph(9))
	if err != nil {
		t.Fatal(err)
	}
	cut, err := mip.CutPolytope(12, mip.RandomGraph(12, 1, 3), mip.CutOptions{})
	if err != nil {
		t.Fatal(err)
	}
	const calls = 10
	for _, f := range []*mip.Formulation{st, cut} {
		rng := rand.New(rand.NewPCG(4, uint64(f.Model.NumRows())))
		costs := make([][]float64, calls)
		want := make([]float64, calls)
		dst := make([]float64, len(f.Vars))
		for k := range costs {
			costs[k] = make([]float64, len(f.Vars))
			for j := range costs[k] {
				costs[k][j] = rng.NormFloat64()
				if k%2 == 1 && j%3 != 0 {
					costs[k][j] = 0 // ties: many optimal vertices
				}
			}
			r, err := cbcSolver(t, f.Model, mip.Options{Vars: f.Vars}).Minimize(ctx, dst, costs[k])
			if err != nil || !r.Optimal() {
				t.Fatalf("%s: fresh solve %d: %v %+v", f.Model.Name, k, err, r)
			}
			want[k] = r.Value
		}
		tol := func(v float64) float64 { return 1e-7 * math.Max(1, math.Abs(v)) }
		for _, mode := range []mip.FirstLP{mip.FirstLPAuto, mip.FirstLPWarm, mip.FirstLPCold} {
			s := cbcSolver(t, f.Model, mip.Options{Vars: f.Vars, FirstLP: mode})
			for k, c := range costs {
				r, err := s.Minimize(ctx, dst, c)
				if err != nil || !r.Optimal() || math.Abs(r.Value-want[k]) > tol(want[k]) {
					t.Fatalf("%s, first LP %v, objective %d: %v %+v, want value %g", f.Model.Name, mode, k, err, r, want[k])
				}
			}
			warm, cold, cutShort := s.FirstLPs()
			if warm+cold != calls || cutShort > cold ||
				mode == mip.FirstLPWarm && (warm != calls-1 || cutShort != 0) || mode == mip.FirstLPCold && cold != calls {
				t.Errorf("%s, first LP %v: %d warm, %d cold, %d cut short", f.Model.Name, mode, warm, cold, cutShort)
			}
		}

		// The engine directly, in the test mode.
		eng, err := cbc.Backend{}.Load(ctx, f.Model)
		if err != nil {
			t.Fatal(err)
		}
		defer eng.Close()
		obj := make([]float64, f.Model.NumCols())
		x := make([]float64, f.Model.NumCols())
		cuts := 0
		for k, c := range costs {
			clear(obj)
			for i, j := range f.Vars {
				obj[j] = c[i]
			}
			p := &mip.SolveParams{Obj: obj, Improve: math.Inf(-1), Certify: math.Inf(1), Cutoff: math.Inf(1), FirstLP: cbc.FirstLPCutAtOnce}
			var r mip.SolveResult
			r.X = x
			if err := eng.Solve(ctx, p, &r); err != nil || r.Outcome != mip.OutcomeOptimal || math.Abs(r.Value-want[k]) > tol(want[k]) {
				t.Fatalf("%s, cut at once, objective %d: %v %+v, want value %g", f.Model.Name, k, err, r, want[k])
			}
			if k == 0 && (r.FirstLP != mip.FirstLPCold || r.WarmCut) || k > 0 && r.FirstLP == mip.FirstLPAuto {
				t.Errorf("%s, cut at once, objective %d: first LP %v, cut %v", f.Model.Name, k, r.FirstLP, r.WarmCut)
			}
			if r.WarmCut {
				cuts++
			}
		}
		if cuts == 0 {
			t.Errorf("%s: no warm re-solve was cut in the test mode", f.Model.Name)
		}
	}
}

// BenchmarkFirstLP times exact calls over Martin's extended spanning tree
// formulation of K_N with each FirstLP setting, for two kinds of cost
// sequences: independent Gaussian costs ("random") and costs that drift
// by a tenth of their size per call, as a method's consecutive gradients
// do ("drift"). One op is one call; every sub-benchmark sees the same
// sequence. Run with -benchtime Nx (a warm call on K₂₅ with random costs
// takes seconds):
//
//	go test -run XXX -bench 'FirstLP/K25' -benchtime 12x ./mip/cbc/
func BenchmarkFirstLP(b *testing.B) {
	for _, nodes := range []int{15, 25} {
		f, err := mip.SpanningTreeExt(nodes, mip.CompleteGraph(nodes))
		if err != nil {
			b.Fatal(err)
		}
		for _, seq := range []string{"random", "drift"} {
			for _, mode := range []mip.FirstLP{mip.FirstLPWarm, mip.FirstLPCold, mip.FirstLPAuto} {
				b.Run(fmt.Sprintf("K%d/%s/%v", nodes, seq, mode), func(b *testing.B) {
					s, err := mip.NewSolver(f.Model, mip.Options{Vars: f.Vars, FirstLP: mode})
					if err != nil {
						b.Fatal(err)
					}
					defer s.Close()
					rng := rand.New(rand.NewPCG(1, uint64(nodes)))
					c := make([]float64, len(f.Vars))
					dst := make([]float64, len(f.Vars))
					for j := range c {
						c[j] = rng.NormFloat64()
					}
					if _, err := s.Minimize(context.Background(), dst, c); err != nil {
						b.Fatal(err) // the first, cold call is not timed
					}
					b.ResetTimer()
					for range b.N {
						for j := range c {
							if seq == "random" {
								c[j] = rng.NormFloat64()
							} else {
								c[j] += 0.1 * rng.NormFloat64()
							}
						}
						if _, err := s.Minimize(context.Background(), dst, c); err != nil {
							b.Fatal(err)
						}
					}
					warm, cold, cut := s.FirstLPs()
					b.ReportMetric(float64(warm), "warm")
					b.ReportMetric(float64(cold), "cold")
					b.ReportMetric(float64(cut), "cut")
				})
			}
		}
	}
}
