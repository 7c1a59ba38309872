//go:build cgo

// The CBC backend needs cgo: these tests build only with it, and import the
// backend package mip/cbc for its registration.

package integration

import (
	"context"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/internal/datadir"
	"github.com/lazycg/lazycg/mip"
	_ "github.com/lazycg/lazycg/mip/cbc"
	"github.com/lazycg/lazycg/objective"
)

// pwRowCheck returns a check of x against the rows and column bounds of a
// model whose columns are all polytope coordinates (the LP relaxation: a
// necessary condition for x ∈ P = conv of the feasible integer points).
func pwRowCheck(m *mip.Model, tol float64) func([]float64) error {
	act := make([]float64, m.NumRows())
	return func(x []float64) error {
		clear(act)
		for j := range m.NumCols() {
			if x[j] < m.ColLo[j]-tol || x[j] > m.ColUp[j]+tol || math.IsNaN(x[j]) {
				return fmt.Errorf("column %d = %g outside [%g, %g]", j, x[j], m.ColLo[j], m.ColUp[j])
			}
			for k := m.Start[j]; k < m.Start[j+1]; k++ {
				act[m.Index[k]] += m.Value[k] * x[j]
			}
		}
		for r, a := range act {
			if a < m.RowLo[r]-tol || a > m.RowUp[r]+tol {
				return fmt.Errorf("row %d activity %g outside [%g, %g]", r, a, m.RowLo[r], m.RowUp[r])
			}
		}
		return nil
	}
}

// pwRunMIP runs method on the solver's polytope with a least-squares
// objective, checking every evaluated point against the rows and every
// decomposition (integral, row-feasible vertices) along the run.
func pwRunMIP(t *testing.T, name string, m lazycg.Method, solver *mip.Solver, model *mip.Model, obj lazycg.Objective, st *lazycg.Settings) *lazycg.Result {
	t.Helper()
	check := pwRowCheck(model, 1e-7)
	ch := &pwExtChecked{obj: obj, check: check}
	x0 := make([]float64, solver.Dim())
	if _, err := solver.Minimize(context.Background(), x0, make([]float64, solver.Dim())); err != nil {
		t.Fatal(err)
	}
	var decompErr error
	s := *st
	s.Callback = func(pr lazycg.Progress) bool {
		if decompErr == nil && obj.Func(ch.last) == pr.F {
			decompErr = pwCheckDecomposition(m, ch.last, check)
		}
		return true
	}
	res, err := lazycg.Minimize(context.Background(), lazycg.Problem{Objective: ch, LMO: solver, X0: x0}, &s, m)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if ch.err != nil {
		t.Fatalf("%s: evaluated a point violating the model: %v", name, ch.err)
	}
	if decompErr != nil {
		t.Fatalf("%s: %v", name, decompErr)
	}
	t.Logf("%-9s f=%.8g dual=%.8g %v: %d iterations, %d LMO calls, %d cache hits, %.2fs (oracle %.2fs)",
		name, res.F, res.DualBound, res.Status, res.Stats.Iterations, res.Stats.LMOCalls, res.Stats.CacheHits,
		res.Stats.Runtime.Seconds(), res.Stats.OracleTime.Seconds())
	return res
}

