package online

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/lmo"
)

// probeLoss is f(x) = α‖x − b‖² + c·x (α ≥ 0; b may be nil when α = 0).
type probeLoss struct {
	alpha float64
	b, c  []float64
}

func (f probeLoss) Dim() int { return len(f.c) }
func (f probeLoss) Func(x []float64) float64 {
	v := dot(f.c, x)
	if f.alpha != 0 {
		for i := range x {
			d := x[i] - f.b[i]
			v += f.alpha * d * d
		}
	}
	return v
}
func (f probeLoss) Grad(dst, x []float64) {
	copy(dst, f.c)
	if f.alpha != 0 {
		for i := range x {
			dst[i] += 2 * f.alpha * (x[i] - f.b[i])
		}
	}
}

// probeStream is a fixed list of probeLoss.
type probeStream []probeLoss

func (s probeStream) Rounds() int                 { return len(s) }
func (s probeStream) Dim() int                    { return len(s[0].c) }
func (s probeStream) Loss(t int) lazycg.Objective { return s[t] }

// probeSum is F = A‖x‖² + q·x + k of a prefix of a probeStream.
type probeSum struct {
	a, k float64
	q    []float64
}

func (p *probeSum) add(f probeLoss) {
	if p.q == nil {
		p.q = make([]float64, len(f.c))
	}
	axpy(p.q, 1, f.c)
	if f.alpha != 0 {
		p.a += f.alpha
		axpy(p.q, -2*f.alpha, f.b)
		p.k += f.alpha * dot(f.b, f.b)
	}
}

func (p *probeSum) value(x []float64) float64 { return p.a*dot(x, x) + dot(p.q, x) + p.k }

// trustedMin brackets min_P F by Frank–Wolfe with exact line search: it
// returns F(x̂) ≥ min F and F(x̂) − gap(x̂) ≤ min F (the Wolfe gap
// certificate), from x0. For A = 0 one LMO call is exact.
func (p *probeSum) trustedMin(t *testing.T, P lazycg.LMO, x0 []float64, iters int) (hi, lo float64) {
	t.Helper()
	n := len(p.q)
	x := append([]float64(nil), x0...)
	g := make([]float64, n)
	v := make([]float64, n)
	d := make([]float64, n)
	lo = math.Inf(-1)
	for it := 0; it < iters; it++ {
		for i := range g {
			g[i] = 2*p.a*x[i] + p.q[i]
		}
		res, err := P.Minimize(context.Background(), v, g)
		if err != nil || !res.Optimal() {
			t.Fatalf("trusted LMO: %v %v", err, res.Reason)
		}
		gap := dot(g, x) - dot(g, v)
		fx := p.value(x)
		lo = math.Max(lo, fx-gap)
		if gap <= 0 || p.a == 0 {
			if p.a == 0 {
				fv := p.value(v)
				return math.Min(fx, fv), math.Max(lo, fv)
			}
			break
		}
		sub(d, v, x)
		dd := dot(d, d)
		gam := math.Min(1, gap/(2*p.a*dd))
		axpy(x, gam, d)
	}
	return p.value(x), lo
}

// probeCase is one adversarial sequence over one polytope.
type probeCase struct {
	name   string
	P      lazycg.LMO
	stream probeStream
	params Params // base parameters (D, S, C, L, norm)
}

