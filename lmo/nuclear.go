package lmo

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/lazycg/lazycg"
)

// NuclearBall is the nuclear-norm ball {X ∈ R^{m×n} : ‖X‖_* ≤ R} of m×n
// matrices flattened row-major (entry (i, j) at index i·n + j). It is not a
// polytope: its extreme points are the rank-one matrices R·u·vᵀ with unit
// vectors u, v. For matrix completion, where only the entries in a set Ω
// matter, NuclearBallOn solves the same problem in |Ω| coordinates.
//
// The minimizer of ⟨C, X⟩ over the ball is −R·u₁·v₁ᵀ, where (u₁, v₁) is a
// top singular pair of C, and the minimum is −R·σ₁(C). Minimize computes the
// pair iteratively by Golub–Kahan–Lanczos bidiagonalization with full
// reorthogonalization, restarted from the best Ritz vector after at most 32
// steps. The start vector is a fixed pseudo-random vector, so results are
// deterministic. After each restart cycle the Ritz pair (u, v), with
// u = Cv/σ and σ = ‖Cv‖, is checked by its explicit residual
// ‖Cᵀu − σ·v‖ ≤ Tol·σ. A residual that cannot pass it stops the
// iteration too, at the solver's precision: after a restart, when the
// residual is at most 16·2⁻⁵³·‖C‖_F (its rounding level), or at most
// 1024·2⁻⁵³·‖C‖_F and not decreased over the cycle (a Lanczos breakdown
// on an invariant subspace, rounding noise), so that Tol = 0 with MaxIter = math.MaxInt ends (it
// restarted until ctx ended).
//
// Result semantics. Value is always c·dst computed from the returned
// rank-one matrix, and −Value/R = uᵀCv ≤ σ₁(C) for the unit vectors u, v
// returned. Bound is proven: when min(m, n) ≤ CertifyMaxSide (default 256)
// each call that was not stopped early proves an upper bound on σ₁(C) by a
// Cholesky certificate: with G the Gram matrix CCᵀ or CᵀC of the shorter
// side s (formed after scaling C by a power of two), the floating-point
// Cholesky factorization of t·I − G for a shift t just above σ² runs to
// completion, which with the rounding error bounds of the Gram matrix and
// of the factorization (Higham, Accuracy and Stability of Numerical
// Algorithms, Thm. 10.3) proves σ₁(C)² ≤ t plus those errors. So Bound is
// below Value by about Tol·σ₁ plus s²·2⁻⁵³·‖C‖_F²/σ₁, and a result is never
// reported as exact (unless C = 0): Reason is lazycg.StopGap when the
// residual test passed or the precision was reached (then Bound is below
// Value by about the residual reached instead of Tol·σ₁; the certificate
// is the same), lazycg.StopTimeLimit when MaxIter ended the
// iteration or ctx's deadline passed (no error: a deadline seen after a
// restart cycle returns the cycle's pair; one already passed when the
// first cycle would start returns the vertex −R·sign(c_ij)·e_i·e_jᵀ of an
// entry c_ij of C of largest magnitude, with the norm bound below and no
// certificate; a canceled ctx is an error). A Lanczos run that converged
// to a singular value other than the largest (possible only for a start
// vector almost orthogonal to the top right singular vector) cannot
// produce a wrong Bound: the certificate then fails at shifts near σ² and
// Bound comes from a bisection of t up to ‖C‖_F², which shows as a large
// gap Value − Bound.
// The certificate costs O(s³/3) for the factorization (usually one) plus
// the Gram matrix, O(s²·max(m, n)) for a dense C and the sum of the squared
// numbers of nonzeros per row or column for a sparse one; s×s buffers are
// allocated on the first call.
//
// Above CertifyMaxSide (or when it is negative), a call whose residual test
// passes is reported as lazycg.Exact(Value), i.e. Bound = Value, without a
// proof (one that reached its precision instead, with residual res, gets
// Bound −R·(σ + res), rounded down, and lazycg.StopGap, by the same
// argument): the residual test proves that σ is within Tol·σ of some singular
// value of C (Wedin's theorem); that this is the largest one rests on the
// start vector having a component along v₁ that Lanczos amplifies, which a
// pseudo-random start has except in degenerate cases (and, for a uniformly
// random start, Kuczyński and Woźniakowski's bound makes a miss by a factor
// 1 − ε after k steps less likely than 1.65·√n·e^{−√ε·(2k−1)}). Such bounds
// are numerically certified, not proven in the sense of the other oracles
// of this package. When MaxIter steps do not reach the tolerance,
// MinimizeUntil stops early, or the deadline passed before the first
// cycle, Bound is at least the rigorous but weaker
// −R·min(‖C‖_F, √(‖C‖₁‖C‖_∞)), using σ₁ ≤ ‖C‖_F and σ₁ ≤ √(‖C‖₁‖C‖_∞)
// (maximum absolute column and row sums), rounded up by a bound on the
// rounding error of their computation (nuclearRoundUp).
//
// Extreme costs. Costs near MaxFloat64 are iterated on scaled by a power
// of two and the value c·dst is summed safely; when that value lies
// beyond the range of float64 (R·σ₁ above MaxFloat64) the call returns an
// error. Costs whose entries are all subnormal are handled too (with the
// accuracy that their few significant bits allow; the Bound stays
// proven).
//
// Sparse costs. Minimize finds the nonzeros of c itself: when at most a
// third of the entries are nonzero (matrix completion gradients live on
// the observed entries), the products with C cost O(nnz) instead of O(mn),
// after one O(mn) scan of c per call. SetSupport declares the support in
// advance, so that the scan covers only the support. Writing the dense
// answer dst still costs O(mn); NuclearBallOn avoids that too.
type NuclearBall struct {
	// Tol is the relative residual tolerance of the singular pair
	// (default 1e-9). It must be finite and ≥ 0.
	Tol float64
	// MaxIter bounds the number of Lanczos steps per call, each one product
	// with C and one with Cᵀ, counting one verification step per restart
	// cycle; the first cycle always runs at least one step and its
	// verification (default 1000). It must be ≥ 1.
	MaxIter int
	// CertifyMaxSide is the largest min(m, n) for which a call proves its
	// Bound by a Cholesky certificate (default 256; negative: never; see
	// above).
	CertifyMaxSide int

	m, n int
	r    float64

	hasSupport bool
	support    []int // sorted distinct flat indices (SetSupport)

	cost nuclearCost
	svd  lanczosSVD
}

