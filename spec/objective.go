package spec

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/lmo"
	"github.com/lazycg/lazycg/objective"
)

// Objective builds the objective described by text over the instance:
//
//	distance[:seed=S,weight=W,center=V]      W·‖x − b‖², b uniform in [0,1]^n (W = 1), or
//	                                         b = (V, …, V) with center=V
//	quadratic[:seed=S,density=D,rows=R,scale=W] ‖Ax − b‖² as in the paper's section 7
//	                                         (b = A·w, w uniform in [0, W]; default
//	                                         W = auto, see QuadraticScale)
//	completion[:seed=S,rank=R,dense=1]       matrix completion over nuclear:M,N[,R]
//	                                         (rank R ≤ min(M, N); default min(10, M, N))
//	leastsquares:A,B                         ‖Ax − b‖² with A and b from files (Matrix
//	                                         Market, CSV or text; see objective.ReadMatrix)
//	zero                                     f = 0 (feasibility: consensus:zero)
//	consensus:KIND[,lambda=L,…]              over a product of N polytopes of one dimension
//	                                         n: λ·Σ_i f(x_i) + ½·Σ_{i<j} ‖x_i − x_j‖², f the
//	                                         objective KIND (with the other options) over the
//	                                         first factor (L = 0.01): alternating linear
//	                                         minimization of f over the factors' intersection
//	                                         (objective.NewConsensus)
//
// A completion objective is solved in Ω-coordinates: it replaces the
// instance's nuclear-norm ball by its projection onto the observed entries
// Ω (lmo.NuclearBallOn), so that the problem has dimension |Ω| and every
// iteration costs O(|Ω|) (see objective.MatrixCompletion.OnOmega); dense=1
// keeps the m·n formulation over the dense ball (for comparisons).
//
// Relative file names are looked up as ResolveFile does, in the data
// directory of ObjectiveWith's options.
func Objective(text string, in *Instance) (lazycg.Objective, error) {
	return ObjectiveWith(text, in, Options{})
}

// ObjectiveWith is Objective with the options of the run (the data
// directory of file objectives).
func ObjectiveWith(text string, in *Instance, opt Options) (lazycg.Objective, error) {
	s, err := Parse(text)
	if err != nil {
		return nil, err
	}
	switch s.Kind {
	case "leastsquares":
		return leastSquaresFiles(s, in, opt)
	case "consensus":
		return consensus(s, in, opt)
	}
	if len(s.Args) != 0 {
		return nil, fmt.Errorf("spec: %q: objective options are key=value (e.g. seed=1)", text)
	}
	n := in.Dim()
	seed, err := s.OptSeed(1)
	if err != nil {
		return nil, err
	}
	var obj lazycg.Objective
	switch s.Kind {
	case "distance":
		if err := in.mem.reserve(fmt.Sprintf("objective %q", text), "", 24*float64(n)); err != nil {
			return nil, err
		}
		obj, err = distance(s, n, seed)
	case "quadratic":
		var density float64
		var rows int
		if density, err = s.OptFloat("density", DefaultDensity(n), 1e-12, 1); err != nil {
			return nil, err
		}
		if rows, err = s.OptInt("rows", n, 1, maxDim); err != nil {
			return nil, err
		}
		var scale float64
		if scale, err = quadraticScale(opt.ctx(), s, in); err != nil {
			return nil, err
		}
		nnz := float64(rows) * float64(n) * density
		if nnz > 2e8 {
			return nil, fmt.Errorf("spec: %q: about %.3g nonzeros is too many; lower density or rows", text, nnz)
		}
		if err := in.mem.reserve(fmt.Sprintf("objective %q", text), fmt.Sprintf("%.3g nonzeros", nnz),
			leastSquaresBytes(float64(rows), float64(n), nnz)); err != nil {
			return nil, err
		}
		var ls *objective.LeastSquares
		if ls, err = objective.RandomLeastSquares(rows, n, density, seed); err == nil && scale != 1 {
			// b = A·w with w uniform in [0, scale]: scaling b scales w.
			b := append([]float64(nil), ls.B()...)
			for i := range b {
				b[i] *= scale
			}
			ls, err = objective.NewLeastSquares(ls.A(), b)
		}
		obj = ls
	case "completion":
		obj, err = completion(s, in, seed)
	case "zero":
		obj = objective.Zero{N: n}
	default:
		return nil, fmt.Errorf("spec: unknown objective kind %q (known: distance, quadratic, completion, leastsquares, consensus, zero)", s.Kind)
	}
	if err != nil {
		return nil, err
	}
	if err := s.Unused(); err != nil {
		return nil, err
	}
	return obj, nil
}

