//go:build cgo

package cbc_test

import (
	"path/filepath"
	"testing"

	"github.com/lazycg/lazycg/internal/datadir"
	"github.com/lazycg/lazycg/mip"
	"github.com/lazycg/lazycg/mip/cbc/internal/bench"
)

// BenchmarkEarlyVsExactEil33 measures, in one run, the CPU time of
// early-terminated weak separation calls (MinimizeUntil with the rule of
// LPsep(c, x, Φ, K=1.1), Φ = half the Wolfe gap) against exact LMO calls
// (Minimize) on MIPLIB eil33-2, for gradients c of the paper's quadratic
// objective at points between two vertices (bench.Separation, b.N points).
// It reports both averages and their ratio. Needs the benchmark data
// directory.
func BenchmarkEarlyVsExactEil33(b *testing.B) {
	path, err := datadir.File("", filepath.Join("miplib", "eil33-2.mps.gz"))
	if err != nil {
		b.Skip(err)
	}
	m, err := mip.ReadMPSFile(path)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	r, err := bench.Separation(m, b.N, 0)
	if err != nil {
		b.Fatal(err)
	}
	if r.Calls == 0 {
		b.Skip("no point with a positive gap")
	}
	b.ReportMetric(r.ExactCPU.Seconds()/float64(r.Calls), "cpu-s/exact-call")
	b.ReportMetric(r.EarlyCPU.Seconds()/float64(r.Calls), "cpu-s/early-call")
	b.ReportMetric(r.EarlyCPU.Seconds()/r.ExactCPU.Seconds(), "early/exact")
}
