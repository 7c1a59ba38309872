package lmo

import (
	"context"
	"fmt"
	"math"

	"github.com/lazycg/lazycg"
)

// NuclearBallOn is the nuclear-norm ball of m×n matrices seen through a
// set Ω of entries: the projection P_Ω(B) = {(X_ij)_{(i,j)∈Ω} : ‖X‖_* ≤ R},
// a convex body in R^{|Ω|} whose coordinate k is the entry omega[k] = i·n + j
// (row-major, strictly increasing). Its extreme points are the projections
// P_Ω(R·u·vᵀ) of the rank-one vertices of the ball.
//
// It is the feasible region of matrix completion in Ω-coordinates: an
// objective that depends on X only through its entries on Ω (such as
// objective.MatrixCompletion, whose OnOmega is that objective in these
// coordinates) has the same values, gradients (restricted to Ω), Wolfe
// gaps and optimum over P_Ω(B) as over B, since min_{y∈P_Ω(B)} ⟨c, y⟩ =
// min_{X∈B} ⟨C, X⟩ for the m×n matrix C that holds c on Ω and 0 elsewhere.
// So every iterate, gradient and vertex costs O(|Ω|) instead of O(mn), and a
// dual bound over P_Ω(B) is a dual bound of the problem over B.
//
// Minimize solves min ⟨C, X⟩ over B as NuclearBall does (same Lanczos
// iteration and result semantics, with products over the |Ω| nonzeros of
// C only) and writes P_Ω(−R·u·vᵀ) into dst. It implements
// lazycg.EarlyStopper like NuclearBall.
//
// Factored vertices. Each vertex returned is kept as its factors
// (−R·u, v), m + n numbers instead of |Ω|:
//
//   - lazycg.VertexCompactor: a vertex cache (lazycg.NewSeparator) stores
//     vertices in this form; Dot costs O(|Ω|) reading one index and one
//     cost entry per observed entry, and CopyTo reproduces the coordinates
//     bit for bit.
//   - lazycg.BatchDotter: a cache scores four factored vertices in one
//     pass over Ω (DotBatch), 2.3× faster than four Dot calls.
//   - lazycg.MoveRecorder: methods that report their moves (FrankWolfe,
//     LazyCG, LazyTextbook) leave a record of (α, β, vertex) per step, from
//     which Materialize rebuilds the full m×n iterate as a weighted sum of
//     the recorded rank-one vertices.
//
// Memory: O(|Ω| + m + n) for the oracle, plus m + n numbers per distinct
// vertex returned and three numbers per recorded move; NoRecord keeps
// neither (Materialize then fails). Minimize allocates the factors of each
// new vertex and nothing else; with NoRecord only those of a new vertex
// after one whose compact form Compact handed out (a vertex cache keeps
// it, so its factors must stay), otherwise the new vertex reuses the
// factors of the last one, and steady-state calls allocate nothing.
type NuclearBallOn struct {
	// Tol and MaxIter are the Lanczos tolerance and step limit, as in
	// NuclearBall (defaults 1e-9 and 1000).
	Tol     float64
	MaxIter int
	// CertifyMaxSide is the largest min(m, n) for which a call proves its
	// Bound by a Cholesky certificate, as in NuclearBall (default 256;
	// negative: never).
	CertifyMaxSide int
	// NoRecord turns off the record of vertices and moves (Materialize
	// then fails); the vertex cache's compact form still works.
	NoRecord bool

	m, n int
	r    float64

	cost   nuclearCost // rowPtr and col fixed by Ω; val is the cost vector of each call
	svd    lanczosSVD
	finger []float64 // pseudo-random vector of length |Ω| for fingerprints
	ur     []float64 // scratch: −R·u of the current call
	quad   []float64 // scratch of DotBatch: four v's interleaved (4n)

	last  *nuclearAtom   // the vertex returned last
	held  *float64       // &dst[0] of the last vertex written (by Minimize or CopyTo)
	heldA *nuclearAtom   // the atom written there
	atoms []*nuclearAtom // the distinct vertices returned (unless NoRecord)
	index map[uint64][]int32
	moves []atomMove

	// lastOut: Compact has handed b.last out (a vertex cache may keep it),
	// so that NoRecord's emit must not overwrite its factors.
	lastOut bool
}

