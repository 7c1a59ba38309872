// Package brute holds exact reference algorithms for tests of package mip
// and its backends: exhaustive search and textbook algorithms whose
// answers the MIP formulations must reproduce.
package brute

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
)

// HeldKarp solves the TSP on n ≤ 20 nodes with distances d by the
// Held–Karp dynamic program and returns the optimal length and a tour.
func HeldKarp(n int, d func(i, j int) int) (int, []int) {
	if n == 1 {
		return 0, []int{0}
	}
	// best[S][j]: shortest path from 0 through the nodes of S (a subset of
	// 1..n−1, bit j−1 for node j) ending at j ∈ S.
	m := n - 1
	full := 1<<m - 1
	best := make([]int, (full+1)*m)
	for i := range best {
		best[i] = math.MaxInt
	}
	for j := range m {
		best[(1<<j)*m+j] = d(0, j+1)
	}
	for s := 1; s <= full; s++ {
		for j := range m {
			v := best[s*m+j]
			if s&(1<<j) == 0 || v == math.MaxInt {
				continue
			}
			for k := range m {
				if s&(1<<k) != 0 {
					continue
				}
				t := s | 1<<k
				if w := v + d(j+1, k+1); w < best[t*m+k] {
					best[t*m+k] = w
				}
			}
		}
	}
	opt, last := math.MaxInt, -1
	for j := range m {
		if w := best[full*m+j] + d(j+1, 0); w < opt {
			opt, last = w, j
		}
	}
	// Walk back.
	tour := make([]int, n)
	s := full
	for pos := n - 1; pos >= 1; pos-- {
		tour[pos] = last + 1
		prev := s &^ (1 << last)
		if prev == 0 {
			break
		}
		for k := range m {
			if prev&(1<<k) != 0 && best[prev*m+k] != math.MaxInt && best[prev*m+k]+d(k+1, last+1) == best[s*m+last] {
				s, last = prev, k
				break
			}
		}
	}
	return opt, tour
}

// MinCut returns min over all cuts δ(S) of Σ_{e ∈ δ(S)} c_e.
func MinCut(n int, edges [][2]int, c []float64) float64 {
	best := math.Inf(1)
	for mask := 0; mask < 1<<(n-1); mask++ {
		s := 0.0
		for k, e := range edges {
			if ((mask<<1)>>e[0]^(mask<<1)>>e[1])&1 == 1 {
				s += c[k]
			}
		}
		best = min(best, s)
	}
	return best
}

// RandomCosts returns m integer costs uniform in [lo, hi].
func RandomCosts(m int, lo, hi int, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 17))
	c := make([]float64, m)
	for k := range c {
		c[k] = float64(lo + rng.IntN(hi-lo+1))
	}
	return c
}

// Kruskal returns the weight and edge indices of a minimum spanning
// tree of a connected graph.
func Kruskal(n int, edges [][2]int, c []float64) (float64, []int) {
	order := make([]int, len(edges))
	for k := range order {
		order[k] = k
	}
	sort.SliceStable(order, func(a, b int) bool { return c[order[a]] < c[order[b]] })
	comp := make([]int, n)
	for i := range comp {
		comp[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		if comp[i] != i {
			comp[i] = find(comp[i])
		}
		return comp[i]
	}
	w, tree := 0.0, []int{}
	for _, k := range order {
		a, b := find(edges[k][0]), find(edges[k][1])
		if a != b {
			comp[a] = b
			w += c[k]
			tree = append(tree, k)
		}
	}
	return w, tree
}

// RandomRealCosts returns m costs uniform in [−1, 1) (distinct with
// probability 1).
func RandomRealCosts(m int, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 23))
	c := make([]float64, m)
	for k := range c {
		c[k] = 2*rng.Float64() - 1
	}
	return c
}

// MinBinary returns the minimum of f over x ∈ {0,1}^n by enumeration.
func MinBinary(n int, f func(x []float64) float64) float64 {
	best := math.Inf(1)
	x := make([]float64, n)
	for mask := range 1 << n {
		for i := range x {
			x[i] = float64(mask >> i & 1)
		}
		best = min(best, f(x))
	}
	return best
}

// RandomQUBO returns a QUBO on n variables in Selby's format ("i j q" per
// line, 1-based): every linear term x_i with a coefficient in [−5, 5], and
// each pair i < j, coupled with probability p, with an integer coefficient
// in [−5, 5] (zero couplings are dropped by the reader).
func RandomQUBO(n int, p float64, seed uint64) string {
	rng := rand.New(rand.NewPCG(seed, 99))
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%d %d %d\n", i+1, i+1, rng.IntN(11)-5)
		for j := i + 1; j < n; j++ {
			if rng.Float64() < p {
				fmt.Fprintf(&b, "%d %d %d\n", i+1, j+1, rng.IntN(11)-5)
			}
		}
	}
	return b.String()
}

// Connected reports whether the graph on nodes 0..n−1 with the given edges
// is connected.
func Connected(n int, edges [][2]int) bool {
	_, tree := Kruskal(n, edges, make([]float64, len(edges)))
	return len(tree) == n-1
}
