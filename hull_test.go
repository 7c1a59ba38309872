package lazycg

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/lazycg/lazycg/internal/testutil"
)

// hullFixture is a distance objective over [0, 1]^n with m random 0/1
// vertices in the cache and a start point x0 that is the mean of two
// vertices outside the cache; with atVertex the objective's center b is
// the first cached vertex (the hull's minimum is that vertex, and every
// other point, x0 included, must be dropped on the way).
func hullFixture(n, m int, seed uint64, atVertex bool) (*State, *Cache, [][]float64) {
	rng := rand.New(rand.NewPCG(seed, 7))
	b := make([]float64, n)
	for i := range b {
		b[i] = 3*rng.Float64() - 1 // mostly outside the cube: the minimum lies on a small face
	}
	cache := NewCache(n, CachePolicy{})
	verts := make([][]float64, 0, m+2)
	for len(verts) < m+2 {
		v := make([]float64, n)
		for i := range v {
			if rng.Float64() < 0.4 {
				v[i] = 1
			}
		}
		verts = append(verts, v)
	}
	for _, v := range verts[2:] {
		cache.Add(v)
	}
	if atVertex {
		copy(b, verts[2])
	}
	x0 := make([]float64, n)
	for i := range x0 {
		x0[i] = (verts[0][i] + verts[1][i]) / 2
	}
	var stats Stats
	s := newState(testSimplex{n}, testDistance{b}, x0, &stats)
	return s, cache, verts
}

// hullOptimum minimizes f over the hull of points by projected gradient
// on the simplex of weights (exact line search of the quadratic) and
// returns the minimum.
func hullOptimum(obj testDistance, points [][]float64) float64 {
	m, n := len(points), len(obj.b)
	w := make([]float64, m)
	w[0] = 1
	x := make([]float64, n)
	g := make([]float64, n)
	gw := make([]float64, m)
	combine := func(dst, w []float64) {
		clear(dst)
		for k, p := range points {
			axpy(dst, w[k], p)
		}
	}
	for range 20000 {
		combine(x, w)
		obj.Grad(g, x)
		// A pairwise step between the best and the worst weighted point:
		// the pairwise Frank–Wolfe method on the weights.
		best, worst := 0, -1
		for k, p := range points {
			gw[k] = dot(g, p)
			if gw[k] < gw[best] {
				best = k
			}
			if w[k] > 0 && (worst < 0 || gw[k] > gw[worst]) {
				worst = k
			}
		}
		if gw[worst]-gw[best] < 1e-13 {
			break
		}
		d := make([]float64, n)
		axpy(d, 1, points[best])
		axpy(d, -1, points[worst])
		// f = |x − b|², so the exact step along d is −g·d / (2|d|²).
		eta := math.Min(w[worst], -dot(g, d)/(2*norm2sq(d)))
		w[best] += eta
		w[worst] -= eta
	}
	combine(x, w)
	return obj.Func(x)
}

