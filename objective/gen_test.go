package objective

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestRandomLeastSquaresDeterministic(t *testing.T) {
	a, err := RandomLeastSquares(50, 40, 0.1, 42)
	mustOK(t, err)
	b, err := RandomLeastSquares(50, 40, 0.1, 42)
	mustOK(t, err)
	c, err := RandomLeastSquares(50, 40, 0.1, 43)
	mustOK(t, err)
	ca, cb, cc := a.A().(*CSR), b.A().(*CSR), c.A().(*CSR)
	if !slices.Equal(ca.RowPtr, cb.RowPtr) || !slices.Equal(ca.ColIdx, cb.ColIdx) ||
		!slices.Equal(ca.Val, cb.Val) || !slices.Equal(a.B(), b.B()) {
		t.Fatal("same seed gave different instances")
	}
	if slices.Equal(ca.ColIdx, cc.ColIdx) && slices.Equal(ca.Val, cc.Val) {
		t.Fatal("different seeds gave the same instance")
	}
}

// chiSquare returns Σ (o − e)²/e for observed counts o that all have the
// expectation e.
func chiSquare(counts []float64, expected float64) float64 {
	s := 0.0
	for _, o := range counts {
		s += (o - expected) * (o - expected) / expected
	}
	return s
}

// chi2Crit9999 is (roughly) the 99.99% quantile of χ² with 9 degrees of
// freedom.
const chi2Crit9999 = 33.7

func TestRandomLeastSquaresDistribution(t *testing.T) {
	const rows, n, p = 400, 500, 0.02
	for _, seed := range []uint64{1, 2} {
		ls, err := RandomLeastSquares(rows, n, p, seed)
		mustOK(t, err)
		a := ls.A().(*CSR)
		mustOK(t, a.Validate())
		if r, c := a.Dims(); r != rows || c != n || ls.Dim() != n || ls.Rows() != rows {
			t.Fatalf("dims %d×%d", r, c)
		}
		mean := float64(rows*n) * p
		sd := math.Sqrt(mean * (1 - p))
		if nnz := float64(a.NNZ()); math.Abs(nnz-mean) > 5*sd {
			t.Errorf("seed %d: %v nonzeros, expected %v ± %v", seed, nnz, mean, sd)
		}
		// Values uniform in (0, 1]: range and mean.
		sum := 0.0
		for _, v := range a.Val {
			if !(v > 0 && v <= 1) {
				t.Fatalf("value %v outside (0, 1]", v)
			}
			sum += v
		}
		vm := sum / float64(a.NNZ())
		if tol := 5 * math.Sqrt(1.0/12/float64(a.NNZ())); math.Abs(vm-0.5) > tol {
			t.Errorf("seed %d: mean value %v, want 0.5 ± %v", seed, vm, tol)
		}
		// Positions uniform: nonzeros per band of rows and of columns.
		rowBands, colBands := make([]float64, 10), make([]float64, 10)
		for i := 0; i < rows; i++ {
			for k := a.RowPtr[i]; k < a.RowPtr[i+1]; k++ {
				rowBands[i*10/rows]++
				colBands[a.ColIdx[k]*10/n]++
			}
		}
		exp := float64(a.NNZ()) / 10
		if c := chiSquare(rowBands, exp); c > chi2Crit9999 {
			t.Errorf("seed %d: row bands %v not uniform (χ² = %v)", seed, rowBands, c)
		}
		if c := chiSquare(colBands, exp); c > chi2Crit9999 {
			t.Errorf("seed %d: column bands %v not uniform (χ² = %v)", seed, colBands, c)
		}
		// b = A w with w ∈ [0, 1]^n: 0 ≤ b_i ≤ row sum i.
		for i, bi := range ls.B() {
			rs := 0.0
			for _, v := range a.Val[a.RowPtr[i]:a.RowPtr[i+1]] {
				rs += v
			}
			if bi < 0 || bi > rs*(1+1e-12) {
				t.Fatalf("b[%d] = %v outside [0, row sum %v]", i, bi, rs)
			}
		}
		// b is a combination with weights of mean 1/2: Σb ≈ Σ A / 2.
		if tot, bs := sum, sumOf(ls.B()); math.Abs(bs-tot/2) > 0.1*tot {
			t.Errorf("seed %d: Σb = %v, Σ A_ij / 2 = %v", seed, bs, tot/2)
		}
	}
}

func sumOf(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s
}

