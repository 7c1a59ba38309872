package lmo

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/internal/testutil"
	"github.com/lazycg/lazycg/objective"
)

// basicOmega returns a random strictly increasing subset of [0, m·n) of
// density about p (at least one entry) and a cost vector on it.
func basicOmega(rng *rand.Rand, m, n int, p float64) ([]int, []float64) {
	var omega []int
	for f := 0; f < m*n; f++ {
		if rng.Float64() < p {
			omega = append(omega, f)
		}
	}
	if len(omega) == 0 {
		omega = []int{rng.IntN(m * n)}
	}
	c := make([]float64, len(omega))
	for k := range c {
		c[k] = rng.NormFloat64()
	}
	return omega, c
}

// basicScatter returns the m×n row-major matrix holding c on omega.
func basicScatter(m, n int, omega []int, c []float64) []float64 {
	d := make([]float64, m*n)
	for k, f := range omega {
		d[f] = c[k]
	}
	return d
}

// TestNuclearBallOnAgreesWithDense: the Ω oracle answers as the dense ball
// does on the scattered cost matrix (value, vertex on Ω, exactness), and
// −R·σ₁ from gonum's SVD.
func TestNuclearBallOnAgreesWithDense(t *testing.T) {
	rng := basicRNG(77)
	for _, tc := range []struct {
		m, n int
		p    float64
	}{{1, 1, 1}, {1, 9, 0.5}, {9, 1, 0.5}, {12, 30, 0.2}, {40, 25, 0.1}, {60, 60, 0.05}, {30, 50, 0.6}} {
		omega, c := basicOmega(rng, tc.m, tc.n, tc.p)
		on, err := NewNuclearBallOn(tc.m, tc.n, 3, omega)
		if err != nil {
			t.Fatal(err)
		}
		dense, _ := NewNuclearBall(tc.m, tc.n, 3)
		cd := basicScatter(tc.m, tc.n, omega, c)
		dst, dd := make([]float64, len(omega)), make([]float64, tc.m*tc.n)
		ro, err := on.Minimize(context.Background(), dst, c)
		if err != nil {
			t.Fatal(err)
		}
		rd, err := dense.Minimize(context.Background(), dd, cd)
		if err != nil {
			t.Fatal(err)
		}
		want := -3 * basicSingularValues(t, tc.m, tc.n, cd)[0]
		basicCheckNuclearBound(t, fmt.Sprintf("%dx%d on Ω", tc.m, tc.n), ro, want)
		basicCheckNuclearBound(t, fmt.Sprintf("%dx%d dense", tc.m, tc.n), rd, want)
		if math.Abs(ro.Value-want) > 1e-9*math.Abs(want) || math.Abs(ro.Value-rd.Value) > 1e-12*math.Abs(want) {
			t.Fatalf("%dx%d: values Ω %v, dense %v, −Rσ₁ %v", tc.m, tc.n, ro.Value, rd.Value, want)
		}
		if got := basicNaiveDot(c, dst); got != ro.Value {
			t.Fatalf("%dx%d: Value %v, c·dst %v", tc.m, tc.n, ro.Value, got)
		}
		for k, f := range omega {
			if math.Abs(dst[k]-dd[f]) > 1e-12*3 {
				t.Fatalf("%dx%d: vertex entry %d: Ω %v, dense %v", tc.m, tc.n, f, dst[k], dd[f])
			}
		}
		for k := range omega {
			if i, j := on.Entry(k); i*tc.n+j != omega[k] {
				t.Fatalf("Entry(%d) = (%d, %d), want index %d", k, i, j, omega[k])
			}
		}
	}
}

// TestNuclearBallAutoSupport: without SetSupport the dense ball finds the
// nonzeros of a sparse cost itself and answers exactly as with the
// declared support.
func TestNuclearBallAutoSupport(t *testing.T) {
	rng := basicRNG(8)
	omega, c := basicOmega(rng, 35, 45, 0.1)
	cd := basicScatter(35, 45, omega, c)
	auto, _ := NewNuclearBall(35, 45, 2)
	decl, _ := NewNuclearBall(35, 45, 2)
	if err := decl.SetSupport(omega); err != nil {
		t.Fatal(err)
	}
	da, dd := make([]float64, 35*45), make([]float64, 35*45)
	ra, err := auto.Minimize(context.Background(), da, cd)
	if err != nil {
		t.Fatal(err)
	}
	rd, err := decl.Minimize(context.Background(), dd, cd)
	if err != nil {
		t.Fatal(err)
	}
	if ra != rd || !slices.Equal(da, dd) {
		t.Fatalf("auto %+v, declared %+v (vertices equal: %v)", ra, rd, slices.Equal(da, dd))
	}
	if auto.cost.dense != nil {
		t.Fatal("a cost with 10% nonzeros was treated as dense")
	}
	if allocs := testutil.Mallocs(20, func() { auto.Minimize(context.Background(), da, cd) }); allocs != 0 {
		t.Errorf("Minimize with a learned support allocates %d times in 20 calls", allocs)
	}
}

