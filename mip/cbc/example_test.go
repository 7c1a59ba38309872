//go:build cgo

package cbc_test

import (
	"context"
	"fmt"
	"log"
	"math"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/mip"
)

func ExampleSolveOwnObjective() {
	m, err := mip.ReadMPSFile("../testdata/p0033.mps.gz")
	if err != nil {
		log.Fatal(err)
	}
	v, _, err := mip.SolveOwnObjective(context.Background(), m, mip.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("p0033 optimum:", v)
	// Output: p0033 optimum: 3089
}

// A Solver is the linear minimization oracle of the integer hull of a model;
// MinimizeUntil answers weak separation calls early.
func ExampleSolver_MinimizeUntil() {
	m, err := mip.ReadMPSFile("../testdata/p0033.mps.gz")
	if err != nil {
		log.Fatal(err)
	}
	s, err := mip.NewSolver(m, mip.Options{RequireBinary: true})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	v := make([]float64, s.Dim())
	// The optimum is 3089. Is there a vertex with cost below 3200, or is
	// every vertex at least 3100? Only the first can be answered, and CBC
	// stops at the first vertex below 3200 it finds.
	res, err := s.MinimizeUntil(context.Background(), v, m.Obj, lazycg.StopRule{Improve: 3200, Certify: 3100})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Found && res.Value < 3200)
	// Is there a vertex below 3089, or is every vertex at least 2900? Only
	// the second: CBC stops when its bound reaches 2900.
	res, err = s.MinimizeUntil(context.Background(), v, m.Obj, lazycg.StopRule{Improve: 3089, Certify: 2900})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Reason, res.Bound >= 2900)
	// Output:
	// true
	// certified true
}

// The cut polytope of a triangle lives in R³ (one coordinate per edge). A
// maximum cut minimizes −1 per cut edge; a triangle's largest cut has 2 edges.
func ExampleCutPolytope() {
	f, err := mip.CutPolytope(3, [][2]int{{0, 1}, {1, 2}, {0, 2}}, mip.CutOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("coordinates:", f.Names)
	fmt.Println("model:", f.Model.NumCols(), "columns,", f.Model.NumRows(), "rows, binary:", f.Model.Binary())

	s, err := mip.NewSolver(f.Model, mip.Options{Vars: f.Vars})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	x := make([]float64, f.Dim())
	res, err := s.Minimize(context.Background(), x, []float64{-1, -1, -1})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("max cut:", -res.Value, "edges, optimal:", res.Optimal())
	// Output:
	// coordinates: [x_0_1 x_1_2 x_0_2]
	// model: 6 columns, 12 rows, binary: true
	// max cut: 2 edges, optimal: true
}

// Formulations built by package mip know a vertex before any solve; after a
// call, the last vertex found is known.
func ExampleSolver_KnownVertex() {
	f, err := mip.TSP(4)
	if err != nil {
		log.Fatal(err)
	}
	s, err := mip.NewSolver(f.Model, mip.Options{Vars: f.Vars})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	x := make([]float64, s.Dim())
	if s.KnownVertex(x) {
		tour, _ := mip.TourFromArcs(4, x)
		fmt.Println("known tour:", tour)
	}
	// Any vertex will do: the call stops at the first feasible point.
	c := mip.RandomTSP(4, 1).ArcCosts()
	res, err := s.MinimizeUntil(context.Background(), x, c, lazycg.StopRule{Improve: math.Inf(1), Certify: math.Inf(1)})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("found:", res.Found, "known:", s.KnownVertex(x))
	// Output:
	// known tour: [0 1 2 3]
	// found: true known: true
}
