//go:build cgo

package cbc_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/internal/testutil"
	"github.com/lazycg/lazycg/mip"
	"github.com/lazycg/lazycg/mip/internal/brute"
)

// Brute-force probes of the polytope builders: every vertex of the small
// polytopes is enumerated combinatorially, and the solver's answers
// (Minimize, MinimizeFace, Augment, KnownVertex) are compared with the
// enumeration.

// probeKey is a 0/1 vector as a string, for vertex sets.
func probeKey(x []float64) string {
	b := make([]byte, len(x))
	for i, v := range x {
		switch {
		case math.Abs(v) <= 1e-6:
			b[i] = '0'
		case math.Abs(v-1) <= 1e-6:
			b[i] = '1'
		default:
			b[i] = '?'
		}
	}
	return string(b)
}

// probeCosts returns a cost vector of one of several kinds: small
// integers (many ties), zeros mixed in, reals, one sign, large and tiny.
func probeCosts(rng *rand.Rand, n, kind int) []float64 {
	c := make([]float64, n)
	for i := range c {
		switch kind % 7 {
		case 0:
			c[i] = float64(rng.IntN(7) - 3)
		case 1:
			if rng.IntN(2) == 0 {
				c[i] = float64(rng.IntN(11) - 5)
			}
		case 2:
			c[i] = 2*rng.Float64() - 1
		case 3:
			c[i] = float64(rng.IntN(10) + 1)
		case 4:
			c[i] = -float64(rng.IntN(10) + 1)
		case 5:
			c[i] = (2*rng.Float64() - 1) * 1e5
		case 6:
			c[i] = float64(rng.IntN(5)-2) + 1e-4*rng.Float64()
		}
	}
	return c
}

type probeVertices struct {
	list [][]float64
	set  map[string]bool
}

func newProbeVertices(vs [][]float64) *probeVertices {
	p := &probeVertices{set: map[string]bool{}}
	for _, v := range vs {
		k := probeKey(v)
		if !p.set[k] {
			p.set[k] = true
			p.list = append(p.list, v)
		}
	}
	return p
}

func (p *probeVertices) min(c []float64, zero []bool) (float64, bool) {
	best, ok := math.Inf(1), false
outer:
	for _, v := range p.list {
		for i, z := range zero {
			if z && v[i] != 0 {
				continue outer
			}
		}
		best, ok = math.Min(best, dot(c, v)), true
	}
	return best, ok
}

func probeNear(a, b float64, c []float64) bool {
	s := 0.0
	for _, v := range c {
		s += math.Abs(v)
	}
	return math.Abs(a-b) <= 1e-6*(1+s)
}