// TestPwMIPActiveSet runs the active-set methods (and their lazy versions)
// on MIPLIB's p0033 through CBC: every iterate satisfies the model's rows
// and bounds, every decomposition consists of integral feasible points, and
// lazy and non-lazy runs agree.
func TestPwMIPActiveSet(t *testing.T) {
	if testing.Short() {
		t.Skip("CBC runs take a few seconds")
	}
	path, err := datadir.File("", "miplib/small/p0033.mps.gz")
	if err != nil {
		t.Skip(err)
	}
	model, err := mip.ReadMPSFile(path)
	if err != nil {
		t.Fatal(err)
	}
	solver, err := mip.NewSolver(model, mip.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer solver.Close()
	obj, err := objective.RandomLeastSquares(0, solver.Dim(), 0.3, 1)
	if err != nil {
		t.Fatal(err)
	}
	// Bounded by work, not by time, so that a loaded machine runs the same
	// iterations; the time limit is only a safety net.
	st := &lazycg.Settings{MaxIterations: 150, MaxLMOCalls: 30, TimeLimit: time.Minute, RelGapTolerance: 1e-4}
	results := map[string]*lazycg.Result{}
	// PCG and LPCG do not apply: p0033 has inequality rows, where their
	// steps leave P (they refuse the solver, which does not declare
	// StandardForm; see TestPwMIPPairwise for a polytope where they apply).
	for _, name := range []string{"pcg", "lpcg"} {
		m := map[string]lazycg.Method{"pcg": &lazycg.PCG{}, "lpcg": &lazycg.LPCG{}}[name]
		if _, err := lazycg.Minimize(context.Background(), lazycg.Problem{Objective: obj, LMO: solver}, st, m); err == nil {
			t.Errorf("%s accepted p0033", name)
		}
	}
	for _, name := range []string{"afw", "lazy-afw", "bpcg", "lazy-bpcg", "llcg", "local-cg"} {
		m := pwExtMethods()[name]()
		switch m := m.(type) {
		case *lazycg.LLCG:
			m.Beta = obj.Smoothness()
		case *lazycg.LocalCG:
			m.Beta = obj.Smoothness()
		}
		results[name] = pwRunMIP(t, name, m, solver, model, obj, st)
	}
	dual := math.Inf(-1)
	for _, r := range results {
		dual = math.Max(dual, r.DualBound)
	}
	for name, r := range results {
		if r.F < dual-1e-9 {
			t.Errorf("%s: primal %.10g below a proven dual bound %.10g", name, r.F, dual)
		}
	}
	for _, pair := range [][2]string{{"afw", "lazy-afw"}, {"bpcg", "lazy-bpcg"}} {
		a, b := results[pair[0]], results[pair[1]]
		if b.Stats.CacheHits == 0 {
			t.Errorf("%s: no cache hits", pair[1])
		}
		if a.Status == lazycg.GapConverged && b.Status == lazycg.GapConverged && b.Stats.LMOCalls > a.Stats.LMOCalls {
			t.Errorf("%s made %d LMO calls, %s %d", pair[1], b.Stats.LMOCalls, pair[0], a.Stats.LMOCalls)
		}
	}
}

// TestPwMIPPairwise runs PCG and LPCG on a CBC polytope of the form
// {x ≥ 0 : Ax = b} (the 6×6 assignment polytope built as a MIP; its LP
// relaxation is integral), where the decomposition-invariant steps are
// feasible, and checks every evaluated point against the rows.
func TestPwMIPPairwise(t *testing.T) {
	if testing.Short() {
		t.Skip("CBC runs take a few seconds")
	}
	const k = 6
	b := mip.NewBuilder("assignment")
	for i := range k * k {
		b.AddCol(fmt.Sprintf("x%d", i), 0, math.Inf(1), true)
	}
	idx := make([]int, k)
	one := []float64{1, 1, 1, 1, 1, 1}
	for i := range k {
		for j := range k {
			idx[j] = i*k + j
		}
		b.AddRow(fmt.Sprintf("r%d", i), 1, 1, idx, one)
		for j := range k {
			idx[j] = j*k + i
		}
		b.AddRow(fmt.Sprintf("c%d", i), 1, 1, idx, one)
	}
	model := b.Build()
	solver, err := mip.NewSolver(model, mip.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer solver.Close()
	obj, err := objective.RandomLeastSquares(0, k*k, 0.3, 2)
	if err != nil {
		t.Fatal(err)
	}
	st := &lazycg.Settings{MaxIterations: 200, TimeLimit: 4 * time.Second, RelGapTolerance: 1e-4}
	base := pwRunMIP(t, "pcg", pwExtMethods()["pcg"](), solver, model, obj, st)
	lazy := pwRunMIP(t, "lpcg", pwExtMethods()["lpcg"](), solver, model, obj, st)
	if lazy.DualBound > base.F+1e-9 || base.DualBound > lazy.F+1e-9 {
		t.Errorf("dual bounds %g, %g exceed primal values %g, %g", base.DualBound, lazy.DualBound, base.F, lazy.F)
	}
	if lazy.Stats.CacheHits == 0 {
		t.Errorf("lpcg: no cache hits")
	}
}
