package mip

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/lazycg/lazycg"
)

// Face calls on a reduced model.
//
// MinimizeFace minimizes over the vertices v with v_i = 0 on a mask. The
// pairwise methods ask it for the face of the current iterate's support,
// which on the MIPLIB models leaves a few dozen of the thousands of
// columns free: fixing the others to 0 by their bounds leaves the backend
// a model of the full size (its LP, cut loop and heuristics run over every
// column), and such a call took 0.16 s on eil33-2 (4,516 columns, ~50
// free) and 1.3 s on nw04 (87,482 columns, ~30 free). When the mask removes at least 90% of the columns, the call
// instead solves the model without the masked columns — the same face,
// since a column fixed to 0 contributes nothing to any row — loaded into a
// backend of its own (at most a tenth of the columns: little memory next
// to the full model) and kept while the mask stays the same.

// faceModel is a Solver over the model without some coordinate columns.
type faceModel struct {
	mask []bool    // the coordinates removed (zero[i] of the call that built it)
	sub  *Solver   // the reduced model's solver
	keep []int     // sub's columns: their columns in the full model
	pos  []int     // sub's coordinates: their coordinates in the full model
	c, v []float64 // sub's objective and vertex buffers
}

// faceReduceRatio is the fraction of the columns a mask must remove for
// MinimizeFace to solve a reduced model.
const faceReduceRatio = 0.9

// reducible reports whether MinimizeFace solves the face of zero on a
// reduced model: the mask removes at least faceReduceRatio of the columns,
// and every removed column has lower bound 0 (so that fixing it to 0 is
// removing it).
func (s *Solver) reducible(zero []bool) bool {
	removed := 0
	for i, z := range zero {
		if !z {
			continue
		}
		j := s.vars[i]
		if s.model.ColLo[j] != 0 {
			return false
		}
		removed++
	}
	return float64(removed) >= faceReduceRatio*float64(s.model.NumCols())
}

// minimizeFaceReduced is MinimizeFace on f, the reduced model of zero.
func (s *Solver) minimizeFaceReduced(ctx context.Context, dst, c []float64, zero []bool, f *faceModel) (lazycg.LinearResult, error) {
	for k, i := range f.pos {
		f.c[k] = c[i]
	}
	res, err := f.sub.minimize(ctx, f.v, f.c, nil, math.Inf(-1), math.Inf(1))
	if err != nil {
		if errors.Is(err, errInfeasible) {
			return res, fmt.Errorf("mip: the face is empty (%d coordinates fixed to 0): %w", len(zero)-len(f.pos), lazycg.ErrEmptyPolytope)
		}
		return res, err
	}
	if res.Found {
		clear(dst)
		for k, i := range f.pos {
			dst[i] = f.v[k]
		}
		// The face vertex is the last vertex, as on the full model.
		clear(s.last)
		for k, j := range f.keep {
			s.last[j] = f.sub.last[k]
		}
		s.lastOK = true
		res.Value = dotVec(c, dst)
	}
	return res, nil
}

// faceFor returns the reduced model of zero, reusing the last one when the
// mask is the same, else building it (warm-started at the last vertex when
// that lies in the face); nil when the mask leaves no coordinate (the full
// model decides whether 0 is in the face).
func (s *Solver) faceFor(ctx context.Context, zero []bool) (*faceModel, error) {
	if f := s.face; f != nil && slices.Equal(f.mask, zero) {
		return f, nil
	}
	s.closeFace()
	m := s.model
	nc := m.NumCols()
	drop := make([]bool, nc)
	for i, z := range zero {
		if z {
			drop[s.vars[i]] = true
		}
	}
	newCol := make([]int, nc)
	sub := &Model{Name: m.Name + " (face)", RowNames: m.RowNames, RowLo: m.RowLo, RowUp: m.RowUp, Start: []int{0}}
	var keep []int
	for j := 0; j < nc; j++ {
		if drop[j] {
			newCol[j] = -1
			continue
		}
		newCol[j] = len(keep)
		keep = append(keep, j)
		if len(m.ColNames) > 0 {
			// A model may name only its first columns (see colName).
			name := ""
			if j < len(m.ColNames) {
				name = m.ColNames[j]
			}
			sub.ColNames = append(sub.ColNames, name)
		}
		sub.Obj = append(sub.Obj, 0)
		sub.ColLo = append(sub.ColLo, m.ColLo[j])
		sub.ColUp = append(sub.ColUp, m.ColUp[j])
		sub.Integer = append(sub.Integer, m.Integer[j])
		sub.Index = append(sub.Index, m.Index[m.Start[j]:m.Start[j+1]]...)
		sub.Value = append(sub.Value, m.Value[m.Start[j]:m.Start[j+1]]...)
		sub.Start = append(sub.Start, len(sub.Index))
	}
	var vars, pos []int
	for i, j := range s.vars {
		if !zero[i] {
			vars = append(vars, newCol[j])
			pos = append(pos, i)
		}
	}
	if len(vars) == 0 {
		return nil, nil
	}
	opts := s.innerOptions()
	opts.Vars = vars
	opts.RequireBinary = false // checked on the full model
	sol, err := NewSolverContext(ctx, sub, opts)
	if err != nil {
		return nil, err
	}
	if s.lastOK {
		in := true
		for j, d := range drop {
			if d && s.last[j] != 0 {
				in = false
				break
			}
		}
		if in {
			for k, j := range keep {
				sol.last[k] = s.last[j]
			}
			sol.lastOK = true
		}
	}
	s.face = &faceModel{mask: append([]bool(nil), zero...), sub: sol, keep: keep, pos: pos,
		c: make([]float64, len(pos)), v: make([]float64, len(pos))}
	return s.face, nil
}

// closeFace frees the reduced model's solver, if any.
func (s *Solver) closeFace() {
	if s.face != nil {
		s.face.sub.Close()
		s.face = nil
	}
}