// nuclearMaxBasis is the Lanczos basis size before a restart.
const nuclearMaxBasis = 32

// nuclearStallFloor is the multiple of 2⁻⁵³·‖C‖_F (of 2⁻⁵³·‖S‖ for
// Spectraplex) at or below which a residual that failed the Tol test is
// taken as the rounding level of the iteration: the solve stops there
// with its precision reached (see NuclearBall).
const nuclearStallFloor = 16

// nuclearStallCeil·nuclearStallFloor·2⁻⁵³·‖C‖_F is the largest residual at
// which a restart cycle that did not decrease it stops the solve: only
// near the rounding level, so that a Tol > 0 solve whose residual
// fluctuates on its way down (far above it: Tol·σ₁ ≥ Tol·‖C‖_F/√min(m, n))
// is never cut short.
const nuclearStallCeil = 64

var (
	_ lazycg.LMO          = (*NuclearBall)(nil)
	_ lazycg.EarlyStopper = (*NuclearBall)(nil)
)

// NewNuclearBall returns the nuclear-norm ball of radius R in the space of
// m×n matrices. m, n must be ≥ 1 with the dimension m·n at most
// lazycg.MaxDim, and radius finite and > 0.
func NewNuclearBall(m, n int, radius float64) (*NuclearBall, error) {
	if err := checkNuclearSize("nuclear ball", m, n, radius); err != nil {
		return nil, err
	}
	if m*n > lazycg.MaxDim {
		// No cost vector of m·n entries fits; the Lanczos buffers
		// (2·32·(m + n) floats) were allocated first, and 2^31−1 square
		// crashed the process (fatal out of memory) instead of an error.
		return nil, fmt.Errorf("lmo: nuclear ball: matrix size %d×%d: the dimension m·n exceeds the dimension limit lazycg.MaxDim = %d", m, n, lazycg.MaxDim)
	}
	b := &NuclearBall{Tol: 1e-9, MaxIter: 1000, m: m, n: n, r: radius}
	b.cost = nuclearCost{m: m, n: n, rowPtr: make([]int, m+1)}
	b.svd.init(m, n)
	return b, nil
}

// checkNuclearSize validates the shape and radius of a nuclear-norm ball.
func checkNuclearSize(name string, m, n int, radius float64) error {
	if m < 1 || n < 1 || m > math.MaxInt32 || n > math.MaxInt32 || m > math.MaxInt/n {
		return fmt.Errorf("lmo: %s: invalid matrix size %d×%d", name, m, n)
	}
	return basicCheckRadius(name, "radius", radius)
}

// Dim returns m·n.
func (b *NuclearBall) Dim() int { return b.m * b.n }

// Rows returns m.
func (b *NuclearBall) Rows() int { return b.m }

// Cols returns n.
func (b *NuclearBall) Cols() int { return b.n }

// Radius returns R.
func (b *NuclearBall) Radius() float64 { return b.r }

// Vertex writes the extreme point R·e_0·e_0ᵀ into dst.
func (b *NuclearBall) Vertex(dst []float64) {
	clear(dst[:b.m*b.n])
	dst[0] = b.r
}

// SetSupport declares that only the entries of c with flat indices in idx
// (row-major, in [0, m·n)) can be nonzero; entries of c outside the support
// are ignored by later calls of Minimize, which behaves as if they were 0.
// Duplicates are allowed. SetSupport(nil) returns to finding the nonzeros
// of each cost vector. It allocates and is meant to be called once, before
// the iterations; it is never needed, only cheaper than the scan of c.
func (b *NuclearBall) SetSupport(idx []int) error {
	if idx == nil {
		b.hasSupport = false
		b.support = b.support[:0]
		return nil
	}
	dim := b.m * b.n
	for k, f := range idx {
		if f < 0 || f >= dim {
			return fmt.Errorf("lmo: nuclear ball: support entry %d is index %d, outside [0, %d)", k, f, dim)
		}
	}
	b.support = slices.Compact(slices.Sorted(slices.Values(idx)))
	b.hasSupport = true
	return nil
}

