// Package mip reads and builds mixed-integer models (MPS files, TSP, cut,
// spanning-tree and QUBO formulations) and solves them with CBC, exposing the
// convex hull of their feasible points as lazycg linear minimization oracles.
package mip

import "math"

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
