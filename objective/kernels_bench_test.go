package objective

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"testing"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/lmo"
	"gonum.org/v1/gonum/blas"
)

// Kernel benchmarks of issue 11 (docs/RESULTS.md, section "Kernels";
// scripts/bench-kernels.sh runs them). The iteration benchmarks time the
// measured work and its reference alternately inside one loop and report
// both per operation and their ratio, so that load on the machine affects
// both alike.

// gaussianLeastSquares returns ‖Ax − b‖² with a rows×cols row-major A of
// standard normal entries and b = A·w + noise for a w with ‖w‖₁ = 2·radius,
// so that the optimum over the ℓ1-ball of the given radius lies on its
// boundary and Frank–Wolfe keeps moving.
func gaussianLeastSquares(tb testing.TB, rows, cols int, radius float64, seed uint64) *LeastSquares {
	rng := testRand(seed)
	a := &Dense{Rows: rows, Cols: cols, Data: make([]float64, rows*cols)}
	for i := range a.Data {
		a.Data[i] = rng.NormFloat64()
	}
	w := make([]float64, cols)
	for k := 0; k < 20; k++ {
		w[rng.IntN(cols)] += radius / 10 * (rng.Float64() - 0.5) * 4
	}
	b := make([]float64, rows)
	a.MulVec(b, w)
	for i := range b {
		b[i] += 0.1 * rng.NormFloat64()
	}
	f, err := NewLeastSquares(a, b)
	mustOK(tb, err)
	return f
}

// lazycgSub sets dst = a − b as lazycg's methods compute directions (a copy
// and gonum's Daxpy); x += γd is axpy, gonum's Daxpy, as in lazycg.
func lazycgSub(dst, a, b []float64) {
	copy(dst, a)
	axpy(dst, -1, b)
}

// cgRun is a Frank–Wolfe iteration with exact line search written out as
// lazycg.FrankWolfe performs it: LMO call, d = v − x, LineMinimize, x += γd,
// FuncGrad.
type cgRun struct {
	f          *LeastSquares
	poly       lazycg.LMO
	x, g, v, d []float64
	moves      int
}

// vertexLMO is an LMO with a start vertex.
type vertexLMO interface {
	lazycg.LMO
	Vertex(dst []float64)
}

func newCGRun(tb testing.TB, f *LeastSquares, poly vertexLMO) *cgRun {
	n := f.Dim()
	c := &cgRun{f: f, poly: poly, x: make([]float64, n), g: make([]float64, n), v: make([]float64, n), d: make([]float64, n)}
	poly.Vertex(c.x)
	f.FuncGrad(c.g, c.x)
	for range 50 { // leave the start vertex
		c.step()
	}
	c.moves = 0
	return c
}

func (c *cgRun) step() {
	if _, err := c.poly.Minimize(context.Background(), c.v, c.g); err != nil {
		panic(err)
	}
	lazycgSub(c.d, c.v, c.x)
	gamma := c.f.LineMinimize(c.x, c.d, c.g, 1)
	if gamma > 0 {
		c.moves++
	}
	axpy(c.x, gamma, c.d)
	c.f.FuncGrad(c.g, c.x)
}

// pair times a and ref alternately in CPU time of the benchmark's OS
// thread and reports their times per call and the ratio a/ref. Each
// benchmark iteration runs a batch of k calls of a, then k calls of ref,
// with k chosen so that a batch takes about 0.5 ms: reading the thread's
// CPU clock is a system call of about a microsecond here, negligible
// against a batch but not against one call.
func pair(b *testing.B, aName, refName string, a, ref func()) {
	b.Helper()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	one := time.Duration(math.MaxInt64)
	for range 5 {
		t0 := threadCPUTime()
		a()
		t1 := threadCPUTime()
		ref()
		one = min(one, t1-t0, threadCPUTime()-t1)
	}
	k := max(1, int(500*time.Microsecond/max(one, time.Microsecond)))
	var ta, tr time.Duration
	b.ReportAllocs()
	for b.Loop() {
		t0 := threadCPUTime()
		for range k {
			a()
		}
		t1 := threadCPUTime()
		for range k {
			ref()
		}
		tr += threadCPUTime() - t1
		ta += t1 - t0
	}
	n := float64(b.N * k)
	b.ReportMetric(float64(ta.Nanoseconds())/n, aName+"-cpu-ns/call")
	b.ReportMetric(float64(tr.Nanoseconds())/n, refName+"-cpu-ns/call")
	b.ReportMetric(ta.Seconds()/tr.Seconds(), aName+"/"+refName)
	b.ReportMetric(float64(k), "batch")
}

