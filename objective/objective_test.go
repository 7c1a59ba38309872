package objective

import (
	"math"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/internal/testutil"
	"gonum.org/v1/gonum/mat"
)

func TestGradientsFiniteDifferences(t *testing.T) {
	for _, tc := range testObjectives(t) {
		t.Run(tc.name, func(t *testing.T) {
			rng := testRand(1)
			n := tc.f.Dim()
			g := make([]float64, n)
			for trial := 0; trial < 4; trial++ {
				x := randVec(rng, n, tc.lo, tc.hi)
				tc.f.Grad(g, x)
				fd := fdGrad(tc.f, x, 1e-5)
				if e := relDiff(g, fd); e > 1e-6 {
					t.Fatalf("trial %d: gradient differs from finite differences by relative %.3g\ngrad %v\nfd   %v", trial, e, g, fd)
				}
			}
		})
	}
}

func TestFuncGradMatchesFuncAndGrad(t *testing.T) {
	for _, tc := range testObjectives(t) {
		fg, ok := tc.f.(lazycg.FuncGrader)
		if !ok {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			rng := testRand(2)
			n := tc.f.Dim()
			g1, g2 := make([]float64, n), make([]float64, n)
			for trial := 0; trial < 4; trial++ {
				x := randVec(rng, n, tc.lo, tc.hi)
				for i := range g2 {
					g2[i] = math.NaN() // FuncGrad must overwrite everything
				}
				v := fg.FuncGrad(g2, x)
				tc.f.Grad(g1, x)
				if f := tc.f.Func(x); math.Abs(f-v) > 1e-12*math.Max(1, math.Abs(f)) {
					t.Fatalf("FuncGrad value %v, Func %v", v, f)
				}
				if e := relDiff(g2, g1); !(e <= 1e-13) {
					t.Fatalf("FuncGrad gradient differs from Grad by %v", e)
				}
			}
		})
	}
}

func TestLineMinimizeMatchesGoldenSection(t *testing.T) {
	for _, tc := range testObjectives(t) {
		lm, ok := tc.f.(lazycg.LineMinimizer)
		if !ok {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			rng := testRand(3)
			n := tc.f.Dim()
			grad := make([]float64, n)
			for trial := 0; trial < 12; trial++ {
				x := randVec(rng, n, tc.lo, tc.hi)
				tc.f.Grad(grad, x)
				var d []float64
				switch trial % 3 {
				case 0: // steepest descent: interior minimum likely
					d = make([]float64, n)
					axpy(d, -1/math.Max(norm(grad), 1e-300), grad)
				case 1: // a Frank–Wolfe-like direction v − x
					d = randVec(rng, n, -1, 1)
					axpy(d, -1, x)
				default: // ascent or arbitrary
					d = randVec(rng, n, -1, 1)
				}
				for _, gmax := range []float64{0.01, 1, 50} {
					got := lm.LineMinimize(x, d, grad, gmax)
					if !(got >= 0 && got <= gmax) {
						t.Fatalf("gmax %v: step %v outside [0, gmax]", gmax, got)
					}
					phi := along(tc.f, x, d)
					want := golden(phi, 0, gmax)
					fGot, fWant := phi(got), phi(want)
					scale := math.Max(1, math.Abs(fWant))
					if fGot > fWant+1e-10*scale {
						t.Fatalf("trial %d gmax %v: φ(%v) = %v above golden-section φ(%v) = %v", trial, gmax, got, fGot, want, fWant)
					}
					if _, lin := tc.f.(*Linear); !lin && math.Abs(got-want) > 1e-5*math.Max(gmax, 1) {
						t.Fatalf("trial %d gmax %v: step %v, golden section %v", trial, gmax, got, want)
					}
				}
			}
		})
	}
}

