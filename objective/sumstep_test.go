package objective

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/internal/testutil"
)

// sparseVertex returns a 0/1 vector of dimension n with k ones at random
// positions.
func sparseVertex(rng interface{ IntN(int) int }, n, k int) []float64 {
	v := make([]float64, n)
	for range k {
		v[rng.IntN(n)] = 1
	}
	return v
}

// leastSquaresPool returns size random least squares losses of dimension
// n (n rows) with the given density, seeded seed, seed+1, ….
func leastSquaresPool(t *testing.T, n, size int, density float64, seed uint64) []lazycg.Objective {
	t.Helper()
	pool := make([]lazycg.Objective, size)
	for i := range pool {
		f, err := RandomLeastSquares(n, n, density, seed+uint64(i))
		mustOK(t, err)
		pool[i] = f
	}
	return pool
}

// TestSumStepToward follows an online run's pattern on a sum of least
// squares losses (with a linear one folded in): gradient at x, step
// announced and taken toward a vertex (recurring sparse and dense ones,
// and new ones), a loss added (a repeat or a new one), gradient at the new
// point; now and then a point that was not announced or a step that does
// not happen. Every gradient must equal the term-by-term gradient of a sum
// that never gets announcements, the fast path must be taken, and it must
// be refreshed every refreshSumEvery updates. With a pool of 6 losses the
// recurring vertices' gradients are brought up to date term by term. With
// 60, vertices come back after many weight changes: vertices with 5 of 400
// nonzeros are still brought up term by term, by sparse products that
// read a few entries per term; with denser losses those products cost
// more than an O(n) axpy and are kept with the vertex. With a pool of 200
// and 40 recurring dense vertices (a gradient per term to bring one up),
// the gradients come from the Gram matrix H = Σ_k w_k A_kᵀA_k, updated
// from the packed Gram matrices of recurring losses or by scattered writes.
func TestSumStepToward(t *testing.T) {
	few := checkSumSteps(t, 6, 5, 10)
	if few.sg.reused < 150 {
		t.Errorf("pool of 6: steps toward a remembered vertex: %d, want most of the recurring ones", few.sg.reused)
	}
	if few.sg.raised < 150 {
		t.Errorf("pool of 6: %d remembered vertex gradients brought up term by term, want most", few.sg.raised)
	}
	// Recomputed after a few terms added to them: the same gradients.
	defer func(k int) { vertexRaiseTerms = k }(vertexRaiseTerms)
	vertexRaiseTerms = 20
	refresh := checkSumSteps(t, 6, 5, 10)
	if refresh.sg.refreshed < 20 {
		t.Errorf("pool of 6, recomputed after 20 terms: %d remembered vertex gradients recomputed, want some", refresh.sg.refreshed)
	}
	vertexRaiseTerms = 1000
	sparse := checkSumSteps(t, 60, 5, 10)
	if sparse.sg.raised < 150 {
		t.Errorf("pool of 60, 5 nonzeros: %d remembered vertex gradients brought up term by term, want most", sparse.sg.raised)
	}
	if sparse.sg.sparseKept != 0 {
		t.Errorf("pool of 60, 5 nonzeros, 4 per row: %d products kept from sparse products, want none (they cost less than an axpy)", sparse.sg.sparseKept)
	}
	// Denser rows (40 nonzeros) and vertices with 3 nonzeros: the sparse
	// products of a term cost more than 2n, and recurring sparse vertices
	// keep them.
	kept := checkSumStepsDensity(t, 60, 3, 10, 0.1)
	if kept.sg.sparseKept < 300 || kept.sg.fromProducts < 1000 {
		t.Errorf("pool of 60, 3 nonzeros, 40 per row: %d products kept from sparse products, %d terms added from kept products; want many and most",
			kept.sg.sparseKept, kept.sg.fromProducts)
	}
	many := checkSumSteps(t, 200, 0, 40)
	if many.sg.byGram < 150 {
		t.Errorf("pool of 200, dense vertices: %d vertex gradients from the Gram matrix, want most", many.sg.byGram)
	}
	// Terms that recur are added to H from their packed Gram matrices
	// (room for 52 of the 200 here), the others by scattered updates; with
	// no room, all of them by scattered updates.
	if many.sg.fromTermGram < 50 || many.sg.termGramUsed > termGramFloats {
		t.Errorf("pool of 200: %d terms added to H from packed Gram matrices (%d floats of %d), want many within the budget",
			many.sg.fromTermGram, many.sg.termGramUsed, termGramFloats)
	}
	defer func(k int) { termGramFloats = k }(termGramFloats)
	budget := termGramFloats
	termGramFloats = 0
	scattered := checkSumSteps(t, 200, 0, 40)
	if scattered.sg.byGram < 150 || scattered.sg.fromTermGram != 0 {
		t.Errorf("pool of 200, no room for packed Gram matrices: %d vertex gradients from H, %d terms from packed matrices; want most and none",
			scattered.sg.byGram, scattered.sg.fromTermGram)
	}
	termGramFloats = budget
	// Dense vertices bring their Gram products up from the per-term
	// products kept with them, also when the budget holds only three
	// products and they pass from vertex to vertex.
	dense := checkSumSteps(t, 30, 0, 10)
	if dense.sg.fromProducts < 1000 {
		t.Errorf("pool of 30, dense vertices: %d terms added from kept products, want most", dense.sg.fromProducts)
	}
	defer func(k int) { termProductFloats = k }(termProductFloats)
	termProductFloats = 3 * 400
	tight := checkSumSteps(t, 30, 0, 10)
	if tight.sg.prodSteals < 50 || tight.sg.prods > 3 {
		t.Errorf("pool of 30, room for 3 products: %d buffers, taken from other vertices %d times; want 3 and many",
			tight.sg.prods, tight.sg.prodSteals)
	}
}

