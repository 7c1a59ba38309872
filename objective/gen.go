package objective

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/lazycg/lazycg"
)

// SeedMix is the constant of the generators' PCG seeding: a generator with
// seed s draws from rand.New(rand.NewPCG(s, s^SeedMix)).
const SeedMix = 0x9e3779b97f4a7c15

// maxGeneratedNNZ bounds the expected number of nonzeros of a generated
// matrix, so that a typo in a size or density becomes an error rather than
// an out-of-memory crash (2^28 nonzeros take 4 GiB).
const maxGeneratedNNZ = 1 << 28

// newRand returns the generators' PCG for seed.
func newRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed^SeedMix))
}

// RandomLeastSquares returns f(x) = ‖Ax − b‖² with a random rows×n CSR
// matrix A as in section 7 of the paper: each entry of A is nonzero
// independently with probability density, the nonzeros are uniform in
// (0, 1] (drawn as 1−U so that no stored entry is zero), and b = A·w for w with entries uniform in [0, 1), a random
// non-negative combination of the columns of A (so min f = 0 over R^n).
// rows = 0 selects rows = n, the square instances of the paper.
//
// The nonzero positions are drawn in row-major order by geometric skipping:
// the gap to the next nonzero is ⌊ln(1−U)/ln(1−density)⌋ for U uniform in
// [0, 1), so generation takes O(nnz) expected time and memory, not
// O(rows·n); it handles n = 500000 with tiny densities. Draw order: the
// gap and then the value of each nonzero, then w_0, …, w_{n−1}.
//
// It fails when n ≤ 0, rows < 0, rows or n exceeds lazycg.MaxDim, density
// is not in (0, 1], or the expected number of nonzeros exceeds 2^28.
func RandomLeastSquares(rows, n int, density float64, seed uint64) (*LeastSquares, error) {
	if rows == 0 {
		rows = n
	}
	if err := checkLeastSquaresParams(rows, n, density); err != nil {
		return nil, fmt.Errorf("objective: random least squares: %w", err)
	}
	total := int64(rows) * int64(n)
	expected := float64(total) * density
	rng := newRand(seed)
	capacity := int(expected + 6*math.Sqrt(expected) + 16)
	colIdx := make([]int, 0, capacity)
	val := make([]float64, 0, capacity)
	rowPtr := make([]int, rows+1)
	logq := math.Log1p(-density) // ln(1−p) < 0, −Inf for p = 1
	row := 0
	for pos := int64(-1); ; {
		skip := 0.0
		if density < 1 {
			skip = math.Floor(math.Log1p(-rng.Float64()) / logq)
		}
		if skip >= float64(total-1-pos) {
			break
		}
		pos += 1 + int64(skip)
		i, j := int(pos/int64(n)), int(pos%int64(n))
		for row < i {
			row++
			rowPtr[row] = len(colIdx)
		}
		colIdx = append(colIdx, j)
		val = append(val, 1-rng.Float64()) // uniform in (0, 1]: never a stored zero
	}
	for row < rows {
		row++
		rowPtr[row] = len(colIdx)
	}
	a := &CSR{Rows: rows, Cols: n, RowPtr: rowPtr, ColIdx: colIdx, Val: val}
	w := make([]float64, n)
	for j := range w {
		w[j] = rng.Float64()
	}
	b := make([]float64, rows)
	a.MulVec(b, w)
	return &LeastSquares{a: a, b: b, r: make([]float64, rows), ad: make([]float64, rows)}, nil
}

// checkLeastSquaresParams validates the arguments of RandomLeastSquares
// (after rows = 0 was replaced by n).
func checkLeastSquaresParams(rows, n int, density float64) error {
	if n <= 0 || rows <= 0 {
		return fmt.Errorf("dimensions %d×%d must be positive", rows, n)
	}
	if rows > lazycg.MaxDim || n > lazycg.MaxDim {
		// A tiny density passes the bound on the nonzeros, but b, w and
		// the row pointers have rows and n entries.
		return fmt.Errorf("dimensions %d×%d exceed the dimension limit %d", rows, n, lazycg.MaxDim)
	}
	if !(density > 0 && density <= 1) {
		return fmt.Errorf("density %v not in (0, 1]", density)
	}
	if rows > math.MaxInt/n {
		return fmt.Errorf("%d×%d overflows", rows, n)
	}
	if expected := float64(rows) * float64(n) * density; expected > maxGeneratedNNZ {
		return fmt.Errorf("%d×%d with density %v expects %.3g nonzeros, more than %d", rows, n, density, expected, maxGeneratedNNZ)
	}
	return nil
}

// RandomDistance returns f(x) = ‖x − b‖² with b uniform in [0, 1)^n, drawn
// in order b_0, …, b_{n−1}. It fails when n ≤ 0 or n > lazycg.MaxDim.
func RandomDistance(n int, seed uint64) (*Distance, error) {
	if n <= 0 || n > lazycg.MaxDim {
		return nil, fmt.Errorf("objective: random distance: dimension %d not in [1, %d]", n, lazycg.MaxDim)
	}
	rng := newRand(seed)
	b := make([]float64, n)
	for i := range b {
		b[i] = rng.Float64()
	}
	return &Distance{b: b}, nil
}

// CompletionSampleSize returns the number of observed entries of the
// paper's matrix completion instances, s = min{5r(m + n − r), ⌈0.99mn⌉},
// for 1 ≤ r ≤ min(m, n).
func CompletionSampleSize(m, n, r int) int {
	return min(5*r*(m+n-r), (99*m*n+99)/100)
}

