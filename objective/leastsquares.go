package objective

import (
	"errors"
	"fmt"
	"math"
	"unsafe"

	"github.com/lazycg/lazycg"
)

// LeastSquares is the objective f(x) = ‖Ax − b‖² for an m×n matrix A.
// Its gradient is ∇f(x) = 2Aᵀ(Ax − b). Evaluations use internal buffers
// and allocate nothing after the first call; a LeastSquares is not safe for
// concurrent use.
//
// # Reuse of A·x
//
// A LeastSquares remembers the point x_c of its last evaluation and A·x_c,
// so Func, Grad, FuncGrad, LineMinimize and LineCoeffs at the same point
// (the same bits in every entry, not necessarily the same slice) compute
// A·x once.
//
// LineMinimize(x, d, grad, gmax) computes A·d, returns the step γ and also
// remembers the point x + γd, rounded entry by entry as x[i] + γ·d[i] —
// the update x += γd by which lazycg's methods (Frank–Wolfe, lazy CG,
// away-step and pairwise steps) make their next iterate. When the next
// evaluation is at a point bitwise equal to it, A·x is updated as
// A·x_c + γ·A·d in O(m) instead of recomputed: a conditional gradient
// iteration with exact line search (line search, move, gradient) then
// costs the products A·d and Aᵀr instead of three. Any other point (a
// method that moves otherwise, say x = (1−γ)x + γv, or a caller's
// arbitrary x) fails the comparison and is evaluated with a full product:
// the cache can go unused, never wrong. After 100 consecutive updates A·x
// is recomputed, which bounds the accumulated rounding error.
//
// # Sparse matrices and directions
//
// For a *CSR matrix the first evaluation (or NewLeastSquares) makes a CSC
// copy of A, which doubles its memory: products Aᵀ·y then run as one
// gather per column, faster than the CSR's scatter, and the columns serve
// sparse directions.
//
// When A multiplies sparse vectors by columns (SparseMultiplier: *Dense,
// *CSC, and *CSR through its CSC copy), the line search computes A·d as
// A·w − A·x when w = x + d is sparse (Frank–Wolfe directions d = v − x
// toward a sparse vertex v: w = v), as A·x − A·w when w = x − d is sparse
// (away directions d = x − a), or from the columns of the nonzeros of d
// when d is sparse (pairwise directions v⁺ − v⁻ of 0/1 vertices). Each
// costs the nonzeros of the touched columns, not a full product.
// Directions with more than n/16 nonzeros in all three forms (n/64 for a
// *Dense A, whose columns are read at a stride) get a full product.
//
// # Reuse of the gradient (CSR matrices)
//
// For a *CSR matrix the gradient g = 2Aᵀ(Ax_c − b) of the remembered point
// is kept too, once a gradient has been computed there, and moved with
// the point when the next evaluation is at the point a line search (or
// StepToward) predicted along a direction whose A·d came from a sparse
// vector w: since ∇f is affine,
//
//   - d = w − x (Frank–Wolfe, StepToward): g' = (1−γ)g + γ∇f(w),
//   - d = x − w (away steps): g' = (1+γ)g − γ∇f(w),
//   - d = w sparse (pairwise steps): g' = g + 2γAᵀ(A·d),
//
// with ∇f(w) = 2Aᵀ(A·w) − 2Aᵀb, Aᵀb computed once, and Aᵀ(A·w) read from
// the rows of A in the support of A·w only (the rows of w's columns):
// O(n) plus the nonzeros of those rows instead of a full product Aᵀr.
// The update is taken when those rows hold at most a quarter of the
// nonzeros of A. The gradient is recomputed by a full product at a point
// other than the predicted one, with A·x after 100 consecutive updates,
// when away steps have amplified the rounding error of g by more than
// gradGrowthMax, or when the estimated rounding error of the updates
// exceeds gradErrTol·‖g‖∞ (terms that cancel, as near a minimizer). The
// update costs no allocation; the first gradient allocates its buffers
// (two vectors of n, two of m) and computes Aᵀb. Func and the value of
// FuncGrad still come from A·x.
type LeastSquares struct {
	a          Matrix
	b          []float64
	r, ad      []float64 // scratch: residual 2(Ax − b) and A·d of the last direction
	smoothness float64   // cached Smoothness, 0 until computed
	k          lsCache
}

