package lmo

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/lazycg/lazycg"
)

// Spectraplex is the spectraplex {X ∈ S^n : X ⪰ 0, tr X = 1} of symmetric
// positive semidefinite n×n matrices of unit trace, flattened row-major
// (entry (i, j) at index i·n + j). It is not a polytope: its extreme points
// are the rank-one matrices v·vᵀ with unit vectors v.
//
// For a cost matrix C, ⟨C, X⟩ = ⟨S, X⟩ on symmetric X with S = (C + Cᵀ)/2,
// so the minimum over the spectraplex is λ_min(S), attained at v·vᵀ for a
// unit eigenvector v of λ_min(S). Minimize computes v by the symmetric
// Lanczos method with full reorthogonalization, restarted from the best
// Ritz vector after at most 32 steps from a fixed pseudo-random start
// (results are deterministic); the Ritz pairs of the tridiagonal matrix
// come from bisection and inverse iteration. It stops when the Ritz pair (θ, v) has
// residual ‖Sv − θv‖ ≤ Tol·‖S‖, with ‖S‖ the smaller of the Frobenius norm
// and the largest absolute row sum, after MaxIter products with S, or
// when its precision is reached: after a restart, when the residual is at
// most 16·2⁻⁵³·‖S‖ (its rounding level), or at most 1024·2⁻⁵³·‖S‖ and
// not decreased over the cycle, so that Tol = 0 with MaxIter = math.MaxInt ends (it restarted
// until ctx ended).
//
// Result semantics. Value is c·dst for the returned matrix v·vᵀ, an upper
// bound on the minimum (up to the rounding of the entries of v·vᵀ). Bound
// is a proven lower bound on λ_min((C + Cᵀ)/2), the larger of two:
//
//   - Gershgorin's bound min_i (S_ii − Σ_{j≠i} |S_ij|), with slack for the
//     rounding of the sums (cheap, usually weak);
//   - a Cholesky certificate (skipped when SkipCertificate is set): if the
//     floating-point Cholesky factorization of S − L·I runs to completion
//     with factor R, then R is the exact factor of S − L·I + ΔA with
//     |ΔA| ≤ γ_{n+1}|Rᵀ||R| (Higham, Accuracy and Stability of Numerical
//     Algorithms, Thm. 10.3), hence λ_min(S) ≥ L − γ_{n+1}‖R‖_F² minus the
//     rounding of forming S and S − L·I, all of which Minimize adds. The
//     shift L is placed just below θ and lowered geometrically when the
//     factorization fails. The argument assumes IEEE double arithmetic
//     without underflow (entries of C far above 1e-300 in magnitude, or
//     zero).
//
// So Bound is proven but slightly below Value even when the eigenvector is
// accurate (by about Tol·‖S‖ plus n²·2⁻⁵³·‖S‖), and the result is never
// reported as exact: Reason is lazycg.StopGap when the residual test
// passed or the precision was reached (the Bound never depends on Tol),
// and lazycg.StopTimeLimit (an iteration or time limit) when
// MaxIter ended the iteration or ctx's deadline passed: a deadline seen
// after a restart cycle returns that cycle's vector; one already passed
// when the first cycle would start returns e_i·e_iᵀ for a smallest
// diagonal entry S_ii, without a Lanczos run or a certificate, with Bound
// the larger of Gershgorin's bound and −‖S‖_F (rounded down). A Lanczos
// run that converged to an eigenvalue other than the smallest (possible
// only for a start vector almost orthogonal to the bottom eigenvector)
// cannot produce a wrong Bound: the certificate then fails at the high
// shifts and Bound falls back to a lower shift or to Gershgorin's bound,
// which shows as a large gap Value − Bound.
//
// Costs per call: O(n²) per Lanczos step and O(n³/3) for each Cholesky
// factorization of the certificate (usually one), so the certificate
// overtakes the Lanczos iteration as n grows (on random dense costs they
// were comparable at n = 200 in BenchmarkSpectraplex); set SkipCertificate
// for large n when a weak Bound is acceptable. Minimize allocates nothing.
//
// NewUnitSpectrahedron returns the unit spectrahedron {X ⪰ 0 : tr X ≤ 1}
// instead, whose extreme points are 0 and the matrices v·vᵀ: its minimum is
// min(0, λ_min(S)), so Minimize returns 0 when v·vᵀ does not have a negative
// value, and its Bound is min(0, the bound above) — exact (0 proven
// optimal) when that bound shows λ_min(S) ≥ 0.
type Spectraplex struct {
	// Tol is the relative residual tolerance of the eigenpair (default
	// 1e-9). It must be finite and ≥ 0.
	Tol float64
	// MaxIter bounds the number of products with S per call, counting one
	// verification product per restart cycle; the first cycle always runs
	// at least one step and its verification (default 1000). It must be
	// ≥ 1.
	MaxIter int
	// SkipCertificate skips the Cholesky certificate: Bound is then only
	// Gershgorin's bound.
	SkipCertificate bool

	n, kmax int
	unit    bool      // the unit spectrahedron tr X ≤ 1
	s       []float64 // n×n symmetric part of C
	chol    []float64 // n×n lower Cholesky factor (certificate)
	basis   []float64 // kmax Lanczos vectors of length n
	alpha   []float64 // diagonal of the tridiagonal matrix
	beta    []float64 // off-diagonal of the tridiagonal matrix
	tri     []float64 // kmax: scratch of the tridiagonal eigensolver
	eigvec  []float64 // kmax: eigenvector of T
	v, w    []float64 // length n: Ritz vector and S·v
}