// Minimize writes −R·u·vᵀ for an (approximate) top singular pair (u, v) of
// the matrix C held in c into dst; see the type documentation for the
// meaning of the result. It returns an error for invalid input, invalid Tol
// or MaxIter, a value c·dst beyond the range of float64, and when ctx is
// canceled (a deadline that has passed, before or during the call, gives a
// time-limited answer).
func (b *NuclearBall) Minimize(ctx context.Context, dst, c []float64) (lazycg.LinearResult, error) {
	return b.MinimizeUntil(ctx, dst, c, lazycg.StopRule{Improve: math.Inf(-1), Certify: math.Inf(1)})
}

// MinimizeUntil implements lazycg.EarlyStopper: the Lanczos iteration
// stops as soon as its current Ritz vector gives a vertex with
// c·dst < rule.Improve (Reason lazycg.StopImproving, with the rigorous
// norm bound as Bound). Certification is not early: a negative answer
// needs the converged pair (see the type documentation). When the Ritz
// value passed the target but the rounded c·dst did not pass Improve, the
// iteration is run to its end; the call then returns the better of the two
// vertices it found (the first one when a deadline cut the second run
// short) and the better of their bounds, and claims no improvement.
func (b *NuclearBall) MinimizeUntil(ctx context.Context, dst, c []float64, rule lazycg.StopRule) (lazycg.LinearResult, error) {
	const name = "nuclear ball"
	dim := b.m * b.n
	if len(c) != dim {
		return lazycg.LinearResult{}, fmt.Errorf("lmo: %s: cost vector has length %d, want %d", name, len(c), dim)
	}
	if len(dst) != dim {
		return lazycg.LinearResult{}, fmt.Errorf("lmo: %s: destination has length %d, want %d", name, len(dst), dim)
	}
	if err := b.load(c); err != nil {
		return lazycg.LinearResult{}, err
	}
	return b.svd.minimizeUntil(ctx, name, &b.cost, b.Tol, b.MaxIter, b.CertifyMaxSide, b.r, rule, func(sol svdSolution) (float64, error) {
		b.write(dst, sol)
		return b.value(c, dst)
	})
}

// minimizeUntil is the MinimizeUntil of NuclearBall and NuclearBallOn on
// the loaded cost a, after their input checks: it solves for the top pair
// with rule.Improve's target, emit writing the vertex −R·u·vᵀ (r = R) of a
// pair into the destination and returning its value. When σ passed the
// target but the value, rounded, did not pass Improve (Improve within
// rounding of −R·σ), there is no improvement to claim, and the solve is
// finished (see finish); otherwise the pair is certified.
func (e *lanczosSVD) minimizeUntil(ctx context.Context, name string, a *nuclearCost, tol float64, maxIter, maxSide int, r float64,
	rule lazycg.StopRule, emit func(svdSolution) (float64, error)) (lazycg.LinearResult, error) {
	sol, err := e.solve(ctx, name, a, tol, maxIter, improveSigma(rule.Improve, r))
	if err != nil {
		return lazycg.LinearResult{}, err
	}
	val, err := emit(sol)
	if err != nil {
		return lazycg.LinearResult{}, err
	}
	if sol.early && !(val < rule.Improve) {
		sol, val, err = e.finish(ctx, name, a, tol, maxIter, maxSide, sol, val, emit)
		if err != nil {
			return lazycg.LinearResult{}, err
		}
	} else {
		sol = e.certify(a, sol, maxSide)
	}
	return sol.result(val, r), nil
}

// write writes the vertex −R·u·vᵀ of the pair that solve left in b.svd
// (the fallback vertex when sol.sigma is 0) into dst.
func (b *NuclearBall) write(dst []float64, sol svdSolution) {
	if sol.sigma == 0 {
		b.Vertex(dst)
		return
	}
	for i, ui := range b.svd.u {
		row := dst[i*b.n : (i+1)*b.n]
		s := -b.r * ui
		for j, vj := range b.svd.v {
			row[j] = s * vj
		}
	}
}

// load checks c and stores C in b.cost: in compressed sparse rows when c
// is supported on at most a third of its entries (or on the declared
// support), dense otherwise.
func (b *NuclearBall) load(c []float64) error {
	a := &b.cost
	a.dense = nil
	a.col, a.val = a.col[:0], a.val[:0]
	if b.hasSupport {
		row := 0
		for _, f := range b.support {
			i := f / b.n
			for row < i {
				row++
				a.rowPtr[row] = len(a.col)
			}
			if x := c[f]; x != 0 {
				a.col = append(a.col, int32(f%b.n))
				a.val = append(a.val, x)
			}
		}
		for row < b.m {
			row++
			a.rowPtr[row] = len(a.col)
		}
		return a.check("nuclear ball")
	}
	nnz := 0
	for f, x := range c {
		if x != 0 {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("lmo: nuclear ball: cost entry %d (row %d, column %d) is %v, want a finite number", f, f/b.n, f%b.n, x)
			}
			nnz++
		}
	}
	if 3*nnz > len(c) {
		a.dense = c
		return nil
	}
	for i := 0; i < b.m; i++ {
		a.rowPtr[i] = len(a.col)
		for j, x := range c[i*b.n : (i+1)*b.n] {
			if x != 0 {
				a.col = append(a.col, int32(j))
				a.val = append(a.val, x)
			}
		}
	}
	a.rowPtr[b.m] = len(a.col)
	return nil
}

