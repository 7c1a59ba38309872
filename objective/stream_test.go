package objective

import (
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/lazycg/lazycg"
)

func TestLinearLosses(t *testing.T) {
	const n, rounds = 20000, 3
	s, err := LinearLosses(n, rounds, 5)
	mustOK(t, err)
	var _ Stream = s
	if s.Rounds() != rounds || s.Dim() != n {
		t.Fatalf("Rounds %d Dim %d", s.Rounds(), s.Dim())
	}
	sum := 0.0
	for r := 0; r < rounds; r++ {
		l := s.Linear(r)
		if s.Loss(r) != lazycg.Objective(l) {
			t.Fatalf("round %d: Loss and Linear return different objects", r)
		}
		if l.Dim() != n || l.B < 0 || l.B >= 1 {
			t.Fatalf("round %d: dim %d, b = %v", r, l.Dim(), l.B)
		}
		for _, c := range l.C {
			if c < -1 || c >= 1 {
				t.Fatalf("round %d: c entry %v outside [−1, 1)", r, c)
			}
			sum += c
		}
	}
	// c uniform in [−1, 1]: mean 0, standard deviation 1/√3 per entry.
	if mean, tol := sum/(n*rounds), 5/math.Sqrt(3*n*rounds); math.Abs(mean) > tol {
		t.Errorf("mean of c = %v, want 0 ± %v", mean, tol)
	}
	if slices.Equal(s.Linear(0).C, s.Linear(1).C) {
		t.Error("rounds 0 and 1 equal")
	}
	// Same seed, requests in another order: the same losses.
	s2, err := LinearLosses(n, rounds, 5)
	mustOK(t, err)
	for r := rounds - 1; r >= 0; r-- {
		if !slices.Equal(s2.Linear(r).C, s.Linear(r).C) || s2.Linear(r).B != s.Linear(r).B {
			t.Fatalf("round %d differs between streams with the same seed", r)
		}
	}
	s3, err := LinearLosses(n, rounds, 6)
	mustOK(t, err)
	if slices.Equal(s3.Linear(0).C, s.Linear(0).C) {
		t.Error("different seeds give the same round 0")
	}
	for _, bad := range [][2]int{{0, 3}, {3, 0}, {-1, 1}} {
		if _, err := LinearLosses(bad[0], bad[1], 1); err == nil || !strings.HasPrefix(err.Error(), "objective: linear losses: ") {
			t.Errorf("LinearLosses%v: error %v", bad, err)
		}
	}
	assertPanics(t, "Loss(-1)", func() { s.Loss(-1) })
	assertPanics(t, "Loss(rounds)", func() { s.Loss(rounds) })
}

func assertPanics(t *testing.T, what string, fn func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%s did not panic", what)
		}
	}()
	fn()
}

func TestLinearLossesConcurrentAccess(t *testing.T) {
	s, err := LinearLosses(100, 8, 1)
	mustOK(t, err)
	got := make([][]lazycg.Objective, 4)
	var wg sync.WaitGroup
	for w := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := 0; r < s.Rounds(); r++ {
				got[w] = append(got[w], s.Loss((r+w)%s.Rounds()))
			}
		}()
	}
	wg.Wait()
	for w := range got {
		for r := range got[w] {
			if got[w][r] != s.Loss((r+w)%s.Rounds()) {
				t.Fatalf("worker %d round %d saw another object", w, r)
			}
		}
	}
}

func TestQuadraticLosses(t *testing.T) {
	const n, rounds, p = 60, 3, 0.1
	s, err := QuadraticLosses(n, rounds, p, 9)
	mustOK(t, err)
	var _ Stream = s
	if s.Rounds() != rounds || s.Dim() != n {
		t.Fatalf("Rounds %d Dim %d", s.Rounds(), s.Dim())
	}
	for r := 0; r < rounds; r++ {
		f := s.LeastSquares(r)
		if s.Loss(r) != lazycg.Objective(f) || f.Dim() != n || f.Rows() != n {
			t.Fatalf("round %d: wrong object or shape", r)
		}
		want, err := RandomLeastSquares(n, n, p, roundSeed(9, r))
		mustOK(t, err)
		if !slices.Equal(f.A().(*CSR).Val, want.A().(*CSR).Val) || !slices.Equal(f.B(), want.B()) {
			t.Fatalf("round %d is not RandomLeastSquares with the round seed", r)
		}
	}
	if slices.Equal(s.LeastSquares(0).B(), s.LeastSquares(1).B()) {
		t.Error("rounds 0 and 1 equal")
	}
	s2, err := QuadraticLosses(n, rounds, p, 9)
	mustOK(t, err)
	if !slices.Equal(s2.LeastSquares(2).B(), s.LeastSquares(2).B()) {
		t.Error("not deterministic per seed")
	}
	for _, tc := range []struct {
		n, rounds int
		p         float64
	}{{0, 1, 0.1}, {5, 0, 0.1}, {5, 1, 0}, {5, 1, 2}} {
		if _, err := QuadraticLosses(tc.n, tc.rounds, tc.p, 1); err == nil || !strings.HasPrefix(err.Error(), "objective: quadratic losses: ") {
			t.Errorf("QuadraticLosses(%+v): error %v", tc, err)
		}
	}
}