// lsCache is the state behind the reuse of A·x (see LeastSquares).
type lsCache struct {
	ready bool
	// ax = A·xc when valid.
	ax, xc []float64
	valid  bool
	// xn = xc + gamma·d of the last line search, whose A·d is in ad;
	// pending says xn is set.
	xn      []float64
	gamma   float64
	pending bool
	updates int // consecutive O(m) updates of ax since its last product
	// cols multiplies sparse vectors (nil when A cannot); tr is the
	// matrix used for Aᵀ·y (A or its CSC copy).
	cols SparseMultiplier
	tr   Matrix
	// sparseMax is the largest support of a direction for the sparse route;
	// idx and val hold the support of d or of x + d.
	sparseMax      int
	idx            []int
	val            []float64
	sparseProducts int // line searches that took the sparse route (tests)
	// noReuse disables the cache and the sparse route (tests).
	noReuse bool
	// gramCost caches the cost of addGram (sumstep.go), 0 until computed.
	gramCost int
	// u and touched are the scratch of addGramSparse (u is kept zero);
	// atb is Aᵀb once computed (transB).
	u       []float64
	touched []int
	atb     []float64

	// Tracking of the gradient (CSR matrices; see LeastSquares). csr and
	// csc are A and its CSC copy (nil for other matrices); g =
	// 2Aᵀ(A·xc − b) when gValid, after gUpdates consecutive O(n + rows)
	// updates that multiplied its rounding error by at most gGrowth.
	csr      *CSR
	csc      *CSC
	g        []float64
	gValid   bool
	gUpdates int
	gGrowth  float64
	// gNorm = ‖g‖∞, atbNorm = ‖Aᵀb‖∞, and gErr estimates the rounding
	// error the updates of g have added (in ‖·‖∞).
	gNorm, atbNorm, gErr float64
	// The sparse vector behind the A·d of the pending step: w = x +
	// stepSign·d (stepSign ±1) or d (stepSign 0) with the stepNZ nonzeros
	// idx[:stepNZ], val[:stepNZ]; stepNZ < 0 when A·d came otherwise.
	stepSign float64
	stepNZ   int
	// transProducts counts the full products Aᵀr of gradients (tests).
	transProducts int
	// noGradTrack disables the tracking of the gradient only (tests and
	// benchmarks; noReuse disables it too).
	noGradTrack bool
}

// gradGrowthMax bounds the factor by which the consecutive updates of the
// remembered gradient may have multiplied its rounding error: an away
// step of length γ multiplies it by 1 + γ (a Frank–Wolfe step by 1 − γ,
// a pairwise step by 1).
const gradGrowthMax = 64

// gradErrTol is the largest estimated rounding error of the updates of
// the remembered gradient, relative to its ‖·‖∞, beyond which it is
// recomputed: an update whose terms cancel (a gradient much smaller than
// those it was combined from, as near a minimizer) triggers a full
// product, which computes a gradient that vanishes exactly when the
// residual does.
const gradErrTol = 1e-12

// setSparseMax sets the largest support of a direction for the sparse
// route and sizes the support buffers.
func (k *lsCache) setSparseMax(limit int) {
	k.sparseMax = limit
	k.idx, k.val = make([]int, limit), make([]float64, limit)
}

// refreshEvery is the number of consecutive O(m) updates of A·x after
// which it is recomputed by a full product.
const refreshEvery = 100

var (
	_ lazycg.Objective     = (*LeastSquares)(nil)
	_ lazycg.FuncGrader    = (*LeastSquares)(nil)
	_ lazycg.LineMinimizer = (*LeastSquares)(nil)
	_ QuadraticLine        = (*LeastSquares)(nil)
)

