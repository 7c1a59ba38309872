package objective

import "math"

// The gradient of a Sum along announced steps (StepToward).
//
// The online methods move x_{t+1} = x_t + γ(v − x_t) toward a vertex v with
// few nonzeros, add the round's loss, and ask for ∇F_{t+1}(x_{t+1}). A sum
// of quadratic losses has an affine gradient, so with F the sum before the
// round's loss was added,
//
//	∇F(x_t + γ(v − x_t)) = (1 − γ)·∇F(x_t) + γ·∇F(v).
//
// Sum keeps ∇F at its last point for the weights of its terms at that
// time (sumGrad) and, after StepToward, gets the gradient at the announced
// point from that identity in O(n) once ∇F(v) is known. ∇F(v) comes from
// one of three places: a vertex stepped toward before (vertices recur: the
// lazy methods' cache hits, repeated oracle answers) keeps its gradient,
// brought to the current weights by the terms whose weight grew since; for
// a vertex with few nonzeros, ∇f_k(v) = 2A_kᵀ(A_k v) − 2A_kᵀb_k where A_k v
// reads only the columns of v's nonzeros and A_kᵀ(A_k v) only the rows
// A_k v touches (when that reads fewer entries than half the nonzeros a
// recomputation streams); otherwise term by term, which costs what the
// recomputation at the new point would. Terms added since (or whose weight
// grew) are added with their own gradient at the new point. The constant
// part Σ_k w_k A_kᵀb_k is kept with the weights. Every refreshSumEvery
// updates, and at any point other than the remembered or announced one,
// the gradient is recomputed term by term.

// refreshSumEvery is the number of consecutive updates of the remembered
// gradient after which it is recomputed in full.
const refreshSumEvery = 200

// sumGrad is the remembered gradient of a Sum (see sumstep.go).
type sumGrad struct {
	ok      bool      // g = Σ_k wAt_k ∇f_k(x) (the non-linear terms only)
	x, g    []float64 // the point and the gradient
	wAt     []float64 // the weights g is for (terms beyond: 0)
	cb      []float64 // Σ_k wAt_k A_kᵀb_k
	bb      float64   // Σ_k wAt_k ‖b_k‖²
	cbOK    bool      // cb and bb are for wAt
	pending bool      // xn, gamma, v announced by StepToward
	xn      []float64
	gamma   float64
	idx     []int     // nonzeros of v: idx[:nz], val[:nz]
	val     []float64 //
	nz      int       //
	updates int       // consecutive updates since the last full gradient
	vn      []float64 // the announced vertex v (a copy)
	sparse  bool      // ∇F(v) by sparse products (else term by term)
	vgs     []vertexGrad
	nvg     int       // valid entries of vgs
	stamp   int64     // use counter of vgs
	reused  int       // steps toward a remembered vertex (tests)
	tmp     []float64 // scratch, length n
	acc     []float64 // scratch, length n
	fast    bool      // every non-linear term is a *LeastSquares with a *CSR matrix
	checked int       // terms checked for fast
	// gram is H = Σ_k gw_k A_kᵀA_k (n×n, row-major) when n² ≤ gramFloats,
	// else nil; gw are the weights it is for (terms beyond: 0).
	gram []float64
	gw   []float64
	// termGram[k] is A_kᵀA_k packed (the upper triangle's rows, from the
	// diagonal on) for terms whose weight in H changed more than once,
	// within termGramFloats (termGramUsed floats); rowOff and packOff
	// are the offsets of H's and of a packed matrix's rows, less the
	// row's index (see addGram).
	termGram     [][]float64
	termGramUsed int
	rowOff       []int
	packOff      []int
	fromTermGram int     // terms added to H from their packed Gram matrix (tests)
	rent         float64 // cost of the other routes since H was last used
	altAvg       float64 // average cost of the other routes per request
	noGram       bool    // never use H (benchmarks)
	byGram       int     // vertex gradients from H (tests)
	raised       int     // remembered vertex gradients brought up term by term (tests)
	refreshed    int     // remembered vertex gradients recomputed after vertexRaiseTerms (tests)
	// termWork is sparseWork's estimate per term for the announced vertex.
	termWork []float64
	// hint is the gradient of the term added last at a point, given by
	// AddWithGrad; used (once) when that term's weight is absorbed at
	// that point.
	hint struct {
		ok   bool
		term int
		x, g []float64
	}
	hinted int // term gradients taken from the hint (tests)
	// The per-term products of remembered vertices (termProductFloats):
	// buffers allocated, free buffers, and counters for the tests.
	prods        int
	prodFree     [][]float64
	fromProducts int
	sparseKept   int // products kept from sparse products
	prodSteals   int
}

