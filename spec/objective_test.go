package spec

import (
	"math"
	"testing"

	"github.com/lazycg/lazycg/objective"
)

func TestQuadraticScale(t *testing.T) {
	for _, c := range []struct {
		name string
		n    int
		v    []float64
		want float64
	}{
		{"no vertex", 10, nil, 1},
		{"zero vertex (the empty cut)", 4, []float64{0, 0, 0, 0}, 1},
		{"sparse 0/1 vertex", 100, append([]float64{1, 1, 1, 1, 1}, make([]float64, 95)...), 0.1},
		{"half the coordinates at one", 4, []float64{1, 0, 1, 0}, 1},
		{"dense vertex capped", 3, []float64{1, 1, 1}, 1},
		{"flow values count by mass", 10, []float64{2, 0, 0.5, 0, 0, 0, 0, 0, 0, 0}, 0.5},
		{"negative coordinates by absolute value", 8, []float64{-1, 1, 0, 0, 0, 0, 0, 0}, 0.5},
	} {
		if got := QuadraticScale(c.n, c.v); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("%s: QuadraticScale = %g, want %g", c.name, got, c.want)
		}
	}
}

// TestQuadraticScaleAuto checks that the default scale=auto scales b = A·w
// by QuadraticScale of the start vertex (a spanning tree of K_n: n−1 ones
// among n(n−1)/2 coordinates, W = 4/n), that an explicit scale=1 keeps the
// paper's literal multipliers, and that the Birkhoff polytope (n ones
// among n²) and the cut polytope's empty-cut start (mass 0, W = 1) follow
// the same rule.
func TestQuadraticScaleAuto(t *testing.T) {
	for _, c := range []struct {
		polytope string
		want     float64
	}{
		{"spanningtree:20", 4.0 / 20},
		{"birkhoff:10", 2.0 / 10},
		{"box:12", 1},
	} {
		b := func(obj string) []float64 {
			in, err := Polytope(c.polytope, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			f, err := Objective(obj, in)
			if err != nil {
				t.Fatalf("%s, %s: %v", c.polytope, obj, err)
			}
			return f.(*objective.LeastSquares).B()
		}
		auto, literal, explicit := b("quadratic:seed=3"), b("quadratic:seed=3,scale=1"), b("quadratic:seed=3,scale=auto")
		for i := range auto {
			if math.Abs(auto[i]-c.want*literal[i]) > 1e-12*(1+math.Abs(literal[i])) || auto[i] != explicit[i] {
				t.Fatalf("%s: b[%d] = %g with scale=auto (%g explicit), %g with scale=1: want ratio %g",
					c.polytope, i, auto[i], explicit[i], literal[i], c.want)
			}
		}
	}
	in, err := Polytope("box:3", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if _, err := Objective("quadratic:scale=big", in); err == nil {
		t.Error("scale=big accepted")
	}
}

// TestDistanceOptions checks distance's weight and center: W·‖x − b‖²
// with b = (V, …, V), and a random center scaled by the weight.
func TestDistanceOptions(t *testing.T) {
	in, err := Polytope("simplex:3", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	x := []float64{1, 0, 0}
	for _, c := range []struct {
		spec string
		want float64
	}{
		{"distance:center=0.5", 0.75},
		{"distance:weight=2,center=0.5", 1.5},
		{"distance:center=-1", 4 + 1 + 1},
	} {
		f, err := Objective(c.spec, in)
		if err != nil {
			t.Fatalf("%s: %v", c.spec, err)
		}
		if got := f.Func(x); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("%s: f(e_1) = %g, want %g", c.spec, got, c.want)
		}
	}
	plain, _ := Objective("distance:seed=4", in)
	heavy, _ := Objective("distance:seed=4,weight=3", in)
	if p, h := plain.Func(x), heavy.Func(x); math.Abs(h-3*p) > 1e-14 {
		t.Errorf("weight=3: %g, want 3·%g", h, p)
	}
	for _, bad := range []string{"distance:weight=0", "distance:weight=x", "distance:center=Inf", "distance:center=1,radius=2"} {
		if _, err := Objective(bad, in); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

// TestConsensusSpec builds consensus objectives over products: the inner
// objective gets the spec's other options and the first factor, and bad
// products and inner kinds are refused.
func TestConsensusSpec(t *testing.T) {
	in, err := Polytope("product:[simplex:3][box:3]", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	obj, err := Objective("consensus:distance,lambda=0.5,center=0.25", in)
	if err != nil {
		t.Fatal(err)
	}
	c := objective.AsConsensus(obj)
	if c == nil || c.Blocks() != 2 || obj.Dim() != 6 {
		t.Fatalf("consensus %T of dimension %d", obj, obj.Dim())
	}
	x := []float64{1, 0, 0, 1, 0, 0} // the blocks agree: F = λ·2·f(e_1)
	if got, want := obj.Func(x), 0.5*2*(0.75*0.75+2*0.0625); math.Abs(got-want) > 1e-15 {
		t.Fatalf("F(x) = %g, want %g", got, want)
	}
	for _, bad := range []struct{ polytope, objective string }{
		{"simplex:3", "consensus:distance"},
		{"product:[simplex:3][box:4]", "consensus:distance"},
		{"product:[simplex:3][box:3]", "consensus"},
		{"product:[simplex:3][box:3]", "consensus:consensus"},
		{"product:[simplex:3][box:3]", "consensus:bogus"},
		{"product:[simplex:3][box:3]", "consensus:distance,lambda=0"},
		{"product:[simplex:3][box:3]", "consensus:distance,frob=1"},
	} {
		in, err := Polytope(bad.polytope, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Objective(bad.objective, in); err == nil {
			t.Errorf("%s over %s accepted", bad.objective, bad.polytope)
		}
		in.Close()
	}
}

// FuzzObjectiveSpec builds objectives from arbitrary specs over a plain
// and a product polytope: an error or an objective of the instance's
// dimension, never a panic.
func FuzzObjectiveSpec(f *testing.F) {
	for _, s := range []string{"distance", "distance:weight=2,center=0.5", "quadratic:density=0.5,rows=4", "zero",
		"consensus:distance,lambda=0.1", "consensus:zero", "consensus:quadratic,seed=3", "consensus:consensus:zero",
		"consensus:", "consensus:distance,distance", "completion", "leastsquares:a,b"} {
		f.Add(s)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, text string) {
		for _, poly := range []string{"simplex:3", "product:[simplex:3][box:3]"} {
			in, err := Polytope(poly, Options{})
			if err != nil {
				t.Fatal(err)
			}
			obj, err := ObjectiveWith(text, in, Options{DataDir: dir})
			if err == nil && obj.Dim() != in.Dim() {
				t.Errorf("%q over %s: dimension %d, want %d", text, poly, obj.Dim(), in.Dim())
			}
			in.Close()
		}
	})
}