// TestNuclearBallOnCompact: the factored form reproduces the vertex bit
// for bit and its inner products; unknown points have none.
func TestNuclearBallOnCompact(t *testing.T) {
	rng := basicRNG(9)
	omega, c := basicOmega(rng, 20, 30, 0.3)
	for _, noRecord := range []bool{false, true} {
		b, _ := NewNuclearBallOn(20, 30, 5, omega)
		b.NoRecord = noRecord
		dst := make([]float64, len(omega))
		if _, err := b.Minimize(context.Background(), dst, c); err != nil {
			t.Fatal(err)
		}
		cv := b.Compact(dst)
		if cv == nil {
			t.Fatal("no compact form for the vertex just returned")
		}
		if cv.Bytes() != 8*(20+30) {
			t.Errorf("Bytes %d, want %d", cv.Bytes(), 8*50)
		}
		got := make([]float64, len(dst))
		cv.CopyTo(got)
		if !slices.Equal(got, dst) {
			t.Fatal("CopyTo differs from the vertex Minimize wrote")
		}
		for range 5 {
			_, c2 := basicOmega(rng, 1, len(omega), 1)
			want := basicNaiveDot(c2, dst)
			if d := cv.Dot(c2); math.Abs(d-want) > 1e-12*(1+math.Abs(want)) {
				t.Fatalf("Dot %v, coordinates give %v", d, want)
			}
		}
		got[0] = math.Nextafter(got[0], math.Inf(1))
		if b.Compact(got) != nil {
			t.Error("a perturbed vertex has a compact form")
		}
		if allocs := testutil.Mallocs(20, func() { cv.CopyTo(got); _ = cv.Dot(c) }); allocs != 0 {
			t.Errorf("CopyTo and Dot allocate %d times in 20 runs", allocs)
		}
		if allocs := testutil.Mallocs(10, func() { b.Minimize(context.Background(), dst, c) }); allocs != 0 {
			t.Errorf("repeated Minimize allocates %d times in 10 calls", allocs)
		}
	}
}

// TestNuclearBallOnDotBatch: DotBatch gives Dot's values bit for bit for
// blocks of four of the ball's vertices, for shorter blocks and for blocks
// holding another ball's vertex (both scored one by one), without
// allocating.
func TestNuclearBallOnDotBatch(t *testing.T) {
	rng := basicRNG(11)
	omega, _ := basicOmega(rng, 20, 30, 0.3)
	b, _ := NewNuclearBallOn(20, 30, 5, omega)
	other, _ := NewNuclearBallOn(20, 30, 5, omega)
	dst := make([]float64, len(omega))
	var atoms []lazycg.CompactVertex
	for range 6 {
		_, c := basicOmega(rng, 1, len(omega), 1)
		if _, err := b.Minimize(context.Background(), dst, c); err != nil {
			t.Fatal(err)
		}
		atoms = append(atoms, b.Compact(dst))
	}
	_, c := basicOmega(rng, 1, len(omega), 1)
	other.Minimize(context.Background(), dst, c)
	foreign := other.Compact(dst)
	got := make([]float64, 4)
	for _, block := range [][]lazycg.CompactVertex{
		atoms[:4], atoms[2:6], {atoms[5], atoms[0], atoms[3], atoms[1]},
		atoms[:3], atoms[4:6], {atoms[0], foreign, atoms[1], atoms[2]},
	} {
		for range 3 {
			_, c := basicOmega(rng, 1, len(omega), 1)
			b.DotBatch(got[:len(block)], block, c)
			for i, v := range block {
				if want := v.Dot(c); got[i] != want {
					t.Fatalf("block of %d, vertex %d: DotBatch %v, Dot %v", len(block), i, got[i], want)
				}
			}
		}
	}
	if allocs := testutil.Mallocs(20, func() { b.DotBatch(got, atoms[:4], c) }); allocs != 0 {
		t.Errorf("DotBatch allocates %d times in 20 calls", allocs)
	}
}

