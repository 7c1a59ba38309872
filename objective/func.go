package objective

import "github.com/lazycg/lazycg"

// Func adapts a pair of closures to lazycg.Objective: F computes f(x) and G
// stores ∇f(x) in dst. The closures must not retain x or dst. Func makes no
// promise about allocation or concurrency beyond those of F and G.
type Func struct {
	// N is the dimension of the domain.
	N int
	// F returns f(x).
	F func(x []float64) float64
	// G stores ∇f(x) in dst.
	G func(dst, x []float64)
}

var _ lazycg.Objective = Func{}

// Dim returns N.
func (f Func) Dim() int { return f.N }

// Func returns F(x).
func (f Func) Func(x []float64) float64 { return f.F(x) }

// Grad calls G(dst, x).
func (f Func) Grad(dst, x []float64) { f.G(dst, x) }