// checkSumSteps runs TestSumStepToward's pattern with a pool of losses of
// the given size, vertices with the given number of ones at most (0: dense
// vertices) of which nRecurring recur, and returns the sum under test.
func checkSumSteps(t *testing.T, poolSize, ones, nRecurring int) *Sum {
	return checkSumStepsDensity(t, poolSize, ones, nRecurring, 0.01)
}

// checkSumStepsDensity is checkSumSteps with losses of the given density.
func checkSumStepsDensity(t *testing.T, poolSize, ones, nRecurring int, density float64) *Sum {
	const n = 400
	rng := testRand(7)
	pool := leastSquaresPool(t, n, poolSize, density, 1)
	lin, err := NewLinear(randVec(rng, n, -1, 1), 0.5)
	mustOK(t, err)
	fast, ref := NewSum(), NewSum()
	add := func(f lazycg.Objective) { fast.Add(f); ref.Add(f) }
	gf := make([]float64, n)
	// addAt adds f as the online driver does, with its gradient at p.
	addAt := func(f lazycg.Objective, p []float64) {
		f.Grad(gf, p)
		fast.AddWithGrad(f, p, gf)
		ref.Add(f)
	}
	add(pool[0])
	add(lin)

	x := make([]float64, n)
	x[0] = 1
	g, want := make([]float64, n), make([]float64, n)
	check := func(step int) {
		t.Helper()
		fast.Grad(g, x)
		ref.termGradRef(want, x)
		if d := relDiff(g, want); d > 1e-10 {
			t.Fatalf("step %d: gradient differs from the term-by-term one by %g (relative)", step, d)
		}
		if got, f := fast.FuncEstimate(x), ref.Func(x); !near(got, f, 1e-9) {
			t.Fatalf("step %d: FuncEstimate %g, Func %g", step, got, f)
		}
	}
	// Vertices recur: a few sparse ones and two dense ones, and new ones.
	vertex := func() []float64 {
		if ones == 0 {
			return randVec(rng, n, 0, 1)
		}
		return sparseVertex(rng, n, ones)
	}
	recurring := make([][]float64, nRecurring)
	for i := range recurring {
		if i < nRecurring*4/5 {
			recurring[i] = vertex()
		} else {
			recurring[i] = randVec(rng, n, 0, 1)
		}
	}
	updates := 0
	for step := range 700 {
		check(step)
		v := vertex()
		if step%3 != 0 {
			v = append([]float64(nil), recurring[rng.IntN(len(recurring))]...)
		}
		gamma := 2.0 / float64(step+3)
		switch step % 37 {
		case 11: // a new dense vertex: its gradient term by term
			v = randVec(rng, n, 0, 1)
		case 23: // announced, but another point follows (and the hint is for the announced one)
			fast.StepToward(x, v, gamma)
			xn := append([]float64(nil), x...)
			MoveToward(xn, gamma, v)
			addAt(pool[rng.IntN(len(pool))], xn)
			x[rng.IntN(n)] += 0.25
			continue
		case 29: // announced, no step taken
			fast.StepToward(x, v, gamma)
			add(pool[rng.IntN(len(pool))])
			continue
		}
		before := fast.sg.updates
		fast.StepToward(x, v, gamma)
		MoveToward(x, gamma, v)
		if step%2 == 0 {
			addAt(pool[rng.IntN(len(pool))], x)
		} else {
			add(pool[rng.IntN(len(pool))])
		}
		fast.Grad(g, x)
		if fast.sg.updates == before+1 {
			updates++
		}
		if fast.sg.updates > refreshSumEvery {
			t.Fatalf("step %d: %d updates without a refresh", step, fast.sg.updates)
		}
	}
	if fast.sg.hinted < 200 {
		t.Errorf("%d term gradients taken from AddWithGrad's hint, want most of 350", fast.sg.hinted)
	}
	if updates < 600 {
		t.Errorf("the announced steps were taken by the fast path %d times, want most of 700", updates)
	}
	t.Logf("pool of %d, %d nonzeros: vertex gradients: %d remembered (%d brought up term by term), %d from the Gram matrix, %d recomputed; %d terms from kept products (%d buffers, %d taken over)",
		poolSize, ones, fast.sg.reused, fast.sg.raised, fast.sg.byGram, fast.sg.refreshed, fast.sg.fromProducts, fast.sg.prods, fast.sg.prodSteals)
	return fast
}

