package lmo

import (
	"math"
	"strings"
	"testing"

	"github.com/lazycg/lazycg"
)

// checkBlockDiag returns the n×n matrix with the 2×2 block b at the top
// left and the diagonal d (length n − 2) after it.
func checkBlockDiag(n int, b [4]float64, d ...float64) []float64 {
	x := make([]float64, n*n)
	x[0], x[1], x[n], x[n+1] = b[0], b[1], b[2], b[3]
	for i, v := range d {
		x[(i+2)*n+i+2] = v
	}
	return x
}

// checkDense is an oracle whose Check takes the dense path or not.
type checkDense interface {
	lazycg.LMO
	check(x []float64, tol float64, dense bool) error
}

// checkSparsePath checks the points of P (verts and their mean) with
// check(…, dense = false), and returns the error for x.
func checkSparsePath(t *testing.T, o checkDense, verts [][]float64, x []float64) error {
	t.Helper()
	mean := make([]float64, len(verts[0]))
	for _, v := range verts {
		if err := o.check(v, 1e-9, false); err != nil {
			t.Errorf("%T: without the dense factorization a vertex is refused: %v", o, err)
		}
		for i := range mean {
			mean[i] += v[i] / float64(len(verts))
		}
	}
	if err := o.check(mean, 1e-9, false); err != nil {
		t.Errorf("%T: without the dense factorization the mean of the vertices is refused: %v", o, err)
	}
	return o.check(x, 1e-9, false)
}

// TestSpectraplexCheck: rank-one vertices and their combinations are
// accepted; asymmetric, wrong-trace and indefinite matrices are refused,
// by the eigenvalues and by the Lanczos test of large matrices.
func TestSpectraplexCheck(t *testing.T) {
	sp, _ := NewSpectraplex(4)
	asym := checkBlockDiag(4, [4]float64{0.5, 0.1, 0, 0.5})
	indef := checkBlockDiag(4, [4]float64{0.5, 0.6, 0.6, 0.5}, 0, 0) // eigenvalues 1.1, −0.1, 0, 0
	verts := checkMembership(t, "spectraplex", sp, 12, 41, []checkOut{
		{asym, "not symmetric: entries (0, 1) = 0.1 and (1, 0) = 0"},
		{checkBlockDiag(4, [4]float64{0.5, 0, 0, 0.5}, 0.1, 0), "the trace is 1.1, want 1"},
		{checkBlockDiag(4, [4]float64{0.6, 0, 0, 0.6}, -0.2, 0), "diagonal entry 2 is -0.2"},
		{indef, "not positive semidefinite: its smallest eigenvalue is -0.1"},
	})
	if err := checkSparsePath(t, sp, verts, indef); err == nil {
		t.Errorf("spectraplex: the Lanczos test accepts an indefinite matrix")
	} else if want := "vᵀXv = -0.1"; !strings.Contains(err.Error(), want) {
		t.Errorf("spectraplex: Lanczos test: error %v, want %q", err, want)
	}

	unit, _ := NewUnitSpectrahedron(5)
	checkMembership(t, "unit spectrahedron", unit, 12, 42, []checkOut{
		{checkBlockDiag(5, [4]float64{0.6, 0, 0, 0.5}, 0, 0, 0), "the trace is 1.1 > 1"},
		{checkBlockDiag(5, [4]float64{0.4, 0.5, 0.5, 0.4}, 0, 0, 0), "not positive semidefinite"},
	})
	// The zero matrix is in the unit spectrahedron, not in the spectraplex.
	if err := unit.Check(make([]float64, 25), 1e-9); err != nil {
		t.Errorf("unit spectrahedron: 0 refused: %v", err)
	}
}

// TestFantopeCheck: projections V·Vᵀ of rank K and their combinations are
// accepted; matrices with an eigenvalue outside [0, 1] or the wrong trace
// are refused.
func TestFantopeCheck(t *testing.T) {
	f, _ := NewFantope(5, 2)
	checkMembership(t, "fantope", f, 12, 43, []checkOut{
		{checkBlockDiag(5, [4]float64{0.9, 0.5, 0.5, 0.9}, 0.2, 0, 0), "X ⪯ I is violated: the largest eigenvalue is 1.4"},
		{checkBlockDiag(5, [4]float64{0.5, 0.6, 0.6, 0.5}, 1, 0, 0), "not positive semidefinite: its smallest eigenvalue is -0.1"},
		{checkBlockDiag(5, [4]float64{1, 0, 0, 1}, 0.5, 0, 0), "the trace is 2.5, want K = 2"},
		{checkBlockDiag(5, [4]float64{1.2, 0, 0, 0.8}, 0, 0, 0), "diagonal entry 0 is 1.2, outside [0, 1]"},
		{checkBlockDiag(5, [4]float64{1, 0.1, 0, 1}, 0, 0, 0), "not symmetric"},
	})
}

