package lmo_test

import (
	"context"
	"fmt"
	"math"

	"github.com/lazycg/lazycg/lmo"
)

// ExampleEllipsoid minimizes c·x over the ellipse
// 4(x₀ − 1)² + (x₁ − 2)² ≤ 4, whose semi-axes are 1 and 2; the minimum is
// c·x0 − √(r·cᵀA⁻¹c) = 11 − √73.
func ExampleEllipsoid() {
	e, err := lmo.NewEllipsoid([]float64{1, 2}, []float64{4, 0, 0, 1}, 4)
	if err != nil {
		panic(err)
	}
	c := []float64{3, 4}
	x := make([]float64, 2)
	res, err := e.Minimize(context.Background(), x, c)
	if err != nil {
		panic(err)
	}
	fmt.Printf("x = (%.6f, %.6f), c·x = %.9f (11 − √73 = %.9f)\n", x[0], x[1], res.Value, 11-math.Sqrt(73))
	fmt.Printf("proven: %v, gap below 1e-12: %v\n", res.Bound <= 11-math.Sqrt(73), res.Value-res.Bound < 1e-12)
	fmt.Printf("squared diameter 16 ≤ Diameter2: %v\n", 16 <= e.Diameter2())
	// Output:
	// x = (0.648877, 0.127342), c·x = 2.455996255 (11 − √73 = 2.455996255)
	// proven: true, gap below 1e-12: true
	// squared diameter 16 ≤ Diameter2: true
}
