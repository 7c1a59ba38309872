package lmo

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/lazycg/lazycg"
)

// NuclearBall is the nuclear-norm ball {X ∈ R^{m×n} : ‖X‖_* ≤ R} of m×n
// matrices flattened row-major (entry (i, j) at index i·n + j). It is not a
// polytope: its extreme points are the rank-one matrices R·u·vᵀ with unit
// vectors u, v.
//
// The minimizer of ⟨C, X⟩ over the ball is −R·u₁·v₁ᵀ, where (u₁, v₁) is a
// top singular pair of C, and the minimum is −R·σ₁(C). Minimize computes the
// pair iteratively by Golub–Kahan–Lanczos bidiagonalization with full
// reorthogonalization, restarted from the best Ritz vector after at most 32
// steps. The start vector is a fixed pseudo-random vector, so results are
// deterministic. After each restart cycle the Ritz pair (u, v), with
// u = Cv/σ and σ = ‖Cv‖, is checked by its explicit residual
// ‖Cᵀu − σ·v‖ ≤ Tol·σ.
//
// Result semantics: Value is always c·dst computed from the returned
// rank-one matrix. When the residual test passes, the result is reported as
// lazycg.Exact(Value); this is exact up to the tolerance, not a proof (a
// small residual certifies that σ is close to some singular value; that it
// is the largest one relies on the start vector having a component along
// v₁, which a pseudo-random start has except in degenerate cases). When
// MaxIter steps do not reach the tolerance, the result keeps the best pair
// found, Reason is lazycg.StopTimeLimit (an iteration limit) and Bound is
// the rigorous but weaker lower bound −R·min(‖C‖_F, √(‖C‖₁‖C‖_∞)), using
// σ₁ ≤ ‖C‖_F and σ₁ ≤ √(‖C‖₁‖C‖_∞) (maximum absolute column and row sums).
//
// For sparse cost matrices (matrix completion gradients), SetSupport declares
// which entries of c can be nonzero; products with C then cost O(|support|)
// instead of O(mn). Writing the dense answer dst still costs O(mn).
type NuclearBall struct {
	// Tol is the relative residual tolerance of the singular pair
	// (default 1e-9). It must be finite and ≥ 0.
	Tol float64
	// MaxIter bounds the number of Lanczos steps per call, each one product
	// with C and one with Cᵀ, counting one verification step per restart
	// cycle; the first cycle always runs at least one step and its
	// verification (default 1000). It must be ≥ 1.
	MaxIter int

	m, n int
	r    float64
	kmax int // Lanczos basis size

	hasSupport bool
	support    []int   // sorted distinct flat indices
	supRow     []int32 // row of each support entry
	supCol     []int32 // column of each support entry

	basisV []float64 // kmax right Lanczos vectors of length n
	basisU []float64 // kmax left Lanczos vectors of length m
	alpha  []float64 // diagonal of the bidiagonal matrix
	beta   []float64 // superdiagonal of the bidiagonal matrix
	gram   []float64 // kmax×kmax: BᵀB, diagonalized by Jacobi rotations
	eigvec []float64 // kmax×kmax: accumulated rotations
	v, w   []float64 // length n: Ritz vector and Cᵀu
	u, p   []float64 // length m: Ritz vector and scratch
	colAbs []float64 // length n: absolute column sums
	rowAbs []float64 // length m: absolute row sums
}

// nuclearMaxBasis is the Lanczos basis size before a restart.
const nuclearMaxBasis = 32

var _ lazycg.LMO = (*NuclearBall)(nil)