// probePolytope checks the solver of f against the vertex set vs with
// calls random costs (Minimize, MinimizeFace, Augment).
func probePolytope(t *testing.T, what string, f *mip.Formulation, vs [][]float64, calls int, seed uint64) {
	t.Helper()
	p := newProbeVertices(vs)
	if len(p.list) == 0 {
		t.Fatalf("%s: no vertices", what)
	}
	s, err := mip.NewSolver(f.Model, mip.Options{Vars: f.Vars, Threads: 1})
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	defer s.Close()
	dim := f.Dim()
	if len(p.list[0]) != dim {
		t.Fatalf("%s: vertices have %d coordinates, formulation %d", what, len(p.list[0]), dim)
	}
	kv := make([]float64, dim)
	if !s.KnownVertex(kv) || !p.set[probeKey(kv)] {
		t.Fatalf("%s: known vertex %v is not a vertex", what, kv)
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	ctx := context.Background()
	dst := make([]float64, dim)
	for k := range calls {
		c := probeCosts(rng, dim, k)
		res, err := s.Minimize(ctx, dst, c)
		if err != nil {
			t.Fatalf("%s call %d: %v", what, k, err)
		}
		want, _ := p.min(c, nil)
		if !p.set[probeKey(dst)] {
			t.Fatalf("%s call %d: c = %v: returned %v, not a vertex", what, k, c, dst)
		}
		if !res.Optimal() || !probeNear(res.Value, want, c) || !probeNear(dot(c, dst), want, c) {
			t.Fatalf("%s call %d: c = %v: %+v, c·dst = %v, brute force %v", what, k, c, res, dot(c, dst), want)
		}
		// A face: zero a random quarter of the coordinates.
		zero := make([]bool, dim)
		for i := range zero {
			zero[i] = rng.IntN(4) == 0
		}
		if k%3 == 2 {
			for i := range zero {
				zero[i] = rng.IntN(10) != 0
			}
		}
		want, ok := p.min(c, zero)
		res, err = s.MinimizeFace(ctx, dst, c, zero)
		if !ok {
			if err == nil || !errorsIsEmpty(err) {
				t.Fatalf("%s face call %d: empty face gave %+v, %v (dst %v)", what, k, res, err, dst)
			}
		} else {
			if err != nil {
				t.Fatalf("%s face call %d: %v", what, k, err)
			}
			if !p.set[probeKey(dst)] || !probeNear(res.Value, want, c) {
				t.Fatalf("%s face call %d: zero %v c %v: %+v dst %v, brute force %v", what, k, zero, c, res, dst, want)
			}
			for i, z := range zero {
				if z && dst[i] != 0 {
					t.Fatalf("%s face call %d: dst %v not in face %v", what, k, dst, zero)
				}
			}
		}
		// Augment from a random vertex.
		x := p.list[rng.IntN(len(p.list))]
		want, _ = p.min(c, nil)
		better, err := s.Augment(ctx, dst, c, x)
		if err != nil {
			t.Fatalf("%s augment call %d: %v", what, k, err)
		}
		if better {
			if !p.set[probeKey(dst)] || !(dot(c, dst) < dot(c, x)) {
				t.Fatalf("%s augment call %d: from %v to %v, not improving", what, k, x, dst)
			}
		} else if !probeNear(dot(c, x), want, c) {
			t.Fatalf("%s augment call %d: no augmentation of %v (value %v), optimum %v", what, k, x, dot(c, x), want)
		}
	}
}

func errorsIsEmpty(err error) bool {
	return err != nil && errors.Is(err, lazycg.ErrEmptyPolytope)
}

func cutVertices(n int, edges [][2]int) [][]float64 {
	var vs [][]float64
	for mask := 0; mask < 1<<n; mask++ {
		v := make([]float64, len(edges))
		for k, e := range edges {
			v[k] = float64((mask>>e[0] ^ mask>>e[1]) & 1)
		}
		vs = append(vs, v)
	}
	return vs
}

func TestProbeCutBrute(t *testing.T) {
	graphs := []struct {
		name  string
		n     int
		edges [][2]int
	}{
		{"K2", 2, [][2]int{{0, 1}}},
		{"K2rev", 2, [][2]int{{1, 0}}},
		{"K3", 3, mip.CompleteGraph(3)},
		{"K5", 5, mip.CompleteGraph(5)},
		{"path5rev", 5, [][2]int{{4, 3}, {2, 3}, {1, 2}, {1, 0}}},
		{"star6", 6, [][2]int{{3, 0}, {3, 1}, {3, 2}, {3, 4}, {3, 5}}},
		{"isolated0", 5, [][2]int{{1, 2}, {2, 3}, {3, 1}, {4, 1}}},
		{"twocomps", 6, [][2]int{{0, 1}, {1, 2}, {2, 0}, {5, 3}, {4, 3}, {4, 5}}},
		{"C6+chords", 6, [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 0}, {0, 3}, {1, 4}}},
		{"rand7", 7, mip.RandomGraph(7, 0.5, 3)},
		{"K4revshuf", 4, [][2]int{{3, 2}, {1, 0}, {3, 0}, {2, 1}, {2, 0}, {3, 1}}},
		{"W5shuf", 6, [][2]int{{5, 0}, {2, 1}, {0, 4}, {3, 0}, {4, 5}, {1, 0}, {5, 1}, {2, 0}, {3, 2}, {4, 3}}},
	}
	for gi, g := range graphs {
		for _, opt := range []mip.CutOptions{{}, {Triangles: true}, {TriangleCuts: true}} {
			f, err := mip.CutPolytope(g.n, g.edges, opt)
			if err != nil {
				t.Fatal(err)
			}
			if f.Dim() != len(g.edges) {
				t.Fatalf("%s: dim %d", g.name, f.Dim())
			}
			for k, e := range g.edges {
				if want := fmt.Sprintf("x_%d_%d", e[0], e[1]); f.Names[k] != want || f.Model.ColNames[f.Vars[k]] != want {
					t.Fatalf("%s: name %d = %q", g.name, k, f.Names[k])
				}
			}
			probePolytope(t, fmt.Sprintf("cut %s %+v", g.name, opt), f, cutVertices(g.n, g.edges), 8, uint64(gi))
		}
	}
}

