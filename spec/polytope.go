package spec

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/internal/datadir"
	"github.com/lazycg/lazycg/lmo"
)

// Options configure how polytope specs are realized.
type Options struct {
	// DataDir is the benchmark data directory flag ("" = $LAZYCG_DATA or
	// ../shared/data); relative file names not found in the working
	// directory are looked up there.
	DataDir string
	// OracleGap is the relative gap of solver-backed oracles (0 = exact);
	// the paper's non-lazy baselines used 0.1.
	OracleGap float64
	// OracleTimeLimit bounds each solver-backed oracle call (0 = none).
	OracleTimeLimit time.Duration
	// MemoryBudget bounds the estimated memory of a run over the
	// instance (0: DefaultMemoryBudget; negative: none). A spec whose
	// estimate exceeds it is refused before anything large is allocated.
	MemoryBudget int64
	// Context bounds the setup's solver work: loading a model into CBC
	// and the first vertex of the quadratic objective's scale=auto (nil:
	// context.Background()). Config.PrepareContext sets it, so that a
	// setup abandoned at its deadline stops solving instead of finishing
	// in the background.
	Context context.Context
	// SolverCopies is the number of instances of a solver-backed oracle
	// the run will hold (2 under concurrent weak separation's fork
	// policy, which loads the model a second time; 0 or 1 = one): the
	// memory estimate counts the model that many times.
	SolverCopies int

	// mem is the memory account of the run (set by Polytope).
	mem *memAccount
}

// ctx returns the options' Context, or context.Background().
func (o *Options) ctx() context.Context {
	if o.Context != nil {
		return o.Context
	}
	return context.Background()
}

// Instance is a polytope realized from a spec.
type Instance struct {
	// Spec is the text the instance was built from.
	Spec string
	// LMO is the linear minimization oracle.
	LMO lazycg.LMO
	// Start is a vertex to start from (nil: let the driver choose): the
	// vertex of a lazycg.Vertexer, or the known vertex of a
	// lazycg.VertexHinter.
	Start []float64
	// Check verifies that x lies in the polytope (nil when unavailable).
	Check func(x []float64, tol float64) error
	// Diameter2 is an upper bound on the squared Euclidean diameter
	// (0 when unknown); used to estimate curvature constants.
	Diameter2 float64
	// Rows and Cols give the matrix shape of matrix polytopes (nuclear ball,
	// Birkhoff); 0 otherwise.
	Rows, Cols int
	// Close releases solver resources.
	Close func()
	// Own is the linear objective defined by the polytope's file, if any.
	Own *OwnObjective

	// mem is the memory account the objective or the losses add to.
	mem *memAccount
	// factors are the instances of a product's factors (nil otherwise).
	factors []*Instance
}

// Dim returns the dimension of the instance.
func (in *Instance) Dim() int { return in.LMO.Dim() }

// polytopeKinds maps spec kinds to builders; further kinds are registered by
// other files of this package (MIP-backed and graph polytopes).
var polytopeKinds = map[string]func(s *Spec, opt Options) (*Instance, error){
	"simplex":          buildSimplex,
	"unitsimplex":      buildSimplex,
	"l1":               buildL1,
	"box":              buildHypercube,
	"hypercube":        buildHypercube,
	"ksparse":          buildKSparse,
	"hypersimplex":     buildHypersimplex,
	"unithypersimplex": buildHypersimplex,
	"birkhoff":         buildBirkhoff,
	"spanningtree":     buildSpanningTree,
	"nuclear":          buildNuclear,
}

// PolytopeKinds lists the accepted polytope kinds.
func PolytopeKinds() []string {
	ks := make([]string, 0, len(polytopeKinds))
	for k := range polytopeKinds {
		ks = append(ks, k)
	}
	return sortedStrings(ks)
}

