// Package lmotest holds test doubles of LMOs for the tests of several
// packages that may import the root package (the root package's external
// tests, online): unlike internal/testutil, it imports lazycg.
package lmotest

import (
	"context"

	"github.com/lazycg/lazycg"
)

// Counting wraps an LMO and counts its Minimize calls. It exposes Dim and
// Minimize only, so a wrapped LMO's optional capabilities (Vertexer,
// FaceMinimizer, …) are hidden: a start vertex is then an LMO call.
type Counting struct {
	lazycg.LMO
	// Calls is the number of Minimize calls so far.
	Calls int
}

// Minimize counts the call and forwards it.
func (c *Counting) Minimize(ctx context.Context, dst, cost []float64) (lazycg.LinearResult, error) {
	c.Calls++
	return c.LMO.Minimize(ctx, dst, cost)
}