// spectraplexMaxBasis is the Lanczos basis size before a restart.
const spectraplexMaxBasis = 32

var _ lazycg.LMO = (*Spectraplex)(nil)

// NewSpectraplex returns the spectraplex of n×n matrices (dimension n²).
// n must be in [1, 46340] so that n² fits in an int32 index.
func NewSpectraplex(n int) (*Spectraplex, error) {
	if n < 1 || n > 46340 {
		return nil, fmt.Errorf("lmo: spectraplex: matrix size must be in [1, 46340], got %d", n)
	}
	k := min(spectraplexMaxBasis, n)
	return &Spectraplex{
		Tol:     1e-9,
		MaxIter: 1000,
		n:       n,
		kmax:    k,
		s:       make([]float64, n*n),
		chol:    make([]float64, n*n),
		basis:   make([]float64, k*n),
		alpha:   make([]float64, k),
		beta:    make([]float64, k),
		tri:     make([]float64, k),
		eigvec:  make([]float64, k),
		v:       make([]float64, n),
		w:       make([]float64, n),
	}, nil
}

// NewUnitSpectrahedron returns the unit spectrahedron {X ⪰ 0 : tr X ≤ 1}
// of n×n matrices (dimension n²), n in [1, 46340]; see Spectraplex.
func NewUnitSpectrahedron(n int) (*Spectraplex, error) {
	if n < 1 || n > 46340 {
		return nil, fmt.Errorf("lmo: unit spectrahedron: matrix size must be in [1, 46340], got %d", n)
	}
	sp, err := NewSpectraplex(n)
	if err != nil {
		return nil, err
	}
	sp.unit = true
	return sp, nil
}

// Unit reports whether this is the unit spectrahedron (tr X ≤ 1).
func (sp *Spectraplex) Unit() bool { return sp.unit }

func (sp *Spectraplex) name() string {
	if sp.unit {
		return "unit spectrahedron"
	}
	return "spectraplex"
}

// Dim returns n².
func (sp *Spectraplex) Dim() int { return sp.n * sp.n }

// Size returns n.
func (sp *Spectraplex) Size() int { return sp.n }

// Vertex writes the extreme point e_0·e_0ᵀ into dst.
func (sp *Spectraplex) Vertex(dst []float64) {
	clear(dst[:sp.n*sp.n])
	dst[0] = 1
}

