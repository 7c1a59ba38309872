package cbc_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/internal/datadir"
	"github.com/lazycg/lazycg/mip"
	"github.com/lazycg/lazycg/objective"
)

// BenchmarkEarlyVsExactEil33 measures, in one run, the average time of an
// early-terminated weak separation call (MinimizeUntil with the rule of
// LPsep(c, x, Φ, K=1.1), Φ = half the Wolfe gap) against an exact LMO call
// (Minimize) on MIPLIB eil33-2, for gradients c of the paper's quadratic
// objective at points x on the segment between two vertices. It reports
// both averages and their ratio. Needs the benchmark data directory.
func BenchmarkEarlyVsExactEil33(b *testing.B) {
	benchEarlyVsExact(b, "eil33-2")
}

func benchEarlyVsExact(b *testing.B, name string) {
	path, err := datadir.File("", filepath.Join("miplib", name+".mps.gz"))
	if err != nil {
		b.Skip(err)
	}
	m, err := mip.ReadMPSFile(path)
	if err != nil {
		b.Fatal(err)
	}
	exact, err := mip.NewSolver(m, mip.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer exact.Close()
	early, err := mip.NewSolver(m, mip.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer early.Close()
	n := exact.Dim()
	obj, err := objective.RandomLeastSquares(n, n, 20/float64(n), 1)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	// Two vertices to build points from.
	v1, v2 := make([]float64, n), make([]float64, n)
	c := make([]float64, n)
	for i := range c {
		c[i] = float64(i%7) - 3
	}
	if _, err := exact.Minimize(ctx, v1, c); err != nil {
		b.Fatal(err)
	}
	for i := range c {
		c[i] = -c[i]
	}
	if _, err := exact.Minimize(ctx, v2, c); err != nil {
		b.Fatal(err)
	}
	x, y := make([]float64, n), make([]float64, n)
	var tExact, tEarly time.Duration
	calls := 0
	for i := range b.N {
		lam := float64(i%9+1) / 10
		for j := range x {
			x[j] = lam*v1[j] + (1-lam)*v2[j]
		}
		obj.Grad(c, x)
		var cx float64
		for j := range x {
			cx += c[j] * x[j]
		}
		t0 := time.Now()
		res, err := exact.Minimize(ctx, y, c)
		tExact += time.Since(t0)
		if err != nil {
			b.Fatal(err)
		}
		gap := cx - res.Value
		if gap <= 0 {
			continue
		}
		phi, k := gap/2, 1.1
		t0 = time.Now()
		er, err := early.MinimizeUntil(ctx, y, c, lazycg.StopRule{Improve: cx - phi/k, Certify: cx - phi})
		tEarly += time.Since(t0)
		if err != nil {
			b.Fatal(err)
		}
		if !(er.Found && er.Value < cx-phi/k) && !(er.Bound >= cx-phi) {
			b.Fatalf("early call answered neither way: %+v", er)
		}
		calls++
	}
	if calls == 0 {
		b.Skip("no point with a positive gap")
	}
	b.ReportMetric(tExact.Seconds()/float64(calls), "s/exact-call")
	b.ReportMetric(tEarly.Seconds()/float64(calls), "s/early-call")
	b.ReportMetric(tEarly.Seconds()/tExact.Seconds(), "early/exact")
}
