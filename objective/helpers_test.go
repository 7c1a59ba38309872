package objective

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/internal/linemin"
)

// testRand returns a deterministic PRNG for tests.
func testRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 12345)) }

// randVec returns n entries uniform in [lo, hi).
func randVec(rng *rand.Rand, n int, lo, hi float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = lo + (hi-lo)*rng.Float64()
	}
	return v
}

func norm(v []float64) float64 { return math.Sqrt(dot(v, v)) }

// relDiff returns ‖a − b‖ / max(‖b‖, 1).
func relDiff(a, b []float64) float64 {
	d := 0.0
	for i := range a {
		d += (a[i] - b[i]) * (a[i] - b[i])
	}
	return math.Sqrt(d) / math.Max(norm(b), 1)
}

// fdGrad returns the central finite-difference gradient of f at x.
func fdGrad(f lazycg.Objective, x []float64, h float64) []float64 {
	g := make([]float64, len(x))
	y := append([]float64(nil), x...)
	for i := range x {
		step := h * math.Max(1, math.Abs(x[i]))
		y[i] = x[i] + step
		fp := f.Func(y)
		y[i] = x[i] - step
		fm := f.Func(y)
		y[i] = x[i]
		g[i] = (fp - fm) / (2 * step)
	}
	return g
}

// along returns φ(γ) = f(x + γd).
func along(f lazycg.Objective, x, d []float64) func(float64) float64 {
	y := make([]float64, len(x))
	return func(g float64) float64 {
		for i := range y {
			y[i] = x[i] + g*d[i]
		}
		return f.Func(y)
	}
}

// golden returns the golden-section minimizer of the unimodal phi on
// [lo, hi] after many shrinking steps (the ends compared too).
func golden(phi func(float64) float64, lo, hi float64) float64 {
	best, fbest, _, _, _ := linemin.Golden(phi, lo, hi, 1e-14*math.Max(1, math.Abs(hi)), 302)
	for _, g := range []float64{lo, hi} {
		if v := phi(g); v < fbest {
			best, fbest = g, v
		}
	}
	return best
}

// denseOf returns the dense copy of a CSR matrix.
func denseOf(m *CSR) *Dense {
	d := &Dense{Rows: m.Rows, Cols: m.Cols, Data: make([]float64, m.Rows*m.Cols)}
	for i := 0; i < m.Rows; i++ {
		for k := m.RowPtr[i]; k < m.RowPtr[i+1]; k++ {
			d.Data[i*m.Cols+m.ColIdx[k]] += m.Val[k]
		}
	}
	return d
}

// namedObjective is one row of the objective tables.
type namedObjective struct {
	name string
	f    lazycg.Objective
	// lo, hi is the box of random test points.
	lo, hi float64
}

// mustOK fails the test on err.
func mustOK(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// quartic is a convex non-quadratic Func: Σ (x_i − b_i)⁴ + ‖x‖².
func quartic(b []float64) Func {
	return Func{
		N: len(b),
		F: func(x []float64) float64 {
			s := 0.0
			for i, bi := range b {
				r := x[i] - bi
				s += r*r*r*r + x[i]*x[i]
			}
			return s
		},
		G: func(dst, x []float64) {
			for i, bi := range b {
				r := x[i] - bi
				dst[i] = 4*r*r*r + 2*x[i]
			}
		},
	}
}

// testObjectives returns one instance of every objective type, all of
// dimension 20 except the matrix completion (6×8 = 48).
func testObjectives(t testing.TB) []namedObjective {
	const n = 20
	rng := testRand(7)
	lsCSR, err := RandomLeastSquares(30, n, 0.3, 11)
	mustOK(t, err)
	dense, err := NewDense(15, n, randVec(rng, 15*n, -1, 1))
	mustOK(t, err)
	lsDense, err := NewLeastSquares(dense, randVec(rng, 15, -2, 2))
	mustOK(t, err)
	dist, err := RandomDistance(n, 3)
	mustOK(t, err)
	wdist, err := NewWeightedDistance(randVec(rng, n, 0, 3), randVec(rng, n, -1, 1))
	mustOK(t, err)
	mc, _, err := RandomMatrixCompletion(6, 8, 2, 5)
	mustOK(t, err)
	lin, err := NewLinear(randVec(rng, n, -1, 1), 0.3)
	mustOK(t, err)
	lin2, err := NewLinear(randVec(rng, n, -1, 1), 0.7)
	mustOK(t, err)
	quadSum := NewSum(lsCSR, lin, dist, lin2, lsDense)
	genSum := NewSum(quartic(randVec(rng, n, 0, 1)), wdist, lin)
	nested := NewSum(quadSum, wdist)
	return []namedObjective{
		{"least-squares-csr", lsCSR, -1, 2},
		{"least-squares-dense", lsDense, -1, 1},
		{"distance", dist, -1, 2},
		{"weighted-distance", wdist, -1, 2},
		{"matrix-completion", mc, -3, 3},
		{"linear", lin, -1, 1},
		{"sum-quadratic", quadSum, -1, 1},
		{"sum-general", genSum, -1, 1},
		{"sum-nested", nested, -1, 1},
		{"func", quartic(randVec(rng, n, 0, 1)), -1, 1},
	}
}
