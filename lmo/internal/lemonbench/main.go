// Command lemonbench compares lazycg's network simplex (the flow LMO) with
// LEMON's NetworkSimplex, as shipped in Debian's liblemon-utils
// (dimacs-solver), on the LEMON netgen instances with the gradients of the
// paper's quadratic objective as arc costs. It is run by
// scripts/bench-lemon.sh.
//
// For every instance it runs vanilla Frank–Wolfe with exact line search on
// f(x) = ‖Ax − b‖² (objective.RandomLeastSquares with rows = arcs, density
// min(1, 20/arcs), seed 1: the "quadratic" objective of lazycg's paper
// suite) from x = 0 for -iters iterations and records the gradients
// g_0 = ∇f(0), g_1 = ∇f(x_0), …, where x_0 minimizes g_0. Each gradient is
// written as a DIMACS file and solved, in alternating runs, by
// dimacs-solver -double (its "Run NetworkSimplex" time) and by a cold
// NetworkSimplex solve (basis reset); the optimal costs must agree to a
// relative 2e-5 (dimacs-solver prints 6 digits). Warm-started calls are
// timed in the Frank–Wolfe run itself, where call k starts from the basis
// of call k−1. All times are wall-clock medians over -reps alternating runs.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lazycg/lazycg/lmo"
	"github.com/lazycg/lazycg/objective"
)

