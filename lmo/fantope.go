package lmo

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/lapack64"

	"github.com/lazycg/lazycg"
)

// Fantope is the fantope F_k = {X ∈ S^n : 0 ⪯ X ⪯ I, tr X = k} of
// symmetric n×n matrices with eigenvalues in [0, 1] summing to k,
// flattened row-major (entry (i, j) at index i·n + j). It is the convex
// hull of the rank-k orthogonal projections V·Vᵀ (V n×k with orthonormal
// columns), and the feasible region of the convex relaxation of sparse
// PCA and of k-dimensional subspace problems (Vu, Cho, Lei and Rohe,
// "Fantope projection and selection", 2013). F_1 is the spectraplex.
//
// For a cost matrix C, ⟨C, X⟩ = ⟨S, X⟩ on symmetric X with S = (C + Cᵀ)/2,
// and by Ky Fan's theorem the minimum over F_k is λ_1(S) + … + λ_k(S),
// the sum of the k smallest eigenvalues, attained at V·Vᵀ for
// eigenvectors V of them. Minimize computes all eigenpairs of S by
// LAPACK's symmetric QR algorithm (gonum's Dsyev, O(n³), on buffers
// allocated by NewFantope: it allocates nothing) and writes V·Vᵀ.
//
// Result semantics. Value is c·dst for the returned V·Vᵀ (its eigenvectors
// are orthonormal up to rounding, so dst lies in F_k up to rounding).
// Bound is a proven lower bound on min over F_k, the larger of two:
//
//   - k times Gershgorin's lower bound on λ_min(S) (cheap, usually weak);
//   - a certificate of the dual SDP max { k·s − tr Z : S − s·I + Z ⪰ 0,
//     Z ⪰ 0 } (skipped when SkipCertificate is set), whose every
//     feasible point bounds the minimum from below: for X in F_k,
//     ⟨S, X⟩ = ⟨S − s·I + Z, X⟩ + s·k − ⟨Z, X⟩ ≥ s·k − tr Z since X ⪰ 0
//     and X ⪯ I. Minimize takes t = λ̂_k (the k-th computed eigenvalue),
//     Z = Σ_{l<k} (t − λ̂_l)·q_l·q_lᵀ with the computed eigenvectors q_l —
//     positive semidefinite by construction, whatever the rounding of q_l —
//     and proves S − s·I + Z ⪰ 0 for s = t − δ by a floating-point
//     Cholesky factorization of fl(S + Z) − s·I (the Spectraplex's
//     argument: Higham, Accuracy and Stability of Numerical Algorithms,
//     Thm. 10.3), lowering s by the factorization's error bound and by
//     the rounding of S, of Z's entries and of their sum. tr Z is bounded
//     from above by its computed value times 1 + γ_{n+k}. δ starts at a
//     few units of roundoff times ‖S‖ and grows 16-fold when the
//     factorization fails (at most six tries).
//
// So Bound is proven and below Value by about k·δ plus the error of the
// eigenvalues (of order n·u·‖S‖), and the result is reported as exact
// only for k = n (F_n = {I}) and for C = 0; otherwise Reason is
// lazycg.StopGap. The argument assumes IEEE double arithmetic without
// underflow (entries of C far above 1e-300 in magnitude, or zero).
//
// Costs per call: about 9n³ flops for the eigendecomposition (gonum's
// pure-Go LAPACK), k·n² for V·Vᵀ and n³/3 for each Cholesky factorization
// of the certificate (usually one); memory 5·n² floats.
type Fantope struct {
	// SkipCertificate skips the Cholesky certificate: Bound is then only
	// k times Gershgorin's bound.
	SkipCertificate bool

	n, k  int
	s     []float64 // n×n symmetric part of C
	q     []float64 // n×n: eigenvectors in its columns (Dsyev's output)
	m     []float64 // n×n: fl(S + Z) for the certificate
	chol  []float64 // n×n lower Cholesky factor (certificate)
	lam   []float64 // n eigenvalues, ascending
	work  []float64 // Dsyev's workspace
	lwork int
}

