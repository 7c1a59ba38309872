package mip_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/lazycg/lazycg/mip"
)

// The cut polytope of a triangle lives in R³ (one coordinate per edge). A
// maximum cut minimizes −1 per cut edge; a triangle's largest cut has 2 edges.
func ExampleCutPolytope() {
	f, err := mip.CutPolytope(3, [][2]int{{0, 1}, {1, 2}, {0, 2}})
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
