package mip

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/lazycg/lazycg/internal/fileio"
)

// maxQUBOVars bounds the variable indices accepted by ReadQUBO.
const maxQUBOVars = 1 << 20

// QUBO is a quadratic unconstrained binary optimization problem:
//
//	minimize Σ_i Linear[i]·x_i + Σ_c Q_c·x_{I_c}·x_{J_c}  over x ∈ {0,1}^N.
type QUBO struct {
	// N is the number of variables, numbered 0..N−1.
	N int
	// Linear holds the N diagonal (linear) coefficients.
	Linear []float64
	// Couplings holds the off-diagonal terms, each pair at most once.
	Couplings []Coupling
}

// Coupling is the term Q·x_I·x_J of a QUBO, with 0 ≤ I < J < N.
type Coupling struct {
	I, J int
	Q    float64
}

// Value returns the objective at x (len N); for 0/1 vectors it is the QUBO
// objective. It panics if len(x) != N and on an inconsistent QUBO whose
// terms it cannot all evaluate: len(Linear) != N or a coupling outside
// 0 ≤ I < J < N. These checks cost O(1) per term; repeated pairs and
// non-finite coefficients are left to BooleanQuadric and the other
// validating functions (finding repeats takes a map).
func (q *QUBO) Value(x []float64) float64 {
	if len(x) != q.N {
		panic(fmt.Sprintf("mip: QUBO.Value: %d values for %d variables", len(x), q.N))
	}
	if len(q.Linear) != q.N {
		panic(fmt.Sprintf("mip: QUBO.Value: %d linear terms for %d variables", len(q.Linear), q.N))
	}
	s := 0.0
	for i, c := range q.Linear {
		s += c * x[i]
	}
	for k, c := range q.Couplings {
		if c.I < 0 || c.I >= c.J || c.J >= q.N {
			panic(fmt.Sprintf("mip: QUBO.Value: coupling %d joins %d and %d (want 0 ≤ I < J < %d)", k, c.I, c.J, q.N))
		}
		s += c.Q * x[c.I] * x[c.J]
	}
	return s
}

// ReadQUBOFile reads a QUBO file with ReadQUBO; errors name the file.
func ReadQUBOFile(path string) (*QUBO, error) {
	return fileio.ReadPathBare(path, "mip: qubo", readQUBO)
}

// ReadQUBO reads a QUBO in Selby's "stdformat": one term "i j q" per line
// with 1-based variable indices i and j and a finite coefficient q, meaning
// q·x_i·x_j; i == j is a linear term. The objective is the sum of all lines,
// so repeated terms (also "j i" after "i j") are added up; couplings that
// sum to zero are dropped. Blank lines are skipped and '#' starts a comment.
// N is the largest index that occurs. Couplings keep the order of their first
// appearance, with I < J. Errors give the line number.
func ReadQUBO(r io.Reader) (*QUBO, error) {
	q, err := readQUBO(r)
	if err != nil {
		return nil, fmt.Errorf("mip: qubo: %w", err)
	}
	return q, nil
}