func TestRandomLeastSquaresShapes(t *testing.T) {
	full, err := RandomLeastSquares(7, 9, 1, 3)
	mustOK(t, err)
	if a := full.A().(*CSR); a.NNZ() != 63 {
		t.Errorf("density 1: %d nonzeros, want 63", a.NNZ())
	}
	sq, err := RandomLeastSquares(0, 12, 0.5, 3)
	mustOK(t, err)
	if sq.Rows() != 12 || sq.Dim() != 12 {
		t.Errorf("rows = 0: %d×%d, want 12×12", sq.Rows(), sq.Dim())
	}
	// O(nnz) generation: 500000×500000 = 2.5e11 positions, 250000 nonzeros.
	big, err := RandomLeastSquares(500000, 500000, 1e-6, 1)
	mustOK(t, err)
	a := big.A().(*CSR)
	if nnz := float64(a.NNZ()); math.Abs(nnz-250000) > 5*500 {
		t.Errorf("n = 500000: %v nonzeros, expected 250000 ± 500", nnz)
	}
	if a.RowPtr[len(a.RowPtr)-1] != a.NNZ() || a.ColIdx[len(a.ColIdx)-1] >= 500000 {
		t.Error("n = 500000: malformed CSR")
	}
	for _, tc := range []struct {
		rows, n int
		p       float64
		want    string
	}{
		{10, 0, 0.5, "positive"},
		{-1, 10, 0.5, "positive"},
		{10, 10, 0, "density"},
		{10, 10, 1.5, "density"},
		{10, 10, math.NaN(), "density"},
		{1 << 20, 1 << 20, 0.5, "nonzeros"},
	} {
		_, err := RandomLeastSquares(tc.rows, tc.n, tc.p, 1)
		if err == nil || !strings.HasPrefix(err.Error(), "objective: random least squares: ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("RandomLeastSquares(%d, %d, %v): error %v, want %q", tc.rows, tc.n, tc.p, err, tc.want)
		}
	}
}

func TestRandomDistance(t *testing.T) {
	d1, err := RandomDistance(20000, 8)
	mustOK(t, err)
	d2, err := RandomDistance(20000, 8)
	mustOK(t, err)
	d3, err := RandomDistance(20000, 9)
	mustOK(t, err)
	if !slices.Equal(d1.B(), d2.B()) || slices.Equal(d1.B(), d3.B()) {
		t.Fatal("not deterministic per seed")
	}
	if d1.Weights() != nil || d1.Dim() != 20000 {
		t.Fatal("unexpected shape")
	}
	for _, v := range d1.B() {
		if v < 0 || v >= 1 {
			t.Fatalf("b entry %v outside [0, 1)", v)
		}
	}
	if m := sumOf(d1.B()) / 20000; math.Abs(m-0.5) > 5*math.Sqrt(1.0/12/20000) {
		t.Errorf("mean %v, want 0.5", m)
	}
	if _, err := RandomDistance(0, 1); err == nil {
		t.Error("n = 0 accepted")
	}
}

func TestCompletionSampleSize(t *testing.T) {
	tests := []struct{ m, n, r, want int }{
		{1000, 3000, 10, 199500},
		{100, 10000, 10, 504500},
		{20000, 100, 10, 1004500},
		{10, 10, 5, 99},    // 5·5·15 = 375 > ⌈99⌉
		{4, 5, 1, 20},      // 40 > ⌈19.8⌉ = 20
		{10, 20, 1, 145},   // 5·29 = 145 < 198
		{3, 3, 3, 9},       // 45 > ⌈8.91⌉ = 9
		{100, 100, 1, 995}, // 5·199
	}
	for _, tc := range tests {
		if got := CompletionSampleSize(tc.m, tc.n, tc.r); got != tc.want {
			t.Errorf("CompletionSampleSize(%d, %d, %d) = %d, want %d", tc.m, tc.n, tc.r, got, tc.want)
		}
	}
}

func TestRandomMatrixCompletion(t *testing.T) {
	for _, sz := range [][3]int{{10, 20, 1}, {100, 100, 1}, {30, 20, 4}, {3, 3, 3}} {
		m, n, r := sz[0], sz[1], sz[2]
		t.Run(fmt.Sprint(sz), func(t *testing.T) {
			mc, lr, err := RandomMatrixCompletion(m, n, r, 17)
			mustOK(t, err)
			omega := mc.Support()
			if len(omega) != CompletionSampleSize(m, n, r) || len(mc.Observed()) != len(omega) {
				t.Fatalf("|Ω| = %d, want %d", len(omega), CompletionSampleSize(m, n, r))
			}
			for k, p := range omega {
				if p < 0 || p >= m*n || (k > 0 && p <= omega[k-1]) {
					t.Fatalf("Ω not sorted, distinct and in range at %d: %v", k, p)
				}
				if v := mc.Observed()[k]; v != lr.At(p/n, p%n) {
					t.Fatalf("observed value %v at %d, low-rank A has %v", v, p, lr.At(p/n, p%n))
				}
			}
			dense := make([]float64, m*n)
			lr.Dense(dense)
			for i := 0; i < m; i++ {
				for j := 0; j < n; j++ {
					if math.Abs(dense[i*n+j]-lr.At(i, j)) > 1e-12 {
						t.Fatalf("Dense and At differ at (%d, %d)", i, j)
					}
				}
			}
			// The low-rank matrix completes Ω exactly: f(A) = 0.
			if f := mc.Func(dense); f > 1e-20 {
				t.Fatalf("f(A) = %v, want 0", f)
			}
			mc2, lr2, err := RandomMatrixCompletion(m, n, r, 17)
			mustOK(t, err)
			if !slices.Equal(mc2.Support(), omega) || !slices.Equal(lr2.Left, lr.Left) || !slices.Equal(lr2.Right, lr.Right) {
				t.Fatal("not deterministic per seed")
			}
		})
	}
	// Gaussian factors: mean 0, variance 1.
	_, lr, err := RandomMatrixCompletion(300, 400, 10, 3)
	mustOK(t, err)
	all := append(append([]float64(nil), lr.Left...), lr.Right...)
	mean := sumOf(all) / float64(len(all))
	v := 0.0
	for _, x := range all {
		v += (x - mean) * (x - mean)
	}
	v /= float64(len(all))
	if k := float64(len(all)); math.Abs(mean) > 5/math.Sqrt(k) || math.Abs(v-1) > 5*math.Sqrt(2/k) {
		t.Errorf("factor entries: mean %v, variance %v", mean, v)
	}
	for _, tc := range [][3]int{{0, 5, 1}, {5, 5, 0}, {5, 4, 5}, {1 << 20, 1 << 20, 1}} {
		if _, _, err := RandomMatrixCompletion(tc[0], tc[1], tc[2], 1); err == nil || !strings.HasPrefix(err.Error(), "objective: random matrix completion: ") {
			t.Errorf("RandomMatrixCompletion%v: error %v", tc, err)
		}
	}
}