// Minimize writes v·vᵀ for an (approximate) unit eigenvector v of the
// smallest eigenvalue of (C + Cᵀ)/2 into dst, where C is the n×n matrix
// held in c (the unit spectrahedron: 0 when v·vᵀ has no negative value);
// see the type documentation for the meaning of the result. It
// returns an error for invalid input, invalid Tol or MaxIter, when ctx
// is canceled, and when c·dst lies beyond the range of float64; a
// deadline of ctx that has passed ends the call with a vertex and a proven
// bound (lazycg.StopTimeLimit): the vector of the last Lanczos restart
// cycle, or e_i·e_iᵀ for a smallest S_ii when no cycle ran. Costs
// whose norm exceeds 2^1000 are scaled by a power of two for the
// iteration and the certificate.
func (sp *Spectraplex) Minimize(ctx context.Context, dst, c []float64) (lazycg.LinearResult, error) {
	n := sp.n
	if err := basicCheckCost(sp.name(), n*n, dst, c); err != nil {
		return lazycg.LinearResult{}, err
	}
	if math.IsNaN(sp.Tol) || math.IsInf(sp.Tol, 0) || sp.Tol < 0 {
		return lazycg.LinearResult{}, fmt.Errorf("lmo: %s: Tol must be finite and ≥ 0, got %v", sp.name(), sp.Tol)
	}
	if sp.MaxIter < 1 {
		return lazycg.LinearResult{}, fmt.Errorf("lmo: %s: MaxIter must be ≥ 1, got %d", sp.name(), sp.MaxIter)
	}
	fro, anorm, gersh := symmetrizeInto(sp.s, c, sp.n)
	if n == 1 || fro == 0 {
		// S = [c_00] or S = 0: e_0·e_0ᵀ is optimal and the value exact
		// (the unit spectrahedron: 0 unless c_00 < 0).
		sp.Vertex(dst)
		if sp.unit && !(c[0] < 0) {
			clear(dst)
		}
		return lazycg.Exact(basicDot(c, dst)), nil
	}
	// Costs near MaxFloat64: the row sums of S, ‖S‖ and the products S·v
	// overflow (S = [[1.7e308, 1.7e308], [1.7e308, −1.7e308]] gave the
	// value and Bound NaN), so the iteration and the certificate run on
	// S·2^−e with row sums below 1/2, and the bound is scaled back. The
	// scaling (and symmetrizing the scaled S again) is exact but for
	// entries that fall into the subnormal range, each off by at most
	// 2^−1074: n·2^−1074 more slack covers them.
	scaleExp, lossy := 0, false
	if !(anorm <= 0x1p1000) || !(fro <= 0x1p1000) {
		big := basicMaxAbs(sp.s)
		_, eb := math.Frexp(big)
		_, en := math.Frexp(float64(n))
		scaleExp = eb + en + 1
		for i, x := range sp.s {
			y := math.Ldexp(x, -scaleExp)
			lossy = lossy || math.Ldexp(y, scaleExp) != x || (y != 0 && math.Abs(y) < 0x1p-1022)
			sp.s[i] = y
		}
		// S·2^−e is symmetric: symmetrizing it again changes nothing and
		// recomputes the norms and Gershgorin's bound in its units.
		fro, anorm, gersh = symmetrizeInto(sp.s, sp.s, n)
		if lossy {
			gersh = math.Nextafter(gersh-float64(n)*0x1p-1074, math.Inf(-1))
		}
	}
	theta, res, converged, fallback, err := sp.eigenOrFallback(ctx, anorm)
	if err != nil {
		return lazycg.LinearResult{}, err
	}
	for i, vi := range sp.v {
		row := dst[i*n : (i+1)*n]
		for j, vj := range sp.v {
			row[j] = vi * vj
		}
	}
	val, err := basicValue(sp.name(), c, dst)
	if err != nil {
		return lazycg.LinearResult{}, err
	}
	bound := gersh
	switch {
	case fallback:
		// No Lanczos pair to certify, and no time for a factorization:
		// λ_min(S) ≥ −‖S‖₂ ≥ −‖S‖_F, where ‖S‖_F is fro rounded up (see
		// spectraplexFroBound); Gershgorin's bound may be tighter.
		fb := spectraplexFroBound(fro, n)
		if lossy {
			fb = math.Nextafter(fb-float64(n)*0x1p-1074, math.Inf(-1))
		}
		bound = max(bound, fb)
	case !sp.SkipCertificate:
		cert := sp.certify(theta, res, fro, anorm, gersh)
		if lossy {
			cert = math.Nextafter(cert-float64(n)*0x1p-1074, math.Inf(-1))
		}
		bound = max(bound, cert)
	}
	bound = math.Ldexp(bound, scaleExp) // exact: e ≥ 0, and bound·2^e ≤ λ_min(S) ≤ max S_ii
	reason := lazycg.StopGap
	if !converged {
		reason = lazycg.StopTimeLimit
	}
	if sp.unit {
		// min over {tr X ≤ 1} is min(0, λ_min(S)) ≥ min(0, bound).
		if !(val < 0) {
			clear(dst)
			if bound >= 0 {
				return lazycg.Exact(0), nil
			}
			val = 0
		}
		bound = min(bound, 0)
	}
	return lazycg.LinearResult{Found: true, Value: val, Bound: min(bound, val), Reason: reason}, nil
}