// NewNuclearBall returns the nuclear-norm ball of radius R in the space of
// m×n matrices. m, n must be ≥ 1 and radius finite and > 0.
func NewNuclearBall(m, n int, radius float64) (*NuclearBall, error) {
	if m < 1 || n < 1 || m > math.MaxInt32 || n > math.MaxInt32 || m > math.MaxInt/n {
		return nil, fmt.Errorf("lmo: nuclear ball: invalid matrix size %d×%d", m, n)
	}
	if err := basicCheckRadius("nuclear ball", "radius", radius); err != nil {
		return nil, err
	}
	k := min(nuclearMaxBasis, min(m, n)+1)
	return &NuclearBall{
		Tol:     1e-9,
		MaxIter: 1000,
		m:       m,
		n:       n,
		r:       radius,
		kmax:    k,
		basisV:  make([]float64, k*n),
		basisU:  make([]float64, k*m),
		alpha:   make([]float64, k),
		beta:    make([]float64, k),
		gram:    make([]float64, k*k),
		eigvec:  make([]float64, k*k),
		v:       make([]float64, n),
		w:       make([]float64, n),
		u:       make([]float64, m),
		p:       make([]float64, m),
		colAbs:  make([]float64, n),
		rowAbs:  make([]float64, m),
	}, nil
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
// Duplicates are allowed. SetSupport(nil) returns to dense matrices. It
// allocates and is meant to be called once, before the iterations.
func (b *NuclearBall) SetSupport(idx []int) error {
	if idx == nil {
		b.hasSupport = false
		b.support, b.supRow, b.supCol = b.support[:0], b.supRow[:0], b.supCol[:0]
		return nil
	}
	dim := b.m * b.n
	for k, f := range idx {
		if f < 0 || f >= dim {
			return fmt.Errorf("lmo: nuclear ball: support entry %d is index %d, outside [0, %d)", k, f, dim)
		}
	}
	s := slices.Compact(slices.Sorted(slices.Values(idx)))
	b.support = s
	b.supRow = make([]int32, len(s))
	b.supCol = make([]int32, len(s))
	for k, f := range s {
		b.supRow[k], b.supCol[k] = int32(f/b.n), int32(f%b.n)
	}
	b.hasSupport = true
	return nil
}

// Minimize writes −R·u·vᵀ for an (approximate) top singular pair (u, v) of
// the matrix C held in c into dst; see the type documentation for the
// meaning of the result. It returns an error for invalid input, invalid Tol
// or MaxIter, and when ctx is canceled.
func (b *NuclearBall) Minimize(ctx context.Context, dst, c []float64) (lazycg.LinearResult, error) {
	dim := b.m * b.n
	if len(c) != dim {
		return lazycg.LinearResult{}, fmt.Errorf("lmo: nuclear ball: cost vector has length %d, want %d", len(c), dim)
	}
	if len(dst) != dim {
		return lazycg.LinearResult{}, fmt.Errorf("lmo: nuclear ball: destination has length %d, want %d", len(dst), dim)
	}
	if math.IsNaN(b.Tol) || math.IsInf(b.Tol, 0) || b.Tol < 0 {
		return lazycg.LinearResult{}, fmt.Errorf("lmo: nuclear ball: Tol must be finite and ≥ 0, got %v", b.Tol)
	}
	if b.MaxIter < 1 {
		return lazycg.LinearResult{}, fmt.Errorf("lmo: nuclear ball: MaxIter must be ≥ 1, got %d", b.MaxIter)
	}
	fro, err := b.norms(c)
	if err != nil {
		return lazycg.LinearResult{}, err
	}
	if fro == 0 {
		b.Vertex(dst)
		return lazycg.Exact(0), nil
	}
	upper := fro
	var maxCol, maxRow float64
	for _, s := range b.colAbs {
		maxCol = max(maxCol, s)
	}
	for _, s := range b.rowAbs {
		maxRow = max(maxRow, s)
	}
	upper = min(upper, math.Sqrt(maxCol)*math.Sqrt(maxRow))

	b.startVector()
	breakTol := 1e-13 * fro
	used := 0
	converged := false
	sigma := 0.0
	for {
		if err := ctx.Err(); err != nil {
			return lazycg.LinearResult{}, fmt.Errorf("lmo: nuclear ball: %w", err)
		}
		steps := min(b.kmax, max(1, b.MaxIter-used-1))
		k := b.lanczos(c, steps, breakTol)
		used += k + 1
		b.ritz(k)
		// Verification: σ = ‖Cv‖, u = Cv/σ, w = Cᵀu, residual ‖w − σv‖.
		b.mulC(b.u, c, b.v)
		sigma = math.Sqrt(basicDot(b.u, b.u))
		if sigma == 0 {
			break
		}
		basicScale(b.u, 1/sigma)
		b.mulCT(b.w, c, b.u)
		res := 0.0
		for j, wj := range b.w {
			d := wj - sigma*b.v[j]
			res += d * d
		}
		if math.Sqrt(res) <= b.Tol*sigma {
			converged = true
			break
		}
		if used >= b.MaxIter {
			break
		}
		// Restart from w/‖w‖ = the Ritz vector after one more power step.
		v0 := b.basisV[:b.n]
		copy(v0, b.w)
		basicScale(v0, 1/math.Sqrt(basicDot(v0, v0)))
	}
	if sigma == 0 {
		// C·v = 0 for the Ritz vector: no information, return a vertex.
		b.Vertex(dst)
		res := lazycg.LinearResult{Found: true, Value: b.value(c, dst), Bound: -b.r * upper, Reason: lazycg.StopTimeLimit}
		return res, nil
	}
	for i, ui := range b.u {
		row := dst[i*b.n : (i+1)*b.n]
		s := -b.r * ui
		for j, vj := range b.v {
			row[j] = s * vj
		}
	}
	val := b.value(c, dst)
	if converged {
		return lazycg.Exact(val), nil
	}
	return lazycg.LinearResult{Found: true, Value: val, Bound: min(val, -b.r*upper), Reason: lazycg.StopTimeLimit}, nil
}

// norms checks the (supported) entries of c for finiteness, fills the
// absolute row and column sums and returns the Frobenius norm.
func (b *NuclearBall) norms(c []float64) (float64, error) {
	clear(b.colAbs)
	clear(b.rowAbs)
	// Scaled sum of squares to avoid overflow for huge entries.
	scale, ssq := 0.0, 1.0
	add := func(f, i, j int) error {
		x := c[f]
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("lmo: nuclear ball: cost entry %d (row %d, column %d) is %v, want a finite number", f, i, j, x)
		}
		if x == 0 {
			return nil
		}
		a := math.Abs(x)
		b.rowAbs[i] += a
		b.colAbs[j] += a
		if scale < a {
			ssq = 1 + ssq*(scale/a)*(scale/a)
			scale = a
		} else {
			ssq += (a / scale) * (a / scale)
		}
		return nil
	}
	if b.hasSupport {
		for k, f := range b.support {
			if err := add(f, int(b.supRow[k]), int(b.supCol[k])); err != nil {
				return 0, err
			}
		}
	} else {
		for f := range c {
			if err := add(f, f/b.n, f%b.n); err != nil {
				return 0, err
			}
		}
	}
	return scale * math.Sqrt(ssq), nil
}

