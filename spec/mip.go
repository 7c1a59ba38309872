package spec

import (
	"fmt"
	"os"
	"strconv"

	"github.com/lazycg/lazycg/lmo"
	"github.com/lazycg/lazycg/mip"
)

func init() {
	polytopeKinds["mps"] = buildMPS
	polytopeKinds["tsp"] = buildTSP
	polytopeKinds["cut"] = buildCut
	polytopeKinds["spanningtree-ext"] = buildSpanningTreeExt
	polytopeKinds["qubo"] = buildQUBO
}

// OwnObjective is the linear objective a polytope file defines (an MPS
// objective, TSP arc lengths, a QUBO objective), used by "lazycg lmo" to
// validate the oracle against published optima. Value of a vertex x is
// Sign·(C·x) + Const, where Sign is −1 for maximization problems (C is then
// the negated file objective so that minimizing C·x solves the file's
// problem).
type OwnObjective struct {
	C     []float64
	Const float64
	Sign  float64
	Name  string
}

// maxCycleSteps bounds the steps of the enumeration of a QUBO's short
// cycles (qubo:FILE,cycles=1; mip.CycleCutCount), a few seconds (a
// variable for tests).
var maxCycleSteps = 100_000_000

// maxThreads bounds the threads=N option of solver-backed specs.
const maxThreads = 64

// mipInstance wraps a formulation into an Instance backed by CBC. The
// options search=auto|standard|light, preprocess=auto|off|on,
// firstlp=auto|warm|cold, pool=auto|on|off and threads=N of every
// solver-backed polytope spec set mip.Options.Search, Preprocess, FirstLP,
// Pool and Threads; calls=FILE appends the solver's call log
// (mip.Options.CallLog) to FILE.
func mipInstance(sp *Spec, f *mip.Formulation, opt Options) (*Instance, error) {
	o := mip.Options{RelGap: opt.OracleGap, TimeLimit: opt.OracleTimeLimit, Vars: f.Vars}
	var err error
	v := sp.OptString("search", "auto")
	if o.Search, err = mip.ParseSearch(v); err != nil {
		return nil, fmt.Errorf("spec: %s: search must be auto, standard or light, got %q", sp.label, v)
	}
	v = sp.OptString("preprocess", "auto")
	if o.Preprocess, err = mip.ParsePreprocess(v); err != nil {
		return nil, fmt.Errorf("spec: %s: preprocess must be auto, off or on, got %q", sp.label, v)
	}
	v = sp.OptString("firstlp", "auto")
	if o.FirstLP, err = mip.ParseFirstLP(v); err != nil {
		return nil, fmt.Errorf("spec: %s: firstlp must be auto, warm or cold, got %q", sp.label, v)
	}
	v = sp.OptString("pool", "auto")
	if o.Pool, err = mip.ParsePool(v); err != nil {
		return nil, fmt.Errorf("spec: %s: pool must be auto, on or off, got %q", sp.label, v)
	}
	if o.Threads, err = sp.OptInt("threads", 1, 1, maxThreads); err != nil {
		return nil, err
	}
	var log *os.File
	if path := sp.OptString("calls", ""); path != "" {
		if log, err = os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err != nil {
			return nil, fmt.Errorf("spec: %s: call log: %v", sp.label, err)
		}
		o.CallLog = log
	}
	s, err := mip.NewSolverContext(opt.ctx(), f.Model, o)
	if err != nil {
		if log != nil {
			log.Close()
		}
		return nil, fmt.Errorf("spec: %s: %w", sp.label, err)
	}
	closeAll := s.Close
	if log != nil {
		closeAll = func() {
			s.Close()
			log.Close()
		}
	}
	return &Instance{LMO: s, Close: closeAll, Diameter2: float64(len(f.Vars))}, nil
}

// buildMPS: mps:FILE[.gz] — the convex hull of the MIP's feasible points.
func buildMPS(s *Spec, opt Options) (*Instance, error) {
	path, err := s.fileArg(opt, "mps:FILE (free or fixed MPS, gzip accepted)")
	if err != nil {
		return nil, err
	}
	m, err := mip.ReadMPSFile(path)
	if err != nil {
		return nil, err
	}
	if err := opt.mem.reserveMIP(s, float64(m.NumRows()), float64(m.NumCols()), float64(m.NumNonzeros()), float64(m.NumCols())); err != nil {
		return nil, err
	}
	vars := make([]int, m.NumCols())
	for j := range vars {
		vars[j] = j
	}
	in, err := mipInstance(s, &mip.Formulation{Model: m, Vars: vars, Names: m.ColNames}, opt)
	if err != nil {
		return nil, err
	}
	own := OwnObjective{C: append([]float64(nil), m.Obj...), Const: m.ObjConst, Sign: 1, Name: "MPS objective of " + m.Name}
	if m.Maximize {
		for j := range own.C {
			own.C[j] = -own.C[j]
		}
		own.Sign = -1
	}
	in.Own = &own
	if m.Binary() {
		in.Diameter2 = float64(m.NumCols())
	} else {
		in.Diameter2 = 0
	}
	return in, nil
}