// spectraplexFroBound returns a proven lower bound −F on λ_min of the
// exact (C + Cᵀ)/2 from the Frobenius norm fro of its rounded form S that
// symmetrizeInto computed (n×n, rounded to nearest): fro = big·√Σ(S_ij/big)²
// has a relative error below (n² + 6)·u, which nuclearRoundUp(fro, n² + 1)
// (a factor 1 + 8(n² + 3)·u and two ulps up) covers with room to spare
// for the rounding of S itself (|S − (C + Cᵀ)/2| ≤ u/(1 − u)·|S|
// entrywise, moving λ_min by at most u/(1 − u)·‖S‖_F); so
// λ_min((C + Cᵀ)/2) ≥ −‖S‖₂ − u/(1 − u)·‖S‖_F ≥ −F. As elsewhere in
// Spectraplex, underflow in forming S is not accounted for.
func spectraplexFroBound(fro float64, n int) float64 {
	return -nuclearRoundUp(fro, n*n+1)
}

// unitRoundoff is the unit roundoff 2⁻⁵³ of float64.
const unitRoundoff = 0x1p-53

// eigen runs the restarted Lanczos iteration for the smallest eigenvalue of
// S, leaves the unit Ritz vector in sp.v and returns the Ritz value θ (the
// Rayleigh quotient of v), the residual ‖Sv − θv‖ and whether the residual
// test passed or the precision was reached (see Spectraplex). A deadline
// of ctx that had passed before the first cycle leaves e_i·e_iᵀ's vector
// in sp.v (see eigenOrFallback), with θ = S_ii.
func (sp *Spectraplex) eigen(ctx context.Context, anorm float64) (theta, res float64, converged bool, err error) {
	theta, res, converged, _, err = sp.eigenOrFallback(ctx, anorm)
	return theta, res, converged, err
}

// eigenOrFallback is eigen, also reporting fallback: ctx's deadline had
// passed before the first cycle, so sp.v holds e_i for a smallest diagonal
// entry S_ii, without a Lanczos run, θ = S_ii and res = 0 (not a residual).
func (sp *Spectraplex) eigenOrFallback(ctx context.Context, anorm float64) (theta, res float64, converged, fallback bool, err error) {
	n := sp.n
	sp.startVector()
	breakTol := 1e-13 * anorm
	// floor is the rounding level of the residual (the computed S·v has an
	// error of order u·‖S‖): below it, or when a restart cycle does not
	// decrease the smallest residual bestRes so far, further restarts
	// cannot make progress (Tol = 0 could never pass, and MaxIter =
	// MaxInt restarted until ctx ended). bestRes is +Inf in the first
	// cycle: the stop needs one restart, which can still lower a first
	// cycle's residual.
	floor := nuclearStallFloor * unitRoundoff * anorm
	bestRes := math.Inf(1)
	used := 0
	for {
		if err := ctx.Err(); err != nil {
			if !errors.Is(err, context.DeadlineExceeded) {
				return 0, 0, false, false, fmt.Errorf("lmo: %s: %w", sp.name(), err)
			}
			if used == 0 {
				// The deadline passed before the first cycle: e_i·e_iᵀ
				// for the smallest S_ii is the answer, time-limited, as a
				// MIP oracle returns its incumbent at its time limit.
				i := 0
				for k := 1; k < n; k++ {
					if sp.s[k*n+k] < sp.s[i*n+i] {
						i = k
					}
				}
				clear(sp.v)
				sp.v[i] = 1
				return sp.s[i*n+i], 0, false, true, nil
			}
			// The deadline passed after a restart cycle: its Ritz pair is
			// the answer, time-limited (as MaxIter).
			return theta, res, false, false, nil
		}
		steps := min(sp.kmax, max(1, sp.MaxIter-used-1))
		k := sp.lanczos(steps, breakTol)
		used += k + 1
		sp.ritz(k)
		sp.mulS(sp.w, sp.v)
		theta = basicDot(sp.v, sp.w)
		res = basicResidualNorm(sp.w, theta, sp.v)
		if res <= sp.Tol*anorm {
			return theta, res, true, false, nil
		}
		if !math.IsInf(bestRes, 1) && (res <= floor || res >= bestRes && res <= nuclearStallCeil*floor) {
			// The precision of the iteration is reached (rounding level,
			// an exhausted Krylov space, rounding noise): the pair of this
			// cycle, whose θ is at most the previous cycle's up to
			// rounding (the restart vector is in its Krylov space), is
			// returned as converged to res; the Bound does not depend on
			// Tol.
			return theta, res, true, false, nil
		}
		bestRes = res
		if used >= sp.MaxIter {
			return theta, res, false, false, nil
		}
		copy(sp.basis[:n], sp.v) // restart from the unit Ritz vector
	}
}