var _ lazycg.LMO = (*Fantope)(nil)

// NewFantope returns the fantope F_k of n×n matrices (dimension n²):
// 1 ≤ k ≤ n and n ≤ 46340 so that n² fits in an int32 index.
func NewFantope(n, k int) (*Fantope, error) {
	if n < 1 || n > 46340 {
		return nil, fmt.Errorf("lmo: fantope: matrix size must be in [1, 46340], got %d", n)
	}
	if k < 1 || k > n {
		return nil, fmt.Errorf("lmo: fantope: rank K must be in [1, %d], got %d", n, k)
	}
	f := &Fantope{
		n: n, k: k,
		s:    make([]float64, n*n),
		q:    make([]float64, n*n),
		m:    make([]float64, n*n),
		chol: make([]float64, n*n),
		lam:  make([]float64, n),
	}
	var query [1]float64
	lapack64.Syev(lapack.EVCompute, f.sym(), f.lam, query[:], -1)
	f.lwork = max(3*n-1, int(query[0]))
	f.work = make([]float64, f.lwork)
	return f, nil
}

// sym views f.q as the symmetric matrix Dsyev works on (upper triangle).
func (f *Fantope) sym() blas64.Symmetric {
	return blas64.Symmetric{Uplo: blas.Upper, N: f.n, Stride: f.n, Data: f.q}
}

// Dim returns n².
func (f *Fantope) Dim() int { return f.n * f.n }

// Size returns n.
func (f *Fantope) Size() int { return f.n }

// K returns k.
func (f *Fantope) K() int { return f.k }

// Diameter2 returns the squared Frobenius diameter 2·min(k, n − k) of F_k:
// ‖X − Y‖² = ‖X‖² + ‖Y‖² − 2⟨X, Y⟩ ≤ 2k for X, Y ⪰ 0 with eigenvalues in
// [0, 1] summing to k, and X ↦ I − X maps F_k onto F_{n−k}. Orthogonal
// projections onto orthogonal (or complementary) subspaces attain it.
func (f *Fantope) Diameter2() float64 { return 2 * float64(min(f.k, f.n-f.k)) }

// Vertex writes the extreme point diag(1, …, 1, 0, …, 0) with k ones into
// dst.
func (f *Fantope) Vertex(dst []float64) {
	n := f.n
	clear(dst[:n*n])
	for i := 0; i < f.k; i++ {
		dst[i*n+i] = 1
	}
}

// Minimize writes V·Vᵀ for computed eigenvectors V of the k smallest
// eigenvalues of (C + Cᵀ)/2 into dst, where C is the n×n matrix held in c;
// see the type documentation for the meaning of the result. It returns an
// error for invalid input, when ctx is canceled before the call, when
// the eigenvalue iteration fails to converge, and when c·dst lies beyond
// the range of float64 (Value is c·dst summed so that no intermediate sum
// overflows).
func (f *Fantope) Minimize(ctx context.Context, dst, c []float64) (lazycg.LinearResult, error) {
	n, k := f.n, f.k
	if err := basicCheckCost("fantope", n*n, dst, c); err != nil {
		return lazycg.LinearResult{}, err
	}
	if err := ctx.Err(); err != nil {
		return lazycg.LinearResult{}, fmt.Errorf("lmo: fantope: %w", err)
	}
	fro, anorm, gersh := symmetrizeInto(f.s, c, n)
	if k == n || fro == 0 {
		// F_n = {I}; and every point is optimal for C = 0.
		f.Vertex(dst)
		// basicValue: tr C summed in order overflowed (+Inf as exact value
		// and Bound for diag(1e308, 1e308, −1e308), whose trace is 1e308).
		v, err := basicValue("fantope", c, dst)
		if err != nil {
			return lazycg.LinearResult{}, err
		}
		return lazycg.Exact(v), nil
	}
	copy(f.q, f.s)
	if !lapack64.Syev(lapack.EVCompute, f.sym(), f.lam, f.work, f.lwork) {
		return lazycg.LinearResult{}, fmt.Errorf("lmo: fantope: the symmetric eigenvalue iteration did not converge (‖S‖_F = %g)", fro)
	}
	q := f.q
	for i := 0; i < n; i++ {
		qi := q[i*n : i*n+k]
		for j := 0; j <= i; j++ {
			x := basicDot(qi, q[j*n:j*n+k])
			dst[i*n+j], dst[j*n+i] = x, x
		}
	}
	val, err := basicValue("fantope", c, dst)
	if err != nil {
		return lazycg.LinearResult{}, err
	}
	bound := float64(k) * gersh
	if !f.SkipCertificate {
		bound = max(bound, f.certify(fro, anorm, gersh))
	}
	return lazycg.LinearResult{Found: true, Value: val, Bound: min(bound, val), Reason: lazycg.StopGap}, nil
}

