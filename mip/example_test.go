package mip_test

import (
	"fmt"
	"log"
	"math"
	"os"
	"strings"

	"github.com/lazycg/lazycg/mip"
)

func ExampleReadTSPLIB() {
	const src = `NAME: square
TYPE: TSP
COMMENT: four corners of a 3×4 rectangle
DIMENSION: 4
EDGE_WEIGHT_TYPE: EUC_2D
NODE_COORD_SECTION
1 0 0
2 3 0
3 3 4
4 0 4
EOF
`
	inst, err := mip.ReadTSPLIB(strings.NewReader(src))
	if err != nil {
		log.Fatal(err)
	}
	length, err := inst.TourLength([]int{0, 1, 2, 3})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(inst.Name, inst.N, "nodes, diagonal", inst.Dist(0, 2), "perimeter", length)
	// Output:
	// square 4 nodes, diagonal 5 perimeter 14
}

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

// Set partitioning models are of the form {x ≥ 0 : Ax = b} with 0/1
// vertices, where the pairwise conditional gradient methods apply; a
// knapsack row is not.
func ExampleModel_StandardForm() {
	b := mip.NewBuilder("partition")
	for _, name := range []string{"a", "b", "c"} {
		b.AddCol(name, 0, 1, true)
	}
	b.AddRow("r1", 1, 1, []int{0, 1}, []float64{1, 1}) // a + b = 1
	b.AddRow("r2", 1, 1, []int{1, 2}, []float64{1, 1}) // b + c = 1
	fmt.Println(b.Build().StandardForm(nil))
	b.AddRow("cap", math.Inf(-1), 1, []int{0, 2}, []float64{1, 1}) // a + c ≤ 1
	fmt.Println(b.Build().StandardForm(nil))
	// Output:
	// true
	// false
}

func ExampleWriteMPS() {
	b := mip.NewBuilder("tiny")
	x := b.AddCol("x", 0, 1, true)
	y := b.AddCol("y", 0, 4, false)
	b.SetObj(x, -1)
	b.AddRow("c", math.Inf(-1), 3, []int{x, y}, []float64{2, 1})
	if err := mip.WriteMPS(os.Stdout, b.Build()); err != nil {
		log.Fatal(err)
	}
	// Output:
	// NAME tiny
	// ROWS
	//  N OBJ
	//  L c
	// COLUMNS
	//     MARKER 'MARKER' 'INTORG'
	//     x OBJ -1
	//     x c 2
	//     MARKER 'MARKER' 'INTEND'
	//     y c 1
	// RHS
	//     RHS c 3
	// BOUNDS
	//  UP BND x 1
	//  UP BND y 4
	// ENDATA
}