// NewLeastSquares returns f(x) = ‖Ax − b‖². A is kept by reference and must
// not change afterwards; b is copied. A *CSR, *CSC or *Dense matrix is
// validated first (see CSR.Validate), and a *CSR gets its CSC copy (see
// LeastSquares). It fails on a nil matrix, more than lazycg.MaxDim rows or
// columns, negative dimensions, a length of b other than the number of
// rows of A, or non-finite entries of b.
func NewLeastSquares(a Matrix, b []float64) (*LeastSquares, error) {
	if a == nil {
		return nil, errors.New("objective: least squares: nil matrix")
	}
	if err := lazycg.CheckNotNil("the matrix", a); err != nil {
		return nil, fmt.Errorf("objective: least squares: %w", err)
	}
	if v, ok := a.(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			return nil, fmt.Errorf("objective: least squares: %w", inner(err))
		}
	}
	rows, cols := a.Dims()
	if rows < 0 || cols < 0 {
		return nil, fmt.Errorf("objective: least squares: negative dimensions %d×%d", rows, cols)
	}
	if rows > lazycg.MaxDim || cols > lazycg.MaxDim {
		return nil, fmt.Errorf("objective: least squares: %d×%d matrix exceeds the dimension limit %d", rows, cols, lazycg.MaxDim)
	}
	if err := checkVec("b", b, rows); err != nil {
		return nil, fmt.Errorf("objective: least squares: %w", err)
	}
	f := &LeastSquares{a: a, b: append([]float64(nil), b...)}
	f.setup()
	return f, nil
}

// setup allocates the buffers (once; RandomLeastSquares builds its value
// without them).
func (f *LeastSquares) setup() {
	if f.k.ready {
		return
	}
	rows, cols := f.a.Dims()
	if len(f.r) != rows {
		f.r = make([]float64, rows)
	}
	if len(f.ad) != rows {
		f.ad = make([]float64, rows)
	}
	k := &f.k
	k.ax = make([]float64, rows)
	k.xc = make([]float64, cols)
	k.xn = make([]float64, cols)
	k.setSparseMax(cols / 16)
	k.tr = f.a
	k.stepNZ = -1
	switch a := f.a.(type) {
	case *CSR:
		// Aᵀ·r as one gather per column beats the CSR's scatter (see
		// BenchmarkSparseKernels), and the columns serve sparse directions.
		c := a.CSC()
		k.cols, k.tr = c, c
		k.csr, k.csc = a, c
	case *Dense:
		// Columns of a row-major matrix are read at a stride: 187 of 3000
		// columns cost 0.75 of a full product (BenchmarkDenseKernels).
		k.cols = a
		k.setSparseMax(cols / 64)
	case SparseMultiplier:
		k.cols = a
	}
	k.ready = true
}

// Dim returns the number of columns of A.
func (f *LeastSquares) Dim() int { _, n := f.a.Dims(); return n }

// Rows returns the number of rows of A.
func (f *LeastSquares) Rows() int { return len(f.b) }

// A returns the matrix A (shared, do not modify).
func (f *LeastSquares) A() Matrix { return f.a }

// B returns the vector b (shared, do not modify).
func (f *LeastSquares) B() []float64 { return f.b }

// sync makes f.k.ax = A·x: kept when x is the remembered point, updated in
// O(m) when x is the point the last line search predicted, recomputed
// otherwise.
func (f *LeastSquares) sync(x []float64) {
	f.setup()
	k := &f.k
	if !k.noReuse {
		// After a line search the predicted point is the likely one.
		if k.pending && k.updates < refreshEvery && sameVec(x, k.xn) {
			k.xc, k.xn = k.xn, k.xc
			k.pending = false
			k.updates++
			axpy(k.ax, k.gamma, f.ad)
			f.moveGrad()
			return
		}
		if k.valid && sameVec(x, k.xc) {
			return
		}
	}
	f.a.MulVec(k.ax, x)
	copy(k.xc, x)
	k.valid, k.pending, k.updates = true, false, 0
	k.gValid = false
}

// moveGrad moves the remembered gradient along the step sync just took
// (xc = old xc + γd): by the update of LeastSquares when the step's A·d
// came from a sparse vector and the update is cheap and accurate enough,
// else it forgets the gradient.
func (f *LeastSquares) moveGrad() {
	k := &f.k
	if !k.gValid {
		return
	}
	k.gValid = false
	// (gUpdates ≤ updates: A·x is refreshed first, and g with it.)
	if k.stepNZ < 0 || k.noGradTrack || k.gUpdates >= refreshEvery {
		return
	}
	s, gamma := k.stepSign, k.gamma
	growth := k.gGrowth
	if s != 0 {
		growth *= max(1, math.Abs(1-s*gamma))
	}
	if !(growth <= gradGrowthMax) {
		return
	}
	if !f.gatherSparse(k.idx[:k.stepNZ], k.val[:k.stepNZ], len(k.csr.Val)/4) {
		return
	}
	w, c, scale := 2*gamma, 1.0, k.gNorm
	if s != 0 {
		// g' = (1 − sγ)g + sγ(2Aᵀ(A·w) − 2Aᵀb).
		c = 1 - s*gamma
		scal(c, k.g)
		axpy(k.g, -2*s*gamma, k.atb)
		w *= s
		scale = math.Abs(c)*k.gNorm + 2*gamma*k.atbNorm
	}
	f.scatterTouched(k.g, w)
	// The error of g' is that of cg plus a few roundings of the terms,
	// which are bounded by ‖cg‖, ‖2γAᵀb‖ and (their sum with) ‖g'‖.
	norm := maxAbs(k.g)
	errEst := math.Abs(c)*k.gErr + 4*0x1p-53*(scale+norm)
	if !(norm <= math.MaxFloat64) || !(errEst <= gradErrTol*norm) {
		return
	}
	k.gValid, k.gUpdates, k.gGrowth = true, k.gUpdates+1, growth
	k.gNorm, k.gErr = norm, errEst
}