func TestProbeTSPBrute(t *testing.T) {
	for _, n := range []int{3, 4, 5} {
		var dir, und [][]float64
		arcs := mip.TSPArcs(n)
		edges := mip.CompleteGraph(n)
		testutil.Permutations(n, func(p []int) {
			if p[0] != 0 {
				return
			}
			x := make([]float64, len(arcs))
			y := make([]float64, len(edges))
			for k := range n {
				i, j := p[k], p[(k+1)%n]
				x[mip.TSPArcIndex(n, i, j)] = 1
				for e, ed := range edges {
					if ed == [2]int{min(i, j), max(i, j)} {
						y[e] = 1
					}
				}
			}
			dir = append(dir, x)
			und = append(und, y)
		})
		f, err := mip.TSP(n)
		if err != nil {
			t.Fatal(err)
		}
		probePolytope(t, fmt.Sprintf("tsp %d", n), f, dir, 8, uint64(n))
		u, err := mip.TSPUndirected(n)
		if err != nil {
			t.Fatal(err)
		}
		probePolytope(t, fmt.Sprintf("tsp-undirected %d", n), u, und, 8, uint64(n))
	}
}

// spanningTrees enumerates the spanning trees of the graph: the sets of
// n−1 edges that connect its n nodes.
func spanningTrees(n int, edges [][2]int) [][]float64 {
	var vs [][]float64
	m := len(edges)
	for mask := 0; mask < 1<<m; mask++ {
		if bits.OnesCount(uint(mask)) != n-1 {
			continue
		}
		sub := make([][2]int, 0, n-1)
		v := make([]float64, m)
		for k, e := range edges {
			if mask>>k&1 == 1 {
				sub = append(sub, e)
				v[k] = 1
			}
		}
		if brute.Connected(n, sub) {
			vs = append(vs, v)
		}
	}
	return vs
}

func TestProbeSpanningTreeBrute(t *testing.T) {
	graphs := []struct {
		name  string
		n     int
		edges [][2]int
	}{
		{"K2", 2, [][2]int{{1, 0}}},
		{"K4", 4, mip.CompleteGraph(4)},
		{"K5rev", 5, func() [][2]int {
			var e [][2]int
			for _, x := range mip.CompleteGraph(5) {
				e = append(e, [2]int{x[1], x[0]})
			}
			return e
		}()},
		{"path", 5, [][2]int{{3, 4}, {1, 2}, {0, 1}, {2, 3}}},
		{"C5+chord", 5, [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}, {1, 3}}},
		{"star", 5, [][2]int{{2, 0}, {2, 1}, {2, 3}, {2, 4}}},
	}
	for gi, g := range graphs {
		f, err := mip.SpanningTreeExt(g.n, g.edges)
		if err != nil {
			t.Fatal(err)
		}
		probePolytope(t, "spanning tree "+g.name, f, spanningTrees(g.n, g.edges), 8, uint64(gi))
	}
}