// vertexGrad is the Gram product g = Σ_k w_k A_kᵀA_k v of a vertex v that
// steps went toward, for the weights w (∇F(v) = 2g − 2cb): vertices recur
// (cache hits of the lazy methods, repeated oracle answers), and a
// recurring vertex's product is brought to the current weights by the
// terms whose weight grew — by sparse products for a sparse vertex, which
// cost a few of its columns' entries per term.
type vertexGrad struct {
	hash   uint64
	v, g   []float64
	w      []float64
	used   int64
	raised int // terms added since g was computed in full
	// prod[i] is A_iᵀA_i v when kept (see termProductFloats), else nil.
	prod [][]float64
}

// termProductFloats is the memory budget of the per-term products
// A_iᵀA_i v of remembered vertices (64 MiB; a variable for the tests).
// They are kept for vertices that recur, where a product costs a term's
// gradient (vertices with too many nonzeros for the sparse products) or
// sparse products of more than productWorth·n operations: a recurring
// vertex then brings its Gram product up to the current weights in O(n)
// per term whose weight grew instead of a gradient or the sparse products
// of that term. A product beyond the budget takes the buffers of the least
// recently used vertex.
var termProductFloats = 8 << 20

// vertexGradFloats is the memory budget of the remembered vertex
// gradients (each holds v and its Gram product: 2n floats): 32 MiB, between 16 and
// 1024 vertices.
const vertexGradFloats = 4 << 20

// SumWorkBytes bounds the memory a Sum of least squares losses of
// dimension n with the given number of distinct terms keeps, besides the
// terms, for its gradients along announced steps (this file): the
// remembered vertices and their Gram products and weights, the per-term
// products, the Gram matrix where n² is small enough with the terms'
// packed Gram matrices, and its working vectors. The run's memory
// estimates (package spec) reserve it.
func SumWorkBytes(n, terms int) float64 {
	vertices := float64(maxVertexGrads(n))
	products := math.Min(float64(termProductFloats), vertices*float64(terms)*float64(n))
	floats := vertices*(2*float64(n)+float64(terms)) + products + 16*float64(n) + 4*float64(terms)
	if n*n <= gramFloats {
		floats += float64(n)*float64(n) + math.Min(float64(termGramFloats), float64(terms)*float64(n)*float64(n+1)/2)
	}
	return 8 * floats
}

// maxVertexGrads returns how many vertex gradients of dimension n are
// remembered.
func maxVertexGrads(n int) int {
	return min(1024, max(16, vertexGradFloats/(2*max(n, 1))))
}

// gramCachedFloats is the size n² up to which the Gram matrix is assumed
// to stay near the core (4 MiB: a core's 1 MiB L2 and its share of L3
// here); beyond, an update operation counts as gramPenalty streamed ones.
const (
	gramCachedFloats = 1 << 19
	gramPenalty      = 8
)

// gramFloats bounds the size n² of the Gram matrix H = Σ_k w_k A_kᵀA_k a
// Sum keeps for vertex gradients (32 MiB: n ≤ 2048).
const gramFloats = 4 << 20

// sumFast reports whether every non-linear term of s is a least squares
// loss over a CSR matrix (the terms the update can multiply sparsely).
func (s *Sum) sumFast() bool {
	sg := &s.sg
	if sg.checked == 0 {
		sg.fast = true
	}
	for ; sg.checked < len(s.terms); sg.checked++ {
		ls, ok := s.terms[sg.checked].(*LeastSquares)
		if !ok {
			sg.fast = false
			continue
		}
		if _, ok := ls.a.(*CSR); !ok {
			sg.fast = false
		}
	}
	return sg.fast
}

// sumGradInit allocates the buffers of the remembered gradient.
func (s *Sum) sumGradInit() {
	sg := &s.sg
	if len(sg.x) == s.n {
		return
	}
	n := s.n
	sg.x, sg.g, sg.cb, sg.xn, sg.tmp, sg.acc, sg.vn = make([]float64, n), make([]float64, n), make([]float64, n),
		make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	sg.idx, sg.val = make([]int, n/16), make([]float64, n/16)
}

