package lazycg_test

import (
	"context"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/lmo"
	"github.com/lazycg/lazycg/objective"
)

// TestActiveSetLoneVertexExact checks that when steps leave a single
// vertex in an active set, the next Sync makes x that vertex exactly, with
// weight 1. The weights and x used to keep the rounding of the steps that
// emptied the other weights (a weight of 1 − 2·10⁻¹⁵, x a few ulps off the
// vertex): x − v was then a direction of pure rounding error, and an away
// step from v was allowed a step λ/(1−λ) of about 10^15 along it.
func TestActiveSetLoneVertexExact(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	n := 12
	vertex := func() []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(r.Intn(2))
		}
		return v
	}
	for trial := range 200 {
		a := lazycg.NewActiveSet(n)
		v0, v1, v2 := vertex(), vertex(), vertex()
		x := append([]float64(nil), v0...)
		a.Init(v0)
		// Two FW steps, x updated as the methods do (x += γ(v − x)).
		for _, v := range [][]float64{v1, v2} {
			g := 0.05 + 0.9*r.Float64()
			k := a.Add(v)
			for i := range x {
				x[i] += g * (v[i] - x[i])
			}
			a.FWStep(k, g)
			a.Sync(x)
		}
		if a.Len() != 3 {
			continue // a vertex repeated
		}
		// Drop steps away from two of the three vertices.
		keep := r.Intn(3)
		for j, v := range [][]float64{v0, v1, v2} {
			if j == keep || a.Len() == 1 {
				continue
			}
			k := a.Find(v)
			g := a.AwayMaxStep(k)
			for i := range x {
				x[i] += g * (x[i] - v[i])
			}
			a.AwayStep(k, g)
			a.Sync(x)
		}
		if a.Len() != 1 {
			continue
		}
		w := make([]float64, n)
		a.Vertex(w, 0)
		if a.Weight(0) != 1 || !equalVec(x, w) {
			t.Fatalf("trial %d: lone vertex %v of weight 1 − %g, x = %v", trial, w, 1-a.Weight(0), x)
		}
	}
}