// Polytope builds the polytope described by text, e.g. "simplex:100",
// "birkhoff:20", "flow:netgen_8_08a.min", "mps:eil33-2.mps.gz",
// "l2:50,r=2", "hull:atoms.txt", "product:[simplex:10]*3[l1:5]" (see
// polytope_norms.go for the norm balls, hulls and products).
func Polytope(text string, opt Options) (*Instance, error) {
	// One account for the whole run: a product's factors add to it, and
	// the objective or the losses over the product too.
	if opt.mem == nil {
		mem, err := newMemAccount(opt.MemoryBudget)
		if err != nil {
			return nil, err
		}
		mem.copies = opt.SolverCopies
		opt.mem = mem
	}
	if in, ok, err := productSpec(text, opt); ok {
		if in != nil {
			in.mem = opt.mem
		}
		return in, err
	}
	s, err := Parse(text)
	if err != nil {
		return nil, err
	}
	b, ok := polytopeKinds[s.Kind]
	if !ok {
		return nil, fmt.Errorf("spec: unknown polytope kind %q in %q (known: %v)", s.Kind, text, PolytopeKinds())
	}
	in, err := b(s, opt)
	if err != nil {
		return nil, err
	}
	if err := s.Unused(); err != nil {
		if in.Close != nil {
			in.Close()
		}
		return nil, err
	}
	in.Spec, in.mem = text, opt.mem
	if in.Start == nil {
		start := make([]float64, in.LMO.Dim())
		if v, ok := in.LMO.(lazycg.Vertexer); ok {
			v.Vertex(start)
			in.Start = start
		} else if h, ok := in.LMO.(lazycg.VertexHinter); ok && h.KnownVertex(start) {
			// A vertex the formulation is built around (a tour, the
			// empty cut): runs start without waiting for the solver.
			in.Start = start
		}
	}
	if in.Close == nil {
		in.Close = func() {}
	}
	return in, nil
}

// ResolveFile finds a data file: as given (relative to the working
// directory), else inside the data directory.
func ResolveFile(name string, opt Options) (string, error) {
	if _, err := os.Stat(name); err == nil {
		return name, nil
	}
	if filepath.IsAbs(name) {
		return "", fmt.Errorf("spec: file %s does not exist", name)
	}
	// The data directory named by the flag or the environment (as
	// datadir.Find reads them) may exist as something else than a
	// directory: say so rather than that it does not exist.
	for _, d := range []string{opt.DataDir, os.Getenv(datadir.EnvVar)} {
		if d == "" {
			continue
		}
		if st, err := os.Stat(d); err == nil && !st.IsDir() {
			return "", fmt.Errorf("spec: data directory %s is not a directory (needed for %s)", d, name)
		}
		break
	}
	return datadir.File(opt.DataDir, name)
}

// fileArg checks that the spec has exactly one argument, a file name,
// resolves it (see ResolveFile) and reserves the memory of its parsed
// form.
func (s *Spec) fileArg(opt Options, usage string) (string, error) {
	if err := s.NArgs(1, 1, usage); err != nil {
		return "", err
	}
	path, err := ResolveFile(s.Args[0], opt)
	if err != nil {
		return "", err
	}
	return path, opt.mem.reserveFile(s, path)
}

const maxDim = 1 << 26

func buildSimplex(s *Spec, opt Options) (*Instance, error) {
	n, r, err := dimRadius(s, opt, 1, 1, s.Kind+":N[,r=RADIUS]", 0)
	if err != nil {
		return nil, err
	}
	if s.Kind == "unitsimplex" {
		l, err := lmo.NewUnitSimplex(n, r)
		if err != nil {
			return nil, err
		}
		return &Instance{LMO: l, Diameter2: 2 * r * r}, nil
	}
	l, err := lmo.NewProbabilitySimplex(n, r)
	if err != nil {
		return nil, err
	}
	return &Instance{LMO: l, Diameter2: 2 * r * r}, nil
}

func buildL1(s *Spec, opt Options) (*Instance, error) {
	n, r, err := dimRadius(s, opt, 1, 1, "l1:N[,r=RADIUS]", 0)
	if err != nil {
		return nil, err
	}
	l, err := lmo.NewL1Ball(n, r)
	if err != nil {
		return nil, err
	}
	return &Instance{LMO: l, Diameter2: 4 * r * r}, nil
}

func buildHypercube(s *Spec, opt Options) (*Instance, error) {
	if err := s.NArgs(1, 1, s.Kind+":N"); err != nil {
		return nil, err
	}
	n, err := s.Int(0, "N", 1, maxDim)
	if err != nil {
		return nil, err
	}
	if err := opt.mem.reserveDim(s, float64(n), 0); err != nil {
		return nil, err
	}
	l, err := lmo.NewHypercube(n)
	if err != nil {
		return nil, err
	}
	return &Instance{LMO: l, Diameter2: float64(n)}, nil
}

// nkArgs reads the arguments N and K (1 ≤ K ≤ N) and the option name
// (default 1) of the polytopes whose oracles select K of N coordinates,
// and reserves their memory: an index and a key buffer.
func nkArgs(s *Spec, opt Options, usage, name string) (n, k int, v float64, err error) {
	if err = s.NArgs(2, 2, usage); err != nil {
		return
	}
	if n, err = s.Int(0, "N", 1, maxDim); err != nil {
		return
	}
	if k, err = s.Int(1, "K", 1, n); err != nil {
		return
	}
	if v, err = s.OptFloat(name, 1, scaleLo, scaleHi); err != nil {
		return
	}
	err = opt.mem.reserveDim(s, float64(n), 12*float64(n))
	return
}

