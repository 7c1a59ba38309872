package lazycg

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
)

// Block is one factor of a product polytope P_1 × … × P_m: coordinates
// [Offset, Offset+Dim) of the product belong to the factor, whose LMO is
// LMO (of dimension Dim).
type Block struct {
	Offset, Dim int
	LMO         LMO
}

// BlockLMO is an LMO over a Cartesian product P_1 × … × P_m whose factors
// can be minimized one at a time, for block-coordinate methods
// (lmo.NewProduct returns one).
type BlockLMO interface {
	LMO
	// Blocks lists the factors in order (shared, do not modify).
	Blocks() []Block
	// MinimizeBlock minimizes over factor k only: it reads the block's part
	// of the full-length cost vector c and writes the block's part of the
	// full-length dst, leaving the rest of dst unchanged.
	MinimizeBlock(ctx context.Context, k int, dst, c []float64) (LinearResult, error)
}

// BlockSeparator is an optional capability of weak separation oracles
// over a BlockLMO: weak separation over one factor. CachedSeparator has
// it when its LMO is a BlockLMO (one cache per factor).
type BlockSeparator interface {
	// SeparateBlock is Separate over factor k of the separator's BlockLMO:
	// it reads block k of the full-length c and x and either writes a
	// vertex y_k of P_k with c_k·(x_k − y_k) > Φ/K into block k of dst
	// (positive) or certifies c_k·(x_k − z_k) ≤ Φ for every z_k in P_k.
	SeparateBlock(ctx context.Context, k int, dst, c, x []float64, phi, K float64) (Separation, error)
}

// SeparateBlock implements BlockSeparator when s.LMO is a BlockLMO: every
// factor gets its own CachedSeparator over the factor's LMO with all of
// s's settings (NoEarlyStop, NoDive, AdaptiveDive, CacheAll, CallBudget,
// RelGap, MaxInexact, and any added later), its own state, and a cache of
// the policy of s.Cache whose MaxBytes is split evenly between the factors
// (no caches when s.Cache is nil). They are built on the first call.
func (s *CachedSeparator) SeparateBlock(ctx context.Context, k int, dst, c, x []float64, phi, K float64) (Separation, error) {
	bl, ok := s.st.blockLM.get(s.LMO)
	if !ok {
		return Separation{}, fmt.Errorf("lazycg: separate block: the LMO (%T) is not a BlockLMO", s.LMO)
	}
	blocks := bl.Blocks()
	if s.st.blocks == nil {
		s.st.blocks = make([]*CachedSeparator, len(blocks))
		for i, b := range blocks {
			if b.LMO == nil {
				s.st.blocks = nil
				return Separation{}, fmt.Errorf("lazycg: separate block: block %d has no LMO", i)
			}
			bs := s.derive(b.LMO)
			if s.Cache != nil {
				policy := s.Cache.Policy()
				if policy.MaxBytes > 0 {
					policy.MaxBytes = max(1, policy.MaxBytes/int64(len(blocks)))
				}
				bs.Cache = newLMOCache(b.LMO, policy, 0)
			}
			s.st.blocks[i] = bs
		}
	}
	if k < 0 || k >= len(blocks) {
		return Separation{}, fmt.Errorf("lazycg: separate block: block %d outside [0, %d)", k, len(blocks))
	}
	lo, hi := blocks[k].Offset, blocks[k].Offset+blocks[k].Dim
	bs := s.st.blocks[k]
	bs.st.capped, bs.st.left = s.st.capped, s.st.left // the run's limit (callLimiter)
	sep, err := bs.Separate(ctx, dst[lo:hi], c[lo:hi], x[lo:hi], phi, K)
	bs.st.capped = false
	return sep, err
}

// BlockOrder selects the blocks a block-coordinate pass updates.
type BlockOrder int

const (
	// BlockCyclic updates the blocks 1, …, m in order, every pass.
	BlockCyclic BlockOrder = iota
	// BlockRandom updates m blocks drawn uniformly at random with
	// replacement per pass (the block-coordinate FW of Lacoste-Julien,
	// Jaggi, Schmidt and Pletscher, ICML 2013), from a generator seeded
	// by the method's Seed.
	BlockRandom
	// BlockGap updates m blocks per pass drawn at random with
	// probabilities proportional to estimates of their gaps (the gap
	// sampling of Osokin, Alayrac, Lukasewitz, Dokania and Lacoste-Julien,
	// "Minding the gaps for block Frank–Wolfe optimization of structured
	// SVMs", ICML 2016): blocks not asked yet come first; BlockFW's
	// estimate of block k is its FW gap ∇f_k·(x_k − v_k) when its LMO was
	// last asked (every block at once when the whole product's LMO proves
	// the gap), LazyBlockFW's is Φ_k (a negative answer proves the block's
	// gap ≤ Φ_k). Draws use the method's Seed.
	BlockGap
)