// TestHullSteps: hull steps decrease f at every step, keep x a convex
// combination of x0 and the cached vertices, and end (returning false) at
// the minimum of f over that hull; when x is moved by something else the
// next step starts a new decomposition there.
func TestHullSteps(t *testing.T) {
	for _, tc := range []struct {
		n, m     int
		seed     uint64
		atVertex bool
	}{{12, 4, 1, false}, {30, 12, 2, false}, {60, 40, 3, false}, {30, 12, 4, true}, {60, 40, 5, true},
		// Small cases whose exact steps would go beyond the weight of the
		// point they leave (the line search must stop there).
		{3, 2, 12, false}, {3, 2, 22, false}, {3, 3, 12, false}} {
		plainSteps := 0
		for _, corrected := range []bool{false, true} {
			s, cache, verts := hullFixture(tc.n, tc.m, tc.seed, tc.atVertex)
			h := newHullStepper(tc.n)
			if corrected {
				q := testQuadDistance{s.Obj.(testDistance)}
				s.Obj = q
				h.correctWith(q)
			}
			points := append([][]float64{append([]float64(nil), s.X...)}, verts[2:]...)
			want := hullOptimum(testDistance{hullCenter(s)}, points)
			prev := s.F
			steps := 0
			for h.step(s, 1e-12, cache.Best) {
				steps++
				if s.F > prev+1e-12 {
					t.Fatalf("n=%d: step %d increased f from %.15g to %.15g", tc.n, steps, prev, s.F)
				}
				prev = s.F
				// x is the decomposition's point.
				y := make([]float64, tc.n)
				h.set.Compute(y)
				for i := range y {
					if math.Abs(y[i]-s.X[i]) > 1e-9 {
						t.Fatalf("n=%d: x[%d] = %g, its decomposition gives %g", tc.n, i, s.X[i], y[i])
					}
				}
				if sum := h.set.Sum(); math.Abs(sum-1) > 1e-9 {
					t.Fatalf("n=%d: weights sum to %g", tc.n, sum)
				}
				if steps > 100000 {
					t.Fatal("hull steps do not end")
				}
			}
			if math.Abs(s.F-want) > 1e-8*math.Max(1, want) {
				t.Errorf("n=%d m=%d corrected=%v: hull steps end at f = %.12g after %d steps, the hull's minimum is %.12g", tc.n, tc.m, corrected, s.F, steps, want)
			}
			if !corrected {
				plainSteps = steps
			} else {
				if s.stats.Corrections == 0 && plainSteps > 1 {
					t.Errorf("n=%d m=%d: no correction", tc.n, tc.m)
				}
				// The corrections reach the minimum in fewer hull steps
				// where there are many points.
				if plainSteps > 1 && steps >= plainSteps {
					t.Errorf("n=%d m=%d: %d hull steps with corrections, %d without", tc.n, tc.m, steps, plainSteps)
				}
				t.Logf("n=%d m=%d: %d hull steps with %d corrections, %d without", tc.n, tc.m, steps, s.stats.Corrections, plainSteps)
			}
			// Something else moves x (a method's step toward vertex 1): the
			// next hull step starts from there, and f still only decreases.
			for i := range s.X {
				s.X[i] = (s.X[i] + verts[1][i]) / 2
			}
			s.Eval()
			f0 := s.F
			if h.step(s, 1e-12, cache.Best) {
				if s.F > f0 {
					t.Errorf("n=%d: the step after an outside move increased f", tc.n)
				}
				if h.set.Len() > 2 {
					t.Errorf("n=%d: the decomposition was not restarted: %d points after one step", tc.n, h.set.Len())
				}
			}
		}
	}
}

// hullCenter returns the center b of the fixture's distance objective.
func hullCenter(s *State) []float64 {
	switch o := s.Obj.(type) {
	case testDistance:
		return o.b
	case testQuadDistance:
		return o.b
	}
	panic("hullCenter: not a distance objective")
}

// TestHullStepsAllocs: once its buffers exist, a hull step allocates
// nothing.
func TestHullStepsAllocs(t *testing.T) {
	s, cache, _ := hullFixture(40, 20, 5, false)
	h := newHullStepper(40)
	h.step(s, 0, cache.Best)
	// TODO(exact): 9 mallocs in 50 runs (deterministic) from ActiveSet.Add growing the set as
	// outside steps add vertices (hull.go:186): storeEntry vertex buffers (cache.go:702, 5),
	// append of verts/w (activeset.go:193-194), scores (activeset.go:196), slices.Grow of
	// the free list (activeset.go:201).
	if a := testing.AllocsPerRun(50, func() { h.step(s, 0, cache.Best) }); a != 0 {
		t.Errorf("%v allocations per hull step", a)
	}
	// With corrections, once the buffers have grown.
	s, cache, _ = hullFixture(40, 20, 5, false)
	q := testQuadDistance{s.Obj.(testDistance)}
	s.Obj = q
	h = newHullStepper(40)
	h.correctWith(q)
	for h.step(s, 0, cache.Best) {
	}
	s.X[0] = (s.X[0] + 1) / 2 // an outside move: the next steps start over
	s.Eval()
	h.step(s, 0, cache.Best)
	if a := testutil.Mallocs(50, func() { h.step(s, 0, cache.Best) }); a != 0 {
		t.Errorf("%d allocations in 50 corrected hull steps", a)
	}
}

