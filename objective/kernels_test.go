package objective

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/internal/testutil"
	"github.com/lazycg/lazycg/lmo"
)

// naiveMulVec is the reference product: one single-accumulator dot product
// per row (the Dense kernel before gonum's Dgemv).
func naiveMulVec(dst []float64, a *Dense, x []float64) {
	for i := range dst {
		s := 0.0
		for j := 0; j < a.Cols; j++ {
			s += a.Data[i*a.Cols+j] * x[j]
		}
		dst[i] = s
	}
}

// naiveMulTransVec is the reference transposed product: one axpy per row.
func naiveMulTransVec(dst []float64, a *Dense, y []float64) {
	clear(dst)
	for i, yi := range y {
		for j := range dst {
			dst[j] += yi * a.Data[i*a.Cols+j]
		}
	}
}

// randomSparse returns a rows×cols CSR matrix with entries of the given
// density in N(0, 1), where rows i ≡ 1 (mod 3) and columns j ≡ 2 (mod 4)
// are empty; entries are stored in shuffled order inside each row.
func randomSparse(rng *rand.Rand, rows, cols int, density float64) *CSR {
	m := &CSR{Rows: rows, Cols: cols, RowPtr: make([]int, rows+1)}
	for i := 0; i < rows; i++ {
		start := len(m.ColIdx)
		if i%3 != 1 {
			for j := 0; j < cols; j++ {
				if j%4 != 2 && rng.Float64() < density {
					m.ColIdx = append(m.ColIdx, j)
					m.Val = append(m.Val, rng.NormFloat64())
				}
			}
		}
		row := m.ColIdx[start:]
		vals := m.Val[start:]
		rng.Shuffle(len(row), func(a, b int) { row[a], row[b] = row[b], row[a]; vals[a], vals[b] = vals[b], vals[a] })
		m.RowPtr[i+1] = len(m.ColIdx)
	}
	return m
}

// closeVec reports whether got and want agree to a relative 1e-12 in
// every entry (relative to the entry scale given).
func closeVec(got, want []float64, scale float64) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if math.Abs(got[i]-want[i]) > 1e-12*math.Max(1, scale) {
			return false
		}
	}
	return true
}

var kernelShapes = [][2]int{{1, 1}, {0, 0}, {0, 3}, {3, 0}, {1, 5}, {5, 1}, {7, 3}, {3, 7}, {40, 25}, {33, 130}}

func TestKernelsMatchNaive(t *testing.T) {
	rng := testRand(21)
	for _, sz := range kernelShapes {
		for _, density := range []float64{0, 0.15, 1} {
			rows, cols := sz[0], sz[1]
			name := fmt.Sprintf("%dx%d-d%g", rows, cols, density)
			csr := randomSparse(rng, rows, cols, density)
			mustOK(t, csr.Validate())
			csc := csr.CSC()
			if err := csc.Validate(); err != nil {
				t.Fatalf("%s: CSC of a valid CSR: %v", name, err)
			}
			dense := denseOf(csr)
			if got := denseOfCSC(csc); !closeVec(got.Data, dense.Data, 0) {
				t.Fatalf("%s: CSC entries differ from CSR entries", name)
			}
			x, y := randVec(rng, cols, -1, 1), randVec(rng, rows, -1, 1)
			wantAx, wantATy := make([]float64, rows), make([]float64, cols)
			naiveMulVec(wantAx, dense, x)
			naiveMulTransVec(wantATy, dense, y)
			for _, m := range []Matrix{csr, csc, dense} {
				got := randVec(rng, rows, 5, 6) // garbage to overwrite
				m.MulVec(got, x)
				if !closeVec(got, wantAx, 10) {
					t.Errorf("%s %T: MulVec = %v, want %v", name, m, got, wantAx)
				}
				gotT := randVec(rng, cols, 5, 6)
				m.MulTransVec(gotT, y)
				if !closeVec(gotT, wantATy, 10) {
					t.Errorf("%s %T: MulTransVec = %v, want %v", name, m, gotT, wantATy)
				}
			}
			// Sparse vectors: empty, one entry, every column.
			for _, k := range []int{0, 1, cols / 2, cols} {
				if k > cols {
					continue
				}
				idx := rng.Perm(cols)[:k]
				val := randVec(rng, k, -2, 2)
				full := make([]float64, cols)
				for p, j := range idx {
					full[j] = val[p]
				}
				want := make([]float64, rows)
				naiveMulVec(want, dense, full)
				for _, m := range []SparseMultiplier{csc, dense} {
					got := randVec(rng, rows, 5, 6)
					m.MulSparseVec(got, idx, val)
					if !closeVec(got, want, 10) {
						t.Errorf("%s %T: MulSparseVec with %d nonzeros = %v, want %v", name, m, k, got, want)
					}
				}
			}
			if f1, f2 := csc.FrobeniusSq(), dense.FrobeniusSq(); math.Abs(f1-f2) > 1e-12*math.Max(1, f2) {
				t.Errorf("%s: Frobenius norms %v and %v differ", name, f1, f2)
			}
		}
	}
}

