// Command oraclebench measures one call of the CBC-backed oracle of package
// mip and prints it as a JSON line (see scripts/bench-oracle.sh):
//
//	oraclebench -model FILE.mps[.gz] -cost file|quadratic -target first|gap|optimal [-cap 300s] [-preprocess auto|off|on] [-search auto|standard|light]
//	oraclebench -model FILE -cost quadratic -write-mps OUT.mps   (the model with these costs, for cbc)
//	oraclebench -model FILE -sep 12                               (early vs exact separation calls)
//	oraclebench -model FILE -lp 10 [-firstlp warm|cold|auto]      (first LPs of perturbed costs)
//	oraclebench -model cut:28 -cost quadratic ...   (the cut polytope of K_28 in the standard formulation, costs on its edge columns)
//	oraclebench -model cut-tri:28 ...               (the same with the triangle inequalities: cut:28,triangles=1)
//	oraclebench -model cut-pool:28 ...              (the triangle inequalities as a cut pool: cut:28,triangles=cuts)
//	oraclebench -replay LOG -polytope SPEC [-session N] [-replay-out FILE] [-parallel N] [-dive|-best-first]
//	                                (ask a call log's questions again: see mip.Options.CallLog)
//	oraclebench -table DIR                 (Markdown tables from DIR/lazycg.jsonl, cbc.jsonl, sep.jsonl)
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/lazycg/lazycg/mip"
	"github.com/lazycg/lazycg/mip/cbc"
	"github.com/lazycg/lazycg/mip/cbc/internal/bench"
)

func main() {
	model := flag.String("model", "", "MPS file, or cut:N (cut-tri:N: with the triangle inequalities; cut-pool:N: with them as a cut pool) for the cut polytope of the complete graph K_N in mip.CutPolytope's formulation")
	cost := flag.String("cost", "file", "objective: file (the file's) or quadratic (∇f(½·1) of the paper's quadratic, seed 1)")
	target := flag.String("target", "optimal", "first, gap (10%) or optimal")
	cpuCap := flag.Duration("cap", 300*time.Second, "CPU time cap of the call (0: none); with -sep, the wall-clock limit of each call")
	pre := flag.String("preprocess", "auto", "CBC's integer preprocessing: auto (the first call of a solver, the default), off or on")
	search := flag.String("search", "auto", "the backend's search: auto, standard or light")
	write := flag.String("write-mps", "", "write the model with the chosen costs to this file and exit")
	sep := flag.Int("sep", 0, "measure this many early-terminated separation calls against exact calls")
	lps := flag.Int("lp", 0, "measure this many warm LP re-solves (the first LP of an oracle call) for perturbed file costs")
	firstLP := flag.String("firstlp", "warm", "with -lp: how the first LPs start: warm, cold or auto (mip.Options.FirstLP)")
	tableDir := flag.String("table", "", "print the Markdown tables of the results in this directory and exit")
	replayLog := flag.String("replay", "", "ask the calls of this call log (a polytope spec's calls=FILE) again of -polytope's solver")
	polytope := flag.String("polytope", "", "with -replay: the polytope spec whose solver answers (e.g. cut:28,triangles=cuts)")
	session := flag.Int("session", -1, "with -replay: the log's session (0 = first; negative counts from the end)")
	replayOut := flag.String("replay-out", "", "with -replay: write one JSON line per replayed call to this file")
	dive := flag.Bool("dive", false, "with -replay: ask every weak separation call to dive for an improving vertex first (lazycg.StopRule.Dive), as the second instance of the race policy does")
	bestFirst := flag.Bool("best-first", false, "with -replay: ask every weak separation call to search best-first for its bound (StopRule.Dive cleared), as lazycg's -dive=false does")
	parallel := flag.Int("parallel", 1, "with -replay: ask the calls on this many solvers side by side (call i on solver i mod N), to measure how concurrent calls slow each other")
	flag.Parse()
	if *replayLog != "" {
		order := ""
		switch {
		case *dive && *bestFirst:
			fmt.Fprintln(os.Stderr, "oraclebench: -dive and -best-first exclude each other")
			os.Exit(2)
		case *dive:
			order = "dive"
		case *bestFirst:
			order = "best-first"
		}
		if err := replay(*replayLog, *polytope, *session, *cpuCap, *replayOut, *parallel, order); err != nil {
			fmt.Fprintln(os.Stderr, "oraclebench:", err)
			os.Exit(1)
		}
		return
	}
	if *tableDir != "" {
		if err := table(os.Stdout, *tableDir); err != nil {
			fmt.Fprintln(os.Stderr, "oraclebench:", err)
			os.Exit(1)
		}
		return
	}
	var opts mip.Options
	var err error
	if opts.Search, err = mip.ParseSearch(*search); err == nil {
		opts.Preprocess, err = mip.ParsePreprocess(*pre)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "oraclebench:", err)
		os.Exit(2)
	}
	if *lps > 0 {
		fl, err := mip.ParseFirstLP(*firstLP)
		var m *mip.Model
		if err == nil {
			m, err = mip.ReadMPSFile(*model)
		}
		if err == nil {
			var t time.Duration
			var b float64
			if t, b, err = bench.LPResolves(m, *lps, fl); err == nil {
				err = emit(map[string]any{"model": m.Name, "rows": m.NumRows(), "cols": m.NumCols(), "lp_resolves": *lps,
					"first_lp": fl.String(), "cpu_s": t.Seconds(), "last_bound": b})
			}
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "oraclebench:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*model, *cost, bench.Target(*target), *cpuCap, opts, *write, *sep); err != nil {
		fmt.Fprintln(os.Stderr, "oraclebench:", err)
		os.Exit(1)
	}
}