// startVector writes a fixed pseudo-random unit vector into the first
// Lanczos slot.
func (sp *Spectraplex) startVector() { basicPseudoRandomUnit(sp.basis[:sp.n], 0x9e3779b97f4a7c15) }

// basicPseudoRandomUnit fills v with a unit vector whose entries come from
// a xorshift generator started at seed (deterministic, no allocation).
func basicPseudoRandomUnit(v []float64, seed uint64) {
	x := seed
	for i := range v {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		v[i] = float64(x>>11)/(1<<53) - 0.5
	}
	basicScale(v, 1/math.Sqrt(basicDot(v, v)))
}

// lanczos runs at most steps Lanczos steps from the unit vector in the
// first basis slot, building S·Q_k = Q_k·T_k + residual with T_k
// tridiagonal (alpha on the diagonal, beta beside it). It stops early when
// the Krylov space becomes invariant and returns k.
func (sp *Spectraplex) lanczos(steps int, breakTol float64) int {
	n := sp.n
	q := func(i int) []float64 { return sp.basis[i*n : (i+1)*n] }
	clear(sp.alpha)
	clear(sp.beta)
	w := sp.w
	for j := 0; ; j++ {
		sp.mulS(w, q(j))
		a := basicDot(q(j), w)
		sp.alpha[j] = a
		basicAxpy(w, -a, q(j))
		if j > 0 {
			basicAxpy(w, -sp.beta[j-1], q(j-1))
		}
		for pass := 0; pass < 2; pass++ {
			for i := 0; i <= j; i++ {
				basicAxpy(w, -basicDot(w, q(i)), q(i))
			}
		}
		b := basicNorm(w)
		if j+1 == steps || j+1 == sp.kmax || b <= breakTol {
			return j + 1
		}
		sp.beta[j] = b
		copy(q(j+1), w)
		basicScale(q(j+1), 1/b)
	}
}

// ritz computes the eigenvector y of the smallest eigenvalue of T_k (see
// basicTridiagMin) and writes the unit Ritz vector v = Q_k·y into sp.v. It
// scales T_k in place (sp.alpha and sp.beta, which the next Lanczos run
// overwrites) by a power of two to entries of order 1, which
// basicTridiagMin needs: its bisection squares the off-diagonal and its
// inverse iteration divides by pivots of order u·‖T_k‖, which overflow
// for costs beyond about 1e±150.
func (sp *Spectraplex) ritz(k int) {
	y := sp.eigvec[:k]
	big := 0.0
	for i := 0; i < k; i++ {
		big = max(big, math.Abs(sp.alpha[i]), math.Abs(sp.beta[i]))
	}
	if big > 0 && !math.IsInf(big, 0) {
		_, e := math.Frexp(big)
		for i := 0; i < k; i++ {
			sp.alpha[i] = math.Ldexp(sp.alpha[i], -e)
			sp.beta[i] = math.Ldexp(sp.beta[i], -e)
		}
	}
	basicTridiagMin(sp.alpha[:k], sp.beta[:k], y, sp.tri[:k])
	clear(sp.v)
	for i := 0; i < k; i++ {
		basicAxpy(sp.v, y[i], sp.basis[i*sp.n:(i+1)*sp.n])
	}
	basicScale(sp.v, 1/math.Sqrt(basicDot(sp.v, sp.v)))
}