// TestNuclearBallCheck: rank-one vertices and their combinations are
// accepted, 1.01 times a vertex is refused; a matrix with ‖X‖_F²/σ̄₁ ≤ R <
// ‖X‖_* is refused by the SVD only.
func TestNuclearBallCheck(t *testing.T) {
	for _, sz := range [][2]int{{4, 3}, {3, 5}} {
		m, n := sz[0], sz[1]
		b, _ := NewNuclearBall(m, n, 2)
		verts := checkMembership(t, "nuclear ball", b, 12, 44, nil)
		// diag(1.5, 0.6): ‖X‖_F²/σ̄₁ = 1.74 ≤ R < ‖X‖_* = 2.1.
		diag := make([]float64, m*n)
		diag[0], diag[n+1] = 1.5, 0.6
		checkMembership(t, "nuclear ball", b, 2, 45, []checkOut{
			{checkScaled(1.01, verts[0]), "‖X‖_* = 2.02 > R = 2"},
			{checkScaled(1.01, verts[3]), "‖X‖_* = 2.02"},
			{diag, "‖X‖_* = 2.1 > R = 2"},
		})
		err := checkSparsePath(t, b, verts, checkScaled(1.01, verts[2]))
		if err == nil || !strings.Contains(err.Error(), "‖X‖_F²/σ̄₁ = 2.02") {
			t.Errorf("nuclear ball %d×%d: necessary test: 1.01·vertex: error %v", m, n, err)
		}
		if err := b.check(diag, 1e-9, false); err != nil {
			t.Errorf("nuclear ball %d×%d: the necessary test refuses a matrix with ‖X‖_F²/σ₁ ≤ R: %v", m, n, err)
		}
	}
}

// TestNuclearBallOnCheck: projections of vertices and their combinations
// are accepted; with every entry observed the test is exact, with some
// entries it refuses points whose observed part alone is too large.
func TestNuclearBallOnCheck(t *testing.T) {
	full := make([]int, 12)
	for i := range full {
		full[i] = i
	}
	b, _ := NewNuclearBallOn(4, 3, 2, full)
	verts := checkMembership(t, "nuclear ball on Ω", b, 12, 46, nil)
	diag := make([]float64, 12)
	diag[0], diag[4] = 1.5, 0.6 // ‖Y‖_F²/σ₁ = 1.74 ≤ R < ‖Y‖_* = 2.1
	checkMembership(t, "nuclear ball on Ω", b, 2, 47, []checkOut{
		{checkScaled(1.01, verts[0]), "nuclear norm ≥ 2.02 > R = 2"},
		{checkScaled(1.01, verts[5]), "nuclear norm ≥ 2.02"},
		{diag, "nuclear norm ≥ 2.1 > R = 2"},
	})
	err := checkSparsePath(t, b, verts, checkScaled(1.01, verts[1]))
	if err == nil || !strings.Contains(err.Error(), "nuclear norm ≥ 2.02") {
		t.Errorf("nuclear ball on Ω: necessary test: 1.01·vertex: error %v", err)
	}
	if err := b.check(diag, 1e-9, false); err != nil {
		t.Errorf("nuclear ball on Ω: without the SVD bounds diag(1.5, 0.6) is refused: %v", err)
	}

	omega := []int{0, 2, 4, 5, 9, 13, 14}         // 3×5 matrix
	part, _ := NewNuclearBallOn(3, 5, 1.5, omega) // (0,0) (0,2) (0,4) (1,0) (1,4) (2,3) (2,4)
	verts = checkMembership(t, "nuclear ball on Ω", part, 12, 48, []checkOut{
		{[]float64{1.52, 0, 0, 0, 0, 0, 0}, "nuclear norm ≥ 1.52 > R = 1.5"},
		{[]float64{1, 0, 0, 0, 0, 0, 1.2}, "nuclear norm ≥"}, // two blocks: ‖·‖_* ≥ 2.2
	})
	if err := checkSparsePath(t, part, verts, []float64{0.9, 0.9, 0.9, 0, 0, 0, 0}); err == nil {
		t.Errorf("nuclear ball on Ω: necessary test: ‖x‖₂ = 1.56 > R accepted")
	}
}

// TestUnitSpectrahedronCheckTiny checks membership of matrices with tiny
// entries (about 1e-200), whose eigenvalues gonum's eigenvalue-only routine
// cannot compute unscaled (it panicked): a PSD member is accepted, an
// indefinite one refused.
func TestUnitSpectrahedronCheckTiny(t *testing.T) {
	const n = 5
	us, _ := NewUnitSpectrahedron(n)
	psd := make([]float64, n*n)
	ind := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			psd[i*n+j] = math.Ldexp(1, -660) // the rank-one J·2⁻⁶⁶⁰
			if i != j {
				ind[i*n+j] = math.Ldexp(1, -660) // (J − I)·2⁻⁶⁶⁰: λ_min = −2⁻⁶⁶⁰
			}
		}
	}
	if err := us.Check(psd, 0); err != nil {
		t.Fatalf("PSD member refused: %v", err)
	}
	if err := us.Check(ind, 0); err == nil {
		t.Fatal("indefinite matrix accepted")
	}
}