// value returns c·dst over the nonzeros of c when it is sparse (the
// other entries of c are 0, or ignored outside a declared support); where
// that sum overflows (costs near MaxFloat64), the sum with c scaled by a
// power of two, scaled back, and an error when c·dst itself lies beyond
// the range of float64 (as basicValue).
func (b *NuclearBall) value(c, dst []float64) (float64, error) {
	if b.cost.dense != nil {
		return basicValue("nuclear ball", c, dst)
	}
	// sum adds c_k·dst_k over the stored entries, c scaled by 2^−ec and
	// dst by 2^−ev (ec = ev = 0: as they are; see answerValue).
	sum := func(ec, ev int) float64 {
		mul := func(x, y float64) float64 { return x * y }
		if ec != 0 || ev != 0 {
			mul = func(x, y float64) float64 { return math.Ldexp(x, -ec) * math.Ldexp(y, -ev) }
		}
		s := 0.0
		if b.hasSupport {
			for _, f := range b.support {
				s += mul(c[f], dst[f])
			}
			return s
		}
		for i := 0; i < b.m; i++ {
			row := dst[i*b.n : (i+1)*b.n]
			for k := b.cost.rowPtr[i]; k < b.cost.rowPtr[i+1]; k++ {
				s += mul(b.cost.val[k], row[b.cost.col[k]])
			}
		}
		return s
	}
	s := sum(0, 0)
	if s-s == 0 {
		return s, nil
	}
	ea, eb := productExponents(basicMaxAbs(b.cost.val), basicMaxAbs(dst))
	if s = math.Ldexp(sum(ea, eb), ea+eb); s-s != 0 {
		return 0, fmt.Errorf("lmo: nuclear ball: the value c·v of the answer lies beyond the range of float64: rescale the costs or the set")
	}
	return s, nil
}

// improveSigma returns the σ above which the vertex −R·u·vᵀ of a pair with
// uᵀCv = σ has value below improve (−Inf: no early stop wanted).
func improveSigma(improve, r float64) float64 {
	if math.IsInf(improve, -1) || math.IsNaN(improve) {
		return math.Inf(1)
	}
	return -improve / r
}

// nuclearCost is an m×n cost matrix C as the Lanczos iteration sees it:
// dense row-major (dense != nil) or in compressed sparse rows (rowPtr,
// col, val).
type nuclearCost struct {
	m, n   int
	dense  []float64
	rowPtr []int
	col    []int32
	val    []float64
}

// check verifies that the stored entries are finite; name prefixes the
// error, which names the row and column of the offending entry.
func (a *nuclearCost) check(name string) error {
	vals := a.val
	if a.dense != nil {
		vals = a.dense
	}
	for k, x := range vals {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			i, j := a.position(k)
			return fmt.Errorf("lmo: %s: cost entry %d (row %d, column %d) is %v, want a finite number", name, i*a.n+j, i, j, x)
		}
	}
	return nil
}

// position returns the row and column of the k-th stored entry.
func (a *nuclearCost) position(k int) (int, int) {
	if a.dense != nil {
		return k / a.n, k % a.n
	}
	i, _ := slices.BinarySearch(a.rowPtr, k+1)
	return i - 1, int(a.col[k])
}

// norms returns ‖C‖_F and the rigorous upper bound
// min(‖C‖_F, √(‖C‖₁‖C‖_∞)) on σ₁(C), using rowAbs (length m) and colAbs
// (length n) as scratch for the absolute row and column sums.
func (a *nuclearCost) norms(rowAbs, colAbs []float64) (fro, upper float64) {
	clear(rowAbs)
	clear(colAbs)
	// Scaled sum of squares to avoid overflow for huge entries.
	scale, ssq := 0.0, 1.0
	add := func(i, j int, x float64) {
		if x == 0 {
			return
		}
		ax := math.Abs(x)
		rowAbs[i] += ax
		colAbs[j] += ax
		if scale < ax {
			ssq = 1 + ssq*(scale/ax)*(scale/ax)
			scale = ax
		} else {
			ssq += (ax / scale) * (ax / scale)
		}
	}
	if a.dense != nil {
		for f, x := range a.dense {
			add(f/a.n, f%a.n, x)
		}
	} else {
		for i := 0; i < a.m; i++ {
			for k := a.rowPtr[i]; k < a.rowPtr[i+1]; k++ {
				add(i, int(a.col[k]), a.val[k])
			}
		}
	}
	fro = scale * math.Sqrt(ssq)
	var maxCol, maxRow float64
	for _, s := range colAbs {
		maxCol = max(maxCol, s)
	}
	for _, s := range rowAbs {
		maxRow = max(maxRow, s)
	}
	return fro, min(fro, math.Sqrt(maxCol)*math.Sqrt(maxRow))
}

// stored returns the number of stored entries (m·n for a dense C).
func (a *nuclearCost) stored() int {
	if a.dense != nil {
		return len(a.dense)
	}
	return len(a.val)
}

