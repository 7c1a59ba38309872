package objective

import (
	"fmt"
	"math"
	"sort"

	"github.com/lazycg/lazycg"
)

// maxCompletionEntries bounds m·n for matrix completion so that a typo in a
// size turns into an error instead of an out-of-memory crash (each iterate
// is a dense m·n vector).
const maxCompletionEntries = 1 << 28

// MatrixCompletion is the matrix completion objective
// f(X) = Σ_{(i,j)∈Ω} (X_ij − A_ij)² over m×n matrices X, flattened
// row-major: X_ij is x[i·n + j]. Ω is stored as sorted flat indices
// i·n + j with the observed values A_ij alongside.
//
// The gradient 2(X_ij − A_ij) on Ω is zero elsewhere. Grad writes every
// entry of dst (it clears dst and fills in Ω), so callers need not zero it;
// lmo.NuclearBall finds the sparsity of such gradients itself. Every
// evaluation still costs O(mn) for the dense iterate: OnOmega is the same
// problem in |Ω| coordinates, over lmo.NuclearBallOn, at O(|Ω|) per
// evaluation. Evaluations allocate nothing and keep no scratch state.
type MatrixCompletion struct {
	m, n  int
	omega []int
	vals  []float64
}

var (
	_ lazycg.Objective     = (*MatrixCompletion)(nil)
	_ lazycg.FuncGrader    = (*MatrixCompletion)(nil)
	_ lazycg.LineMinimizer = (*MatrixCompletion)(nil)
	_ QuadraticLine        = (*MatrixCompletion)(nil)
)

// NewMatrixCompletion returns the objective for m×n matrices with observed
// entries values[k] at the flat positions omega[k] = i·n + j. The inputs
// are copied and sorted by position. It fails on non-positive or too large
// dimensions (m·n at most 2^28), length mismatches, positions out of range,
// repeated positions and non-finite values.
func NewMatrixCompletion(m, n int, omega []int, values []float64) (*MatrixCompletion, error) {
	if m <= 0 || n <= 0 {
		return nil, fmt.Errorf("objective: matrix completion: dimensions %d×%d must be positive", m, n)
	}
	if m > maxCompletionEntries/n {
		return nil, fmt.Errorf("objective: matrix completion: %d×%d matrix exceeds %d entries", m, n, maxCompletionEntries)
	}
	if len(omega) != len(values) {
		return nil, fmt.Errorf("objective: matrix completion: %d positions but %d values", len(omega), len(values))
	}
	mn := m * n
	f := &MatrixCompletion{m: m, n: n, omega: make([]int, len(omega)), vals: make([]float64, len(values))}
	perm := make([]int, len(omega))
	for k, p := range omega {
		if p < 0 || p >= mn {
			return nil, fmt.Errorf("objective: matrix completion: position %d out of range [0, %d)", p, mn)
		}
		if v := values[k]; math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("objective: matrix completion: entry (%d, %d) has non-finite value %v", p/n, p%n, v)
		}
		perm[k] = k
	}
	sort.Slice(perm, func(a, b int) bool { return omega[perm[a]] < omega[perm[b]] })
	for k, src := range perm {
		f.omega[k] = omega[src]
		f.vals[k] = values[src]
		if k > 0 && f.omega[k] == f.omega[k-1] {
			p := f.omega[k]
			return nil, fmt.Errorf("objective: matrix completion: entry (%d, %d) observed twice", p/n, p%n)
		}
	}
	return f, nil
}

// newMatrixCompletionSorted builds the objective from sorted distinct
// in-range positions without copying (generator use).
func newMatrixCompletionSorted(m, n int, omega []int, values []float64) *MatrixCompletion {
	return &MatrixCompletion{m: m, n: n, omega: omega, vals: values}
}

// Dim returns m·n.
func (f *MatrixCompletion) Dim() int { return f.m * f.n }

// Rows returns m.
func (f *MatrixCompletion) Rows() int { return f.m }

// Cols returns n.
func (f *MatrixCompletion) Cols() int { return f.n }

// Support returns Ω as sorted flat indices i·n + j (shared, do not modify).
// The gradient is zero outside it.
func (f *MatrixCompletion) Support() []int { return f.omega }

// Observed returns the observed values A_ij in the order of Support
// (shared, do not modify).
func (f *MatrixCompletion) Observed() []float64 { return f.vals }

// OnOmega returns f in Ω-coordinates: y ∈ R^{|Ω|} holds the entries of X
// on Ω in the order of Support, and f(y) = Σ_k (y_k − A_k)² = ‖y − a‖²
// with a = Observed(). Over lmo.NewNuclearBallOn(Rows(), Cols(), R,
// Support()) it is the same problem as f over the nuclear-norm ball of
// radius R, with the same values, gradients on Ω, Wolfe gaps, optimum and
// dual bounds (see lmo.NuclearBallOn), at O(|Ω|) per evaluation; its
// smoothness L = 2 and curvature L·diam² are those of f. The observed
// values are shared, not copied.
func (f *MatrixCompletion) OnOmega() *Distance { return &Distance{b: f.vals} }

