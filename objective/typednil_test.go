package objective

import (
	"strings"
	"testing"
)

// dimsMatrix is a Matrix of the given dimensions that multiplies by
// nothing (the constructors must reject it before any product).
type dimsMatrix struct{ rows, cols int }

func (m *dimsMatrix) Dims() (rows, cols int)       { return m.rows, m.cols }
func (m *dimsMatrix) MulVec(dst, _ []float64)      { clear(dst) }
func (m *dimsMatrix) MulTransVec(dst, _ []float64) { clear(dst) }

// TestConstructorsRejectTypedNil checks that the constructors that
// reject a nil argument with an error also reject a nil pointer inside
// the interface (whose methods would panic) and a matrix of negative
// dimensions, instead of panicking.
func TestConstructorsRejectTypedNil(t *testing.T) {
	cases := []struct {
		name, want string
		build      func() error
	}{
		{"consensus of a nil *Distance", "nil", func() error { _, err := NewConsensus((*Distance)(nil), 2, 1); return err }},
		{"consensus of a nil *LeastSquares", "nil", func() error { _, err := NewConsensus((*LeastSquares)(nil), 3, 1); return err }},
		{"least squares of a nil custom matrix", "nil", func() error { _, err := NewLeastSquares((*dimsMatrix)(nil), nil); return err }},
		{"least squares of negative columns", "negative", func() error {
			_, err := NewLeastSquares(&dimsMatrix{rows: 2, cols: -1}, []float64{1, 2})
			return err
		}},
		{"repeat of a nil pool", "pool", func() error { _, err := Repeat((*LinearStream)(nil), 3, OrderRandom, 1); return err }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("panics: %v", r)
				}
			}()
			err := c.build()
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one mentioning %q", err, c.want)
			}
		})
	}
}
