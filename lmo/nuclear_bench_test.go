package lmo

import (
	"context"
	"fmt"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/objective"
)

// completionBench is the first paper setting, 1000×3000 of rank 10 with
// R = 30000 (|Ω| = 199,500 of 3,000,000 entries), at its start vertex,
// in both formulations.
type completionBench struct {
	mc     *objective.MatrixCompletion
	dense  *NuclearBall
	on     *NuclearBallOn
	xd, gd []float64 // dense iterate and gradient (m·n)
	xo, gw []float64 // Ω iterate and gradient
}

func newCompletionBench(b *testing.B) *completionBench {
	mc, _, err := objective.RandomMatrixCompletion(1000, 3000, 10, 1)
	if err != nil {
		b.Fatal(err)
	}
	cb := &completionBench{mc: mc}
	cb.dense, _ = NewNuclearBall(1000, 3000, 30000)
	if cb.on, err = NewNuclearBallOn(1000, 3000, 30000, mc.Support()); err != nil {
		b.Fatal(err)
	}
	cb.xd, cb.gd = make([]float64, 1000*3000), make([]float64, 1000*3000)
	cb.xo, cb.gw = make([]float64, cb.on.Dim()), make([]float64, cb.on.Dim())
	mc.FuncGrad(cb.gd, cb.xd)
	cb.dense.Minimize(context.Background(), cb.xd, cb.gd)
	mc.OnOmega().FuncGrad(cb.gw, cb.xo)
	cb.on.Minimize(context.Background(), cb.xo, cb.gw)
	mc.FuncGrad(cb.gd, cb.xd)
	mc.OnOmega().FuncGrad(cb.gw, cb.xo)
	return cb
}

// benchSink keeps benchmarked inner products observable.
var benchSink float64

// BenchmarkCompletionIteration measures the parts of a conditional
// gradient iteration on matrix completion in the dense formulation (m·n
// coordinates, NuclearBall learning the gradient's support) and in
// Ω-coordinates (NuclearBallOn): the gradient with the step x += γ(v − x),
// one LMO call, and one cache inner product with a vertex (dense m·n
// coordinates, |Ω| coordinates, and the factored form).
func BenchmarkCompletionIteration(b *testing.B) {
	cb := newCompletionBench(b)
	ctx := context.Background()
	vd, vo := make([]float64, len(cb.xd)), make([]float64, len(cb.xo))
	cb.dense.Minimize(ctx, vd, cb.gd)
	cb.on.Minimize(ctx, vo, cb.gw)
	step := func(f func(dst, x []float64) float64, x, g, v []float64) {
		for i := range x {
			x[i] += 1e-9 * (v[i] - x[i])
		}
		f(g, x)
	}
	b.Run("grad+step/dense", func(b *testing.B) {
		for range b.N {
			step(cb.mc.FuncGrad, cb.xd, cb.gd, vd)
		}
	})
	b.Run("grad+step/omega", func(b *testing.B) {
		f := cb.mc.OnOmega()
		for range b.N {
			step(f.FuncGrad, cb.xo, cb.gw, vo)
		}
	})
	b.Run("lmo/dense", func(b *testing.B) {
		for range b.N {
			cb.dense.Minimize(ctx, vd, cb.gd)
		}
	})
	b.Run("lmo/omega", func(b *testing.B) {
		for range b.N {
			cb.on.Minimize(ctx, vo, cb.gw)
		}
	})
	b.Run("cache-dot/dense", func(b *testing.B) {
		for range b.N {
			benchSink += basicDot(cb.gd, vd)
		}
	})
	b.Run("cache-dot/omega", func(b *testing.B) {
		for range b.N {
			benchSink += basicDot(cb.gw, vo)
		}
	})
	b.Run("cache-dot/factored", func(b *testing.B) {
		cv := cb.on.Compact(vo)
		for range b.N {
			benchSink += cv.Dot(cb.gw)
		}
	})
	// Four factored vertices, one by one and in one DotBatch pass (per op:
	// four inner products).
	atoms := make([]lazycg.CompactVertex, 4)
	g := make([]float64, len(cb.gw))
	for i := range atoms {
		for k := range g {
			g[k] = cb.gw[k] * float64(1+(k*(i+3))%7)
		}
		cb.on.Minimize(ctx, vo, g)
		atoms[i] = cb.on.Compact(vo)
	}
	b.Run("cache-dot/factored-4", func(b *testing.B) {
		for range b.N {
			for _, a := range atoms {
				benchSink += a.Dot(cb.gw)
			}
		}
	})
	b.Run("cache-dot/factored-batch4", func(b *testing.B) {
		var d [4]float64
		for range b.N {
			cb.on.DotBatch(d[:], atoms, cb.gw)
			benchSink += d[0] + d[1] + d[2] + d[3]
		}
	})
}

// BenchmarkNuclearCertificate measures one NuclearBallOn call at the start
// of matrix completion instances with side ≤ 256 (the quick job's 200×300,
// the paper's 100×10000), with the Cholesky certificate (default) and
// without (CertifyMaxSide −1).
func BenchmarkNuclearCertificate(b *testing.B) {
	for _, sz := range []struct{ m, n, rank int }{{200, 300, 5}, {100, 10000, 10}} {
		mc, _, err := objective.RandomMatrixCompletion(sz.m, sz.n, sz.rank, 1)
		if err != nil {
			b.Fatal(err)
		}
		on, err := NewNuclearBallOn(sz.m, sz.n, 1000, mc.Support())
		if err != nil {
			b.Fatal(err)
		}
		x, g := make([]float64, on.Dim()), make([]float64, on.Dim())
		on.NoRecord = true
		on.Minimize(context.Background(), x, g)
		mc.OnOmega().FuncGrad(g, x)
		v := make([]float64, on.Dim())
		for _, side := range []int{0, -1} {
			name := "certified"
			if side < 0 {
				name = "uncertified"
			}
			b.Run(fmt.Sprintf("%dx%d/%s", sz.m, sz.n, name), func(b *testing.B) {
				on.CertifyMaxSide = side
				for range b.N {
					on.Minimize(context.Background(), v, g)
				}
			})
		}
	}
}