func readQUBO(r io.Reader) (*QUBO, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	q := &QUBO{}
	pos := map[[2]int]int{} // pair -> index in q.Couplings
	line := 0
	for sc.Scan() {
		line++
		l := sc.Text()
		if k := strings.IndexByte(l, '#'); k >= 0 {
			l = l[:k]
		}
		f := strings.Fields(l)
		if len(f) == 0 {
			continue
		}
		if len(f) != 3 {
			return nil, fmt.Errorf("line %d: want \"i j q\", got %d fields", line, len(f))
		}
		var ij [2]int
		for k := range 2 {
			v, err := strconv.Atoi(f[k])
			if err != nil || v < 1 || v > maxQUBOVars {
				return nil, fmt.Errorf("line %d: bad variable index %q (want 1..%d)", line, f[k], maxQUBOVars)
			}
			ij[k] = v - 1
		}
		c, err := strconv.ParseFloat(f[2], 64)
		if err != nil || math.IsNaN(c) || math.IsInf(c, 0) {
			return nil, fmt.Errorf("line %d: bad coefficient %q", line, f[2])
		}
		i, j := min(ij[0], ij[1]), max(ij[0], ij[1])
		if j >= q.N {
			q.Linear = append(q.Linear, make([]float64, j+1-q.N)...)
			q.N = j + 1
		}
		var sum *float64
		if i == j {
			sum = &q.Linear[i]
		} else if p, ok := pos[[2]int{i, j}]; ok {
			sum = &q.Couplings[p].Q
		}
		if sum != nil {
			if *sum += c; math.IsInf(*sum, 0) {
				return nil, fmt.Errorf("line %d: coefficients of x%d·x%d add up to %v", line, i+1, j+1, *sum)
			}
			continue
		}
		pos[[2]int{i, j}] = len(q.Couplings)
		q.Couplings = append(q.Couplings, Coupling{I: i, J: j, Q: c})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %w", line+1, err)
	}
	if q.N == 0 {
		return nil, errors.New("no terms")
	}
	kept := q.Couplings[:0]
	for _, c := range q.Couplings {
		if c.Q != 0 {
			kept = append(kept, c)
		}
	}
	q.Couplings = kept
	return q, nil
}

// validate checks a QUBO built by hand.
func (q *QUBO) validate() error {
	if q == nil {
		return errors.New("mip: qubo: nil QUBO")
	}
	if q.N < 1 || len(q.Linear) != q.N {
		return fmt.Errorf("mip: qubo: N = %d with %d linear terms", q.N, len(q.Linear))
	}
	for i, c := range q.Linear {
		if math.IsNaN(c) || math.IsInf(c, 0) {
			return fmt.Errorf("mip: qubo: linear term %d is %v", i, c)
		}
	}
	seen := make(map[[2]int]bool, len(q.Couplings))
	for k, c := range q.Couplings {
		if c.I < 0 || c.I >= c.J || c.J >= q.N {
			return fmt.Errorf("mip: qubo: coupling %d joins %d and %d (want 0 ≤ I < J < %d)", k, c.I, c.J, q.N)
		}
		if math.IsNaN(c.Q) || math.IsInf(c.Q, 0) {
			return fmt.Errorf("mip: qubo: coupling %d (%d,%d) is %v", k, c.I, c.J, c.Q)
		}
		if seen[[2]int{c.I, c.J}] {
			return fmt.Errorf("mip: qubo: coupling (%d,%d) repeated", c.I, c.J)
		}
		seen[[2]int{c.I, c.J}] = true
	}
	return nil
}

// BooleanQuadric returns the standard linearization of q, whose projection is
// the Boolean quadric polytope of q's coupling graph: binary x_i for every
// variable and y_c for every coupling c = (i, j) with
//
//	y_c ≤ x_i,  y_c ≤ x_j,  y_c ≥ x_i + x_j − 1,  y_c ≥ 0,
//
// which force y_c = x_i·x_j for binary x. y is marked binary too (it is 0/1
// at every feasible point). The exposed coordinates are x_0..x_{N−1} named
// "x_i" followed by one y per coupling in q.Couplings order named "y_i_j"
// (0-based). The model's objective is QUBOObjective(q), its Known point
// x = y = 0. It returns an error
// for an inconsistent QUBO (sizes, indices, repeated pairs, NaN or Inf).
func BooleanQuadric(q *QUBO) (*Formulation, error) {
	if err := q.validate(); err != nil {
		return nil, err
	}
	b := NewBuilder(fmt.Sprintf("bqp%d-%d", q.N, len(q.Couplings)))
	dim := q.N + len(q.Couplings)
	f := &Formulation{Vars: make([]int, dim), Names: make([]string, dim)}
	for i := range q.N {
		f.Names[i] = fmt.Sprintf("x_%d", i)
		f.Vars[i] = b.AddCol(f.Names[i], 0, 1, true)
	}
	for k, c := range q.Couplings {
		p := q.N + k
		f.Names[p] = fmt.Sprintf("y_%d_%d", c.I, c.J)
		f.Vars[p] = b.AddCol(f.Names[p], 0, 1, true)
		y, xi, xj := f.Vars[p], f.Vars[c.I], f.Vars[c.J]
		b.AddRow(fmt.Sprintf("yi_%d", k), -inf, 0, []int{y, xi}, []float64{1, -1})
		b.AddRow(fmt.Sprintf("yj_%d", k), -inf, 0, []int{y, xj}, []float64{1, -1})
		b.AddRow(fmt.Sprintf("yij_%d", k), -1, inf, []int{y, xi, xj}, []float64{1, -1, -1})
	}
	for k, c := range QUBOObjective(q) {
		b.SetObj(f.Vars[k], c)
	}
	f.Model = b.Build()
	f.Model.Known = make([]float64, f.Model.NumCols())
	return f, nil
}