// nonlinearGrad stores Σ_k w_k ∇f_k(x) (the non-linear terms) in dst, from
// the remembered gradient when x is its point or the announced one, term
// by term otherwise; in either case it is remembered for x.
func (s *Sum) nonlinearGrad(dst, x []float64) {
	sg := &s.sg
	if len(s.terms) == 0 || !s.sumFast() {
		s.termGrad(dst, x)
		return
	}
	s.sumGradInit()
	switch {
	case sg.ok && sameVec(x, sg.x):
	case sg.ok && sg.pending && sg.updates < refreshSumEvery && sameVec(x, sg.xn):
		s.stepGrad()
		copy(sg.x, x)
		sg.updates++
	default:
		s.fullGrad(x)
	}
	sg.pending = false
	s.absorbWeights(x)
	copy(dst, sg.g)
}

// termGrad stores Σ_k w_k ∇f_k(x) in dst, term by term.
func (s *Sum) termGrad(dst, x []float64) {
	clear(dst)
	for i, f := range s.terms {
		f.Grad(s.scratch, x)
		axpy(dst, s.weights[i], s.scratch)
	}
}

// fullGrad recomputes the remembered gradient at x for the current
// weights, and its constant part.
func (s *Sum) fullGrad(x []float64) {
	sg := &s.sg
	s.termGrad(sg.g, x)
	copy(sg.x, x)
	sg.wAt = append(sg.wAt[:0], s.weights...)
	sg.cbOK = false // computed when needed (ensureCB)
	sg.ok, sg.updates = true, 0
}

// ensureCB computes cb and bb for the weights wAt unless they are kept.
func (s *Sum) ensureCB() {
	sg := &s.sg
	if sg.cbOK {
		return
	}
	clear(sg.cb)
	sg.bb = 0
	for i, w := range sg.wAt {
		if w != 0 {
			ls := s.terms[i].(*LeastSquares)
			axpy(sg.cb, w, ls.transB())
			sg.bb += w * dot(ls.b, ls.b)
		}
	}
	sg.cbOK = true
}

// stepGrad moves the remembered gradient to the announced point:
// g ← (1 − γ)g + γ∇F(v).
func (s *Sum) stepGrad() {
	sg := &s.sg
	gv := s.vertexGradient()
	gamma := sg.gamma
	for i, gi := range sg.g {
		sg.g[i] = (1-gamma)*gi + gamma*gv[i]
	}
}

// vertexGradient returns ∇F(v) (non-linear terms, weights wAt) of the
// announced vertex v as 2Hv − 2cb, from the Gram product Hv =
// Σ_k wAt_k A_kᵀA_k v: a remembered product brought to the weights wAt
// (from H, or term by term over the terms whose weight changed), else a
// new one by sparse products, from H, or term by term, remembered from
// then on. A remembered product is recomputed once vertexRaiseTerms terms
// have been added to it (their rounding adds up).
func (s *Sum) vertexGradient() []float64 {
	sg := &s.sg
	h := hashFloats(sg.vn)
	sg.stamp++
	var e *vertexGrad
	for i := range sg.vgs[:sg.nvg] {
		if c := &sg.vgs[i]; c.hash == h && sameVec(c.v, sg.vn) {
			e = c
			break
		}
	}
	switch {
	case e != nil && e.raised+s.changedTerms(e.w) <= vertexRaiseTerms:
		sg.reused++
		e.used = sg.stamp
		if s.gramCheaper(s.raiseCost(e)) {
			s.gramHv(e.g)
			e.w = append(e.w[:0], sg.wAt...)
			e.raised = 0
		} else {
			s.raiseVertex(e)
			sg.raised++
		}
	case e != nil:
		e.used = sg.stamp
		s.freshHv(e, true)
		sg.refreshed++
	default:
		e = s.vertexSlot()
		e.hash, e.used = h, sg.stamp
		copy(e.v, sg.vn)
		s.freshHv(e, false)
	}
	s.ensureCB()
	out := sg.acc
	for i, hv := range e.g {
		out[i] = 2*hv - 2*sg.cb[i]
	}
	return out
}

// vertexRaiseTerms is the number of terms added to a remembered Gram
// product (raiseVertex) after which it is recomputed (a variable for the
// tests).
var vertexRaiseTerms = 1000

