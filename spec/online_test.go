package spec

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats"

	"github.com/lazycg/lazycg/objective"
	"github.com/lazycg/lazycg/online"
)

func TestOnlineMethodRegistry(t *testing.T) {
	if got := MethodNames(true); !slices.Equal(got, []string{"locg", "locg-cert", "locg-pf", "ocg"}) {
		t.Fatalf("online methods %v", got)
	}
	params := online.Params{K: 1.5, D: 2, TightenPhi: true}
	cases := []struct {
		name          string
		lazy          bool
		parameterFree bool
		certified     bool
	}{
		{"ocg", false, false, false},
		{"locg", true, false, false},
		{"locg-pf", true, true, false},
		{"locg-cert", true, true, true},
	}
	for _, tc := range cases {
		info, err := Method(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		if info.Name != tc.name || !info.Online || info.Lazy != tc.lazy || info.Doc == "" {
			t.Errorf("%s: %+v", tc.name, info)
		}
		p := params
		switch m := info.NewOnline(&p).(type) {
		case *online.OCG:
			if tc.name != "ocg" || m.Params != params {
				t.Errorf("%s: OCG with %+v", tc.name, m.Params)
			}
		case *online.LOCG:
			want := params
			want.ParameterFree, want.Certified = tc.parameterFree, tc.certified
			if !tc.lazy || m.Params != want {
				t.Errorf("%s: LOCG with %+v, want %+v", tc.name, m.Params, want)
			}
		default:
			t.Errorf("%s: method %T", tc.name, m)
		}
	}
	// locg is Algorithm 8 even when handed parameter-free parameters, and
	// locg-pf is not certified when handed certified ones.
	info, _ := Method("locg")
	if m := info.NewOnline(&online.Params{ParameterFree: true, Certified: true}).(*online.LOCG); m.Params.ParameterFree || m.Params.Certified {
		t.Error("locg ran parameter-free")
	}
	info, _ = Method("locg-pf")
	if m := info.NewOnline(&online.Params{Certified: true}).(*online.LOCG); m.Params.Certified {
		t.Error("locg-pf ran certified")
	}
	if _, err := Method("sgd"); err == nil || !strings.Contains(err.Error(), "locg-pf") {
		t.Errorf("unknown method: %v", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("duplicate registration did not panic")
		}
	}()
	RegisterMethod(MethodInfo{Name: "ocg", Online: true, NewOnline: func(*online.Params) online.Method { return nil }})
}

func TestDeriveOnlineParams(t *testing.T) {
	in, err := Polytope("birkhoff:5", Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := in.Dim()
	lin, err := objective.LinearLosses(n, 10, 1)
	if err != nil {
		t.Fatal(err)
	}
	quad, err := objective.QuadraticLosses(n, 10, 0.3, 1)
	if err != nil {
		t.Fatal(err)
	}
	d := math.Sqrt(in.Diameter2)
	cases := []struct {
		name   string
		stream objective.Stream
		user   MethodParams
		want   online.Params
	}{
		{"linear", lin, MethodParams{K: 1.1}, online.Params{K: 1.1, D: d, L: math.Sqrt(float64(n))}},
		{"quadratic", quad, MethodParams{K: 2, ImprovedPhi: true},
			online.Params{K: 2, D: d, C: Curvature(quad.Loss(0), in), TightenPhi: true}},
		{"user values win", quad, MethodParams{K: 1.1, C: 3, S: 4, L: 5, D: 6, Smoothing: true},
			online.Params{K: 1.1, C: 3, S: 4, L: 5, D: 6, Smoothing: true}},
		{"linear with user C and L", lin, MethodParams{C: 7, L: 8}, online.Params{C: 7, L: 8, D: d}},
	}
	for _, tc := range cases {
		if got := DeriveOnlineParams(in, tc.stream, tc.user); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
	if c := Curvature(quad.Loss(0), in); !(c > 0) || !(d > 0) {
		t.Errorf("curvature %g, diameter %g: the quadratic case tests nothing", c, d)
	}
	// Unknown diameter: D stays 0 (the methods derive or require it).
	noDiam := &Instance{LMO: in.LMO}
	if got := DeriveOnlineParams(noDiam, quad, MethodParams{}); got.D != 0 || got.C != 0 {
		t.Errorf("no diameter: %+v", got)
	}
}

// TestLossStreamProtocol checks the loss streams of the online protocol:
// by default rounds drawn at random from 100 losses until a limit; cycle
// and once on request.
func TestLossStreamProtocol(t *testing.T) {
	def, err := LossStream("linear", 7, 3)
	if err != nil {
		t.Fatal(err)
	}
	rep, ok := def.(*objective.Repeated)
	if !ok || !Unbounded(def) || rep.Pool().Rounds() != DefaultFunctions || rep.Order() != objective.OrderRandom {
		t.Fatalf("default stream %T: unbounded %v", def, Unbounded(def))
	}
	// The 100 functions are different, and the rounds use them all.
	seen := map[*objective.Linear]bool{}
	for r := range 5000 {
		seen[def.Loss(r).(*objective.Linear)] = true
	}
	if len(seen) != DefaultFunctions {
		t.Errorf("5000 rounds used %d of the %d functions", len(seen), DefaultFunctions)
	}
	f0, f1 := rep.Pool().Loss(0).(*objective.Linear), rep.Pool().Loss(1).(*objective.Linear)
	if slices.Equal(f0.C, f1.C) {
		t.Error("functions 0 and 1 are equal")
	}
	// The same spec and seed give the same sequence.
	again, _ := LossStream("linear", 7, 3)
	for _, r := range []int{0, 1, 99, 100, 12345} {
		a, b := def.Loss(r).(*objective.Linear), again.Loss(r).(*objective.Linear)
		if !slices.Equal(a.C, b.C) || a.B != b.B {
			t.Fatalf("round %d differs between two builds", r)
		}
	}
	cyc, err := LossStream("quadratic:functions=3,order=cycle,rounds=7,seed=2", 5, 1)
	if err != nil {
		t.Fatal(err)
	}
	if cyc.Rounds() != 7 || cyc.Loss(4) != cyc.Loss(1) || cyc.Loss(0) == cyc.Loss(1) {
		t.Errorf("cycle: %d rounds, round 4 and 1 %v", cyc.Rounds(), cyc.Loss(4) == cyc.Loss(1))
	}
	once, err := LossStream("linear:order=once", 5, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, rep := once.(*objective.Repeated); rep || once.Rounds() != DefaultFunctions || Unbounded(once) {
		t.Errorf("once: %T with %d rounds", once, once.Rounds())
	}
	if s, err := LossStream("linear:rounds=40", 5, 1); err != nil || s.Rounds() != 40 {
		t.Errorf("rounds=40: %v", err)
	}
	for _, bad := range []string{"linear:order=sideways", "linear:order=once,rounds=7", "linear:functions=0",
		"quadratic:rounds=0", "linear:3", "linear:pool=3"} {
		if _, err := LossStream(bad, 5, 1); err == nil || !strings.HasPrefix(err.Error(), "spec: ") {
			t.Errorf("LossStream(%q): error %v", bad, err)
		}
	}
}

// TestCertifiedConstants: for least-squares losses over the Birkhoff
// polytope, the certified C and L bound every loss of the pool — the
// gradient norm at random points of the polytope (convex combinations of
// permutation matrices) and the curvature 2‖A‖₂²D² with ‖A‖₂² from the
// power iteration — for a repeated stream (its pool is read) as for a
// finite one; linear losses, a polytope without start vertex or diameter
// are refused.
func TestCertifiedConstants(t *testing.T) {
	in, err := Polytope("birkhoff:5", Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := in.Dim()
	quad, err := objective.QuadraticLosses(n, 12, 0.3, 2)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := objective.Repeat(quad, objective.MaxRounds, objective.OrderRandom, 1)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	c, l, err := CertifiedConstants(ctx, in, rep)
	if err != nil {
		t.Fatal(err)
	}
	if c2, l2, err := CertifiedConstants(ctx, in, quad); err != nil || c2 != c || l2 != l {
		t.Errorf("finite stream: C %g L %g (%v), repeated: C %g L %g", c2, l2, err, c, l)
	}
	d2 := in.Diameter2
	rng := rand.New(rand.NewPCG(3, 4))
	x, v, g := make([]float64, n), make([]float64, n), make([]float64, n)
	for range 50 {
		// A random convex combination of 6 random permutation matrices.
		clear(x)
		for range 6 {
			for i := range g {
				g[i] = rng.Float64()
			}
			if _, err := in.LMO.Minimize(context.Background(), v, g); err != nil {
				t.Fatal(err)
			}
			for i := range x {
				x[i] += v[i] / 6
			}
		}
		for i := range quad.Rounds() {
			f := quad.LeastSquares(i)
			f.Grad(g, x)
			if norm := math.Sqrt(floats.Dot(g, g)); norm > l {
				t.Fatalf("loss %d: ‖∇f(x)‖ = %g > L = %g", i, norm, l)
			}
			if curv := f.Smoothness() / 1.01 * d2; curv > c {
				t.Fatalf("loss %d: curvature %g > C = %g", i, curv, c)
			}
		}
	}
	lin, _ := objective.LinearLosses(n, 3, 1)
	if _, _, err := CertifiedConstants(ctx, in, lin); err == nil || !strings.Contains(err.Error(), "least-squares") {
		t.Errorf("linear losses: %v", err)
	}
	// Without a start vertex one LMO call finds it; the constants then
	// hold around that vertex.
	noStart := &Instance{LMO: in.LMO, Diameter2: d2}
	if c3, l3, err := CertifiedConstants(ctx, noStart, quad); err != nil || noStart.Start == nil || !(c3 == c) || !(l3 > 0) {
		t.Errorf("no start vertex: C %g L %g start %v (%v)", c3, l3, noStart.Start, err)
	}
	if _, _, err := CertifiedConstants(ctx, &Instance{LMO: in.LMO, Start: in.Start}, quad); err == nil || !strings.Contains(err.Error(), "diameter") {
		t.Errorf("no diameter: %v", err)
	}
}