// TestHullCorrectionInterrupt checks that corrected hull steps stop their
// corrections as soon as a concurrent call's result waits (arrived): with
// a result always waiting every correction makes one round of at most one
// conjugate gradient step (without the interrupt the same hull steps make
// several per round), f never increases, and the hull steps still end at
// the hull's minimum.
func TestHullCorrectionInterrupt(t *testing.T) {
	for _, interrupt := range []bool{false, true} {
		s, cache, verts := hullFixture(60, 40, 3, false)
		q := testQuadDistance{s.Obj.(testDistance)}
		s.Obj = q
		h := newHullStepper(60)
		h.correctWith(q)
		if interrupt {
			h.arrived = func() bool { return true }
		}
		points := append([][]float64{append([]float64(nil), s.X...)}, verts[2:]...)
		want := hullOptimum(testDistance{hullCenter(s)}, points)
		prev, steps := s.F, 0
		for h.step(s, 1e-12, cache.Best) {
			if steps++; steps > 100000 {
				t.Fatal("hull steps do not end")
			}
			if s.F > prev+1e-12 {
				t.Fatalf("interrupt=%v: step %d increased f from %.15g to %.15g", interrupt, steps, prev, s.F)
			}
			prev = s.F
		}
		if math.Abs(s.F-want) > 1e-8*math.Max(1, want) {
			t.Errorf("interrupt=%v: hull steps end at f = %.12g, the hull's minimum is %.12g", interrupt, s.F, want)
		}
		c := &h.corr.corr
		if interrupt && c.rounds > h.corrections {
			t.Errorf("a result always waiting: %d rounds in %d corrections, want at most one each", c.rounds, h.corrections)
		}
		if interrupt && (c.cgSteps == 0 || c.cgSteps > c.rounds) {
			t.Errorf("a result always waiting: %d rounds with %d conjugate gradient steps, want at most one step each", c.rounds, c.cgSteps)
		}
		if !interrupt && c.cgSteps <= c.rounds {
			t.Errorf("no interrupt: %d rounds with %d conjugate gradient steps; the fixture no longer tells the interrupt apart", c.rounds, c.cgSteps)
		}
		t.Logf("interrupt=%v: %d hull steps, %d corrections, %d rounds, %d CG steps", interrupt, steps, h.corrections, c.rounds, c.cgSteps)
	}
}

// TestCorrectionPays checks IdleAuto's cost rule for corrected hull steps:
// corrections run while their mean cost is at most correctionShare of the
// mean LMO call, always under IdleCorrected, and before either mean is
// known.
func TestCorrectionPays(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		name        string
		costly      bool
		corrections int
		corrTime    time.Duration
		calls       int
		oracle      time.Duration
		want        bool
	}{
		{"IdleCorrected, corrections dearer than calls", false, 10, 1000 * ms, 10, 100 * ms, true},
		{"no correction yet", true, 0, 0, 10, 100 * ms, true},
		{"no call yet", true, 3, 30 * ms, 0, 0, true},
		{"corrections cheap against calls (MIP rows)", true, 10, 10 * ms, 10, 10000 * ms, true},
		{"at the share", true, 10, 250 * ms, 10, 1000 * ms, true},
		{"above the share", true, 10, 260 * ms, 10, 1000 * ms, false},
		{"corrections as dear as calls (netgen 14a)", true, 100, 9000 * ms, 100, 7600 * ms, false},
	} {
		h := &hullStepper{costly: tc.costly, corrections: tc.corrections, corrTime: tc.corrTime}
		s := &State{stats: &Stats{LMOCalls: tc.calls, OracleTime: tc.oracle}}
		if got := h.correctionPays(s); got != tc.want {
			t.Errorf("%s: correctionPays = %v, want %v", tc.name, got, tc.want)
		}
	}
	// The calls' mean follows recent calls: long first calls (1 s) let
	// corrections of 200 ms run; once the calls take 50 ms they stop
	// within a few looks, and they resume when the calls grow long again.
	h := &hullStepper{costly: true, corrections: 5, corrTime: 1000 * ms}
	s := &State{stats: &Stats{}}
	look := func(calls int, each time.Duration) bool {
		s.stats.LMOCalls += calls
		s.stats.OracleTime += time.Duration(calls) * each
		return h.correctionPays(s)
	}
	if !look(10, 1000*ms) {
		t.Error("corrections of 200 ms stopped beside calls of 1 s")
	}
	stopped := 0
	for i := 1; i <= 10 && stopped == 0; i++ {
		if !look(20, 50*ms) {
			stopped = i
		}
	}
	if stopped == 0 || stopped > 6 {
		t.Errorf("corrections of 200 ms beside calls of 50 ms stopped after %d looks, want 1 to 6", stopped)
	}
	resumed := 0
	for i := 1; i <= 10 && resumed == 0; i++ {
		if look(5, 2000*ms) {
			resumed = i
		}
	}
	if resumed == 0 || resumed > 3 {
		t.Errorf("corrections resumed after %d looks at calls of 2 s, want 1 to 3", resumed)
	}
}
