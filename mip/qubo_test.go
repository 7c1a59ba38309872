package mip

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lazycg/lazycg/mip/internal/brute"
)

func TestReadQUBO(t *testing.T) {
	src := `# a comment
1 1 -2
1 3 4   # trailing comment

3 1 1.5
2 2 3
3 3 0
2 3 5
2 3 -5
`
	q, err := ReadQUBO(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	want := &QUBO{N: 3, Linear: []float64{-2, 3, 0}, Couplings: []Coupling{{0, 2, 5.5}}}
	if !reflect.DeepEqual(q, want) {
		t.Errorf("got %+v, want %+v", q, want)
	}
	if v := q.Value([]float64{1, 0, 1}); v != 3.5 {
		t.Errorf("Value(1,0,1) = %v, want 3.5", v)
	}
}

func TestReadQUBOErrors(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"empty", "# nothing\n\n", "no terms"},
		{"fields", "1 2 3\n1 2\n", "line 2: want \"i j q\", got 2 fields"},
		{"zero index", "0 1 3\n", "line 1: bad variable index \"0\""},
		{"huge index", "1 99999999 3\n", "line 1: bad variable index \"99999999\""},
		{"bad index", "1 x 3\n", "line 1: bad variable index \"x\""},
		{"bad value", "\n1 2 y\n", "line 2: bad coefficient \"y\""},
		{"nan", "1 2 NaN\n", "line 1: bad coefficient \"NaN\""},
		{"inf", "1 2 -Inf\n", "line 1: bad coefficient \"-Inf\""},
		{"overflow", "1 2 1e308\n2 1 1e308\n", "line 2: coefficients of x1·x2 add up to +Inf"},
		{"overflow diag", "3 3 -1e308\n3 3 -1e308\n", "line 2: coefficients of x3·x3 add up to -Inf"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadQUBO(strings.NewReader(tc.src))
			if err == nil || !strings.HasPrefix(err.Error(), "mip: qubo: ") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

func TestReadQUBOChimera(t *testing.T) {
	q, err := ReadQUBOFile(filepath.Join("testdata", "chimera439-1.txt"))
	if err != nil {
		t.Fatal(err)
	}
	nonzero := 0
	for _, c := range q.Linear {
		if c != 0 {
			nonzero++
		}
	}
	// Counts from /work/shared/data/README.md section 4.
	if q.N != 439 || len(q.Couplings) != 1091 || nonzero != 367 {
		t.Errorf("got %d vars, %d couplings, %d linear terms; want 439, 1091, 367", q.N, len(q.Couplings), nonzero)
	}
	if _, err := ReadQUBOFile(filepath.Join("testdata", "burma14.tsp")); err == nil || !strings.Contains(err.Error(), "burma14.tsp: line 1:") {
		t.Errorf("error %v, want file name and line", err)
	}
}

func TestBooleanQuadricStructure(t *testing.T) {
	q := buildRandomQUBO(t, 6, 0.6, 3)
	f, err := BooleanQuadric(q)
	if err != nil {
		t.Fatal(err)
	}
	dim := q.N + len(q.Couplings)
	buildCheckFormulation(t, f, dim)
	if f.Model.NumRows() != 3*len(q.Couplings) || !f.Model.Binary() {
		t.Errorf("%d rows, binary=%v", f.Model.NumRows(), f.Model.Binary())
	}
	c := QUBOObjective(q)
	if !reflect.DeepEqual(f.Model.Obj, c) { // columns are exactly the exposed coordinates
		t.Errorf("model objective %v, want %v", f.Model.Obj, c)
	}
	// Every x ∈ {0,1}^N with y = x_i x_j is feasible, has objective Value(x),
	// and flipping any y makes it infeasible.
	x := make([]float64, q.N)
	for mask := range 1 << q.N {
		for i := range x {
			x[i] = float64(mask >> i & 1)
		}
		v := buildQUBOPoint(q, x)
		if err := f.Model.Check(v, 1e-9); err != nil {
			t.Fatalf("x = %v: %v", x, err)
		}
		dot := 0.0
		for k, ck := range c {
			dot += ck * v[k]
		}
		if math.Abs(dot-q.Value(x)) > 1e-9 {
			t.Fatalf("objective %v, Value %v", dot, q.Value(x))
		}
		for k := q.N; k < dim; k++ {
			v[k] = 1 - v[k]
			if f.Model.Check(v, 1e-9) == nil {
				t.Fatalf("x = %v with %s flipped is feasible", x, f.Names[k])
			}
			v[k] = 1 - v[k]
		}
	}
}

func TestBooleanQuadricErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		q    QUBO
	}{
		{"empty", QUBO{}},
		{"linear length", QUBO{N: 2, Linear: []float64{1}}},
		{"nan", QUBO{N: 1, Linear: []float64{math.NaN()}}},
		{"order", QUBO{N: 2, Linear: []float64{0, 0}, Couplings: []Coupling{{1, 0, 1}}}},
		{"range", QUBO{N: 2, Linear: []float64{0, 0}, Couplings: []Coupling{{0, 2, 1}}}},
		{"repeated", QUBO{N: 2, Linear: []float64{0, 0}, Couplings: []Coupling{{0, 1, 1}, {0, 1, 2}}}},
		{"inf", QUBO{N: 2, Linear: []float64{0, 0}, Couplings: []Coupling{{0, 1, math.Inf(-1)}}}},
	} {
		if _, err := BooleanQuadric(&tc.q); err == nil || !strings.HasPrefix(err.Error(), "mip: qubo: ") {
			t.Errorf("%s: error %v", tc.name, err)
		}
	}
	if _, err := BooleanQuadric(nil); err == nil || err.Error() != "mip: qubo: nil QUBO" {
		t.Errorf("nil QUBO: error %v", err)
	}
	if c := QUBOObjective(nil); c != nil {
		t.Errorf("QUBOObjective(nil) = %v", c)
	}
	if p := CycleCuts(nil); p == nil || p.NumRows() != 0 {
		t.Errorf("CycleCuts(nil) = %+v", p)
	}
}

