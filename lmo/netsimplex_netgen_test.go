package lmo_test

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"syscall"
	"testing"
	"unsafe"

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
// gradients g_k of the paper's quadratic objective along a Frank–Wolfe run
// (flowgrad.Gradients), k = from+1 … from+20: "cold" resets the basis
// before every call, "warm" solves them in order, each call starting from
// the basis of the previous one (the sequence is replayed on every pass,
// starting from the basis of g_from, solved untimed). cpu-ns/op is the CPU
// time of the solving thread.
func BenchmarkNetworkSimplexGradient(b *testing.B) {
	for _, bc := range []struct {
		name string
		from int
	}{
		{"netgen_8_08a", 1},
		{"netgen_8_10a", 1},
		{"netgen_8_10a", 200},
		{"netgen_8_12b", 1},
		{"netgen_8_14a", 1},
	} {
		const iters = 20
		var grads [][]float64 // g_from, …, g_from+iters
		var net *lmo.FlowNetwork
		setup := func(b *testing.B) {
			if net == nil {
				net = benchNetgen(b, bc.name)
				var err error
				if grads, err = flowgrad.Gradients(net, bc.from, bc.from+iters); err != nil {
					b.Fatal(err)
				}
			}
		}
		for _, mode := range []string{"cold", "warm"} {
			b.Run(fmt.Sprintf("%s/from=%d/%s", bc.name, bc.from, mode), func(b *testing.B) {
				setup(b)
				s, err := lmo.NewNetworkSimplex(net)
				if err != nil {
					b.Fatal(err)
				}
				ctx := context.Background()
				x := make([]float64, len(net.Arcs))
				k := 0
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				var cpu int64
				for b.Loop() {
					if k == 0 && mode == "warm" {
						b.StopTimer()
						if _, err := s.Solve(ctx, x, grads[0]); err != nil {
							b.Fatal(err)
						}
						b.StartTimer()
					}
					if mode == "cold" {
						s.Reset()
					}
					t0 := benchThreadCPU()
					if _, err := s.Solve(ctx, x, grads[1+k]); err != nil {
						b.Fatal(err)
					}
					cpu += benchThreadCPU() - t0
					k = (k + 1) % iters
				}
				b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}

// benchThreadCPU returns the CPU time in nanoseconds of the calling OS
// thread (clock_gettime with CLOCK_THREAD_CPUTIME_ID). The machines that
// run these benchmarks are shared, and CPU time is steadier there than
// wall-clock time.
func benchThreadCPU() int64 {
	const clockThreadCPUTime = 3 // CLOCK_THREAD_CPUTIME_ID (Linux)
	var ts syscall.Timespec
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0
	}
	return ts.Nano()
}

// TestNetworkSimplexGradientsWarmCold solves the Frank–Wolfe gradients of
// netgen 08a cold, warm-started and through the flow LMO's warm/cold
// policy, and checks that all three find the same optimal cost, attained
// by their flows.
func TestNetworkSimplexGradientsWarmCold(t *testing.T) {
	path, err := datadir.File("", "mcf/netgen_8_08a.min")
	if err != nil {
		t.Skip(err)
	}
	net, err := lmo.ReadDIMACSFile(path)
	if err != nil {
		t.Fatal(err)
	}
	grads, err := flowgrad.Gradients(net, 1, 30)
	if err != nil {
		t.Fatal(err)
	}
	start, err := flowgrad.StartGradient(net)
	if err != nil {
		t.Fatal(err)
	}
	grads = append(grads, start)
	ctx := context.Background()
	warm, _ := lmo.NewNetworkSimplex(net)
	cold, _ := lmo.NewNetworkSimplex(net)
	p, err := lmo.NewFlowPolytope(net)
	if err != nil {
		t.Fatal(err)
	}
	m := len(net.Arcs)
	x, y, z := make([]float64, m), make([]float64, m), make([]float64, m)
	for k, g := range grads {
		vw, err1 := warm.Solve(ctx, x, g)
		cold.Reset()
		vc, err2 := cold.Solve(ctx, y, g)
		res, err3 := p.Minimize(ctx, z, g)
		if err1 != nil || err2 != nil || err3 != nil {
			t.Fatalf("gradient %d: %v, %v, %v", k, err1, err2, err3)
		}
		tol := 1e-12 * math.Abs(vc)
		if math.Abs(vw-vc) > tol || math.Abs(res.Value-vc) > tol {
			t.Fatalf("gradient %d: warm %v, cold %v, LMO %v", k, vw, vc, res.Value)
		}
		for _, f := range [][]float64{x, y, z} {
			if err := p.Check(f, 0); err != nil {
				t.Fatalf("gradient %d: %v", k, err)
			}
		}
	}
}
