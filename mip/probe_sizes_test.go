package mip

import (
	"bytes"
	"math"
	"runtime"
	"strings"
	"testing"
)

// TestProbeSizesPanics: the functions without an error result refuse
// sizes beyond their limits (and invalid input) with a panic that names
// the function and the limit, before allocating. Without the checks they
// panicked in the runtime (makeslice: cap out of range), returned a
// wrong index (TSPArcIndex(2^62, 4, 2) = −2), looped for 2^79 steps
// (RandomGraph), indexed out of range (CycleCuts) or accepted bounds
// that NewSolver refuses (Builder).
func TestProbeSizesPanics(t *testing.T) {
	inf := math.Inf(1)
	col := func(lo, up float64) func() {
		return func() { NewBuilder("b").AddCol("c", lo, up, false) }
	}
	row := func(lo, up float64) func() {
		return func() {
			b := NewBuilder("b")
			b.AddCol("c", 0, 1, false)
			b.AddRow("r", lo, up, []int{0}, []float64{1})
		}
	}
	for _, tc := range []struct {
		name string
		f    func()
		want string
	}{
		{"CompleteGraph 2^33", func() { CompleteGraph(1 << 33) }, "mip: CompleteGraph: 8589934592 nodes have more than 1099511627776 edges (lazycg.MaxDim)"},
		{"CompleteGraph 2^40", func() { CompleteGraph(1 << 40) }, "mip: CompleteGraph: 1099511627776 nodes"},
		{"CompleteGraph MaxInt", func() { CompleteGraph(math.MaxInt) }, "lazycg.MaxDim"},
		{"TSPArcs 2^40", func() { TSPArcs(1 << 40) }, "mip: TSPArcs: 1099511627776 nodes have more than 1099511627776 arcs"},
		{"TSPArcs MaxInt", func() { TSPArcs(math.MaxInt) }, "lazycg.MaxDim"},
		{"TSPArcIndex 2^62", func() { TSPArcIndex(1<<62, 4, 2) }, "mip: TSPArcIndex: 4611686018427387904 nodes"},
		{"TSPArcIndex MaxInt", func() { TSPArcIndex(math.MaxInt, 4, 2) }, "lazycg.MaxDim"},
		{"RandomTSP 2^40", func() { RandomTSP(1<<40, 1) }, "mip: RandomTSP: 1099511627776 nodes exceed the limit of 10000000"},
		{"RandomTSP 2^62", func() { RandomTSP(1<<62, 1) }, "exceed the limit of 10000000"},
		{"RandomTSP MaxInt", func() { RandomTSP(math.MaxInt, 1) }, "exceed the limit of 10000000"},
		{"RandomGraph 2^40", func() { RandomGraph(1<<40, 0, 1) }, "mip: RandomGraph: 1099511627776 nodes have more than"},
		{"RandomGraph MaxInt", func() { RandomGraph(math.MaxInt, 0, 1) }, "lazycg.MaxDim"},
		{"ArcCosts N=2^40", func() { (&TSPInstance{N: 1 << 40}).ArcCosts() }, "mip: TSPInstance.ArcCosts: 1099511627776 nodes"},
		{"ArcCosts N=-1", func() { (&TSPInstance{N: -1}).ArcCosts() }, "mip: TSPInstance.ArcCosts: negative node count -1"},
		{"EdgeCosts N=MaxInt", func() { (&TSPInstance{N: math.MaxInt}).EdgeCosts() }, "mip: TSPInstance.EdgeCosts: 9223372036854775807 nodes"},
		{"EdgeCosts N=-3", func() { (&TSPInstance{N: -3}).EdgeCosts() }, "mip: TSPInstance.EdgeCosts: negative node count -3"},
		{"CycleCuts N=-1", func() { CycleCuts(&QUBO{N: -1}) }, "mip: CycleCuts: qubo: N = -1 with 0 linear terms"},
		{"CycleCuts N=MaxInt", func() { CycleCuts(&QUBO{N: math.MaxInt}) }, "mip: CycleCuts: qubo: N = 9223372036854775807"},
		{"CycleCuts coupling out of range", func() {
			CycleCuts(&QUBO{N: 2, Linear: []float64{0, 0}, Couplings: []Coupling{{0, 5, 1}}})
		}, "mip: CycleCuts: qubo: coupling 0 joins 0 and 5"},
		{"CycleCutCount N=MaxInt", func() { CycleCutCount(&QUBO{N: math.MaxInt}, -1, -1) }, "mip: CycleCutCount: qubo: N = 9223372036854775807"},
		{"AddCol [+Inf, +Inf]", col(inf, inf), `mip: builder: column "c" has bounds [+Inf, +Inf]`},
		{"AddCol [-Inf, -Inf]", col(-inf, -inf), `mip: builder: column "c" has bounds [-Inf, -Inf]`},
		{"AddRow [+Inf, +Inf]", row(inf, inf), `mip: builder: row "r" has bounds [+Inf, +Inf]`},
		{"AddRow [-Inf, -Inf]", row(-inf, -inf), `mip: builder: row "r" has bounds [-Inf, -Inf]`},
	} {
		expectPanic(t, tc.name, tc.f, tc.want)
	}
	// Legal sizes are unchanged.
	if len(CompleteGraph(5)) != 10 || len(TSPArcs(4)) != 12 || TSPArcIndex(4, 3, 2) != 11 || RandomTSP(3, 1).N != 3 {
		t.Error("legal sizes changed")
	}
	b := NewBuilder("b")
	b.AddCol("free", -inf, inf, false)
	b.AddRow("free", -inf, inf, []int{0}, []float64{1})
}

