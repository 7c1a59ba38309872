package lmo

import "math"

// nuclearCertSide is the default CertifyMaxSide of NuclearBall and
// NuclearBallOn: the certificate of a call costs about s³/3 operations for
// its Cholesky factorization (s = min(m, n)) plus the Gram matrix, below
// one Lanczos run on the matrix completion costs of the paper up to this
// side.
const nuclearCertSide = 256

// nuclearCert proves upper bounds on σ₁(C) for the cost matrix of a
// NuclearBall or NuclearBallOn call by a Cholesky certificate on the Gram
// matrix of C's shorter side (see NuclearBall). Its s×s buffers are
// allocated on the first use.
type nuclearCert struct {
	s      int
	g, l   []float64 // s×s: −fl(G) (lower triangle) and the Cholesky factor
	sliceI []int32   // one row or column of C': the indices of its nonzeros
	sliceV []float64 // and their scaled values
	ptr    []int     // C' by columns (sparse C with m ≤ n): column starts (n+1)
	idx    []int32   // row of each nonzero
	val    []float64 // scaled value of each nonzero
}

// nuclearFlush is the magnitude below which a scaled entry of C' is set to
// zero (accounted for by ‖C − C'‖_F): products of the remaining entries
// are normal numbers, so every product in the Gram matrix is rounded
// relatively.
const nuclearFlush = 0x1p-400

// upper returns a proven upper bound on σ₁(C) for the cost a and true, or
// false when no shift factors. sigma is the Ritz value of the call (‖Cv‖
// for a unit v: a lower bound on σ₁ up to rounding) and res its residual
// ‖Cᵀu − σv‖; they only place the shifts, the bound does not depend on
// their accuracy.
//
// The argument, all in IEEE double arithmetic: C is scaled by a power of
// two 2^−e so that its largest entry is in [1/2, 1), and scaled entries
// below nuclearFlush in magnitude are set to zero; call the result C', so
// σ₁(C) ≤ 2^e·(σ₁(C') + √k·nuclearFlush) for k flushed entries. G = C'C'ᵀ
// (or C'ᵀC', the shorter side, s×s) is formed in floating point; each
// entry is a sum of at most L = max(m, n) products of normal numbers, so
// |fl(G) − G| ≤ γ_L·|C'||C'|ᵀ entrywise and ‖fl(G) − G‖₂ ≤ γ_L·‖C'‖_F². If
// the floating-point Cholesky factorization of fl(t·I − fl(G)) runs to
// completion with factor R, then (choleskyShifted) λ_min of that matrix is
// ≥ −γ_{s+1}‖R‖_F², and forming its diagonal moved it by at most
// u·max_j |t − fl(G)_jj|; so λ_max(G) ≤ t + γ_{s+1}‖R‖_F² + u·max_j|t −
// fl(G)_jj| + γ_L·‖C'‖_F², plus a term for products that underflow inside
// the factorization (at most s·(s+2)·2⁻¹⁰⁷⁰·(1 + √t), far below the
// others). The shift t is placed just above σ², raised geometrically and
// then bisected toward ‖C'‖_F² when the factorization fails (a Ritz value
// that is not the largest singular value).
func (z *nuclearCert) upper(a *nuclearCost, sigma, res float64) (float64, bool) {
	big := 0.0
	if a.dense != nil {
		for _, x := range a.dense {
			big = max(big, math.Abs(x))
		}
	} else {
		for _, x := range a.val {
			big = max(big, math.Abs(x))
		}
	}
	if big == 0 {
		return 0, true
	}
	if math.IsNaN(big) || math.IsInf(big, 0) {
		return 0, false
	}
	_, e := math.Frexp(big)
	s := min(a.m, a.n)
	if z.s != s {
		*z = nuclearCert{s: s, g: make([]float64, s*s), l: make([]float64, s*s),
			sliceI: make([]int32, max(a.m, a.n)), sliceV: make([]float64, max(a.m, a.n))}
	}
	flushed := z.gram(a, e)
	g := z.g
	longer := max(a.m, a.n)
	nuL := float64(longer) * unitRoundoff
	gammaL := nuL / (1 - nuL)
	nuS := float64(s+1) * unitRoundoff
	gammaS := nuS / (1 - nuS)
	// ‖C'‖_F² ≤ tr fl(G)·(1 + γ_L) (the diagonal sums have nonnegative
	// terms).
	tr := 0.0
	for j := 0; j < s; j++ {
		tr -= g[j*s+j]
	}
	frosq := tr * (1 + 2*gammaL) * (1 + 2*nuS)
	if math.IsInf(frosq, 0) || math.IsNaN(frosq) {
		return 0, false
	}
	sc := math.Ldexp(sigma, -e)
	rc := math.Ldexp(res, -e)
	lam0 := sc * sc
	lam0 = min(lam0, frosq)
	base := 2*sc*rc + rc*rc + 4*gammaS*float64(s)*max(lam0, frosq/float64(s)) + 4*gammaL*frosq + 0x1p-1000
	best := math.Inf(1)
	try := func(t float64) bool {
		f, ok := choleskyShifted(z.l, g, s, -t)
		if !ok {
			return false
		}
		maxDiag := 0.0
		for j := 0; j < s; j++ {
			maxDiag = max(maxDiag, math.Abs(t+g[j*s+j]))
		}
		under := float64(s) * float64(s+2) * 0x1p-1070 * (1 + math.Sqrt(t))
		errSum := 1.01 * (gammaS*f + unitRoundoff*maxDiag + gammaL*frosq + under)
		best = min(best, t+errSum)
		return true
	}
	lo, hi := lam0, math.Inf(1)
	delta := base
	for k := 0; k < 6; k++ {
		t := lam0 + delta
		if t >= frosq {
			break
		}
		if try(t) {
			hi = t
			break
		}
		lo = t
		delta *= 16
	}
	if math.IsInf(hi, 1) {
		// No shift near σ² factors: σ is not the top singular value (or
		// far from converged). Bisect between lo and ‖C'‖_F² (λ_max ≤
		// tr G), which factors unless G is (numerically) of rank one.
		top := frosq * (1 + 4*gammaS*float64(s))
		if try(top) {
			hi = top
			for k := 0; k < 12; k++ {
				mid := lo + (hi-lo)/2
				if try(mid) {
					hi = mid
				} else {
					lo = mid
				}
			}
		}
	}
	if math.IsInf(best, 1) {
		return 0, false
	}
	u := math.Sqrt(best) * (1 + 4*unitRoundoff)
	u += math.Sqrt(float64(flushed)) * nuclearFlush * (1 + 4*unitRoundoff)
	// Ldexp rounds to nearest when 2^e·u is subnormal (C's entries all
	// below 2⁻¹⁰²²): one more step up.
	u = math.Nextafter(math.Ldexp(math.Nextafter(u, math.Inf(1)), e), math.Inf(1))
	if math.IsInf(u, 0) || math.IsNaN(u) {
		return 0, false
	}
	return u, true
}