func TestLineMinimizeDegenerate(t *testing.T) {
	// A has a zero column, so d = e_2 gives Ad = 0.
	a, err := NewDense(2, 3, []float64{1, 2, 0, 3, 4, 0})
	mustOK(t, err)
	ls, err := NewLeastSquares(a, []float64{1, 1})
	mustOK(t, err)
	mc, err := NewMatrixCompletion(2, 2, []int{0, 3}, []float64{1, -1})
	mustOK(t, err)
	dist, err := NewDistance([]float64{1, 2, 3})
	mustOK(t, err)
	sum := NewSum(ls, &Linear{C: []float64{0, 0, 0}})

	x3 := []float64{0.5, 0.5, 0.5}
	e2 := []float64{0, 0, 1}
	zero3 := []float64{0, 0, 0}
	x4 := []float64{0, 0, 0, 0}
	offOmega := []float64{0, 1, -1, 0}
	tests := []struct {
		name    string
		f       lazycg.LineMinimizer
		x, d, g []float64
		gmax    float64
		want    float64
	}{
		{"ls-null-direction-true-grad", ls, x3, e2, []float64{1, 1, 0}, 1, 0},
		{"ls-null-direction-nil-grad", ls, x3, e2, nil, 1, 0},
		{"ls-null-direction-descent-grad", ls, x3, e2, []float64{0, 0, -1}, 7, 7},
		{"ls-null-direction-ascent-grad", ls, x3, e2, []float64{0, 0, 1}, 7, 0},
		{"ls-gmax-zero", ls, x3, []float64{-1, 0, 0}, nil, 0, 0},
		{"ls-gmax-negative", ls, x3, []float64{-1, 0, 0}, nil, -1, 0},
		{"ls-clamped-at-gmax", ls, zero3, []float64{0.01, 0.01, 0}, nil, 1, 1},
		{"ls-ascent-direction", ls, zero3, []float64{-1, -1, 0}, nil, 1, 0},
		{"mc-off-support", mc, x4, offOmega, []float64{-2, 0, 0, 2}, 3, 0},
		{"mc-off-support-descent-grad", mc, x4, offOmega, []float64{0, -1, 0, 0}, 3, 3},
		{"mc-interior", mc, x4, []float64{1, 0, 0, 0}, nil, 3, 1},
		{"distance-zero-direction", dist, x3, zero3, nil, 2, 0},
		{"distance-interior", dist, zero3, []float64{1, 1, 1}, nil, 5, 2},
		{"distance-infinite-gmax", dist, zero3, []float64{1, 1, 1}, nil, math.Inf(1), 2},
		{"sum-flat", sum, x3, e2, []float64{0, 0, -1}, 0.5, 0.5},
		{"linear-descent", &Linear{C: []float64{1, -2, 0}}, x3, []float64{0, 1, 0}, nil, 4, 4},
		{"linear-ascent", &Linear{C: []float64{1, -2, 0}}, x3, []float64{1, 0, 0}, nil, 4, 0},
		{"linear-flat", &Linear{C: []float64{1, -2, 0}}, x3, e2, nil, 4, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.f.LineMinimize(tc.x, tc.d, tc.g, tc.gmax); got != tc.want {
				t.Fatalf("LineMinimize = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestZeroAllocations(t *testing.T) {
	objs := testObjectives(t)
	big, err := RandomLeastSquares(300, 200, 0.05, 9)
	mustOK(t, err)
	objs = append(objs, namedObjective{"least-squares-big", big, 0, 1})
	for _, tc := range objs {
		if _, isFunc := tc.f.(Func); isFunc {
			continue // closures decide
		}
		t.Run(tc.name, func(t *testing.T) {
			rng := testRand(4)
			n := tc.f.Dim()
			x := randVec(rng, n, tc.lo, tc.hi)
			d := randVec(rng, n, -1, 1)
			g := make([]float64, n)
			// Exact: a Sum asserts its terms' interfaces when they are
			// added, not per call (TestSumNoTypeAssertionPerCall).
			check := func(what string, fn func()) {
				if a := testutil.Mallocs(20, fn); a != 0 {
					t.Errorf("%s allocates %d times in 20 calls", what, a)
				}
			}
			sink := 0.0
			check("Func", func() { sink += tc.f.Func(x) })
			check("Grad", func() { tc.f.Grad(g, x) })
			if fg, ok := tc.f.(lazycg.FuncGrader); ok {
				check("FuncGrad", func() { sink += fg.FuncGrad(g, x) })
			}
			if lm, ok := tc.f.(lazycg.LineMinimizer); ok {
				tc.f.Grad(g, x)
				check("LineMinimize", func() { sink += lm.LineMinimize(x, d, g, 1) })
				check("LineMinimize-nil-grad", func() { sink += lm.LineMinimize(x, d, nil, 1) })
			}
			_ = sink
		})
	}
}

// sumAssertChildEnv marks the child process of
// TestSumNoTypeAssertionPerCall.
const sumAssertChildEnv = "LAZYCG_OBJECTIVE_ASSERT_CHILD"

// TestSumNoTypeAssertionPerCall: the evaluations of a Sum (and of a
// quadratic Consensus) make no interface type assertion on their terms,
// whose interfaces are fixed when they are added. Such an assertion
// allocates its call site's cache now and then (Go ≥ 1.22: about one in
// 1024 calls with a type the cache lacks), an allocation that
// testutil.Mallocs's smallest-of-three-batches hides; it is caught
// here by counting every allocation of thousands of calls in a fresh
// process, whose call-site caches are still empty. The Go runtime itself
// allocates now and then in the background (its scavenger's timer, in
// about one process in 70), so the test fails only when three fresh
// processes all allocate; with an assertion per call every one does.
func TestSumNoTypeAssertionPerCall(t *testing.T) {
	if os.Getenv(sumAssertChildEnv) == "" {
		if testing.Short() {
			t.Skip("starts child processes")
		}
		var out []byte
		var err error
		for range 3 {
			cmd := exec.Command(os.Args[0], "-test.run=^TestSumNoTypeAssertionPerCall$", "-test.count=1", "-test.v")
			cmd.Env = append(os.Environ(), sumAssertChildEnv+"=1")
			out, err = cmd.CombinedOutput()
			if err == nil && strings.Contains(string(out), "--- PASS: TestSumNoTypeAssertionPerCall") {
				return
			}
		}
		t.Fatalf("child (three tries): %v\n%s", err, out)
	}
	objs := testObjectives(t)
	var nested lazycg.Objective
	for _, o := range objs {
		if o.name == "sum-nested" {
			nested = o.f
		}
	}
	dist, err := NewDistance([]float64{1, -2, 0.5})
	mustOK(t, err)
	cons, err := NewConsensus(dist, 3, 0.7)
	mustOK(t, err)
	rng := testRand(4)
	n := nested.Dim()
	x, d, g := randVec(rng, n, -1, 1), randVec(rng, n, -1, 1), make([]float64, n)
	// Entries near 1e200 overflow the line coefficients: the searches
	// take their scaled fallback (Sum.scaledLineCoeffs and
	// quadConsensus.scaledLineCoeffs).
	big, bigD := make([]float64, n), make([]float64, n)
	for i := range big {
		big[i], bigD[i] = 1e200*x[i], 1e200*d[i]
	}
	cx, cd := make([]float64, 9), make([]float64, 9)
	for i := range cx {
		cx[i], cd[i] = 1e200*float64(i-4), -1e200*float64(i%3)
	}
	fg := nested.(lazycg.FuncGrader)
	lm := nested.(lazycg.LineMinimizer)
	clm := cons.(lazycg.LineMinimizer)
	sink := 0.0
	call := func() {
		sink += fg.FuncGrad(g, x)
		sink += lm.LineMinimize(x, d, nil, 1)
		sink += lm.LineMinimize(big, bigD, nil, 1)
		sink += clm.LineMinimize(cx, cd, nil, 1)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	call()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 4000 {
		call()
	}
	runtime.ReadMemStats(&after)
	if a := after.Mallocs - before.Mallocs; a != 0 {
		t.Errorf("%d allocations in 4000 calls", a)
	}
	_ = sink
}

func TestCSRMatchesDense(t *testing.T) {
	rng := testRand(5)
	for _, sz := range [][2]int{{1, 1}, {5, 3}, {3, 7}, {40, 25}} {
		ls, err := RandomLeastSquares(sz[0], sz[1], 0.4, uint64(sz[0]))
		mustOK(t, err)
		csr := ls.A().(*CSR)
		dense := denseOf(csr)
		mustOK(t, dense.Validate())
		x := randVec(rng, sz[1], -1, 1)
		y := randVec(rng, sz[0], -1, 1)
		a1, a2 := make([]float64, sz[0]), make([]float64, sz[0])
		csr.MulVec(a1, x)
		dense.MulVec(a2, x)
		if e := relDiff(a1, a2); e > 1e-14 {
			t.Errorf("%v: MulVec differs by %v", sz, e)
		}
		t1, t2 := randVec(rng, sz[1], 5, 6), randVec(rng, sz[1], 5, 6) // garbage to overwrite
		csr.MulTransVec(t1, y)
		dense.MulTransVec(t2, y)
		if e := relDiff(t1, t2); e > 1e-14 {
			t.Errorf("%v: MulTransVec differs by %v", sz, e)
		}
		// Transpose identity ⟨Ax, y⟩ = ⟨x, Aᵀy⟩.
		if l, r := dot(a1, y), dot(x, t1); math.Abs(l-r) > 1e-12*math.Max(1, math.Abs(l)) {
			t.Errorf("%v: ⟨Ax,y⟩ = %v but ⟨x,Aᵀy⟩ = %v", sz, l, r)
		}
		if math.Abs(csr.FrobeniusSq()-dense.FrobeniusSq()) > 1e-12*dense.FrobeniusSq() {
			t.Errorf("%v: Frobenius norms differ", sz)
		}
	}
}

func TestConstructorsRejectBadInput(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	validCSR := &CSR{Rows: 2, Cols: 2, RowPtr: []int{0, 1, 2}, ColIdx: []int{0, 1}, Val: []float64{1, 2}}
	tests := []struct {
		name string
		err  func() error
		want string
	}{
		{"csr-rowptr-length", func() error { _, err := NewCSR(2, 2, []int{0, 1}, []int{0}, []float64{1}); return err }, "len(RowPtr)"},
		{"csr-rowptr-start", func() error { _, err := NewCSR(1, 2, []int{1, 1}, []int{0}, []float64{1}); return err }, "RowPtr[0]"},
		{"csr-rowptr-decreasing", func() error { _, err := NewCSR(2, 2, []int{0, 2, 1}, []int{0}, []float64{1}); return err }, "decreases"},
		{"csr-rowptr-end", func() error { _, err := NewCSR(1, 2, []int{0, 1}, []int{0, 1}, []float64{1, 2}); return err }, "RowPtr[rows]"},
		{"csr-lengths", func() error { _, err := NewCSR(1, 2, []int{0, 1}, []int{0}, []float64{1, 2}); return err }, "len(ColIdx)"},
		{"csr-column-range", func() error { _, err := NewCSR(1, 2, []int{0, 1}, []int{2}, []float64{1}); return err }, "out of range"},
		{"csr-column-negative", func() error { _, err := NewCSR(1, 2, []int{0, 1}, []int{-1}, []float64{1}); return err }, "out of range"},
		{"csr-duplicate", func() error { _, err := NewCSR(1, 2, []int{0, 2}, []int{1, 1}, []float64{1, 1}); return err }, "twice"},
		{"csr-nan", func() error { _, err := NewCSR(1, 2, []int{0, 1}, []int{1}, []float64{nan}); return err }, "non-finite"},
		{"csr-negative-dims", func() error { _, err := NewCSR(-1, 2, []int{0}, nil, nil); return err }, "negative"},
		{"dense-length", func() error { _, err := NewDense(2, 2, []float64{1, 2, 3}); return err }, "entries"},
		{"dense-inf", func() error { _, err := NewDense(1, 2, []float64{1, inf}); return err }, "non-finite"},
		{"ls-nil", func() error { _, err := NewLeastSquares(nil, nil); return err }, "nil matrix"},
		{"ls-b-length", func() error { _, err := NewLeastSquares(validCSR, []float64{1}); return err }, "length 1, want 2"},
		{"ls-b-nan", func() error { _, err := NewLeastSquares(validCSR, []float64{1, nan}); return err }, "b[1]"},
		{"ls-invalid-csr-literal", func() error {
			_, err := NewLeastSquares(&CSR{Rows: 1, Cols: 1, RowPtr: []int{0, 1}, ColIdx: []int{3}, Val: []float64{1}}, []float64{0})
			return err
		}, "out of range"},
		{"distance-inf", func() error { _, err := NewDistance([]float64{inf}); return err }, "b[0]"},
		{"weighted-negative", func() error { _, err := NewWeightedDistance([]float64{-1}, []float64{0}); return err }, "negative"},
		{"weighted-length", func() error { _, err := NewWeightedDistance([]float64{1}, []float64{0, 0}); return err }, "length"},
		{"mc-dims", func() error { _, err := NewMatrixCompletion(0, 2, nil, nil); return err }, "positive"},
		{"mc-huge", func() error { _, err := NewMatrixCompletion(1<<20, 1<<20, nil, nil); return err }, "exceeds"},
		{"mc-lengths", func() error { _, err := NewMatrixCompletion(2, 2, []int{0}, nil); return err }, "values"},
		{"mc-range", func() error { _, err := NewMatrixCompletion(2, 2, []int{4}, []float64{1}); return err }, "out of range"},
		{"mc-duplicate", func() error { _, err := NewMatrixCompletion(2, 2, []int{3, 1, 3}, []float64{1, 2, 3}); return err }, "(1, 1) observed twice"},
		{"mc-nan", func() error { _, err := NewMatrixCompletion(2, 2, []int{1}, []float64{nan}); return err }, "(0, 1)"},
		{"linear-nan", func() error { _, err := NewLinear([]float64{nan}, 0); return err }, "c[0]"},
		{"linear-b-inf", func() error { _, err := NewLinear([]float64{1}, inf); return err }, "not finite"},
		// Huge sizes: errors, not makeslice panics (a tiny density or a
		// lazy stream passed the other checks).
		{"csr-maxint-rows", func() error { _, err := NewCSR(math.MaxInt, 1, []int{0}, nil, nil); return err }, "want rows+1 = 9223372036854775808"},
		{"random-ls-huge-rows", func() error { _, err := RandomLeastSquares(1<<62, 1, 1e-30, 0); return err }, "exceed the dimension limit"},
		{"random-ls-huge-cols", func() error { _, err := RandomLeastSquares(1, 1<<62, 1e-30, 0); return err }, "exceed the dimension limit"},
		{"random-distance-huge", func() error { _, err := RandomDistance(1<<62, 0); return err }, "not in [1, "},
		{"linear-losses-huge-dim", func() error {
			s, err := LinearLosses(1<<62, 1, 0)
			if err == nil {
				s.Loss(0) // generated lazily
			}
			return err
		}, "exceeds the dimension limit"},
		{"linear-losses-huge-rounds", func() error { _, err := LinearLosses(1, 1<<62, 0); return err }, "rounds 4611686018427387904 exceed"},
		{"quadratic-losses-huge-rounds", func() error { _, err := QuadraticLosses(1, 1<<62, 1, 0); return err }, "rounds 4611686018427387904 not in"},
		{"consensus-huge-dim", func() error { _, err := NewConsensus(Func{N: 1 << 61}, 2, 1); return err }, "N·n must be in [1, "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.err()
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.HasPrefix(err.Error(), "objective: ") || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q lacks prefix or %q", err, tc.want)
			}
		})
	}
}

func TestNewMatrixCompletionSortsInput(t *testing.T) {
	mc, err := NewMatrixCompletion(2, 3, []int{5, 0, 3}, []float64{50, 0.5, 30})
	mustOK(t, err)
	if got := mc.Support(); len(got) != 3 || got[0] != 0 || got[1] != 3 || got[2] != 5 {
		t.Fatalf("Support = %v", got)
	}
	if got := mc.Observed(); got[0] != 0.5 || got[1] != 30 || got[2] != 50 {
		t.Fatalf("Observed = %v", got)
	}
	if mc.Rows() != 2 || mc.Cols() != 3 || mc.Dim() != 6 {
		t.Fatalf("dims %d×%d = %d", mc.Rows(), mc.Cols(), mc.Dim())
	}
	x := []float64{1, 9, 9, 30, 9, 49}
	g := []float64{7, 7, 7, 7, 7, 7}
	if v := mc.FuncGrad(g, x); v != 0.25+1 {
		t.Fatalf("f = %v, want 1.25", v)
	}
	want := []float64{1, 0, 0, 0, 0, -2}
	for i := range want {
		if g[i] != want[i] {
			t.Fatalf("grad = %v, want %v", g, want)
		}
	}
}

func TestSmoothness(t *testing.T) {
	diag, err := NewDense(3, 3, []float64{3, 0, 0, 0, 1, 0, 0, 0, 2})
	mustOK(t, err)
	ls, err := NewLeastSquares(diag, []float64{0, 0, 0})
	mustOK(t, err)
	if L := ls.Smoothness(); L < 18 || L > 18*1.01+1e-12 {
		t.Errorf("diag(3,1,2): L = %v, want in [18, 18.18]", L)
	}
	if c := ls.Curvature(2); math.Abs(c-4*ls.Smoothness()) > 1e-12 {
		t.Errorf("Curvature(2) = %v, want 4L", c)
	}
	rank1, err := NewDense(2, 2, []float64{1, 2, 2, 4})
	mustOK(t, err)
	if s := SpectralNormSq(rank1); math.Abs(s-25) > 1e-9 {
		t.Errorf("rank one: ‖A‖² = %v, want exactly the Frobenius cap 25", s)
	}
	for _, seed := range []uint64{1, 2, 3} {
		rl, err := RandomLeastSquares(40, 30, 0.2, seed)
		mustOK(t, err)
		d := denseOf(rl.A().(*CSR))
		var svd mat.SVD
		if !svd.Factorize(mat.NewDense(d.Rows, d.Cols, d.Data), mat.SVDNone) {
			t.Fatal("SVD failed")
		}
		sigma := svd.Values(nil)[0]
		truth := 2 * sigma * sigma
		if L := rl.Smoothness(); L < truth || L > 1.01*truth*(1+1e-9) || L > 2*d.FrobeniusSq() {
			t.Errorf("seed %d: L = %v, true 2‖A‖² = %v", seed, L, truth)
		}
	}
	if SpectralNormSq(&Dense{}) != 0 {
		t.Error("empty matrix: nonzero norm")
	}
	zero, err := NewDense(2, 2, make([]float64, 4))
	mustOK(t, err)
	if s := SpectralNormSq(zero); s != 0 {
		t.Errorf("zero matrix: ‖A‖² = %v", s)
	}
	dist, err := NewWeightedDistance([]float64{1, 4, 2}, []float64{0, 0, 0})
	mustOK(t, err)
	if dist.Smoothness() != 8 || dist.Curvature(0.5) != 2 {
		t.Errorf("weighted distance: L = %v, C(0.5) = %v", dist.Smoothness(), dist.Curvature(0.5))
	}
	mc, _, err := RandomMatrixCompletion(3, 3, 1, 1)
	mustOK(t, err)
	if mc.Smoothness() != 2 || mc.Curvature(3) != 18 {
		t.Errorf("matrix completion: L = %v", mc.Smoothness())
	}
}

func TestFuncAdapter(t *testing.T) {
	f := Func{N: 2, F: func(x []float64) float64 { return x[0] * x[1] }, G: func(dst, x []float64) { dst[0], dst[1] = x[1], x[0] }}
	var obj lazycg.Objective = f
	g := make([]float64, 2)
	obj.Grad(g, []float64{2, 3})
	if obj.Dim() != 2 || obj.Func([]float64{2, 3}) != 6 || g[0] != 3 || g[1] != 2 {
		t.Fatalf("adapter: dim %d f %v g %v", obj.Dim(), obj.Func([]float64{2, 3}), g)
	}
}

// FuzzNewCSR checks that NewCSR never panics and that every matrix it
// accepts multiplies like its dense copy.
func FuzzNewCSR(f *testing.F) {
	f.Add([]byte{2, 3, 0, 1, 2, 0, 2, 10, 20})
	f.Add([]byte{1, 1, 0, 1, 0, 5})
	f.Add([]byte{0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		rows, cols := int(data[0]%8), int(data[1]%8)
		rest := data[2:]
		take := func() int {
			if len(rest) == 0 {
				return 0
			}
			v := int(int8(rest[0]))
			rest = rest[1:]
			return v
		}
		rowPtr := make([]int, take()&15)
		for i := range rowPtr {
			rowPtr[i] = take()
		}
		nnz := take() & 15
		colIdx := make([]int, nnz)
		val := make([]float64, nnz)
		for k := range colIdx {
			colIdx[k] = take()
			val[k] = float64(take()) / 7
		}
		m, err := NewCSR(rows, cols, rowPtr, colIdx, val)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "objective: csr: ") {
				t.Fatalf("error without prefix: %v", err)
			}
			return
		}
		d := denseOf(m)
		x := make([]float64, cols)
		for j := range x {
			x[j] = float64(j + 1)
		}
		y := make([]float64, rows)
		for i := range y {
			y[i] = float64(2*i - 1)
		}
		a1, a2 := make([]float64, rows), make([]float64, rows)
		m.MulVec(a1, x)
		d.MulVec(a2, x)
		t1, t2 := make([]float64, cols), make([]float64, cols)
		m.MulTransVec(t1, y)
		d.MulTransVec(t2, y)
		if relDiff(a1, a2) > 1e-12 || relDiff(t1, t2) > 1e-12 {
			t.Fatalf("CSR and dense products differ: %v %v / %v %v", a1, a2, t1, t2)
		}
	})
}