// malformedModels returns hand-built models that NewSolver refuses; each
// made a Model method panic with an index out of range.
func malformedModels() map[string]*Model {
	return map[string]*Model{
		// Start rises beyond the 2 nonzeros and comes back: the check of
		// column 0 read Index[2].
		"start overshoots": {ColLo: []float64{0, 0}, ColUp: []float64{1, 1}, Integer: []bool{true, true}, Obj: []float64{0, 0},
			Start: []int{0, 5, 2}, Index: []int{0, 0}, Value: []float64{1, 1}, RowLo: []float64{0}, RowUp: []float64{1}},
		"short arrays": {ColLo: []float64{0, 0}, ColUp: []float64{1}, Start: []int{0}},
	}
}

// TestProbeSizesMalformedModel: WriteMPS, NewSolver and Model.Check
// return an error for a malformed model, StandardForm reports false, and
// so does Binary when the column arrays disagree; they panicked.
func TestProbeSizesMalformedModel(t *testing.T) {
	for name, m := range malformedModels() {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: panic %v", name, r)
				}
			}()
			if err := WriteMPS(&bytes.Buffer{}, m); err == nil || !strings.HasPrefix(err.Error(), "mip: ") {
				t.Errorf("%s: WriteMPS: %v", name, err)
			}
			if _, err := NewSolver(m, Options{Backend: refuse{}}); err == nil || strings.Contains(err.Error(), "refuse") {
				t.Errorf("%s: NewSolver: %v", name, err)
			}
			if err := m.Check(make([]float64, m.NumCols()), 1e-9); err == nil || !strings.HasPrefix(err.Error(), "mip: ") {
				t.Errorf("%s: Check: %v", name, err)
			}
			if m.StandardForm(nil) {
				t.Errorf("%s: StandardForm", name)
			}
			if len(m.ColUp) != m.NumCols() && m.Binary() {
				t.Errorf("%s: Binary", name)
			}
		}()
	}
}

