// Package mip reads and builds mixed-integer models (MPS files, TSPLIB and
// QUBO instances; TSP, cut, spanning-tree and Boolean quadric formulations)
// and exposes the convex hull of their feasible points as a lazycg linear
// minimization oracle, Solver, with early termination, face minimization,
// augmentation and warm starts.
//
// The package is pure Go. The MIP solver underneath a Solver is a Backend
// registered by another package, in the manner of database/sql drivers:
// programs that solve import the CBC backend for its side effect,
//
//	import _ "github.com/lazycg/lazycg/mip/cbc"
//
// which needs cgo and CBC (Debian's coinor-libcbc-dev). Without a backend the
// readers and builders work, and NewSolver returns ErrNoBackend.
package mip

import (
	"fmt"
	"math"
	"slices"
)

// Model is a mixed-integer linear program
//
//	min  Obj·x + ObjConst
//	s.t. RowLo ≤ A x ≤ RowUp,  ColLo ≤ x ≤ ColUp,  x_j integer for Integer[j].
//
// The constraint matrix is stored column-wise (CSC): the nonzeros of column j
// are Index[Start[j]:Start[j+1]] (row numbers) with values Value[...].
// Infinite bounds are ±Inf. The objective is used only by validation runs;
// lazycg supplies its own linear objectives.
type Model struct {
	Name     string
	ColNames []string
	RowNames []string
	Obj      []float64
	ObjConst float64
	// Maximize records OBJSENSE MAX in a file; Obj is then the file's
	// objective as written and solvers maximize it.
	Maximize bool
	ColLo    []float64
	ColUp    []float64
	Integer  []bool
	RowLo    []float64
	RowUp    []float64
	Start    []int
	Index    []int
	Value    []float64
	// Known is a feasible point of the model (one value per column) that
	// is known without solving, or nil. The builders of formulations with
	// an obvious vertex set it (the empty cut, the tour 0→1→…→n−1→0, a
	// spanning tree, x = 0 of a QUBO); NewSolver checks it with Check, and
	// Solver.KnownVertex returns its projection.
	Known []float64
	// Cuts is an optional cut pool: inequalities that every feasible
	// point of the model satisfies but that are left out of its rows
	// (the triangle inequalities of the cut polytope, say). They change
	// neither the feasible points nor their convex hull, only what the
	// LP relaxation knows; a backend may add the violated ones as
	// cutting planes (package cbc: in its light search, at every node).
	// Solvers and face models may ignore them; NewSolver checks their
	// indices and that Known satisfies them. Nil: none.
	Cuts *CutPool
}

// CutPool is a set of inequalities Lo[i] ≤ Σ_k Value[k]·x[Index[k]] ≤ Up[i],
// k in Start[i]:Start[i+1], stored row-wise (Start has NumRows()+1
// entries, starting at 0). Bounds may be ±Inf.
type CutPool struct {
	Lo, Up []float64
	Start  []int
	Index  []int
	Value  []float64
}

// NumRows returns the number of inequalities of the pool.
func (p *CutPool) NumRows() int { return len(p.Lo) }

// clone returns a copy of p that shares no memory with it.
func (p *CutPool) clone() *CutPool {
	return &CutPool{
		Lo:    append([]float64(nil), p.Lo...),
		Up:    append([]float64(nil), p.Up...),
		Start: append([]int(nil), p.Start...),
		Index: append([]int(nil), p.Index...),
		Value: append([]float64(nil), p.Value...),
	}
}

// AddRow appends the inequality lo ≤ Σ_k val[k]·x[idx[k]] ≤ up.
func (p *CutPool) AddRow(lo, up float64, idx []int, val []float64) {
	if len(p.Start) == 0 {
		p.Start = []int{0}
	}
	p.Lo = append(p.Lo, lo)
	p.Up = append(p.Up, up)
	p.Index = append(p.Index, idx...)
	p.Value = append(p.Value, val...)
	p.Start = append(p.Start, len(p.Index))
}

// validate returns an error if the pool is malformed for a model with nc
// columns: lengths that disagree, an index out of range, a non-finite
// coefficient, NaN or crossed bounds.
func (p *CutPool) validate(nc int) error {
	n := len(p.Lo)
	if len(p.Up) != n || len(p.Start) != n+1 || p.Start[0] != 0 || p.Start[n] != len(p.Index) || len(p.Value) != len(p.Index) {
		return fmt.Errorf("cut pool has %d lower and %d upper bounds, %d row starts, %d indices and %d values",
			len(p.Lo), len(p.Up), len(p.Start), len(p.Index), len(p.Value))
	}
	for i := range n {
		if p.Start[i+1] < p.Start[i] {
			return fmt.Errorf("cut pool row %d: starts decrease (%d, %d)", i, p.Start[i], p.Start[i+1])
		}
	}
	for i := range n {
		if math.IsNaN(p.Lo[i]) || math.IsNaN(p.Up[i]) || p.Lo[i] > p.Up[i] {
			return fmt.Errorf("cut pool row %d has bounds [%g, %g]", i, p.Lo[i], p.Up[i])
		}
		for k := p.Start[i]; k < p.Start[i+1]; k++ {
			if j := p.Index[k]; j < 0 || j >= nc {
				return fmt.Errorf("cut pool row %d refers to column %d of %d", i, j, nc)
			}
			if slices.Contains(p.Index[p.Start[i]:k], p.Index[k]) {
				return fmt.Errorf("cut pool row %d lists column %d twice", i, p.Index[k])
			}
			if v := p.Value[k]; math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("cut pool row %d has coefficient %g", i, v)
			}
		}
	}
	return nil
}