// consensus builds the consensus objective of s over a product instance:
// the objective named by s's argument, with s's other options, over the
// first factor, weighted by lambda.
func consensus(s *Spec, in *Instance, opt Options) (lazycg.Objective, error) {
	if len(s.Args) != 1 {
		return nil, fmt.Errorf("spec: %s: want consensus:KIND[,lambda=L,options of KIND]", s.label)
	}
	if len(in.factors) < 2 {
		return nil, fmt.Errorf("spec: %s: needs a product of at least two polytopes (product:[A][B]…), got %q", s.label, in.Spec)
	}
	n := in.factors[0].Dim()
	for k, f := range in.factors {
		if f.Dim() != n {
			return nil, fmt.Errorf("spec: %s: the factors must have one dimension: factor 0 has %d, factor %d has %d", s.label, n, k, f.Dim())
		}
	}
	lambda, err := s.OptFloat("lambda", 0.01, 1e-300, 1e300)
	if err != nil {
		return nil, err
	}
	inner := s.Args[0]
	var opts []string
	for k, v := range s.Opts {
		if k != "lambda" {
			opts = append(opts, k+"="+v)
			s.used[k] = true
		}
	}
	if len(opts) > 0 {
		sort.Strings(opts)
		inner += ":" + strings.Join(opts, ",")
	}
	if k, _, _ := strings.Cut(inner, ":"); strings.EqualFold(k, "consensus") || strings.EqualFold(k, "completion") {
		return nil, fmt.Errorf("spec: %s: the inner objective cannot be %s", s.label, k)
	}
	f, err := ObjectiveWith(inner, in.factors[0], opt)
	if err != nil {
		return nil, fmt.Errorf("spec: %s: %w", s.label, err)
	}
	return objective.NewConsensus(f, len(in.factors), lambda)
}

// distance builds W·‖x − b‖² of a distance spec s over R^n.
func distance(s *Spec, n int, seed uint64) (lazycg.Objective, error) {
	w, err := s.OptFloat("weight", 1, scaleLo, scaleHi)
	if err != nil {
		return nil, err
	}
	var b []float64
	if _, ok := s.Opts["center"]; ok {
		v, err := s.OptFloat("center", 0, -scaleHi, scaleHi)
		if err != nil {
			return nil, err
		}
		b = make([]float64, n)
		for i := range b {
			b[i] = v
		}
	} else {
		d, err := objective.RandomDistance(n, seed)
		if err != nil {
			return nil, err
		}
		if w == 1 {
			return d, nil
		}
		b = d.B()
	}
	if w == 1 {
		return objective.NewDistance(b)
	}
	ws := make([]float64, n)
	for i := range ws {
		ws[i] = w
	}
	return objective.NewWeightedDistance(ws, b)
}