// vertexSlot returns a free entry of the remembered vertex gradients, or
// the least recently used one.
func (s *Sum) vertexSlot() *vertexGrad {
	sg := &s.sg
	switch {
	case sg.nvg < len(sg.vgs):
		s.releaseProducts(&sg.vgs[sg.nvg])
	case sg.nvg < maxVertexGrads(s.n):
		sg.vgs = append(sg.vgs, vertexGrad{v: make([]float64, s.n), g: make([]float64, s.n)})
	default:
		e := &sg.vgs[0]
		for i := range sg.vgs {
			if sg.vgs[i].used < e.used {
				e = &sg.vgs[i]
			}
		}
		s.releaseProducts(e)
		return e
	}
	sg.nvg++
	return &sg.vgs[sg.nvg-1]
}

// releaseProducts returns the per-term products of e to the free list.
func (s *Sum) releaseProducts(e *vertexGrad) {
	sg := &s.sg
	for i, p := range e.prod {
		if p != nil {
			sg.prodFree = append(sg.prodFree, p)
			e.prod[i] = nil
		}
	}
}

// takeProduct returns a buffer for a per-term product of e: a free one, a
// new one within termProductFloats, or those of the least recently used
// other vertex that has any; nil when there is none.
func (s *Sum) takeProduct(e *vertexGrad) []float64 {
	sg := &s.sg
	if len(sg.prodFree) == 0 {
		if (sg.prods+1)*s.n <= termProductFloats {
			sg.prods++
			return make([]float64, s.n)
		}
		var lru *vertexGrad
		for i := range sg.vgs[:sg.nvg] {
			c := &sg.vgs[i]
			if c != e && hasProducts(c) && (lru == nil || c.used < lru.used) {
				lru = c
			}
		}
		if lru == nil {
			return nil
		}
		s.releaseProducts(lru)
		sg.prodSteals++
	}
	p := sg.prodFree[len(sg.prodFree)-1]
	sg.prodFree = sg.prodFree[:len(sg.prodFree)-1]
	return p
}

// hasProducts reports whether e keeps a per-term product.
func hasProducts(e *vertexGrad) bool {
	for _, p := range e.prod {
		if p != nil {
			return true
		}
	}
	return false
}

// freshHv computes the Gram product of the entry e (the announced vertex)
// for the weights wAt: from H when that is cheaper, else by sparse
// products or term by term (keeping per-term products when keep is set:
// a recurring vertex).
func (s *Sum) freshHv(e *vertexGrad, keep bool) {
	sg := &s.sg
	e.w = append(e.w[:0], sg.wAt...)
	e.raised = 0
	if s.gramCheaper(s.newVertexCost()) {
		s.gramHv(e.g)
		return
	}
	clear(e.g)
	for i, w := range sg.wAt {
		if w != 0 {
			s.addTermHv(e.g, i, w, e, keep)
		}
	}
}

// addTermHv adds w·A_iᵀA_i v to hv for the announced vertex v (the entry
// e): from the product kept with e, else by sparse products when the
// announcement found them worth it, else from the term's gradient,
// ∇f_i(v)/2 + A_iᵀb_i. When keep is set (a vertex that recurred) and a
// buffer can be had, the product is kept with e — for the sparse products
// only when they cost more than productWorth·n.
func (s *Sum) addTermHv(hv []float64, i int, w float64, e *vertexGrad, keep bool) {
	sg := &s.sg
	ls := s.terms[i].(*LeastSquares)
	if i < len(e.prod) && e.prod[i] != nil {
		axpy(hv, w, e.prod[i])
		sg.fromProducts++
		return
	}
	var p []float64
	if keep && (!sg.sparse || sg.termWork[i] > productWorth*float64(s.n)) {
		p = s.takeProduct(e)
	}
	if sg.sparse {
		if p == nil {
			ls.addGramSparse(hv, w, sg.idx[:sg.nz], sg.val[:sg.nz])
			return
		}
		clear(p)
		ls.addGramSparse(p, 1, sg.idx[:sg.nz], sg.val[:sg.nz])
		s.keepProduct(hv, w, e, i, p)
		sg.sparseKept++
		return
	}
	ls.Grad(sg.tmp, e.v)
	if p == nil {
		axpy(hv, w/2, sg.tmp)
		axpy(hv, w, ls.transB())
		return
	}
	atb := ls.transB()
	for j, gj := range sg.tmp {
		p[j] = gj/2 + atb[j]
	}
	s.keepProduct(hv, w, e, i, p)
}

// productWorth is how many times n the sparse products of a term must
// cost for a recurring sparse vertex to keep that term's product A_iᵀA_i v
// (a raise by that term then costs an O(n) axpy instead of the sparse
// products again; computing the product into a buffer costs an extra O(n)
// clear).
const productWorth = 2

