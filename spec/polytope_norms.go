package spec

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/lmo"
	"github.com/lazycg/lazycg/objective"
)

// The norm balls, the spectraplex, convex hulls of atoms from a file and
// products of polytopes:
//
//	l2:N[,r=R]            Euclidean ball of radius R (default 1)
//	lp:N,P[,r=R]          ℓp-ball, 1 < P < ∞
//	linf:N[,r=R]          ℓ∞-ball [−R, R]^N
//	knorm:N,K[,r=R]       K-norm ball conv(B₁(R) ∪ B∞(R/K)), 1 ≤ K ≤ N
//	owl:N[,l1=A,l2=B,r=R] ball of the ordered weighted ℓ1 norm with OSCAR's
//	                      weights w_i = A + B·(N − i) (defaults 1, 0: ℓ1)
//	spectraplex:N         N×N PSD matrices of trace 1 (dimension N²)
//	unitspectrahedron:N   N×N PSD matrices of trace at most 1
//	fantope:N,K           N×N symmetric matrices with eigenvalues in [0, 1]
//	                      summing to K (the convex hull of rank-K projections)
//	ellipsoid:FILE[,center=FILE,r=R]
//	                      {x : (x − x0)ᵀA(x − x0) ≤ R} (default R = 1, x0 = 0)
//	                      for the symmetric positive definite A in FILE
//	                      (Matrix Market, CSV or text; see objective.ReadMatrix)
//	ellipsoid:N[,cond=K,seed=S,r=R]
//	                      the same for a random A with eigenvalues spread
//	                      geometrically over [1, K] (default 100), rotated
//	                      by a random Householder reflection
//	hull:FILE             convex hull of the atoms in FILE (see lmo.ReadConvexHull)
//	product:[SPEC][SPEC]… Cartesian product of the polytopes in brackets
//	                      (not products themselves); [SPEC]*M repeats a
//	                      factor M times; at most 4096 factors (quote the
//	                      argument in a shell: brackets and * are glob characters)
func init() {
	polytopeKinds["l2"] = buildL2
	polytopeKinds["lp"] = buildLp
	polytopeKinds["linf"] = buildLInf
	polytopeKinds["knorm"] = buildKNorm
	polytopeKinds["owl"] = buildOWL
	polytopeKinds["spectraplex"] = buildSpectraplex
	polytopeKinds["unitspectrahedron"] = buildSpectraplex
	polytopeKinds["fantope"] = buildFantope
	polytopeKinds["ellipsoid"] = buildEllipsoid
	polytopeKinds["hull"] = buildHull
	polytopeKinds["product"] = func(s *Spec, _ Options) (*Instance, error) {
		return nil, fmt.Errorf("spec: %q: want product:[SPEC][SPEC]…", s.Text) // productSpec reads products
	}
}

// dimRadius reads the dimension N (argument 0) and the option r (default
// 1), and reserves the memory of a polytope of dimension N whose oracle
// keeps perCoord bytes per coordinate.
func dimRadius(s *Spec, opt Options, lo, hi int, usage string, perCoord float64) (int, float64, error) {
	if err := s.NArgs(lo, hi, usage); err != nil {
		return 0, 0, err
	}
	n, err := s.Int(0, "N", 1, maxDim)
	if err != nil {
		return 0, 0, err
	}
	r, err := s.OptFloat("r", 1, scaleLo, scaleHi)
	if err != nil {
		return 0, 0, err
	}
	return n, r, opt.mem.reserveDim(s, float64(n), perCoord*float64(n))
}

func buildL2(s *Spec, opt Options) (*Instance, error) {
	n, r, err := dimRadius(s, opt, 1, 1, "l2:N[,r=RADIUS]", 0)
	if err != nil {
		return nil, err
	}
	l, err := lmo.NewL2Ball(n, r)
	if err != nil {
		return nil, err
	}
	return &Instance{LMO: l, Diameter2: 4 * r * r}, nil
}