// nuclearRoundUp turns the bound upper = min(‖C‖_F, √(‖C‖₁‖C‖_∞)) that
// norms computed, rounded to nearest, over k stored entries into a proven
// upper bound on that minimum. Either norm has a relative rounding error
// below (2k + 4)·u (a sum of squares or of absolute values over at most k
// terms, rescalings included, then square roots and a product), plus half
// a unit in the last place of a final product that lands in the subnormal
// range (absolute, not relative): the first is covered by the factor, the
// second and the rounding of that product by two steps up. Without it a
// flat rank-one cost (all entries equal, where σ₁ = ‖C‖_F =
// √(‖C‖₁‖C‖_∞)) got a Bound an ulp above −R·σ₁.
func nuclearRoundUp(upper float64, k int) float64 {
	if upper == 0 || math.IsInf(upper, 1) {
		return upper
	}
	up := upper * (1 + 8*float64(k+2)*unitRoundoff)
	return math.Nextafter(math.Nextafter(up, math.Inf(1)), math.Inf(1))
}

// mulC stores C·x in dst (x of length n, dst of length m).
func (a *nuclearCost) mulC(dst, x []float64) {
	if a.dense != nil {
		for i := range dst {
			dst[i] = basicDot(a.dense[i*a.n:(i+1)*a.n], x)
		}
		return
	}
	for i := range dst {
		s := 0.0
		for k := a.rowPtr[i]; k < a.rowPtr[i+1]; k++ {
			s += a.val[k] * x[a.col[k]]
		}
		dst[i] = s
	}
}

// mulCT stores Cᵀ·y in dst (y of length m, dst of length n).
func (a *nuclearCost) mulCT(dst, y []float64) {
	clear(dst)
	if a.dense != nil {
		for i, yi := range y {
			if yi != 0 {
				basicAxpy(dst, yi, a.dense[i*a.n:(i+1)*a.n])
			}
		}
		return
	}
	for i, yi := range y {
		if yi == 0 {
			continue
		}
		for k := a.rowPtr[i]; k < a.rowPtr[i+1]; k++ {
			dst[a.col[k]] += a.val[k] * yi
		}
	}
}

// lanczosSVD computes a top singular pair of an m×n matrix by restarted
// Golub–Kahan–Lanczos bidiagonalization with full reorthogonalization (see
// NuclearBall). Its buffers are allocated once; solve allocates nothing.
type lanczosSVD struct {
	m, n, kmax int
	basisV     []float64 // kmax right Lanczos vectors of length n
	basisU     []float64 // kmax left Lanczos vectors of length m
	alpha      []float64 // diagonal of the bidiagonal matrix B
	beta       []float64 // superdiagonal of B
	tdiag      []float64 // −BᵀB, tridiagonal: diagonal
	toff       []float64 // −BᵀB: off-diagonal
	y, scratch []float64 // eigenvector of BᵀB and scratch (length kmax)
	v, w       []float64 // length n: Ritz vector and Cᵀu
	u          []float64 // length m: left Ritz vector
	keptU      []float64 // length m: u of a first solve (finish)
	keptV      []float64 // length n: v of a first solve (finish)
	rowAbs     []float64 // length m: absolute row sums
	colAbs     []float64 // length n: absolute column sums
	cert       nuclearCert
	work       nuclearCost // C scaled by a power of two (huge costs only)
	scaled     []float64   // its values
}

func (e *lanczosSVD) init(m, n int) {
	k := min(nuclearMaxBasis, min(m, n)+1)
	*e = lanczosSVD{m: m, n: n, kmax: k,
		basisV: make([]float64, k*n), basisU: make([]float64, k*m),
		alpha: make([]float64, k), beta: make([]float64, k),
		tdiag: make([]float64, k), toff: make([]float64, k), y: make([]float64, k), scratch: make([]float64, k),
		v: make([]float64, n), w: make([]float64, n), u: make([]float64, m),
		keptU: make([]float64, m), keptV: make([]float64, n),
		rowAbs: make([]float64, m), colAbs: make([]float64, n)}
}

// svdSolution is the outcome of lanczosSVD.solve: the unit pair (u, v) is
// left in the solver's buffers, with uᵀCv = sigma (sigma = 0: no pair,
// C·v = 0 for the Ritz vector).
type svdSolution struct {
	sigma     float64
	res       float64 // residual ‖Cᵀu − σv‖ of the last verification
	upper     float64 // rigorous upper bound on σ₁(C)
	converged bool    // the residual test passed
	early     bool    // stopped because sigma > the improvement target
	checked   bool    // a Cholesky certificate was tried (certify)
	// stalled: the residual test failed, but further restarts cannot
	// lower the residual (it is at the rounding level of C, or a restart
	// cycle did not decrease it): the solver's precision is reached, and
	// the pair is returned as converged to res, not to Tol.
	stalled bool
	// fallback: the deadline passed before the first cycle, and the pair
	// is that of C's largest entry (largestEntry), with no Lanczos run
	// behind it: certify skips it, and Bound is the norm bound.
	fallback bool
}