// value returns c·dst, summing over the support only when one is set (the
// other entries of c are 0 by contract).
func (b *NuclearBall) value(c, dst []float64) float64 {
	if !b.hasSupport {
		return basicDot(c, dst)
	}
	s := 0.0
	for _, f := range b.support {
		s += c[f] * dst[f]
	}
	return s
}

// startVector writes a fixed pseudo-random unit vector into the first
// right Lanczos vector.
func (b *NuclearBall) startVector() {
	v0 := b.basisV[:b.n]
	x := uint64(0x2545f4914f6cdd1d)
	for j := range v0 {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		v0[j] = float64(x>>11)/(1<<53) - 0.5
	}
	basicScale(v0, 1/math.Sqrt(basicDot(v0, v0)))
}

// lanczos runs at most steps Golub–Kahan steps from the unit vector in the
// first right basis slot, building C·V_k = U_k·B_k with B_k upper bidiagonal
// (alpha on the diagonal, beta above). It stops early when the Krylov spaces
// become invariant and returns k.
func (b *NuclearBall) lanczos(c []float64, steps int, breakTol float64) int {
	m, n := b.m, b.n
	V := func(i int) []float64 { return b.basisV[i*n : (i+1)*n] }
	U := func(i int) []float64 { return b.basisU[i*m : (i+1)*m] }
	clear(b.alpha)
	clear(b.beta)

	b.mulC(U(0), c, V(0))
	if a := math.Sqrt(basicDot(U(0), U(0))); a > breakTol {
		b.alpha[0] = a
		basicScale(U(0), 1/a)
	} else {
		return 1 // C·v = 0: B = [0]
	}
	for j := 0; ; j++ {
		// r = Cᵀu_j − α_j v_j, orthogonalized against V_0..V_j.
		r := b.w
		b.mulCT(r, c, U(j))
		basicAxpy(r, -b.alpha[j], V(j))
		for pass := 0; pass < 2; pass++ {
			for i := 0; i <= j; i++ {
				basicAxpy(r, -basicDot(r, V(i)), V(i))
			}
		}
		beta := math.Sqrt(basicDot(r, r))
		if j+1 == steps || beta <= breakTol {
			return j + 1
		}
		b.beta[j] = beta
		vn := V(j + 1)
		copy(vn, r)
		basicScale(vn, 1/beta)
		// p = C v_{j+1} − β_j u_j, orthogonalized against U_0..U_j.
		un := U(j + 1)
		b.mulC(un, c, vn)
		basicAxpy(un, -beta, U(j))
		for pass := 0; pass < 2; pass++ {
			for i := 0; i <= j; i++ {
				basicAxpy(un, -basicDot(un, U(i)), U(i))
			}
		}
		a := math.Sqrt(basicDot(un, un))
		if a <= breakTol {
			// C·V_{j+2} ⊂ span U_{j+1}: invariant pair, B has a zero row.
			clear(un)
			return j + 2
		}
		b.alpha[j+1] = a
		basicScale(un, 1/a)
	}
}