// check returns an error naming the first inequality of the pool that x
// violates by more than tol·max(1, Σ_k |a_k x_k|).
func (p *CutPool) check(x []float64, tol float64) error {
	for i := range p.Lo {
		a, mag := 0.0, 0.0
		for k := p.Start[i]; k < p.Start[i+1]; k++ {
			v := p.Value[k] * x[p.Index[k]]
			a += v
			mag += math.Abs(v)
		}
		t := tol * math.Max(1, mag)
		if !(a >= p.Lo[i]-t && a <= p.Up[i]+t) {
			return fmt.Errorf("cut pool row %d has activity %g outside [%g, %g]", i, a, p.Lo[i], p.Up[i])
		}
	}
	return nil
}

// NumCols returns the number of columns (variables).
func (m *Model) NumCols() int { return len(m.ColLo) }

// NumRows returns the number of constraint rows.
func (m *Model) NumRows() int { return len(m.RowLo) }

// NumNonzeros returns the number of nonzeros of the constraint matrix.
func (m *Model) NumNonzeros() int { return len(m.Index) }

// Validate returns an error unless m is a well-formed model, the checks
// NewSolver makes before loading it: arrays of matching lengths, column
// starts rising from 0 to the number of nonzeros, row indices in range,
// bounds, coefficients and objective finite (bounds may be infinite on the
// side they bound), a known point of the right length, sizes within 32-bit
// solver indices, and a well-formed cut pool.
func (m *Model) Validate() error {
	if err := checkModel(m); err != nil {
		return err
	}
	if m.Cuts != nil {
		if err := m.Cuts.validate(len(m.ColLo)); err != nil {
			return fmt.Errorf("mip: model %s: %v", m.Name, err)
		}
	}
	return nil
}

// Binary reports whether every column is an integer variable with bounds
// within [0, 1]. A model whose column arrays differ in length is not.
func (m *Model) Binary() bool {
	if len(m.Integer) != len(m.ColLo) || len(m.ColUp) != len(m.ColLo) {
		return false
	}
	for j := range m.ColLo {
		if !m.Integer[j] || m.ColLo[j] < 0 || m.ColUp[j] > 1 {
			return false
		}
	}
	return true
}

// inf is +Inf, for readability in builders.
var inf = math.Inf(1)

// Check returns nil if x (one value per column) is a feasible point of m
// within tolerance tol, else an error naming the first violation. A bound
// may be violated by tol·max(1, |x_j|), an integer column may be tol away
// from an integer, and a row activity may leave its range by tol·max(1,
// Σ_j |a_ij x_j|); an infinite or NaN value is a violation. A malformed
// model (one NewSolver refuses: arrays that disagree, indices out of
// range, NaN) is reported as an error. Check panics if len(x) !=
// m.NumCols().
func (m *Model) Check(x []float64, tol float64) error {
	if len(x) != m.NumCols() {
		panic(fmt.Sprintf("mip: Model.Check: %d values for %d columns", len(x), m.NumCols()))
	}
	if err := checkModel(m); err != nil {
		return err
	}
	if err := m.check(x, tol, make([]float64, 2*m.NumRows()), true); err != nil {
		return fmt.Errorf("mip: %w", err)
	}
	return nil
}

// check is Check with a buffer of 2·NumRows values; integrality is checked
// when integral is set (otherwise x is checked against the LP relaxation).
func (m *Model) check(x []float64, tol float64, buf []float64, integral bool) error {
	for j, v := range x {
		if math.IsInf(v, 0) {
			// Within any tolerance of an infinite bound, else.
			return fmt.Errorf("column %s = %g is not finite", colName(m, j), v)
		}
		t := tol * math.Max(1, math.Abs(v))
		if !(v >= m.ColLo[j]-t && v <= m.ColUp[j]+t) {
			return fmt.Errorf("column %s = %g violates its bounds [%g, %g]", colName(m, j), v, m.ColLo[j], m.ColUp[j])
		}
		if integral && m.Integer[j] && math.Abs(v-math.Round(v)) > tol {
			return fmt.Errorf("integer column %s = %g is fractional", colName(m, j), v)
		}
	}
	clear(buf)
	act, mag := buf[:m.NumRows()], buf[m.NumRows():]
	for j, v := range x {
		for k := m.Start[j]; k < m.Start[j+1]; k++ {
			a := m.Value[k] * v
			act[m.Index[k]] += a
			mag[m.Index[k]] += math.Abs(a)
		}
	}
	for i, a := range act {
		t := tol * math.Max(1, mag[i])
		if !(a >= m.RowLo[i]-t && a <= m.RowUp[i]+t) {
			return fmt.Errorf("row %s has activity %g outside [%g, %g]", rowName(m, i), a, m.RowLo[i], m.RowUp[i])
		}
	}
	return nil
}

// colName and rowName name a column or row in messages: its name and
// index, or the index alone.
func colName(m *Model, j int) string {
	if j < len(m.ColNames) && m.ColNames[j] != "" {
		return fmt.Sprintf("%q (%d)", m.ColNames[j], j)
	}
	return fmt.Sprintf("%d", j)
}

func rowName(m *Model, i int) string {
	if i < len(m.RowNames) && m.RowNames[i] != "" {
		return fmt.Sprintf("%q (%d)", m.RowNames[i], i)
	}
	return fmt.Sprintf("%d", i)
}