// probeCases builds the adversarial sequences.
func probeCases(t *testing.T) []probeCase {
	t.Helper()
	simplex, _ := lmo.NewProbabilitySimplex(4, 1)
	l1, _ := lmo.NewL1Ball(4, 1)
	cube, _ := lmo.NewHypercube(4)
	birk, _ := lmo.NewBirkhoff(3)
	polys := []struct {
		name string
		P    lazycg.LMO
		n    int
		d2   float64 // ℓ2-diameter
	}{{"simplex", simplex, 4, math.Sqrt2}, {"l1ball", l1, 4, 2}, {"cube", cube, 4, 2}, {"birkhoff3", birk, 9, math.Sqrt(6)}}
	const T = 120
	var cases []probeCase
	for _, pl := range polys {
		rng := rand.New(rand.NewPCG(uint64(pl.n), 99))
		randVec := func(scale float64) []float64 {
			v := make([]float64, pl.n)
			for i := range v {
				v[i] = scale * (2*rng.Float64() - 1)
			}
			return v
		}
		zero := make([]float64, pl.n)
		lin := func(name string, gen func(t int) []float64) {
			var s probeStream
			L := 0.0
			for i := range T {
				c := gen(i)
				L = math.Max(L, math.Sqrt(dot(c, c)))
				s = append(s, probeLoss{c: c})
			}
			if L == 0 {
				L = 1
			}
			cases = append(cases, probeCase{pl.name + "/" + name, pl.P, s, Params{D: pl.d2, L: L}})
		}
		quad := func(name string, alpha func(t int) float64, gen func(t int) []float64) {
			var s probeStream
			minA, maxA, L := math.Inf(1), 0.0, 0.0
			for i := range T {
				a := alpha(i)
				b := randVec(2)
				c := gen(i)
				minA, maxA = math.Min(minA, a), math.Max(maxA, a)
				// ‖∇f‖₂ ≤ 2α(‖x‖ + ‖b‖) + ‖c‖ with ‖x‖₂ ≤ 3 on these polytopes.
				L = math.Max(L, 2*a*(3+math.Sqrt(dot(b, b)))+math.Sqrt(dot(c, c)))
				s = append(s, probeLoss{alpha: a, b: b, c: c})
			}
			cases = append(cases, probeCase{pl.name + "/" + name, pl.P, s,
				Params{D: pl.d2, L: L, S: 2 * minA, C: 2 * maxA * pl.d2 * pl.d2}})
		}
		e := make([]float64, pl.n)
		e[0], e[1] = 1, -1
		alt := func(i int) []float64 {
			v := append([]float64(nil), e...)
			if i%2 == 1 {
				for j := range v {
					v[j] = -v[j]
				}
			}
			return v
		}
		lin("alternating", alt)
		lin("random", func(int) []float64 { return randVec(1) })
		lin("zero-then-large", func(i int) []float64 {
			if i < T*3/4 {
				return zero
			}
			return randVec(1e6)
		})
		lin("tiny", func(int) []float64 { return randVec(1e-20) })
		lin("huge", func(int) []float64 { return randVec(1e20) })
		cst := randVec(1)
		lin("constant", func(int) []float64 { return cst })
		lin("all-zero", func(int) []float64 { return zero })
		quad("quad", func(int) float64 { return 1 }, func(int) []float64 { return zero })
		quad("quad-alt", func(int) float64 { return 0.5 }, func(i int) []float64 { return alt(i) })
		quad("quad-tiny", func(int) float64 { return 1e-20 }, func(int) []float64 { return zero })
		quad("quad-huge", func(int) float64 { return 1e20 }, func(int) []float64 { return zero })
	}
	return cases
}

type probeMethod struct {
	name string
	make func(p Params) Method
	// concurrent runs with background weak separation; surrogate marks
	// methods whose Bound refers to the smoothing surrogates (not checked
	// against F_t).
	concurrent, surrogate bool
}

var probeMethods = []probeMethod{
	{"ocg", func(p Params) Method { return &OCG{Params: p} }, false, false},
	{"locg", func(p Params) Method { return &LOCG{Params: p} }, false, false},
	{"locg-tight", func(p Params) Method { p.TightenPhi = true; return &LOCG{Params: p} }, false, false},
	{"locg-pf", func(p Params) Method { p.ParameterFree = true; return &LOCG{Params: p} }, false, false},
	{"locg-cert", func(p Params) Method { p.ParameterFree, p.Certified = true, true; return &LOCG{Params: p} }, false, false},
	{"locg-pf-bg", func(p Params) Method { p.ParameterFree = true; return &LOCG{Params: p} }, true, false},
	{"locg-smooth", func(p Params) Method {
		p.Smoothing, p.S, p.C, p.Steps, p.L1Diameter = true, 0, 0, StepsAuto, 4
		return &LOCG{Params: p}
	}, false, true},
}

