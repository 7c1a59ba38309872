//go:build cgo

package cbc_test

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/mip"
	"github.com/lazycg/lazycg/mip/internal/brute"
)

// buildSolver returns a solver over f's polytope, closed at the end of the
// test.
func buildSolver(t *testing.T, f *mip.Formulation, m *mip.Model) *mip.Solver {
	t.Helper()
	if m == nil {
		m = f.Model
	}
	s, err := mip.NewSolver(m, mip.Options{Vars: f.Vars, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// buildMinimize minimizes c over the solver's polytope, requires a proven
// optimal 0/1 vertex whose value is c·dst, and returns value and vertex.
// what describes the call in failure messages.
func buildMinimize(t *testing.T, what string, s *mip.Solver, c []float64) (float64, []float64) {
	t.Helper()
	dst := make([]float64, len(c))
	res, err := s.Minimize(context.Background(), dst, c)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if !res.Optimal() || res.Reason != lazycg.StopOptimal {
		t.Fatalf("%s: not optimal: %+v", what, res)
	}
	dot := 0.0
	for k, v := range dst {
		if math.Abs(v-math.Round(v)) > 1e-6 {
			t.Fatalf("%s: coordinate %d = %v is fractional (result %+v, c = %v, x = %v)", what, k, v, res, c, dst)
		}
		dot += c[k] * v
	}
	if math.Abs(dot-res.Value) > 1e-6*(1+math.Abs(dot)) {
		t.Fatalf("%s: Value %v but c·dst = %v", what, res.Value, dot)
	}
	return res.Value, dst
}

func buildNear(a, b float64) bool { return math.Abs(a-b) <= 1e-6*(1+math.Abs(b)) }

func TestTSPSolveHeldKarp(t *testing.T) {
	for _, n := range []int{4, 6, 8, 10} {
		f, err := mip.TSP(n)
		if err != nil {
			t.Fatal(err)
		}
		u, err := mip.TSPUndirected(n)
		if err != nil {
			t.Fatal(err)
		}
		s, su := buildSolver(t, f, nil), buildSolver(t, u, nil)
		for seed := range uint64(2) {
			inst := mip.RandomTSP(n, 100*uint64(n)+seed)
			want, _ := brute.HeldKarp(n, inst.Dist)
			got, x := buildMinimize(t, fmt.Sprintf("directed n=%d seed=%d", n, seed), s, inst.ArcCosts())
			if got != float64(want) {
				t.Errorf("n=%d seed=%d: directed min %v, Held–Karp %d", n, seed, got, want)
			}
			tour, err := mip.TourFromArcs(n, x)
			if err != nil {
				t.Fatal(err)
			}
			if l, _ := inst.TourLength(tour); l != want {
				t.Errorf("n=%d: tour %v has length %d, want %d", n, tour, l, want)
			}
			if got, _ := buildMinimize(t, fmt.Sprintf("undirected n=%d seed=%d", n, seed), su, inst.EdgeCosts()); got != float64(want) {
				t.Errorf("n=%d seed=%d: undirected min %v, Held–Karp %d", n, seed, got, want)
			}
		}
	}
}

func TestTSPSolveTSPLIB(t *testing.T) {
	if testing.Short() {
		t.Skip("TSPLIB MIPs skipped in short mode")
	}
	for _, tc := range []struct {
		file    string
		optimum float64
	}{{"burma14.tsp", 3323}, {"ulysses16.tsp", 6859}, {"gr17.tsp", 2085}} {
		inst, err := mip.ReadTSPLIBFile(filepath.Join("..", "testdata", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		f, err := mip.TSPUndirected(inst.N)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := buildMinimize(t, tc.file, buildSolver(t, f, nil), inst.EdgeCosts()); got != tc.optimum {
			t.Errorf("%s: min %v, want %v", tc.file, got, tc.optimum)
		}
	}
}

func TestCutSolveBrute(t *testing.T) {
	for _, tc := range []struct {
		n    int
		p    float64
		seed uint64
	}{{4, 1, 1}, {7, 0.5, 2}, {10, 0.4, 3}, {10, 0.8, 4}} {
		edges := mip.RandomGraph(tc.n, tc.p, tc.seed)
		for _, tri := range []mip.CutOptions{{}, {Triangles: true}, {TriangleCuts: true}} {
			f, err := mip.CutPolytope(tc.n, edges, tri)
			if err != nil {
				t.Fatal(err)
			}
			s := buildSolver(t, f, nil)
			for k, rng := range [][2]int{{-10, 10}, {-10, 3}, {1, 10}, {-10, -1}} {
				c := brute.RandomCosts(len(edges), rng[0], rng[1], tc.seed*10+uint64(k))
				got, _ := buildMinimize(t, fmt.Sprintf("cut n=%d seed=%d %+v call %d", tc.n, tc.seed, tri, k), s, c)
				if want := brute.MinCut(tc.n, edges, c); got != want {
					t.Errorf("n=%d seed=%d %+v costs in %v: min %v, brute force %v", tc.n, tc.seed, tri, rng, got, want)
				}
			}
		}
	}
}

// TestCutPoolSeparated checks that both searches separate a model's cut
// pool as Options.Pool says: on mixed-sign costs over the cut polytope of
// K_12 the triangle inequalities make the root LP integral after its cut
// rounds, so the calls need no branching, while the standard formulation
// alone (no pool, or PoolOff) branches; PoolAuto leaves the pool out on
// costs of one sign. Every answer is the brute-force optimum. (The
// standard search uses the pool only without CBC's preprocessing, whose
// model has other columns.)
func TestCutPoolSeparated(t *testing.T) {
	const n = 12
	edges := mip.CompleteGraph(n)
	for _, search := range []mip.Search{mip.SearchLight, mip.SearchStandard} {
		for _, tc := range []struct {
			pool   bool
			mode   mip.Pool
			pooled int
		}{{false, mip.PoolAuto, 0}, {true, mip.PoolAuto, 3}, {true, mip.PoolOn, 4}, {true, mip.PoolOff, 0}} {
			f, err := mip.CutPolytope(n, edges, mip.CutOptions{TriangleCuts: tc.pool})
			if err != nil {
				t.Fatal(err)
			}
			s, err := mip.NewSolver(f.Model, mip.Options{Vars: f.Vars, Threads: 1, Search: search, Preprocess: mip.PreprocessOff, Pool: tc.mode})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			dst := make([]float64, len(edges))
			var nodes int64
			for k := range uint64(4) {
				c := brute.RandomCosts(len(edges), -10, 10, 70+k)
				if k == 3 {
					c = brute.RandomCosts(len(edges), -10, -1, 70+k) // one sign: maximum cut
				}
				res, err := s.Minimize(context.Background(), dst, c)
				if err != nil {
					t.Fatal(err)
				}
				if want := brute.MinCut(n, edges, c); !res.Optimal() || res.Value != want {
					t.Fatalf("%v search, %+v, call %d: %+v, brute force %v", search, tc, k, res, want)
				}
				if k < 3 {
					nodes += res.Nodes
				}
			}
			if s.Pooled() != tc.pooled {
				t.Errorf("%v search, %+v: %d calls separated the pool, want %d", search, tc, s.Pooled(), tc.pooled)
			}
			if used := tc.pooled > 0; used != (nodes == 0) {
				t.Errorf("%v search, %+v: %d branch-and-bound nodes on the 3 mixed-sign calls", search, tc, nodes)
			}
		}
	}
}

func TestSpanningTreeSolveKruskal(t *testing.T) {
	graphs := []struct {
		n     int
		edges [][2]int
	}{{3, mip.CompleteGraph(3)}, {5, mip.CompleteGraph(5)}, {8, mip.CompleteGraph(8)}}
	// A sparse connected random graph.
	for seed := uint64(0); ; seed++ {
		if e := mip.RandomGraph(8, 0.35, seed); brute.Connected(8, e) {
			graphs = append(graphs, struct {
				n     int
				edges [][2]int
			}{8, e})
			break
		}
	}
	for _, g := range graphs {
		f, err := mip.SpanningTreeExt(g.n, g.edges)
		if err != nil {
			t.Fatal(err)
		}
		// The same model with every column continuous: its LP optimum must
		// already be a spanning tree.
		lp := *f.Model
		lp.Integer = make([]bool, lp.NumCols())
		s, slp := buildSolver(t, f, nil), buildSolver(t, f, &lp)
		for seed := range uint64(3) {
			c := brute.RandomRealCosts(len(g.edges), seed)
			want, _ := brute.Kruskal(g.n, g.edges, c)
			if got, _ := buildMinimize(t, fmt.Sprintf("MIP n=%d m=%d seed=%d", g.n, len(g.edges), seed), s, c); !buildNear(got, want) {
				t.Errorf("n=%d m=%d: MIP min %v, Kruskal %v", g.n, len(g.edges), got, want)
			}
			got, x := buildMinimize(t, fmt.Sprintf("LP n=%d m=%d seed=%d", g.n, len(g.edges), seed), slp, c) // also checks x is integral
			if !buildNear(got, want) {
				t.Errorf("n=%d m=%d: LP min %v, Kruskal %v", g.n, len(g.edges), got, want)
			}
			var tree [][2]int
			for k, v := range x {
				if v > 0.5 {
					tree = append(tree, g.edges[k])
				}
			}
			if len(tree) != g.n-1 || !brute.Connected(g.n, tree) {
				t.Errorf("LP vertex %v is not a spanning tree", tree)
			}
		}
	}
}

// randomBQP returns brute.RandomQUBO(n, p, seed) and its Boolean quadric
// formulation.
func randomBQP(t *testing.T, n int, p float64, seed uint64) (*mip.QUBO, *mip.Formulation) {
	t.Helper()
	q, err := mip.ReadQUBO(strings.NewReader(brute.RandomQUBO(n, p, seed)))
	if err != nil {
		t.Fatal(err)
	}
	f, err := mip.BooleanQuadric(q)
	if err != nil {
		t.Fatal(err)
	}
	return q, f
}

func TestBooleanQuadricSolveBrute(t *testing.T) {
	for _, tc := range []struct {
		n    int
		p    float64
		seed uint64
	}{{3, 1, 1}, {8, 0.5, 2}, {12, 0.3, 3}, {12, 0.6, 4}} {
		q, f := randomBQP(t, tc.n, tc.p, tc.seed)
		for _, cycles := range []bool{false, true} {
			if cycles {
				f.Model.Cuts = mip.CycleCuts(q) // separated by the light search
			}
			got, v := buildMinimize(t, fmt.Sprintf("qubo n=%d seed=%d cycles=%v", tc.n, tc.seed, cycles), buildSolver(t, f, nil), mip.QUBOObjective(q))
			if want := brute.MinBinary(q.N, q.Value); got != want {
				t.Errorf("n=%d seed=%d cycles=%v: MIP min %v, brute force %v", tc.n, tc.seed, cycles, got, want)
			}
			if val := q.Value(v[:q.N]); val != got {
				t.Errorf("vertex x has mip.QUBO value %v, MIP value %v", val, got)
			}
		}
	}
}

func TestBooleanQuadricChimera(t *testing.T) {
	if testing.Short() {
		t.Skip("time-limited Chimera solve skipped in short mode")
	}
	q, err := mip.ReadQUBOFile(filepath.Join("..", "testdata", "chimera439-1.txt"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := mip.BooleanQuadric(q)
	if err != nil {
		t.Fatal(err)
	}
	s, err := mip.NewSolver(f.Model, mip.Options{Vars: f.Vars, Threads: 1, TimeLimit: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c := mip.QUBOObjective(q)
	dst := make([]float64, len(c))
	res, err := s.Minimize(context.Background(), dst, c)
	if err != nil {
		t.Fatal(err)
	}
	// The proven optimum of Selby's instance 439/1 is −882.
	if !res.Found || res.Bound > -882+1e-6 || res.Value < -882-1e-6 {
		t.Errorf("result %+v inconsistent with the optimum −882", res)
	}
	if val := q.Value(dst[:q.N]); !buildNear(val, res.Value) {
		t.Errorf("vertex has mip.QUBO value %v, solver reports %v", val, res.Value)
	}
	t.Logf("439/1 after %v: value %v, bound %v, %v, %d nodes", 3*time.Second, res.Value, res.Bound, res.Reason, res.Nodes)
}