// nuclearAtom is a vertex P_Ω(ur·vᵀ) of a NuclearBallOn in factored form;
// it implements lazycg.CompactVertex.
type nuclearAtom struct {
	ball  *NuclearBallOn
	ur, v []float64 // −R·u (length m) and v (length n)
	phi   float64   // fingerprint: finger·P_Ω(ur·vᵀ)
	id    int32     // index in ball.atoms, −1 when not recorded
}

// atomMove is one recorded move x ← alpha·x + beta·atom (atom −1: a point
// that is not a recorded vertex); phi is the fingerprint of x after it.
type atomMove struct {
	alpha, beta, phi float64
	atom             int32
}

var (
	_ lazycg.LMO             = (*NuclearBallOn)(nil)
	_ lazycg.EarlyStopper    = (*NuclearBallOn)(nil)
	_ lazycg.VertexCompactor = (*NuclearBallOn)(nil)
	_ lazycg.MoveRecorder    = (*NuclearBallOn)(nil)
	_ lazycg.Vertexer        = (*NuclearBallOn)(nil)
	_ lazycg.CompactVertex   = (*nuclearAtom)(nil)
	_ lazycg.BatchDotter     = (*NuclearBallOn)(nil)
)

// NewNuclearBallOn returns P_Ω(B) for the nuclear-norm ball B of radius R
// in the space of m×n matrices and the entries omega (flat row-major
// indices i·n + j, strictly increasing, at least one). m, n must be ≥ 1 and
// radius finite and > 0. omega is not retained.
func NewNuclearBallOn(m, n int, radius float64, omega []int) (*NuclearBallOn, error) {
	const name = "nuclear ball on Ω"
	if err := checkNuclearSize(name, m, n, radius); err != nil {
		return nil, err
	}
	if len(omega) == 0 {
		return nil, fmt.Errorf("lmo: %s: Ω is empty", name)
	}
	b := &NuclearBallOn{Tol: 1e-9, MaxIter: 1000, m: m, n: n, r: radius, ur: make([]float64, m),
		index: map[uint64][]int32{}}
	a := &b.cost
	*a = nuclearCost{m: m, n: n, rowPtr: make([]int, m+1), col: make([]int32, len(omega))}
	row := 0
	for k, f := range omega {
		if f < 0 || f >= m*n {
			return nil, fmt.Errorf("lmo: %s: entry %d of Ω is index %d, outside [0, %d)", name, k, f, m*n)
		}
		if k > 0 && f <= omega[k-1] {
			return nil, fmt.Errorf("lmo: %s: Ω is not strictly increasing at entry %d (%d after %d)", name, k, f, omega[k-1])
		}
		for i := f / n; row < i; {
			row++
			a.rowPtr[row] = k
		}
		a.col[k] = int32(f % n)
	}
	for row < m {
		row++
		a.rowPtr[row] = len(omega)
	}
	b.svd.init(m, n)
	b.finger = make([]float64, len(omega))
	basicPseudoRandomUnit(b.finger, 0x6a09e667f3bcc909)
	return b, nil
}

// Dim returns |Ω|.
func (b *NuclearBallOn) Dim() int { return len(b.cost.col) }

// Rows returns m.
func (b *NuclearBallOn) Rows() int { return b.m }

// Cols returns n.
func (b *NuclearBallOn) Cols() int { return b.n }

// Radius returns R.
func (b *NuclearBallOn) Radius() float64 { return b.r }

// Entry returns the row and column of coordinate k.
func (b *NuclearBallOn) Entry(k int) (i, j int) {
	return b.cost.position(k)
}

// Vertex writes the extreme point P_Ω(R·e_i·e_jᵀ) for the first entry
// (i, j) of Ω into dst (recorded like the vertices Minimize returns).
func (b *NuclearBallOn) Vertex(dst []float64) {
	i, j := b.Entry(0)
	clear(b.ur)
	b.ur[i] = b.r
	clear(b.svd.v)
	b.svd.v[j] = 1
	b.emit(dst)
}