// gram stores −fl(G) in the lower triangle of z.g for the Gram matrix G of
// C' = C·2^−e (entries below nuclearFlush set to 0) of the shorter side,
// as a sum of rank-one updates over the slices of the longer side (rows of
// C when n < m, columns otherwise), and returns the number of entries
// flushed.
func (z *nuclearCert) gram(a *nuclearCost, e int) int {
	s := z.s
	g := z.g
	clear(g)
	// Two factors so that neither overflows for e down to −1074.
	s1 := math.Ldexp(1, -e/2)
	s2 := math.Ldexp(1, -e-(-e/2))
	flushed := 0
	scale := func(x float64) float64 {
		y := x * s1 * s2
		if math.Abs(y) < nuclearFlush {
			flushed++
			return 0
		}
		return y
	}
	update := func(k int) {
		idx, v := z.sliceI[:k], z.sliceV[:k]
		for p, i := range idx {
			vi := v[p]
			row := g[int(i)*s:]
			for q := 0; q <= p; q++ {
				row[idx[q]] -= vi * v[q]
			}
		}
	}
	m, n := a.m, a.n
	byRows := n < m // the slices are rows, G = C'ᵀC' (n×n)
	switch {
	case a.dense != nil && byRows:
		for i := 0; i < m; i++ {
			k := 0
			for j, x := range a.dense[i*n : (i+1)*n] {
				if x != 0 {
					if y := scale(x); y != 0 {
						z.sliceI[k], z.sliceV[k] = int32(j), y
						k++
					}
				}
			}
			update(k)
		}
	case a.dense != nil:
		for j := 0; j < n; j++ {
			k := 0
			for i := 0; i < m; i++ {
				if x := a.dense[i*n+j]; x != 0 {
					if y := scale(x); y != 0 {
						z.sliceI[k], z.sliceV[k] = int32(i), y
						k++
					}
				}
			}
			update(k)
		}
	case byRows:
		for i := 0; i < m; i++ {
			k := 0
			for p := a.rowPtr[i]; p < a.rowPtr[i+1]; p++ {
				if x := a.val[p]; x != 0 {
					if y := scale(x); y != 0 {
						z.sliceI[k], z.sliceV[k] = a.col[p], y
						k++
					}
				}
			}
			update(k)
		}
	default:
		// Columns of a sparse C: transpose the scaled nonzeros first.
		nnz := len(a.col)
		if cap(z.ptr) < n+1 {
			z.ptr = make([]int, n+1)
		}
		z.ptr = z.ptr[:n+1]
		clear(z.ptr)
		if cap(z.idx) < nnz {
			z.idx, z.val = make([]int32, nnz), make([]float64, nnz)
		}
		z.idx, z.val = z.idx[:nnz], z.val[:nnz]
		for p, j := range a.col {
			if a.val[p] != 0 {
				z.ptr[j+1]++
			}
		}
		for j := 0; j < n; j++ {
			z.ptr[j+1] += z.ptr[j]
		}
		for i := 0; i < m; i++ {
			for p := a.rowPtr[i]; p < a.rowPtr[i+1]; p++ {
				if x := a.val[p]; x != 0 {
					j := a.col[p]
					q := z.ptr[j]
					z.idx[q], z.val[q] = int32(i), x
					z.ptr[j]++
				}
			}
		}
		// z.ptr[j] is now the end of column j, the start of column j+1.
		start := 0
		for j := 0; j < n; j++ {
			end := z.ptr[j]
			k := 0
			for q := start; q < end; q++ {
				if y := scale(z.val[q]); y != 0 {
					z.sliceI[k], z.sliceV[k] = z.idx[q], y
					k++
				}
			}
			update(k)
			start = end
		}
	}
	return flushed
}