// termGradRef is the term-by-term gradient (the reference of the tests).
func (s *Sum) termGradRef(dst, x []float64) {
	s.termGrad(dst, x)
	if s.lin != nil {
		axpy(dst, 1, s.lin)
	}
}

// TestLeastSquaresStepToward checks that an announced step makes the next
// evaluation at the new point an O(m) update that agrees with a fresh
// evaluation, and that other points are evaluated in full.
func TestLeastSquaresStepToward(t *testing.T) {
	const n = 300
	rng := testRand(3)
	f, err := RandomLeastSquares(n, n, 0.02, 9)
	mustOK(t, err)
	fresh, err := NewLeastSquares(f.A(), f.B())
	mustOK(t, err)
	fresh.k.noReuse = true
	x := randVec(rng, n, 0, 0.01)
	g, want := make([]float64, n), make([]float64, n)
	for step := range 50 {
		f.Grad(g, x)
		v := sparseVertex(rng, n, 3)
		before := f.k.sparseProducts
		f.StepToward(x, v, 0.3)
		if f.k.sparseProducts != before+1 {
			t.Fatalf("step %d: the announced step did not take the sparse route", step)
		}
		MoveToward(x, 0.3, v)
		got := f.FuncGrad(g, x)
		w := fresh.FuncGrad(want, x)
		if d := relDiff(g, want); d > 1e-12 || !near(got, w, 1e-12) {
			t.Fatalf("step %d: gradient off by %g, value %g vs %g", step, d, got, w)
		}
	}
	// A dense vertex is not announced.
	before := f.k.sparseProducts
	f.StepToward(x, randVec(rng, n, 0, 1), 0.3)
	if f.k.sparseProducts != before {
		t.Error("a dense vertex took the sparse route")
	}
}

func near(a, b, tol float64) bool {
	d := a - b
	if d < 0 {
		d = -d
	}
	m := b
	if m < 0 {
		m = -m
	}
	return d <= tol*(1+m)
}