// denseOfCSC returns the dense copy of a CSC matrix.
func denseOfCSC(m *CSC) *Dense {
	d := &Dense{Rows: m.Rows, Cols: m.Cols, Data: make([]float64, m.Rows*m.Cols)}
	for j := 0; j < m.Cols; j++ {
		for k := m.ColPtr[j]; k < m.ColPtr[j+1]; k++ {
			d.Data[m.RowIdx[k]*m.Cols+j] += m.Val[k]
		}
	}
	return d
}

func TestCSCRejectsBadInput(t *testing.T) {
	for _, tc := range []struct {
		name          string
		rows, cols    int
		colPtr, rows_ []int
		val           []float64
		want          string
	}{
		{"negative", -1, 2, []int{0, 0, 0}, nil, nil, "negative dimensions"},
		{"short colptr", 2, 2, []int{0, 1}, []int{0}, []float64{1}, "len(ColPtr)"},
		{"len mismatch", 2, 1, []int{0, 1}, []int{0}, []float64{1, 2}, "differs"},
		{"start", 2, 1, []int{1, 1}, []int{0}, []float64{1}, "ColPtr[0]"},
		{"decreasing", 2, 2, []int{0, 2, 1}, []int{0, 1}, []float64{1, 2}, "decreases"},
		{"end", 2, 1, []int{0, 1}, []int{0, 1}, []float64{1, 2}, "number of nonzeros"},
		{"row range", 2, 1, []int{0, 1}, []int{2}, []float64{1}, "out of range"},
		{"duplicate", 2, 1, []int{0, 2}, []int{1, 1}, []float64{1, 2}, "stored twice"},
		{"nan", 2, 1, []int{0, 1}, []int{0}, []float64{math.NaN()}, "non-finite"},
	} {
		_, err := NewCSC(tc.rows, tc.cols, tc.colPtr, tc.rows_, tc.val)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "objective: csc: ") {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	if _, err := NewLeastSquares(&CSC{Rows: 1, Cols: 1, ColPtr: []int{0}}, []float64{0}); err == nil {
		t.Error("NewLeastSquares accepted an invalid CSC")
	}
	if m, err := NewCSC(2, 3, []int{0, 1, 1, 3}, []int{1, 1, 0}, []float64{1, 2, 3}); err != nil || m.NNZ() != 3 {
		t.Errorf("valid CSC: %v, %v", m, err)
	}
}

// countingMatrix counts the products of the matrix it wraps.
type countingMatrix struct {
	*Dense
	mul, trans, sparse int
}

func (c *countingMatrix) MulVec(dst, x []float64)      { c.mul++; c.Dense.MulVec(dst, x) }
func (c *countingMatrix) MulTransVec(dst, y []float64) { c.trans++; c.Dense.MulTransVec(dst, y) }
func (c *countingMatrix) MulSparseVec(dst []float64, idx []int, val []float64) {
	c.sparse++
	c.Dense.MulSparseVec(dst, idx, val)
}

// plainMatrix hides the SparseMultiplier of a matrix.
type plainMatrix struct{ m *Dense }

func (p plainMatrix) Dims() (int, int)             { return p.m.Dims() }
func (p plainMatrix) MulVec(dst, x []float64)      { p.m.MulVec(dst, x) }
func (p plainMatrix) MulTransVec(dst, y []float64) { p.m.MulTransVec(dst, y) }

// lsPair returns the least-squares objectives of the same instance with
// and without reuse.
func lsPair(t testing.TB, a Matrix, b []float64) (reuse, fresh *LeastSquares) {
	reuse, err := NewLeastSquares(a, b)
	mustOK(t, err)
	fresh, err = NewLeastSquares(a, b)
	mustOK(t, err)
	fresh.k.noReuse = true
	return reuse, fresh
}

// The iterates of Frank–Wolfe with the reuse of A·x and sparse directions
// agree with those of the recomputing objective, on dense and sparse
// matrices, ℓ1-ball and Birkhoff vertices, for many iterations (across
// refreshes of A·x).
func TestLeastSquaresReuseMatchesRecomputation(t *testing.T) {
	rng := testRand(8)
	ball, _ := lmo.NewL1Ball(60, 3)
	birk, _ := lmo.NewBirkhoff(8)
	for _, tc := range []struct {
		name string
		a    Matrix
		poly vertexLMO
	}{
		{"dense-l1", gaussianLeastSquares(t, 40, 60, 3, 2).A(), ball},
		{"csr-l1", randomSparse(rng, 50, 60, 0.3), ball},
		{"csc-birkhoff", randomSparse(rng, 64, 64, 0.3).CSC(), birk},
		{"csr-birkhoff", randomSparse(rng, 30, 64, 0.5), birk},
		{"plain-l1", plainMatrix{gaussianLeastSquares(t, 40, 60, 3, 3).A().(*Dense)}, ball},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows, _ := tc.a.Dims()
			f1, f2 := lsPair(t, tc.a, randVec(rng, rows, -3, 3))
			f1.k.setSparseMax(10) // Birkhoff vertices have 8 nonzeros
			c1, c2 := newCGRun(t, f1, tc.poly), newCGRun(t, f2, tc.poly)
			updates := 0
			for it := 0; it < 400; it++ {
				c1.step()
				c2.step()
				if f1.k.updates > 0 {
					updates++
				}
				if e := relDiff(c1.x, c2.x); e > 1e-9 {
					t.Fatalf("iteration %d: iterates differ by %v", it, e)
				}
				if e := relDiff(c1.g, c2.g); e > 1e-9 {
					t.Fatalf("iteration %d: gradients differ by %v", it, e)
				}
			}
			if v1, v2 := f1.Func(c1.x), f2.Func(c1.x); math.Abs(v1-v2) > 1e-11*math.Max(1, v2) {
				t.Errorf("f = %v with reuse, %v recomputed", v1, v2)
			}
			if updates < 300 {
				t.Errorf("A·x was updated in only %d of 400 iterations", updates)
			}
			_, plain := tc.a.(plainMatrix)
			if sp := f1.k.sparseProducts; plain && sp != 0 || !plain && sp < 300 {
				t.Errorf("%d line searches of 400 used the sparse route", sp)
			}
		})
	}
}