// keepProduct adds w·p to hv and keeps p as the product of term i with e's
// vertex.
func (s *Sum) keepProduct(hv []float64, w float64, e *vertexGrad, i int, p []float64) {
	axpy(hv, w, p)
	for len(e.prod) <= i {
		e.prod = append(e.prod, nil)
	}
	e.prod[i] = p
}

// raiseVertex brings the remembered Gram product e to the weights wAt,
// term by term over the terms whose weight changed.
func (s *Sum) raiseVertex(e *vertexGrad) {
	sg := &s.sg
	for i, w := range sg.wAt {
		if i == len(e.w) {
			e.w = append(e.w, 0)
		}
		if dw := w - e.w[i]; dw != 0 {
			s.addTermHv(e.g, i, dw, e, true)
			e.w[i] = w
			e.raised++
		}
	}
}

// changedTerms returns the number of terms whose weight in wAt differs
// from had.
func (s *Sum) changedTerms(had []float64) int {
	c := 0
	for i, w := range s.sg.wAt {
		if w != weightAt(had, i) {
			c++
		}
	}
	return c
}

// The Gram route. For a sum of least squares terms, ∇F(v) = 2Hv − 2cb
// with H = Σ_k w_k A_kᵀA_k: with H at hand a vertex gradient costs n per
// nonzero of v, whatever the history of the weights. Keeping H costs
// Σ_r nnz(row r)²/2 scattered writes per term whose weight changed (about
// 5× a gradient of that term at the default density; a term that recurs
// is added from its packed Gram matrix instead, see termGramFloats), so H
// is brought up to date only when a vertex gradient asks for it, and only
// when that pays: the cost of the other routes (bringing a remembered
// vertex gradient up to the weights term by term, or computing a new one)
// since H was last used is kept as rent, and H is used once bringing it up
// to date and multiplying costs no more than the rent plus the request's
// own cost by the other route (rent or buy), provided that keeping H
// current afterwards would beat the other routes on average. Per round
// one term changes weight, so once H is current, vertices seen again
// after many weight changes, and new ones, come cheaper from H. Costs are
// counted in multiply-adds.

// gramCheaper reports whether the announced vertex's gradient comes from H
// (n² ≤ gramFloats), given that the other route costs alt operations; when
// it does not, alt is added to the rent. The Gram update's scattered
// writes into H count as gramPenalty operations each once H is larger
// than a core's private cache (measured on QUBO 502, n = 1918: without
// the penalty the Gram route was chosen and the run was 4× slower).
func (s *Sum) gramCheaper(alt float64) bool {
	sg := &s.sg
	if s.n*s.n > gramFloats || sg.noGram {
		return false
	}
	kg := 1.0
	if s.n*s.n > gramCachedFloats {
		kg = gramPenalty
	}
	// The average cost of the other routes per request.
	if sg.altAvg == 0 {
		sg.altAvg = alt
	} else {
		sg.altAvg = 0.9*sg.altAvg + 0.1*alt
	}
	budget := alt + sg.rent
	cost := s.gramCost(budget/kg) * kg
	if cost <= alt {
		return true // H is (nearly) current: cheaper now
	}
	// H lags by many terms. Catching up pays only if keeping H current
	// afterwards (one term per round, and the product) costs less than
	// the other routes on average; then rent or buy: catch up once the
	// other routes have cost as much since H was last used.
	if s.gramSteady()*kg > sg.altAvg {
		return false
	}
	if cost <= budget {
		sg.rent = 0
		return true
	}
	sg.rent += alt
	return false
}

// gramProduct is the cost of the product Hv for the announced vertex.
func (s *Sum) gramProduct() float64 {
	if nz := s.sg.nz; nz > 0 {
		return float64(s.n) * float64(nz)
	}
	return float64(s.n) * float64(s.n) // a dense v (or 0)
}

// gramSteady is the cost of keeping H current for one more round (the
// update of the term added last) plus the product for the announced
// vertex.
func (s *Sum) gramSteady() float64 {
	c := s.gramProduct()
	if k := s.lastTerm; k < len(s.terms) {
		c += s.termGramCost(k)
	}
	return c
}