// TestSampleSortedUniform checks, for both sampling algorithms, that every
// position is chosen equally often over many draws.
func TestSampleSortedUniform(t *testing.T) {
	for _, tc := range []struct{ total, s int }{{1000, 50}, {1000, 700}, {40, 10}, {40, 39}} {
		rng := testRand(uint64(tc.total + tc.s))
		const draws = 2000
		bands := make([]float64, 10)
		for k := 0; k < draws; k++ {
			got := sampleSorted(rng, tc.total, tc.s)
			if len(got) != tc.s {
				t.Fatalf("%v: %d samples", tc, len(got))
			}
			for i, p := range got {
				if p < 0 || p >= tc.total || (i > 0 && p <= got[i-1]) {
					t.Fatalf("%v: sample not sorted, distinct and in range: %v", tc, got)
				}
				bands[p*10/tc.total]++
			}
		}
		// Each band holds a tenth of the positions; inclusion counts are
		// less variable than Poisson, so the χ² bound is conservative.
		if c := chiSquare(bands, float64(draws*tc.s)/10); c > chi2Crit9999 {
			t.Errorf("%v: bands %v not uniform (χ² = %v)", tc, bands, c)
		}
	}
	if got := sampleSorted(testRand(1), 5, 5); !slices.Equal(got, []int{0, 1, 2, 3, 4}) {
		t.Errorf("s = total: %v", got)
	}
	if got := sampleSorted(testRand(1), 5, 0); len(got) != 0 {
		t.Errorf("s = 0: %v", got)
	}
}

// TestPaperSettingsMatchPaper checks the settings table against the figure
// captions of the paper, when the paper is available.
func TestPaperSettingsMatchPaper(t *testing.T) {
	if len(PaperMatrixCompletionSettings) != 8 {
		t.Fatalf("%d settings, want 8", len(PaperMatrixCompletionSettings))
	}
	for _, s := range PaperMatrixCompletionSettings {
		if s.Rank < 1 || s.Rank > min(s.M, s.N) || s.Radius <= 0 {
			t.Errorf("invalid setting %+v", s)
		}
	}
	tex := findPaper(t)
	for _, s := range PaperMatrixCompletionSettings {
		label := `\label{` + s.Figure + `}`
		i := strings.Index(tex, label)
		if i < 0 {
			t.Errorf("%s not in the paper", s.Figure)
			continue
		}
		caption := tex[i:]
		caption = caption[:strings.Index(caption, `\end{figure*}`)]
		caption = strings.Join(strings.Fields(caption), " ")
		left, right, ok := strings.Cut(caption, "for the left instance")
		if !ok {
			t.Errorf("%s: caption without left/right instances", s.Figure)
			continue
		}
		part := left
		if s.Side == "right" {
			part = right
		}
		radius := fmt.Sprint(s.Radius)
		if s.Figure == "fig:matrix-completion-alt-2-vanilla" && s.Side == "left" {
			radius = "1-000" // the typo documented on PaperMatrixCompletionSettings
		}
		want := fmt.Sprintf(`\(n=%d\), \(m=%d\), \(r=%d\) and \(R=%s\)`, s.N, s.M, s.Rank, radius)
		if !strings.Contains(part, want) {
			t.Errorf("%s (%s): caption lacks %s", s.Figure, s.Side, want)
		}
	}
}

// findPaper returns the paper's source, skipping the test when absent.
func findPaper(t *testing.T) string {
	wd, err := os.Getwd()
	mustOK(t, err)
	for d := wd; ; d = filepath.Dir(d) {
		b, err := os.ReadFile(filepath.Join(d, "shared", "paper", "lazifying-conditional-gradient.tex"))
		if err == nil {
			return string(b)
		}
		if filepath.Dir(d) == d {
			t.Skip("paper source not found beside the checkout")
		}
	}
}
