package objective

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lazycg/lazycg/internal/testutil"
)

// The tests of the tracking of the gradient of LeastSquares (see
// moveGrad): after a line search or StepToward toward a sparse vector,
// the gradient at the predicted point is updated instead of recomputed,
// and must agree with a full computation.

// gtShape is a random sparse least-squares instance for the tests.
type gtShape struct {
	rows, cols int
	density    float64
	nnz        int // nonzeros of the vertices
}

// gtShapes are sparse enough for the rows of a vertex's columns to hold
// well under a quarter of the nonzeros of A (randomSparse leaves every
// third row and every fourth column empty).
var gtShapes = []gtShape{
	{100, 200, 0.02, 3},
	{300, 400, 0.01, 4},
	{200, 600, 0.008, 5},
	{500, 300, 0.01, 3},
}

// gtVertex stores a random vertex with k nonzeros in v: 1s when binary,
// else values in [−2, 2] (never 0).
func gtVertex(rng *rand.Rand, v []float64, k int, binary bool) {
	clear(v)
	for _, j := range rng.Perm(len(v))[:k] {
		if binary {
			v[j] = 1
		} else {
			v[j] = 2 - 4*rng.Float64()
			if v[j] == 0 {
				v[j] = 1
			}
		}
	}
}

// gtLMO stores in v a vertex with k nonzeros that is good for the
// gradient g (worst when worst is set): at the k smallest (largest)
// entries of g, 1 when binary, else of the sign opposite to (of) g there
// with random magnitudes in [0.5, 2).
func gtLMO(rng *rand.Rand, v, g []float64, k int, binary, worst bool) {
	clear(v)
	s := 1.0
	if worst {
		s = -1
	}
	used := make([]bool, len(v))
	for range k {
		best := -1
		for i, gi := range g {
			if used[i] {
				continue
			}
			c := s * gi
			if !binary {
				c = -math.Abs(gi)
			}
			if best < 0 || c < s*g[best] && binary || !binary && c < -math.Abs(g[best]) {
				best = i
			}
		}
		used[best] = true
		if binary {
			v[best] = 1
		} else {
			v[best] = -s * math.Copysign(0.5+1.5*rng.Float64(), g[best])
		}
	}
}

// gtRun drives three least-squares objectives of the same instance along
// the same iterates: tr with the tracking of the gradient, pl with it
// switched off (the same A·x, so the same values), and ref without any
// reuse (the full computation).
type gtRun struct {
	t           *testing.T
	tr, pl, ref *LeastSquares
	x, g        []float64
	gp, gr      []float64
	worst       float64 // max |Δg|/(1 + ‖g‖∞) seen
	checks      int
}

func newGTRun(t *testing.T, a *CSR, b []float64, sparseMax int) *gtRun {
	t.Helper()
	r := &gtRun{t: t}
	var err error
	r.tr, err = NewLeastSquares(a, b)
	mustOK(t, err)
	r.pl, err = NewLeastSquares(a, b)
	mustOK(t, err)
	r.ref, err = NewLeastSquares(a, b)
	mustOK(t, err)
	r.pl.k.noGradTrack = true
	r.ref.k.noReuse = true
	if sparseMax > 0 {
		r.tr.k.setSparseMax(sparseMax)
		r.pl.k.setSparseMax(sparseMax)
	}
	_, n := a.Dims()
	r.x, r.g, r.gp, r.gr = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	return r
}

// check evaluates all three at r.x (tr's gradient into r.g) and compares.
func (r *gtRun) check(what string) {
	r.t.Helper()
	v := r.tr.FuncGrad(r.g, r.x)
	vp := r.pl.FuncGrad(r.gp, r.x)
	vr := r.ref.FuncGrad(r.gr, r.x)
	if v != vp || r.tr.Func(r.x) != r.pl.Func(r.x) {
		r.t.Fatalf("%s: f = %v with the tracking, %v without", what, v, vp)
	}
	if math.Abs(v-vr) > 1e-9*math.Max(1, vr) {
		r.t.Fatalf("%s: f = %v, recomputed %v", what, v, vr)
	}
	r.compare(what, r.g, r.gr)
	g2 := make([]float64, len(r.x))
	r.tr.Grad(g2, r.x)
	r.compare(what+" (Grad)", g2, r.gr)
	r.checks++
}

