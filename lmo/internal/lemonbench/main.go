// Command lemonbench compares lazycg's network simplex (the flow LMO) with
// LEMON's NetworkSimplex, as shipped in Debian's liblemon-utils
// (dimacs-solver), on the LEMON min-cost flow instances in
// $LAZYCG_DATA/mcf with the gradients of the paper's quadratic objective as
// arc costs. scripts/bench-lemon.sh runs it.
//
// For every instance it runs vanilla Frank–Wolfe with exact line search
// (flowgrad.Gradients: from the flow polytope's vertex, as lazycg's driver
// starts) for -iters iterations and records the gradients g_from, …,
// g_iters. Each gradient is written as a DIMACS file and solved, in
// alternating runs, by dimacs-solver -double and by a cold lazycg
// NetworkSimplex (basis reset); the optimal costs must agree to a relative
// 2e-5 (dimacs-solver prints 6 digits). LEMON's time is the "Run
// NetworkSimplex" line of its report, which leaves out reading the file
// and building the graph; ours is the second of two back-to-back cold
// Solve calls, so that both start with their data in the cache. With -g0
// the same is done
// for ∇f(0), the costs of a start-vertex call by minimization.
//
// Ours is then timed on g_from+1, …, g_iters warm-started (the sequence
// replayed in order, each call from the basis of the previous one) and
// through lmo.FlowPolytope.Minimize, which picks warm or cold starts by
// the work of earlier calls.
//
// LEMON reports CPU time in 10 ms ticks only, so the comparison with LEMON
// uses wall-clock times: the median over all gradients and repetitions of
// the ratio of the two runs of a pair, which were made back to back (and
// the ratio of the CPU times where LEMON's add up to 0.2 s or more). The
// comparisons among our own calls use the CPU time of the solving thread.
//
// With -distance nothing is timed: for the vertices v_from … v_iters of the
// same Frank–Wolfe run it prints the median support size and the median
// number of arcs whose flow differs from the previous vertex and from the
// nearest of the 16 previous ones, and how many vertices repeat an earlier
// one — how much of a solve a warm start (or a pool of kept bases) can
// save at best.
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
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"github.com/lazycg/lazycg/internal/datadir"
	"github.com/lazycg/lazycg/lmo"
	"github.com/lazycg/lazycg/lmo/internal/flowgrad"
)

