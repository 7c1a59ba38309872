package spec

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lazycg/lazycg/lmo"
)

// TestNormPolytopeSpecs builds the norm balls, the spectraplex, hulls and
// products from text and checks their dimensions, start points and the
// errors.
func TestNormPolytopeSpecs(t *testing.T) {
	dir := t.TempDir()
	atoms := filepath.Join(dir, "atoms.txt")
	if err := os.WriteFile(atoms, []byte("# a triangle\ndense 2\n0 0\n3 0\n0 4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	good := []struct {
		spec  string
		dim   int
		diam2 float64
	}{
		{"l2:5", 5, 4},
		{"l2:5,r=2", 5, 16},
		{"lp:4,3", 4, 4 * math.Pow(4, 1.0/3)},
		{"lp:4,1.5,r=1", 4, 4},
		{"linf:3,r=0.5", 3, 3},
		{"knorm:9,3", 9, 4},
		{"knorm:16,2", 16, 16},
		{"spectraplex:3", 9, 2},
		{"fantope:4,2", 16, 4},
		{"fantope:5,4", 25, 2},
		{"fantope:3,3", 9, 0},
		{"hull:" + atoms, 2, 4 * 16}, // diam ≤ 2·max ‖a_k − a_0‖ = 8
		{"product:[simplex:3][l1:2]", 5, 2 + 4},
		{"product: [simplex:3]*3 [birkhoff:2]", 13, 3*2 + 4},
		{"PRODUCT:[l2:2,r=3]", 2, 36},
	}
	for _, g := range good {
		in, err := Polytope(g.spec, Options{})
		if err != nil {
			t.Errorf("%s: %v", g.spec, err)
			continue
		}
		if in.Dim() != g.dim || len(in.Start) != g.dim || math.Abs(in.Diameter2-g.diam2) > 1e-12*g.diam2 || in.Spec != g.spec {
			t.Errorf("%s: dim %d, start %v, diameter² %g (want %d, %g)", g.spec, in.Dim(), in.Start, in.Diameter2, g.dim, g.diam2)
		}
		in.Close()
	}
	in, err := Polytope("product:[simplex:2][l1:3]", Options{})
	if err != nil {
		t.Fatal(err)
	}
	bl, ok := in.LMO.(lmo.BlockLMO)
	if !ok || len(bl.Blocks()) != 2 || bl.Blocks()[1].Offset != 2 {
		t.Fatalf("product is not a BlockLMO with 2 blocks: %T", in.LMO)
	}
	bad := map[string]string{
		"l2":                          "want",
		"l2:0":                        "integer",
		"lp:3":                        "want",
		"lp:3,1":                      "p must be > 1",
		"lp:3,x":                      "P",
		"linf:3,r=0":                  "r must be",
		"knorm:3,0":                   "K",
		"spectraplex:3,3":             "want",
		"spectraplex:0":               "integer",
		"fantope:4":                   "want fantope:N,K",
		"fantope:4,5":                 "K",
		"fantope:4,0":                 "K",
		"fantope:4,2,r=2":             "",
		"hull:" + dir + "/none.txt":   "does not exist",
		"hull":                        "want",
		"product:":                    "at least one factor",
		"product:simplex:3":           "want product:[SPEC]",
		"product:[simplex:3":          "unbalanced",
		"product:[]":                  "empty factor",
		"product:[simplex:3]*0":       "[SPEC]*M",
		"product:[simplex:3]*x":       "[SPEC]*M",
		"product:[simplex:3]*5000":    "[SPEC]*M",
		"product:[bogus:3]":           "unknown polytope kind",
		"product:[product:[l1:2]]":    "cannot be a product",
		"product:[simplex:3]x[l1:2]":  "want product:[SPEC]",
		"product:[simplex:3][l1:2,q]": "factor",
	}
	for spec, want := range bad {
		if _, err := Polytope(spec, Options{}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", spec, err, want)
		}
	}
	badAtoms := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(badAtoms, []byte("dense 2\n1 2\n3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Polytope("hull:"+badAtoms, Options{}); err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("bad atoms file: %v", err)
	}
}

// TestLeastSquaresObjectiveSpec reads leastsquares:A,B from Matrix Market
// and CSV files, resolved in the data directory, and checks the errors.
func TestLeastSquaresObjectiveSpec(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.mtx", "%%MatrixMarket matrix coordinate real general\n2 3 3\n1 1 1\n2 2 2\n2 3 -1\n")
	write("a.csv", "1,0,0\n0,2,-1\n")
	write("b.txt", "1\n2\n")
	write("b3.txt", "1\n2\n3\n")
	in, err := Polytope("simplex:3", Options{})
	if err != nil {
		t.Fatal(err)
	}
	x := []float64{0.5, 0.25, 0.25}
	want := (0.5-1)*(0.5-1) + (0.5-0.25-2)*(0.5-0.25-2)
	for _, spec := range []string{"leastsquares:a.mtx,b.txt", "leastsquares:a.csv,b.txt,seed=3",
		"leastsquares:" + filepath.Join(dir, "a.mtx") + "," + filepath.Join(dir, "b.txt")} {
		obj, err := ObjectiveWith(spec, in, Options{DataDir: dir})
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		if got := obj.Func(x); math.Abs(got-want) > 1e-14 {
			t.Errorf("%s: f(x) = %g, want %g", spec, got, want)
		}
	}
	for spec, wantErr := range map[string]string{
		"leastsquares:a.mtx":            "want leastsquares:A,B",
		"leastsquares:a.mtx,b3.txt":     "length 3",
		"leastsquares:a.mtx,none.txt":   "none.txt",
		"leastsquares:a.mtx,b.txt,x=1":  "unknown option",
		"leastsquares:b.txt,b.txt":      "columns",
		"leastsquares:a.mtx,b.txt,b.tx": "want",
	} {
		if _, err := ObjectiveWith(spec, in, Options{DataDir: dir}); err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("%s: error %v, want %q", spec, err, wantErr)
		}
	}
	// Through a Config, with the run's data directory and seed.
	c := Config{Polytope: "simplex:3", Objective: "leastsquares:a.mtx,b.txt", Method: "sfw", Seed: 5, DataDir: dir, MaxIterations: 3}
	p, err := c.Prepare()
	if err != nil {
		t.Fatal(err)
	}
	p.Close()
}

// FuzzSplitFactors: product specs never panic and never give more
// factors than allowed.
func FuzzSplitFactors(f *testing.F) {
	for _, s := range []string{"[simplex:3][l1:2]", "[a]*3[b]", "[[x]]", "[", "]", "[a]*", "*3", " [a] [b] "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, rest string) {
		fs, err := splitFactors("product:"+rest, rest)
		if err == nil && (len(fs) == 0 || len(fs) > maxFactors) {
			t.Fatalf("%q: %d factors", rest, len(fs))
		}
		for _, x := range fs {
			if strings.TrimSpace(x) == "" {
				t.Fatalf("%q: empty factor", rest)
			}
		}
	})
}