// result describes the vertex −R·u·vᵀ (or the fallback vertex when sigma
// is 0) of value val.
func (s svdSolution) result(val, r float64) lazycg.LinearResult {
	switch {
	case s.upper == 0:
		return lazycg.Exact(val) // C = 0: every vertex is optimal
	case s.converged && s.sigma > 0 && !s.checked:
		// No certificate (side above CertifyMaxSide): numerically
		// certified only (see NuclearBall).
		return lazycg.Exact(val)
	}
	upper := s.upper
	if s.stalled && s.sigma > 0 && !s.checked && !s.fallback {
		// No certificate, and the residual test failed at Tol: the
		// residual actually reached places a singular value within res of
		// σ (numerically certified, as a passed test; see NuclearBall).
		upper = min(upper, nuclearResidualUpper(s.sigma, s.res))
	}
	bound := math.Nextafter(-r*upper, math.Inf(-1))
	res := lazycg.LinearResult{Found: true, Value: val, Bound: min(val, bound), Reason: lazycg.StopTimeLimit}
	switch {
	case s.early:
		res.Reason = lazycg.StopImproving
	case s.converged || s.stalled:
		res.Reason = lazycg.StopGap
	}
	return res
}

// nuclearResidualUpper returns σ + res rounded up, with slack for the
// rounding of σ = ‖Cv‖ and of the residual res = ‖Cᵀu − σv‖ of a pair
// that stalled: the bound on the singular value near σ that the residual
// gives (Wedin's theorem), numerically certified only.
func nuclearResidualUpper(sigma, res float64) float64 {
	up := (sigma + res) * (1 + 8*unitRoundoff)
	return math.Nextafter(up, math.Inf(1))
}

// certify tries the Cholesky certificate (nuclearCert) for the solution
// sol of a call on a that did not stop early, when min(m, n) ≤ maxSide (0:
// nuclearCertSide; negative: never), and lowers sol.upper to its bound.
func (e *lanczosSVD) certify(a *nuclearCost, sol svdSolution, maxSide int) svdSolution {
	if maxSide == 0 {
		maxSide = nuclearCertSide
	}
	if sol.early || sol.fallback || sol.upper == 0 || maxSide < 0 || min(e.m, e.n) > maxSide {
		return sol
	}
	sol.checked = true
	if u, ok := e.cert.upper(a, sol.sigma, sol.res); ok {
		sol.upper = min(sol.upper, u)
	}
	return sol
}

// finish completes a call whose first solve, first, stopped early (σ
// above the target) while the value firstVal of its vertex, rounded, did
// not pass Improve: it runs a solve without target, emit writing its
// vertex into the destination and returning its value, and certifies it.
// The call keeps the better of the two vertices: when the second one's
// value is above firstVal (always so, but for rounding, when a deadline
// that passed in between made it the fallback of C's largest entry), the
// first pair, which finish saved, is restored and written again, with the
// second solve's status (convergence, certificate) and the lower of the two
// upper bounds on σ₁, both proven. The early flag is never returned: no
// improvement is claimed.
func (e *lanczosSVD) finish(ctx context.Context, name string, a *nuclearCost, tol float64, maxIter, maxSide int,
	first svdSolution, firstVal float64, emit func(svdSolution) (float64, error)) (svdSolution, float64, error) {
	copy(e.keptU, e.u)
	copy(e.keptV, e.v)
	sol, err := e.solve(ctx, name, a, tol, maxIter, math.Inf(1))
	if err != nil {
		return svdSolution{}, 0, err
	}
	val, err := emit(sol)
	if err != nil {
		return svdSolution{}, 0, err
	}
	sol = e.certify(a, sol, maxSide)
	sol.upper = min(sol.upper, first.upper)
	if val <= firstVal {
		return sol, val, nil
	}
	copy(e.u, e.keptU)
	copy(e.v, e.keptV)
	sol.sigma, sol.fallback = first.sigma, false
	if val, err = emit(sol); err != nil {
		return svdSolution{}, 0, err
	}
	return sol, val, nil
}

