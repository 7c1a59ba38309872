package lmo

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/lazycg/lazycg/internal/testutil"
)

func TestBirkhoffBruteForce(t *testing.T) {
	ctx := context.Background()
	for n := 1; n <= 6; n++ {
		b, err := NewBirkhoff(n)
		if err != nil {
			t.Fatal(err)
		}
		vs := testutil.PermutationMatrices(n)
		if d := basicMaxL1Distance(vs); d > float64(b.L1Diameter()) || (n > 1 && d != float64(b.L1Diameter())) {
			t.Errorf("n=%d: L1Diameter %d, true diameter %v", n, b.L1Diameter(), d)
		}
		rng := basicRNG(uint64(1000 + n))
		dst := make([]float64, n*n)
		trials := 30
		if n == 6 {
			trials = 8
		}
		for trial := 0; trial < trials; trial++ {
			c := basicRandCost(rng, n*n, trial)
			name := fmt.Sprintf("birkhoff n=%d trial %d", n, trial)
			res, err := b.Minimize(ctx, dst, c)
			basicCheckAgainst(t, name, res, err, dst, c, vs)

			// A face that contains a random permutation σ: every other
			// entry is forbidden with probability 1/2.
			sigma := rng.Perm(n)
			zero := basicRandMask(rng, n*n, 0.5)
			for i, j := range sigma {
				zero[i*n+j] = false
			}
			res, err = b.MinimizeFace(ctx, dst, c, zero)
			basicCheckAgainst(t, "face "+name, res, err, dst, c, basicFaceVertices(vs, zero))
		}
		b.Vertex(dst)
		if !basicIsVertex(dst, vs) {
			t.Errorf("Vertex %v is not a permutation matrix", dst)
		}
	}
}

// TestBirkhoffRandomFaces draws masks without a planted permutation, so
// some faces are empty: MinimizeFace must then fail instead of looping.
func TestBirkhoffRandomFaces(t *testing.T) {
	ctx := context.Background()
	rng := basicRNG(77)
	empty := 0
	for n := 2; n <= 5; n++ {
		b, _ := NewBirkhoff(n)
		vs := testutil.PermutationMatrices(n)
		dst := make([]float64, n*n)
		for trial := 0; trial < 40; trial++ {
			c := basicRandCost(rng, n*n, trial)
			zero := basicRandMask(rng, n*n, 0.55)
			face := basicFaceVertices(vs, zero)
			res, err := b.MinimizeFace(ctx, dst, c, zero)
			if len(face) == 0 {
				empty++
				if err == nil {
					t.Fatalf("n=%d: empty face %v accepted, got %v", n, zero, dst)
				}
				continue
			}
			basicCheckAgainst(t, fmt.Sprintf("random face n=%d trial %d", n, trial), res, err, dst, c, face)
		}
	}
	if empty == 0 {
		t.Fatal("no empty face was generated; the test lost its purpose")
	}
	// A Hall violation that no single row reveals: rows 0 and 1 may only use
	// column 0. The oracle must remain usable afterwards.
	b, _ := NewBirkhoff(3)
	zero := []bool{false, true, true, false, true, true, false, false, false}
	dst := make([]float64, 9)
	if _, err := b.MinimizeFace(ctx, dst, make([]float64, 9), zero); err == nil {
		t.Error("Hall violation accepted")
	}
	c := []float64{5, 1, 9, 2, 8, 7, 3, 6, 4}
	res, err := b.Minimize(ctx, dst, c)
	basicCheckAgainst(t, "after failure", res, err, dst, c, testutil.PermutationMatrices(3))
}