// gramCost returns the cost of the announced vertex's gradient from H
// (bringing H to the weights wAt, then the product), or a value above
// limit as soon as it exceeds limit.
func (s *Sum) gramCost(limit float64) float64 {
	sg := &s.sg
	cost := s.gramProduct()
	for i, w := range sg.wAt {
		if cost > limit {
			break
		}
		if w != weightAt(sg.gw, i) {
			cost += s.termGramCost(i)
		}
	}
	return cost
}

// weightAt returns w[i], 0 beyond w.
func weightAt(w []float64, i int) float64 {
	if i < len(w) {
		return w[i]
	}
	return 0
}

// raiseCost is the cost of bringing the Gram product of e (the announced
// vertex) up to the weights wAt term by term (raiseVertex): per term whose
// weight changed, its sparse products (sparseWork's estimate), an O(n)
// axpy of a kept product, or a gradient.
func (s *Sum) raiseCost(e *vertexGrad) float64 {
	sg := &s.sg
	var c float64
	for i, w := range sg.wAt {
		if w != weightAt(e.w, i) {
			switch {
			case i < len(e.prod) && e.prod[i] != nil:
				c += float64(s.n)
			case sg.sparse:
				c += sg.termWork[i]
			default:
				c += s.terms[i].(*LeastSquares).gradCost()
			}
		}
	}
	return c
}

// newVertexCost is the cost of the gradient of a new vertex without H:
// the sparse products (sparseWork's estimate) or term by term.
func (s *Sum) newVertexCost() float64 {
	sg := &s.sg
	if sg.sparse {
		work, _ := s.sparseWork(sg.idx[:sg.nz])
		return work
	}
	var c float64
	for i, w := range sg.wAt {
		if w != 0 {
			c += s.terms[i].(*LeastSquares).gradCost()
		}
	}
	return c
}

// gramHv stores the Gram product Hv of the announced vertex in dst after
// bringing H to the weights wAt.
func (s *Sum) gramHv(dst []float64) {
	sg := &s.sg
	n := s.n
	if sg.gram == nil {
		sg.gram = make([]float64, n*n)
	}
	for i, w := range sg.wAt {
		if i == len(sg.gw) {
			sg.gw = append(sg.gw, 0)
		}
		if dw := w - sg.gw[i]; dw != 0 {
			s.addTermGram(i, dw, sg.gw[i] != 0)
			sg.gw[i] = w
		}
	}
	clear(dst)
	if sg.nz > 0 {
		for k, j := range sg.idx[:sg.nz] {
			gramAxpy(dst, sg.gram, n, j, sg.val[k])
		}
	} else {
		for j, vj := range sg.vn {
			if vj != 0 {
				gramAxpy(dst, sg.gram, n, j, vj)
			}
		}
	}
	sg.byGram++
}

// raise adds (to_i − had_i)·∇f_i(p) to g for every term i whose weight in
// to differs from had (missing entries of had are 0) and returns had set
// to to: a gradient at p for the weights had becomes one for to. The
// gradient of the hinted term at the hinted point is the hint's.
func (s *Sum) raise(g, p, had, to []float64) []float64 {
	sg := &s.sg
	for i, w := range to {
		if i == len(had) {
			had = append(had, 0)
		}
		if w == had[i] {
			continue
		}
		gi := sg.tmp
		if h := &sg.hint; h.ok && h.term == i && sameVec(p, h.x) {
			gi, h.ok = h.g, false
			sg.hinted++
		} else {
			s.terms[i].Grad(gi, p)
		}
		axpy(g, w-had[i], gi)
		had[i] = w
	}
	return had
}

// hashFloats is an FNV-1a hash of the bits of v.
func hashFloats(v []float64) uint64 {
	h := uint64(14695981039346656037)
	for _, x := range v {
		h ^= math.Float64bits(x)
		h *= 1099511628211
	}
	return h
}

// absorbWeights adds to the remembered gradient (at x) the terms whose
// weight grew since it was computed.
func (s *Sum) absorbWeights(x []float64) {
	sg := &s.sg
	if sg.cbOK {
		for i, w := range s.weights {
			var had float64
			if i < len(sg.wAt) {
				had = sg.wAt[i]
			}
			if dw := w - had; dw != 0 {
				ls := s.terms[i].(*LeastSquares)
				axpy(sg.cb, dw, ls.transB())
				sg.bb += dw * dot(ls.b, ls.b)
			}
		}
	}
	sg.wAt = s.raise(sg.g, x, sg.wAt, s.weights)
}