// Func returns Σ_Ω (X_ij − A_ij)².
func (f *MatrixCompletion) Func(x []float64) float64 {
	x = x[:f.m*f.n]
	vals := f.vals[:len(f.omega)]
	s := 0.0
	for k, p := range f.omega {
		r := x[p] - vals[k]
		s += r * r
	}
	return s
}

// Grad stores ∇f(x) in dst: 2(X_ij − A_ij) on Ω and 0 elsewhere.
func (f *MatrixCompletion) Grad(dst, x []float64) { f.FuncGrad(dst, x) }

// FuncGrad stores ∇f(x) in dst and returns f(x).
func (f *MatrixCompletion) FuncGrad(dst, x []float64) float64 {
	mn := f.m * f.n
	x = x[:mn]
	dst = dst[:mn]
	clear(dst)
	vals := f.vals[:len(f.omega)]
	s := 0.0
	for k, p := range f.omega {
		r := x[p] - vals[k]
		s += r * r
		dst[p] = 2 * r
	}
	return s
}

// LineCoeffs returns slope = 2Σ_Ω (X_ij − A_ij) D_ij and curv = Σ_Ω D_ij².
func (f *MatrixCompletion) LineCoeffs(x, d []float64) (slope, curv float64) {
	mn := f.m * f.n
	x = x[:mn]
	d = d[:mn]
	vals := f.vals[:len(f.omega)]
	for k, p := range f.omega {
		dp := d[p]
		slope += (x[p] - vals[k]) * dp
		curv += dp * dp
	}
	return 2 * slope, curv
}

// LineMinimize returns the exact minimizer of f(x + γd) over [0, gmax],
// clamp(−Σ_Ω (X_ij − A_ij) D_ij / Σ_Ω D_ij², 0, gmax). When d vanishes on
// Ω the result is 0 if ⟨grad, d⟩ ≥ 0 (or grad is nil) and gmax otherwise.
// Sums that overflow, or underflow (entries beyond about 1e±150), are
// recomputed from entries scaled by powers of two.
func (f *MatrixCompletion) LineMinimize(x, d, grad []float64, gmax float64) float64 {
	slope, curv := f.LineCoeffs(x, d)
	if !coeffsReliable(slope, curv, 1) {
		if g, ok := scaledLineMinimize(x, d, f.vals[:len(f.omega)], nil, f.omega, gmax); ok {
			return g
		}
	}
	gd := 0.0
	if grad != nil && curv == 0 {
		gd = dot(grad, d)
	}
	return minimizeQuadratic(slope, curv, gd, gmax)
}

// Smoothness returns the smoothness constant L = 2 (the Hessian is twice
// the projection onto Ω), or 0 when Ω is empty.
func (f *MatrixCompletion) Smoothness() float64 {
	if len(f.omega) == 0 {
		return 0
	}
	return 2
}

// Curvature returns L·diam² with L = Smoothness(); for the nuclear norm
// ball of radius R the Frobenius diameter is 2R.
func (f *MatrixCompletion) Curvature(diam float64) float64 { return f.Smoothness() * diam * diam }

// LowRank is the m×r by r×n factorization A = Left·Right of a low-rank
// matrix, both factors row-major.
type LowRank struct {
	M, N, Rank int
	// Left is the M×Rank factor, entry (i, k) at Left[i*Rank+k].
	Left []float64
	// Right is the Rank×N factor, entry (k, j) at Right[k*N+j].
	Right []float64
}

// At returns A_ij = Σ_k Left_ik Right_kj.
func (a *LowRank) At(i, j int) float64 {
	l := a.Left[i*a.Rank : (i+1)*a.Rank]
	s := 0.0
	for k, v := range l {
		s += v * a.Right[k*a.N+j]
	}
	return s
}

// Dense stores A in dst, row-major (len(dst) = M·N).
func (a *LowRank) Dense(dst []float64) {
	if len(dst) != a.M*a.N {
		panic(fmt.Sprintf("objective: low rank: Dense with len(dst) = %d for a %d×%d matrix", len(dst), a.M, a.N))
	}
	clear(dst)
	for i := 0; i < a.M; i++ {
		row := dst[i*a.N : (i+1)*a.N]
		for k, v := range a.Left[i*a.Rank : (i+1)*a.Rank] {
			axpy(row, v, a.Right[k*a.N:(k+1)*a.N])
		}
	}
}