func buildLp(s *Spec, opt Options) (*Instance, error) {
	n, r, err := dimRadius(s, opt, 2, 2, "lp:N,P[,r=RADIUS] with 1 < P < ∞", 0)
	if err != nil {
		return nil, err
	}
	p, err := parseFloatArg(s, 1, "P")
	if err != nil {
		return nil, err
	}
	l, err := lmo.NewLpBall(n, p, r)
	if err != nil {
		return nil, err
	}
	// ‖x‖₂ ≤ n^{max(0, 1/2−1/p)}‖x‖_p.
	return &Instance{LMO: l, Diameter2: 4 * r * r * math.Pow(float64(n), math.Max(0, 1-2/p))}, nil
}

func buildLInf(s *Spec, opt Options) (*Instance, error) {
	n, r, err := dimRadius(s, opt, 1, 1, "linf:N[,r=RADIUS]", 0)
	if err != nil {
		return nil, err
	}
	l, err := lmo.NewLInfBall(n, r)
	if err != nil {
		return nil, err
	}
	return &Instance{LMO: l, Diameter2: 4 * r * r * float64(n)}, nil
}

func buildKNorm(s *Spec, opt Options) (*Instance, error) {
	n, r, err := dimRadius(s, opt, 2, 2, "knorm:N,K[,r=RADIUS] with 1 ≤ K ≤ N", 0)
	if err != nil {
		return nil, err
	}
	// Every K ≥ N gives the ℓ1-ball (B∞(R/K) ⊆ B₁(R)): K above N is a
	// mistake, refused.
	k, err := s.Int(1, "K", 1, n)
	if err != nil {
		return nil, err
	}
	l, err := lmo.NewKNormBall(n, k, r)
	if err != nil {
		return nil, err
	}
	// Vertices ±r·e_i and (r/K)·sign vectors: ‖x‖₂ ≤ r·max(1, √n/K).
	rad := r * math.Max(1, math.Sqrt(float64(n))/float64(k))
	return &Instance{LMO: l, Diameter2: 4 * rad * rad}, nil
}

// buildOWL: owl:N[,l1=A,l2=B,r=R] — the OSCAR ball.
func buildOWL(s *Spec, opt Options) (*Instance, error) {
	n, r, err := dimRadius(s, opt, 1, 1, "owl:N[,l1=A,l2=B,r=RADIUS]", 28) // weights, prefix sums, two sort buffers
	if err != nil {
		return nil, err
	}
	l1, err := s.OptFloat("l1", 1, 0, 1e300)
	if err != nil {
		return nil, err
	}
	l2, err := s.OptFloat("l2", 0, 0, 1e300)
	if err != nil {
		return nil, err
	}
	l, err := lmo.NewOSCARBall(n, l1, l2, r)
	if err != nil {
		return nil, err
	}
	return &Instance{LMO: l, Diameter2: l.Diameter2()}, nil
}

func buildSpectraplex(s *Spec, opt Options) (*Instance, error) {
	if err := s.NArgs(1, 1, s.Kind+":N (N×N matrices)"); err != nil {
		return nil, err
	}
	n, err := s.Int(0, "N", 1, 1<<12)
	if err != nil {
		return nil, err
	}
	// The oracle keeps S and its Cholesky factor (n² each) and a Lanczos
	// basis of up to 32 vectors of length n.
	nn := float64(n) * float64(n)
	if err := opt.mem.reserveDim(s, nn, 16*nn+8*34*float64(n)); err != nil {
		return nil, err
	}
	newS := lmo.NewSpectraplex
	if s.Kind == "unitspectrahedron" {
		newS = lmo.NewUnitSpectrahedron
	}
	l, err := newS(n)
	if err != nil {
		return nil, err
	}
	// ‖X − Y‖_F² ≤ ‖X‖_F² + ‖Y‖_F² ≤ 2 for PSD matrices of trace ≤ 1
	// (⟨X, Y⟩ ≥ 0).
	return &Instance{LMO: l, Diameter2: 2, Rows: n, Cols: n}, nil
}