// maxAbs returns ‖x‖∞ (NaN when an entry is NaN). It compares the bits
// of the magnitudes as integers, in the order of the magnitudes (NaNs
// above +Inf), in four lanes: several times faster than a loop of the
// builtin max on floats.
func maxAbs(x []float64) float64 {
	const mag = 1<<63 - 1
	var m0, m1, m2, m3 uint64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		m0 = max(m0, math.Float64bits(x[i])&mag)
		m1 = max(m1, math.Float64bits(x[i+1])&mag)
		m2 = max(m2, math.Float64bits(x[i+2])&mag)
		m3 = max(m3, math.Float64bits(x[i+3])&mag)
	}
	for ; i < len(x); i++ {
		m0 = max(m0, math.Float64bits(x[i])&mag)
	}
	return math.Float64frombits(max(m0, m1, m2, m3))
}

// trackGrad reports whether the gradient at the synced point is to be
// remembered, and allocates the buffers and Aᵀb the first time.
func (f *LeastSquares) trackGrad() bool {
	k := &f.k
	if k.csr == nil || k.noReuse || k.noGradTrack || !k.valid {
		return false
	}
	if k.g == nil {
		rows, cols := k.csr.Dims()
		k.g = make([]float64, cols)
		if len(k.u) != rows {
			k.u = make([]float64, rows)
		}
		if cap(k.touched) < rows {
			k.touched = make([]int, 0, rows)
		}
		f.transB()
		k.atbNorm = maxAbs(k.atb)
	}
	return true
}

// gatherSparse stores A·v in k.u for the vector v with the nonzeros val
// at idx (from the columns of the CSC copy) and the rows it touches in
// k.touched, and reports true, unless those rows hold more than limit
// nonzeros of A: then it leaves k.u zero and reports false.
func (f *LeastSquares) gatherSparse(idx []int, val []float64, limit int) bool {
	k := &f.k
	a, c := k.csr, k.csc
	u := k.u
	k.touched = k.touched[:0]
	work := 0
	for j, col := range idx {
		vj := val[j]
		for p := c.ColPtr[col]; p < c.ColPtr[col+1]; p++ {
			r := c.RowIdx[p]
			if u[r] == 0 {
				k.touched = append(k.touched, r)
				work += a.RowPtr[r+1] - a.RowPtr[r]
			}
			u[r] += c.Val[p] * vj
		}
		if work > limit {
			for _, r := range k.touched {
				u[r] = 0
			}
			return false
		}
	}
	return true
}

// scatterTouched adds w·Aᵀu to acc for the u = k.u of gatherSparse, from
// the rows of A in k.touched, and leaves k.u zero.
func (f *LeastSquares) scatterTouched(acc []float64, w float64) {
	k := &f.k
	a, u := k.csr, k.u
	for _, r := range k.touched {
		ur := u[r]
		if ur == 0 {
			continue // a duplicate: the row was done
		}
		u[r] = 0
		wu := w * ur
		lo, hi := a.RowPtr[r], a.RowPtr[r+1]
		cols, vals := a.ColIdx[lo:hi], a.Val[lo:hi]
		vals = vals[:len(cols)]
		for p, j := range cols {
			acc[j] += wu * vals[p]
		}
	}
}

// sameVec reports whether a and b hold the same bits (so −0 differs from
// +0), comparing their memory as bytes: the runtime's vectorized
// comparison is several times faster than a loop over floats.
func sameVec(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 {
		return true
	}
	ab := unsafe.Slice((*byte)(unsafe.Pointer(&a[0])), 8*len(a))
	bb := unsafe.Slice((*byte)(unsafe.Pointer(&b[0])), 8*len(b))
	return string(ab) == string(bb)
}