// TestProbeBoundsBracketTruth runs every method on every adversarial
// sequence and checks against a trusted hindsight solve that every
// printed upper bound (each round's Bound, RegretUpper, ErrorUpper) is at
// least the true value and every lower bound (RegretLower, ErrorLower) at
// most it.
func TestProbeBoundsBracketTruth(t *testing.T) {
	for _, pc := range probeCases(t) {
		for _, pm := range probeMethods {
			name := pc.name + "/" + pm.name
			var sum probeSum
			x0 := make([]float64, pc.stream.Dim())
			pc.P.(lazycg.Vertexer).Vertex(x0)
			bad := ""
			played := 0.0
			cb := func(r *Round, x []float64) bool {
				f := pc.stream[r.Round-1]
				sum.add(f)
				played += f.Func(x)
				if math.IsNaN(r.Bound) || bad != "" || pm.surrogate {
					return true
				}
				hi, _ := sum.trustedMin(t, pc.P, x, 3000)
				fx := sum.value(x)
				tol := 1e-9 * (math.Abs(fx) + math.Abs(hi) + 1e-300)
				if gap := fx - hi; r.Bound < gap-tol {
					bad = fmt.Sprintf("round %d: Bound %g < F_t(x_t) − min F_t ≥ %g", r.Round, r.Bound, gap)
				}
				return true
			}
			var last []float64
			cb2 := func(r *Round, x []float64) bool { last = append(last[:0], x...); return cb(r, x) }
			settings := &Settings{Callback: cb2, NoTrace: true}
			settings.Concurrent = pm.concurrent
			res, err := Minimize(context.Background(), Problem{Losses: pc.stream, LMO: pc.P}, settings, pm.make(pc.params))
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			if bad != "" {
				t.Errorf("%s: %s", name, bad)
			}
			hi, lo := sum.trustedMin(t, pc.P, last, 20000)
			fT := sum.value(last)
			tol := 1e-9 * (math.Abs(res.TotalLoss) + math.Abs(hi) + math.Abs(fT) + 1e-300)
			if res.RegretUpper < res.TotalLoss-hi-tol {
				t.Errorf("%s: RegretUpper %g < true regret ≥ %g", name, res.RegretUpper, res.TotalLoss-hi)
			}
			if res.RegretLower > res.TotalLoss-lo+tol {
				t.Errorf("%s: RegretLower %g > true regret ≤ %g", name, res.RegretLower, res.TotalLoss-lo)
			}
			if res.ErrorUpper < fT-hi-tol {
				t.Errorf("%s: ErrorUpper %g < true error ≥ %g", name, res.ErrorUpper, fT-hi)
			}
			if res.ErrorLower > fT-lo+tol {
				t.Errorf("%s: ErrorLower %g > true error ≤ %g", name, res.ErrorLower, fT-lo)
			}
			if d := math.Abs(res.TotalLoss - played); d > 1e-9*math.Abs(played) {
				t.Errorf("%s: TotalLoss %g, Σ f_t(x_t) = %g", name, res.TotalLoss, played)
			}
			// Theorem 5.1 for Algorithm 8 and the certified variant: the
			// proven lower bound on (1/T)(F_T(x_T) − min F_T) must not exceed
			// A·T^{−e}.
			if pm.name == "locg" || pm.name == "locg-tight" || pm.name == "locg-cert" {
				tb, err := pc.params.TheoremBound(pc.P, res.Rounds)
				if err != nil {
					t.Errorf("%s: theorem bound: %v", name, err)
				} else if (fT-hi)/float64(res.Rounds) > tb*(1+1e-9) {
					t.Errorf("%s: (1/T)(F_T(x_T) − min F_T) ≥ %g exceeds Theorem 5.1's %g", name, (fT-hi)/float64(res.Rounds), tb)
				}
			}
			if res.Certified != nil && res.Certified.Violations != 0 {
				t.Errorf("%s: %d envelope violations", name, res.Certified.Violations)
			}
			// Oracle work: OCG one LMO call per update, LOCG at most one
			// (the certified variant two), and at most one weak separation
			// answer per update (Corollary 5.3: at most T calls).
			upd := res.Rounds - 1
			st := res.Stats
			switch pm.name {
			case "ocg":
				if st.LMOCalls != upd {
					t.Errorf("%s: %d LMO calls in %d updates", name, st.LMOCalls, upd)
				}
			case "locg-cert", "locg-pf-bg", "locg-smooth":
				if st.LMOCalls > 2*upd {
					t.Errorf("%s: %d LMO calls in %d updates", name, st.LMOCalls, upd)
				}
			default:
				if st.LMOCalls > upd || st.PositiveCalls+st.NegativeCalls > upd {
					t.Errorf("%s: %d LMO calls, %d answers in %d updates", name, st.LMOCalls, st.PositiveCalls+st.NegativeCalls, upd)
				}
			}
			if math.IsInf(res.RegretUpper, 0) || math.IsInf(res.RegretLower, 0) {
				t.Errorf("%s: regret bracket [%g, %g] (hindsight %v)", name, res.RegretLower, res.RegretUpper, res.Hindsight.Status)
			}
		}
	}
}