func buildFantope(s *Spec, opt Options) (*Instance, error) {
	if err := s.NArgs(2, 2, "fantope:N,K (N×N matrices, 1 ≤ K ≤ N)"); err != nil {
		return nil, err
	}
	n, err := s.Int(0, "N", 1, 1<<12)
	if err != nil {
		return nil, err
	}
	k, err := s.Int(1, "K", 1, n)
	if err != nil {
		return nil, err
	}
	// The oracle keeps S, the eigenvectors, fl(S + Z) and a Cholesky factor
	// (n² each), the eigenvalues and LAPACK's workspace (≤ 66 per row).
	nn := float64(n) * float64(n)
	if err := opt.mem.reserveDim(s, nn, 32*nn+8*68*float64(n)); err != nil {
		return nil, err
	}
	l, err := lmo.NewFantope(n, k)
	if err != nil {
		return nil, err
	}
	return &Instance{LMO: l, Diameter2: l.Diameter2(), Rows: n, Cols: n}, nil
}

// maxEllipsoidDim bounds the dimension of an ellipsoid: its oracle keeps
// dense n×n matrices.
const maxEllipsoidDim = 1 << 13

func buildEllipsoid(s *Spec, opt Options) (*Instance, error) {
	const usage = "ellipsoid:FILE[,center=FILE,r=R] or ellipsoid:N[,cond=K,seed=S,r=R]"
	if err := s.NArgs(1, 1, usage); err != nil {
		return nil, err
	}
	r, err := s.OptFloat("r", 1, scaleLo, scaleHi)
	if err != nil {
		return nil, err
	}
	var a, center []float64
	var n int
	if v, err := strconv.Atoi(s.Args[0]); err == nil {
		if v < 1 || v > maxEllipsoidDim {
			return nil, fmt.Errorf("spec: %q: N must be an integer in [1, %d]", s.Text, maxEllipsoidDim)
		}
		n = v
		cond, err := s.OptFloat("cond", 100, 1, 1e12)
		if err != nil {
			return nil, err
		}
		seed, err := s.OptSeed(1)
		if err != nil {
			return nil, err
		}
		if err := opt.mem.reserveDim(s, float64(n), 32*float64(n)*float64(n)); err != nil {
			return nil, err
		}
		a = randomEllipsoidMatrix(n, cond, seed)
	} else {
		path, err := s.fileArg(opt, usage)
		if err != nil {
			return nil, err
		}
		m, err := objective.ReadMatrixFile(path)
		if err != nil {
			return nil, err
		}
		rows, cols := m.Dims()
		if rows != cols {
			return nil, fmt.Errorf("spec: %q: the matrix in %s is %d×%d, want a square matrix", s.Text, path, rows, cols)
		}
		if rows > maxEllipsoidDim {
			return nil, fmt.Errorf("spec: %q: the matrix in %s has %d rows, at most %d are supported (the oracle keeps dense n×n matrices)", s.Text, path, rows, maxEllipsoidDim)
		}
		n = rows
		if err := opt.mem.reserveDim(s, float64(n), 32*float64(n)*float64(n)); err != nil {
			return nil, err
		}
		a = make([]float64, n*n)
		e := make([]float64, n)
		col := make([]float64, n)
		for j := 0; j < n; j++ { // A·e_j is column j
			e[j] = 1
			m.MulVec(col, e)
			e[j] = 0
			for i, x := range col {
				a[i*n+j] = x
			}
		}
		if c := s.OptString("center", ""); c != "" {
			cp, err := ResolveFile(c, opt)
			if err != nil {
				return nil, err
			}
			if center, err = objective.ReadVectorFile(cp); err != nil {
				return nil, err
			}
			if len(center) != n {
				return nil, fmt.Errorf("spec: %q: the center in %s has %d entries, the matrix %d rows", s.Text, cp, len(center), n)
			}
		}
	}
	l, err := lmo.NewEllipsoid(center, a, r)
	if err != nil {
		return nil, fmt.Errorf("spec: %q: %w", s.Text, err)
	}
	return &Instance{LMO: l, Diameter2: l.Diameter2()}, nil
}