func TestRoundSeedsDistinct(t *testing.T) {
	seen := map[uint64]bool{}
	for _, s := range []uint64{0, 1, 2} {
		for r := 0; r < 1000; r++ {
			v := roundSeed(s, r)
			if seen[v] {
				t.Fatalf("round seed collision at seed %d round %d", s, r)
			}
			seen[v] = true
		}
	}
}

func TestSum(t *testing.T) {
	const n = 20
	rng := testRand(11)
	ls, err := RandomLeastSquares(25, n, 0.3, 2)
	mustOK(t, err)
	dist, err := RandomDistance(n, 2)
	mustOK(t, err)
	q := quartic(randVec(rng, n, 0, 1))
	lins := make([]*Linear, 5)
	for i := range lins {
		lins[i], err = NewLinear(randVec(rng, n, -1, 1), rng.Float64())
		mustOK(t, err)
	}
	parts := []lazycg.Objective{ls, lins[0], dist, lins[1], q, lins[2], lins[3], lins[4]}
	s := NewSum()
	if s.Dim() != 0 || s.Len() != 0 || s.Func(nil) != 0 {
		t.Fatal("empty sum not zero")
	}
	for i, f := range parts {
		s.Add(f)
		if s.Len() != i+1 || s.Dim() != n {
			t.Fatalf("after %d adds: Len %d Dim %d", i+1, s.Len(), s.Dim())
		}
	}
	if len(s.terms) != 3 || s.Quadratic() {
		t.Fatalf("linear losses not folded (%d terms) or quadratic = %v", len(s.terms), s.Quadratic())
	}
	x := randVec(rng, n, -1, 1)
	wantF, wantG := termSum(parts, x)
	g := make([]float64, n)
	if got := s.Func(x); math.Abs(got-wantF) > 1e-12*math.Abs(wantF) {
		t.Errorf("Func = %v, want %v", got, wantF)
	}
	s.Grad(g, x)
	if e := relDiff(g, wantG); e > 1e-14 {
		t.Errorf("Grad differs by %v", e)
	}
	assertPanics(t, "Add of wrong dimension", func() { s.Add(&Linear{C: make([]float64, n+1)}) })

	// Only linear losses: an affine function with no terms.
	ls2 := NewSum(lins[0], lins[1])
	if len(ls2.terms) != 0 || !ls2.Quadratic() {
		t.Fatal("sum of linear losses keeps terms")
	}
	if got, want := ls2.Func(x), lins[0].Func(x)+lins[1].Func(x); math.Abs(got-want) > 1e-12 {
		t.Errorf("linear sum Func = %v, want %v", got, want)
	}
	var zero Sum
	zero.Add(dist)
	if !zero.Quadratic() || zero.Func(x) != dist.Func(x) {
		t.Error("the zero Sum is not usable")
	}
}