// Minimize writes P_Ω(−R·u·vᵀ) for an (approximate) top singular pair
// (u, v) of the m×n matrix holding c on Ω into dst; see NuclearBall for
// the meaning of the result. It returns an error for invalid input,
// invalid Tol or MaxIter, and when ctx is canceled (a passed deadline
// gives a time-limited answer, as in NuclearBall).
func (b *NuclearBallOn) Minimize(ctx context.Context, dst, c []float64) (lazycg.LinearResult, error) {
	return b.MinimizeUntil(ctx, dst, c, lazycg.StopRule{Improve: math.Inf(-1), Certify: math.Inf(1)})
}

// MinimizeUntil implements lazycg.EarlyStopper as NuclearBall does.
func (b *NuclearBallOn) MinimizeUntil(ctx context.Context, dst, c []float64, rule lazycg.StopRule) (lazycg.LinearResult, error) {
	const name = "nuclear ball on Ω"
	if err := b.checkLen("cost vector", c); err != nil {
		return lazycg.LinearResult{}, err
	}
	if err := b.checkLen("destination", dst); err != nil {
		return lazycg.LinearResult{}, err
	}
	b.cost.val = c
	defer func() { b.cost.val = nil }()
	if err := b.cost.check(name); err != nil {
		return lazycg.LinearResult{}, err
	}
	return b.svd.minimizeUntil(ctx, name, &b.cost, b.Tol, b.MaxIter, b.CertifyMaxSide, b.r, rule, func(sol svdSolution) (float64, error) {
		b.write(dst, sol)
		return basicValue(name, c, dst)
	})
}

// write emits the vertex P_Ω(−R·u·vᵀ) of the pair that solve left in b.svd
// (the fallback vertex when sol.sigma is 0) into dst.
func (b *NuclearBallOn) write(dst []float64, sol svdSolution) {
	if sol.sigma == 0 {
		b.Vertex(dst)
		return
	}
	for i, ui := range b.svd.u {
		b.ur[i] = -b.r * ui
	}
	b.emit(dst)
}

func (b *NuclearBallOn) checkLen(what string, v []float64) error {
	if len(v) != b.Dim() {
		return fmt.Errorf("lmo: nuclear ball on Ω: %s has length %d, want |Ω| = %d", what, len(v), b.Dim())
	}
	return nil
}

// wrote notes that dst now holds the coordinates of atom at.
func (b *NuclearBallOn) wrote(dst []float64, at *nuclearAtom) {
	b.held, b.heldA = &dst[0], at
}

// emit writes the vertex P_Ω(b.ur·b.svd.vᵀ) into dst and makes it b.last,
// reusing the recorded atom with the same factors if there is one.
func (b *NuclearBallOn) emit(dst []float64) {
	writeAtom(&b.cost, dst, b.ur, b.svd.v)
	phi := basicDot(b.finger, dst)
	defer func() { b.wrote(dst, b.last) }()
	if !b.NoRecord {
		if k := b.find(phi, b.ur, b.svd.v); k >= 0 {
			b.last = b.atoms[k]
			return
		}
	} else if l := b.last; l != nil && l.phi == phi && sameFactors(l, b.ur, b.svd.v) {
		return
	} else if l != nil && l.id < 0 && !b.lastOut {
		// Unrecorded and never handed out: nobody else holds the atom,
		// so the new vertex takes over its factors (no allocation).
		copy(l.ur, b.ur)
		copy(l.v, b.svd.v)
		l.phi = phi
		return
	}
	// A new atom: recorded, or b.last may be held by a vertex cache, whose
	// compact vertices must keep their coordinates.
	b.lastOut = false
	at := &nuclearAtom{ball: b, ur: append([]float64(nil), b.ur...), v: append([]float64(nil), b.svd.v...), phi: phi, id: -1}
	if !b.NoRecord {
		at.id = int32(len(b.atoms))
		b.atoms = append(b.atoms, at)
		key := math.Float64bits(phi)
		b.index[key] = append(b.index[key], at.id)
	}
	b.last = at
}

// find returns the recorded atom with fingerprint phi and the given
// factors (nil factors: any), or −1.
func (b *NuclearBallOn) find(phi float64, ur, v []float64) int {
	for _, k := range b.index[math.Float64bits(phi)] {
		if ur == nil || sameFactors(b.atoms[k], ur, v) {
			return int(k)
		}
	}
	return -1
}