// TestProbeSizesInfinitePoint: an infinite value is no point of a model,
// even on a column without an upper bound, where the tolerance
// tol·max(1, |x|) is infinite too. Model.Check accepted it, NewSolver
// accepted it as the Known point (KnownVertex would return it), and
// Solver.Check accepted it on a coordinate of an extended formulation.
func TestProbeSizesInfinitePoint(t *testing.T) {
	inf := math.Inf(1)
	b := NewBuilder("unbounded")
	b.AddCol("x", 0, inf, true)
	b.AddCol("y", 0, 1, true)
	b.AddRow("r", 0, inf, []int{0, 1}, []float64{1, 1})
	m := b.Build()
	for _, x := range [][]float64{{inf, 0}, {-inf, 0}} {
		if err := m.Check(x, 1e-9); err == nil || !strings.Contains(err.Error(), "not finite") || !strings.HasPrefix(err.Error(), "mip: ") {
			t.Errorf("Check(%v): %v", x, err)
		}
	}
	if err := m.Check([]float64{3, 1}, 1e-9); err != nil {
		t.Errorf("Check of a feasible point: %v", err)
	}
	k := *m
	k.Known = []float64{inf, 0}
	if _, err := NewSolver(&k, Options{Backend: refuse{}}); err == nil || !strings.Contains(err.Error(), "known point") {
		t.Errorf("NewSolver with Known = (+Inf, 0): %v", err)
	}
	s, err := NewSolver(m, Options{Vars: []int{0}, Backend: &recordingBackend{}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Check([]float64{inf}, 1e-9); err == nil {
		t.Error("Solver.Check(+Inf) on a coordinate without upper bound: nil")
	}
	if err := s.Check([]float64{7}, 1e-9); err != nil {
		t.Errorf("Solver.Check(7): %v", err)
	}
}

// TestProbeSizesInconsistent: hand-built TSP instances and QUBOs whose
// fields disagree, and graphs that are not simple, are refused with a
// panic naming the function. Without the checks Dist, ArcCosts and
// EdgeCosts indexed X, Y or the (absent) explicit matrix out of range,
// QUBO.Value skipped the linear terms beyond len(Linear) (or indexed out
// of range), and Triangles counted a self-loop beside a triangle as 3
// triangles and a triangle with a repeated edge as 2.
func TestProbeSizesInconsistent(t *testing.T) {
	shortY := &TSPInstance{N: 3, WeightType: "EUC_2D", X: []float64{0, 3, 0}, Y: []float64{0}}
	explicit := &TSPInstance{N: 2, WeightType: "EXPLICIT"}
	untyped := &TSPInstance{N: 2}
	var path [][2]int // 5001 nodes: past maxBitsetNodes, counted by enumeration
	for i := range 5000 {
		path = append(path, [2]int{i, i + 1})
	}
	path = append(path, [2]int{4000, 3999})
	for _, tc := range []struct {
		name string
		f    func()
		want string
	}{
		{"Dist short Y", func() { shortY.Dist(0, 2) }, `mip: TSPInstance.Dist: instance "" of 3 nodes has 3 X and 1 Y coordinates`},
		{"Dist nil X", func() { (&TSPInstance{N: 2, WeightType: "GEO"}).Dist(0, 1) }, "mip: TSPInstance.Dist: instance \"\" of 2 nodes has 0 X"},
		{"Dist EXPLICIT without matrix", func() { explicit.Dist(0, 1) }, "mip: TSPInstance.Dist: EXPLICIT instance \"\" of 2 nodes has no weight matrix"},
		{"Dist no weight type", func() { untyped.Dist(0, 1) }, `mip: TSPInstance.Dist: instance "" has unknown weight type ""`},
		{"ArcCosts short Y", func() { shortY.ArcCosts() }, "mip: TSPInstance.ArcCosts: instance \"\" of 3 nodes has 3 X and 1 Y"},
		{"EdgeCosts EXPLICIT without matrix", func() { explicit.EdgeCosts() }, "mip: TSPInstance.EdgeCosts: EXPLICIT instance"},
		{"QUBO.Value short Linear", func() {
			(&QUBO{N: 3, Linear: []float64{1, 1}}).Value([]float64{1, 1, 1})
		}, "mip: QUBO.Value: 2 linear terms for 3 variables"},
		{"QUBO.Value long Linear", func() {
			(&QUBO{N: 2, Linear: []float64{1, 1, 1}}).Value([]float64{1, 1})
		}, "mip: QUBO.Value: 3 linear terms for 2 variables"},
		{"QUBO.Value coupling beyond N", func() {
			(&QUBO{N: 2, Linear: []float64{0, 0}, Couplings: []Coupling{{0, 5, 1}}}).Value([]float64{1, 1})
		}, "mip: QUBO.Value: coupling 0 joins 0 and 5 (want 0 ≤ I < J < 2)"},
		{"QUBO.Value diagonal coupling", func() {
			(&QUBO{N: 2, Linear: []float64{0, 0}, Couplings: []Coupling{{0, 1, 1}, {1, 1, 2}}}).Value([]float64{1, 1})
		}, "mip: QUBO.Value: coupling 1 joins 1 and 1"},
		{"Triangles self-loop", func() { Triangles([][2]int{{0, 0}, {0, 1}, {1, 2}, {2, 0}}) }, "mip: Triangles: edge 0 is a self-loop at node 0"},
		{"Triangles repeated edge", func() { Triangles([][2]int{{0, 1}, {1, 2}, {2, 0}, {1, 0}}) }, "mip: Triangles: edges 0 and 3 both join nodes 1 and 0"},
		{"Triangles repeated labels", func() { Triangles([][2]int{{-1, -2}, {-2, -3}, {-3, -1}, {-3, -1}}) }, "mip: Triangles: edges 2 and 3 both join nodes -3 and -1"},
		{"Triangles repeated edge, 5001 nodes", func() { Triangles(path) }, "mip: Triangles: edges 3999 and 5000 both join nodes 4000 and 3999"},
	} {
		expectPanic(t, tc.name, tc.f, tc.want)
	}
	if _, err := shortY.TourLength([]int{0, 1, 2}); err == nil || !strings.Contains(err.Error(), "mip: TSPInstance.TourLength: instance \"\" of 3 nodes has 3 X and 1 Y") {
		t.Errorf("TourLength on an inconsistent instance: %v", err)
	}
	// Consistent input is unchanged.
	good := &TSPInstance{N: 3, WeightType: "EUC_2D", X: []float64{0, 3, 0}, Y: []float64{0, 0, 4}}
	if l, err := good.TourLength([]int{0, 1, 2}); err != nil || l != 12 || good.Dist(1, 2) != 5 || len(good.ArcCosts()) != 6 || len(good.EdgeCosts()) != 3 {
		t.Errorf("consistent instance: TourLength %d, %v", l, err)
	}
	q := &QUBO{N: 2, Linear: []float64{1, 2}, Couplings: []Coupling{{0, 1, -4}}}
	if v := q.Value([]float64{1, 1}); v != -1 {
		t.Errorf("QUBO.Value = %v, want -1", v)
	}
	if Triangles(path[:5000]) != 0 || Triangles([][2]int{{0, 1}, {1, 2}, {2, 0}}) != 1 {
		t.Error("Triangles of simple graphs changed")
	}
}

// expectPanic runs f as subtest name and fails unless f panics with a
// message (not a runtime error) containing want.
func expectPanic(t *testing.T, name string, f func(), want string) {
	t.Helper()
	t.Run(name, func(t *testing.T) {
		defer func() {
			r := recover()
			msg, _ := r.(string)
			if _, rt := r.(runtime.Error); rt || r == nil || !strings.Contains(msg, want) {
				t.Errorf("panic %v; want a panic with %q", r, want)
			}
		}()
		f()
	})
}