// buildQUBOPoint returns the vertex (x, y) of BooleanQuadric(q) for x.
func buildQUBOPoint(q *QUBO, x []float64) []float64 {
	v := append([]float64(nil), x...)
	for _, c := range q.Couplings {
		v = append(v, x[c.I]*x[c.J])
	}
	return v
}

func FuzzReadQUBO(f *testing.F) {
	b, err := os.ReadFile(filepath.Join("testdata", "chimera439-1.txt"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(b[:400]))
	f.Add("# c\n1 1 -2\n1 3 4\n3 1 1.5\n\n2 3 5\n")
	f.Add("2 1 1e3 # x\n")
	f.Fuzz(func(t *testing.T, src string) {
		q, err := ReadQUBO(strings.NewReader(src))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "mip: qubo: ") {
				t.Fatalf("error without prefix: %v", err)
			}
			return
		}
		if err := q.validate(); err != nil {
			t.Fatalf("ReadQUBO returned an invalid QUBO: %v", err)
		}
		for _, c := range q.Couplings {
			if c.Q == 0 {
				t.Fatalf("zero coupling kept: %+v", c)
			}
		}
	})
}

// buildRandomQUBO reads brute.RandomQUBO's instance.
func buildRandomQUBO(t *testing.T, n int, p float64, seed uint64) *QUBO {
	t.Helper()
	q, err := ReadQUBO(strings.NewReader(brute.RandomQUBO(n, p, seed)))
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// TestCycleCuts checks CycleCuts against brute force: on small graphs
// (K_4: 4 triangles and 3 4-cycles, all with chords; the 4-cycle C_4; K_{3,3}:
// 9 chordless 4-cycles; random graphs) it counts the triangles and chordless
// 4-cycles, every 0/1 point (x, y = x_i x_j) satisfies every inequality,
// and the point x = ½, y = 0 of the LP relaxation violates one of each
// cycle's. On the Chimera instance of testdata every cycle is a 4-cycle.
func TestCycleCuts(t *testing.T) {
	qubo := func(n int, pairs [][2]int) *QUBO {
		q := &QUBO{N: n, Linear: make([]float64, n)}
		for _, p := range pairs {
			q.Couplings = append(q.Couplings, Coupling{I: p[0], J: p[1], Q: 1})
		}
		return q
	}
	var k33 [][2]int
	for i := range 3 {
		for j := 3; j < 6; j++ {
			k33 = append(k33, [2]int{i, j})
		}
	}
	for _, tc := range []struct {
		name      string
		q         *QUBO
		tri, four int // -1: count by brute force
	}{
		{"K4", qubo(4, CompleteGraph(4)), 4, 0},
		{"C4", qubo(4, [][2]int{{0, 1}, {1, 2}, {2, 3}, {0, 3}}), 0, 1},
		{"K33", qubo(6, k33), 0, 9},
		{"random 7", buildRandomQUBO(t, 7, 0.5, 1), -1, -1},
		{"random 8", buildRandomQUBO(t, 8, 0.4, 2), -1, -1},
	} {
		q := tc.q
		has := func(i, j int) bool {
			for _, c := range q.Couplings {
				if c.I == min(i, j) && c.J == max(i, j) {
					return true
				}
			}
			return false
		}
		tri, four := 0, 0
		for a := range q.N {
			for b := a + 1; b < q.N; b++ {
				for c := b + 1; c < q.N; c++ {
					if has(a, b) && has(b, c) && has(a, c) {
						tri++
					}
					for d := c + 1; d < q.N; d++ {
						// the three 4-cycles on {a, b, c, d}
						for _, cyc := range [][4]int{{a, b, c, d}, {a, b, d, c}, {a, c, b, d}} {
							if has(cyc[0], cyc[1]) && has(cyc[1], cyc[2]) && has(cyc[2], cyc[3]) && has(cyc[3], cyc[0]) &&
								!has(cyc[0], cyc[2]) && !has(cyc[1], cyc[3]) {
								four++
							}
						}
					}
				}
			}
		}
		if tc.tri >= 0 && (tri != tc.tri || four != tc.four) {
			t.Fatalf("%s: brute force counts %d triangles and %d chordless 4-cycles, want %d and %d", tc.name, tri, four, tc.tri, tc.four)
		}
		p := CycleCuts(q)
		if p.NumRows() != 4*tri+8*four {
			t.Errorf("%s: %d inequalities, want 4·%d + 8·%d", tc.name, p.NumRows(), tri, four)
		}
		f, err := BooleanQuadric(q)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.validate(f.Model.NumCols()); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		x := make([]float64, q.N)
		for mask := range 1 << q.N {
			for i := range x {
				x[i] = float64(mask >> i & 1)
			}
			if err := p.check(buildQUBOPoint(q, x), 1e-12); err != nil {
				t.Fatalf("%s: 0/1 point %b: %v", tc.name, mask, err)
			}
		}
		// Points of the LP relaxation: x = ½ and y = 0 gives z_e = 1 on
		// every edge, which violates the inequality F = C of each triangle
		// and none of a 4-cycle's (|F| is odd); y_e = ½ on one edge e makes
		// z_e = 0, which violates F = C ∖ {e} of every 4-cycle through e.
		lp := *f.Model
		lp.Integer = make([]bool, lp.NumCols())
		violated := func(pt []float64) int {
			if err := lp.Check(pt, 1e-12); err != nil {
				t.Fatalf("%s: not in the LP relaxation: %v", tc.name, err)
			}
			v := 0
			for i := range p.NumRows() {
				one := &CutPool{Lo: p.Lo[i : i+1], Up: p.Up[i : i+1], Start: []int{0, p.Start[i+1] - p.Start[i]},
					Index: p.Index[p.Start[i]:p.Start[i+1]], Value: p.Value[p.Start[i]:p.Start[i+1]]}
				if one.check(pt, 1e-12) != nil {
					v++
				}
			}
			return v
		}
		half := make([]float64, f.Model.NumCols())
		for i := range q.N {
			half[i] = 0.5
		}
		if got := violated(half); got != tri {
			t.Errorf("%s: x = ½, y = 0 violates %d inequalities, want %d (one per triangle)", tc.name, got, tri)
		}
		if tc.four > 0 {
			half[q.N] = 0.5 // y of the first coupling
			if got := violated(half); got == 0 {
				t.Errorf("%s: x = ½, y_0 = ½ violates no inequality", tc.name)
			}
		}
	}
	q, err := ReadQUBOFile(filepath.Join("testdata", "chimera439-1.txt"))
	if err != nil {
		t.Fatal(err)
	}
	p := CycleCuts(q)
	if p.NumRows() == 0 || p.NumRows()%8 != 0 {
		t.Errorf("Chimera 439: %d inequalities, want a positive multiple of 8 (4-cycles only)", p.NumRows())
	}
	t.Logf("Chimera 439: %d cycle inequalities", p.NumRows())
}