// String returns the order's name.
func (o BlockOrder) String() string {
	switch o {
	case BlockCyclic:
		return "cyclic"
	case BlockRandom:
		return "random"
	case BlockGap:
		return "gap"
	}
	return "unknown"
}

// blockCore holds what BlockFW and LazyBlockFW share: the blocks, the
// order, buffers, the line searcher, and the proof of the Wolfe gap
// collected block by block.
//
// The Wolfe gap over a product is the sum of the blocks' gaps at one
// point. Block answers at different points prove nothing together, so
// the core sums the blocks' proven bounds only while x does not move:
// once every block has a bound at the current x, their sum bounds the
// Wolfe gap there (a dual bound).
type blockCore struct {
	lmo    BlockLMO
	blocks []Block
	order  BlockOrder
	rng    *rand.Rand
	v, d   []float64
	ls     lineSearcher

	bound     []float64 // proven gap bound of each block at the current x
	certified []bool
	count     int // blocks with a bound at the current x

	// gaps are BlockGap's estimates (+Inf: block not asked yet); gapOf,
	// when set, overrides them (LazyBlockFW's Φ_k).
	gaps  []float64
	gapOf func(k int) float64
}

func (c *blockCore) init(s *State, order BlockOrder, seed uint64, ls LineSearch, name string) error {
	if err := needBlocks(name, s.Oracle.LMO()); err != nil {
		return err
	}
	bl := s.Oracle.LMO().(BlockLMO)
	if err := checkBlock(order, ls, s.Obj, name); err != nil {
		return err
	}
	c.lmo, c.blocks, c.order = bl, bl.Blocks(), order
	if len(c.blocks) == 0 {
		return fmt.Errorf("lazycg: %s: the product has no blocks", name)
	}
	c.rng = rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	n := len(s.X)
	c.v = make([]float64, n)
	c.d = make([]float64, n)
	c.bound = make([]float64, len(c.blocks))
	c.certified = make([]bool, len(c.blocks))
	c.count = 0
	c.gaps = make([]float64, len(c.blocks))
	for k := range c.gaps {
		c.gaps[k] = math.Inf(1)
	}
	c.gapOf = nil
	return c.ls.init(s, ls, name)
}

// checkBlock reports an unknown block order and a line search that
// cannot run on obj.
func checkBlock(order BlockOrder, ls LineSearch, obj Objective, name string) error {
	if order != BlockCyclic && order != BlockRandom && order != BlockGap {
		return fmt.Errorf("lazycg: %s: unknown block order %d", name, int(order))
	}
	return checkLineSearch(ls, obj, name)
}

// next returns the block of the j-th update of a pass.
func (c *blockCore) next(j int) int {
	switch c.order {
	case BlockRandom:
		return c.rng.IntN(len(c.blocks))
	case BlockGap:
		return c.sampleGap()
	}
	return j
}

// sampleGap draws a block with probability proportional to its gap
// estimate: the first block not asked yet when there is one, uniformly
// when every estimate is zero.
func (c *blockCore) sampleGap() int {
	var sum float64
	for k := range c.gaps {
		g := c.gapEstimate(k)
		if math.IsInf(g, 1) {
			return k
		}
		sum += g
	}
	if !(sum > 0) || math.IsInf(sum, 0) {
		return c.rng.IntN(len(c.blocks))
	}
	u := c.rng.Float64() * sum
	last := 0
	for k := range c.gaps {
		g := c.gapEstimate(k)
		if g <= 0 {
			continue
		}
		last = k
		if u -= g; u < 0 {
			return k
		}
	}
	return last // rounding
}

// gapEstimate returns BlockGap's estimate of block k (≥ 0 or +Inf).
func (c *blockCore) gapEstimate(k int) float64 {
	g := c.gaps[k]
	if c.gapOf != nil && !math.IsInf(g, 1) {
		g = c.gapOf(k)
	}
	if !(g > 0) {
		return 0
	}
	return g
}

// observed records the FW gap g of block k at the current x (BlockGap's
// estimate).
func (c *blockCore) observed(k int, g float64) {
	if math.IsNaN(g) {
		g = 0
	}
	c.gaps[k] = max(g, 0)
}

