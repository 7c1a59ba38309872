package lmo

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// basicRandAtoms returns m random atoms in R^n with about half the entries
// zero and small integer values (many ties).
func basicRandAtoms(rng *rand.Rand, m, n int) [][]float64 {
	atoms := make([][]float64, m)
	for k := range atoms {
		a := make([]float64, n)
		for i := range a {
			if rng.IntN(2) == 0 {
				a[i] = float64(rng.IntN(9) - 4)
			}
		}
		atoms[k] = a
	}
	return atoms
}

// basicSparseOf converts dense atoms to sparse ones with shuffled indices.
func basicSparseOf(rng *rand.Rand, atoms [][]float64) []SparseAtom {
	out := make([]SparseAtom, len(atoms))
	for k, a := range atoms {
		for i, x := range a {
			if x != 0 || rng.IntN(4) == 0 { // sometimes store explicit zeros
				out[k].Index = append(out[k].Index, i)
				out[k].Value = append(out[k].Value, x)
			}
		}
		rng.Shuffle(len(out[k].Index), func(i, j int) {
			out[k].Index[i], out[k].Index[j] = out[k].Index[j], out[k].Index[i]
			out[k].Value[i], out[k].Value[j] = out[k].Value[j], out[k].Value[i]
		})
	}
	return out
}

// TestConvexHullBruteForce compares dense and sparse hulls with the
// brute-force minimum over their atoms; both must return the same atom and
// bitwise the same Value.
func TestConvexHullBruteForce(t *testing.T) {
	ctx := context.Background()
	rng := basicRNG(21)
	for _, size := range [][2]int{{1, 1}, {1, 5}, {7, 1}, {20, 6}, {50, 30}} {
		m, n := size[0], size[1]
		atoms := basicRandAtoms(rng, m, n)
		dense, err := NewConvexHull(atoms)
		if err != nil {
			t.Fatal(err)
		}
		sparse, err := NewSparseConvexHull(n, basicSparseOf(rng, atoms))
		if err != nil {
			t.Fatal(err)
		}
		if dense.Len() != m || sparse.Len() != m || dense.Dim() != n || sparse.Dim() != n || dense.Sparse() || !sparse.Sparse() {
			t.Fatal("Len/Dim/Sparse")
		}
		d1, d2 := make([]float64, n), make([]float64, n)
		for trial := 0; trial < 30; trial++ {
			c := basicRandCost(rng, n, trial)
			name := fmt.Sprintf("m=%d n=%d trial %d", m, n, trial)
			r1, err1 := dense.Minimize(ctx, d1, c)
			basicCheckAgainst(t, name+" dense", r1, err1, d1, c, atoms)
			r2, err2 := sparse.Minimize(ctx, d2, c)
			basicCheckAgainst(t, name+" sparse", r2, err2, d2, c, atoms)
			if !slices.Equal(d1, d2) || r1.Value != r2.Value {
				t.Fatalf("%s: dense %v (%v) and sparse %v (%v) differ", name, d1, r1.Value, d2, r2.Value)
			}
		}
		for k := 0; k < m; k++ {
			dense.Atom(d1, k)
			sparse.Atom(d2, k)
			if !slices.Equal(d1, atoms[k]) || !slices.Equal(d2, atoms[k]) {
				t.Fatalf("atom %d: %v %v, want %v", k, d1, d2, atoms[k])
			}
		}
	}
}

func TestConvexHullInvalid(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"no atoms", second(NewConvexHull(nil))},
		{"dimension 0", second(NewConvexHull([][]float64{{}}))},
		{"ragged", second(NewConvexHull([][]float64{{1, 2}, {3}}))},
		{"NaN", second(NewConvexHull([][]float64{{1, math.NaN()}}))},
		{"sparse n=0", second(NewSparseConvexHull(0, []SparseAtom{{}}))},
		{"sparse no atoms", second(NewSparseConvexHull(3, nil))},
		{"sparse lengths", second(NewSparseConvexHull(3, []SparseAtom{{Index: []int{0}}}))},
		{"sparse index", second(NewSparseConvexHull(3, []SparseAtom{{Index: []int{3}, Value: []float64{1}}}))},
		{"sparse negative", second(NewSparseConvexHull(3, []SparseAtom{{Index: []int{-1}, Value: []float64{1}}}))},
		{"sparse twice", second(NewSparseConvexHull(3, []SparseAtom{{Index: []int{1, 0, 1}, Value: []float64{1, 2, 3}}}))},
		{"sparse Inf", second(NewSparseConvexHull(3, []SparseAtom{{Index: []int{1}, Value: []float64{math.Inf(-1)}}}))},
	} {
		if tc.err == nil {
			t.Errorf("%s: accepted", tc.name)
		} else if !strings.HasPrefix(tc.err.Error(), "lmo: convex hull: ") {
			t.Errorf("%s: error without prefix: %v", tc.name, tc.err)
		}
	}
	h, _ := NewConvexHull([][]float64{{1, 0, 0}, {0, 1, 0}})
	basicCheckBadCosts(t, h)
	s, _ := NewSparseConvexHull(3, []SparseAtom{{Index: []int{2}, Value: []float64{1}}})
	basicCheckBadCosts(t, s)
}