func (r *gtRun) compare(what string, g, want []float64) {
	r.t.Helper()
	gmax, diff := 0.0, 0.0
	for i := range want {
		gmax = math.Max(gmax, math.Abs(want[i]))
		diff = math.Max(diff, math.Abs(g[i]-want[i]))
	}
	e := diff / (1 + gmax)
	r.worst = math.Max(r.worst, e)
	if !(e <= 1e-10) {
		r.t.Fatalf("%s: gradient differs from the full computation by %g (‖g‖∞ = %g)", what, diff, gmax)
	}
}

// lineStep takes a line-search step of kind "fw" (toward v), "away" (from
// a) or "pair" (v − a) with the vertices given, each objective searching
// with tr's gradient (so all three take the same γ), and moves x as the
// methods do. It returns γ.
func (r *gtRun) lineStep(kind string, v, a []float64) float64 {
	d := make([]float64, len(r.x))
	gmax := 1.0
	switch kind {
	case "fw":
		lazycgSub(d, v, r.x)
	case "away":
		lazycgSub(d, r.x, a)
		gmax = 0.5
	case "pair":
		lazycgSub(d, v, a)
	}
	if dot(r.g, d) > 0 {
		if kind != "pair" {
			return 0
		}
		scal(-1, d)
	}
	gamma := r.tr.LineMinimize(r.x, d, r.g, gmax)
	if gp := r.pl.LineMinimize(r.x, d, r.g, gmax); gp != gamma {
		r.t.Fatalf("%s step: γ = %v with the tracking, %v without", kind, gamma, gp)
	}
	r.ref.LineMinimize(r.x, d, r.g, gmax)
	axpy(r.x, gamma, d)
	return gamma
}

// startAt sets x to a random point: a dense one in [0, 1)ⁿ, or a convex
// combination of a few vertices.
func (r *gtRun) startAt(rng *rand.Rand, k int, binary, dense bool) {
	if dense {
		copy(r.x, randVec(rng, len(r.x), 0, 1))
		return
	}
	v := make([]float64, len(r.x))
	clear(r.x)
	for range 4 {
		gtVertex(rng, v, k, binary)
		axpy(r.x, 0.25, v)
	}
}

// gtInstance returns the random CSR matrix of shape s and a b with
// entries in [−3, 3).
func gtInstance(rng *rand.Rand, s gtShape) (*CSR, []float64) {
	a := randomSparse(rng, s.rows, s.cols, s.density)
	return a, randVec(rng, s.rows, -3, 3)
}

// Line searches along Frank–Wolfe, away and pairwise directions (each
// kind alone and mixed), then the gradient at the new point: the tracked
// gradient agrees with the full computation, the values are those of the
// objective without the tracking, and most gradients are updates, not
// full products.
func TestLeastSquaresGradTrackLineSearch(t *testing.T) {
	for si, s := range gtShapes {
		for _, binary := range []bool{true, false} {
			for _, kinds := range [][]string{{"fw"}, {"fw", "away"}, {"pair"}, {"fw", "away", "pair"}} {
				for _, dense := range []bool{true, false} {
					name := fmt.Sprintf("%dx%d/binary=%v/%v/dense=%v", s.rows, s.cols, binary, kinds, dense)
					t.Run(name, func(t *testing.T) {
						rng := testRand(uint64(100 + si))
						a, b := gtInstance(rng, s)
						r := newGTRun(t, a, b, 2*s.nnz)
						r.startAt(rng, s.nnz, binary, dense)
						r.check("start")
						v, w := make([]float64, s.cols), make([]float64, s.cols)
						moves, before := map[string]int{}, r.tr.k.transProducts
						for it := range 150 {
							gtLMO(rng, v, r.g, s.nnz, binary, false)
							gtLMO(rng, w, r.g, s.nnz, binary, true)
							kind := kinds[rng.IntN(len(kinds))]
							if r.lineStep(kind, v, w) > 0 {
								moves[kind]++
								moves["all"]++
							}
							r.check(fmt.Sprintf("step %d (%s)", it, kind))
						}
						full := r.tr.k.transProducts - before
						if moves["all"] < 25 || full > moves["all"]/4 {
							t.Errorf("%d full gradients in 150 steps with %d moves", full, moves["all"])
						}
						for _, kind := range kinds {
							if moves[kind] < 10 {
								t.Errorf("only %d %s moves", moves[kind], kind)
							}
						}
						if r.pl.k.transProducts < moves["all"] {
							t.Errorf("without the tracking: %d full gradients for %d moves", r.pl.k.transProducts, moves["all"])
						}
						t.Logf("moves %v, full products %d, worst error %.2g", moves, full, r.worst)
					})
				}
			}
		}
	}
}