// TestSumStepTowardAllocs checks that a round (step announced and taken,
// a repeated loss added, with or without its gradient, gradient, value
// estimate) allocates nothing once
// the sum has seen its losses and vertices.
func TestSumStepTowardAllocs(t *testing.T) {
	const n = 300
	rng := testRand(11)
	s := NewSum()
	pool := make([]*LeastSquares, 4)
	for i := range pool {
		f, err := RandomLeastSquares(n, n, 0.02, uint64(i+20))
		mustOK(t, err)
		pool[i] = f
		s.Add(f)
	}
	vs := [][]float64{sparseVertex(rng, n, 4), sparseVertex(rng, n, 6), randVec(rng, n, 0, 1)}
	x := make([]float64, n)
	x[1] = 1
	g, gf := make([]float64, n), make([]float64, n)
	k := 0
	round := func() {
		v := vs[k%len(vs)]
		s.Grad(g, x)
		s.StepToward(x, v, 0.01)
		MoveToward(x, 0.01, v)
		f := pool[k%len(pool)]
		if k%2 == 0 {
			s.Add(f)
		} else {
			f.Grad(gf, x)
			s.AddWithGrad(f, x, gf)
		}
		s.FuncEstimate(x)
		k++
	}
	for range 50 {
		round()
	}
	if a := testutil.Mallocs(100, round); a != 0 {
		t.Errorf("rounds allocate %d times in 100 runs", a)
	}
}

// TestSumStepSearch follows an online run with shortened steps: gradient
// at x, StepSearch toward a vertex (sparse, dense or recurring) with the
// prescribed step as its limit, the step taken, a loss added. Each γ must
// be the exact minimizer of F over [0, γmax] (compared with the
// term-by-term LineMinimize of a sum that never gets announcements, and no
// point of a grid on the segment lower), the fast route through the
// remembered gradient must be taken, and the gradient at the new point
// must be the term-by-term one. Directions that ascend give 0 and no step.
// Without a remembered gradient at x (a point never asked), StepSearch
// falls back to LineMinimize. A round allocates nothing.
func TestSumStepSearch(t *testing.T) {
	const n = 300
	rng := testRand(5)
	pool := leastSquaresPool(t, n, 8, 0.02, 40)
	lin, err := NewLinear(randVec(rng, n, -1, 1), 0.5)
	mustOK(t, err)
	fast, ref := NewSum(pool[0], lin), NewSum(pool[0], lin)
	recurring := [][]float64{sparseVertex(rng, n, 5), sparseVertex(rng, n, 8), randVec(rng, n, 0, 1)}
	x := make([]float64, n)
	x[3] = 1
	g, want, d, y := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	var shortened, full, zero int
	for step := 1; step <= 300; step++ {
		fast.Grad(g, x)
		ref.termGradRef(want, x)
		if dd := relDiff(g, want); dd > 1e-10 {
			t.Fatalf("step %d: gradient differs from the term-by-term one by %g", step, dd)
		}
		v := stepVertex(rng, n, step, recurring)
		gmax := 1 / float64(step)
		if step%3 == 0 {
			gmax = 1
		}
		for i := range d {
			d[i] = v[i] - x[i]
		}

		gamma := fast.StepSearch(x, v, g, gmax)
		wantGamma := ref.LineMinimize(x, d, want, gmax)
		if !(gamma >= 0 && gamma <= gmax) || !near(gamma, wantGamma, 1e-8) {
			t.Fatalf("step %d: γ = %g, LineMinimize %g (γmax %g)", step, gamma, wantGamma, gmax)
		}
		f0 := ref.Func(x)
		for k := 0; k <= 20; k++ {
			copy(y, x)
			MoveToward(y, gmax*float64(k)/20, v)
			copy(d, x)
			MoveToward(d, gamma, v)
			if ref.Func(y) < ref.Func(d)-1e-9*(1+math.Abs(f0)) {
				t.Fatalf("step %d: F(x + %g·(v − x)) = %g below F at γ = %g, %g", step, gmax*float64(k)/20, ref.Func(y), gamma, ref.Func(d))
			}
		}

		switch {
		case gamma == 0:
			zero++
		case gamma < gmax:
			shortened++
		default:
			full++
		}
		if gamma > 0 {
			if !fast.sg.pending {
				t.Fatalf("step %d: γ = %g but no step announced", step, gamma)
			}
			MoveToward(x, gamma, v)
			if !sameVec(fast.sg.xn, x) {
				t.Fatalf("step %d: the announced point is not x + γ(v − x) for γ = %g", step, gamma)
			}
		}
		f := pool[rng.IntN(len(pool))]
		fast.Add(f)
		ref.Add(f)
	}
	if shortened < 30 || full < 10 {
		t.Errorf("steps shortened %d, full %d, none %d: want both kinds", shortened, full, zero)
	}
	if fast.sg.reused == 0 {
		t.Error("no vertex gradient was reused: the fast route was not taken")
	}

	// An ascent direction: γ = 0, nothing announced.
	fast.Grad(g, x)
	for i := range d {
		d[i] = -g[i]
	}
	if gamma := fast.StepSearch(x, x, g, 1); gamma != 0 || fast.sg.pending {
		t.Errorf("v = x: γ = %g, pending %v", gamma, fast.sg.pending)
	}
	// Where the remembered gradient does not serve, LineMinimize's answer.
	fallback := func(name string, p, v []float64) {
		t.Helper()
		ref.termGradRef(want, p)
		for i := range d {
			d[i] = v[i] - p[i]
		}
		if got, w := fast.StepSearch(p, v, want, 1), ref.LineMinimize(p, d, want, 1); !near(got, w, 1e-10) {
			t.Errorf("%s: γ = %g, LineMinimize %g", name, got, w)
		}
	}
	// A term added since the gradient at x was remembered (its weight is
	// not in the remembered gradient).
	fast.Grad(g, x)
	extra := leastSquaresPool(t, n, 1, 0.02, 90)[0]
	fast.Add(extra)
	ref.Add(extra)
	fallback("a term added after the gradient", x, sparseVertex(rng, n, 7))
	fast.Grad(g, x) // the step was announced; take it back by asking at x
	// A point without a remembered gradient.
	fallback("unremembered point", randVec(rng, n, 0, 1), sparseVertex(rng, n, 4))

	// No allocation per round (the fast route).
	k := 0
	round := func() {
		v := recurring[k%len(recurring)]
		fast.Grad(g, x)
		if gamma := fast.StepSearch(x, v, g, 0.01); gamma > 0 {
			MoveToward(x, gamma, v)
		}
		fast.Add(pool[k%len(pool)])
		k++
	}
	for range 20 {
		round()
	}
	if a := testutil.Mallocs(50, round); a != 0 {
		t.Errorf("rounds allocate %d times in 50 runs", a)
	}
}