// buildTSP: tsp:FILE.tsp (TSPLIB) or tsp:N[,seed=S] (random Euclidean
// points) — the flow-based formulation of Hamiltonian cycles, directed arcs
// as coordinates; the tour lengths are the polytope's own objective.
func buildTSP(s *Spec, opt Options) (*Instance, error) {
	if err := s.NArgs(1, 1, "tsp:FILE.tsp or tsp:N[,seed=S]"); err != nil {
		return nil, err
	}
	// The flow formulation (mip.TSP): n(n−1) arcs and as many flows,
	// n(n−1) + 3n rows, 6n(n−1) nonzeros. A TSPLIB file is refused at its
	// DIMENSION, before its sections are read (an explicit matrix of
	// DIMENSION 20000 takes 5 GB to read, a file of 400 kB gzipped).
	reserve := func(nodes int) error {
		if nodes > mip.MaxTSPNodes {
			return fmt.Errorf("spec: %q: the flow formulation takes at most %d nodes, the instance has %d", s.Text, mip.MaxTSPNodes, nodes)
		}
		n, arcs := float64(nodes), float64(nodes)*float64(nodes-1)
		return opt.mem.reserveMIP(s, arcs+3*n, 2*arcs, 6*arcs, arcs)
	}
	var inst *mip.TSPInstance
	if n, err := strconv.Atoi(s.Args[0]); err == nil {
		if n < 3 || n > 200 {
			return nil, fmt.Errorf("spec: %q: N must be an integer in [3, 200]", s.Text)
		}
		seed, err := s.OptSeed(1)
		if err != nil {
			return nil, err
		}
		if err := reserve(n); err != nil {
			return nil, err
		}
		inst = mip.RandomTSP(n, seed)
	} else {
		path, err := ResolveFile(s.Args[0], opt)
		if err != nil {
			return nil, err
		}
		if err := opt.mem.reserveFile(s, path); err != nil {
			return nil, err
		}
		if inst, err = mip.ReadTSPLIBFileCheck(path, reserve); err != nil {
			return nil, err
		}
	}
	f, err := mip.TSP(inst.N)
	if err != nil {
		return nil, err
	}
	in, err := mipInstance(s, f, opt)
	if err != nil {
		return nil, err
	}
	in.Own = &OwnObjective{C: inst.ArcCosts(), Sign: 1, Name: "tour length of " + inst.Name}
	return in, nil
}

// buildCut: cut:N[,p=P][,seed=S][,triangles=0|1|cuts][,oracle=mip|enum] —
// the cut polytope of a random graph G(N, p) (p = 1: complete graph) in the
// standard formulation solved by CBC, with triangles=1 also with the
// triangle inequalities (mip.CutOptions); with oracle=enum the same
// polytope and coordinates solved by enumeration (lmo.Cut, N ≤
// lmo.MaxCutNodes).
func buildCut(s *Spec, opt Options) (*Instance, error) {
	if err := s.NArgs(1, 1, "cut:N[,p=P][,seed=S][,triangles=0|1|cuts][,oracle=mip|enum]"); err != nil {
		return nil, err
	}
	n, err := s.Int(0, "N", 2, 500)
	if err != nil {
		return nil, err
	}
	p, err := s.OptFloat("p", 1, 1e-9, 1)
	if err != nil {
		return nil, err
	}
	seed, err := s.OptSeed(1)
	if err != nil {
		return nil, err
	}
	switch v := s.OptString("oracle", "mip"); v {
	case "mip":
	case "enum":
		if v := s.OptString("triangles", "0"); v != "0" && v != "false" {
			return nil, fmt.Errorf("spec: %s: triangles are inequalities of the MIP formulation; oracle=enum does not use one", s.label)
		}
		if n > lmo.MaxCutNodes {
			return nil, fmt.Errorf("spec: %s: oracle=enum enumerates 2^(N−1) cuts and takes N ≤ %d, got %d (use oracle=mip)", s.label, lmo.MaxCutNodes, n)
		}
		edges := mip.RandomGraph(n, p, seed)
		if err := opt.mem.reserveDim(s, float64(len(edges)), 0); err != nil {
			return nil, err
		}
		l, err := lmo.NewCut(n, edges)
		if err != nil {
			return nil, err
		}
		return &Instance{LMO: l, Diameter2: float64(len(edges))}, nil
	default:
		return nil, fmt.Errorf("spec: %s: oracle must be mip or enum, got %q", s.label, v)
	}
	var co mip.CutOptions
	switch v := s.OptString("triangles", "0"); v {
	case "0", "false":
	case "1", "true":
		co.Triangles = true
	case "cuts":
		co.TriangleCuts = true
	default:
		return nil, fmt.Errorf("spec: %s: triangles must be 0, 1 or cuts, got %q", s.label, v)
	}
	edges := mip.RandomGraph(n, p, seed)
	// The standard formulation (mip.CutPolytope): 4 rows of 3 nonzeros
	// per edge, and as many rows (triangles=1) or pool entries
	// (triangles=cuts) per triangle.
	m, t := float64(len(edges)), 0.0
	if co.Triangles || co.TriangleCuts {
		t = float64(mip.Triangles(edges))
	}
	if err := opt.mem.reserveMIP(s, 4*(m+t), m+float64(n), 12*(m+t), m); err != nil {
		return nil, err
	}
	f, err := mip.CutPolytope(n, edges, co)
	if err != nil {
		return nil, err
	}
	return mipInstance(s, f, opt)
}