// StepToward, then MoveToward (the online methods' step), then the
// gradient at the announced point.
func TestLeastSquaresGradTrackStepToward(t *testing.T) {
	for si, s := range gtShapes {
		for _, binary := range []bool{true, false} {
			t.Run(fmt.Sprintf("%dx%d/binary=%v", s.rows, s.cols, binary), func(t *testing.T) {
				rng := testRand(uint64(200 + si))
				a, b := gtInstance(rng, s)
				r := newGTRun(t, a, b, 2*s.nnz)
				r.startAt(rng, s.nnz, binary, true)
				r.check("start")
				v := make([]float64, s.cols)
				before := r.tr.k.transProducts
				for it := range 150 {
					gtVertex(rng, v, s.nnz, binary)
					gamma := 2 / float64(it+3)
					if it%5 == 4 {
						gamma = 1
					}
					r.tr.StepToward(r.x, v, gamma)
					r.pl.StepToward(r.x, v, gamma)
					MoveToward(r.x, gamma, v)
					r.check(fmt.Sprintf("step %d", it))
				}
				if full := r.tr.k.transProducts - before; full > 30 {
					t.Errorf("%d full gradients in 150 announced steps", full)
				}
				t.Logf("full products %d, worst error %.2g", r.tr.k.transProducts-before, r.worst)
			})
		}
	}
}

// Steps interleaved with evaluations elsewhere: an unrelated point, the
// previous point, a LineCoeffs between the search and the move (which
// forgets the announced point), a StepToward whose vertex is too dense
// after a line search (which overwrites the support of the search's
// direction), Func alone at the new point, and a step not taken.
func TestLeastSquaresGradTrackInterleaved(t *testing.T) {
	s := gtShapes[1]
	rng := testRand(7)
	a, b := gtInstance(rng, s)
	r := newGTRun(t, a, b, 2*s.nnz)
	r.startAt(rng, s.nnz, true, true)
	r.check("start")
	v, w := make([]float64, s.cols), make([]float64, s.cols)
	denseV := randVec(rng, s.cols, 0, 1)
	prev := make([]float64, s.cols)
	for it := range 300 {
		copy(prev, r.x)
		gtLMO(rng, v, r.g, s.nnz, it%2 == 0, false)
		gtLMO(rng, w, r.g, s.nnz, it%3 == 0, true)
		kind := [...]string{"fw", "away", "pair"}[it%3]
		switch it % 7 {
		case 0: // an unrelated point, then back
			r.lineStep(kind, v, w)
			y := r.x
			r.x = randVec(rng, s.cols, -1, 1)
			r.check(fmt.Sprintf("step %d: unrelated point", it))
			r.x = y
			r.check(fmt.Sprintf("step %d: back", it))
		case 1: // the previous point after the step
			r.lineStep(kind, v, w)
			r.check(fmt.Sprintf("step %d", it))
			r.x = append([]float64(nil), prev...)
			r.check(fmt.Sprintf("step %d: previous point", it))
		case 2: // LineCoeffs between the search and the move
			d := make([]float64, s.cols)
			lazycgSub(d, v, r.x)
			gamma := r.tr.LineMinimize(r.x, d, r.g, 1)
			r.pl.LineMinimize(r.x, d, r.g, 1)
			d2 := make([]float64, s.cols)
			lazycgSub(d2, r.x, w)
			r.tr.LineCoeffs(r.x, d2)
			r.pl.LineCoeffs(r.x, d2)
			axpy(r.x, gamma, d)
			r.check(fmt.Sprintf("step %d: after LineCoeffs", it))
		case 3: // a dense StepToward between the search and the move
			d := make([]float64, s.cols)
			lazycgSub(d, v, r.x)
			gamma := r.tr.LineMinimize(r.x, d, r.g, 1)
			r.pl.LineMinimize(r.x, d, r.g, 1)
			r.tr.StepToward(r.x, denseV, 0.5)
			r.pl.StepToward(r.x, denseV, 0.5)
			axpy(r.x, gamma, d)
			r.check(fmt.Sprintf("step %d: after a dense StepToward", it))
		case 4: // Func alone at the new point, then another step
			r.lineStep(kind, v, w)
			r.tr.Func(r.x)
			r.pl.Func(r.x)
			r.lineStep("fw", w, v)
			r.check(fmt.Sprintf("step %d: after Func", it))
		case 5: // a sparse step, then one along a dense direction (−g)
			r.lineStep(kind, v, w)
			r.check(fmt.Sprintf("step %d", it))
			d := append([]float64(nil), r.g...)
			scal(-1, d)
			gamma := r.tr.LineMinimize(r.x, d, r.g, 1)
			r.pl.LineMinimize(r.x, d, r.g, 1)
			if gamma == 0 {
				t.Fatalf("step %d: no move along −g", it)
			}
			axpy(r.x, gamma, d)
			r.check(fmt.Sprintf("step %d: along −g", it))
		default:
			r.lineStep(kind, v, w)
			r.check(fmt.Sprintf("step %d", it))
		}
	}
	t.Logf("worst error %.2g over %d checks, %d full products", r.worst, r.checks, r.tr.k.transProducts)
}