func TestSumGeneralLineSearchInfiniteRange(t *testing.T) {
	// A Func wrapper hides the quadratic structure of a distance, forcing
	// the bisection fallback; it must agree with the exact answer.
	b := []float64{1, 2, 3, -1}
	dist, err := NewDistance(b)
	mustOK(t, err)
	hidden := Func{N: 4, F: dist.Func, G: dist.Grad}
	s := NewSum(hidden)
	if s.Quadratic() {
		t.Fatal("Func term reported quadratic")
	}
	x := []float64{0, 0, 0, 0}
	g := make([]float64, 4)
	for _, tc := range []struct {
		d    []float64
		gmax float64
	}{
		{[]float64{1, 1, 1, 1}, math.Inf(1)},
		{[]float64{1e-3, 2e-3, 3e-3, -1e-3}, math.Inf(1)},
		{[]float64{1, 2, 3, -1}, 0.25},
		{[]float64{-1, -2, -3, 1}, 10},
	} {
		s.Grad(g, x)
		want := dist.LineMinimize(x, tc.d, g, tc.gmax)
		for _, grad := range [][]float64{g, nil} {
			got := s.LineMinimize(x, tc.d, grad, tc.gmax)
			if math.Abs(got-want) > 1e-12*math.Max(1, want) {
				t.Errorf("d %v gmax %v: bisection %v, exact %v", tc.d, tc.gmax, got, want)
			}
		}
	}
	// Decreasing along d: the bracket never turns.
	down := NewSum(Func{N: 4, F: func(x []float64) float64 { return -x[0] }, G: func(dst, x []float64) { clear(dst); dst[0] = -1 }})
	e0 := []float64{1, 0, 0, 0}
	if got := down.LineMinimize(x, e0, nil, 5); got != 5 {
		t.Errorf("decreasing on [0, 5]: got %v", got)
	}
	if got := down.LineMinimize(x, e0, nil, math.Inf(1)); !math.IsInf(got, 1) {
		t.Errorf("unbounded below: got %v, want +Inf", got)
	}
	// A term with the minimizer at 1.5 next to a hidden quadratic.
	mixed := NewSum(hidden, down)
	if got := mixed.LineMinimize(x, e0, nil, 5); math.Abs(got-1.5) > 1e-12 {
		t.Errorf("mixed sum: got %v, want 1.5", got)
	}
}

func TestRepeat(t *testing.T) {
	pool, err := LinearLosses(4, 10, 3)
	mustOK(t, err)
	const rounds = 20000
	rnd, err := Repeat(pool, rounds, OrderRandom, 3)
	mustOK(t, err)
	cyc, err := Repeat(pool, 25, OrderCycle, 3)
	mustOK(t, err)
	var _ Stream = rnd
	if rnd.Rounds() != rounds || rnd.Dim() != 4 || rnd.Pool() != Stream(pool) || rnd.Order() != OrderRandom {
		t.Fatalf("Rounds %d Dim %d Order %v", rnd.Rounds(), rnd.Dim(), rnd.Order())
	}
	// Every round is one of the pool's objects, drawn uniformly: each of
	// the 10 losses about 2000 times (binomial sd 42), not in a cycle.
	counts := make([]int, 10)
	sequential := 0
	for r := range rounds {
		j := rnd.Index(r)
		if rnd.Loss(r) != pool.Loss(j) {
			t.Fatalf("round %d: Loss is not the pool's loss %d", r, j)
		}
		counts[j]++
		if r > 0 && j == (rnd.Index(r-1)+1)%10 {
			sequential++
		}
	}
	for j, c := range counts {
		if c < 2000-250 || c > 2000+250 {
			t.Errorf("loss %d drawn %d times in %d rounds, want about 2000", j, c, rounds)
		}
	}
	if sequential > rounds/5 {
		t.Errorf("%d of %d draws follow their predecessor cyclically", sequential, rounds)
	}
	// Deterministic in the seed, independent of the order of requests.
	again, _ := Repeat(pool, rounds, OrderRandom, 3)
	other, _ := Repeat(pool, rounds, OrderRandom, 4)
	same := 0
	for r := rounds - 1; r >= 0; r -= 7 {
		if again.Index(r) != rnd.Index(r) {
			t.Fatalf("round %d differs between streams with the same seed", r)
		}
		if other.Index(r) == rnd.Index(r) {
			same++
		}
	}
	if same > rounds/7/5 {
		t.Errorf("seeds 3 and 4 agree on %d of %d rounds", same, rounds/7)
	}
	for r := range 25 {
		if cyc.Index(r) != r%10 {
			t.Fatalf("cycle: round %d plays loss %d", r, cyc.Index(r))
		}
	}
	// A whole-time run: MaxRounds rounds, indexable at the end.
	long, err := Repeat(pool, MaxRounds, OrderRandom, 1)
	mustOK(t, err)
	if j := long.Index(MaxRounds - 1); j < 0 || j >= 10 {
		t.Errorf("last round index %d", j)
	}
	assertPanics(t, "Index out of range", func() { rnd.Index(rounds) })
	assertPanics(t, "negative Index", func() { rnd.Index(-1) })
	for _, tc := range []struct {
		pool   Stream
		rounds int
		order  Order
	}{{nil, 5, OrderRandom}, {pool, 0, OrderRandom}, {pool, MaxRounds + 1, OrderCycle}, {pool, 5, Order(7)}} {
		if _, err := Repeat(tc.pool, tc.rounds, tc.order, 1); err == nil || !strings.HasPrefix(err.Error(), "objective: repeat: ") {
			t.Errorf("Repeat(%v, %d, %v): error %v", tc.pool != nil, tc.rounds, tc.order, err)
		}
	}
	if OrderRandom.String() != "random" || OrderCycle.String() != "cycle" || Order(9).String() != "Order(9)" {
		t.Error("Order names")
	}
}