// TestNuclearBallOnEarlyStop: MinimizeUntil stops with an improving
// vertex and a rigorous bound.
func TestNuclearBallOnEarlyStop(t *testing.T) {
	rng := basicRNG(10)
	omega, c := basicOmega(rng, 50, 70, 0.2)
	b, _ := NewNuclearBallOn(50, 70, 2, omega)
	sigma := basicSingularValues(t, 50, 70, basicScatter(50, 70, omega, c))[0]
	dst := make([]float64, len(omega))
	for _, frac := range []float64{0.2, 0.9} {
		rule := lazycg.StopRule{Improve: -2 * frac * sigma, Certify: math.Inf(1)}
		res, err := b.MinimizeUntil(context.Background(), dst, c, rule)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Found || res.Reason != lazycg.StopImproving || !(res.Value < rule.Improve) {
			t.Fatalf("Improve %v: %+v", rule.Improve, res)
		}
		if !(res.Bound <= -2*sigma) || res.Value != basicNaiveDot(c, dst) {
			t.Fatalf("Improve %v: bound %v above the optimum %v, or Value ≠ c·dst", rule.Improve, res.Bound, -2*sigma)
		}
	}
	res, err := b.MinimizeUntil(context.Background(), dst, c, lazycg.StopRule{Improve: math.Inf(1), Certify: math.Inf(1)})
	if err != nil || !res.Found || res.Reason != lazycg.StopImproving {
		t.Fatalf("any vertex: %+v %v", res, err)
	}
}

func TestNuclearBallOnInvalid(t *testing.T) {
	for _, tc := range []struct {
		m, n  int
		r     float64
		omega []int
		want  string
	}{
		{0, 3, 1, []int{0}, "size"},
		{2, 3, 0, []int{0}, "radius"},
		{2, 3, 1, nil, "empty"},
		{2, 3, 1, []int{0, 6}, "outside"},
		{2, 3, 1, []int{2, 2}, "increasing"},
		{2, 3, 1, []int{3, 1}, "increasing"},
	} {
		_, err := NewNuclearBallOn(tc.m, tc.n, tc.r, tc.omega)
		if err == nil || !strings.HasPrefix(err.Error(), "lmo: nuclear ball on Ω: ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want one about %q", tc, err, tc.want)
		}
	}
	b, _ := NewNuclearBallOn(2, 3, 1, []int{1, 4, 5})
	if _, err := b.Minimize(context.Background(), make([]float64, 3), make([]float64, 6)); err == nil {
		t.Error("cost of length m·n accepted")
	}
	if _, err := b.Minimize(context.Background(), make([]float64, 2), make([]float64, 3)); err == nil {
		t.Error("short destination accepted")
	}
	_, err := b.Minimize(context.Background(), make([]float64, 3), []float64{1, math.NaN(), 2})
	if err == nil || !strings.Contains(err.Error(), "row 1, column 1") {
		t.Errorf("NaN cost: %v", err)
	}
	b.Tol = -1
	if _, err := b.Minimize(context.Background(), make([]float64, 3), []float64{1, 2, 3}); err == nil {
		t.Error("negative Tol accepted")
	}
	if _, err := b.Materialize(make([]float64, 3)); err == nil {
		t.Error("Materialize without a record succeeded")
	}
}

// completionPair returns a small matrix completion instance in both
// formulations: dense (m·n coordinates over NuclearBall) and on Ω.
func completionPair(t *testing.T, m, n, rank int, r float64) (*objective.MatrixCompletion, *NuclearBall, *NuclearBallOn) {
	t.Helper()
	mc, _, err := objective.RandomMatrixCompletion(m, n, rank, 3)
	if err != nil {
		t.Fatal(err)
	}
	dense, _ := NewNuclearBall(m, n, r)
	on, err := NewNuclearBallOn(m, n, r, mc.Support())
	if err != nil {
		t.Fatal(err)
	}
	return mc, dense, on
}

