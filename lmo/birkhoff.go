package lmo

import (
	"context"
	"fmt"
	"math"

	"github.com/lazycg/lazycg"
)

// Birkhoff is the Birkhoff polytope of doubly stochastic n×n matrices,
// flattened row-major into R^{n²} (entry (i, j) at index i·n + j). Its
// vertices are the permutation matrices, so linear minimization is the
// assignment problem, solved exactly in O(n³) time by the Hungarian method
// (successive shortest augmenting paths with row and column potentials).
//
// It implements lazycg.FaceMinimizer (entries with zero set are forbidden)
// and lazycg.Diameter1 (2n: two permutation matrices differ in at most 2n
// entries).
type Birkhoff struct {
	n int
	// Scratch for the Hungarian method, indexed 1..n; index 0 is the
	// virtual column from which each augmenting path search starts.
	rowPot, colPot, minSlack []float64
	colRow, prevCol          []int // colRow[j]: row matched to column j (0: none)
	inTree                   []bool
	cs                       []float64 // costs scaled by basicCostScale (huge costs only)
}

var (
	_ lazycg.LMO           = (*Birkhoff)(nil)
	_ lazycg.FaceMinimizer = (*Birkhoff)(nil)
	_ lazycg.Diameter1     = (*Birkhoff)(nil)
)

// NewBirkhoff returns the Birkhoff polytope of n×n matrices, n ≥ 1.
func NewBirkhoff(n int) (*Birkhoff, error) {
	if n < 1 || n > 1<<24 {
		return nil, fmt.Errorf("lmo: birkhoff: size must be in [1, %d], got %d", 1<<24, n)
	}
	return &Birkhoff{
		n:        n,
		rowPot:   make([]float64, n+1),
		colPot:   make([]float64, n+1),
		minSlack: make([]float64, n+1),
		colRow:   make([]int, n+1),
		prevCol:  make([]int, n+1),
		inTree:   make([]bool, n+1),
	}, nil
}

// Dim returns n².
func (b *Birkhoff) Dim() int { return b.n * b.n }

// N returns the matrix size n.
func (b *Birkhoff) N() int { return b.n }

// L1Diameter returns 2n.
func (b *Birkhoff) L1Diameter() int { return 2 * b.n }

// Vertex writes the identity matrix into dst.
func (b *Birkhoff) Vertex(dst []float64) {
	clear(dst[:b.n*b.n])
	for i := 0; i < b.n; i++ {
		dst[i*b.n+i] = 1
	}
}

// Minimize writes a permutation matrix P minimizing Σ c_ij P_ij into dst.
// It returns an error when the value Σ c_ij P_ij lies beyond the range of
// float64.
func (b *Birkhoff) Minimize(_ context.Context, dst, c []float64) (lazycg.LinearResult, error) {
	cmax, err := basicCheckCostMax("birkhoff", b.n*b.n, dst, c)
	if err != nil {
		return lazycg.LinearResult{}, err
	}
	if err := b.assign(b.scaled(c, cmax), nil); err != nil {
		return lazycg.LinearResult{}, err
	}
	return b.write(dst, c)
}

// MinimizeFace minimizes over the permutation matrices P with P_ij = 0
// wherever zero[i·n+j] is set. It returns an error (after at most O(n³)
// work) when no such permutation exists and, as Minimize, when the value
// lies beyond the range of float64.
func (b *Birkhoff) MinimizeFace(_ context.Context, dst, c []float64, zero []bool) (lazycg.LinearResult, error) {
	cmax, err := basicCheckCostMax("birkhoff", b.n*b.n, dst, c)
	if err != nil {
		return lazycg.LinearResult{}, err
	}
	if err := basicCheckZero("birkhoff", b.n*b.n, zero); err != nil {
		return lazycg.LinearResult{}, err
	}
	if err := b.assign(b.scaled(c, cmax), zero); err != nil {
		return lazycg.LinearResult{}, err
	}
	return b.write(dst, c)
}

// scaled returns the costs c (with max|c| = cmax) that assign uses: c
// itself, or c scaled by a power of two where the potentials could overflow
// (an infinite slack makes a row look unmatchable).
//
//go:noinline
func (b *Birkhoff) scaled(c []float64, cmax float64) []float64 {
	return basicScaled(&b.cs, c, basicCostScale(cmax, 8*float64(b.n+1)))
}

// write stores the permutation matrix of the current matching in dst and
// returns its exact result (Value c·dst, see basicAnswer: the terms have
// mixed signs, so an overflowed partial sum alone is no refusal), or
// errBeyondFloat64 when c·dst lies beyond the range of float64.
func (b *Birkhoff) write(dst, c []float64) (lazycg.LinearResult, error) {
	n := b.n
	clear(dst)
	for j := 1; j <= n; j++ {
		dst[(b.colRow[j]-1)*n+j-1] = 1
	}
	return basicAnswer("birkhoff", c, dst)
}

// assign solves the assignment problem with costs c (row-major) where the
// entries with zero set (if zero != nil) are forbidden, leaving the optimal
// matching in b.colRow.
//
// Rows are inserted one at a time. For row i a Dijkstra-like search grows an
// alternating tree from i over reduced costs c_rj − rowPot_r − colPot_j ≥ 0:
// minSlack[j] is the smallest reduced cost of an edge from a tree row to the
// column j outside the tree, prevCol[j] the tree column whose matched row
// gives it. Each step adds the column of least slack, shifting potentials by
// that slack so reduced costs stay non-negative and tree edges stay tight.
// When the added column is free, the path back to the virtual column 0 is
// augmented.
func (b *Birkhoff) assign(c []float64, zero []bool) error {
	n := b.n
	u, v, minSlack := b.rowPot, b.colPot, b.minSlack
	colRow, prevCol, inTree := b.colRow, b.prevCol, b.inTree
	clear(u)
	clear(v)
	clear(colRow)
	inf := math.Inf(1)
	for i := 1; i <= n; i++ {
		colRow[0] = i
		for j := range minSlack {
			minSlack[j] = inf
			inTree[j] = false
		}
		cur := 0 // column whose matched row was just added to the tree
		for {
			inTree[cur] = true
			r := colRow[cur]
			row := c[(r-1)*n : r*n]
			var forbidden []bool
			if zero != nil {
				forbidden = zero[(r-1)*n : r*n]
			}
			delta, next := inf, 0
			for j := 1; j <= n; j++ {
				if inTree[j] {
					continue
				}
				if forbidden == nil || !forbidden[j-1] {
					if s := row[j-1] - u[r] - v[j]; s < minSlack[j] {
						minSlack[j] = s
						prevCol[j] = cur
					}
				}
				if minSlack[j] < delta {
					delta, next = minSlack[j], j
				}
			}
			if next == 0 {
				return fmt.Errorf("lmo: birkhoff: face is empty: no permutation avoids the forbidden entries (row %d cannot be matched)", i-1)
			}
			for j := 0; j <= n; j++ {
				if inTree[j] {
					u[colRow[j]] += delta
					v[j] -= delta
				} else {
					minSlack[j] -= delta
				}
			}
			cur = next
			if colRow[cur] == 0 {
				break
			}
		}
		// Augment along the alternating path ending in the free column cur.
		for cur != 0 {
			p := prevCol[cur]
			colRow[cur] = colRow[p]
			cur = p
		}
	}
	return nil
}