func TestGenerate(t *testing.T) {
	pool, err := QuadraticLosses(6, 5, 0.5, 1)
	mustOK(t, err)
	rep, err := Repeat(pool, MaxRounds, OrderRandom, 1)
	mustOK(t, err)
	Generate(rep) // must not walk MaxRounds rounds
	for j, made := range pool.lazy.made {
		if !made {
			t.Errorf("pool loss %d not generated", j)
		}
	}
	lin, err := LinearLosses(3, 4, 1)
	mustOK(t, err)
	Generate(lin)
	if slices.Contains(lin.lazy.made, false) {
		t.Error("linear losses not generated")
	}
}

// TestSumMultiplicity checks that repeated losses are merged into weighted
// terms and that AddTimes equals repeated Add.
func TestSumMultiplicity(t *testing.T) {
	const n = 12
	rng := testRand(5)
	ls, err := RandomLeastSquares(15, n, 0.4, 1)
	mustOK(t, err)
	dist, err := RandomDistance(n, 3)
	mustOK(t, err)
	lin, err := NewLinear(randVec(rng, n, -1, 1), 0.5)
	mustOK(t, err)
	hidden := Func{N: n, F: dist.Func, G: dist.Grad} // not comparable: kept as separate terms
	seq := []lazycg.Objective{ls, dist, ls, lin, ls, dist, hidden, hidden, lin}
	a := NewSum()
	for _, f := range seq {
		a.Add(f)
	}
	if a.Len() != len(seq) || a.Terms() != 4 {
		t.Fatalf("Len %d Terms %d, want %d and 4 (ls, dist and two Func terms)", a.Len(), a.Terms(), len(seq))
	}
	b := NewSum()
	b.AddTimes(ls, 3)
	b.AddTimes(dist, 2)
	b.AddTimes(hidden, 2)
	b.AddTimes(lin, 2)
	x := randVec(rng, n, 0, 1)
	d := randVec(rng, n, -1, 1)
	wantF, wantG := termSum(seq, x)
	g := make([]float64, n)
	for name, s := range map[string]*Sum{"Add": a, "AddTimes": b} {
		if got := s.Func(x); math.Abs(got-wantF) > 1e-12*math.Abs(wantF) {
			t.Errorf("%s: Func = %v, want %v", name, got, wantF)
		}
		if v := s.FuncGrad(g, x); math.Abs(v-wantF) > 1e-12*math.Abs(wantF) || relDiff(g, wantG) > 1e-13 {
			t.Errorf("%s: FuncGrad = %v (gradient off by %g)", name, v, relDiff(g, wantG))
		}
		s.Grad(g, x)
		if e := relDiff(g, wantG); e > 1e-13 {
			t.Errorf("%s: Grad differs by %v", name, e)
		}
		// The line search (bisection here: a Func term) minimizes the weighted sum.
		gm := s.LineMinimize(x, d, nil, 1)
		if ph := func(gam float64) float64 {
			y := slices.Clone(x)
			axpy(y, gam, d)
			return s.Func(y)
		}; ph(gm) > ph(math.Max(0, gm-1e-3))+1e-9 || ph(gm) > ph(math.Min(1, gm+1e-3))+1e-9 {
			t.Errorf("%s: LineMinimize = %v is not a minimum", name, gm)
		}
	}
	// Quadratic terms only: exact weighted line search.
	q := NewSum()
	q.AddTimes(ls, 4)
	q.Add(dist)
	slope, curv := q.lineCoeffs(x, d)
	s1, c1 := ls.LineCoeffs(x, d)
	s2, c2 := dist.LineCoeffs(x, d)
	if math.Abs(slope-(4*s1+s2)) > 1e-12*math.Abs(slope) || math.Abs(curv-(4*c1+c2)) > 1e-12*math.Abs(curv) {
		t.Errorf("line coefficients (%g, %g), want (%g, %g)", slope, curv, 4*s1+s2, 4*c1+c2)
	}
	assertPanics(t, "AddTimes 0", func() { q.AddTimes(ls, 0) })
}

// termSum returns Σ f(x) and Σ ∇f(x) over fs, term by term.
func termSum(fs []lazycg.Objective, x []float64) (float64, []float64) {
	v, grad, g := 0.0, make([]float64, len(x)), make([]float64, len(x))
	for _, f := range fs {
		v += f.Func(x)
		f.Grad(g, x)
		axpy(grad, 1, g)
	}
	return v, grad
}