// solve runs the iteration on a (Tol tol, at most maxIter steps) and
// leaves the pair in e.u, e.v. It stops early, after any step, once the
// top Ritz value exceeds target and the verified σ = ‖Cv‖ does too.
func (e *lanczosSVD) solve(ctx context.Context, name string, a *nuclearCost, tol float64, maxIter int, target float64) (svdSolution, error) {
	if math.IsNaN(tol) || math.IsInf(tol, 0) || tol < 0 {
		return svdSolution{}, fmt.Errorf("lmo: %s: Tol must be finite and ≥ 0, got %v", name, tol)
	}
	if maxIter < 1 {
		return svdSolution{}, fmt.Errorf("lmo: %s: MaxIter must be ≥ 1, got %d", name, maxIter)
	}
	fro, upper := a.norms(e.rowAbs, e.colAbs)
	sol := svdSolution{upper: nuclearRoundUp(upper, a.stored())}
	if fro == 0 {
		return sol, nil
	}
	// Costs near MaxFloat64: iterate on C·2^−k, whose sums cannot
	// overflow (the singular vectors are the same); sigma, res and target
	// are in its units until the return.
	vals := a.val
	if a.dense != nil {
		vals = a.dense
	}
	scale := basicCostScale(basicMaxAbs(vals), float64(len(vals)+4))
	if scale != 1 {
		e.work = *a
		if a.dense != nil {
			e.work.dense = basicScaled(&e.scaled, a.dense, scale)
		} else {
			e.work.val = basicScaled(&e.scaled, a.val, scale)
		}
		a = &e.work
		fro, _ = a.norms(e.rowAbs, e.colAbs)
		target *= scale
		defer func() {
			e.work.dense, e.work.val = nil, nil
		}()
	}
	unscale := func(s svdSolution) svdSolution {
		s.sigma /= scale
		s.res /= scale
		return s
	}
	basicPseudoRandomUnit(e.basisV[:e.n], 0x2545f4914f6cdd1d)
	breakTol := 1e-13 * fro
	// floor is the rounding level of the residual: the computed Cᵀu has
	// an error of order u·‖C‖_F, so a residual below a small multiple of
	// it cannot be lowered much further (Tol = 0 could never pass, and
	// MaxIter = MaxInt restarted until ctx ended). bestRes is the smallest
	// residual of the cycles so far (+Inf in the first: the stop below
	// needs one restart, which can still lower a first cycle's residual).
	floor := nuclearStallFloor * unitRoundoff * fro
	bestRes := math.Inf(1)
	used := 0
	for {
		if err := ctx.Err(); err != nil {
			if !errors.Is(err, context.DeadlineExceeded) {
				return svdSolution{}, fmt.Errorf("lmo: %s: %w", name, err)
			}
			if used == 0 {
				// The deadline passed before the first cycle: the
				// rank-one pair of C's largest entry is the answer,
				// time-limited with the norm bound sol.upper, as a MIP
				// oracle returns its incumbent at its time limit.
				e.largestEntry(a, &sol)
			}
			// Otherwise the deadline passed after a restart cycle: its
			// verified pair is the answer, time-limited (as MaxIter).
			return unscale(sol), nil
		}
		steps := min(e.kmax, max(1, maxIter-used-1))
		k, early := e.lanczos(a, steps, breakTol, target)
		used += k + 1
		e.ritz(k)
		// Verification: σ = ‖Cv‖, u = Cv/σ, w = Cᵀu, residual ‖w − σv‖.
		a.mulC(e.u, e.v)
		sigma := basicNorm(e.u)
		sol.sigma = sigma
		if sigma == 0 {
			return unscale(sol), nil
		}
		nuclearDivide(e.u, sigma)
		if early && sigma > target {
			sol.early = true
			return unscale(sol), nil
		}
		a.mulCT(e.w, e.u)
		sol.res = basicResidualNorm(e.w, sigma, e.v)
		if sol.res <= tol*sigma {
			sol.converged = true
			return unscale(sol), nil
		}
		if sigma > target {
			sol.early = true
			return unscale(sol), nil
		}
		if !math.IsInf(bestRes, 1) && (sol.res <= floor || sol.res >= bestRes && sol.res <= nuclearStallCeil*floor) {
			// The precision of the iteration is reached: after a
			// restart, the residual is at rounding level, or this cycle
			// did not decrease it (an exhausted Krylov space, a Lanczos
			// breakdown on an invariant subspace, rounding noise); more
			// restarts would only repeat it. The pair of this cycle is
			// returned (its σ is at least the previous cycle's up to
			// rounding: the restart vector is the previous Ritz vector
			// after a power step), certified as any other (certify), or
			// with the residual it reached (result).
			sol.stalled = true
			return unscale(sol), nil
		}
		bestRes = sol.res
		if used >= maxIter {
			return unscale(sol), nil
		}
		// Restart from w/‖w‖ = the Ritz vector after one more power step.
		v0 := e.basisV[:e.n]
		copy(v0, e.w)
		nuclearDivide(v0, basicNorm(v0))
	}
}

// largestEntry leaves the pair (u, v) = (sign(c_ij)·e_i, e_j) of an entry
// c_ij of a (C ≠ 0) of largest magnitude in e.u, e.v, and its uᵀCv = |c_ij|
// in sol.sigma, marking sol as such a fallback: −R·u·vᵀ is a vertex of the
// ball of value −R·|c_ij|, found in one pass over the stored entries
// without any product with C.
func (e *lanczosSVD) largestEntry(a *nuclearCost, sol *svdSolution) {
	best, bi, bj, bx := -1.0, 0, 0, 0.0
	if a.dense != nil {
		for f, x := range a.dense {
			if ax := math.Abs(x); ax > best {
				best, bi, bj, bx = ax, f/a.n, f%a.n, x
			}
		}
	} else {
		for i := 0; i < a.m; i++ {
			for k := a.rowPtr[i]; k < a.rowPtr[i+1]; k++ {
				if ax := math.Abs(a.val[k]); ax > best {
					best, bi, bj, bx = ax, i, int(a.col[k]), a.val[k]
				}
			}
		}
	}
	clear(e.u)
	clear(e.v)
	e.u[bi] = 1
	if bx < 0 {
		e.u[bi] = -1
	}
	e.v[bj] = 1
	sol.sigma, sol.res, sol.fallback = math.Abs(bx), 0, true
}

