package lazycg

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
)

// pwMaxInBall returns max c·(x − z) over z ∈ P ∩ B(x, r) for the product
// of simplices P, exactly: the maximizer is z(t) = proj_P(x − tc) for the
// t with ‖z(t) − x‖ = r (KKT of the ball constraint), and ‖z(t) − x‖ is
// nondecreasing in t, so a bisection on t finds it.
func pwMaxInBall(p pwProduct, x, c []float64, r float64) float64 {
	n := len(x)
	y := make([]float64, n)
	at := func(t float64) ([]float64, float64) {
		for i := range y {
			y[i] = x[i] - t*c[i]
		}
		z := p.project(y)
		var d float64
		for i := range z {
			d += (z[i] - x[i]) * (z[i] - x[i])
		}
		return z, math.Sqrt(d)
	}
	val := func(z []float64) float64 {
		var s float64
		for i := range z {
			s += c[i] * (x[i] - z[i])
		}
		return s
	}
	hi := 1e8
	if z, d := at(hi); d <= r {
		return val(z)
	}
	lo := 0.0
	for range 200 {
		mid := (lo + hi) / 2
		if _, d := at(mid); d <= r {
			lo = mid
		} else {
			hi = mid
		}
	}
	z, _ := at(lo)
	return val(z)
}

// TestPwLemma35 checks both outcomes of the weak local separation oracle
// (Algorithm 6) against brute force on simplices (where μ = 1 is valid):
// positive answers are points of P within √n μ r of x improving by more
// than Φ/K; after negative answers the exact maximum of c·(x − z) over
// P ∩ B(x, r) is at most Φ. On products of simplices and with the exact
// LLOO the positive properties are checked as well.
func TestPwLemma35(t *testing.T) {
	ctx := context.Background()
	for _, poly := range []pwProduct{{1, 4}, {1, 7}, {1, 12}, {3, 4}} {
		n := poly.Dim()
		verts := poly.vertices()
		rng := rand.New(rand.NewPCG(uint64(n), 9))
		var stats Stats
		cs := &CachedSeparator{LMO: poly, Cache: NewCache(n, CachePolicy{})}
		o := NewOracle(poly, cs, &stats)
		diam := math.Sqrt(2 * float64(poly.k))
		var lo localOracle
		lo.init(n, 1, diam)
		as := NewActiveSet(n)
		x := make([]float64, n)
		y := make([]float64, n)
		pos, neg := 0, 0
		for trial := range 600 {
			// A random decomposition over a few vertices.
			as.Init(verts[rng.IntN(len(verts))])
			for range rng.IntN(5) {
				as.FWStep(as.Add(verts[rng.IntN(len(verts))]), rng.Float64())
			}
			as.Compute(x)
			c := make([]float64, n)
			for i := range c {
				c[i] = rng.NormFloat64()
			}
			r := diam * math.Pow(10, -2*rng.Float64())
			mx := pwMaxInBall(poly, x, c, r)
			phi := math.Max(mx, 1e-3) * math.Pow(10, 2*rng.Float64()-0.5)
			k := 1 + rng.Float64()
			exact := trial%5 == 0
			var positive bool
			if exact {
				if _, err := lo.lloo(ctx, o, as, c, r); err != nil {
					t.Fatal(err)
				}
				positive = true
			} else {
				sep, err := lo.separate(ctx, o, as, c, r, phi, k)
				if err != nil {
					t.Fatal(err)
				}
				positive = sep.Positive
			}
			if positive {
				lo.point(y, x)
				if err := poly.contains(y, 1e-12); err != nil {
					t.Fatalf("%v trial %d: y ∉ P: %v", poly, trial, err)
				}
				var dist float64
				for i := range x {
					dist += (x[i] - y[i]) * (x[i] - y[i])
				}
				if limit := math.Sqrt(float64(n)) * r; math.Sqrt(dist) > limit*(1+1e-12) {
					t.Fatalf("%v trial %d: ‖x − y‖ = %g > √n μ r = %g", poly, trial, math.Sqrt(dist), limit)
				}
				impr := dot(c, x) - dot(c, y)
				if !exact && !(impr > phi/k-1e-12) {
					t.Fatalf("%v trial %d: c(x − y) = %g ≤ Φ/K = %g", poly, trial, impr, phi/k)
				}
				if exact && poly.k == 1 && impr < mx-1e-9 {
					// LLOO: c·y ≤ c·z for every z ∈ P ∩ B(x, r).
					t.Fatalf("%v trial %d: LLOO improvement %g below the ball optimum %g", poly, trial, impr, mx)
				}
				if !exact {
					pos++
				}
				continue
			}
			neg++
			if poly.k == 1 && mx > phi*(1+1e-9)+1e-12 {
				t.Fatalf("%v trial %d: negative answer but max over P ∩ B(x, r) of c(x − z) = %g > Φ = %g", poly, trial, mx, phi)
			}
		}
		if pos < 50 || neg < 50 {
			t.Errorf("%v: %d positive and %d negative answers", poly, pos, neg)
		}
	}
}

