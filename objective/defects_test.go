package objective

import (
	"math"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/lazycg/lazycg"
)

// TestSpectralNormSqRankOne checks SpectralNormSq and Smoothness against
// the exact ‖A‖₂² of matrices of rank one with a single row or column,
// where ‖A‖₂² = ‖A‖_F² = Σ a_j² and the power iteration converges at once:
// the estimate was capped by the floating-point sum ‖A‖_F², which rounds
// below the exact sum about half the time (row 0.0398, −0.4897, … of 12
// entries: 4.493178089531661 < 4.49317808953166096698…), so the
// "upper bound whenever the iteration got within 1%" was not one.
func TestSpectralNormSqRankOne(t *testing.T) {
	rng := testRand(9)
	for trial := range 300 {
		n := 2 + rng.IntN(30)
		row := randVec(rng, n, -1, 1)
		exact := new(big.Float).SetPrec(2000)
		for _, v := range row {
			bv := new(big.Float).SetPrec(2000).SetFloat64(v)
			exact.Add(exact, new(big.Float).SetPrec(2000).Mul(bv, bv))
		}
		a, err := NewDense(1, n, row)
		mustOK(t, err)
		col, err := NewDense(n, 1, row)
		mustOK(t, err)
		csr := csrOf(a)
		for name, m := range map[string]Matrix{"1×n dense": a, "n×1 dense": col, "1×n csr": csr, "1×n csc": csr.CSC(), "n×1 csc": csrOf(col).CSC()} {
			if got := SpectralNormSq(m); new(big.Float).SetFloat64(got).Cmp(exact) < 0 {
				t.Fatalf("trial %d, %s: SpectralNormSq = %v below the exact ‖A‖₂² = %s", trial, name, got, exact.Text('g', 25))
			}
		}
		f, err := NewLeastSquares(a, []float64{0})
		mustOK(t, err)
		twice := new(big.Float).SetPrec(2000).Mul(exact, big.NewFloat(2))
		if got := f.Smoothness(); new(big.Float).SetFloat64(got).Cmp(twice) < 0 {
			t.Fatalf("trial %d: Smoothness = %v below the exact 2‖A‖₂² = %s", trial, got, twice.Text('g', 25))
		}
	}
}

// TestReadCSVCarriageReturnLines checks that text with CR-only line
// endings (classic Mac OS) is an error naming the line: lines end at
// "\n", so "1 2\r3 4\r" was silently read as the 1×4 matrix [1 2 3 4]
// instead of a 2×2 one.
func TestReadCSVCarriageReturnLines(t *testing.T) {
	for _, in := range []string{"1 2\r3 4\r", "# c\n1 2\r3 4\r5 6\n", "1\r2\r3\r"} {
		m, err := ReadCSV(strings.NewReader(in))
		if err == nil {
			t.Errorf("%q: read as the %d×%d matrix %v, want an error", in, m.Rows, m.Cols, m.Data)
			continue
		}
		if !strings.HasPrefix(err.Error(), "objective: csv: line ") || !strings.Contains(err.Error(), "carriage return") {
			t.Errorf("%q: error %q does not name the line and the carriage return", in, err)
		}
		if _, err := ReadMatrix(strings.NewReader(in)); err == nil {
			t.Errorf("%q: ReadMatrix accepted it", in)
		}
	}
	// CRLF line endings, and a stray "\r" at the end of a line, are fine.
	for _, in := range []string{"1 2\r\n3 4\r\n", "1,2\r\n3,4\r\r\n"} {
		m, err := ReadCSV(strings.NewReader(in))
		if err != nil || m.Rows != 2 || m.Cols != 2 || !slices.Equal(m.Data, []float64{1, 2, 3, 4}) {
			t.Errorf("%q: got %v, %v; want the 2×2 matrix [1 2 3 4]", in, m, err)
		}
	}
}

// TestReadMatrixMarketTruncatedNamesLine checks that the errors of a
// Matrix Market file that ends early name a line, as ReadMatrixMarket
// promises: "the size line declares 3 entries, found 1" and "missing size
// line" named none.
func TestReadMatrixMarketTruncatedNamesLine(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"%%MatrixMarket matrix coordinate real general\n% c\n2 2 3\n1 1 1\n", "line 3: the size line declares 3 entries, found 1"},
		{"%%MatrixMarket matrix array real general\n2 2\n1\n\n", "line 2: the size line implies 4 values, found 1"},
		{"%%MatrixMarket matrix coordinate real general\n% only comments\n", "after line 2: missing size line"},
	} {
		_, err := ReadMatrixMarket(strings.NewReader(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one containing %q", c.in, err, c.want)
		}
	}
}

// wrappedLoss is a loss of a comparable type that wraps another one in an
// interface field.
type wrappedLoss struct{ inner lazycg.Objective }

func (w wrappedLoss) Dim() int                 { return w.inner.Dim() }
func (w wrappedLoss) Func(x []float64) float64 { return w.inner.Func(x) }
func (w wrappedLoss) Grad(dst, x []float64)    { w.inner.Grad(dst, x) }

// TestSumAddUnhashableComparable checks Sum.Add with a loss whose type is
// comparable but whose value cannot be a map key (it holds a Func, which
// is not comparable, in an interface field): Add panicked with "hash of
// unhashable type objective.Func". Such losses are added as separate
// terms; hashable wrappers are still merged.
func TestSumAddUnhashableComparable(t *testing.T) {
	q := quartic([]float64{1, 2})
	s := NewSum()
	for range 3 {
		s.Add(wrappedLoss{q}) // panicked
	}
	x := []float64{0.5, -1}
	if s.Len() != 3 || s.Terms() != 3 {
		t.Errorf("Len %d, Terms %d; want 3 and 3", s.Len(), s.Terms())
	}
	if got, want := s.Func(x), 3*q.Func(x); math.Abs(got-want) > 1e-12*math.Abs(want) {
		t.Errorf("Func = %v, want %v", got, want)
	}
	g, gq := make([]float64, 2), make([]float64, 2)
	s.Grad(g, x)
	q.Grad(gq, x)
	for i := range g {
		if math.Abs(g[i]-3*gq[i]) > 1e-12*math.Abs(gq[i]) {
			t.Errorf("Grad = %v, want 3·%v", g, gq)
		}
	}
	d, err := NewDistance([]float64{1, 2})
	mustOK(t, err)
	m := NewSum(wrappedLoss{d}, wrappedLoss{d}, wrappedLoss{q})
	if m.Len() != 3 || m.Terms() != 2 {
		t.Errorf("hashable wrappers: Len %d, Terms %d; want 3 and 2", m.Len(), m.Terms())
	}
}
