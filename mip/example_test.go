package mip_test

import (
	"fmt"
	"log"
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