func run(path, cost string, target bench.Target, cpuCap time.Duration, opts mip.Options, write string, sep int) error {
	if path == "" {
		return fmt.Errorf("-model is required")
	}
	m, coords, name, err := loadModel(path)
	if err != nil {
		return err
	}
	if sep > 0 {
		r, err := bench.Separation(m, sep, cpuCap)
		if err != nil {
			return err
		}
		return emit(map[string]any{"model": name, "sep_calls": r.Calls, "exact_cpu_s": r.ExactCPU.Seconds(),
			"early_cpu_s": r.EarlyCPU.Seconds(), "ratio": r.EarlyCPU.Seconds() / r.ExactCPU.Seconds(),
			"improving": r.Improving, "certified": r.Certs, "exact_capped": r.ExactCapped, "early_capped": r.EarlyCapped,
			"call_limit_s": cpuCap.Seconds()})
	}
	var c []float64
	switch cost {
	case "file":
		if coords != nil {
			return fmt.Errorf("%s has no objective of its own: use -cost quadratic", path)
		}
		c = append([]float64(nil), m.Obj...)
		if m.Maximize {
			for j := range c {
				c[j] = -c[j]
			}
		}
	case "quadratic":
		if coords == nil {
			if c, err = bench.QuadraticCost(m.NumCols()); err != nil {
				return err
			}
			break
		}
		// The polytope's coordinates get the gradient, auxiliary
		// columns nothing, as in the methods' calls.
		g, err := bench.QuadraticCost(len(coords))
		if err != nil {
			return err
		}
		c = make([]float64, m.NumCols())
		for i, j := range coords {
			c[j] = g[i]
		}
	default:
		return fmt.Errorf("unknown -cost %q (file or quadratic)", cost)
	}
	if write != "" {
		w := *m
		w.Obj, w.ObjConst, w.Maximize = c, 0, false
		f, err := os.Create(write)
		if err != nil {
			return err
		}
		if err := mip.WriteMPS(f, &w); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}
	r, err := bench.Solve(m, c, target, opts, cpuCap)
	if err != nil {
		return err
	}
	out := map[string]any{"model": name, "cost": cost, "target": string(target), "preprocess": opts.Preprocess.String(), "search": opts.Search.String(), "search_used": cbc.Resolve(m, opts.Search).String(),
		"cpu_s": r.CPU.Seconds(), "user_s": r.User.Seconds(), "wall_s": r.Wall.Seconds(), "capped": r.Capped, "found": r.Found,
		"reason": r.Reason.String(), "nodes": r.Nodes, "cap_s": cpuCap.Seconds()}
	if r.Found {
		out["value"] = r.Value
	}
	if !math.IsInf(r.Bound, -1) {
		out["bound"] = r.Bound
	}
	return emit(out)
}

// loadModel reads the MPS file path, or builds the formulation a "cut:N",
// "cut-tri:N" or "cut-pool:N" spec names (mip.CutPolytope of the complete
// graph K_N, without the triangle inequalities, with them as rows or as a
// cut pool, as lazycg's "cut:N", "cut:N,triangles=1" and
// "cut:N,triangles=cuts"; coords are then its edge columns, else nil).
func loadModel(path string) (m *mip.Model, coords []int, name string, err error) {
	for _, kind := range []struct {
		prefix string
		opt    mip.CutOptions
	}{{"cut:", mip.CutOptions{}}, {"cut-tri:", mip.CutOptions{Triangles: true}}, {"cut-pool:", mip.CutOptions{TriangleCuts: true}}} {
		rest, ok := strings.CutPrefix(path, kind.prefix)
		if !ok {
			continue
		}
		n, err := strconv.Atoi(rest)
		if err != nil || n < 2 || n > 500 {
			return nil, nil, "", fmt.Errorf("-model %s: want cut:N, cut-tri:N or cut-pool:N with 2 ≤ N ≤ 500", path)
		}
		f, err := mip.CutPolytope(n, mip.RandomGraph(n, 1, 1), kind.opt)
		if err != nil {
			return nil, nil, "", err
		}
		return f.Model, f.Vars, strings.TrimSuffix(kind.prefix, ":") + "-" + rest, nil
	}
	m, err = mip.ReadMPSFile(path)
	if err != nil {
		return nil, nil, "", err
	}
	return m, nil, strings.TrimSuffix(strings.TrimSuffix(filepath.Base(path), ".gz"), ".mps"), nil
}

func emit(v map[string]any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	fmt.Println(string(b))
	return nil
}