// buildSpanningTreeExt: spanningtree-ext:N — the spanning tree polytope of
// the complete graph on N nodes in the extended formulation with O(N³)
// inequalities, solved by CBC (the paper's section 7).
func buildSpanningTreeExt(s *Spec, opt Options) (*Instance, error) {
	if err := s.NArgs(1, 1, "spanningtree-ext:N"); err != nil {
		return nil, err
	}
	n, err := s.Int(0, "N", 2, 60)
	if err != nil {
		return nil, err
	}
	// Martin's formulation (mip.SpanningTreeExt): per root and edge two
	// arc columns and a few rows, about 8·n·m nonzeros for m edges.
	m := float64(n) * float64(n-1) / 2
	if err := opt.mem.reserveMIP(s, float64(n)*m+float64(n)*float64(n), m+2*float64(n)*m, 8*float64(n)*m, m); err != nil {
		return nil, err
	}
	f, err := mip.SpanningTreeExt(n, mip.CompleteGraph(n))
	if err != nil {
		return nil, err
	}
	return mipInstance(s, f, opt)
}

// buildQUBO: qubo:FILE[,cycles=0|1] — the linearized Boolean quadric
// polytope of a QUBO instance in Selby's format (e.g.
// qubo-chimera/439/1.txt); with cycles=1 the cycle inequalities of the
// coupling graph's short cycles as the model's cut pool (mip.CycleCuts).
func buildQUBO(s *Spec, opt Options) (*Instance, error) {
	path, err := s.fileArg(opt, "qubo:FILE[,cycles=0|1]")
	if err != nil {
		return nil, err
	}
	cycles, err := s.OptFlag("cycles")
	if err != nil {
		return nil, err
	}
	q, err := mip.ReadQUBOFile(path)
	if err != nil {
		return nil, err
	}
	// The standard linearization (mip.BooleanQuadric): a column and three
	// rows of at most three nonzeros per coupling; with cycles=1 the cut
	// pool's inequalities, counted as rows (the pool is held by the Go
	// model, the solver's copy and CBC). Their number is not a function
	// of the file's size (K_{120,120}, 130 kB, has 4·10⁸), so they are
	// counted first, the count stopping once they exceed what the budget
	// can hold or the enumeration takes too long.
	c := float64(len(q.Couplings))
	var poolRows, poolNonzeros float64
	counted := true
	if cycles {
		rows, nonzeros, ok := mip.CycleCutCount(q, opt.mem.lineCapacity(), maxCycleSteps)
		poolRows, poolNonzeros, counted = float64(rows), float64(nonzeros), ok
		if !ok && (opt.mem.lineCapacity() < 0 || rows <= opt.mem.lineCapacity()) {
			return nil, fmt.Errorf("spec: %s: cycles=1 enumerates the short cycles of the coupling graph (%d variables, %d couplings), which takes more than %.0g steps here (nodes of high degree); use cycles=0",
				s.label, q.N, len(q.Couplings), float64(maxCycleSteps))
		}
	}
	if err := opt.mem.reserveMIP(s, 3*c+poolRows, float64(q.N)+c, 9*c+poolNonzeros, float64(q.N)+c); err != nil {
		if !counted {
			// The count stopped once over the budget: the estimate
			// covers the inequalities counted so far, a lower bound.
			return nil, fmt.Errorf("%w; that counts only the first %.0f cycle inequalities (cycles=1), where counting stopped: there are more; use cycles=0", err, poolRows)
		}
		return nil, err
	}
	f, err := mip.BooleanQuadric(q)
	if err != nil {
		return nil, err
	}
	if cycles {
		f.Model.Cuts = mip.CycleCuts(q)
	}
	in, err := mipInstance(s, f, opt)
	if err != nil {
		return nil, err
	}
	in.Own = &OwnObjective{C: mip.QUBOObjective(q), Sign: 1, Name: "QUBO objective"}
	return in, nil
}