func sameFactors(a *nuclearAtom, ur, v []float64) bool {
	for i, x := range ur {
		if a.ur[i] != x {
			return false
		}
	}
	for j, x := range v {
		if a.v[j] != x {
			return false
		}
	}
	return true
}

// writeAtom writes P_Ω(ur·vᵀ) into dst: the one formula for the
// coordinates of a vertex, so that CopyTo reproduces Minimize's output.
func writeAtom(a *nuclearCost, dst, ur, v []float64) {
	for i, s := range ur {
		for k := a.rowPtr[i]; k < a.rowPtr[i+1]; k++ {
			dst[k] = s * v[a.col[k]]
		}
	}
}

// Compact implements lazycg.VertexCompactor: the factored form of v when
// v is a vertex this oracle returned (checked coordinate by coordinate),
// nil otherwise.
func (b *NuclearBallOn) Compact(v []float64) lazycg.CompactVertex {
	if len(v) != b.Dim() {
		return nil
	}
	at := b.last
	if at == nil || !at.equal(v) {
		at = nil
		if !b.NoRecord {
			if k := b.find(basicDot(b.finger, v), nil, nil); k >= 0 && b.atoms[k].equal(v) {
				at = b.atoms[k]
			}
		}
	}
	if at == nil {
		return nil
	}
	if at == b.last {
		b.lastOut = true
	}
	return at
}

// equal reports whether v holds the coordinates of the atom.
func (at *nuclearAtom) equal(v []float64) bool {
	a := &at.ball.cost
	for i, s := range at.ur {
		for k := a.rowPtr[i]; k < a.rowPtr[i+1]; k++ {
			if v[k] != s*at.v[a.col[k]] {
				return false
			}
		}
	}
	return true
}

// Dot implements lazycg.CompactVertex: Σ_i ur_i·Σ_{k in row i} c_k·v_{j_k}.
func (at *nuclearAtom) Dot(c []float64) float64 {
	a := &at.ball.cost
	c = c[:len(a.col)]
	v := at.v
	s := 0.0
	for i, ui := range at.ur {
		lo, hi := a.rowPtr[i], a.rowPtr[i+1]
		cols, cr := a.col[lo:hi], c[lo:hi]
		cr = cr[:len(cols)]
		r := 0.0
		for k, j := range cols {
			r += cr[k] * v[j]
		}
		s += ui * r
	}
	return s
}

// DotBatch implements lazycg.BatchDotter: the factored inner products of
// up to lazycg.BatchDotSize of its vertices in one pass over c and the
// column indices of Ω, each formed in the order of nuclearAtom.Dot (so the
// results are Dot's bit for bit), with the four v factors interleaved in a
// scratch buffer of 4n numbers (allocated by the first call) so that each
// observed entry reads one group of four. Vertices of another oracle, and
// blocks of another size than 4, are scored one by one. Like the cache that
// calls it, DotBatch is not safe for concurrent use with itself; it does
// not touch what Minimize writes.
func (b *NuclearBallOn) DotBatch(dst []float64, vs []lazycg.CompactVertex, c []float64) {
	var at [4]*nuclearAtom
	ok := len(vs) == 4
	for i := 0; ok && i < 4; i++ {
		a, isAtom := vs[i].(*nuclearAtom)
		ok = isAtom && a.ball == b
		at[i] = a
	}
	if !ok {
		for i, v := range vs {
			dst[i] = v.Dot(c)
		}
		return
	}
	a := &b.cost
	c = c[:len(a.col)]
	// The four v's interleaved, so that each observed entry reads one
	// 32-byte group instead of four scattered values.
	if len(b.quad) != 4*b.n {
		b.quad = make([]float64, 4*b.n)
	}
	q := b.quad
	for j := range b.n {
		g := q[4*j : 4*j+4 : 4*j+4]
		g[0], g[1], g[2], g[3] = at[0].v[j], at[1].v[j], at[2].v[j], at[3].v[j]
	}
	u0, u1, u2, u3 := at[0].ur, at[1].ur, at[2].ur, at[3].ur
	u1, u2, u3 = u1[:len(u0)], u2[:len(u0)], u3[:len(u0)]
	var s0, s1, s2, s3 float64
	for i := range u0 {
		lo, hi := a.rowPtr[i], a.rowPtr[i+1]
		cols, cr := a.col[lo:hi], c[lo:hi]
		cr = cr[:len(cols)]
		var r0, r1, r2, r3 float64
		for k, j := range cols {
			x := cr[k]
			g := q[4*int(j) : 4*int(j)+4 : 4*int(j)+4]
			r0 += x * g[0]
			r1 += x * g[1]
			r2 += x * g[2]
			r3 += x * g[3]
		}
		s0 += u0[i] * r0
		s1 += u1[i] * r1
		s2 += u2[i] * r2
		s3 += u3[i] * r3
	}
	dst[0], dst[1], dst[2], dst[3] = s0, s1, s2, s3
}