// More than refreshEvery consecutive updates: the gradient is recomputed
// every refreshEvery updates (as A·x), stays accurate, and the updates
// between refreshes are taken.
func TestLeastSquaresGradTrackRefresh(t *testing.T) {
	s := gtShapes[2]
	rng := testRand(11)
	a, b := gtInstance(rng, s)
	r := newGTRun(t, a, b, 2*s.nnz)
	r.startAt(rng, s.nnz, true, false)
	r.check("start")
	v := make([]float64, s.cols)
	maxUpdates, moves := 0, 0
	before := r.tr.k.transProducts
	for it := range 450 {
		gtLMO(rng, v, r.g, s.nnz, true, false)
		if r.lineStep("fw", v, nil) > 0 {
			moves++
		}
		r.check(fmt.Sprintf("step %d", it))
		maxUpdates = max(maxUpdates, r.tr.k.gUpdates)
		if r.tr.k.gUpdates > refreshEvery {
			t.Fatalf("step %d: %d consecutive updates of the gradient", it, r.tr.k.gUpdates)
		}
	}
	full := r.tr.k.transProducts - before
	if maxUpdates < refreshEvery || moves < 400 || full < moves/(refreshEvery+1) || full > 2*moves/refreshEvery+2 {
		t.Errorf("%d moves, %d full gradients, at most %d consecutive updates", moves, full, maxUpdates)
	}
	t.Logf("moves %d, full products %d, worst error %.2g", moves, full, r.worst)
}