func TestProbeBooleanQuadricBrute(t *testing.T) {
	qs := []*mip.QUBO{
		{N: 1, Linear: []float64{-1}},
		{N: 2, Linear: []float64{1, -2}, Couplings: []mip.Coupling{{I: 0, J: 1, Q: 3}}},
		{N: 4, Linear: []float64{0, 0, 0, 0}, Couplings: []mip.Coupling{{I: 2, J: 3, Q: -1}, {I: 0, J: 3, Q: 2}, {I: 0, J: 1, Q: 1}, {I: 1, J: 2, Q: 1}}},
		{N: 5, Linear: []float64{1, 2, 3, 4, 5}, Couplings: []mip.Coupling{{I: 0, J: 1, Q: 1}, {I: 0, J: 2, Q: 1}, {I: 1, J: 2, Q: 1}, {I: 3, J: 4, Q: -7}}},
	}
	for qi, q := range qs {
		f, err := mip.BooleanQuadric(q)
		if err != nil {
			t.Fatal(err)
		}
		var vs [][]float64
		for mask := 0; mask < 1<<q.N; mask++ {
			v := make([]float64, q.N+len(q.Couplings))
			for i := range q.N {
				v[i] = float64(mask >> i & 1)
			}
			for k, c := range q.Couplings {
				v[q.N+k] = v[c.I] * v[c.J]
			}
			vs = append(vs, v)
		}
		probePolytope(t, fmt.Sprintf("bqp %d", qi), f, vs, 8, uint64(qi))
		g := *f
		m := *f.Model
		m.Cuts = mip.CycleCuts(q)
		g.Model = &m
		probePolytope(t, fmt.Sprintf("bqp %d cycles", qi), &g, vs, 8, uint64(qi))
	}
}

func TestProbeAssignmentBrute(t *testing.T) {
	for _, n := range []int{1, 2, 3, 4} {
		vs := testutil.PermutationMatrices(n)
		f, err := mip.AssignmentPolytope(n)
		if err != nil {
			t.Fatal(err)
		}
		probePolytope(t, fmt.Sprintf("assignment %d", n), f, vs, 8, uint64(n))
	}
}