// CopyTo implements lazycg.CompactVertex. It remembers dst as holding the
// atom, so that a RecordMove with that vector right after needs no
// fingerprint.
func (at *nuclearAtom) CopyTo(dst []float64) {
	writeAtom(&at.ball.cost, dst, at.ur, at.v)
	at.ball.wrote(dst, at)
}

// Bytes implements lazycg.CompactVertex.
func (at *nuclearAtom) Bytes() int64 { return int64(8 * (len(at.ur) + len(at.v))) }

// RecordMove implements lazycg.MoveRecorder: it identifies v among the
// recorded vertices, in O(1) when v is the vector this oracle (or the
// compact form of a cached vertex) wrote last, by its fingerprint (O(|Ω|))
// otherwise, and appends the move. A vector changed in between is caught
// by Materialize's check.
func (b *NuclearBallOn) RecordMove(alpha, beta float64, v []float64) {
	if b.NoRecord || len(v) != b.Dim() {
		return
	}
	var phi float64
	var id int32
	if at := b.heldA; at != nil && &v[0] == b.held && at.id >= 0 {
		phi, id = at.phi, at.id
	} else {
		phi = basicDot(b.finger, v)
		id = int32(b.find(phi, nil, nil))
	}
	if alpha == 0 {
		b.moves = b.moves[:0]
	}
	xphi := beta * phi
	if len(b.moves) > 0 {
		xphi += alpha * b.moves[len(b.moves)-1].phi
	}
	b.moves = append(b.moves, atomMove{alpha: alpha, beta: beta, phi: xphi, atom: id})
}

// RankOneSum is an m×n matrix X = Σ_a Weights[a]·U[a]·V[a]ᵀ, the full
// iterate that NuclearBallOn.Materialize rebuilds from its record.
type RankOneSum struct {
	Rows, Cols int
	// Weights are the weights of the terms: non-negative and summing to 1
	// (up to rounding) for the convex combinations that FrankWolfe and
	// LazyCG build, so that ‖X‖_* ≤ R·ΣWeights.
	Weights []float64
	// U[a] (length Rows, including the factor −R) and V[a] (length Cols,
	// unit) are the factors of term a, shared with the oracle (read only).
	U, V [][]float64
	// MaxDeviation is max over Ω of |X_ij − x_k| for the point x that was
	// materialized, measured by Materialize.
	MaxDeviation float64
}

// At returns X_ij.
func (s *RankOneSum) At(i, j int) float64 {
	x := 0.0
	for a, w := range s.Weights {
		x += w * s.U[a][i] * s.V[a][j]
	}
	return x
}

// Dense writes X into dst, row-major (len(dst) = Rows·Cols).
func (s *RankOneSum) Dense(dst []float64) {
	if len(dst) != s.Rows*s.Cols {
		panic(fmt.Sprintf("lmo: rank-one sum: Dense with len(dst) = %d for a %d×%d matrix", len(dst), s.Rows, s.Cols))
	}
	clear(dst)
	for a, w := range s.Weights {
		for i, ui := range s.U[a] {
			if c := w * ui; c != 0 {
				basicAxpy(dst[i*s.Cols:(i+1)*s.Cols], c, s.V[a])
			}
		}
	}
}