// Func returns ‖Ax − b‖².
func (f *LeastSquares) Func(x []float64) float64 {
	f.sync(x)
	ax, b := f.k.ax, f.b[:len(f.k.ax)]
	s := 0.0
	for i, v := range ax {
		r := v - b[i]
		s += r * r
	}
	return s
}

// grad stores 2Aᵀ(Ax − b) in dst for the synced x and returns f(x): the
// remembered gradient when it is that of x (see moveGrad), else a full
// product Aᵀr, which is remembered for a *CSR matrix. The
// residual is stored doubled: scaling by 2 is exact, so f = ‖2r‖²/4 equals
// ‖r‖² (up to the rounding of subnormal squares) unless ‖2r‖² overflows,
// when ‖r‖² is summed instead.
func (f *LeastSquares) grad(dst []float64) float64 {
	// r = 2·Ax + (−2)·b rounds as 2(Ax − b), in three vectorized passes.
	r := f.r
	copy(r, f.b)
	scal(-2, r)
	axpy(r, 2, f.k.ax)
	if k := &f.k; k.gValid {
		copy(dst, k.g)
	} else {
		k.transProducts++
		k.tr.MulTransVec(dst, r)
		if f.trackGrad() {
			copy(k.g, dst)
			k.gValid, k.gUpdates, k.gGrowth = true, 0, 1
			k.gNorm, k.gErr = maxAbs(dst), 0
		}
	}
	v := dot(r, r) / 4
	if math.IsInf(v, 1) {
		// ‖2r‖² overflows for f(x) > MaxFloat64/4, where ‖r‖² may not:
		// sum the halves (exact), as Func does.
		v = 0
		for _, ri := range r {
			h := ri / 2
			v += h * h
		}
	}
	return v
}

// Grad stores 2Aᵀ(Ax − b) in dst.
func (f *LeastSquares) Grad(dst, x []float64) {
	f.sync(x)
	f.grad(dst)
}

// FuncGrad stores ∇f(x) in dst and returns f(x), computing A·x at most
// once.
func (f *LeastSquares) FuncGrad(dst, x []float64) float64 {
	f.sync(x)
	return f.grad(dst)
}

// mulDir stores A·d in f.ad for the synced x and returns ‖A·d‖². It uses
// the columns of the nonzeros of w = x + d when w is sparse (then
// A·d = A·w − A·x; Frank–Wolfe directions d = v − x toward a sparse vertex
// v), of w = x − d when that is sparse (A·d = A·x − A·w; away directions
// d = x − a from a sparse vertex a), of d when d is sparse (pairwise
// directions), and a full product otherwise.
func (f *LeastSquares) mulDir(x, d []float64) float64 {
	k := &f.k
	// f.ad is overwritten: an announced point (LineMinimize, StepToward)
	// whose update needs the A·d of its own direction is forgotten.
	k.pending = false
	k.stepNZ = -1
	if !k.noReuse && k.sparseMax > 0 && k.cols != nil {
		for _, sign := range [...]float64{1, -1, 0} {
			nz := support(k.idx, k.val, x, d, sign)
			if nz < 0 {
				continue
			}
			k.stepSign, k.stepNZ = sign, nz
			k.sparseProducts++
			k.cols.MulSparseVec(f.ad, k.idx[:nz], k.val[:nz])
			if sign != 0 {
				axpy(f.ad, -1, k.ax) // A·w − A·x = sign·A·d
				if sign < 0 {
					scal(-1, f.ad)
				}
			}
			return dot(f.ad, f.ad)
		}
	}
	f.a.MulVec(f.ad, d)
	return dot(f.ad, f.ad)
}