func main() {
	var (
		data      = flag.String("data", os.Getenv("LAZYCG_DATA"), "data directory (default $LAZYCG_DATA)")
		instances = flag.String("instances", "08a,10a,12b,14a,16a,16b", "netgen_8 instances (comma-separated suffixes or file names under mcf/)")
		iters     = flag.Int("iters", 10, "Frank–Wolfe iterations (warm-started calls)")
		reps      = flag.Int("reps", 3, "alternating repetitions per timing")
		solver    = flag.String("solver", "dimacs-solver", "LEMON's dimacs-solver")
		dir       = flag.String("dir", "", "directory for the DIMACS files (default: a temporary one, removed)")
		coldEvery = flag.Int("cold-every", 1, "compare every k-th gradient cold (1: all)")
		verbose   = flag.Bool("v", false, "print a line per gradient")
	)
	flag.Parse()
	if *data == "" {
		fail(fmt.Errorf("no data directory: pass -data or set LAZYCG_DATA"))
	}
	if *dir == "" {
		d, err := os.MkdirTemp("", "lemonbench")
		if err != nil {
			fail(err)
		}
		defer os.RemoveAll(d)
		*dir = d
	}
	fmt.Printf("%-12s %5s %10s %10s %8s %8s %10s %9s %7s\n",
		"instance", "calls", "LEMON s", "cold s", "cold/L", "worst", "warm s", "cold/warm", "pivots")
	for _, name := range strings.Split(*instances, ",") {
		if err := run(strings.TrimSpace(name), *data, *dir, *solver, *iters, *reps, *coldEvery, *verbose); err != nil {
			fail(err)
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "lemonbench:", err)
	os.Exit(1)
}

// instancePath resolves an instance name to a file in the data directory.
func instancePath(data, name string) (string, error) {
	cands := []string{name}
	if !strings.Contains(name, ".") {
		cands = []string{"netgen_8_" + name + ".min", "netgen_8_" + name + ".min.gz", name + ".min", name + ".min.gz"}
	}
	for _, c := range cands {
		p := filepath.Join(data, "mcf", c)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("instance %q not found under %s/mcf", name, data)
}

func run(name, data, dir, solver string, iters, reps, coldEvery int, verbose bool) error {
	path, err := instancePath(data, name)
	if err != nil {
		return err
	}
	net, err := lmo.ReadDIMACSFile(path)
	if err != nil {
		return err
	}
	m := len(net.Arcs)
	f, err := objective.RandomLeastSquares(m, m, math.Min(1, 20/float64(m)), 1)
	if err != nil {
		return err
	}
	grads, warm, pivots, err := frankWolfe(net, f, iters, reps)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}

	// Cold solves against LEMON on the same gradients.
	s, err := lmo.NewNetworkSimplex(net)
	if err != nil {
		return err
	}
	x := make([]float64, m)
	ctx := context.Background()
	var sumL, sumC, worst float64
	calls := 0
	for k, g := range grads {
		if k%coldEvery != 0 && k != len(grads)-1 {
			continue
		}
		file := filepath.Join(dir, fmt.Sprintf("%s_g%d.min", strings.TrimSuffix(filepath.Base(path), ".gz"), k))
		if err := writeCosts(file, net, g); err != nil {
			return err
		}
		var tl, tc []float64
		var lemonCost, ours float64
		for range reps {
			t, c, err := lemon(solver, file)
			if err != nil {
				return fmt.Errorf("%s gradient %d: %w", name, k, err)
			}
			tl, lemonCost = append(tl, t), c
			s.Reset()
			start := time.Now()
			v, err := s.Solve(ctx, x, g)
			tc = append(tc, time.Since(start).Seconds())
			if err != nil {
				return fmt.Errorf("%s gradient %d: lazycg: %w", name, k, err)
			}
			ours = v
		}
		if math.Abs(ours-lemonCost) > 2e-5*math.Max(math.Abs(ours), math.Abs(lemonCost)) {
			return fmt.Errorf("%s gradient %d: optimal costs differ: lazycg %.9g, LEMON %.6g", name, k, ours, lemonCost)
		}
		ml, mc := median(tl), median(tc)
		if verbose {
			fmt.Printf("  gradient %2d: LEMON %.4f s, cold %.4f s (%.2f×), cost %.9g\n", k, ml, mc, mc/ml, ours)
		}
		sumL += ml
		sumC += mc
		worst = math.Max(worst, mc/ml)
		calls++
		os.Remove(file)
	}
	fmt.Printf("%-12s %5d %10.4f %10.4f %8.2f %8.2f %10.4f %9.1f %7d\n",
		strings.TrimSuffix(strings.TrimSuffix(filepath.Base(path), ".gz"), ".min"), calls,
		sumL/float64(calls), sumC/float64(calls), sumC/sumL, worst, warm, (sumC/float64(calls))/warm, pivots)
	return nil
}

// frankWolfe runs vanilla Frank–Wolfe with exact line search from x = 0
// reps times and returns the gradients g_0 … g_iters, the median over runs
// of the mean time of the warm-started calls 1 … iters, and the mean number
// of pivots of those calls.
func frankWolfe(net *lmo.FlowNetwork, f *objective.LeastSquares, iters, reps int) ([][]float64, float64, int64, error) {
	m := len(net.Arcs)
	ctx := context.Background()
	var grads [][]float64
	var means []float64
	var pivots int64
	for r := range reps {
		s, err := lmo.NewNetworkSimplex(net)
		if err != nil {
			return nil, 0, 0, err
		}
		x, v, g, d := make([]float64, m), make([]float64, m), make([]float64, m), make([]float64, m)
		f.Grad(g, x)
		if r == 0 {
			grads = append(grads, slices.Clone(g))
		}
		if _, err := s.Solve(ctx, x, g); err != nil {
			return nil, 0, 0, fmt.Errorf("gradient 0: %w", err)
		}
		p0 := s.Pivots()
		var total time.Duration
		for k := 1; k <= iters; k++ {
			f.Grad(g, x)
			if r == 0 {
				grads = append(grads, slices.Clone(g))
			}
			start := time.Now()
			p1 := s.Pivots()
			_, err := s.Solve(ctx, v, g)
			total += time.Since(start)
			if os.Getenv("LEMONBENCH_TRACE") != "" && r == 0 {
				fmt.Printf("  warm call %d: %.4f s, %d pivots\n", k, time.Since(start).Seconds(), s.Pivots()-p1)
			}
			if err != nil {
				return nil, 0, 0, fmt.Errorf("gradient %d: %w", k, err)
			}
			for i := range d {
				d[i] = v[i] - x[i]
			}
			gamma := f.LineMinimize(x, d, g, 1)
			for i := range x {
				x[i] += gamma * d[i]
			}
		}
		means = append(means, total.Seconds()/float64(iters))
		pivots = (s.Pivots() - p0) / int64(iters)
	}
	return grads, median(means), pivots, nil
}

// writeCosts writes net with the arc costs c as a DIMACS file.
func writeCosts(file string, net *lmo.FlowNetwork, c []float64) error {
	cp := *net
	cp.Arcs = slices.Clone(net.Arcs)
	for i := range cp.Arcs {
		cp.Arcs[i].Cost = c[i]
	}
	var buf bytes.Buffer
	if err := lmo.WriteDIMACS(&buf, &cp); err != nil {
		return err
	}
	return os.WriteFile(file, buf.Bytes(), 0o644)
}

var (
	lemonTime = regexp.MustCompile(`Run NetworkSimplex: u: \S+s, s: \S+s, cu: \S+s, cs: \S+s, real: (\S+)s`)
	lemonCost = regexp.MustCompile(`Min flow cost: (\S+)`)
)

// lemon runs dimacs-solver -double on file and returns its NetworkSimplex
// run time (wall clock, seconds) and the optimal cost it printed.
func lemon(solver, file string) (float64, float64, error) {
	out, err := exec.Command(solver, "-double", file, os.DevNull).CombinedOutput()
	if err != nil {
		return 0, 0, fmt.Errorf("%s: %w\n%s", solver, err, out)
	}
	t := lemonTime.FindSubmatch(out)
	c := lemonCost.FindSubmatch(out)
	if t == nil || c == nil {
		return 0, 0, fmt.Errorf("%s: unexpected output (no run time or optimal cost):\n%s", solver, out)
	}
	tv, err1 := strconv.ParseFloat(string(t[1]), 64)
	cv, err2 := strconv.ParseFloat(string(c[1]), 64)
	if err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("%s: cannot parse %q / %q", solver, t[1], c[1])
	}
	return tv, cv, nil
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