// The tracking is off for a dense matrix, for noReuse and for directions
// whose rows hold more than a quarter of the nonzeros of A; the gradient
// of a Sum that announces steps to its terms (not all least squares: the
// terms' own steps) is tracked and right.
func TestLeastSquaresGradTrackScope(t *testing.T) {
	rng := testRand(3)
	s := gtShapes[1]
	a, b := gtInstance(rng, s)
	x := randVec(rng, s.cols, 0, 1)
	v := make([]float64, s.cols)
	g, gw := make([]float64, s.cols), make([]float64, s.cols)
	// steps returns the full gradients and the moves of 20 steps.
	steps := func(f *LeastSquares, k int) (full, moves int) {
		before := f.k.transProducts
		f.Grad(g, x)
		y := append([]float64(nil), x...)
		for range 20 {
			gtLMO(rng, v, g, k, true, false)
			d := make([]float64, s.cols)
			lazycgSub(d, v, y)
			gamma := f.LineMinimize(y, d, g, 1)
			if gamma > 0 {
				moves++
			}
			axpy(y, gamma, d)
			f.Grad(g, y)
		}
		return f.k.transProducts - before, moves
	}
	dense := toDense(a)
	fd, err := NewLeastSquares(dense, b)
	mustOK(t, err)
	if n, m := steps(fd, 2); n != 21 || m < 5 { // every gradient
		t.Errorf("dense A: %d full gradients in 20 steps with %d moves", n, m)
	}
	fn, err := NewLeastSquares(a, b)
	mustOK(t, err)
	fn.k.noReuse = true
	if n, m := steps(fn, 2); n != 21 {
		t.Errorf("noReuse: %d full gradients in 20 steps with %d moves", n, m)
	}
	fw, err := NewLeastSquares(a, b)
	mustOK(t, err)
	fw.k.setSparseMax(s.cols)
	// A vertex with half the columns touches most rows.
	if n, m := steps(fw, s.cols/2); n != m+1 || m < 5 || fw.k.sparseProducts < 20 {
		t.Errorf("wide vertices: %d full gradients in 20 steps with %d moves, %d sparse line searches", n, m, fw.k.sparseProducts)
	}
	ft, err := NewLeastSquares(a, b)
	mustOK(t, err)
	if n, m := steps(ft, 2); n > 2 || m < 5 {
		t.Errorf("sparse vertices: %d full gradients in 20 steps with %d moves", n, m)
	}

	// A Sum with a linear term announces StepToward to its least squares
	// term with its own support buffers.
	ls, err := NewLeastSquares(a, b)
	mustOK(t, err)
	c := randVec(rng, s.cols, -1, 1)
	sum := NewSum(ls, quartic(c))
	ref, err := NewLeastSquares(a, b)
	mustOK(t, err)
	ref.k.noReuse = true
	refSum := NewSum(ref, quartic(c))
	if sum.sumFast() {
		t.Fatal("the Sum takes the fast path")
	}
	y := append([]float64(nil), x...)
	sum.Grad(g, y)
	before := ls.k.transProducts
	for it := range 60 {
		gtVertex(rng, v, 3, it%2 == 0)
		gamma := 1 / float64(it+2)
		sum.StepToward(y, v, gamma)
		MoveToward(y, gamma, v)
		sum.Grad(g, y)
		refSum.Grad(gw, y)
		gmax, diff := 0.0, 0.0
		for i := range gw {
			gmax = math.Max(gmax, math.Abs(gw[i]))
			diff = math.Max(diff, math.Abs(g[i]-gw[i]))
		}
		if diff > 1e-10*(1+gmax) {
			t.Fatalf("Sum step %d: gradient off by %g", it, diff)
		}
	}
	if n := ls.k.transProducts - before; n > 3 {
		t.Errorf("Sum: %d full gradients of the term in 60 announced steps", n)
	}
}

// toDense returns the dense copy of a.
func toDense(a *CSR) *Dense {
	data := make([]float64, a.Rows*a.Cols)
	for i := range a.Rows {
		for p := a.RowPtr[i]; p < a.RowPtr[i+1]; p++ {
			data[i*a.Cols+a.ColIdx[p]] = a.Val[p]
		}
	}
	d, err := NewDense(a.Rows, a.Cols, data)
	if err != nil {
		panic(err)
	}
	return d
}

// gtBench is a lazy-CG-like iteration on the shape of lazycg solve
// -polytope dag:60,15 -objective quadratic: a square CSR matrix of 13305
// rows with 20 nonzeros per row on average, vertices with 60 nonzeros
// 1 (paths). Each iteration picks the best vertex for the gradient among
// a pool (a cache scan), searches along v − x, moves, and asks the
// gradient at the new point.
type gtBench struct {
	f          *LeastSquares
	pool       [][]float64
	support    [][]int // the nonzeros of the pool's vertices
	x, d, g, v []float64
}