// BenchmarkCGIteration is one Frank–Wolfe iteration with exact line search
// (LMO, line search, update, gradient) next to the two full matrix–vector
// products a least-squares iteration needs without reuse: A·u and Aᵀ·r with
// gonum's Dgemv for dense A, with the CSR row product and the CSC column
// product (the faster transposed kernel) for sparse A. "reuse" is the
// objective as shipped, "noreuse" the same kernels without the reuse of
// A·x and without sparse directions (three full products per iteration).
func BenchmarkCGIteration(b *testing.B) {
	l1 := func(n int) vertexLMO {
		p, err := lmo.NewL1Ball(n, 10)
		if err != nil {
			panic(err)
		}
		return p
	}
	sparse := func(n int, density float64) func(b *testing.B) *LeastSquares {
		return func(b *testing.B) *LeastSquares {
			f, err := RandomLeastSquares(n, n, density, 1)
			mustOK(b, err)
			return f
		}
	}
	settings := []struct {
		name string
		f    func(b *testing.B) *LeastSquares
		poly func(n int) vertexLMO
	}{
		{"dense-l1-1000x3000", func(b *testing.B) *LeastSquares { return gaussianLeastSquares(b, 1000, 3000, 10, 1) }, l1},
		{"sparse-l1-2500-d0.008", sparse(2500, 0.008), l1},
		{"sparse-l1-32768-d20/n", sparse(32768, 20.0/32768), l1},
	}
	for _, st := range settings {
		for _, reuse := range []bool{true, false} {
			name := st.name + "/reuse"
			if !reuse {
				name = st.name + "/noreuse"
			}
			b.Run(name, func(b *testing.B) {
				f := st.f(b)
				f.setup()
				f.k.noReuse = !reuse
				c := newCGRun(b, f, st.poly(f.Dim()))
				rows, cols := f.a.Dims()
				u, r, t := randVec(testRand(3), cols, 0, 1), randVec(testRand(4), rows, -1, 1), make([]float64, cols)
				au := make([]float64, rows)
				var ref func()
				if a, ok := f.a.(*Dense); ok {
					ref = func() {
						blasImpl.Dgemv(blas.NoTrans, rows, cols, 1, a.Data, cols, u, 1, 0, au, 1)
						blasImpl.Dgemv(blas.Trans, rows, cols, 1, a.Data, cols, r, 1, 0, t, 1)
					}
				} else {
					csr, csc := f.a.(*CSR), f.k.tr
					ref = func() {
						csr.MulVec(au, u)
						csc.MulTransVec(t, r)
					}
				}
				calls := 0
				step := func() { calls++; c.step() }
				c.moves = 0
				pair(b, "iter", "2products", step, ref)
				b.ReportMetric(float64(c.moves)/float64(calls), "moves/iter")
			})
		}
	}
}

// lazyRun is the cache-hit iteration of lazy CG as the root package's
// BenchmarkLazyIterationLeastSquares writes it out: weak separation with
// Φ = 1e-9 and K = 1.1 over a Birkhoff polytope whose cache holds vertices
// for random directions, d = y − x, LineMinimize, x += γd, FuncGrad.
type lazyRun struct {
	f           *LeastSquares
	sep         *lazycg.CachedSeparator
	x, y, d, g  []float64
	hits, calls int
}

// newLazyRun returns the run over the Birkhoff polytope of size×size
// matrices with a random least-squares objective of the given density and
// cached vertices in the cache.
func newLazyRun(tb testing.TB, size int, density float64, cached int) *lazyRun {
	poly, err := lmo.NewBirkhoff(size)
	mustOK(tb, err)
	n := poly.Dim()
	f, err := RandomLeastSquares(n, n, density, 1)
	mustOK(tb, err)
	r := &lazyRun{f: f, sep: lazycg.NewCachedSeparator(poly, lazycg.CachePolicy{}),
		x: make([]float64, n), y: make([]float64, n), d: make([]float64, n), g: make([]float64, n)}
	rng := testRand(1)
	c := make([]float64, n)
	for range cached {
		for i := range c {
			c[i] = rng.NormFloat64()
		}
		poly.Minimize(context.Background(), r.y, c)
		r.sep.Cache.Add(r.y)
	}
	poly.Vertex(r.x)
	f.FuncGrad(r.g, r.x)
	return r
}

func (r *lazyRun) step() {
	r.calls++
	ans, err := r.sep.Separate(context.Background(), r.y, r.g, r.x, 1e-9, 1.1)
	if err != nil {
		panic(err)
	}
	if ans.CacheHit {
		r.hits++
	}
	lazycgSub(r.d, r.y, r.x)
	gamma := r.f.LineMinimize(r.x, r.d, r.g, 1)
	axpy(r.x, gamma, r.d)
	r.f.FuncGrad(r.g, r.x)
}