func equalVec(a, b []float64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestMinimizeDCAwayLoneVertex runs DCA with away-step FW on
// φ = ‖x − a‖² − 3‖x − ½·1‖² over the unit cube, whose subproblems end at
// vertices. The fourth subproblem ended with its active set a lone vertex
// of weight 1 − 2·10⁻¹⁵; the fifth, which kept it, took an away step of
// about 10^15 along the rounding error x − v to another vertex, and the
// run failed with "φ rose … G is not convex" although G is convex.
func TestMinimizeDCAwayLoneVertex(t *testing.T) {
	q := newBoxDC(30, 3, 5)
	for _, m := range []lazycg.Method{&lazycg.AwayFW{}, &lazycg.LazyAwayFW{}} {
		st := lazycg.DCSettings{SolveSubproblems: true, Tolerance: 1e-9, MaxIterations: 100, Inner: lazycg.Settings{MaxIterations: 2000}}
		res, err := lazycg.MinimizeDC(context.Background(), q.problem(t), &st, m)
		if err != nil || res.Status != lazycg.GapConverged {
			t.Fatalf("%T: status %v, error %v", m, res.Status, err)
		}
		checkBoxDC(t, q, res)
	}
}

// TestMinimizeDCNotMajorantMessage checks the error of a DCA step whose
// new value of φ is lower than the last one but above the model's value
// there (G concave: the model is no majorant): the run fails, and the
// error says what happened instead of "φ rose from 8.08 to 1.28".
func TestMinimizeDCNotMajorantMessage(t *testing.T) {
	n := 20
	q := newBoxDC(n, 0, 4)
	f, err := objective.NewDistance(q.a)
	if err != nil {
		t.Fatal(err)
	}
	c := make([]float64, n)
	for i := range c {
		c[i] = float64(i%3) / 2
	}
	g := objective.Func{N: n, // −‖x − c‖², concave
		F: func(x []float64) float64 {
			var v float64
			for i := range x {
				v -= (x[i] - c[i]) * (x[i] - c[i])
			}
			return v
		},
		G: func(dst, x []float64) {
			for i := range x {
				dst[i] = -2 * (x[i] - c[i])
			}
		}}
	h, err := lmo.NewHypercube(n)
	if err != nil {
		t.Fatal(err)
	}
	x0 := make([]float64, n)
	for i := range x0 {
		x0[i] = float64(i % 2)
	}
	res, err := lazycg.MinimizeDC(context.Background(), lazycg.DCProblem{F: f, G: g, LMO: h, X0: x0},
		&lazycg.DCSettings{MaxIterations: 50}, &lazycg.FrankWolfe{})
	if err == nil || res == nil || res.Status != lazycg.Failure || !strings.Contains(err.Error(), "G is not convex") {
		t.Fatalf("result %v, error %v: want Failure saying that G is not convex", res, err)
	}
	if strings.Contains(err.Error(), "rose") {
		t.Errorf("error %q: φ did not rise here", err)
	}
	if phi := f.Func(res.X) - g.F(res.X); res.F != phi || res.F != f.Func(x0)-g.F(x0) {
		t.Errorf("F %g, φ(X) %g: want the start", res.F, phi)
	}
}

// boxDC is φ = ‖x − a‖² − λ‖x − c‖² over [0,1]^n: the DCA model's
// minimizer is clip(a + λ(x_t − c)) coordinatewise, so the true DCA gap
// of any iterate is known in closed form.
type boxDC struct {
	a, c   []float64
	lambda float64
}

func (q boxDC) problem(t *testing.T) lazycg.DCProblem {
	f, err := objective.NewDistance(q.a)
	if err != nil {
		t.Fatal(err)
	}
	w := make([]float64, len(q.a))
	for i := range w {
		w[i] = q.lambda
	}
	g, err := objective.NewWeightedDistance(w, q.c)
	if err != nil {
		t.Fatal(err)
	}
	h, err := lmo.NewHypercube(len(q.a))
	if err != nil {
		t.Fatal(err)
	}
	x0 := make([]float64, len(q.a))
	for i := range x0 {
		x0[i] = 0.2 + 0.6*float64(i%5)/4
	}
	return lazycg.DCProblem{F: f, G: g, LMO: h, X0: x0}
}

func (q boxDC) phi(x []float64) float64 {
	var v float64
	for i := range x {
		v += (x[i]-q.a[i])*(x[i]-q.a[i]) - q.lambda*(x[i]-q.c[i])*(x[i]-q.c[i])
	}
	return v
}

// trueGap returns φ(x) − min_box m_x.
func (q boxDC) trueGap(x []float64) float64 {
	// m_x(y) = ‖y − a‖² − λ‖x − c‖² − 2λ(x − c)·(y − x)
	var m float64
	for i := range x {
		gi := 2 * q.lambda * (x[i] - q.c[i])
		y := math.Min(1, math.Max(0, q.a[i]+gi/2))
		m += (y-q.a[i])*(y-q.a[i]) - q.lambda*(x[i]-q.c[i])*(x[i]-q.c[i]) - gi*(y-x[i])
	}
	return q.phi(x) - m
}

func newBoxDC(n int, lambda float64, seed int64) boxDC {
	r := rand.New(rand.NewSource(seed))
	q := boxDC{a: make([]float64, n), c: make([]float64, n), lambda: lambda}
	for i := range q.a {
		q.a[i] = r.Float64()*1.4 - 0.2
		q.c[i] = 0.5
	}
	return q
}

func checkBoxDC(t *testing.T, q boxDC, res *lazycg.DCResult) {
	t.Helper()
	for _, v := range res.X {
		if v < -1e-12 || v > 1+1e-12 {
			t.Fatalf("X not in P")
		}
	}
	if got := q.phi(res.X); math.Abs(got-res.F) > 1e-9*math.Max(1, math.Abs(got)) {
		t.Errorf("F %g, φ(X) %g", res.F, got)
	}
	if res.Certified != nil {
		if got := q.phi(res.Certified); math.Abs(got-res.CertifiedF) > 1e-9*math.Max(1, math.Abs(got)) {
			t.Errorf("CertifiedF %g, φ(Certified) %g", res.CertifiedF, got)
		}
		if tg := q.trueGap(res.Certified); tg > res.GapBound+1e-9*math.Max(1, math.Abs(res.CertifiedF)) {
			t.Errorf("true DCA gap %g above proven %g (status %v)", tg, res.GapBound, res.Status)
		}
		if res.F > res.CertifiedF+1e-12 {
			t.Errorf("F %g above CertifiedF %g", res.F, res.CertifiedF)
		}
	} else if !math.IsInf(res.GapBound, 1) {
		t.Errorf("no certified point, gap %g", res.GapBound)
	}
	for i := 1; i < len(res.Trace); i++ {
		if res.Trace[i].F > res.Trace[i-1].F {
			t.Errorf("trace φ rose at %d: %g → %g", i, res.Trace[i-1].F, res.Trace[i].F)
		}
	}
	if n := len(res.Trace); n > 0 {
		last := res.Trace[n-1]
		if last.F != res.F || last.Iteration != res.Iterations || last.LMOCalls != res.Stats.LMOCalls {
			t.Errorf("last trace point %+v, result F %g it %d calls %d", last, res.F, res.Iterations, res.Stats.LMOCalls)
		}
	}
}