// randomEllipsoidMatrix returns H·D·H (row-major) for D = diag(d_i), d_i =
// cond^(i/(n−1)), and the Householder reflection H = I − 2·v·vᵀ of a
// pseudo-random unit vector v drawn from seed: a symmetric positive definite
// matrix with eigenvalues 1 … cond whose axes are not the coordinate axes.
func randomEllipsoidMatrix(n int, cond float64, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 0xe111))
	v := make([]float64, n)
	d := make([]float64, n)
	norm := 0.0
	for i := range v {
		v[i] = rng.NormFloat64()
		norm += v[i] * v[i]
		d[i] = 1
		if n > 1 {
			d[i] = math.Pow(cond, float64(i)/float64(n-1))
		}
	}
	norm = math.Sqrt(norm)
	vdv := 0.0
	for i := range v {
		v[i] /= norm
		vdv += d[i] * v[i] * v[i]
	}
	// (I − 2vvᵀ)D(I − 2vvᵀ) = D − 2(v(Dv)ᵀ + (Dv)vᵀ) + 4(vᵀDv)vvᵀ.
	a := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			x := -2*(v[i]*d[j]*v[j]+d[i]*v[i]*v[j]) + 4*vdv*v[i]*v[j]
			if i == j {
				x += d[i]
			}
			a[i*n+j] = x
		}
	}
	for i := 0; i < n; i++ { // exactly symmetric
		for j := 0; j < i; j++ {
			a[i*n+j] = a[j*n+i]
		}
	}
	return a
}

func buildHull(s *Spec, opt Options) (*Instance, error) {
	path, err := s.fileArg(opt, "hull:FILE (atoms, see lmo.ReadConvexHull)")
	if err != nil {
		return nil, err
	}
	h, err := lmo.ReadConvexHullFile(path)
	if err != nil {
		return nil, err
	}
	// diam ≤ 2·max_k ‖a_k − a_0‖.
	a0, a := make([]float64, h.Dim()), make([]float64, h.Dim())
	h.Atom(a0, 0)
	var far float64
	for k := 1; k < h.Len(); k++ {
		h.Atom(a, k)
		var d float64
		for i := range a {
			d += (a[i] - a0[i]) * (a[i] - a0[i])
		}
		far = math.Max(far, d)
	}
	return &Instance{LMO: h, Diameter2: 4 * far}, nil
}

// maxFactors bounds the number of factors of a product spec.
const maxFactors = 1 << 12

