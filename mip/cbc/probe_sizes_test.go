//go:build cgo

package cbc_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/lazycg/lazycg/mip"
	"github.com/lazycg/lazycg/mip/cbc"
)

// TestProbeSizesResolveNil: Resolve of a nil model panicked with a nil
// dereference; a nil model has no nonzeros.
func TestProbeSizesResolveNil(t *testing.T) {
	if s := cbc.Resolve(nil, mip.SearchAuto); s != mip.SearchLight {
		t.Errorf("Resolve(nil, SearchAuto) = %v, want light", s)
	}
}

// TestProbeSizesLoadMalformed: Backend.Load called directly (not through
// mip.NewSolver, which validates first) refuses a model whose arrays CBC
// would read out of bounds; it panicked on nil and handed the others to
// CBC as they were.
func TestProbeSizesLoadMalformed(t *testing.T) {
	good := func() *mip.Model {
		b := mip.NewBuilder("m")
		b.AddCol("x", 0, 1, true)
		b.AddCol("y", 0, 1, true)
		b.AddRow("r", 0, 1, []int{0, 1}, []float64{1, 1})
		return b.Build()
	}
	for _, tc := range []struct {
		name string
		edit func(m *mip.Model) *mip.Model
		want string
	}{
		{"nil", func(*mip.Model) *mip.Model { return nil }, "mip: nil model"},
		{"short ColUp", func(m *mip.Model) *mip.Model { m.ColUp = m.ColUp[:1]; return m }, "inconsistent model"},
		{"short Integer", func(m *mip.Model) *mip.Model { m.Integer = nil; return m }, "inconsistent model"},
		{"short RowUp", func(m *mip.Model) *mip.Model { m.RowUp = nil; return m }, "inconsistent model"},
		{"short Value", func(m *mip.Model) *mip.Model { m.Value = m.Value[:1]; return m }, "inconsistent model"},
		{"start overshoots", func(m *mip.Model) *mip.Model { m.Start = []int{0, 5, 2}; return m }, "starts decrease"},
		{"last start short", func(m *mip.Model) *mip.Model { m.Start = []int{0, 1, 1}; return m }, "column starts from 0 to 1"},
		{"row out of range", func(m *mip.Model) *mip.Model { m.Index[1] = 7; return m }, "an entry in row 7"},
		{"negative row", func(m *mip.Model) *mip.Model { m.Index[0] = -1; return m }, "an entry in row -1"},
		{"cut pool short Up", func(m *mip.Model) *mip.Model {
			m.Cuts = &mip.CutPool{Lo: []float64{0}, Start: []int{0, 1}, Index: []int{0}, Value: []float64{1}}
			return m
		}, "cut pool has 1 lower and 0 upper bounds"},
		{"cut pool column out of range", func(m *mip.Model) *mip.Model {
			m.Cuts = &mip.CutPool{Lo: []float64{0}, Up: []float64{1}, Start: []int{0, 1}, Index: []int{9}, Value: []float64{1}}
			return m
		}, "refers to column 9 of 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("panic %v", r)
				}
			}()
			e, err := cbc.Backend{}.Load(context.Background(), tc.edit(good()))
			if e != nil {
				e.Close()
			}
			if err == nil || !strings.HasPrefix(err.Error(), "mip: ") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Load: %v; want an error with %q", err, tc.want)
			}
		})
	}
	// The valid model loads and solves.
	e, err := cbc.Backend{}.Load(context.Background(), good())
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	r := mip.SolveResult{X: make([]float64, 2)}
	p := mip.SolveParams{Obj: []float64{-1, -2}, Improve: math.Inf(-1), Certify: math.Inf(1), Cutoff: math.Inf(1)}
	if err := e.Solve(context.Background(), &p, &r); err != nil || !r.Found || math.Abs(r.Value+2) > 1e-6 {
		t.Errorf("Solve: %v, found %v, value %g; want −2", err, r.Found, r.Value)
	}
}