// TestEllipsoidSpec builds ellipsoids from files (Matrix Market symmetric
// and CSV, with and without a center) and at random, and checks the errors.
func TestEllipsoidSpec(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.mtx", "%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n1 1 4\n2 2 1\n")
	write("a.csv", "4,0\n0,1\n")
	write("c.txt", "1\n-1\n")
	write("c3.txt", "1\n2\n3\n")
	write("rect.csv", "1,0,0\n0,1,0\n")
	write("indef.csv", "1,2\n2,1\n")
	write("asym.csv", "2,1\n0,2\n")
	ctx := context.Background()
	for _, spec := range []string{"ellipsoid:a.mtx", "ellipsoid:a.csv,center=c.txt,r=4"} {
		in, err := Polytope(spec, Options{DataDir: dir})
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		// A = diag(4, 1): the semi-axes are √r/2 and √r, so the squared
		// diameter is 4r (r = 1, 4); the minimum of x₂ is x0₂ − √r.
		r, x0 := 1.0, []float64{0, 0}
		if strings.Contains(spec, "r=4") {
			r, x0 = 4, []float64{1, -1}
		}
		if in.Dim() != 2 || in.Diameter2 < 4*r || in.Diameter2 > 4*r*(1+1e-9) {
			t.Errorf("%s: dimension %d, diameter² %v, want 2 and %v", spec, in.Dim(), in.Diameter2, 4*r)
		}
		dst := make([]float64, 2)
		res, err := in.LMO.Minimize(ctx, dst, []float64{0, 1})
		if err != nil {
			t.Fatal(err)
		}
		want := x0[1] - math.Sqrt(r)
		if math.Abs(res.Value-want) > 1e-12 || res.Bound > want || math.Abs(dst[0]-x0[0]) > 1e-12 {
			t.Errorf("%s: minimum of x₂: %+v at %v, want %v", spec, res, dst, want)
		}
		in.Close()
	}
	in, err := Polytope("ellipsoid:20,cond=1e4,seed=3", Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The smallest eigenvalue of the random A is 1: diameter² 4, and the
	// certified bound is within a few percent of it.
	if in.Dim() != 20 || in.Diameter2 < 4 || in.Diameter2 > 4*1.05 {
		t.Errorf("random ellipsoid: dimension %d, diameter² %v", in.Dim(), in.Diameter2)
	}
	in.Close()
	bad := map[string]string{
		"ellipsoid":                          "want ellipsoid:",
		"ellipsoid:0":                        "N must be an integer in [1,",
		"ellipsoid:9000":                     "N must be an integer in [1,",
		"ellipsoid:3,cond=0.5":               "cond must be",
		"ellipsoid:3,r=0":                    "r must be",
		"ellipsoid:3,center=c.txt":           "center",
		"ellipsoid:a.csv,cond=3":             "cond",
		"ellipsoid:none.csv":                 "missing data file",
		"ellipsoid:rect.csv":                 "want a square matrix",
		"ellipsoid:indef.csv":                "not positive definite",
		"ellipsoid:asym.csv":                 "symmetric",
		"ellipsoid:a.csv,center=c3.txt":      "3 entries",
		"ellipsoid:a.csv,center=missing.txt": "missing data file",
	}
	for spec, want := range bad {
		if _, err := Polytope(spec, Options{DataDir: dir}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", spec, err, want)
		}
	}
}