// productSpec builds text when it is a product spec (ok reports whether it
// is): product:[SPEC][SPEC]… with [SPEC]*M for M copies, factors built by
// Polytope (nested products allowed).
func productSpec(text string, opt Options) (in *Instance, ok bool, err error) {
	kind, rest, found := strings.Cut(strings.TrimSpace(text), ":")
	if !found || !strings.EqualFold(strings.TrimSpace(kind), "product") {
		return nil, false, nil
	}
	factors, err := splitFactors(text, rest)
	if err != nil {
		return nil, true, err
	}
	in = &Instance{Spec: text}
	var parts []*Instance
	closeAll := func() {
		for _, p := range parts {
			p.Close()
		}
	}
	lmos := make([]lazycg.LMO, 0, len(factors))
	dim := 0
	// The estimate of each factor built, by spec: copies still to build
	// ([SPEC]*M) are counted ahead, so that a product the budget cannot
	// hold is refused after its first copy instead of after building as
	// many as the budget holds.
	est := make(map[string]float64, len(factors))
	for i, f := range factors {
		before := opt.mem.usedBytes()
		if k, _, _ := strings.Cut(f, ":"); strings.EqualFold(strings.TrimSpace(k), "product") {
			closeAll()
			return nil, true, fmt.Errorf("spec: %q: a factor cannot be a product (list its factors instead)", text)
		}
		p, err := Polytope(f, opt)
		if err != nil {
			closeAll()
			return nil, true, fmt.Errorf("spec: %q: factor %q: %w", text, f, err)
		}
		parts = append(parts, p)
		est[f] = opt.mem.usedBytes() - before
		var ahead float64
		copies := 0
		for _, g := range factors[i+1:] {
			if e, ok := est[g]; ok {
				ahead += e
				copies++
			}
		}
		if err := opt.mem.fits(fmt.Sprintf("product %q", text), fmt.Sprintf("%d more factors like those built", copies), ahead); err != nil {
			closeAll()
			return nil, true, err
		}
		if dim += p.Dim(); dim > maxDim {
			closeAll()
			return nil, true, fmt.Errorf("spec: %q: dimension above %d", text, maxDim)
		}
		if p.Own != nil {
			closeAll()
			return nil, true, fmt.Errorf("spec: %q: factor %q defines its own objective, which a product cannot use", text, f)
		}
		lmos = append(lmos, p.LMO)
	}
	prod, err := lmo.NewProduct(lmos...)
	if err != nil {
		closeAll()
		return nil, true, fmt.Errorf("spec: %q: %w", text, err)
	}
	in.LMO, in.Close, in.factors = prod, closeAll, parts
	start := make([]float64, 0, prod.Dim())
	for _, p := range parts {
		in.Diameter2 += p.Diameter2
		if p.Diameter2 == 0 {
			in.Diameter2 = math.Inf(1)
		}
		if start != nil && p.Start != nil {
			start = append(start, p.Start...)
		} else {
			start = nil
		}
	}
	if math.IsInf(in.Diameter2, 1) {
		in.Diameter2 = 0 // unknown
	}
	in.Start = start
	if allChecks(parts) {
		blocks := prod.Blocks()
		in.Check = func(x []float64, tol float64) error {
			for k, p := range parts {
				b := blocks[k]
				if err := p.Check(x[b.Offset:b.Offset+b.Dim], tol); err != nil {
					return fmt.Errorf("factor %d: %w", k, err)
				}
			}
			return nil
		}
	}
	return in, true, nil
}

func allChecks(parts []*Instance) bool {
	for _, p := range parts {
		if p.Check == nil {
			return false
		}
	}
	return true
}

// splitFactors reads the bracketed factors of a product spec (rest is the
// text after "product:"), expanding [SPEC]*M.
func splitFactors(text, rest string) ([]string, error) {
	var out []string
	i := 0
	for {
		for i < len(rest) && rest[i] == ' ' {
			i++
		}
		if i == len(rest) {
			break
		}
		if rest[i] != '[' {
			return nil, fmt.Errorf("spec: %q: want product:[SPEC][SPEC]…, found %q at offset %d", text, rest[i:], i)
		}
		depth, j := 0, i
		for ; j < len(rest); j++ {
			if rest[j] == '[' {
				depth++
			} else if rest[j] == ']' {
				if depth--; depth == 0 {
					break
				}
			}
		}
		if j == len(rest) {
			return nil, fmt.Errorf("spec: %q: unbalanced [ at offset %d", text, i)
		}
		f := strings.TrimSpace(rest[i+1 : j])
		if f == "" {
			return nil, fmt.Errorf("spec: %q: empty factor [] at offset %d", text, i)
		}
		i = j + 1
		times := 1
		if i < len(rest) && rest[i] == '*' {
			k := i + 1
			for k < len(rest) && rest[k] >= '0' && rest[k] <= '9' {
				k++
			}
			m, err := strconv.Atoi(rest[i+1 : k])
			if err != nil || m < 1 || m > maxFactors {
				return nil, fmt.Errorf("spec: %q: want [SPEC]*M with 1 ≤ M ≤ %d after offset %d", text, maxFactors, i)
			}
			times, i = m, k
		}
		if len(out)+times > maxFactors {
			return nil, fmt.Errorf("spec: %q: more than %d factors", text, maxFactors)
		}
		for range times {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("spec: %q: want product:[SPEC][SPEC]… with at least one factor", text)
	}
	return out, nil
}
