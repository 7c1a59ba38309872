package mip

import "math"

// StandardForm reports whether the polytope of m with coordinates vars
// (nil = all columns) is, for the decomposition-invariant pairwise methods
// PCG and LPCG, of the form {x ≥ 0 : Ax = b} with 0/1 vertices. The rule:
//
//  1. every row is an equality (free rows are allowed);
//  2. every column that is not fixed (lower bound = upper bound) is a
//     coordinate;
//  3. every coordinate that is not fixed is an integer column with lower
//     bound 0 whose upper bound min(1, u_j) is implied by the rows: some
//     equality row i whose coefficients on the non-fixed columns are all
//     ≥ 0 has a_ij > 0 and b'_i ≤ a_ij·min(1, u_j), where b'_i is the
//     right-hand side minus the contribution of the fixed columns.
//
// Set partitioning (rows Σ_{j∈S_i} x_j = 1 over binary columns, each column
// in some row) and assignment models qualify; any inequality row refuses
// (p0033, stein27), as do extended formulations with hidden continuous
// columns (the TSP flow and spanning-tree formulations). Coordinates that
// are not columns of m (out of range) make it report false, as does a
// malformed model (one NewSolver refuses).
//
// Why this keeps the pairwise step feasible: a step x + η(v⁺ − v⁻) between
// points with Ax = b keeps Ax = b; the methods' ratio test keeps x ≥ 0;
// fixed columns are constant on P; and for the row i of rule 3,
// a_ij x_j ≤ Σ_k a_ik x_k = b'_i ≤ a_ij·min(1, u_j), so x_j ≤ min(1, u_j)
// holds without a test. The iterates therefore stay in the LP relaxation
// Q = {x : Ax = b, l ≤ x ≤ u}, and every integer point of Q is a 0/1 vertex
// of P = conv(integer points of Q).
//
// What is not guaranteed: Q equals P only when the LP relaxation is
// integral (assignment and other totally unimodular models). On set
// partitioning models such as air04 and nw04 it is not, so a pairwise
// iterate may lie in Q ∖ P; the paper runs PCG on these instances all the
// same. Dual bounds stay valid for P (they come from the oracle over P,
// and f(x) + min_{v∈P} ∇f(x)·(v − x) ≤ min_P f for every x), but a primal
// value is then attained at a point of Q, not necessarily of P.
func (m *Model) StandardForm(vars []int) bool {
	if checkModel(m) != nil {
		return false
	}
	nc, nr := m.NumCols(), m.NumRows()
	fixed := func(j int) bool { return m.ColLo[j] == m.ColUp[j] }
	isVar := make([]bool, nc)
	if vars == nil {
		for j := range isVar {
			isVar[j] = true
		}
	}
	for _, j := range vars {
		if j < 0 || j >= nc {
			return false // not a column: no polytope of m (NewSolver refuses such Vars)
		}
		isVar[j] = true
	}
	for i := range nr {
		free := math.IsInf(m.RowLo[i], -1) && math.IsInf(m.RowUp[i], 1)
		if !free && m.RowLo[i] != m.RowUp[i] {
			return false
		}
	}
	// rhs[i] = b'_i; nonneg[i]: row i is an equality whose coefficients on
	// non-fixed columns are ≥ 0.
	rhs := make([]float64, nr)
	nonneg := make([]bool, nr)
	for i := range nr {
		rhs[i] = m.RowLo[i]
		nonneg[i] = !math.IsInf(m.RowLo[i], -1)
	}
	for j := range nc {
		for k := m.Start[j]; k < m.Start[j+1]; k++ {
			i := m.Index[k]
			if fixed(j) {
				rhs[i] -= m.Value[k] * m.ColLo[j]
			} else if m.Value[k] < 0 {
				nonneg[i] = false
			}
		}
	}
	for j := range nc {
		if fixed(j) {
			continue
		}
		if !isVar[j] || !m.Integer[j] || m.ColLo[j] != 0 {
			return false
		}
		u := math.Min(1, m.ColUp[j])
		implied := false
		for k := m.Start[j]; k < m.Start[j+1] && !implied; k++ {
			i := m.Index[k]
			implied = nonneg[i] && m.Value[k] > 0 && rhs[i] <= m.Value[k]*u
		}
		if !implied {
			return false
		}
	}
	return true
}

// StandardForm implements lazycg.StandardForm: it reports
// s's model's StandardForm(Options.Vars), computed once. See
// Model.StandardForm for the rule and for what it guarantees.
func (s *Solver) StandardForm() bool {
	if s.std == 0 {
		s.std = -1
		if s.model.StandardForm(s.vars) {
			s.std = 1
		}
	}
	return s.std > 0
}