// TestCompletionFactoredAgreesWithDense runs the same methods on matrix
// completion in the dense formulation (m·n coordinates, the ball learning
// the gradients' support itself) and in Ω-coordinates with factored,
// compactly cached vertices: values, gradients on Ω, LMO answers (counts)
// and cache hits agree, and the materialized iterate is the dense one.
// (LazyCG's ShortStep is left out: L‖v − x‖² measures d over all m·n
// entries in one formulation and over Ω in the other, so the steps differ;
// on Ω it is the exact curvature along the step.)
func TestCompletionFactoredAgreesWithDense(t *testing.T) {
	const m, n, r = 30, 40, 200.0
	for _, tc := range []struct {
		name   string
		method func() lazycg.Method
	}{
		{"fw", func() lazycg.Method { return &lazycg.FrankWolfe{Rule: lazycg.StepAgnostic} }},
		{"fw-ls", func() lazycg.Method { return &lazycg.FrankWolfe{} }},
		{"lcg", func() lazycg.Method { return &lazycg.LazyCG{K: 1.1} }},
		{"lcg-textbook", func() lazycg.Method { return &lazycg.LazyTextbook{K: 1.1, C: 8 * r * r} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mc, dense, on := completionPair(t, m, n, 3, r)
			var fd, fo []float64
			settings := func(f *[]float64) *lazycg.Settings {
				return &lazycg.Settings{MaxIterations: 60, NoTrace: true, Callback: func(p lazycg.Progress) bool {
					*f = append(*f, p.F)
					return true
				}}
			}
			rd, err := lazycg.Minimize(context.Background(), lazycg.Problem{Objective: mc, LMO: dense}, settings(&fd), tc.method())
			if err != nil {
				t.Fatal(err)
			}
			ro, err := lazycg.Minimize(context.Background(), lazycg.Problem{Objective: mc.OnOmega(), LMO: on}, settings(&fo), tc.method())
			if err != nil {
				t.Fatal(err)
			}
			if len(fd) != len(fo) || len(fd) == 0 {
				t.Fatalf("%d iterations dense, %d on Ω", len(fd), len(fo))
			}
			for i := range fd {
				if math.Abs(fd[i]-fo[i]) > 1e-9*(1+math.Abs(fd[i])) {
					t.Fatalf("iteration %d: f = %v dense, %v on Ω", i+1, fd[i], fo[i])
				}
			}
			sd, so := rd.Stats, ro.Stats
			if sd.LMOCalls != so.LMOCalls || sd.CacheHits != so.CacheHits || sd.PositiveCalls != so.PositiveCalls {
				t.Fatalf("stats differ: dense %d LMO calls, %d hits, %d positive; Ω %d, %d, %d",
					sd.LMOCalls, sd.CacheHits, sd.PositiveCalls, so.LMOCalls, so.CacheHits, so.PositiveCalls)
			}
			if math.Abs(rd.DualBound-ro.DualBound) > 1e-9*(1+math.Abs(rd.DualBound)) {
				t.Fatalf("dual bounds %v dense, %v on Ω", rd.DualBound, ro.DualBound)
			}
			// Gradients on Ω agree at the final points.
			gd, gx := make([]float64, m*n), make([]float64, len(ro.X))
			mc.Grad(gd, rd.X)
			mc.OnOmega().Grad(gx, ro.X)
			for k, f := range mc.Support() {
				if math.Abs(gd[f]-gx[k]) > 1e-9*(1+math.Abs(gd[f])) {
					t.Fatalf("gradient entry %d: %v dense, %v on Ω", f, gd[f], gx[k])
				}
			}
			// The materialized matrix is the dense iterate.
			x, err := on.Materialize(ro.X)
			if err != nil {
				t.Fatal(err)
			}
			full := make([]float64, m*n)
			x.Dense(full)
			for f := range full {
				if math.Abs(full[f]-rd.X[f]) > 1e-9*r {
					t.Fatalf("materialized entry %d: %v, dense iterate %v", f, full[f], rd.X[f])
				}
			}
			if i, j := 7, 11; math.Abs(x.At(i, j)-full[i*n+j]) > 1e-12*r {
				t.Fatalf("At(%d, %d) = %v, Dense gives %v", i, j, x.At(i, j), full[i*n+j])
			}
			if got := mc.Func(full); math.Abs(got-ro.F) > 1e-9*(1+ro.F) {
				t.Fatalf("f(materialized) = %v, f on Ω = %v", got, ro.F)
			}
			sum := 0.0
			for _, w := range x.Weights {
				if w < 0 {
					t.Fatalf("negative weight %v", w)
				}
				sum += w
			}
			if math.Abs(sum-1) > 1e-12 || x.NuclearNormBound() > r*(1+1e-12) {
				t.Fatalf("weights sum to %v, nuclear norm bound %v > R = %v", sum, x.NuclearNormBound(), r)
			}
		})
	}
}