// support stores the nonzeros of w = x + sign·d (sign ±1) or of d (sign
// 0) at the positions idx with values val and returns their number, or −1
// when there are more than len(idx). An entry x_i ± d_i is zero exactly
// when d_i = ∓x_i (a vertex entry 0); a nonzero entry carries the one
// rounding of the sum.
func support(idx []int, val []float64, x, d []float64, sign float64) int {
	k := 0
	if sign == 0 {
		for i, di := range d {
			if di != 0 {
				if k == len(idx) {
					return -1
				}
				idx[k], val[k] = i, di
				k++
			}
		}
		return k
	}
	// ±1·d_i is exact. Blocks of four entries that are all ±0 (the
	// common case) are skipped with one branch on their or-ed bits.
	x = x[:len(d)]
	i := 0
	for ; i+4 <= len(d); i += 4 {
		w := [4]float64{x[i] + sign*d[i], x[i+1] + sign*d[i+1], x[i+2] + sign*d[i+2], x[i+3] + sign*d[i+3]}
		if (math.Float64bits(w[0])|math.Float64bits(w[1])|math.Float64bits(w[2])|math.Float64bits(w[3]))<<1 == 0 {
			continue
		}
		for j, wj := range w {
			if wj != 0 {
				if k == len(idx) {
					return -1
				}
				idx[k], val[k] = i+j, wj
				k++
			}
		}
	}
	for ; i < len(d); i++ {
		if wi := x[i] + sign*d[i]; wi != 0 {
			if k == len(idx) {
				return -1
			}
			idx[k], val[k] = i, wi
			k++
		}
	}
	return k
}

// residualDot returns ⟨Ax − b, f.ad⟩ for the synced x.
func (f *LeastSquares) residualDot() float64 {
	ad := f.ad
	ax, b := f.k.ax[:len(ad)], f.b[:len(ad)]
	s := 0.0
	for i, v := range ad {
		s += (ax[i] - b[i]) * v
	}
	return s
}

// LineCoeffs returns slope = 2⟨r, Ad⟩ and curv = ‖Ad‖² with r = Ax − b, so
// that f(x + γd) = f(x) + slope·γ + curv·γ². It computes A·x unless x is
// the remembered point, and A·d as LineMinimize does.
func (f *LeastSquares) LineCoeffs(x, d []float64) (slope, curv float64) {
	f.sync(x)
	curv = f.mulDir(x, d)
	return 2 * f.residualDot(), curv
}

// LineMinimize returns the exact minimizer
// γ* = clamp(−⟨∇f(x), d⟩/(2‖Ad‖²), 0, gmax) of f(x + γd) over [0, gmax].
// grad must be ∇f(x) (as the lazycg.LineMinimizer contract says); with a
// nil grad the slope is computed from the residual. It computes A·d (from
// columns when d or x + d is sparse) and A·x unless x is the remembered
// point, and remembers x + γ*·d for the next evaluation (see LeastSquares).
func (f *LeastSquares) LineMinimize(x, d, grad []float64, gmax float64) float64 {
	if grad == nil || !f.k.noReuse {
		f.sync(x)
	}
	curv := f.mulDir(x, d)
	var slope, gd float64
	if grad == nil {
		slope = 2 * f.residualDot()
	} else {
		gd = dot(grad, d)
		slope = gd
	}
	var gamma float64
	if g, ok := f.scaledStep(x, slope, curv, grad != nil, gmax); ok {
		gamma = g
	} else {
		gamma = minimizeQuadratic(slope, curv, gd, gmax)
	}
	k := &f.k
	k.pending = false
	if gamma > 0 && !k.noReuse {
		// x[i] + γ·d[i] rounded as the methods' update x[i] += γ·d[i]
		// (a product and a sum, each rounded: Go does not fuse them into
		// an FMA on amd64, nor do gonum's kernels), so that the
		// comparison in sync is exact.
		copy(k.xn, x)
		axpy(k.xn, gamma, d)
		k.gamma, k.pending = gamma, true
	}
	return gamma
}

// scaledStep is the fallback of LineMinimize at x, after mulDir: when
// slope and curv fail coeffsReliable (sums that overflow, or underflow:
// entries beyond about 1e±150) it returns the minimizer computed from
// the residual A·x − b and A·d scaled by powers of two, and true. In the
// noReuse mode with a gradient A·x was not synced: it is computed then.
// It returns false when the coefficients are reliable, or an entry of
// A·x − b or A·d is not finite, or A·d = 0.
func (f *LeastSquares) scaledStep(x []float64, slope, curv float64, withGrad bool, gmax float64) (float64, bool) {
	if coeffsReliable(slope, curv, 1) {
		return 0, false
	}
	if withGrad && f.k.noReuse {
		f.sync(x) // a full product in this mode; f.ad is kept
	}
	return scaledLineMinimize(f.k.ax, f.ad, f.b, nil, nil, gmax)
}