// ritz computes the top eigenvector y of B_kᵀB_k by cyclic Jacobi rotations
// and writes the unit Ritz vector v = V_k·y into b.v.
func (b *NuclearBall) ritz(k int) {
	g, z := b.gram[:k*k], b.eigvec[:k*k]
	clear(g)
	clear(z)
	for i := 0; i < k; i++ {
		d := b.alpha[i] * b.alpha[i]
		if i > 0 {
			d += b.beta[i-1] * b.beta[i-1]
		}
		g[i*k+i] = d
		if i+1 < k {
			e := b.alpha[i] * b.beta[i]
			g[i*k+i+1], g[(i+1)*k+i] = e, e
		}
		z[i*k+i] = 1
	}
	basicJacobi(g, z, k)
	top := 0
	for i := 1; i < k; i++ {
		if g[i*k+i] > g[top*k+top] {
			top = i
		}
	}
	clear(b.v)
	for i := 0; i < k; i++ {
		basicAxpy(b.v, z[i*k+top], b.basisV[i*b.n:(i+1)*b.n])
	}
	basicScale(b.v, 1/math.Sqrt(basicDot(b.v, b.v)))
}

// mulC stores C·x in dst (x of length n, dst of length m).
func (b *NuclearBall) mulC(dst, c, x []float64) {
	if b.hasSupport {
		clear(dst)
		for k, f := range b.support {
			dst[b.supRow[k]] += c[f] * x[b.supCol[k]]
		}
		return
	}
	for i := range dst {
		dst[i] = basicDot(c[i*b.n:(i+1)*b.n], x)
	}
}

// mulCT stores Cᵀ·y in dst (y of length m, dst of length n).
func (b *NuclearBall) mulCT(dst, c, y []float64) {
	clear(dst)
	if b.hasSupport {
		for k, f := range b.support {
			dst[b.supCol[k]] += c[f] * y[b.supRow[k]]
		}
		return
	}
	for i, yi := range y {
		if yi != 0 {
			basicAxpy(dst, yi, c[i*b.n:(i+1)*b.n])
		}
	}
}

// basicJacobi diagonalizes the symmetric k×k matrix a (row-major) by cyclic
// Jacobi rotations, accumulating them into z (initially the identity), so
// that afterwards a is diagonal with the eigenvalues and the columns of z
// are the eigenvectors.
func basicJacobi(a, z []float64, k int) {
	for sweep := 0; sweep < 50; sweep++ {
		off, diag := 0.0, 0.0
		for i := 0; i < k; i++ {
			diag += a[i*k+i] * a[i*k+i]
			for j := i + 1; j < k; j++ {
				off += a[i*k+j] * a[i*k+j]
			}
		}
		if off <= 1e-30*diag || off == 0 {
			return
		}
		for p := 0; p < k; p++ {
			for q := p + 1; q < k; q++ {
				apq := a[p*k+q]
				if apq == 0 {
					continue
				}
				theta := (a[q*k+q] - a[p*k+p]) / (2 * apq)
				t := 1 / (math.Abs(theta) + math.Sqrt(theta*theta+1))
				if theta < 0 {
					t = -t
				}
				cs := 1 / math.Sqrt(t*t+1)
				sn := t * cs
				for r := 0; r < k; r++ { // columns p, q
					arp, arq := a[r*k+p], a[r*k+q]
					a[r*k+p], a[r*k+q] = cs*arp-sn*arq, sn*arp+cs*arq
					zrp, zrq := z[r*k+p], z[r*k+q]
					z[r*k+p], z[r*k+q] = cs*zrp-sn*zrq, sn*zrp+cs*zrq
				}
				for r := 0; r < k; r++ { // rows p, q
					apr, aqr := a[p*k+r], a[q*k+r]
					a[p*k+r], a[q*k+r] = cs*apr-sn*aqr, sn*apr+cs*aqr
				}
				a[p*k+q], a[q*k+p] = 0, 0
			}
		}
	}
}

// basicAxpy computes y += alpha·x.
func basicAxpy(y []float64, alpha float64, x []float64) {
	for i, xi := range x {
		y[i] += alpha * xi
	}
}

// basicScale computes x *= alpha.
func basicScale(x []float64, alpha float64) {
	for i := range x {
		x[i] *= alpha
	}
}