// announce records the step of StepToward for the remembered gradient:
// the nonzeros of v and the predicted point, computed as MoveToward does.
func (s *Sum) announce(x, v []float64, gamma float64) {
	sg := &s.sg
	sg.pending = false
	if !sg.ok || !sameVec(x, sg.x) {
		return
	}
	nz := support(sg.idx[:cap(sg.idx)], sg.val[:cap(sg.val)], nil, v, 0)
	sg.sparse = nz >= 0 && s.sparseWorthIt(sg.idx[:nz])
	sg.nz = max(nz, 0)
	copy(sg.vn, v)
	s.announceStep(x, v, gamma)
}

// announceStep sets the step length of the announced step toward v: the
// predicted point x + γ(v − x), computed as MoveToward does.
func (s *Sum) announceStep(x, v []float64, gamma float64) {
	sg := &s.sg
	copy(sg.xn, x)
	MoveToward(sg.xn, gamma, v)
	sg.gamma, sg.pending = gamma, true
}

// transB returns Aᵀb, computed on first use and kept.
func (f *LeastSquares) transB() []float64 {
	f.setup()
	k := &f.k
	if k.atb == nil {
		_, n := f.a.Dims()
		k.atb = make([]float64, n)
		k.tr.MulTransVec(k.atb, f.b)
	}
	return k.atb
}

// sparseWorthIt reports whether the update of the remembered gradient
// along v (its nonzeros at idx) costs less than recomputing it: the
// entries A_kᵀ(A_k v) reads, estimated as the nonzeros of v's columns
// times the average row length, are read at random, the recomputation's
// two products stream the whole matrices; measured break-even
// (BenchmarkSumStep) about where the former reach half the latter's
// nonzeros.
func (s *Sum) sparseWorthIt(idx []int) bool {
	work, full := s.sparseWork(idx)
	return work < full/2
}

// sparseWork estimates the entries the sparse products 2Σ_k w_k A_kᵀ(A_k v)
// read for v with nonzeros at idx (the nonzeros of v's columns times the
// average row length, over the terms with weight in wAt), and the
// nonzeros of those terms' matrices. It keeps each term's estimate in
// termWork (0 for the terms without weight).
func (s *Sum) sparseWork(idx []int) (work, full float64) {
	sg := &s.sg
	if cap(sg.termWork) < len(s.terms) {
		sg.termWork = make([]float64, len(s.terms), 2*len(s.terms))
	}
	sg.termWork = sg.termWork[:len(s.terms)]
	clear(sg.termWork)
	for i, f := range s.terms {
		if weightAt(sg.wAt, i) == 0 {
			continue
		}
		ls := f.(*LeastSquares)
		a := ls.a.(*CSR)
		c := ls.k.cols.(*CSC)
		cols := 0
		for _, j := range idx {
			cols += c.ColPtr[j+1] - c.ColPtr[j]
		}
		nnz := float64(len(a.Val))
		sg.termWork[i] = float64(cols) * nnz / float64(max(a.Rows, 1))
		work += sg.termWork[i]
		full += nnz
	}
	return work, full
}

// gramCost returns the multiply-adds of addGram (+1): Σ_r l_r(l_r + 1)/2
// with l_r the nonzeros of row r.
func (f *LeastSquares) gramCost() int {
	if f.k.gramCost == 0 {
		a := f.a.(*CSR)
		c := 1
		for r := range a.Rows {
			l := a.RowPtr[r+1] - a.RowPtr[r]
			c += l * (l + 1) / 2
		}
		f.k.gramCost = c
	}
	return f.k.gramCost
}

// gradCost returns the multiply-adds of a gradient, 2·nnz(A) + n.
func (f *LeastSquares) gradCost() float64 {
	_, n := f.a.Dims()
	return float64(2*len(f.a.(*CSR).Val) + n)
}

// addGram adds w·AᵀA to the upper triangle of a symmetric n×n matrix
// whose entry (i, j), i ≤ j, is h[off[i] + j]: off[i] = i·n for the
// row-major layout of H (see gramAxpy), i·n − i(i+1)/2 for a packed one
// (the rows of the upper triangle from the diagonal on, one after the
// other).
func (f *LeastSquares) addGram(h []float64, off []int, w float64) {
	a := f.a.(*CSR)
	for r := range a.Rows {
		lo, hi := a.RowPtr[r], a.RowPtr[r+1]
		cols, vals := a.ColIdx[lo:hi], a.Val[lo:hi]
		for p, cp := range cols {
			wv := w * vals[p]
			for q := p; q < len(cols); q++ {
				i, j := cp, cols[q]
				if i > j {
					i, j = j, i
				}
				h[off[i]+j] += wv * vals[q]
			}
		}
	}
}