// pwDiag is f(x) = Σ d_i (x_i − b_i)², S = 2 min d, β = 2 max d.
type pwDiag struct{ d, b []float64 }

func (f pwDiag) Dim() int { return len(f.b) }
func (f pwDiag) Func(x []float64) float64 {
	var s float64
	for i := range x {
		s += f.d[i] * (x[i] - f.b[i]) * (x[i] - f.b[i])
	}
	return s
}
func (f pwDiag) Grad(dst, x []float64) {
	for i := range x {
		dst[i] = 2 * f.d[i] * (x[i] - f.b[i])
	}
}

// fstar minimizes f over the simplex: x_i = max(0, b_i − θ/(2d_i)) with θ
// found by bisection so that Σ x_i = 1.
func (f pwDiag) fstar() float64 {
	x := make([]float64, len(f.b))
	at := func(theta float64) float64 {
		var s float64
		for i := range x {
			x[i] = math.Max(0, f.b[i]-theta/(2*f.d[i]))
			s += x[i]
		}
		return s
	}
	lo, hi := -1e6, 1e6
	for range 300 {
		mid := (lo + hi) / 2
		if at(mid) > 1 {
			lo = mid
		} else {
			hi = mid
		}
	}
	at((lo + hi) / 2)
	return f.Func(x)
}

func pwDiagProblem(n int, cond float64, seed uint64) (Problem, pwDiag, float64) {
	rng := rand.New(rand.NewPCG(seed, 5))
	f := pwDiag{d: make([]float64, n), b: make([]float64, n)}
	for i := range f.d {
		f.d[i] = 1 + (cond-1)*float64(i)/float64(n-1)
		f.b[i] = 3 * rng.Float64() / float64(n)
	}
	return Problem{Objective: f, LMO: pwProduct{1, n}, X0: e0(n)}, f, f.fstar()
}

// Theorem 3.6 for LLCG and the analogous bound h_t for Garber–Hazan's
// method, with valid constants on the simplex: f(x_{t+1}) − f* ≤ Φ_t.
func TestPwTheorem36(t *testing.T) {
	n := 10
	p, fstar := simplexProblem(n, 4)
	p.LMO = pwProduct{1, n}
	for _, mk := range []func() interface {
		Method
		Phi() float64
	}{
		func() interface {
			Method
			Phi() float64
		} {
			return &LLCG{K: 1, Mu: 1, D: math.Sqrt2, S: 2, Beta: 2}
		},
		func() interface {
			Method
			Phi() float64
		} {
			return &LLCG{K: 1.5, Mu: 1, D: math.Sqrt2, S: 2, Beta: 2}
		},
		func() interface {
			Method
			Phi() float64
		} {
			return &LocalCG{Mu: 1, D: math.Sqrt2, S: 2, Beta: 2}
		},
	} {
		m := mk()
		var phi0 float64
		cb := func(pr Progress) bool {
			if pr.Iteration == 1 {
				phi0 = m.Phi()
			}
			if pr.F-fstar > m.Phi()*(1+1e-9)+1e-15 {
				t.Fatalf("%T iteration %d: f − f* = %g > Φ_t = %g", m, pr.Iteration, pr.F-fstar, m.Phi())
			}
			return true
		}
		ch := &pwChecked{obj: p.Objective, contains: func(x []float64) error { return pwProduct{1, n}.contains(x, 1e-12) }}
		q := p
		q.Objective = ch
		res, err := Minimize(context.Background(), q, &Settings{MaxIterations: 3000, Callback: cb}, m)
		if err != nil {
			t.Fatal(err)
		}
		if ch.err != nil {
			t.Fatalf("%T left P: %v", m, ch.err)
		}
		if res.F-fstar > phi0/100 {
			t.Errorf("%T: f − f* = %g after %d iterations (Φ %g → %g)", m, res.F-fstar, res.Stats.Iterations, phi0, m.Phi())
		}
		if res.DualBound > fstar+1e-12 {
			t.Errorf("%T: dual bound %g > f* %g", m, res.DualBound, fstar)
		}
	}
}