// TestBirkhoffDualCertificate checks optimality on larger random instances
// through LP duality: the final potentials must be dual feasible
// (c_ij ≥ u_i + v_j) and tight on the permutation.
func TestBirkhoffDualCertificate(t *testing.T) {
	ctx := context.Background()
	rng := basicRNG(4242)
	for _, n := range []int{7, 20, 45} {
		b, _ := NewBirkhoff(n)
		dst := make([]float64, n*n)
		for trial := 0; trial < 4; trial++ {
			c := basicRandCost(rng, n*n, trial)
			var zero []bool
			if trial >= 2 {
				// Sparse allowed set around a planted permutation.
				zero = basicRandMask(rng, n*n, 0.8)
				for i, j := range rng.Perm(n) {
					zero[i*n+j] = false
				}
			}
			var err error
			if zero == nil {
				_, err = b.Minimize(ctx, dst, c)
			} else {
				_, err = b.MinimizeFace(ctx, dst, c, zero)
			}
			if err != nil {
				t.Fatal(err)
			}
			dual := 0.0
			for i := 1; i <= n; i++ {
				dual += b.rowPot[i] + b.colPot[i]
			}
			rowSum, colSum := make([]float64, n), make([]float64, n)
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					x := dst[i*n+j]
					rowSum[i] += x
					colSum[j] += x
					if zero != nil && zero[i*n+j] {
						if x != 0 {
							t.Fatalf("n=%d: forbidden entry (%d,%d) used", n, i, j)
						}
						continue
					}
					red := c[i*n+j] - b.rowPot[i+1] - b.colPot[j+1]
					if red < -1e-9 {
						t.Fatalf("n=%d: reduced cost of (%d,%d) is %v < 0", n, i, j, red)
					}
					if x == 1 && math.Abs(red) > 1e-9 {
						t.Fatalf("n=%d: matched entry (%d,%d) has reduced cost %v", n, i, j, red)
					}
				}
			}
			for i := range rowSum {
				if rowSum[i] != 1 || colSum[i] != 1 {
					t.Fatalf("n=%d: dst is not a permutation matrix", n)
				}
			}
			if v := basicNaiveDot(c, dst); math.Abs(v-dual) > 1e-8*(1+math.Abs(v)) {
				t.Fatalf("n=%d: primal %v and dual %v differ", n, v, dual)
			}
		}
	}
}

func TestBirkhoffInvalid(t *testing.T) {
	for _, n := range []int{0, -3, 1<<24 + 1} {
		if _, err := NewBirkhoff(n); err == nil {
			t.Errorf("NewBirkhoff(%d) accepted", n)
		}
	}
	b, _ := NewBirkhoff(3)
	basicCheckBadCosts(t, b)
}

func TestBirkhoffAllocs(t *testing.T) {
	b, _ := NewBirkhoff(12)
	basicCheckAllocs(t, b, 5)
}

// FuzzBirkhoff compares the Hungarian method with enumeration on 1×1 to
// 4×4 instances built from the fuzz input.
func FuzzBirkhoff(f *testing.F) {
	f.Add([]byte{3, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{4, 0, 0, 0, 0, 255, 255, 255, 255, 7, 7, 7, 7, 1, 2, 3, 4})
	f.Add([]byte{2, 200, 100, 50, 25})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		n := int(data[0])%4 + 1
		c := make([]float64, n*n)
		zero := make([]bool, n*n)
		for i := range c {
			if 1+i < len(data) {
				c[i] = float64(int(data[1+i]&0x7f) - 64)
				zero[i] = data[1+i]&0x80 != 0
			}
		}
		b, _ := NewBirkhoff(n)
		vs := testutil.PermutationMatrices(n)
		dst := make([]float64, n*n)
		res, err := b.Minimize(context.Background(), dst, c)
		basicCheckAgainst(t, "fuzz", res, err, dst, c, vs)
		face := basicFaceVertices(vs, zero)
		res, err = b.MinimizeFace(context.Background(), dst, c, zero)
		if len(face) == 0 {
			if err == nil {
				t.Fatal("empty face accepted")
			}
			return
		}
		basicCheckAgainst(t, "fuzz face", res, err, dst, c, face)
	})
}

func BenchmarkBirkhoff50(b *testing.B) {
	o, _ := NewBirkhoff(50)
	c := basicRandCost(basicRNG(1), 2500, 0)
	dst := make([]float64, 2500)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := o.Minimize(ctx, dst, c); err != nil {
			b.Fatal(err)
		}
	}
}

func ExampleBirkhoff() {
	b, err := NewBirkhoff(3)
	if err != nil {
		panic(err)
	}
	// Cost of assigning row i to column j, row-major.
	c := []float64{
		4, 1, 3,
		2, 0, 5,
		3, 2, 2,
	}
	dst := make([]float64, b.Dim())
	res, err := b.Minimize(context.Background(), dst, c)
	if err != nil {
		panic(err)
	}
	for i := 0; i < 3; i++ {
		fmt.Println(dst[3*i : 3*i+3])
	}
	fmt.Println("cost", res.Value)
	// Output:
	// [0 1 0]
	// [1 0 0]
	// [0 0 1]
	// cost 5
}