// Calls at arbitrary points (other slices, moved by other steps, changed in
// place, between a line search and the move) give the values of a fresh
// computation.
func TestLeastSquaresArbitraryPoints(t *testing.T) {
	rng := testRand(9)
	for _, a := range []Matrix{randomSparse(rng, 30, 40, 0.3), gaussianLeastSquares(t, 30, 40, 1, 4).A()} {
		rows, n := a.Dims()
		f, ref := lsPair(t, a, randVec(rng, rows, -1, 1))
		f.k.setSparseMax(4) // all three sparse routes at this size
		x := randVec(rng, n, -1, 1)
		g, gr := make([]float64, n), make([]float64, n)
		check := func(what string, x []float64) {
			t.Helper()
			v := f.FuncGrad(g, x)
			w := ref.FuncGrad(gr, x)
			if math.Abs(v-w) > 1e-10*math.Max(1, w) || relDiff(g, gr) > 1e-10 {
				t.Fatalf("%T %s: f = %v, want %v (gradient off by %v)", a, what, v, w, relDiff(g, gr))
			}
			if v, w := f.Func(x), ref.Func(x); math.Abs(v-w) > 1e-10*math.Max(1, w) {
				t.Fatalf("%T %s: Func = %v, want %v", a, what, v, w)
			}
			f.Grad(g, x)
			if relDiff(g, gr) > 1e-10 {
				t.Fatalf("%T %s: Grad off by %v", a, what, relDiff(g, gr))
			}
		}
		check("start", x)
		check("copy", append([]float64(nil), x...))
		for trial := 0; trial < 200; trial++ {
			f.FuncGrad(g, x)
			v := make([]float64, n)
			v[rng.IntN(n)] = 2*rng.Float64() - 1
			d := make([]float64, n)
			for i := range d {
				d[i] = v[i] - x[i]
			}
			switch rng.IntN(5) {
			case 0:
				d = randVec(rng, n, -1, 1) // dense direction
			case 1: // away direction x − v
				for i := range d {
					d[i] = -d[i]
				}
			case 2: // pairwise direction v − u
				clear(d)
				d[rng.IntN(n)] = 1
				d[rng.IntN(n)] -= 1
			}
			gamma := f.LineMinimize(x, d, g, 1)
			if want := ref.LineMinimize(x, d, g, 1); math.Abs(gamma-want) > 1e-9 {
				t.Fatalf("%T: γ = %v, want %v", a, gamma, want)
			}
			before := f.k.updates
			switch rng.IntN(5) {
			case 0: // the predicted point, by a plain loop (root: gonum's Daxpy)
				for i := range x {
					x[i] += gamma * d[i]
				}
				if gamma > 0 && before < refreshEvery {
					f.Func(x)
					if f.k.updates != before+1 {
						t.Fatalf("%T: the predicted point was not recognized", a)
					}
				}
			case 1: // a different step along d
				for i := range x {
					x[i] += gamma / 2 * d[i]
				}
			case 2: // the predicted point, then one entry changed in place
				for i := range x {
					x[i] += gamma * d[i]
				}
				x[rng.IntN(n)] += 1e-3
			case 3: // a convex combination computed differently
				for i := range x {
					x[i] = (1-gamma)*x[i] + gamma*v[i]
				}
			case 4: // an unrelated point, then back
				check("unrelated", randVec(rng, n, -1, 1))
			}
			check(fmt.Sprintf("trial %d", trial), x)
			if trial == 199 && f.k.sparseProducts < 100 {
				t.Errorf("%T: only %d sparse products in 200 trials", a, f.k.sparseProducts)
			}
			if rng.IntN(3) == 0 {
				s1, c1 := f.LineCoeffs(x, d)
				s2, c2 := ref.LineCoeffs(x, d)
				if math.Abs(s1-s2) > 1e-9*math.Max(1, math.Abs(s2)) || math.Abs(c1-c2) > 1e-9*math.Max(1, c2) {
					t.Fatalf("LineCoeffs (%v, %v), want (%v, %v)", s1, c1, s2, c2)
				}
				if g1, g2 := f.LineMinimize(x, d, nil, 0.5), ref.LineMinimize(x, d, nil, 0.5); math.Abs(g1-g2) > 1e-9 {
					t.Fatalf("LineMinimize without gradient: %v, want %v", g1, g2)
				}
			}
		}
	}
}