func main() {
	var (
		data      = flag.String("data", "", "benchmark data directory (default $LAZYCG_DATA or ../shared/data)")
		instances = flag.String("instances", "", "comma-separated instance names under mcf/ (default: every .min and .min.gz file there)")
		iters     = flag.Int("iters", 10, "Frank–Wolfe iterations")
		from      = flag.Int("from", 1, "first Frank–Wolfe gradient compared")
		g0        = flag.Bool("g0", false, "also compare on ∇f(0), the costs of a start-vertex call (slow on large instances)")
		reps      = flag.Int("reps", 5, "alternating repetitions per timing")
		solver    = flag.String("solver", "dimacs-solver", "LEMON's dimacs-solver")
		verbose   = flag.Bool("v", false, "print a line per gradient")
		distance  = flag.Bool("distance", false, "instead of timing, print how far apart the Frank–Wolfe vertices v_from … v_iters are (arcs whose flow differs)")
	)
	flag.Parse()
	dataDir, ok := datadir.Find(*data)
	if !ok {
		fail(fmt.Errorf("no benchmark data directory: pass -data DIR or set %s", datadir.EnvVar))
	}
	if *from < 1 || *iters < *from+1 || *reps < 1 {
		fail(fmt.Errorf("need 1 ≤ -from < -iters and -reps ≥ 1"))
	}
	files, err := instanceFiles(dataDir, *instances)
	if err != nil {
		fail(err)
	}
	if *distance {
		fmt.Printf("Frank–Wolfe vertices v_k (the LMO's answer for g_k), k = %d…%d: medians of the support size, of the\n", *from, *iters)
		fmt.Printf("number of arcs whose flow differs from v_{k−1}, and from the nearest of v_{k−16} … v_{k−1}; repeats: v_k equal to an earlier v_j.\n")
		fmt.Printf("%-14s %8s %8s %10s %10s %8s\n", "instance", "arcs", "support", "vs prev", "vs near16", "repeats")
		for _, f := range files {
			if err := distances(f, *from, *iters); err != nil {
				fail(err)
			}
		}
		return
	}
	dir, err := os.MkdirTemp("", "lemonbench")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(dir)
	runtime.LockOSThread()
	b := &bench{dir: dir, solver: *solver, from: *from, iters: *iters, reps: *reps, g0: *g0, verbose: *verbose}
	fmt.Printf("Costs: gradients g_k = ∇f(x_{k−1}) of the paper's quadratic objective along Frank–Wolfe, k = %d…%d.\n", *from, *iters)
	fmt.Printf("LEMON: dimacs-solver -double, its NetworkSimplex run; lazycg: NetworkSimplex.Solve. %d alternating runs each.\n", *reps)
	fmt.Printf("Cold: seconds per call (medians of wall-clock time); ratio: median of the ratios lazycg/LEMON of\n")
	fmt.Printf("the wall-clock times of each pair of runs; worst: the largest such median of a single gradient;\n")
	fmt.Printf("CPU: ratio of total CPU times (LEMON reports 10 ms ticks: shown from 0.2 s on). Ours: CPU ms per call of\n")
	fmt.Printf("g_%d…g_%d cold, warm (solved in order from the previous basis) and by the flow LMO (warm or\n", *from+1, *iters)
	fmt.Printf("cold by the work of earlier calls), with the speedups over cold.\n")
	fmt.Printf("%-14s %8s | %-40s | %-45s\n", "", "", "             cold, per call", "        ours: cold, warm, LMO (CPU ms)")
	fmt.Printf("%-14s %8s | %9s %9s %6s %6s %6s | %9s %9s %7s %9s %7s\n",
		"instance", "arcs", "LEMON", "lazycg", "ratio", "worst", "CPU", "cold", "warm", "speedup", "LMO", "speedup")
	for _, f := range files {
		if err := b.instance(f); err != nil {
			fail(err)
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "lemonbench:", err)
	os.Exit(1)
}

// instanceFiles lists the instances to run: the named ones (with or
// without the .min/.min.gz suffix or the netgen_8_ prefix), or all.
func instanceFiles(data, names string) ([]string, error) {
	mcf := filepath.Join(data, "mcf")
	if names == "" {
		var files []string
		for _, pat := range []string{"*.min", "*.min.gz"} {
			m, err := filepath.Glob(filepath.Join(mcf, pat))
			if err != nil {
				return nil, err
			}
			files = append(files, m...)
		}
		if len(files) == 0 {
			return nil, fmt.Errorf("no .min files in %s", mcf)
		}
		slices.Sort(files)
		return files, nil
	}
	var files []string
	for _, name := range strings.Split(names, ",") {
		name = strings.TrimSpace(name)
		found := ""
		for _, c := range []string{name, name + ".min", name + ".min.gz", "netgen_8_" + name + ".min", "netgen_8_" + name + ".min.gz"} {
			if st, err := os.Stat(filepath.Join(mcf, c)); err == nil && !st.IsDir() {
				found = filepath.Join(mcf, c)
				break
			}
		}
		if found == "" {
			return nil, fmt.Errorf("instance %q not found in %s", name, mcf)
		}
		files = append(files, found)
	}
	return files, nil
}

type bench struct {
	dir, solver string
	from, iters int
	reps        int
	g0, verbose bool
}

// timing is one solve's wall-clock and CPU seconds.
type timing struct{ wall, cpu float64 }

// instanceName is the instance's file name without .min/.min.gz.
func instanceName(path string) string {
	return strings.TrimSuffix(strings.TrimSuffix(filepath.Base(path), ".gz"), ".min")
}

func (b *bench) instance(path string) error {
	name := instanceName(path)
	net, err := lmo.ReadDIMACSFile(path)
	if err != nil {
		return err
	}
	grads, err := flowgrad.Gradients(net, b.from, b.iters)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	s, err := lmo.NewNetworkSimplex(net)
	if err != nil {
		return err
	}
	ctx := context.Background()
	runtime.GC() // no collection of the generation's garbage during the timings

	// Cold solves of g_from … g_iters, alternating with LEMON.
	lemonT := make([]timing, len(grads))
	coldT := make([]timing, len(grads))
	var ratios []float64 // paired wall-clock ratios, all gradients
	worst := 0.0         // largest median paired ratio of a gradient
	for k, g := range grads {
		var r []float64
		if lemonT[k], coldT[k], r, err = b.compare(s, net, fmt.Sprintf("%s_g%d", name, b.from+k), g); err != nil {
			return err
		}
		ratios = append(ratios, r...)
		worst = math.Max(worst, median(r))
	}

	// Warm solves: replay the sequence, call k starting from the basis of
	// call k−1; g_from is solved untimed.
	x := make([]float64, len(net.Arcs))
	runs := make([][]timing, len(grads))
	pivots := make([]int64, len(grads))
	for range b.reps {
		s.Reset()
		for k, g := range grads {
			var err error
			p := s.Pivots()
			tm := measure(func() { _, err = s.Solve(ctx, x, g) })
			if err != nil {
				return fmt.Errorf("%s gradient %d (warm): %w", name, b.from+k, err)
			}
			runs[k] = append(runs[k], tm)
			pivots[k] = s.Pivots() - p
		}
	}
	// The flow LMO's policy (lmo.FlowPolytope.Minimize): warm or cold by
	// the work of earlier calls; g_from is solved untimed.
	lmoRuns := make([][]timing, len(grads))
	for range b.reps {
		p, err := lmo.NewFlowPolytope(net)
		if err != nil {
			return err
		}
		for k, g := range grads {
			var err error
			tm := measure(func() { _, err = p.Minimize(ctx, x, g) })
			if err != nil {
				return fmt.Errorf("%s gradient %d (LMO): %w", name, b.from+k, err)
			}
			lmoRuns[k] = append(lmoRuns[k], tm)
		}
	}
	warmT := make([]timing, len(grads))
	lmoT := make([]timing, len(grads))
	for k := range grads {
		warmT[k] = summary(runs[k])
		lmoT[k] = summary(lmoRuns[k])
		if b.verbose {
			fmt.Printf("  g%-4d LEMON %.4f (CPU %.2f)  cold %.4f (CPU %.4f)  warm CPU %.4f (%d pivots)  LMO CPU %.4f\n",
				b.from+k, lemonT[k].wall, lemonT[k].cpu, coldT[k].wall, coldT[k].cpu, warmT[k].cpu, pivots[k], lmoT[k].cpu)
		}
	}
	var sumL, sumC, sumLC, sumCC, c2, w2, l2 float64
	for k := range grads {
		sumL += lemonT[k].wall
		sumC += coldT[k].wall
		sumLC += lemonT[k].cpu
		sumCC += coldT[k].cpu
		if k >= 1 {
			c2 += coldT[k].cpu
			w2 += warmT[k].cpu
			l2 += lmoT[k].cpu
		}
	}
	ng, nw := float64(len(grads)), float64(len(grads)-1)
	cpuRatio := "     -"
	if sumLC >= 0.2 {
		cpuRatio = fmt.Sprintf("%6.2f", sumCC/sumLC)
	}
	fmt.Printf("%-14s %8d | %9.4f %9.4f %6.2f %6.2f %s | %9.3f %9.3f %7.2f %9.3f %7.2f\n",
		name, len(net.Arcs), sumL/ng, sumC/ng, median(ratios), worst, cpuRatio, 1e3*c2/nw, 1e3*w2/nw, c2/w2, 1e3*l2/nw, c2/l2)

	if b.g0 {
		g0, err := flowgrad.StartGradient(net)
		if err != nil {
			return err
		}
		l, c, r, err := b.compare(s, net, name+"_g0", g0)
		if err != nil {
			return err
		}
		cpu := "     -"
		if l.cpu >= 0.2 {
			cpu = fmt.Sprintf("%6.2f", c.cpu/l.cpu)
		}
		fmt.Printf("%-14s %8s | %9.4f %9.4f %6.2f %6s %s |\n", "  ∇f(0)", "", l.wall, c.wall, median(r), "", cpu)
	}
	return nil
}

// distances prints how far apart the vertices v_from … v_iters of a
// Frank–Wolfe run over the instance in path are (see the -distance flag):
// a warm start from the basis of v_{k−1} has to change the flow on the
// arcs where v_k differs from it.
func distances(path string, from, iters int) error {
	name := instanceName(path)
	net, err := lmo.ReadDIMACSFile(path)
	if err != nil {
		return err
	}
	m := len(net.Arcs)
	const window = 16
	var (
		recent           [][]float64 // the last window vertices, oldest first
		seen             = map[string]bool{}
		supp, prev, near []float64
		repeats          int
		key              []byte
	)
	differ := func(a, b []float64) int {
		n := 0
		for i := range a {
			if a[i] != b[i] {
				n++
			}
		}
		return n
	}
	err = flowgrad.Run(net, iters, func(k int, _, v []float64) {
		key = key[:0]
		n := 0
		for i, x := range v {
			if x != 0 {
				n++
				key = fmt.Appendf(key, "%d:%g,", i, x)
			}
		}
		if k >= from && len(recent) > 0 {
			supp = append(supp, float64(n))
			prev = append(prev, float64(differ(v, recent[len(recent)-1])))
			best := m
			for _, r := range recent {
				best = min(best, differ(v, r))
			}
			near = append(near, float64(best))
			if seen[string(key)] {
				repeats++
			}
		}
		seen[string(key)] = true
		if len(recent) == window {
			recent = append(recent[:0], recent[1:]...)
		}
		recent = append(recent, slices.Clone(v))
	})
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if len(supp) == 0 {
		return fmt.Errorf("%s: no vertices compared", name)
	}
	fmt.Printf("%-14s %8d %8.0f %10.0f %10.0f %4d/%-4d\n", name, m, median(supp), median(prev), median(near), repeats, len(supp))
	return nil
}

// compare solves net with costs g by LEMON and by a cold lazycg solve in
// alternating runs, checks that the optimal costs agree and returns the
// time summaries and the ratios ours/LEMON of the wall-clock times of
// each pair of runs.
func (b *bench) compare(s *lmo.NetworkSimplex, net *lmo.FlowNetwork, label string, g []float64) (lemonT, coldT timing, ratios []float64, err error) {
	file := filepath.Join(b.dir, label+".min")
	if err := writeCosts(file, net, g); err != nil {
		return timing{}, timing{}, nil, err
	}
	defer os.Remove(file)
	x := make([]float64, len(g))
	var tl, tc []timing
	var lemonCost, ours float64
	for range b.reps {
		t, c, err := lemon(b.solver, file)
		if err != nil {
			return timing{}, timing{}, nil, fmt.Errorf("%s: %w", label, err)
		}
		tl, lemonCost = append(tl, t), c
		// LEMON's solve starts with its data in the cache (it follows the
		// reading and setup phases); ours is timed on the second of two
		// cold solves for the same reason.
		s.Reset()
		if _, err := s.Solve(context.Background(), x, g); err != nil {
			return timing{}, timing{}, nil, fmt.Errorf("%s: lazycg: %w", label, err)
		}
		s.Reset()
		var v float64
		tm := measure(func() { v, err = s.Solve(context.Background(), x, g) })
		if err != nil {
			return timing{}, timing{}, nil, fmt.Errorf("%s: lazycg: %w", label, err)
		}
		tc, ours = append(tc, tm), v
		ratios = append(ratios, tm.wall/t.wall)
	}
	if math.Abs(ours-lemonCost) > 2e-5*math.Max(math.Abs(ours), math.Abs(lemonCost)) {
		return timing{}, timing{}, nil, fmt.Errorf("%s: optimal costs differ: lazycg %.9g, LEMON %.6g", label, ours, lemonCost)
	}
	return summary(tl), summary(tc), ratios, nil
}

// measure runs f and returns its wall-clock time and the CPU time of the
// calling thread (which main locked to its OS thread).
func measure(f func()) timing {
	c0 := threadCPU()
	t0 := time.Now()
	f()
	return timing{wall: time.Since(t0).Seconds(), cpu: threadCPU() - c0}
}

// threadCPU returns the CPU seconds of the calling thread
// (clock_gettime with CLOCK_THREAD_CPUTIME_ID, which is exact where
// getrusage counts ticks).
func threadCPU() float64 {
	const clockThreadCPUTime = 3 // CLOCK_THREAD_CPUTIME_ID (Linux)
	var ts syscall.Timespec
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0
	}
	return float64(ts.Nano()) / 1e9
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
	lemonTime = regexp.MustCompile(`Run NetworkSimplex: u: (\S+)s, s: (\S+)s, cu: \S+s, cs: \S+s, real: (\S+)s`)
	lemonCost = regexp.MustCompile(`Min flow cost: (\S+)`)
)