// completion builds the matrix completion objective of s over the
// nuclear-norm ball of in, in Ω-coordinates unless s sets dense=1 (see
// Objective).
func completion(s *Spec, in *Instance, seed uint64) (lazycg.Objective, error) {
	ball, ok := in.LMO.(*lmo.NuclearBall)
	if !ok || in.Rows == 0 {
		return nil, fmt.Errorf("spec: %q: matrix completion needs a nuclear:M,N[,R] polytope", s.Text)
	}
	// The default rank 10 is capped by the matrix's smaller side; a rank
	// given explicitly must fit.
	rank, err := s.OptInt("rank", min(10, in.Rows, in.Cols), 1, min(in.Rows, in.Cols))
	if err != nil {
		return nil, err
	}
	dense, err := s.OptFlag("dense")
	if err != nil {
		return nil, err
	}
	// The sample: position, value and the oracle's support per entry,
	// with the sampler's set; the low-rank factors.
	samples := float64(objective.CompletionSampleSize(in.Rows, in.Cols, rank))
	if err := in.mem.reserve(fmt.Sprintf("objective %q", s.Text), fmt.Sprintf("%.3g observed entries", samples),
		100*samples+16*float64(rank)*float64(in.Rows+in.Cols)); err != nil {
		return nil, err
	}
	mc, _, err := objective.RandomMatrixCompletion(in.Rows, in.Cols, rank, seed)
	if err != nil {
		return nil, err
	}
	if dense {
		return mc, nil
	}
	on, err := lmo.NewNuclearBallOn(in.Rows, in.Cols, ball.Radius(), mc.Support())
	if err != nil {
		return nil, err
	}
	// Runs from specs never materialize the full matrix: no record of
	// vertices and moves (memory).
	on.NoRecord = true
	// P_Ω(B) has the diameter 2R of B (Ω is not empty), so Diameter2 stays.
	in.LMO, in.Start, in.Check = on, nil, nil
	return mc.OnOmega(), nil
}

// leastSquaresFiles reads leastsquares:A,B: the matrix A and the vector b
// from files (objective.LeastSquaresFromFiles); A must have as many
// columns as the polytope's dimension.
func leastSquaresFiles(s *Spec, in *Instance, opt Options) (lazycg.Objective, error) {
	if err := s.NArgs(2, 2, "leastsquares:A,B (the matrix A and the vector b as Matrix Market, CSV or text files)"); err != nil {
		return nil, err
	}
	if _, err := s.OptSeed(0); err != nil { // a run's seed is ignored
		return nil, err
	}
	if err := s.Unused(); err != nil {
		return nil, err
	}
	var paths [2]string
	for i := range paths {
		p, err := ResolveFile(s.Args[i], opt)
		if err != nil {
			return nil, err
		}
		paths[i] = p
	}
	// A is kept as read and, when sparse, in a column-major copy
	// (objective.LeastSquares): a dense entry "0," of 2 bytes takes 8, a
	// coordinate line "1 1 1" of 6 bytes 32, with the vectors over its
	// rows and columns; b is read as a matrix and copied.
	for i, factor := range [2]float64{2 * fileBytesFactor, fileBytesFactor} {
		size, err := textSize(paths[i])
		if err != nil {
			return nil, fmt.Errorf("spec: %q: %w", s.Text, err)
		}
		if err := in.mem.reserve(fmt.Sprintf("objective %q", s.Text), fmt.Sprintf("%s: %s of text", paths[i], FormatBytes(size)),
			factor*size); err != nil {
			return nil, err
		}
	}
	ls, err := objective.LeastSquaresFromFiles(paths[0], paths[1])
	if err != nil {
		return nil, err
	}
	if rows, cols := ls.A().Dims(); cols != in.Dim() {
		return nil, fmt.Errorf("spec: %q: A (%s) is %d×%d, but the polytope %q has dimension %d (A needs %d columns)",
			s.Text, paths[0], rows, cols, in.Spec, in.Dim(), in.Dim())
	}
	return ls, nil
}