// QUBOObjective returns the linear objective over the coordinates of
// BooleanQuadric(q) that equals q's objective at every vertex: Linear
// followed by the coupling coefficients. A nil q has the empty objective
// (nil), which LMOs refuse for its length.
func QUBOObjective(q *QUBO) []float64 {
	if q == nil {
		return nil
	}
	c := make([]float64, 0, q.N+len(q.Couplings))
	c = append(c, q.Linear...)
	for _, t := range q.Couplings {
		c = append(c, t.Q)
	}
	return c
}

// CycleCuts returns, in the columns of BooleanQuadric(q), the cycle
// inequalities of the short chordless cycles of q's coupling graph (its
// triangles and its 4-cycles without a chord), as a cut pool for
// Model.Cuts. With z_e = x_i + x_j − 2·y_e, which is 1 exactly when the
// coupling e = (i, j) joins a 0 and a 1, every 0/1 point crosses a cycle C
// an even number of times, so for every F ⊆ C of odd size
//
//	Σ_{e∈F} z_e − Σ_{e∈C∖F} z_e ≤ |F| − 1
//
// (4 inequalities per triangle, 8 per 4-cycle). They are facets of the
// Boolean quadric polytope that the standard linearization's LP relaxation
// misses (Padberg; Barahona and Mahjoub): its point x = ½, y = 0 violates
// them. A Chimera graph has no triangles and 36 4-cycles in each complete
// unit cell K_{4,4}. The result has no rows (but is not nil) when the
// graph has no such cycles, and for a nil q. q must be valid (as
// BooleanQuadric checks): an invalid q (N < 1 or not len(Linear),
// couplings out of range, repeated or not finite) makes it panic with
// BooleanQuadric's error, before anything is allocated for its N.
func CycleCuts(q *QUBO) *CutPool {
	p := &CutPool{Start: []int{0}}
	if q == nil {
		return p
	}
	mustValidate("CycleCuts", q)
	n := q.N
	coef := make(map[int]float64, 8)
	var idx []int
	var val []float64
	// The inequalities of the cycle through nodes (in order), edges[t]
	// the coupling of nodes[t] and nodes[t+1 mod m].
	forCycles(q, -1, func(nodes, edges []int) bool {
		m := len(nodes)
		for f := 1; f < 1<<m; f++ {
			if bits.OnesCount(uint(f))%2 == 0 {
				continue
			}
			clear(coef)
			for t := range m {
				i, j := nodes[t], nodes[(t+1)%m]
				s := -1.0
				if f>>t&1 == 1 {
					s = 1
				}
				coef[i] += s
				coef[j] += s
				coef[n+edges[t]] -= 2 * s
			}
			idx, val = idx[:0], val[:0]
			for col, v := range coef {
				if v != 0 {
					idx = append(idx, col)
				}
			}
			slices.Sort(idx)
			for _, col := range idx {
				val = append(val, coef[col])
			}
			p.AddRow(math.Inf(-1), float64(bits.OnesCount(uint(f))-1), idx, val)
		}
		return true
	})
	return p
}