// lemon runs dimacs-solver -double on file and returns the time of its
// NetworkSimplex run and the optimal cost it printed.
func lemon(solver, file string) (timing, float64, error) {
	out, err := exec.Command(solver, "-double", file, os.DevNull).CombinedOutput()
	if err != nil {
		return timing{}, 0, fmt.Errorf("%s: %w\n%s", solver, err, out)
	}
	t := lemonTime.FindSubmatch(out)
	c := lemonCost.FindSubmatch(out)
	if t == nil || c == nil {
		return timing{}, 0, fmt.Errorf("%s: unexpected output (no run time or optimal cost):\n%s", solver, out)
	}
	var v [4]float64
	for i, s := range [][]byte{t[1], t[2], t[3], c[1]} {
		if v[i], err = strconv.ParseFloat(string(s), 64); err != nil {
			return timing{}, 0, fmt.Errorf("%s: cannot parse %q in its output", solver, s)
		}
	}
	return timing{wall: v[2], cpu: v[0] + v[1]}, v[3], nil
}

// summary returns the median wall-clock time and the mean CPU time (a
// mean, because LEMON's CPU times are counted in ticks).
func summary(ts []timing) timing {
	w := make([]float64, len(ts))
	var c float64
	for i, t := range ts {
		w[i] = t.wall
		c += t.cpu / float64(len(ts))
	}
	return timing{wall: median(w), cpu: c}
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