// LineCoeffs (the quadratic line of a Sum or a DC model) between a line
// search and the move along it computes A·d of another direction: the
// update of A·x at the point the line search predicted must not use it.
// Likewise after StepToward.
func TestLeastSquaresLineCoeffsAfterLineSearch(t *testing.T) {
	rng := testRand(10)
	for _, a := range []Matrix{randomSparse(rng, 30, 40, 0.3), gaussianLeastSquares(t, 30, 40, 1, 5).A()} {
		rows, n := a.Dims()
		f, ref := lsPair(t, a, randVec(rng, rows, -1, 1))
		for trial := 0; trial < 20; trial++ {
			x := randVec(rng, n, -1, 1)
			g := make([]float64, n)
			f.FuncGrad(g, x)
			d := randVec(rng, n, -1, 1)
			var y []float64
			if trial%2 == 0 {
				gamma := f.LineMinimize(x, d, g, 1)
				y = append([]float64(nil), x...)
				axpy(y, gamma, d)
			} else {
				v := make([]float64, n)
				v[rng.IntN(n)] = 1
				f.StepToward(x, v, 0.5)
				y = append([]float64(nil), x...)
				MoveToward(y, 0.5, v)
			}
			f.LineCoeffs(x, randVec(rng, n, -1, 1)) // another direction
			if v, w := f.Func(y), ref.Func(y); math.Abs(v-w) > 1e-10*math.Max(1, w) {
				t.Fatalf("%T trial %d: f = %v at the predicted point, want %v", a, trial, v, w)
			}
		}
	}
}

// A·x kept by O(m) updates stays within rounding of a fresh product over
// thousands of iterations.
func TestLeastSquaresReuseDrift(t *testing.T) {
	f := gaussianLeastSquares(t, 50, 200, 5, 5)
	ball, _ := lmo.NewL1Ball(200, 5)
	c := newCGRun(t, f, ball)
	ax := make([]float64, 50)
	worst := 0.0
	for it := 0; it < 3000; it++ {
		c.step()
		f.a.MulVec(ax, c.x)
		worst = math.Max(worst, relDiff(f.k.ax, ax))
	}
	if worst > 1e-12 {
		t.Errorf("kept A·x drifted from the product by %v", worst)
	}
}