// RandomMatrixCompletion returns a random matrix completion instance as in
// section 7 of the paper (after Lan and Zhou): A = A_L·A_R with A_L (m×r)
// and A_R (r×n) of independent standard Gaussian entries, and Ω a uniformly
// random subset of the m·n positions of size
// s = CompletionSampleSize(m, n, r) = min{5r(m + n − r), ⌈0.99mn⌉}.
// It also returns the factored low-rank A for reporting.
//
// Draw order: A_L row-major, A_R row-major, then Ω: Floyd's algorithm
// (O(s) expected time) when s ≤ mn/4, selection sampling (Knuth's
// algorithm S, O(mn)) otherwise; both give every s-subset the same
// probability. It fails unless 1 ≤ r ≤ min(m, n) and m·n ≤ 2^28.
func RandomMatrixCompletion(m, n, r int, seed uint64) (*MatrixCompletion, *LowRank, error) {
	if m <= 0 || n <= 0 {
		return nil, nil, fmt.Errorf("objective: random matrix completion: dimensions %d×%d must be positive", m, n)
	}
	if r < 1 || r > min(m, n) {
		return nil, nil, fmt.Errorf("objective: random matrix completion: rank %d not in [1, min(%d, %d)]", r, m, n)
	}
	if m > maxCompletionEntries/n {
		return nil, nil, fmt.Errorf("objective: random matrix completion: %d×%d matrix exceeds %d entries", m, n, maxCompletionEntries)
	}
	rng := newRand(seed)
	lr := &LowRank{M: m, N: n, Rank: r, Left: make([]float64, m*r), Right: make([]float64, r*n)}
	for i := range lr.Left {
		lr.Left[i] = rng.NormFloat64()
	}
	for i := range lr.Right {
		lr.Right[i] = rng.NormFloat64()
	}
	s := CompletionSampleSize(m, n, r)
	omega := sampleSorted(rng, m*n, s)
	vals := make([]float64, s)
	for k, p := range omega {
		vals[k] = lr.At(p/n, p%n)
	}
	return newMatrixCompletionSorted(m, n, omega, vals), lr, nil
}

// sampleSorted returns a uniformly random s-subset of [0, total) in
// increasing order (0 ≤ s ≤ total).
func sampleSorted(rng *rand.Rand, total, s int) []int {
	out := make([]int, 0, s)
	if 4*s <= total {
		// Floyd: for j = total−s, …, total−1 insert a uniform t ∈ [0, j],
		// or j itself when t is already chosen.
		chosen := make(map[int]struct{}, s)
		for j := total - s; j < total; j++ {
			t := rng.IntN(j + 1)
			if _, dup := chosen[t]; dup {
				t = j
			}
			chosen[t] = struct{}{}
			out = append(out, t)
		}
		slices.Sort(out)
		return out
	}
	// Algorithm S: select position p with probability
	// (still needed)/(positions left).
	need := s
	for p := 0; p < total && need > 0; p++ {
		if rng.IntN(total-p) < need {
			out = append(out, p)
			need--
		}
	}
	return out
}

// MatrixCompletionSetting is one matrix completion experiment of the paper:
// an m×n matrix of rank Rank completed over the nuclear norm ball of radius
// Radius.
type MatrixCompletionSetting struct {
	// Figure is the label of the figure of the paper reporting it, and
	// Side is "left" or "right", the column of the figure.
	Figure, Side string
	M, N, Rank   int
	Radius       float64
}

// PaperMatrixCompletionSettings are the eight vanilla Frank–Wolfe matrix
// completion instances of section 7 ("Offline Results"), read from the
// captions of figures fig:matrix-completion-small-vanilla,
// fig:matrix-completion-large-vanilla, fig:matrix-completion-alt-1-vanilla
// and fig:matrix-completion-alt-2-vanilla of the paper.
//
// The caption of fig:matrix-completion-alt-2-vanilla prints the radius of
// its left instance as "R=1-000", a typesetting error; the five characters
// are read as R = 10000 (one digit lost), the radius also used by
// fig:matrix-completion-small-vanilla (right) and -alt-1-vanilla (right).
var PaperMatrixCompletionSettings = []MatrixCompletionSetting{
	{Figure: "fig:matrix-completion-small-vanilla", Side: "left", M: 1000, N: 3000, Rank: 10, Radius: 30000},
	{Figure: "fig:matrix-completion-small-vanilla", Side: "right", M: 100, N: 10000, Rank: 10, Radius: 10000},
	{Figure: "fig:matrix-completion-large-vanilla", Side: "left", M: 4000, N: 5000, Rank: 10, Radius: 50000},
	{Figure: "fig:matrix-completion-large-vanilla", Side: "right", M: 20000, N: 100, Rank: 10, Radius: 15000},
	{Figure: "fig:matrix-completion-alt-1-vanilla", Side: "left", M: 100, N: 5000, Rank: 10, Radius: 15000},
	{Figure: "fig:matrix-completion-alt-1-vanilla", Side: "right", M: 2000, N: 3000, Rank: 10, Radius: 10000},
	{Figure: "fig:matrix-completion-alt-2-vanilla", Side: "left", M: 1000, N: 10000, Rank: 10, Radius: 10000},
	{Figure: "fig:matrix-completion-alt-2-vanilla", Side: "right", M: 1000, N: 5000, Rank: 10, Radius: 30000},
}