// moved forgets the bounds: x has changed.
func (c *blockCore) moved() {
	if c.count > 0 {
		clear(c.certified)
		c.count = 0
	}
}

// certify records the proven bound g on the gap of block k at the current
// x; once every block has one it reports their sum as a dual bound and
// returns true (the bounds are kept until x moves).
func (c *blockCore) certify(s *State, k int, g float64) bool {
	if math.IsNaN(g) || math.IsInf(g, 1) {
		return false
	}
	if !c.certified[k] {
		c.certified[k] = true
		c.count++
	}
	c.bound[k] = g
	if c.count < len(c.blocks) {
		return false
	}
	var sum float64
	for _, b := range c.bound {
		sum += b
	}
	s.ReportGap(s.F, sum)
	return true
}

// gap returns ∇f_k·x_k − value, the improvement of value on block k.
func (c *blockCore) blockDot(k int, a, b []float64) float64 {
	lo, hi := c.blocks[k].Offset, c.blocks[k].Offset+c.blocks[k].Dim
	return dot(a[lo:hi], b[lo:hi])
}

// step moves block k of x toward block k of c.v with line search and
// returns the step (0: no move).
func (c *blockCore) step(s *State, k int) float64 {
	b := c.blocks[k]
	lo, hi := b.Offset, b.Offset+b.Dim
	clear(c.d)
	sub(c.d[lo:hi], c.v[lo:hi], s.X[lo:hi])
	gamma := c.ls.search(s, c.d, 1)
	if gamma == 0 {
		return 0
	}
	axpy(s.X[lo:hi], gamma, c.d[lo:hi])
	s.Eval()
	c.moved()
	return gamma
}

// needBlocks says why the block methods cannot run on lmo (nil: they can):
// it must be a product of blocks.
func needBlocks(name string, lmo LMO) error {
	bl, ok := lmo.(BlockLMO)
	if !ok {
		return fmt.Errorf("lazycg: %s: the LMO (%T) is not a product of blocks (BlockLMO; see lmo.NewProduct)", name, lmo)
	}
	return checkBlocks(name, bl.Blocks(), lmo.Dim())
}

// checkBlocks returns an error unless blocks, the factors of a product
// of dimension n, are at least one, each of dimension ≥ 1, and cover the
// coordinates [0, n) in order (the block methods slice the vectors by
// them), and each factor's LMO, when set (the default separator's
// SeparateBlock needs it), is no typed nil and of the factor's dimension.
func checkBlocks(name string, blocks []Block, n int) error {
	if len(blocks) == 0 {
		return fmt.Errorf("lazycg: %s: the product has no blocks", name)
	}
	end := 0
	for k, b := range blocks {
		if b.Offset != end || b.Dim < 1 || b.Dim > n-end {
			return fmt.Errorf("lazycg: %s: block %d covers [%d, %d), not the next coordinates of [%d, %d)", name, k,
				b.Offset, b.Offset+b.Dim, end, n)
		}
		end += b.Dim
		if b.LMO == nil {
			continue
		}
		if err := CheckNotNil(fmt.Sprintf("%s: block %d's LMO", name, k), b.LMO); err != nil {
			return err
		}
		if d := b.LMO.Dim(); d != b.Dim {
			return fmt.Errorf("lazycg: %s: block %d has dimension %d, its LMO %d", name, k, b.Dim, d)
		}
	}
	if end != n {
		return fmt.Errorf("lazycg: %s: the blocks cover [0, %d) of [0, %d)", name, end, n)
	}
	return nil
}

// needs implements problemNeeds.
func (m *BlockFW) needs(_ Objective, lmo LMO, _ WeakSeparator) error {
	return needBlocks("block fw", lmo)
}

// needs implements problemNeeds.
func (m *LazyBlockFW) needs(_ Objective, lmo LMO, sep WeakSeparator) error {
	if err := needBlocks("lazy block fw", lmo); err != nil {
		return err
	}
	if sep != nil {
		return needBlockSeparator(sep)
	}
	return nil // the default separator over a BlockLMO separates per block
}

// needBlockSeparator returns an error unless sep separates per block
// (lazy block FW's separator).
func needBlockSeparator(sep WeakSeparator) error {
	if _, ok := sep.(BlockSeparator); !ok {
		return fmt.Errorf("lazycg: lazy block fw: the separator (%T) cannot separate per block (it must be a BlockSeparator, as the default CachedSeparator over a BlockLMO is)", sep)
	}
	return nil
}