// Through lazycg.Minimize, vanilla and lazy CG with exact line search make
// one transposed product per gradient, sparse products for their line
// searches, and full products A·x only to refresh, and reach the same
// point as the recomputing objective.
func TestMinimizeProductsPerIteration(t *testing.T) {
	const iters = 400
	for _, method := range []string{"fw", "lcg", "afw", "bpcg"} {
		t.Run(method, func(t *testing.T) {
			base := gaussianLeastSquares(t, 60, 300, 5, 6)
			cm := &countingMatrix{Dense: base.A().(*Dense)}
			f, ref := lsPair(t, cm, base.B())
			ball, _ := lmo.NewL1Ball(300, 5)
			run := func(obj lazycg.Objective) *lazycg.Result {
				var m lazycg.Method
				switch method {
				case "fw":
					m = &lazycg.FrankWolfe{}
				case "lcg":
					m = &lazycg.LazyCG{}
				case "afw":
					m = &lazycg.AwayFW{}
				case "bpcg":
					m = &lazycg.BlendedPairwise{}
				}
				res, err := lazycg.Minimize(context.Background(), lazycg.Problem{Objective: obj, LMO: ball},
					&lazycg.Settings{MaxIterations: iters, NoTrace: true}, m)
				mustOK(t, err)
				return res
			}
			res := run(f)
			evals := res.Stats.FuncGradEvals
			if cm.trans != evals {
				t.Errorf("%d transposed products for %d gradient evaluations", cm.trans, evals)
			}
			moves := evals - 2 // start: ∇f(0) and ∇f(x_1)
			// Active-set methods recompute x from their weights now and
			// then (a point the objective cannot predict).
			slack := 0
			if method == "afw" || method == "bpcg" {
				slack = moves / 20
			}
			if cm.mul > 2+moves/refreshEvery+1+slack {
				t.Errorf("%d full products A·x for %d moves (want refreshes only)", cm.mul, moves)
			}
			if cm.sparse < moves-slack {
				t.Errorf("%d sparse products for %d moves", cm.sparse, moves)
			}
			t.Logf("%d iterations, %d gradients: %d A·x, %d Aᵀr, %d sparse", res.Stats.Iterations, evals, cm.mul, cm.trans, cm.sparse)
			want := run(ref)
			if e := relDiff(res.X, want.X); e > 1e-9 || math.Abs(res.F-want.F) > 1e-9*math.Max(1, want.F) {
				t.Errorf("final point differs by %v, f = %v vs %v", e, res.F, want.F)
			}
		})
	}
}

// One CG iteration (LMO, line search, update, gradient) and the lazy
// cache-hit iteration allocate nothing.
func TestIterationAllocs(t *testing.T) {
	sparse, err := RandomLeastSquares(400, 400, 0.05, 3)
	mustOK(t, err)
	birk, _ := lmo.NewBirkhoff(20)
	ball, _ := lmo.NewL1Ball(300, 5)
	for _, tc := range []struct {
		name string
		c    *cgRun
	}{
		{"dense-l1", newCGRun(t, gaussianLeastSquares(t, 50, 300, 5, 7), ball)},
		{"csr-birkhoff", newCGRun(t, sparse, birk)},
	} {
		if a := testutil.Mallocs(100, tc.c.step); a != 0 {
			t.Errorf("%s: CG iterations allocate %d times in 100 runs", tc.name, a)
		}
	}
	lz := newLazyRun(t, 20, 0.05, 20)
	lz.step()
	lz.hits = 0
	if a := testutil.Mallocs(100, lz.step); a != 0 {
		t.Errorf("lazy cache-hit iterations allocate %d times in 100 runs", a)
	}
	if lz.hits < 50 {
		t.Errorf("only %d of 101 lazy iterations hit the cache", lz.hits)
	}
}

// FuncGrad computes ‖2r‖²/4; where ‖2r‖² overflows but f(x) = ‖r‖² is
// finite (f > MaxFloat64/4), it must still return Func's finite value.
func TestLeastSquaresFuncGradNearOverflow(t *testing.T) {
	a, err := NewDense(2, 1, []float64{1, 0.5})
	mustOK(t, err)
	for _, m := range []Matrix{a, csrOf(a)} {
		f, err := NewLeastSquares(m, []float64{0, 0})
		mustOK(t, err)
		x := []float64{1.1e154} // f = 1.25·1.21e308 ≈ 1.5e308 < MaxFloat64
		g := make([]float64, 1)
		want := f.Func(x)
		if math.IsInf(want, 0) {
			t.Fatalf("%T: Func = %v, want finite", m, want)
		}
		if got := f.FuncGrad(g, x); got != want {
			t.Errorf("%T: FuncGrad = %v, Func = %v", m, got, want)
		}
		if want := 2 * 1.25 * 1.1e154; math.Abs(g[0]-want) > 1e-15*want {
			t.Errorf("%T: gradient %v, want %v", m, g[0], want)
		}
	}
}