// lanczos runs at most steps Golub–Kahan steps from the unit vector in the
// first right basis slot, building C·V_k = U_k·B_k with B_k upper bidiagonal
// (alpha on the diagonal, beta above). It stops early when the Krylov spaces
// become invariant, or when the top singular value of B_k exceeds target
// (then it reports early), and returns k.
func (e *lanczosSVD) lanczos(a *nuclearCost, steps int, breakTol, target float64) (int, bool) {
	m, n := e.m, e.n
	V := func(i int) []float64 { return e.basisV[i*n : (i+1)*n] }
	U := func(i int) []float64 { return e.basisU[i*m : (i+1)*m] }
	clear(e.alpha)
	clear(e.beta)

	a.mulC(U(0), V(0))
	if al := basicNorm(U(0)); al > breakTol {
		e.alpha[0] = al
		nuclearDivide(U(0), al)
	} else {
		return 1, false // C·v = 0: B = [0]
	}
	for j := 0; ; j++ {
		if !math.IsInf(target, 1) && e.topValue(j+1) > target {
			return j + 1, true
		}
		// r = Cᵀu_j − α_j v_j, orthogonalized against V_0..V_j.
		r := e.w
		a.mulCT(r, U(j))
		basicAxpy(r, -e.alpha[j], V(j))
		for pass := 0; pass < 2; pass++ {
			for i := 0; i <= j; i++ {
				basicAxpy(r, -basicDot(r, V(i)), V(i))
			}
		}
		beta := basicNorm(r)
		if j+1 == steps || beta <= breakTol {
			return j + 1, false
		}
		e.beta[j] = beta
		vn := V(j + 1)
		copy(vn, r)
		nuclearDivide(vn, beta)
		// p = C v_{j+1} − β_j u_j, orthogonalized against U_0..U_j.
		un := U(j + 1)
		a.mulC(un, vn)
		basicAxpy(un, -beta, U(j))
		for pass := 0; pass < 2; pass++ {
			for i := 0; i <= j; i++ {
				basicAxpy(un, -basicDot(un, U(i)), U(i))
			}
		}
		al := basicNorm(un)
		if al <= breakTol {
			// C·V_{j+2} ⊂ span U_{j+1}: invariant pair, B has a zero row.
			clear(un)
			return j + 2, false
		}
		e.alpha[j+1] = al
		nuclearDivide(un, al)
	}
}

// topVector writes the unit eigenvector of the largest eigenvalue of
// B_kᵀB_k (tridiagonal: diagonal α_i² + β_{i−1}², off-diagonal α_i·β_i,
// formed from B_k scaled to entries ≤ 1 against overflow) into e.y[:k] and
// returns the top singular value of B_k, ‖B_k y‖.
func (e *lanczosSVD) topVector(k int) float64 {
	scale := 0.0
	for i := 0; i < k; i++ {
		scale = max(scale, math.Abs(e.alpha[i]), math.Abs(e.beta[i]))
	}
	y := e.y[:k]
	if scale == 0 {
		clear(y)
		y[0] = 1
		return 0
	}
	al := func(i int) float64 { return e.alpha[i] / scale }
	be := func(i int) float64 { return e.beta[i] / scale }
	d, o := e.tdiag[:k], e.toff[:k]
	for i := 0; i < k; i++ {
		// −BᵀB, whose smallest eigenvalue is −θ².
		d[i] = -al(i) * al(i)
		if i > 0 {
			d[i] -= be(i-1) * be(i-1)
		}
		o[i] = -al(i) * be(i)
	}
	basicTridiagMin(d, o, y, e.scratch[:k])
	s := 0.0
	for i := 0; i < k; i++ {
		bi := al(i) * y[i]
		if i+1 < k {
			bi += be(i) * y[i+1]
		}
		s += bi * bi
	}
	return scale * math.Sqrt(s)
}

// topValue returns the top singular value of B_k (see topVector).
func (e *lanczosSVD) topValue(k int) float64 { return e.topVector(k) }

// ritz writes the unit Ritz vector v = V_k·y for the top eigenvector y of
// B_kᵀB_k into e.v.
func (e *lanczosSVD) ritz(k int) {
	e.topVector(k)
	clear(e.v)
	for i := 0; i < k; i++ {
		basicAxpy(e.v, e.y[i], e.basisV[i*e.n:(i+1)*e.n])
	}
	basicScale(e.v, 1/math.Sqrt(basicDot(e.v, e.v)))
}

// basicAxpy computes y += alpha·x.
func basicAxpy(y []float64, alpha float64, x []float64) {
	for i, xi := range x {
		y[i] += alpha * xi
	}
}

// nuclearDivide computes x /= d for d > 0: as x *= 1/d when 1/d is
// finite (d ≥ 2⁻¹⁰²², the usual case), by divisions otherwise, where 1/d
// overflows (the Lanczos vectors of a cost whose entries are all
// subnormal would become Inf and NaN).
func nuclearDivide(x []float64, d float64) {
	if d >= 0x1p-1022 {
		basicScale(x, 1/d)
		return
	}
	for i := range x {
		x[i] /= d
	}
}

// basicScale computes x *= alpha.
func basicScale(x []float64, alpha float64) {
	for i := range x {
		x[i] *= alpha
	}
}