func newGTBench(b *testing.B, track bool) *gtBench {
	const n, perRow, pathLen = 13305, 20, 60
	f, err := RandomLeastSquares(n, n, float64(perRow)/n, 1)
	mustOK(b, err)
	f.k.noGradTrack = !track
	rng := testRand(5)
	r := &gtBench{f: f, x: make([]float64, n), d: make([]float64, n), g: make([]float64, n)}
	for range 40 {
		v := make([]float64, n)
		gtVertex(rng, v, pathLen, true)
		r.pool = append(r.pool, v)
		var sup []int
		for j, vj := range v {
			if vj != 0 {
				sup = append(sup, j)
			}
		}
		r.support = append(r.support, sup)
	}
	copy(r.x, r.pool[0])
	f.Grad(r.g, r.x)
	for range 300 {
		r.step()
	}
	return r
}

func (r *gtBench) step() {
	best := math.Inf(1)
	for i, sup := range r.support {
		c := 0.0
		for _, j := range sup {
			c += r.g[j]
		}
		if c < best {
			best, r.v = c, r.pool[i]
		}
	}
	lazycgSub(r.d, r.v, r.x)
	gamma := r.f.LineMinimize(r.x, r.d, r.g, 1)
	axpy(r.x, gamma, r.d)
	r.f.Grad(r.g, r.x)
}

// BenchmarkLeastSquaresGradTrack compares the iteration of gtBench with
// and without the tracking of the gradient.
func BenchmarkLeastSquaresGradTrack(b *testing.B) {
	for _, track := range []bool{true, false} {
		name := "track"
		if !track {
			name = "notrack"
		}
		b.Run(name, func(b *testing.B) {
			r := newGTBench(b, track)
			before := r.f.k.transProducts
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				r.step()
			}
			b.ReportMetric(float64(r.f.k.transProducts-before)/float64(b.N), "fullgrads/op")
		})
	}
}

// The tracked iteration allocates nothing.
func TestLeastSquaresGradTrackAllocs(t *testing.T) {
	s := gtShapes[1]
	rng := testRand(9)
	a, b := gtInstance(rng, s)
	r := newGTRun(t, a, b, 2*s.nnz)
	r.startAt(rng, s.nnz, true, true)
	f := r.tr
	f.Grad(r.g, r.x)
	d := make([]float64, s.cols)
	pool := make([][]float64, 20)
	for i := range pool {
		pool[i] = make([]float64, s.cols)
		gtVertex(rng, pool[i], s.nnz, true)
	}
	i := 0
	step := func() {
		i++
		v := pool[i%len(pool)]
		lazycgSub(d, v, r.x)
		gamma := f.LineMinimize(r.x, d, r.g, 1)
		axpy(r.x, gamma, d)
		f.Grad(r.g, r.x)
	}
	before := f.k.transProducts
	if n := testutil.Mallocs(200, step); n != 0 {
		t.Errorf("%d allocations in 200 tracked iterations", n)
	}
	if f.k.transProducts-before > 20 {
		t.Errorf("%d full gradients in 201 iterations", f.k.transProducts-before)
	}
}

// maxAbs is ‖x‖∞, NaN with a NaN entry and +Inf with an infinite one.
func TestMaxAbs(t *testing.T) {
	for _, tc := range []struct {
		x    []float64
		want float64
	}{
		{nil, 0},
		{[]float64{-0.0}, 0},
		{[]float64{1, -3, 2}, 3},
		{[]float64{1, 2, 3, 4, -5, 0.5, 1e-300}, 5},
		{[]float64{1, 2, 3, 4, 5, 6, 7, math.Inf(-1)}, math.Inf(1)},
		{[]float64{1, math.NaN(), 3, math.Inf(1), 5}, math.NaN()},
		{[]float64{math.SmallestNonzeroFloat64, -2 * math.SmallestNonzeroFloat64}, 2 * math.SmallestNonzeroFloat64},
	} {
		got := maxAbs(tc.x)
		if got != tc.want && !(math.IsNaN(got) && math.IsNaN(tc.want)) {
			t.Errorf("maxAbs(%v) = %v, want %v", tc.x, got, tc.want)
		}
	}
}