// TestProbeNormsTheorem runs Algorithm 8 and the certified variant in the
// ℓ1 and ℓ∞ norms (D in the norm, L in its dual norm) on the linear
// adversarial sequences and checks every h_t against F_t(x_t) − min F_t and
// Theorem 5.1(a)'s bound at T.
func TestProbeNormsTheorem(t *testing.T) {
	diam := map[string][2]float64{ // ℓ1, ℓ∞ diameters
		"simplex": {2, 1}, "l1ball": {2, 2}, "cube": {4, 1}, "birkhoff3": {6, 1},
	}
	for _, pc := range probeCases(t) {
		if pc.params.S != 0 {
			continue // linear sequences only
		}
		pname := pc.name[:strings.IndexByte(pc.name, '/')]
		for ni, nm := range []Norm{NormL1, NormInf} {
			L := 0.0
			for _, f := range pc.stream {
				L = math.Max(L, nm.dual(f.c))
			}
			if L == 0 {
				L = 1
			}
			p := Params{Norm: nm, D: diam[pname][ni], L: L}
			for _, cert := range []bool{false, true} {
				m := &LOCG{Params: p}
				m.Params.ParameterFree, m.Params.Certified = cert, cert
				var sum probeSum
				var last []float64
				bad := ""
				cb := func(r *Round, x []float64) bool {
					sum.add(pc.stream[r.Round-1])
					last = append(last[:0], x...)
					hi, _ := sum.trustedMin(t, pc.P, x, 1)
					if gap := sum.value(x) - hi; bad == "" && !math.IsNaN(r.Bound) &&
						r.Bound < gap-1e-9*(math.Abs(hi)+math.Abs(sum.value(x))) {
						bad = fmt.Sprintf("round %d: h_t %g < F_t(x_t) − min F_t = %g", r.Round, r.Bound, gap)
					}
					return true
				}
				res, err := Minimize(context.Background(), Problem{Losses: pc.stream, LMO: pc.P},
					&Settings{Callback: cb, NoTrace: true, NoHindsight: true}, m)
				name := fmt.Sprintf("%s/%v/cert=%v", pc.name, nm, cert)
				if err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				if bad != "" {
					t.Errorf("%s: %s", name, bad)
				}
				hi, _ := sum.trustedMin(t, pc.P, last, 1)
				tb, err := m.Params.TheoremBound(pc.P, res.Rounds)
				if err != nil {
					t.Fatal(err)
				}
				if e := (sum.value(last) - hi) / float64(res.Rounds); e > tb*(1+1e-9) {
					t.Errorf("%s: (1/T)(F_T(x_T) − min F_T) = %g exceeds Theorem 5.1's %g", name, e, tb)
				}
			}
		}
	}
}
