package mip_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/mip"
)

func ExampleReadMPS() {
	const model = `NAME          KNAP
ROWS
 N  COST
 L  CAP
COLUMNS
    MARKER                 'MARKER'                 'INTORG'
    X1        COST        -5   CAP          3
    X2        COST        -4   CAP          2
    X3        COST        -3   CAP          2
    MARKER                 'MARKER'                 'INTEND'
RHS
    RHS       CAP          4
ENDATA
`
	m, err := mip.ReadMPS(strings.NewReader(model))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.Name, m.NumRows(), "rows", m.NumCols(), "columns", m.NumNonzeros(), "nonzeros, binary:", m.Binary())
	// Output: KNAP 1 rows 3 columns 3 nonzeros, binary: true
}

func ExampleSolveOwnObjective() {
	m, err := mip.ReadMPSFile("testdata/p0033.mps.gz")
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
	m, err := mip.ReadMPSFile("testdata/p0033.mps.gz")
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