// QuadraticScale returns the scale W of the multipliers of the quadratic
// objective's b = A·w (w uniform in [0, W]^n) that scale=auto (the default)
// picks for a polytope of dimension n with a vertex v:
//
//	W = min(1, 2‖v‖₁/n)   (W = 1 when ‖v‖₁ = 0)
//
// The paper (section 7) draws the multipliers from [0, 1]. Taken literally
// on 0/1 polytopes whose vertices have few ones (set partitioning models
// such as eil33-2 and air04: a handful of ones among thousands of
// coordinates; tours and trees), b = A·w is the image of a point of mass
// n/2, far outside A·P, and the problem is a linear one in disguise: the
// start vertex is already optimal and every method stops at iteration 0
// (measured on eil33-2). With W = 2‖v‖₁/n the multipliers have the mass of a
// vertex in expectation, so b lies among the images of points of P's
// scale and the minimizer is a point inside a face, which the methods
// must approach by many steps, as in the paper's figures. Where vertices
// have at least n/2 mass in ones or flow (cut polytopes, the netgen flow
// polytopes, the Birkhoff polytope for large n aside) the cap W = 1 keeps
// the paper's literal reading.
func QuadraticScale(n int, v []float64) float64 {
	var mass float64
	for _, x := range v {
		mass += math.Abs(x)
	}
	if !(mass > 0) || n == 0 {
		return 1
	}
	return math.Min(1, 2*mass/float64(n))
}

// quadraticScale reads the scale option of a quadratic objective: a
// number, or auto (the default): QuadraticScale of the instance's start
// vertex. An instance without one whose oracle stops early (a MIP solver)
// gets the first vertex the oracle finds for the model's own objective (or
// the zero objective), which
// then also becomes the instance's start vertex (so the run does not look
// for another one).
func quadraticScale(ctx context.Context, s *Spec, in *Instance) (float64, error) {
	if s.OptString("scale", "auto") != "auto" {
		return s.OptFloat("scale", 1, 1e-12, 1e12)
	}
	n := in.Dim()
	if in.Start != nil {
		return QuadraticScale(n, in.Start), nil
	}
	es, ok := in.LMO.(lazycg.EarlyStopper)
	if !ok {
		// Oracles without a vertex known ahead are cheap ones (the
		// nuclear ball, norm balls): their vertices are dense.
		return 1, nil
	}
	// Any vertex will do. With the model's own objective (MPS files have
	// one) CBC's heuristics find a first one much sooner than with a zero
	// objective, where every LP basis is optimal (air04: 3 s instead of
	// 25 s of CPU).
	c := make([]float64, n)
	if in.Own != nil && len(in.Own.C) == n {
		copy(c, in.Own.C)
	}
	v := make([]float64, n)
	res, err := es.MinimizeUntil(ctx, v, c,
		lazycg.StopRule{Improve: math.Inf(1), Certify: math.Inf(1)})
	if errors.Is(err, lazycg.ErrEmptyPolytope) {
		// Not the objective's fault: say what is wrong first.
		return 0, fmt.Errorf("spec: polytope %q: %w (found while the objective %q looked for a vertex for scale=auto)", in.Spec, err, s.Text)
	}
	if err != nil {
		return 0, fmt.Errorf("spec: %q: scale=auto needs a vertex: %w", s.Text, err)
	}
	if !res.Found {
		return 0, fmt.Errorf("spec: %q: scale=auto needs a vertex, and the oracle found none", s.Text)
	}
	in.Start = v
	return QuadraticScale(n, v), nil
}

// DefaultDensity is the default density of quadratic objectives: about 20
// nonzeros per row, at most 1.
func DefaultDensity(n int) float64 { return math.Min(1, 20/float64(n)) }

// Curvature estimates C = L·D² of obj over the instance, or 0 when unknown.
func Curvature(obj lazycg.Objective, in *Instance) float64 {
	c, ok := obj.(lazycg.Curvaturer)
	if !ok || !(in.Diameter2 > 0) {
		return 0
	}
	return c.Curvature(math.Sqrt(in.Diameter2))
}