// BlockFW is the block-coordinate Frank–Wolfe method over a product
// P_1 × … × P_m given by a BlockLMO (Lacoste-Julien, Jaggi, Schmidt and
// Pletscher, ICML 2013). One iteration is a pass of m block updates in
// the order of Order: each calls the LMO of one factor k at the current
// point (one counted LMO call, however cheap) and moves block k toward
// its vertex with line search, re-evaluating ∇f after every move.
//
// Proven dual bound: a block's LMO answer bounds only its own part of the
// Wolfe gap, at the point where it was asked. Every GapEvery passes
// (default 1) a pass therefore starts with the LMO of the whole product at
// the current point, whose bound proves the Wolfe gap; the first block
// update of that pass reuses its vertex, so a certified pass costs 2m−1
// block calls. Between certificates, blocks answered at the same point
// (no move in between) are summed too, so a pass that moves nothing is a
// certificate by itself. GapEvery < 0 disables the periodic full call.
type BlockFW struct {
	// Order selects the blocks of a pass (default BlockCyclic).
	Order BlockOrder
	// Seed seeds BlockRandom.
	Seed uint64
	// GapEvery is the number of passes between full LMO calls that prove
	// the Wolfe gap (0: 1; negative: never).
	GapEvery int
	// LineSearch is the line search of every block step.
	LineSearch LineSearch

	core blockCore
	pass int
}

// Monotone implements Monotone.
func (m *BlockFW) Monotone() bool { return m.LineSearch.monotone() }

// checkFields implements fieldChecker.
func (m *BlockFW) checkFields(obj Objective) error {
	return checkBlock(m.Order, m.LineSearch, obj, "block fw")
}

// Init implements Method.
func (m *BlockFW) Init(ctx context.Context, s *State) error {
	m.pass = 0
	return m.core.init(s, m.Order, m.Seed, m.LineSearch, "block fw")
}

// Step implements Method: one pass.
func (m *BlockFW) Step(ctx context.Context, s *State) error {
	c := &m.core
	every := m.GapEvery
	if every == 0 {
		every = 1
	}
	fresh := -1 // the block whose vertex in c.v is current
	if every > 0 && m.pass%every == 0 {
		res, _, gap, err := fwVertex(ctx, s, c.v, "block fw")
		if err != nil {
			return err
		}
		if gap <= 0 && res.Optimal() {
			s.Converged = true
			return nil
		}
		for k := range c.blocks {
			c.observed(k, c.blockDot(k, s.Grad, s.X)-c.blockDot(k, s.Grad, c.v))
		}
		fresh = c.next(0)
	}
	m.pass++
	movedAny := false
	for j := range c.blocks {
		k := fresh
		if j > 0 || fresh < 0 {
			k = c.next(j)
			res, err := s.Oracle.MinimizeBlock(ctx, k, c.v, s.Grad)
			if err != nil {
				return err
			}
			if !res.Found {
				return fmt.Errorf("lazycg: block fw: the LMO of block %d returned no vertex (%v)", k, res.Reason)
			}
			c.certify(s, k, c.blockDot(k, s.Grad, s.X)-res.Bound)
		}
		g := c.blockDot(k, s.Grad, s.X) - c.blockDot(k, s.Grad, c.v)
		c.observed(k, g)
		if g <= 0 {
			continue
		}
		if c.step(s, k) > 0 {
			movedAny = true
		}
	}
	// A pass of random draws may miss the blocks that can move: it stalls
	// only once every block has answered at this x.
	if !movedAny && (c.order == BlockCyclic || c.count == len(c.blocks)) {
		s.Stalled = true
	}
	return nil
}