// termGramFloats is the memory budget of the terms' packed Gram matrices
// A_kᵀA_k (32 MiB; a variable for the tests): a term whose weight in H
// changes again (terms recur: the loss pools of the online runs) is added
// to H from its packed matrix, a contiguous axpy of n(n+1)/2 entries,
// instead of addGram's Σ_r l_r(l_r + 1)/2 scattered ones (measured at
// n = 240 with 20 nonzeros per row: 28 µs against 88 µs).
var termGramFloats = 4 << 20

// termGramCost is the cost of adding term i to H: half an operation per
// entry of its packed Gram matrix when it has one (contiguous, vectorized;
// see termGramFloats), else addGram's.
func (s *Sum) termGramCost(i int) float64 {
	sg := &s.sg
	if i < len(sg.termGram) && sg.termGram[i] != nil {
		return float64(len(sg.termGram[i])) / 2
	}
	return float64(s.terms[i].(*LeastSquares).gramCost())
}

// addTermGram adds dw·A_iᵀA_i to H: from the term's packed Gram matrix,
// which is built when the term recurs (its weight in H changed before) and
// termGramFloats allows, else by addGram's scattered updates.
func (s *Sum) addTermGram(i int, dw float64, recurring bool) {
	sg := &s.sg
	n := s.n
	if len(sg.rowOff) != n {
		sg.rowOff, sg.packOff = make([]int, n), make([]int, n)
		for r := range n {
			sg.rowOff[r] = r * n
			sg.packOff[r] = r*n - r*(r+1)/2
		}
	}
	for len(sg.termGram) <= i {
		sg.termGram = append(sg.termGram, nil)
	}
	p := sg.termGram[i]
	if size := n * (n + 1) / 2; p == nil && recurring && sg.termGramUsed+size <= termGramFloats {
		p = make([]float64, size)
		s.terms[i].(*LeastSquares).addGram(p, sg.packOff, 1)
		sg.termGram[i] = p
		sg.termGramUsed += size
	}
	if p == nil {
		s.terms[i].(*LeastSquares).addGram(sg.gram, sg.rowOff, dw)
		return
	}
	for r := range n {
		row := p[sg.packOff[r]+r : sg.packOff[r]+n]
		axpy(sg.gram[r*n+r:(r+1)*n], dw, row)
	}
	sg.fromTermGram++
}

// gramAxpy adds a·H[j,:] to dst, where H is the symmetric n×n matrix whose
// upper triangle h holds (addGram).
func gramAxpy(dst, h []float64, n, j int, a float64) {
	for i := range j {
		dst[i] += a * h[i*n+j]
	}
	axpy(dst[j:], a, h[j*n+j:(j+1)*n])
}

// addGramSparse adds w·Aᵀ(A·v) to acc for the vector v with the nonzeros
// val at idx: A·v from the columns of v (CSC), then the rows it touches
// (CSR). Its scratch is left zero.
func (f *LeastSquares) addGramSparse(acc []float64, w float64, idx []int, val []float64) {
	f.setup()
	k := &f.k
	if len(k.u) != k.csr.Rows {
		k.u = make([]float64, k.csr.Rows)
	}
	f.gatherSparse(idx, val, math.MaxInt)
	f.scatterTouched(acc, w)
}

// FuncEstimate returns F(x) for scale decisions (such as whether a Φ is
// negligible next to F): at the point of the last Grad of a sum of least
// squares losses it is ½x·∇F(x) − x·Σ_k w_k A_kᵀb_k + Σ_k w_k‖b_k‖² (plus
// the linear part), O(n) with the remembered gradient, whose rounding
// error is of the order of 1e-16·Σ_k w_k‖b_k‖² — far more, relative to F,
// than Func's when F is much smaller than that; elsewhere it is Func(x).
// Differences of values must use Func.
func (s *Sum) FuncEstimate(x []float64) float64 {
	sg := &s.sg
	if len(s.terms) == 0 || !s.sumFast() || !sg.ok || !sameVec(x, sg.x) {
		return s.Func(x)
	}
	s.absorbWeights(x)
	s.ensureCB()
	v := s.linB + 0.5*dot(x, sg.g) - dot(x, sg.cb) + sg.bb
	if s.lin != nil {
		v += dot(s.lin, x)
	}
	return v
}