// TestPwLocalVariants compares the theoretical constants of LLCG and
// Garber–Hazan's method with the practical variants (α scaled up, line
// search) on an ill-conditioned quadratic over the simplex, where the
// theoretical α = S/(2Kβnμ²) is tiny.
func TestPwLocalVariants(t *testing.T) {
	n := 30
	p, f, fstar := pwDiagProblem(n, 10, 2)
	S, beta := 2*f.d[0], 2*f.d[n-1]
	type variant struct {
		name string
		m    Method
	}
	variants := []variant{
		{"llcg theory", &LLCG{Mu: 1, D: math.Sqrt2, S: S, Beta: beta}},
		{"llcg α×30", &LLCG{Mu: 1, D: math.Sqrt2, S: S, Beta: beta, AlphaScale: 30}},
		{"llcg α×30 adaptive", &LLCG{Mu: 1, D: math.Sqrt2, S: S, Beta: beta, AlphaScale: 30, AdaptivePhi: true}},
		{"llcg line search", &LLCG{Mu: 1, D: math.Sqrt2, S: S, Beta: beta, LineSearch: true, AdaptivePhi: true}},
		{"local-cg theory", &LocalCG{Mu: 1, D: math.Sqrt2, S: S, Beta: beta}},
		{"local-cg α×30", &LocalCG{Mu: 1, D: math.Sqrt2, S: S, Beta: beta, AlphaScale: 30}},
		{"local-cg α×30 adaptive", &LocalCG{Mu: 1, D: math.Sqrt2, S: S, Beta: beta, AlphaScale: 30, AdaptiveRadius: true}},
		{"local-cg line search", &LocalCG{Mu: 1, D: math.Sqrt2, S: S, Beta: beta, LineSearch: true, AdaptiveRadius: true}},
	}
	gaps := map[string]float64{}
	for _, v := range variants {
		ch := &pwChecked{obj: f, contains: func(x []float64) error { return pwProduct{1, n}.contains(x, 1e-12) }}
		q := p
		q.Objective = ch
		res, err := Minimize(context.Background(), q, &Settings{MaxIterations: 2000}, v.m)
		if err != nil {
			t.Fatal(err)
		}
		if ch.err != nil {
			t.Fatalf("%s left P: %v", v.name, ch.err)
		}
		gaps[v.name] = res.F - fstar
		t.Logf("%-22s α=%.2e: f − f* = %.3e after %d iterations, %d LMO calls, %d cache hits", v.name,
			alphaOf(v.m), res.F-fstar, res.Stats.Iterations, res.Stats.LMOCalls, res.Stats.CacheHits)
	}
	for _, pre := range []string{"llcg", "local-cg"} {
		if !(gaps[pre+" line search"] < gaps[pre+" theory"]/10) {
			t.Errorf("%s: practical gap %g not far below the theoretical one %g", pre, gaps[pre+" line search"], gaps[pre+" theory"])
		}
	}
}

func alphaOf(m Method) float64 {
	switch m := m.(type) {
	case *LLCG:
		return m.Alpha()
	case *LocalCG:
		return m.Alpha()
	}
	return 0
}