func TestConvexHullCancel(t *testing.T) {
	atoms := basicRandAtoms(basicRNG(22), 3*hullCancelEvery, 2)
	h, _ := NewConvexHull(atoms)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := h.Minimize(ctx, make([]float64, 2), []float64{1, 2}); !errors.Is(err, context.Canceled) {
		t.Fatalf("canceled context: %v", err)
	}
}

func TestConvexHullAllocs(t *testing.T) {
	rng := basicRNG(23)
	atoms := basicRandAtoms(rng, 40, 25)
	dense, _ := NewConvexHull(atoms)
	sparse, _ := NewSparseConvexHull(25, basicSparseOf(rng, atoms))
	basicCheckAllocs(t, dense, 1)
	basicCheckAllocs(t, sparse, 2)
}

func TestReadConvexHull(t *testing.T) {
	ctx := context.Background()
	dense := "# square\n\n  dense 2\n0 0\n1 0\n0 1\r\n  1 1  \n# end\n"
	h, err := ReadConvexHull(strings.NewReader(dense))
	if err != nil {
		t.Fatal(err)
	}
	if h.Len() != 4 || h.Dim() != 2 || h.Sparse() {
		t.Fatalf("dense: %d atoms of dimension %d", h.Len(), h.Dim())
	}
	dst := make([]float64, 2)
	res, _ := h.Minimize(ctx, dst, []float64{-1, -2})
	if !slices.Equal(dst, []float64{1, 1}) || res.Value != -3 {
		t.Fatalf("dense: %v %+v", dst, res)
	}
	sparse := "sparse 5\n1:2 5:-1\n3:0.5\n1:0\n2:1e-3\t4:0x1p-2\n"
	h, err = ReadConvexHull(strings.NewReader(sparse))
	if err != nil {
		t.Fatal(err)
	}
	want := [][]float64{{2, 0, 0, 0, -1}, {0, 0, 0.5, 0, 0}, {0, 0, 0, 0, 0}, {0, 1e-3, 0, 0.25, 0}}
	dst = make([]float64, 5)
	for k, w := range want {
		h.Atom(dst, k)
		if !slices.Equal(dst, w) {
			t.Fatalf("sparse atom %d: %v, want %v", k, dst, w)
		}
	}
	var buf bytes.Buffer
	if err := WriteConvexHull(&buf, h); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); got != "sparse 5\n1:2 5:-1\n3:0.5\n1:0\n2:0.001 4:0.25\n" {
		t.Fatalf("written:\n%s", got)
	}
}

func TestReadConvexHullErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "missing header"},
		{"# only a comment\n", "missing header"},
		{"dense 2\n", "no atoms"},
		{"1 2\n", "line 1: expected the header"},
		{"dense\n", "line 1: expected the header"},
		{"dense 0\n", "line 1: dimension N must be"},
		{"sparse 2147483648\n", "line 1: dimension N must be"},
		{"dense x\n", "line 1: dimension N must be"},
		{"dense 2\n1 2\n3\n", "line 3: expected 2 numbers"},
		{"dense 2\n1 2\n3 4 5\n", "line 3: expected 2 numbers"},
		{"#\ndense 2\n1 NaN\n", "line 3, coordinate 2: expected a finite number, got \"NaN\""},
		{"dense 2\n1 1e999\n", "line 2, coordinate 2: expected a finite number"},
		{"dense 2\n1,2\n", "line 2: expected 2 numbers"},
		{"sparse 3\n1:1 x\n", "line 2: expected INDEX:VALUE, got \"x\""},
		{"sparse 3\n0:1\n", "line 2: index must be an integer in [1, 3], got \"0\""},
		{"sparse 3\n4:1\n", "line 2: index must be an integer in [1, 3]"},
		{"sparse 3\n2:1 1:1\n", "line 2: index 1 after index 2: indices must increase"},
		{"sparse 3\n2:1 2:1\n", "line 2: index 2 after index 2"},
		{"sparse 3\n2:inf\n", "line 2, index 2: expected a finite number"},
		{"sparse 3\n2:\n", "line 2, index 2: expected a finite number, got \"\""},
	} {
		h, err := ReadConvexHull(strings.NewReader(tc.in))
		if err == nil || h != nil {
			t.Errorf("%q: accepted", tc.in)
			continue
		}
		if !strings.HasPrefix(err.Error(), "lmo: atoms: ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %q, want it to contain %q", tc.in, err, tc.want)
		}
	}
}

