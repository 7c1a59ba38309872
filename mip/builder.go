package mip

import (
	"fmt"
	"math"

	"github.com/lazycg/lazycg"
)

// Formulation is a mixed-integer model whose feasible points, projected onto
// the columns Vars, are the vertices of a polytope. The polytope is the
// convex hull of those projections; callers pass it to a solver with
// NewSolver(f.Model, Options{Vars: f.Vars}).
type Formulation struct {
	// Model is the full model, including auxiliary columns.
	Model *Model
	// Vars lists the model columns that are the polytope's coordinates, in
	// coordinate order.
	Vars []int
	// Names[i] is the name of coordinate i (the name of column Vars[i]).
	Names []string
}

// Dim returns the dimension of the polytope (the number of exposed
// coordinates).
func (f *Formulation) Dim() int { return len(f.Vars) }

// Builder assembles a Model row by row. Columns are added first (or
// interleaved with rows, as long as a row refers only to existing columns);
// Build converts the collected nonzeros to the column-wise form of Model.
// The zero Builder is ready to use.
type Builder struct {
	name     string
	colNames []string
	obj      []float64
	colLo    []float64
	colUp    []float64
	integer  []bool
	rowNames []string
	rowLo    []float64
	rowUp    []float64
	// nonzeros as triplets
	nzRow []int
	nzCol []int
	nzVal []float64
}

// NewBuilder returns an empty Builder for a model named name.
func NewBuilder(name string) *Builder { return &Builder{name: name} }

// AddCol adds a column with bounds lo ≤ x ≤ up (lo = −Inf and up = +Inf
// allowed) and objective coefficient 0, and returns its index. It panics if
// lo > up, a bound is NaN, lo = +Inf or up = −Inf (bounds that NewSolver
// would refuse).
func (b *Builder) AddCol(name string, lo, up float64, integer bool) int {
	if badBounds(lo, up) {
		panic(fmt.Sprintf("mip: builder: column %q has bounds [%v, %v]", name, lo, up))
	}
	b.colNames = append(b.colNames, name)
	b.obj = append(b.obj, 0)
	b.colLo = append(b.colLo, lo)
	b.colUp = append(b.colUp, up)
	b.integer = append(b.integer, integer)
	return len(b.colLo) - 1
}

// SetObj sets the objective coefficient of column j. It panics if j is not
// a column (as AddRow does); a NaN or infinite c is reported by NewSolver
// (as the model's objective coefficient).
func (b *Builder) SetObj(j int, c float64) {
	if j < 0 || j >= len(b.obj) {
		panic(fmt.Sprintf("mip: builder: SetObj of column %d of %d", j, len(b.obj)))
	}
	b.obj[j] = c
}

// AddRow adds the constraint lo ≤ Σ_k val[k]·x[idx[k]] ≤ up (lo = −Inf and
// up = +Inf allowed) and returns its index. Repeated column indices are
// summed; zero coefficients are dropped. It panics on a length mismatch, an
// unknown column, a non-finite coefficient, lo > up, a NaN bound, lo = +Inf
// or up = −Inf.
func (b *Builder) AddRow(name string, lo, up float64, idx []int, val []float64) int {
	if len(idx) != len(val) {
		panic(fmt.Sprintf("mip: builder: row %q has %d indices and %d values", name, len(idx), len(val)))
	}
	if badBounds(lo, up) {
		panic(fmt.Sprintf("mip: builder: row %q has bounds [%v, %v]", name, lo, up))
	}
	r := len(b.rowLo)
	for k, j := range idx {
		if j < 0 || j >= len(b.colLo) {
			panic(fmt.Sprintf("mip: builder: row %q refers to column %d of %d", name, j, len(b.colLo)))
		}
		v := val[k]
		if math.IsNaN(v) || math.IsInf(v, 0) {
			panic(fmt.Sprintf("mip: builder: row %q has coefficient %v", name, v))
		}
		if v == 0 {
			continue
		}
		b.nzRow = append(b.nzRow, r)
		b.nzCol = append(b.nzCol, j)
		b.nzVal = append(b.nzVal, v)
	}
	b.rowNames = append(b.rowNames, name)
	b.rowLo = append(b.rowLo, lo)
	b.rowUp = append(b.rowUp, up)
	return r
}

// badBounds reports bounds [lo, up] that checkModel refuses: NaN, crossed,
// a lower bound of +Inf or an upper bound of −Inf (no finite point).
func badBounds(lo, up float64) bool {
	return math.IsNaN(lo) || math.IsNaN(up) || lo > up || math.IsInf(lo, 1) || math.IsInf(up, -1)
}

// NumCols returns the number of columns added so far.
func (b *Builder) NumCols() int { return len(b.colLo) }

// NumRows returns the number of rows added so far.
func (b *Builder) NumRows() int { return len(b.rowLo) }