// BenchmarkLazyCacheHitIteration is the cache-hit iteration of lazy CG of
// the root package's BenchmarkLazyIterationLeastSquares (Birkhoff polytope
// of 50×50 matrices, sparse A of density 0.004, 200 cached vertices, weak
// separation with Φ = 1e-9 and K = 1.1: gradient, cache scan, exact line
// search, update) next to a bare gradient evaluation. "fresh" evaluates
// ∇f at points whose A·x is not known (two products: A·x and Aᵀr),
// "known" at the point of the previous evaluation (one product, Aᵀr).
func BenchmarkLazyCacheHitIteration(b *testing.B) {
	for _, kind := range []string{"fresh", "known"} {
		b.Run("vs-"+kind, func(b *testing.B) {
			lz := newLazyRun(b, 50, 0.004, 200)
			n := lz.f.Dim()
			// A second objective for the reference gradients, at two
			// alternating points.
			ref, err := NewLeastSquares(lz.f.A(), lz.f.B())
			mustOK(b, err)
			rng := testRand(5)
			p0, p1, gr := randVec(rng, n, 0, 0.1), randVec(rng, n, 0, 0.1), make([]float64, n)
			ref.FuncGrad(gr, p0)
			turn := 0
			grad := func() { ref.FuncGrad(gr, p0) }
			if kind == "fresh" {
				grad = func() {
					turn ^= 1
					if turn == 0 {
						ref.FuncGrad(gr, p0)
					} else {
						ref.FuncGrad(gr, p1)
					}
				}
			}
			lz.hits, lz.calls = 0, 0
			pair(b, "lazy", "grad", lz.step, grad)
			b.ReportMetric(float64(lz.hits)/float64(lz.calls), "hit-rate")
		})
	}
}

// BenchmarkDenseKernels compares the products of a 1000×3000 row-major
// matrix pairwise (see pair): gonum's Dgemv against the single-accumulator
// loops used before (naive), and the column route for a vector with 1 and
// with 187 (= n/16, the largest support LeastSquares sends there) nonzeros
// against a full Dgemv.
func BenchmarkDenseKernels(b *testing.B) {
	f := gaussianLeastSquares(b, 1000, 3000, 10, 1)
	a := f.a.(*Dense)
	rng := testRand(2)
	x, y := randVec(rng, a.Cols, -1, 1), randVec(rng, a.Rows, -1, 1)
	ax, aty := make([]float64, a.Rows), make([]float64, a.Cols)
	b.Run("MulVec", func(b *testing.B) {
		pair(b, "dgemv", "naive", func() { a.MulVec(ax, x) }, func() { naiveMulVec(ax, a, x) })
	})
	b.Run("MulTransVec", func(b *testing.B) {
		pair(b, "dgemv", "naive", func() { a.MulTransVec(aty, y) }, func() { naiveMulTransVec(aty, a, y) })
	})
	for _, k := range []int{1, a.Cols / 16} {
		idx, val := make([]int, k), randVec(rng, k, -1, 1)
		for i := range idx {
			idx[i] = i * (a.Cols / k)
		}
		b.Run(fmt.Sprintf("MulSparseVec-%d", k), func(b *testing.B) {
			pair(b, "sparse", "dgemv", func() { a.MulSparseVec(ax, idx, val) }, func() { a.MulVec(ax, x) })
		})
	}
}

// BenchmarkSparseKernels compares the products of random square sparse
// matrices (the paper's quadratic) in CSC and CSR form pairwise (see pair):
// A·x and Aᵀ·y both ways, and the column route for a vector with 50
// nonzeros (a 50×50 permutation matrix) against a full A·x.
func BenchmarkSparseKernels(b *testing.B) {
	for _, c := range []struct {
		n       int
		density float64
	}{{2500, 0.008}, {32768, 20.0 / 32768}} {
		f, err := RandomLeastSquares(c.n, c.n, c.density, 1)
		mustOK(b, err)
		csr := f.a.(*CSR)
		csc := csr.CSC()
		rng := testRand(2)
		x, y, dst := randVec(rng, c.n, -1, 1), randVec(rng, c.n, -1, 1), make([]float64, c.n)
		idx, val := make([]int, 50), make([]float64, 50)
		for i := range idx {
			idx[i], val[i] = i*(c.n/50), 1
		}
		name := fmt.Sprintf("n%d-nnz%d", c.n, csr.NNZ())
		b.Run(name+"/MulVec", func(b *testing.B) {
			pair(b, "csc", "csr", func() { csc.MulVec(dst, x) }, func() { csr.MulVec(dst, x) })
		})
		b.Run(name+"/MulTransVec", func(b *testing.B) {
			pair(b, "csc", "csr", func() { csc.MulTransVec(dst, y) }, func() { csr.MulTransVec(dst, y) })
		})
		b.Run(name+"/MulSparseVec-50", func(b *testing.B) {
			pair(b, "csc-sparse", "csr", func() { csc.MulSparseVec(dst, idx, val) }, func() { csr.MulVec(dst, x) })
		})
	}
}