// LazyBlockFW is the lazified block-coordinate Frank–Wolfe method: every
// block update asks the weak separation oracle of its factor (the
// Oracle's SeparateBlock: a cache per block, then the factor's LMO, early
// terminated when it can) for a vertex y_k with ∇f_k·(x_k − y_k) > Φ_k/K.
// Every block has its own Φ_k, a copy of PhiSchedule started from the
// whole product (Φ0 from one LMO call of the product, or the binary
// search): a positive answer moves block k toward y_k with line search; a
// negative one proves the block's gap at x is at most Φ_k and updates
// Φ_k (halving, or Remark 4.3 with ImprovedPhi) — lazy CG run block by
// block. Φ_k never drops below the resolution of f (PhiNegligible), where
// negative answers mean a negligible block gap.
//
// Proven dual bound: block answers bound only their own part of the
// Wolfe gap, so a pass of m block updates (in the order of Order; one
// iteration) ends with one step of LazyCG over the whole product, with
// its own Φ (PhiSchedule): the weak separation LPsep(∇f, x, Φ, K) of the
// separator (its cache of whole vertices, then the product's LMO) either
// gives a vertex, and a FW step toward it with line search, or proves the
// Wolfe gap is at most Φ (a dual bound) and halves Φ; the run has
// converged when Φ is negligible. Φ halves only on negative answers, so
// these certificates cost O(log(Φ0/ε)) LMO calls of the product in all.
// Besides, once every block has answered negatively at the same x (no
// move in between), the sum of their bounds is reported too.
//
// The problem's separator must be a BlockSeparator: the default separator
// (a CachedSeparator over the BlockLMO) is.
type LazyBlockFW struct {
	// K ≥ 1 is the laziness factor (default DefaultK).
	K float64
	// PhiSchedule is the Φ of the whole product; every block's Φ_k starts
	// as a copy of it.
	PhiSchedule
	// Order selects the blocks of a pass (default BlockCyclic).
	Order BlockOrder
	// Seed seeds BlockRandom.
	Seed uint64
	// LineSearch is the line search of every block step.
	LineSearch LineSearch

	core blockCore
	phis []PhiSchedule
	move func(*State) float64
}

// BlockPhi returns Φ_k of block k.
func (m *LazyBlockFW) BlockPhi(k int) float64 { return m.phis[k].Phi() }

// Monotone implements Monotone.
func (m *LazyBlockFW) Monotone() bool { return m.LineSearch.monotone() }

// checkFields implements fieldChecker.
func (m *LazyBlockFW) checkFields(obj Objective) error {
	if err := checkLazy(m.K, &m.PhiSchedule, "lazy block fw"); err != nil {
		return err
	}
	return checkBlock(m.Order, m.LineSearch, obj, "lazy block fw")
}

// Init implements Method.
func (m *LazyBlockFW) Init(ctx context.Context, s *State) error {
	if err := defaultK(&m.K, "lazy block fw"); err != nil {
		return err
	}
	if err := m.core.init(s, m.Order, m.Seed, m.LineSearch, "lazy block fw"); err != nil {
		return err
	}
	if !s.Oracle.SeparatesBlocks() {
		return needBlockSeparator(s.Oracle.Separator())
	}
	if err := m.Start(ctx, s, m.core.v, m.K); err != nil {
		return err
	}
	m.move = m.step
	m.core.gapOf = func(k int) float64 { return m.phis[k].Phi() }
	m.phis = make([]PhiSchedule, len(m.core.blocks))
	for k := range m.phis {
		m.phis[k] = m.PhiSchedule
		m.floor(k, s.F)
	}
	return nil
}

// floor keeps Φ_k above the resolution of f and reports whether it had
// to raise it.
func (m *LazyBlockFW) floor(k int, f float64) bool {
	if !m.phis[k].Negligible(m.phis[k].Phi(), f) {
		return false
	}
	m.phis[k].SetPhi(2 * m.phis[k].Floor(f))
	return true
}

// Step implements Method: one pass.
func (m *LazyBlockFW) Step(ctx context.Context, s *State) error {
	c := &m.core
	for j := range c.blocks {
		k := c.next(j)
		phi := &m.phis[k]
		sep, err := s.Oracle.SeparateBlock(ctx, k, c.v, s.Grad, s.X, phi.Phi(), m.K)
		if err != nil {
			return err
		}
		c.observed(k, phi.Phi()) // asked: BlockGap now uses Φ_k
		if sep.Positive {
			if c.step(s, k) == 0 {
				// No progress along the direction in floating point.
				phi.Halve(s.F)
				if m.floor(k, s.F) {
					s.Stalled = true
					return nil
				}
			}
			continue
		}
		phi.Negative(sep, s.F)
		m.floor(k, s.F)
		c.certify(s, k, sep.GapBound)
	}
	// The certificate step over the whole product.
	return lazyStep(ctx, s, c.v, &m.PhiSchedule, m.K, m.move)
}

// step moves x toward the whole vertex in c.v with line search and
// returns the step.
func (m *LazyBlockFW) step(s *State) float64 {
	c := &m.core
	sub(c.d, c.v, s.X)
	gamma := c.ls.search(s, c.d, 1)
	if gamma > 0 {
		axpy(s.X, gamma, c.d)
		s.Eval()
		c.moved()
	}
	return gamma
}