func buildKSparse(s *Spec, opt Options) (*Instance, error) {
	n, k, tau, err := nkArgs(s, opt, "ksparse:N,K[,tau=T]", "tau")
	if err != nil {
		return nil, err
	}
	l, err := lmo.NewKSparse(n, k, tau)
	if err != nil {
		return nil, err
	}
	return &Instance{LMO: l, Diameter2: 4 * float64(k) * tau * tau}, nil
}

// buildHypersimplex: hypersimplex:N,K[,r=R] — {x ∈ [0, R]^N : Σ x = K·R};
// unithypersimplex:N,K[,r=R] — Σ x ≤ K·R.
func buildHypersimplex(s *Spec, opt Options) (*Instance, error) {
	n, k, r, err := nkArgs(s, opt, s.Kind+":N,K[,r=RADIUS]", "r")
	if err != nil {
		return nil, err
	}
	newH := lmo.NewHypersimplex
	if s.Kind == "unithypersimplex" {
		newH = lmo.NewUnitHypersimplex
	}
	h, err := newH(n, k, r)
	if err != nil {
		return nil, err
	}
	return &Instance{LMO: h, Check: h.Check, Diameter2: h.Diameter2()}, nil
}

func buildBirkhoff(s *Spec, opt Options) (*Instance, error) {
	if err := s.NArgs(1, 1, "birkhoff:N"); err != nil {
		return nil, err
	}
	n, err := s.Int(0, "N", 1, 1<<12)
	if err != nil {
		return nil, err
	}
	// The Hungarian method keeps a dense cost matrix and O(n) buffers.
	if err := opt.mem.reserveDim(s, float64(n)*float64(n), 8*float64(n)*float64(n)); err != nil {
		return nil, err
	}
	l, err := lmo.NewBirkhoff(n)
	if err != nil {
		return nil, err
	}
	return &Instance{LMO: l, Diameter2: float64(2 * n), Rows: n, Cols: n}, nil
}

func buildSpanningTree(s *Spec, opt Options) (*Instance, error) {
	if err := s.NArgs(1, 1, "spanningtree:N (complete graph on N nodes)"); err != nil {
		return nil, err
	}
	n, err := s.Int(0, "N", 2, 1<<12)
	if err != nil {
		return nil, err
	}
	// Kruskal keeps the edge list, a sort order and a union-find.
	m := float64(n) * float64(n-1) / 2
	if err := opt.mem.reserveDim(s, m, 40*m); err != nil {
		return nil, err
	}
	l, err := lmo.CompleteGraphSpanningTree(n)
	if err != nil {
		return nil, err
	}
	return &Instance{LMO: l, Diameter2: float64(2 * (n - 1))}, nil
}

func buildNuclear(s *Spec, opt Options) (*Instance, error) {
	if err := s.NArgs(2, 3, "nuclear:M,N[,R] (or r=R)"); err != nil {
		return nil, err
	}
	m, err := s.Int(0, "M", 1, 1<<16)
	if err != nil {
		return nil, err
	}
	n, err := s.Int(1, "N", 1, 1<<16)
	if err != nil {
		return nil, err
	}
	r := 1.0
	if len(s.Args) == 3 {
		if _, dup := s.Opts["r"]; dup {
			return nil, fmt.Errorf("spec: %q: the radius R given twice (as the third argument and as r=): give one", s.Text)
		}
		if r, err = parseFloatArg(s, 2, "R"); err != nil {
			return nil, err
		}
		if r < scaleLo || r > scaleHi {
			return nil, fmt.Errorf("spec: %q: R must be a number in [%g, %g], got %q", s.Text, scaleLo, scaleHi, s.Args[2])
		}
	}
	if r, err = s.OptFloat("r", r, scaleLo, scaleHi); err != nil {
		return nil, err
	}
	// Lanczos bidiagonalization keeps at most 32 basis vectors of each
	// side (lmo.NuclearBall).
	if err := opt.mem.reserveDim(s, float64(m)*float64(n), 8*33*float64(m+n)); err != nil {
		return nil, err
	}
	l, err := lmo.NewNuclearBall(m, n, r)
	if err != nil {
		return nil, err
	}
	return &Instance{LMO: l, Diameter2: 4 * r * r, Rows: m, Cols: n}, nil
}