// NuclearNormBound returns Σ_a Weights[a]·‖U[a]‖·‖V[a]‖ ≥ ‖X‖_*.
func (s *RankOneSum) NuclearNormBound() float64 {
	t := 0.0
	for a, w := range s.Weights {
		t += math.Abs(w) * math.Sqrt(basicDot(s.U[a], s.U[a])*basicDot(s.V[a], s.V[a]))
	}
	return t
}

// materializeTol is the largest relative deviation on Ω that Materialize
// accepts.
const materializeTol = 1e-6

// Materialize rebuilds the m×n matrix behind the point x of P_Ω(B) from
// the record of moves: x must be an iterate of the last run of a method
// that reports its moves (lazycg.FrankWolfe, LazyCG, LazyTextbook), for
// example Result.X of lazycg.Minimize, which may be an earlier iterate than
// the last. It finds the recorded iterate whose fingerprint matches x,
// replays the weights up to it and checks the whole matrix on Ω against x
// (O(|Ω|·terms)); the deviation is reported in MaxDeviation. It fails when
// no recorded iterate matches, when the record holds a point that is not a
// vertex of this oracle (a method that moved without reporting, or a start
// point given by the caller), and when the deviation exceeds 1e-6·‖x‖_∞.
func (b *NuclearBallOn) Materialize(x []float64) (*RankOneSum, error) {
	const name = "lmo: nuclear ball on Ω: materialize"
	if err := b.checkLen("point", x); err != nil {
		return nil, err
	}
	if b.NoRecord || len(b.moves) == 0 {
		return nil, fmt.Errorf("%s: no moves recorded (NoRecord set, or the method does not report its moves)", name)
	}
	phi, scale, xmax := 0.0, 0.0, 0.0
	for k, xk := range x {
		phi += b.finger[k] * xk
		scale += math.Abs(b.finger[k] * xk)
		xmax = max(xmax, math.Abs(xk))
	}
	best, bestDiff := -1, math.Inf(1)
	for t, mv := range b.moves {
		if d := math.Abs(mv.phi - phi); d <= bestDiff {
			best, bestDiff = t, d
		}
	}
	if !(bestDiff <= 1e-8*scale+1e-300) {
		return nil, fmt.Errorf("%s: x is not a recorded iterate (closest fingerprint differs by %.3g)", name, bestDiff)
	}
	// Replay: weights w = mult·raw.
	raw := make([]float64, len(b.atoms))
	mult := 1.0
	for t, mv := range b.moves[:best+1] {
		if mv.atom < 0 {
			return nil, fmt.Errorf("%s: move %d of the record is to a point that is not a vertex this oracle returned", name, t)
		}
		if mv.alpha == 0 {
			clear(raw)
			mult = 1
		} else {
			mult *= mv.alpha
		}
		if math.Abs(mult) < 1e-200 {
			basicScale(raw, mult)
			mult = 1
		}
		raw[mv.atom] += mv.beta / mult
	}
	s := &RankOneSum{Rows: b.m, Cols: b.n}
	for a, w := range raw {
		if w *= mult; w != 0 {
			s.Weights = append(s.Weights, w)
			s.U = append(s.U, b.atoms[a].ur)
			s.V = append(s.V, b.atoms[a].v)
		}
	}
	s.MaxDeviation = b.deviation(s, x)
	if !(s.MaxDeviation <= materializeTol*xmax) {
		return s, fmt.Errorf("%s: the rebuilt matrix deviates from x by %.3g on Ω (‖x‖∞ = %.3g)", name, s.MaxDeviation, xmax)
	}
	return s, nil
}

// deviation returns max over Ω of |X_ij − x_k| for X = s.
func (b *NuclearBallOn) deviation(s *RankOneSum, x []float64) float64 {
	a := &b.cost
	coef := make([]float64, len(s.Weights))
	dev := 0.0
	for i := 0; i < b.m; i++ {
		lo, hi := a.rowPtr[i], a.rowPtr[i+1]
		if lo == hi {
			continue
		}
		for t, w := range s.Weights {
			coef[t] = w * s.U[t][i]
		}
		for k := lo; k < hi; k++ {
			j := a.col[k]
			v := 0.0
			for t, c := range coef {
				v += c * s.V[t][j]
			}
			dev = max(dev, math.Abs(v-x[k]))
		}
	}
	return dev
}