// TestMaterializeRefuses: a record that does not reproduce the point, or
// holds a move to a point the oracle never returned, is refused.
func TestMaterializeRefuses(t *testing.T) {
	mc, _, on := completionPair(t, 12, 15, 2, 50)
	res, err := lazycg.Minimize(context.Background(), lazycg.Problem{Objective: mc.OnOmega(), LMO: on},
		&lazycg.Settings{MaxIterations: 10}, &lazycg.FrankWolfe{Rule: lazycg.StepAgnostic})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := on.Materialize(res.X); err != nil {
		t.Fatal(err)
	}
	y := slices.Clone(res.X)
	y[0] += 1
	if _, err := on.Materialize(y); err == nil || !strings.Contains(err.Error(), "not a recorded iterate") {
		t.Errorf("perturbed point: %v", err)
	}
	// A start point that is not a vertex the oracle returned (and steps
	// γ < 1, which never forget it).
	x0 := make([]float64, on.Dim())
	res, err = lazycg.Minimize(context.Background(), lazycg.Problem{Objective: mc.OnOmega(), LMO: on, X0: x0},
		&lazycg.Settings{MaxIterations: 5}, &lazycg.LazyTextbook{K: 1.1, C: 8 * 50 * 50})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := on.Materialize(res.X); err == nil || !strings.Contains(err.Error(), "not a vertex") {
		t.Errorf("start point outside the record: %v", err)
	}
	on.NoRecord = true
	if _, err := on.Materialize(res.X); err == nil {
		t.Error("Materialize with NoRecord succeeded")
	}
}

// TestNuclearBallOnNoRecordReuse: with NoRecord, a new vertex reuses the
// factors of the last one (steady-state calls that alternate between
// vertices allocate nothing; before, each new vertex allocated its atom
// and factors), unless Compact handed the last one out: a compact vertex
// that a cache keeps still reproduces its coordinates after later calls.
// The vertices written are those of a recording oracle, bit for bit.
func TestNuclearBallOnNoRecordReuse(t *testing.T) {
	rng := basicRNG(12)
	omega, c1 := basicOmega(rng, 20, 30, 0.3)
	_, c2 := basicOmega(rng, 1, len(omega), 1)
	_, c3 := basicOmega(rng, 1, len(omega), 1)
	b, _ := NewNuclearBallOn(20, 30, 5, omega)
	b.NoRecord = true
	rec, _ := NewNuclearBallOn(20, 30, 5, omega)
	ctx := context.Background()
	dst, want := make([]float64, len(omega)), make([]float64, len(omega))
	for k, c := range [][]float64{c1, c2, c3, c1, c2, c1} {
		if _, err := b.Minimize(ctx, dst, c); err != nil {
			t.Fatal(err)
		}
		if _, err := rec.Minimize(ctx, want, c); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(dst, want) {
			t.Fatalf("call %d: the vertex differs from the recording oracle's", k)
		}
		cv := b.Compact(dst)
		if cv == nil {
			t.Fatalf("call %d: no compact form for the vertex just returned", k)
		}
		got := make([]float64, len(dst))
		cv.CopyTo(got)
		if !slices.Equal(got, dst) {
			t.Fatalf("call %d: CopyTo differs from the vertex", k)
		}
	}

	// A compact vertex handed out survives later new vertices.
	d1 := make([]float64, len(omega))
	b.Minimize(ctx, d1, c1)
	held := b.Compact(d1)
	dot1 := held.Dot(c3)
	for _, c := range [][]float64{c2, c3, c2} {
		b.Minimize(ctx, dst, c)
	}
	got := make([]float64, len(omega))
	held.CopyTo(got)
	if !slices.Equal(got, d1) || held.Dot(c3) != dot1 {
		t.Fatal("a compact vertex changed after later Minimize calls")
	}

	if allocs := testutil.Mallocs(10, func() {
		b.Minimize(ctx, dst, c1)
		b.Minimize(ctx, dst, c2)
	}); allocs != 0 {
		t.Errorf("NoRecord Minimize alternating between two vertices allocates %d times in 10 rounds", allocs)
	}
}
