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
}

// NumCols returns the number of columns (variables).
func (m *Model) NumCols() int { return len(m.ColLo) }

// NumRows returns the number of constraint rows.
func (m *Model) NumRows() int { return len(m.RowLo) }

// NumNonzeros returns the number of nonzeros of the constraint matrix.
func (m *Model) NumNonzeros() int { return len(m.Index) }

// Binary reports whether every column is an integer variable with bounds
// within [0, 1].
func (m *Model) Binary() bool {
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
// Σ_j |a_ij x_j|). Check panics if len(x) != m.NumCols().
func (m *Model) Check(x []float64, tol float64) error {
	if len(x) != m.NumCols() {
		panic(fmt.Sprintf("mip: Model.Check: %d values for %d columns", len(x), m.NumCols()))
	}
	return m.check(x, tol, make([]float64, 2*m.NumRows()))
}

// check is Check with a buffer of 2·NumRows values.
func (m *Model) check(x []float64, tol float64, buf []float64) error {
	for j, v := range x {
		t := tol * math.Max(1, math.Abs(v))
		if !(v >= m.ColLo[j]-t && v <= m.ColUp[j]+t) {
			return fmt.Errorf("column %s = %g violates its bounds [%g, %g]", colName(m, j), v, m.ColLo[j], m.ColUp[j])
		}
		if m.Integer[j] && math.Abs(v-math.Round(v)) > tol {
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