// basicTridiagMin writes a unit eigenvector of the smallest eigenvalue of
// the symmetric tridiagonal matrix with diagonal a and off-diagonal b
// (b[i] couples i and i+1; b[len(a)−1] is unused) into y, using d as
// scratch (all of length k = len(a)). It brackets the eigenvalue by
// bisection on Sturm counts, from Gershgorin's interval down to a few ulps,
// and then runs inverse iteration with the LDLᵀ factorization of T − σI
// for the lower end σ of the bracket, where T − σI is positive definite.
// It costs O(k) per bisection step and allocates nothing.
func basicTridiagMin(a, b, y, d []float64) {
	k := len(a)
	if k == 1 {
		y[0] = 1
		return
	}
	off := func(i int) float64 { // |b_{i−1}| + |b_i|
		s := 0.0
		if i > 0 {
			s += math.Abs(b[i-1])
		}
		if i+1 < k {
			s += math.Abs(b[i])
		}
		return s
	}
	lo, hi, bmax := math.Inf(1), math.Inf(-1), 0.0
	for i := 0; i < k; i++ {
		lo, hi = min(lo, a[i]-off(i)), max(hi, a[i]+off(i))
		if i+1 < k {
			bmax = max(bmax, b[i]*b[i])
		}
	}
	pivmin := 0x1p-1000 * max(1, bmax)
	// below(x) counts the eigenvalues below x (negative LDLᵀ pivots of
	// T − xI) and leaves the pivots in d.
	below := func(x float64) int {
		neg := 0
		for i := 0; i < k; i++ {
			p := a[i] - x
			if i > 0 {
				p -= b[i-1] * b[i-1] / d[i-1]
			}
			if math.Abs(p) < pivmin {
				p = -pivmin
			}
			d[i] = p
			if p < 0 {
				neg++
			}
		}
		return neg
	}
	width := hi - lo
	lo -= 2*unitRoundoff*(math.Abs(lo)+math.Abs(hi)) + pivmin
	for it := 0; it < 200 && hi-lo > 4*unitRoundoff*max(math.Abs(lo), math.Abs(hi))+pivmin; it++ {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if below(mid) > 0 {
			hi = mid
		} else {
			lo = mid
		}
	}
	// T − lo·I is positive definite (no negative pivot): its pivots
	// d_i ≥ pivmin define T − lo·I = L·D·Lᵀ with L unit lower bidiagonal,
	// l_i = b_i/d_i.
	step := max(width, pivmin)
	for t := 0; t < 64 && below(lo) > 0; t++ { // only if rounding moved the count
		lo -= step
		step *= 2
	}
	for i := range y {
		y[i] = 1
	}
	for it := 0; it < 3; it++ {
		for i := 1; i < k; i++ { // L z = y
			y[i] -= b[i-1] / d[i-1] * y[i-1]
		}
		for i := 0; i < k; i++ { // D w = z
			y[i] /= d[i]
		}
		for i := k - 2; i >= 0; i-- { // Lᵀ y = w
			y[i] -= b[i] / d[i] * y[i+1]
		}
		basicScale(y, 1/math.Sqrt(basicDot(y, y)))
	}
}

// mulS stores S·x in dst.
func (sp *Spectraplex) mulS(dst, x []float64) {
	n := sp.n
	for i := range dst {
		dst[i] = basicDot(sp.s[i*n:(i+1)*n], x)
	}
}

// certify returns a proven lower bound on λ_min((C + Cᵀ)/2) from a
// successful Cholesky factorization of S − L·I for a shift L below the
// Ritz value θ (see the type documentation), or gersh when no shift above
// gersh factors.
func (sp *Spectraplex) certify(theta, res, fro, anorm, gersh float64) float64 {
	n := sp.n
	nu := float64(n+1) * unitRoundoff
	gamma := nu / (1 - nu)
	spread := 0.0
	for i := 0; i < n; i++ {
		spread += math.Abs(sp.s[i*n+i] - theta)
	}
	base := 4*gamma*(spread+anorm) + 4*unitRoundoff*math.Abs(theta)
	delta := base
	for try := 0; try < 6; try++ {
		shift := theta - delta
		if !(shift > gersh) {
			break
		}
		if f, ok := choleskyShifted(sp.chol, sp.s, sp.n, shift); ok {
			maxDiag := 0.0
			for i := 0; i < n; i++ {
				maxDiag = max(maxDiag, math.Abs(sp.s[i*n+i]-shift))
			}
			// λ_min(S) − L ≥ −γ‖R‖_F² − u·max|S_ii − L|, and the rounding
			// of S moves λ_min by at most u/(1−u)·‖S‖_F. The factor 1.01
			// covers the rounding of f and of this sum.
			e := 1.01 * (gamma*f + unitRoundoff*maxDiag + 2*unitRoundoff*fro)
			return math.Nextafter(shift-e, math.Inf(-1))
		}
		if try == 0 {
			delta = base + 2*res
		} else {
			delta *= 16
		}
	}
	return gersh
}