// TestMoveTowardNoSubnormals checks that the online methods' steps never
// leave a subnormal entry in x: coordinates that no vertex raises shrink
// like exp(−2√t) under steps γ_t = (t+1)^(−1/2) and become exactly 0, while
// the step stays x + γ(v − x) elsewhere; and that a least squares loss
// told the step (StepToward) still predicts the point bit for bit.
func TestMoveTowardNoSubnormals(t *testing.T) {
	const n = 6
	x := []float64{1, 0, 1e-300, -1e-300, 0.5, 0x1p-499}
	v := []float64{0, 1, 0, 0, 0.5, 0}
	want := append([]float64(nil), x...)
	zeroAt := make([]int, n)
	for step := 1; step <= 300000; step++ {
		gamma := 1 / math.Sqrt(float64(step+1))
		MoveToward(x, gamma, v)
		for i, xi := range x {
			want[i] += gamma * (v[i] - want[i])
			if xi != 0 && math.Abs(xi) < 0x1p-1022 {
				t.Fatalf("step %d: x[%d] = %g is subnormal", step, i, xi)
			}
			if xi != want[i] && math.Abs(want[i]) >= tinyEntry {
				t.Fatalf("step %d: x[%d] = %g, want %g", step, i, xi, want[i])
			}
			if xi == 0 && zeroAt[i] == 0 {
				zeroAt[i] = step
			}
		}
		copy(want, x)
	}
	// x[0] shrinks by exp(−2√t): below 2⁻⁵⁰⁰ after about 30,000 steps.
	if zeroAt[0] < 10000 || zeroAt[0] > 60000 || x[0] != 0 {
		t.Errorf("x[0] became 0 at step %d (now %g), want about 30,000", zeroAt[0], x[0])
	}
	if zeroAt[2] != 1 || zeroAt[3] != 1 || zeroAt[5] != 1 {
		t.Errorf("entries below 2⁻⁵⁰⁰ after the first step became 0 at steps %v, want 1", zeroAt)
	}
	if !near(x[1], 1, 1e-12) || x[4] != 0.5 {
		t.Errorf("the coordinates of v: %v, want 1 and 0.5", x)
	}

	// The announced step of a least squares loss is the point MoveToward
	// reaches, also when it drops entries.
	const m = 40
	f, err := RandomLeastSquares(m, m, 0.3, 5)
	mustOK(t, err)
	fresh, err := NewLeastSquares(f.A(), f.B())
	mustOK(t, err)
	fresh.k.noReuse = true
	y := randVec(testRand(5), m, 0, 1)
	y[3] = 1e-200
	w := make([]float64, m)
	w[7] = 1
	g, g2 := make([]float64, m), make([]float64, m)
	f.Grad(g, y)
	before := f.k.sparseProducts
	f.StepToward(y, w, 1-1e-160)
	MoveToward(y, 1-1e-160, w)
	if y[3] != 0 || f.k.sparseProducts != before+1 {
		t.Fatalf("y[3] = %g after the step (want 0); sparse route taken: %v", y[3], f.k.sparseProducts == before+1)
	}
	fy, fyWant := f.FuncGrad(g, y), fresh.FuncGrad(g2, y)
	if d := relDiff(g, g2); d > 1e-12 || !near(fy, fyWant, 1e-12) {
		t.Errorf("after the announced step: gradient off by %g (relative), value %g vs %g", d, fy, fyWant)
	}
}

