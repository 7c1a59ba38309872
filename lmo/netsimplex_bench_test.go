package lmo_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/lazycg/lazycg/internal/datadir"
	"github.com/lazycg/lazycg/lmo"
	"github.com/lazycg/lazycg/lmo/internal/flowgrad"
)

// benchNetgen reads a netgen instance from the data directory or skips.
func benchNetgen(b *testing.B, name string) *lmo.FlowNetwork {
	b.Helper()
	var path string
	var err error
	for _, ext := range []string{".min", ".min.gz"} {
		if path, err = datadir.File("", "mcf/"+name+ext); err == nil {
			break
		}
	}
	if err != nil {
		b.Skip(err)
	}
	net, err := lmo.ReadDIMACSFile(path)
	if err != nil {
		b.Fatal(err)
	}
	return net
}

// BenchmarkNetworkSimplexGradient solves netgen instances with the
// gradients of the paper's quadratic objective along a Frank–Wolfe run:
// "cold" resets the basis before every call, "warm" solves the gradients
// in order, each call starting from the basis of the previous one (the
// sequence is replayed on every pass, from the basis of its predecessor,
// solved untimed). The first two gradients are left out: they differ in
// sign (∇f(0) is negative) and their solves are far from typical.
func BenchmarkNetworkSimplexGradient(b *testing.B) {
	for _, name := range []string{"netgen_8_08a", "netgen_8_10a", "netgen_8_12b"} {
		const first, iters = 2, 20
		var grads [][]float64
		var net *lmo.FlowNetwork
		setup := func(b *testing.B) {
			if net == nil {
				net = benchNetgen(b, name)
				var err error
				if grads, err = flowgrad.Gradients(net, first+iters); err != nil {
					b.Fatal(err)
				}
			}
		}
		for _, mode := range []string{"cold", "warm"} {
			b.Run(fmt.Sprintf("%s/%s", name, mode), func(b *testing.B) {
				setup(b)
				s, err := lmo.NewNetworkSimplex(net)
				if err != nil {
					b.Fatal(err)
				}
				ctx := context.Background()
				x := make([]float64, len(net.Arcs))
				k := 0
				for b.Loop() {
					if k == 0 && mode == "warm" {
						b.StopTimer()
						for _, g := range grads[:first] {
							if _, err := s.Solve(ctx, x, g); err != nil {
								b.Fatal(err)
							}
						}
						b.StartTimer()
					}
					if mode == "cold" {
						s.Reset()
					}
					if _, err := s.Solve(ctx, x, grads[first+k]); err != nil {
						b.Fatal(err)
					}
					k = (k + 1) % iters
				}
			})
		}
	}
}