func TestReadConvexHullFile(t *testing.T) {
	dir := t.TempDir()
	text := "dense 3\n1 2 3\n-1 0 2\n"
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(text))
	zw.Close()
	plain, zipped := filepath.Join(dir, "atoms.txt"), filepath.Join(dir, "atoms.txt.gz")
	os.WriteFile(plain, []byte(text), 0o644)
	os.WriteFile(zipped, gz.Bytes(), 0o644)
	for _, p := range []string{plain, zipped} {
		h, err := ReadConvexHullFile(p)
		if err != nil {
			t.Fatal(err)
		}
		dst := make([]float64, 3)
		h.Atom(dst, 1)
		if h.Len() != 2 || !slices.Equal(dst, []float64{-1, 0, 2}) {
			t.Fatalf("%s: %d atoms, atom 1 = %v", p, h.Len(), dst)
		}
	}
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("dense 2\n1\n"), 0o644)
	if _, err := ReadConvexHullFile(bad); err == nil || !strings.Contains(err.Error(), "line 2") || !strings.Contains(err.Error(), bad) {
		t.Fatalf("bad file: %v", err)
	}
	if _, err := ReadConvexHullFile(filepath.Join(dir, "missing")); err == nil {
		t.Fatal("missing file accepted")
	}
}

func FuzzReadConvexHull(f *testing.F) {
	for _, s := range []string{
		"dense 2\n0 0\n1 0\n0 1\n",
		"# c\nsparse 5\n1:2 5:-1\n3:0.5\n1:0\n",
		"dense 1\n-0\n1e308\n",
		"sparse 2\n2:0x1p-1074\n",
		"dense 3\n1 2\n",
		"sparse 3\n3:1 1:1\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		h, err := ReadConvexHull(strings.NewReader(in))
		if err != nil {
			if h != nil {
				t.Fatal("hull returned together with an error")
			}
			if !strings.HasPrefix(err.Error(), "lmo: atoms: ") {
				t.Fatalf("error without prefix: %v", err)
			}
			return
		}
		// Round trip: writing and reading back gives the same atoms.
		var buf bytes.Buffer
		if err := WriteConvexHull(&buf, h); err != nil {
			t.Fatal(err)
		}
		h2, err := ReadConvexHull(&buf)
		if err != nil {
			t.Fatalf("written hull does not read back: %v\n%s", err, buf.String())
		}
		if h2.Len() != h.Len() || h2.Dim() != h.Dim() || h2.Sparse() != h.Sparse() {
			t.Fatal("round trip changed the shape")
		}
		if h.Dim() > 1<<12 {
			return
		}
		a, b := make([]float64, h.Dim()), make([]float64, h.Dim())
		for k := 0; k < h.Len(); k++ {
			h.Atom(a, k)
			h2.Atom(b, k)
			if !slices.Equal(a, b) {
				t.Fatalf("atom %d: %v became %v", k, a, b)
			}
		}
		c := make([]float64, h.Dim())
		for i := range c {
			c[i] = float64(i%3) - 1
		}
		if _, err := h.Minimize(context.Background(), a, c); err != nil {
			t.Fatal(err)
		}
	})
}

func ExampleReadConvexHull() {
	atoms := `# the corners of a triangle and a point inside
dense 2
0 0
4 0
0 4
1 1
`
	hull, err := ReadConvexHull(strings.NewReader(atoms))
	if err != nil {
		panic(err)
	}
	dst := make([]float64, hull.Dim())
	res, err := hull.Minimize(context.Background(), dst, []float64{1, -2})
	if err != nil {
		panic(err)
	}
	fmt.Println(hull.Len(), dst, res.Value, res.Optimal())
	// Output: 4 [0 4] -8 true
}