// MoveToward sets x ← x + γ(v − x), entry by entry as x[i] + γ·(v[i] −
// x[i]), with entries smaller than 2⁻⁵⁰⁰ ≈ 3·10⁻¹⁵¹ in magnitude set to
// 0 (long online runs otherwise compute with subnormal numbers, slowly):
// the step of methods with prescribed step sizes (the online methods).
// StepToward predicts its result bit for bit.
func MoveToward(x []float64, gamma float64, v []float64) {
	v = v[:len(x)]
	for i, vi := range v {
		xi := x[i] + gamma*(vi-x[i])
		if math.Abs(xi) < tinyEntry {
			xi = 0
		}
		x[i] = xi
	}
}

// tinyEntry (2⁻⁵⁰⁰ ≈ 3·10⁻¹⁵¹) is the magnitude below which MoveToward
// sets an entry to 0. With the online methods' steps γ_t ≈ t^(−1/2), a
// coordinate that no vertex stepped toward raises shrinks by
// Π(1 − γ_s) ≈ exp(−2√t): after some 10⁵ rounds it is subnormal, and
// every product with a subnormal number takes a slow path of the
// processor (a 240×240 CSR product with 4,800 nonzeros: 4.5 µs with
// normal entries, 224 µs with subnormal ones, on this project's machines).
// Above 2⁻⁵⁰⁰ an entry's square is still normal; the entries dropped are
// far below the rounding error of any sum that also holds a term of order
// 10⁻¹³⁵ or larger.
const tinyEntry = 0x1p-500

// StepToward announces that x is about to become x + γ(v − x), computed
// by MoveToward, for a vertex v with few nonzeros: f then computes A·v
// from the columns of v (A·(v − x) = A·v − A·x), so that the next
// evaluation at the new point updates A·x in O(m) instead of a full
// product, as after LineMinimize. It does nothing unless x is the point
// of the last evaluation, v has at most a sixteenth of its entries
// nonzero and γ > 0; a point other than the announced one is evaluated
// in full as before.
func (f *LeastSquares) StepToward(x, v []float64, gamma float64) {
	if !(gamma > 0) || !f.stepReady(x) {
		return
	}
	k := &f.k
	k.stepNZ = -1 // idx and val are overwritten
	nz := support(k.idx, k.val, nil, v, 0)
	if nz < 0 {
		return
	}
	f.stepToward(x, v, gamma, k.idx[:nz], k.val[:nz])
}

// stepReady reports whether a step from x can be announced: x is the
// point of the last evaluation and the columns of A can be read.
func (f *LeastSquares) stepReady(x []float64) bool {
	f.setup()
	k := &f.k
	return !k.noReuse && k.cols != nil && k.valid && sameVec(x, k.xc)
}

// stepToward is StepToward for the synced x with the nonzeros of v given
// (idx, val).
func (f *LeastSquares) stepToward(x, v []float64, gamma float64, idx []int, val []float64) {
	k := &f.k
	k.sparseProducts++
	k.cols.MulSparseVec(f.ad, idx, val)
	axpy(f.ad, -1, k.ax) // A·(v − x)
	k.stepNZ = -1
	if len(idx) <= len(k.idx) {
		// The nonzeros of v for the update of the gradient (a Sum passes
		// its own buffers).
		copy(k.idx, idx)
		copy(k.val, val)
		k.stepSign, k.stepNZ = 1, len(idx)
	}
	copy(k.xn, x)
	MoveToward(k.xn, gamma, v)
	k.gamma, k.pending = gamma, true
}

// Smoothness returns an estimate of the smoothness constant L = 2‖A‖₂² of f
// (the largest eigenvalue of its Hessian 2AᵀA), computed once by
// SpectralNormSq and cached. See SpectralNormSq for how safe an upper bound
// it is. The first call allocates.
func (f *LeastSquares) Smoothness() float64 {
	if f.smoothness == 0 {
		f.smoothness = 2 * SpectralNormSq(f.a)
	}
	return f.smoothness
}

// Curvature returns L·diam², where L = Smoothness() and diam is the
// Euclidean diameter of the feasible region: the upper bound on the
// curvature constant C_f used in the step sizes and convergence bounds of
// Frank–Wolfe methods.
func (f *LeastSquares) Curvature(diam float64) float64 {
	return f.Smoothness() * diam * diam
}
