package objective_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/lazycg/lazycg/objective"
)

// Least squares from a sparse Matrix Market matrix and a text vector; b was
// built as A·x* for x* = (0.2, 0.3, 0.5), so f(x*) = 0.
func ExampleLeastSquaresFromFiles() {
	f, err := objective.LeastSquaresFromFiles("testdata/regression_A.mtx", "testdata/regression_b.txt")
	if err != nil {
		log.Fatal(err)
	}
	_, sparse := f.A().(*objective.CSR)
	fmt.Println(f.Rows(), f.Dim(), sparse)
	fmt.Println(f.Func([]float64{0.2, 0.3, 0.5}), f.Func([]float64{0, 0, 0}))
	// Output:
	// 4 3 true
	// 0 0.9
}

// A symmetric matrix stores its lower triangle only; the reader mirrors it.
func ExampleReadMatrixMarket() {
	text := `%%MatrixMarket matrix coordinate real symmetric
3 3 4
1 1 2
2 1 -1
2 2 2
3 3 1
`
	m, err := objective.ReadMatrixMarket(strings.NewReader(text))
	if err != nil {
		log.Fatal(err)
	}
	y := make([]float64, 3)
	m.MulVec(y, []float64{1, 1, 1})
	fmt.Printf("%T %v\n", m, y)
	// Output: *objective.CSR [1 1 1]
}

// Header lines are not guessed: comment them out with '#'.
func ExampleReadCSV() {
	_, err := objective.ReadCSV(strings.NewReader("x,y\n1,2\n"))
	fmt.Println(err)
	m, _ := objective.ReadCSV(strings.NewReader("# x,y\n1,2\n3,4\n"))
	fmt.Println(m.Rows, m.Cols, m.Data)
	// Output:
	// objective: csv: line 1, field 1: expected a finite number, got "x" (header lines are not detected: delete the header or start it with '#')
	// 2 2 [1 2 3 4]
}