// probeUntil checks MinimizeUntil, RelaxationBound and the relaxation
// against brute force: every answer must be consistent with the optimum
// over the vertex set vs.
func probeUntil(t *testing.T, what string, f *mip.Formulation, vs [][]float64, calls int, seed uint64) {
	t.Helper()
	p := newProbeVertices(vs)
	s, err := mip.NewSolver(f.Model, mip.Options{Vars: f.Vars, Threads: 1})
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	defer s.Close()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(seed, 9))
	dim := f.Dim()
	dst := make([]float64, dim)
	for k := range calls {
		c := probeCosts(rng, dim, k)
		opt, _ := p.min(c, nil)
		scale := 1.0
		for _, v := range c {
			scale += math.Abs(v)
		}
		tol := 1e-6 * scale
		off := func() float64 { return float64(rng.IntN(7)-3) * scale / 8 }
		rule := lazycg.StopRule{Improve: opt + off(), Certify: opt + off(), Dive: rng.IntN(2) == 0}
		switch rng.IntN(4) {
		case 0:
			rule.Improve = math.Inf(1)
		case 1:
			rule.Keep, rule.KeepBelow = true, rule.Improve+math.Abs(off())
		}
		res, err := s.MinimizeUntil(ctx, dst, c, rule)
		if err != nil {
			t.Fatalf("%s until %d: %+v: %v", what, k, rule, err)
		}
		if res.Bound > opt+tol {
			t.Fatalf("%s until %d: %+v: bound %v above the optimum %v", what, k, rule, res.Bound, opt)
		}
		if res.Found {
			if !p.set[probeKey(dst)] || math.Abs(dot(c, dst)-res.Value) > tol || res.Value < opt-tol {
				t.Fatalf("%s until %d: %+v: %+v dst %v (c·dst %v), optimum %v", what, k, rule, res, dst, dot(c, dst), opt)
			}
		}
		switch res.Reason {
		case lazycg.StopImproving:
			if !res.Found || !(res.Value < rule.Improve) {
				t.Fatalf("%s until %d: %+v: improving answer %+v", what, k, rule, res)
			}
		case lazycg.StopCertified:
			if res.Bound < rule.Certify-tol {
				t.Fatalf("%s until %d: %+v: certified answer %+v", what, k, rule, res)
			}
		case lazycg.StopOptimal:
			if !res.Found || math.Abs(res.Value-opt) > tol {
				t.Fatalf("%s until %d: %+v: optimal answer %+v, optimum %v", what, k, rule, res, opt)
			}
		default:
			t.Fatalf("%s until %d: %+v: reason %v", what, k, rule, res.Reason)
		}
		b, err := s.RelaxationBound(ctx, c)
		if err != nil || b > opt+tol {
			t.Fatalf("%s relaxation bound %d: %v, %v; optimum %v", what, k, b, err, opt)
		}
	}
	r, err := s.Relaxation(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer r.(*mip.Solver).Close()
	for k := range calls {
		c := probeCosts(rng, dim, k)
		opt, _ := p.min(c, nil)
		res, err := r.Minimize(ctx, dst, c)
		if err != nil || res.Value > opt+1e-6*(1+math.Abs(opt)) || res.Bound > opt+1e-6*(1+math.Abs(opt)) {
			t.Fatalf("%s relaxation %d: %+v, %v; optimum %v", what, k, res, err, opt)
		}
	}
	fk, err := s.Fork(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer fk.(*mip.Solver).Close()
	for k := range 3 {
		c := probeCosts(rng, dim, k)
		opt, _ := p.min(c, nil)
		res, err := fk.Minimize(ctx, dst, c)
		if err != nil || !p.set[probeKey(dst)] || math.Abs(res.Value-opt) > 1e-6*(1+math.Abs(opt)) {
			t.Fatalf("%s fork %d: %+v, %v; optimum %v", what, k, res, err, opt)
		}
	}
}

func TestProbeUntilBrute(t *testing.T) {
	g := mip.RandomGraph(6, 0.6, 5)
	cut, err := mip.CutPolytope(6, g, mip.CutOptions{TriangleCuts: true})
	if err != nil {
		t.Fatal(err)
	}
	probeUntil(t, "cut", cut, cutVertices(6, g), 30, 1)
	n := 5
	var und [][]float64
	edges := mip.CompleteGraph(n)
	testutil.Permutations(n, func(p []int) {
		y := make([]float64, len(edges))
		for k := range n {
			i, j := min(p[k], p[(k+1)%n]), max(p[k], p[(k+1)%n])
			for e, ed := range edges {
				if ed == [2]int{i, j} {
					y[e] = 1
				}
			}
		}
		und = append(und, y)
	})
	tsp, err := mip.TSPUndirected(n)
	if err != nil {
		t.Fatal(err)
	}
	probeUntil(t, "tsp", tsp, und, 30, 2)
	st, err := mip.SpanningTreeExt(5, mip.CompleteGraph(5))
	if err != nil {
		t.Fatal(err)
	}
	probeUntil(t, "tree", st, spanningTrees(5, mip.CompleteGraph(5)), 30, 3)
}

// TestProbeStandardFormImplied checks Model.StandardForm's promise on
// random small models: when it reports standard form, every non-fixed
// column j is bounded by min(1, u_j) on {x : Ax = b, x ≥ 0 on the
// non-fixed columns, fixed columns at their value} — the set the pairwise
// methods' iterates stay in — which an LP maximizing x_j over it decides.
func TestProbeStandardFormImplied(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	inf := math.Inf(1)
	bounds := [][2]float64{{0, 1}, {0, 1}, {0, 1}, {0, 2}, {0, inf}, {1, 1}, {0, 0}, {-1, 1}, {0, 0.5}, {2, 2}}
	found := 0
	for trial := 0; trial < 4000 && found < 60; trial++ {
		nc, nr := 2+rng.IntN(4), 1+rng.IntN(3)
		b := mip.NewBuilder("std")
		for range nc {
			bd := bounds[rng.IntN(len(bounds))]
			b.AddCol("", bd[0], bd[1], rng.IntN(8) != 0)
		}
		for range nr {
			idx := make([]int, 0, nc)
			val := make([]float64, 0, nc)
			for j := range nc {
				if rng.IntN(3) != 0 {
					idx = append(idx, j)
					val = append(val, []float64{1, 1, 1, 2, 0.5, -1, 3}[rng.IntN(7)])
				}
			}
			rhs := float64(rng.IntN(4))
			switch rng.IntN(8) {
			case 0:
				b.AddRow("", -inf, rhs, idx, val)
			case 1:
				b.AddRow("", -inf, inf, idx, val)
			default:
				b.AddRow("", rhs, rhs, idx, val)
			}
		}
		m := b.Build()
		var vars []int
		for j := range nc {
			if m.ColLo[j] != m.ColUp[j] || rng.IntN(2) == 0 {
				vars = append(vars, j)
			}
		}
		if len(vars) == 0 || !m.StandardForm(vars) {
			continue
		}
		found++
		lp := *m
		lp.Integer = make([]bool, nc)
		lp.ColUp = append([]float64(nil), m.ColUp...)
		for j := range nc {
			if m.ColLo[j] != m.ColUp[j] {
				lp.ColUp[j] = inf
			}
		}
		s, err := mip.NewSolver(&lp, mip.Options{Threads: 1})
		if err != nil {
			t.Fatal(err)
		}
		for j := range nc {
			if m.ColLo[j] == m.ColUp[j] {
				continue
			}
			c := make([]float64, nc)
			c[j] = -1
			dst := make([]float64, nc)
			res, err := s.Minimize(context.Background(), dst, c)
			if errors.Is(err, lazycg.ErrEmptyPolytope) {
				break
			}
			if err != nil || -res.Value > math.Min(1, m.ColUp[j])+1e-9 {
				s.Close()
				t.Fatalf("trial %d: standard form, but column %d reaches %v (%v) over the relaxation; bounds lo %v up %v int %v rows %v..%v A %v %v %v vars %v",
					trial, j, -res.Value, err, m.ColLo, m.ColUp, m.Integer, m.RowLo, m.RowUp, m.Start, m.Index, m.Value, vars)
			}
		}
		s.Close()
	}
	if found < 20 {
		t.Fatalf("only %d standard-form models generated", found)
	}
}

// TestProbeFaceReducedPartialNames: a model that names only its first
// columns (which NewSolver and the error messages accept) made the
// reduced face model index past its names and panic.
func TestProbeFaceReducedPartialNames(t *testing.T) {
	const n = 10
	f, err := mip.AssignmentPolytope(n)
	if err != nil {
		t.Fatal(err)
	}
	m := f.Model
	m.ColNames = m.ColNames[:3]
	s, err := mip.NewSolver(m, mip.Options{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// The face of the identity (90% of the columns fixed to 0: a reduced
	// model) has the identity as its only vertex.
	zero := make([]bool, n*n)
	c := make([]float64, n*n)
	for k := range zero {
		zero[k] = k%(n+1) != 0
		c[k] = float64(k % 7)
	}
	dst := make([]float64, n*n)
	res, err := s.MinimizeFace(context.Background(), dst, c, zero)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range dst {
		want := 0.0
		if k%(n+1) == 0 {
			want = 1
		}
		if v != want {
			t.Fatalf("face vertex %v, want the identity", dst)
		}
	}
	if !res.Optimal() || res.Value != dot(c, dst) {
		t.Fatalf("result %+v, c·dst = %v", res, dot(c, dst))
	}
}

// TestProbeMixedCalls interleaves Minimize, MinimizeUntil, faces that
// leave one to three coordinates free (the reduced face models, cached
// while the mask repeats) and Augment on one solver, against brute force
// over the Boolean quadric polytope of K6 and the assignment polytope of
// order 5 (whose small faces are empty).
func TestProbeMixedCalls(t *testing.T) {
	q := &mip.QUBO{N: 6, Linear: make([]float64, 6)}
	for _, e := range mip.CompleteGraph(6) {
		q.Couplings = append(q.Couplings, mip.Coupling{I: e[0], J: e[1], Q: 1})
	}
	bqp, err := mip.BooleanQuadric(q)
	if err != nil {
		t.Fatal(err)
	}
	var bv [][]float64
	for mask := range 1 << q.N {
		v := make([]float64, q.N+len(q.Couplings))
		for i := range q.N {
			v[i] = float64(mask >> i & 1)
		}
		for k, c := range q.Couplings {
			v[q.N+k] = v[c.I] * v[c.J]
		}
		bv = append(bv, v)
	}
	asg, err := mip.AssignmentPolytope(5)
	if err != nil {
		t.Fatal(err)
	}
	var av [][]float64
	testutil.Permutations(5, func(p []int) {
		v := make([]float64, 25)
		for i, j := range p {
			v[i*5+j] = 1
		}
		av = append(av, v)
	})
	ctx := context.Background()
	for pi, tc := range []struct {
		f  *mip.Formulation
		vs [][]float64
	}{{bqp, bv}, {asg, av}} {
		p := newProbeVertices(tc.vs)
		s, err := mip.NewSolver(tc.f.Model, mip.Options{Vars: tc.f.Vars, Threads: 1})
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(pi), 11))
		dim := tc.f.Dim()
		dst := make([]float64, dim)
		var masks [][]bool
		for range 4 {
			zero := make([]bool, dim)
			for i := range zero {
				zero[i] = true
			}
			for range 1 + rng.IntN(3) {
				zero[rng.IntN(dim)] = false
			}
			masks = append(masks, zero)
		}
		for k := range 60 {
			c := probeCosts(rng, dim, k)
			opt, _ := p.min(c, nil)
			switch op := rng.IntN(4); op {
			case 0:
				res, err := s.Minimize(ctx, dst, c)
				if err != nil || !p.set[probeKey(dst)] || !probeNear(res.Value, opt, c) {
					t.Fatalf("%d/%d minimize: %+v %v dst %v, optimum %v", pi, k, res, err, dst, opt)
				}
			case 1:
				zero := masks[rng.IntN(len(masks))]
				want, ok := p.min(c, zero)
				res, err := s.MinimizeFace(ctx, dst, c, zero)
				if !ok {
					if !errors.Is(err, lazycg.ErrEmptyPolytope) {
						t.Fatalf("%d/%d empty face: %+v %v", pi, k, res, err)
					}
					continue
				}
				if err != nil || !p.set[probeKey(dst)] || !probeNear(res.Value, want, c) || !probeNear(dot(c, dst), want, c) {
					t.Fatalf("%d/%d face %v: %+v %v dst %v, brute force %v", pi, k, zero, res, err, dst, want)
				}
				for i, z := range zero {
					if z && dst[i] != 0 {
						t.Fatalf("%d/%d face: dst %v outside the face", pi, k, dst)
					}
				}
			case 2:
				rule := lazycg.StopRule{Improve: opt + 0.5, Certify: opt - 0.5}
				res, err := s.MinimizeUntil(ctx, dst, c, rule)
				if err != nil || res.Bound > opt+1e-6 || (res.Found && (!p.set[probeKey(dst)] || !probeNear(res.Value, dot(c, dst), c))) {
					t.Fatalf("%d/%d until: %+v %v dst %v, optimum %v", pi, k, res, err, dst, opt)
				}
			case 3:
				x := p.list[rng.IntN(len(p.list))]
				better, err := s.Augment(ctx, dst, c, x)
				if err != nil || (better && !(dot(c, dst) < dot(c, x) && p.set[probeKey(dst)])) || (!better && !probeNear(dot(c, x), opt, c)) {
					t.Fatalf("%d/%d augment: %v %v from %v to %v, optimum %v", pi, k, better, err, x, dst, opt)
				}
			}
			kv := make([]float64, dim)
			if !s.KnownVertex(kv) || !p.set[probeKey(kv)] {
				t.Fatalf("%d/%d: known vertex %v", pi, k, kv)
			}
		}
		s.Close()
	}
}