// Build returns the model in column-wise form: within each column the
// nonzeros are sorted by row, and entries of the same row and column are
// summed (sums that cancel are dropped). The Builder may be reused
// afterwards; the Model does not share memory with it.
func (b *Builder) Build() *Model {
	nc := len(b.colLo)
	m := &Model{
		Name:     b.name,
		ColNames: append([]string(nil), b.colNames...),
		RowNames: append([]string(nil), b.rowNames...),
		Obj:      append(make([]float64, 0, nc), b.obj...),
		ColLo:    append(make([]float64, 0, nc), b.colLo...),
		ColUp:    append(make([]float64, 0, nc), b.colUp...),
		Integer:  append(make([]bool, 0, nc), b.integer...),
		RowLo:    append([]float64(nil), b.rowLo...),
		RowUp:    append([]float64(nil), b.rowUp...),
		Start:    make([]int, nc+1),
	}
	if m.ColNames == nil {
		m.ColNames = []string{}
	}
	if m.RowNames == nil {
		m.RowNames = []string{}
		m.RowLo = []float64{}
		m.RowUp = []float64{}
	}
	// Stable counting sort by column: triplets were appended row by row, so
	// rows come out non-decreasing within each column.
	for _, j := range b.nzCol {
		m.Start[j+1]++
	}
	for j := 0; j < nc; j++ {
		m.Start[j+1] += m.Start[j]
	}
	nnz := len(b.nzCol)
	index := make([]int, nnz)
	value := make([]float64, nnz)
	next := append([]int(nil), m.Start[:nc]...)
	for k, j := range b.nzCol {
		p := next[j]
		next[j]++
		index[p] = b.nzRow[k]
		value[p] = b.nzVal[k]
	}
	// Merge duplicates in place, column by column.
	out := 0
	for j := 0; j < nc; j++ {
		lo, hi := m.Start[j], m.Start[j+1]
		m.Start[j] = out
		for p := lo; p < hi; {
			r, v := index[p], value[p]
			for p++; p < hi && index[p] == r; p++ {
				v += value[p]
			}
			if v != 0 {
				index[out], value[out] = r, v
				out++
			}
		}
	}
	m.Start[nc] = out
	m.Index = index[:out:out]
	m.Value = value[:out:out]
	return m
}

// checkSize reports a formulation whose rows, columns or nonzeros exceed
// the solver's 32-bit indices (checkModel's limits), before it is built:
// a model that NewSolver would refuse is not worth the memory of building
// it (billions of nonzeros take tens of GiB). The sizes may be upper
// bounds.
func checkSize(what string, rows, cols, nonzeros float64) error {
	if cols > math.MaxInt32-1 {
		return fmt.Errorf("mip: %s: the formulation would have %.0f columns, more than the solver's limit of %d", what, cols, math.MaxInt32-1)
	}
	if rows > math.MaxInt32 {
		return fmt.Errorf("mip: %s: the formulation would have %.0f rows, more than the solver's limit of %d", what, rows, math.MaxInt32)
	}
	if nonzeros > math.MaxInt32 {
		return fmt.Errorf("mip: %s: the formulation would have %.0f nonzeros, more than the solver's limit of %d", what, nonzeros, math.MaxInt32)
	}
	return nil
}

// checkSimpleGraph validates an undirected graph given by an edge list on
// nodes 0..nodes-1: every endpoint in range, no self-loops and no repeated
// edges (in either orientation). what prefixes error messages.
func checkSimpleGraph(what string, nodes int, edges [][2]int) error {
	seen := make(map[[2]int]int, len(edges))
	for k, e := range edges {
		i, j := e[0], e[1]
		if i < 0 || i >= nodes || j < 0 || j >= nodes {
			return fmt.Errorf("mip: %s: edge %d (%d,%d) has an endpoint outside 0..%d", what, k, i, j, nodes-1)
		}
		if i == j {
			return fmt.Errorf("mip: %s: edge %d is a self-loop at node %d", what, k, i)
		}
		key := [2]int{min(i, j), max(i, j)}
		if p, dup := seen[key]; dup {
			return fmt.Errorf("mip: %s: edges %d and %d both join nodes %d and %d", what, p, k, key[0], key[1])
		}
		seen[key] = k
	}
	return nil
}

// CompleteGraph returns the edges {i, j}, i < j, of the complete graph on n
// nodes in lexicographic order: (0,1), (0,2), …, (0,n−1), (1,2), …. It
// panics if n < 0 or the n(n−1)/2 edges exceed lazycg.MaxDim (n above
// about 1.48·10⁶), a programmer's error: the callers, spec's polytopes
// included, check their node counts first.
func CompleteGraph(n int) [][2]int {
	if n < 0 {
		panic("mip: CompleteGraph: negative node count")
	}
	edges := make([][2]int, 0, pairCount("CompleteGraph", n, 2))
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			edges = append(edges, [2]int{i, j})
		}
	}
	return edges
}

// pairCount returns n(n−1)/div, the number of edges (div = 2) or arcs
// (div = 1) of the complete graph on n ≥ 0 nodes. It panics, naming what,
// when that count exceeds lazycg.MaxDim, the dimension limit (n(n−1) would
// overflow an int for n ≥ 2^32, and sizes far below that cannot be
// allocated).
func pairCount(what string, n, div int) int {
	if n > 1 && n-1 > div*lazycg.MaxDim/n {
		kind := "edges"
		if div == 1 {
			kind = "arcs"
		}
		panic(fmt.Sprintf("mip: %s: %d nodes have more than %d %s (lazycg.MaxDim)", what, n, lazycg.MaxDim, kind))
	}
	return n * (n - 1) / div
}