// CycleCutCount returns the number of inequalities of CycleCuts(q) and
// an upper bound on their nonzeros (2m per inequality of an m-cycle)
// without building them, so that callers can refuse a pool too large to
// build: a complete bipartite coupling graph K_{120,120}, a file of 130 kB,
// has 5·10⁷ chordless 4-cycles and 4·10⁸ inequalities. It stops with
// ok = false, the counts so far, once the inequalities exceed maxRows or
// the enumeration has taken more than maxSteps steps (a step is a pair
// of neighbours or a candidate fourth node examined; a star of 10⁵
// couplings takes 5·10⁹ steps and has no cycle). Negative limits are
// none. q must be valid (as for CycleCuts, which panics otherwise).
func CycleCutCount(q *QUBO, maxRows, maxSteps int) (rows, nonzeros int, ok bool) {
	if q == nil {
		return 0, 0, true
	}
	mustValidate("CycleCutCount", q)
	ok = forCycles(q, maxSteps, func(nodes, _ []int) bool {
		m := len(nodes)
		rows += 1 << (m - 1) // the odd subsets of the cycle's edges
		nonzeros += (1 << (m - 1)) * 2 * m
		return maxRows < 0 || rows <= maxRows
	})
	return rows, nonzeros, ok
}

// mustValidate panics with q's validation error, naming the function, when
// q is invalid: forCycles allocates per variable and indexes by coupling.
func mustValidate(what string, q *QUBO) {
	if err := q.validate(); err != nil {
		panic(fmt.Sprintf("mip: %s: %s", what, strings.TrimPrefix(err.Error(), "mip: ")))
	}
}

// forCycles calls fn with the nodes of every triangle and every chordless
// 4-cycle of q's coupling graph (with the smallest node first, each
// once) and the couplings joining them in order. It returns false when
// fn does, or when the enumeration exceeds maxSteps steps (pairs of
// neighbours and candidate fourth nodes examined; negative: no limit).
func forCycles(q *QUBO, maxSteps int, fn func(nodes, edges []int) bool) bool {
	n := q.N
	edge := make(map[[2]int]int, len(q.Couplings))
	nb := make([][]int, n)
	for k, c := range q.Couplings {
		i, j := min(c.I, c.J), max(c.I, c.J)
		edge[[2]int{i, j}] = k
		nb[i] = append(nb[i], j)
		nb[j] = append(nb[j], i)
	}
	for _, l := range nb {
		slices.Sort(l)
	}
	find := func(i, j int) (int, bool) {
		k, ok := edge[[2]int{min(i, j), max(i, j)}]
		return k, ok
	}
	steps := 0
	nodes, edges := make([]int, 0, 4), make([]int, 0, 4)
	// visit passes the cycle through cyc to fn.
	visit := func(cyc ...int) bool {
		nodes, edges = append(nodes[:0], cyc...), edges[:0]
		for t := range cyc {
			k, _ := find(cyc[t], cyc[(t+1)%len(cyc)])
			edges = append(edges, k)
		}
		return fn(nodes, edges)
	}
	for u := range n {
		for a, v := range nb[u] {
			if v < u {
				continue
			}
			for _, w := range nb[u][a+1:] {
				if steps++; maxSteps >= 0 && steps > maxSteps {
					return false
				}
				if w < u {
					continue
				}
				if _, ok := find(v, w); ok {
					if v < w && !visit(u, v, w) { // the triangle u < v < w, once
						return false
					}
					continue // the 4-cycles through v and w have a chord
				}
				// 4-cycles u–v–x–w–u with u the smallest node: x is a
				// common neighbour of v and w other than u, not adjacent
				// to u (a chord).
				for _, x := range nb[v] {
					if steps++; maxSteps >= 0 && steps > maxSteps {
						return false
					}
					if x <= u {
						continue
					}
					if _, ok := find(x, w); !ok {
						continue
					}
					if _, ok := find(u, x); ok {
						continue
					}
					if !visit(u, v, x, w) {
						return false
					}
				}
			}
		}
	}
	return true
}