// TestSumStepDelta: StepDelta gives F(x + γ(v − x)) − F(x) from the
// remembered gradient, for sparse, dense and recurring vertices, whether
// the step is then taken (announced point reached) or not (the gradient at
// x stays right); at a point other than the remembered one, or on a sum
// with a non-CSR term, it reports false.
func TestSumStepDelta(t *testing.T) {
	const n = 200
	rng := testRand(7)
	pool := leastSquaresPool(t, n, 6, 0.03, 30)
	lin, err := NewLinear(randVec(rng, n, -1, 1), 0.25)
	mustOK(t, err)
	fast, ref := NewSum(pool[0], lin), NewSum(pool[0], lin)
	recurring := [][]float64{sparseVertex(rng, n, 4), sparseVertex(rng, n, 9), randVec(rng, n, 0, 1)}
	x := make([]float64, n)
	x[5] = 1
	g, want, y := make([]float64, n), make([]float64, n), make([]float64, n)
	var taken, left int
	for step := 1; step <= 200; step++ {
		fast.Grad(g, x)
		ref.termGradRef(want, x)
		if dd := relDiff(g, want); dd > 1e-10 {
			t.Fatalf("step %d: gradient differs from the term-by-term one by %g", step, dd)
		}
		v := stepVertex(rng, n, step, recurring)
		gamma := 1 / math.Sqrt(float64(step))
		delta, ok := fast.StepDelta(x, v, g, gamma)
		if !ok {
			t.Fatalf("step %d: no delta at the remembered point", step)
		}
		copy(y, x)
		MoveToward(y, gamma, v)
		f0, f1 := ref.Func(x), ref.Func(y)
		if !near(delta, f1-f0, 1e-8*(1+math.Abs(f0))) {
			t.Fatalf("step %d: delta %g, F(y) − F(x) = %g", step, delta, f1-f0)
		}
		if step%3 == 0 { // not taken: x stays
			left++
		} else {
			fast.StepToward(x, v, gamma)
			copy(x, y)
			taken++
		}
		f := pool[rng.IntN(len(pool))]
		fast.Add(f)
		ref.Add(f)
	}
	if taken == 0 || left == 0 {
		t.Fatalf("taken %d, left %d", taken, left)
	}
	other := randVec(rng, n, 0, 1)
	if _, ok := fast.StepDelta(other, recurring[0], g, 0.5); ok {
		t.Error("a delta at a point whose gradient is not remembered")
	}
	dense, err := NewLeastSquares(&Dense{Rows: 2, Cols: n, Data: make([]float64, 2*n)}, []float64{1, 2})
	mustOK(t, err)
	mixed := NewSum(pool[0], dense)
	mixed.Grad(g, x)
	if _, ok := mixed.StepDelta(x, recurring[0], g, 0.5); ok {
		t.Error("a delta on a sum with a dense term")
	}
}

// stepVertex returns the vertex of a test's step: a dense one every fourth
// step, a new sparse one after that, otherwise one of the recurring ones.
func stepVertex(rng *rand.Rand, n, step int, recurring [][]float64) []float64 {
	switch step % 4 {
	case 0:
		return randVec(rng, n, 0, 1)
	case 1:
		return sparseVertex(rng, n, 6)
	}
	return recurring[step%len(recurring)]
}