// certify returns a proven lower bound on the sum of the k smallest
// eigenvalues of (C + Cᵀ)/2 from the dual certificate described in the type
// documentation, or −Inf when no shift above gersh factors. f.s holds S,
// f.q and f.lam the eigendecomposition.
func (f *Fantope) certify(fro, anorm, gersh float64) float64 {
	n, k, q, lam := f.n, f.k, f.q, f.lam
	t := lam[k-1]
	// fl(S + Z), lower triangle, and the computed tr Z = Σ d_l‖q_l‖².
	m := f.m
	trZ := 0.0
	for l := 0; l < k-1; l++ {
		d := max(0, t-lam[l])
		sq := 0.0
		for i := 0; i < n; i++ {
			sq += q[i*n+l] * q[i*n+l]
		}
		trZ += d * sq
	}
	mfro := 0.0
	for i := 0; i < n; i++ {
		qi := q[i*n : i*n+k-1]
		for j := 0; j <= i; j++ {
			z := 0.0
			for l, qil := range qi {
				z += max(0, t-lam[l]) * qil * q[j*n+l]
			}
			x := f.s[i*n+j] + z
			m[i*n+j] = x
			mfro += x * x
		}
	}
	mfro = math.Sqrt(2 * mfro) // ≥ ‖fl(S + Z)‖_F
	if math.IsInf(mfro, 0) || math.IsNaN(mfro) || math.IsInf(trZ, 0) {
		return math.Inf(-1)
	}
	u := unitRoundoff
	gam := func(j int) float64 { nu := float64(j) * u; return nu / (1 - nu) }
	// ‖fl(Z) − Z‖_F ≤ γ_k·Σ d_l‖q_l‖² (entrywise |Σ_l d_l q_il q_jl| sums of
	// k − 1 products), the sum with S adds u·|fl(S + Z)|, and fl(S) is off
	// (C + Cᵀ)/2 by at most 2u·‖S‖_F.
	trZUp := trZ * (1 + gam(n+k+2))
	fixed := gam(k+1)*trZUp + u*mfro + 2*u*fro
	base := 8*gam(n+1)*anorm + 4*u*math.Abs(t)
	delta := base
	for try := 0; try < 6; try++ {
		shift := t - delta
		if !(shift > gersh) {
			break
		}
		if ff, ok := choleskyShifted(f.chol, m, n, shift); ok {
			maxDiag := 0.0
			for i := 0; i < n; i++ {
				maxDiag = max(maxDiag, math.Abs(m[i*n+i]-shift))
			}
			e := 1.01 * (gam(n+1)*ff + u*maxDiag + fixed)
			s := shift - e
			kf := float64(k)
			b := kf*s - trZUp
			b -= 4 * u * (kf*math.Abs(s) + trZUp)
			return math.Nextafter(b, math.Inf(-1))
		}
		delta *= 16
	}
	return math.Inf(-1)
}
