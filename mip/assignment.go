package mip

import "fmt"

// AssignmentPolytope returns the assignment polytope (the Birkhoff
// polytope of n×n doubly stochastic matrices) as a MIP: binary x_i_j with
// every row and every column summing to 1. Its vertices are the
// permutation matrices, coordinate i·n + j is x_i_j, and the model is in
// standard form {x ≥ 0 : Ax = b} with an integral LP relaxation, so the
// decomposition-invariant pairwise methods (PCG, LPCG) accept it. The
// model's Known point is the identity permutation. It is the MIP
// counterpart of lmo.Birkhoff, for testing the MIP oracles on a polytope
// with a known structure.
//
// It returns an error if n < 1 or the n² columns or 2n² nonzeros exceed
// the solver's 32-bit indices.
func AssignmentPolytope(n int) (*Formulation, error) {
	if n < 1 {
		return nil, fmt.Errorf("mip: assignment: need n ≥ 1, got %d", n)
	}
	// n² columns, 2n rows of n nonzeros.
	if err := checkSize("assignment", 2*float64(n), float64(n)*float64(n), 2*float64(n)*float64(n)); err != nil {
		return nil, err
	}
	b := NewBuilder(fmt.Sprintf("assignment%d", n))
	f := &Formulation{Vars: make([]int, n*n), Names: make([]string, n*n)}
	for i := range n {
		for j := range n {
			k := i*n + j
			f.Names[k] = fmt.Sprintf("x_%d_%d", i, j)
			f.Vars[k] = b.AddCol(f.Names[k], 0, 1, true)
		}
	}
	row, col, ones := make([]int, n), make([]int, n), make([]float64, n)
	for i := range n {
		for j := range n {
			row[j], col[j], ones[j] = f.Vars[i*n+j], f.Vars[j*n+i], 1
		}
		b.AddRow(fmt.Sprintf("row_%d", i), 1, 1, row, ones)
		b.AddRow(fmt.Sprintf("col_%d", i), 1, 1, col, ones)
	}
	f.Model = b.Build()
	f.Model.Known = make([]float64, f.Model.NumCols())
	for i := range n {
		f.Model.Known[f.Vars[i*n+i]] = 1
	}
	return f, nil
}
