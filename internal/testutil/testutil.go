// Package testutil holds the plain-float helpers of the tests of several
// packages (the root package's tests cannot import a package that imports
// lazycg, so nothing here does): exact oracles over the simplex and the
// k-subset polytope, the Euclidean projection onto the simplex and seeded
// random vectors, every permutation of 0..n−1, a CSV reader for the tests
// of written files, an exact allocation counter, and the check of an
// error against the text a table test expects (ErrMismatch).
package testutil

import (
	"encoding/csv"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// ErrMismatch returns why err does not match the expectation want of a
// table test — no error when want is "", else an error containing want —
// or "" when it matches.
func ErrMismatch(err error, want string) string {
	switch {
	case want == "" && err != nil:
		return fmt.Sprintf("error %v, want none", err)
	case want != "" && err == nil:
		return fmt.Sprintf("no error, want one containing %q", want)
	case want != "" && !strings.Contains(err.Error(), want):
		return fmt.Sprintf("error %q, want one containing %q", err, want)
	}
	return ""
}

// ArgMin returns the first index minimizing c_i: the vertex e_i of the
// probability simplex minimizing c.
func ArgMin(c []float64) int {
	k := 0
	for i := range c {
		if c[i] < c[k] {
			k = i
		}
	}
	return k
}

// SimplexVertex stores the vertex e_ArgMin(c) of the probability simplex in
// dst and returns its value c·e_k.
func SimplexVertex(dst, c []float64) float64 {
	k := ArgMin(c)
	clear(dst)
	dst[k] = 1
	return c[k]
}

// KSubsetVertex stores in dst a vertex of the polytope of 0/1 vectors with
// exactly m ones minimizing c (the m cheapest coordinates, ties by index)
// and returns its value.
func KSubsetVertex(dst, c []float64, m int) float64 {
	clear(dst)
	var v float64
	for range m {
		best := -1
		for i := range c {
			if dst[i] == 0 && (best < 0 || c[i] < c[best]) {
				best = i
			}
		}
		dst[best] = 1
		v += c[best]
	}
	return v
}

// KSubsetAugment is the augmentation oracle of the k-subset polytope: it
// stores in dst the vertex x with a most expensive chosen element swapped
// for a cheapest unchosen one and returns true when that improves c·x;
// otherwise dst = x and it returns false.
func KSubsetAugment(dst, c, x []float64) bool {
	copy(dst, x)
	in, out := -1, -1
	for i := range c {
		if x[i] == 1 && (in < 0 || c[i] > c[in]) {
			in = i
		}
		if x[i] == 0 && (out < 0 || c[i] < c[out]) {
			out = i
		}
	}
	if in < 0 || out < 0 || c[out] >= c[in] {
		return false
	}
	dst[in], dst[out] = 0, 1
	return true
}

// ProjectSimplex returns the Euclidean projection of b onto the
// probability simplex (sort-based closed form).
func ProjectSimplex(b []float64) []float64 {
	u := slices.Clone(b)
	slices.Sort(u)
	slices.Reverse(u)
	var cum, theta float64
	for j, v := range u {
		cum += v
		if t := (cum - 1) / float64(j+1); v-t > 0 {
			theta = t
		}
	}
	x := make([]float64, len(b))
	for i, v := range b {
		x[i] = math.Max(v-theta, 0)
	}
	return x
}

// RandomVector returns n numbers uniform in [0, scale) from a PCG seeded
// with seed.
func RandomVector(n int, seed uint64, scale float64) []float64 {
	r := rand.New(rand.NewPCG(seed, 7))
	v := make([]float64, n)
	for i := range v {
		v[i] = scale * r.Float64()
	}
	return v
}

// E0 returns the unit vector e_0 of R^n.
func E0(n int) []float64 {
	x := make([]float64, n)
	x[0] = 1
	return x
}

// SquaredDistance returns ‖x − b‖².
func SquaredDistance(x, b []float64) float64 {
	var s float64
	for i := range x {
		s += (x[i] - b[i]) * (x[i] - b[i])
	}
	return s
}

// SquaredDistanceGrad stores ∇‖x − b‖² = 2(x − b) in dst.
func SquaredDistanceGrad(dst, x, b []float64) {
	for i := range x {
		dst[i] = 2 * (x[i] - b[i])
	}
}

// SquaredDistanceLineMinimize returns argmin over γ in [0, gmax] of
// ‖x + γd − b‖², given grad = ∇ at x (an exact line search for tests).
func SquaredDistanceLineMinimize(d, grad []float64, gmax float64) float64 {
	var gd, dd float64
	for i := range d {
		gd += grad[i] * d[i]
		dd += d[i] * d[i]
	}
	if !(dd > 0) || !(gd < 0) {
		return 0
	}
	return math.Min(-gd/(2*dd), gmax)
}

// ReadCSV returns the records of the CSV file at path, failing t when it
// cannot be read or parsed.
func ReadCSV(t testing.TB, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rows
}

// Permutations calls fn with every permutation of 0..n−1 in lexicographic
// order (the slice is reused: fn must copy what it keeps).
func Permutations(n int, fn func([]int)) {
	p := make([]int, n)
	used := make([]bool, n)
	var rec func(pos int)
	rec = func(pos int) {
		if pos == n {
			fn(p)
			return
		}
		for v := range n {
			if !used[v] {
				used[v] = true
				p[pos] = v
				rec(pos + 1)
				used[v] = false
			}
		}
	}
	rec(0)
}

// PermutationMatrices lists the n! permutation matrices of size n×n
// (row-major), the vertices of the Birkhoff polytope, in the order of
// Permutations.
func PermutationMatrices(n int) [][]float64 {
	var vs [][]float64
	Permutations(n, func(p []int) {
		v := make([]float64, n*n)
		for i, j := range p {
			v[i*n+j] = 1
		}
		vs = append(vs, v)
	})
	return vs
}

// Mallocs returns the exact total number of heap allocations made by runs
// calls of f, after one warm-up call that is not counted: the smallest
// total of up to three batches of runs calls (it stops at a batch with
// none). Like testing.AllocsPerRun it measures with GOMAXPROCS set to 1
// (restored on return), so other goroutines allocate as little as
// possible meanwhile.
//
// It exists because testing.AllocsPerRun returns the average per run
// rounded down (total mallocs / runs in integer arithmetic): a body that
// allocates once every other run, or once in 50 runs, reports 0, so
// "AllocsPerRun(...) == 0" cannot catch a rare branch that allocates or a
// test cycling through inputs of which only some allocate. A check that
// nothing allocates should assert Mallocs(runs, f) == 0 instead. The
// smallest of three batches leaves out the Go runtime's own one-off
// allocations (since Go 1.22 an x.(Interface) type assertion builds its
// call site's cache now and then, a single 48-byte allocation at random),
// while an allocation the body makes in every batch still counts.
func Mallocs(runs int, f func()) uint64 {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	f() // warm up: first-call allocations (lazy buffers, caches) are not counted
	best := uint64(math.MaxUint64)
	for range 3 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range runs {
			f()
		}
		runtime.ReadMemStats(&after)
		best = min(best, after.Mallocs-before.Mallocs)
		if best == 0 {
			break
		}
	}
	return best
}
