package lmo

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/lazycg/lazycg"
)

// Block is one factor of a product oracle: coordinates
// [Offset, Offset+Dim) of the product belong to LMO. It is lazycg.Block,
// so that the block-coordinate methods of package lazycg can use it.
type Block = lazycg.Block

// BlockLMO is an LMO over a Cartesian product P_1 × … × P_K whose blocks
// can be minimized one at a time (for block-coordinate Frank–Wolfe); it
// is lazycg.BlockLMO.
type BlockLMO = lazycg.BlockLMO

// product is the Cartesian product of LMOs. The types below embed it to
// add the optional capabilities that all factors share.
type product struct {
	blocks []Block
	dim    int
}

// The capabilities forwarded by NewProduct, one small type each, combined
// by embedding.
type (
	productFace struct{ p *product }
	productDiam struct{ p *product }
	productAug  struct{ p *product }
	productPair struct{ p *product }

	productF struct {
		*product
		productFace
	}
	productD struct {
		*product
		productDiam
	}
	productA struct {
		*product
		productAug
	}
	productFD struct {
		*product
		productFace
		productDiam
	}
	productFA struct {
		*product
		productFace
		productAug
	}
	productDA struct {
		*product
		productDiam
		productAug
	}
	productFDA struct {
		*product
		productFace
		productDiam
		productAug
	}
	productFP struct {
		*product
		productFace
		productPair
	}
	productFDP struct {
		*product
		productFace
		productDiam
		productPair
	}
	productFAP struct {
		*product
		productFace
		productAug
		productPair
	}
	productFDAP struct {
		*product
		productFace
		productDiam
		productAug
		productPair
	}
)

var (
	_ BlockLMO             = (*product)(nil)
	_ lazycg.FaceMinimizer = productF{}
	_ lazycg.Diameter1     = productD{}
	_ lazycg.Augmenter     = productA{}
	_ lazycg.FaceMinimizer = productFDA{}
	_ lazycg.Diameter1     = productFDA{}
	_ lazycg.Augmenter     = productFDA{}

	_ lazycg.PairwiseStepBounder = productFP{}
	_ lazycg.FaceMinimizer       = productFDAP{}
	_ lazycg.Diameter1           = productFDAP{}
	_ lazycg.Augmenter           = productFDAP{}
	_ lazycg.PairwiseStepBounder = productFDAP{}
)

// NewProduct returns the Cartesian product P_1 × … × P_K of the given
// oracles, a polytope (or convex body) in R^{n_1+…+n_K} whose coordinates
// are the blocks' coordinates in order. Minimize solves every block and is
// exact when every block is; Bound is the sum of the blocks' bounds (−Inf
// when one is −Inf or when the sum lies below −MaxFloat64, capped at
// Value), and Value is c·dst (see answerValue: finite where only partial
// sums overflow). An error of a block is returned wrapped, and Minimize
// returns an error when c·dst lies beyond the range of float64, even
// where every block's value lies within it.
//
// Optional capabilities are forwarded only when every block has them and
// the product inherits them soundly:
//
//   - lazycg.FaceMinimizer: the face {x_i = 0 where zero[i]} of the
//     product is the product of the blocks' faces;
//   - lazycg.Diameter1: the ℓ1-diameter of the product is the sum of the
//     blocks' diameters (and a product of 0/1 polytopes is 0/1);
//   - lazycg.Augmenter: x is optimal for the product iff every block of x
//     is optimal for its block of c; Augment augments every block that can
//     improve, in one pass;
//   - lazycg.PairwiseStepBounder, when every block is a FaceMinimizer that
//     bounds pairwise steps itself or reports lazycg.StandardForm (for
//     which the step is the ratio test x + ηd ≥ 0 on its coordinates): a
//     pairwise step is feasible for the product iff it is for every block,
//     so the bound is the least of the blocks' bounds. The decomposition-
//     invariant pairwise methods (PCG, LPCG) thus run over products of such
//     polytopes.
//
// lazycg.EarlyStopper is never forwarded: a stop rule for the sum does not
// split into rules for the blocks without knowing their values.
//
// At least one block is required; blocks must have dimension ≥ 1. The
// oracles are kept by reference; a block that appears twice is called
// twice per Minimize, so the product is as (un)safe for concurrent use as
// its blocks.
func NewProduct(blocks ...lazycg.LMO) (BlockLMO, error) {
	if len(blocks) == 0 {
		return nil, errors.New("lmo: product: no blocks")
	}
	p := &product{blocks: make([]Block, len(blocks))}
	face, diam, aug, pair := true, true, true, true
	for k, b := range blocks {
		if b == nil {
			return nil, fmt.Errorf("lmo: product: block %d is nil", k)
		}
		d := b.Dim()
		if d < 1 {
			return nil, fmt.Errorf("lmo: product: block %d (%T) has dimension %d, want ≥ 1", k, b, d)
		}
		if p.dim > math.MaxInt-d {
			return nil, fmt.Errorf("lmo: product: total dimension overflows at block %d", k)
		}
		p.blocks[k] = Block{Offset: p.dim, Dim: d, LMO: b}
		p.dim += d
		_, ok := b.(lazycg.FaceMinimizer)
		face = face && ok
		_, ok = b.(lazycg.Diameter1)
		diam = diam && ok
		_, ok = b.(lazycg.Augmenter)
		aug = aug && ok
		_, ok = b.(lazycg.PairwiseStepBounder)
		if sf, isSF := b.(lazycg.StandardForm); !ok && isSF {
			ok = sf.StandardForm()
		}
		pair = pair && ok
	}
	f, d, a, pw := productFace{p}, productDiam{p}, productAug{p}, productPair{p}
	switch {
	case face && pair && diam && aug:
		return productFDAP{p, f, d, a, pw}, nil
	case face && pair && diam:
		return productFDP{p, f, d, pw}, nil
	case face && pair && aug:
		return productFAP{p, f, a, pw}, nil
	case face && pair:
		return productFP{p, f, pw}, nil
	case face && diam && aug:
		return productFDA{p, f, d, a}, nil
	case face && diam:
		return productFD{p, f, d}, nil
	case face && aug:
		return productFA{p, f, a}, nil
	case diam && aug:
		return productDA{p, d, a}, nil
	case face:
		return productF{p, f}, nil
	case diam:
		return productD{p, d}, nil
	case aug:
		return productA{p, a}, nil
	}
	return p, nil
}

// Dim returns the total dimension.
func (p *product) Dim() int { return p.dim }

// Blocks returns the factors (shared, do not modify).
func (p *product) Blocks() []Block { return p.blocks }

// check validates the lengths of the full vectors dst and c.
func (p *product) check(dst, c []float64) error {
	if len(c) != p.dim {
		return fmt.Errorf("lmo: product: cost vector has length %d, want %d", len(c), p.dim)
	}
	if len(dst) != p.dim {
		return fmt.Errorf("lmo: product: destination has length %d, want %d", len(dst), p.dim)
	}
	return nil
}

// Minimize minimizes every block; see NewProduct.
func (p *product) Minimize(ctx context.Context, dst, c []float64) (lazycg.LinearResult, error) {
	if err := p.check(dst, c); err != nil {
		return lazycg.LinearResult{}, err
	}
	acc := productResult{exact: true}
	for k, b := range p.blocks {
		lo, hi := b.Offset, b.Offset+b.Dim
		res, err := b.LMO.Minimize(ctx, dst[lo:hi], c[lo:hi])
		if err := acc.add(k, res, err); err != nil {
			return lazycg.LinearResult{}, err
		}
	}
	return acc.result(c, dst)
}

// MinimizeBlock implements BlockLMO.
func (p *product) MinimizeBlock(ctx context.Context, k int, dst, c []float64) (lazycg.LinearResult, error) {
	if err := p.check(dst, c); err != nil {
		return lazycg.LinearResult{}, err
	}
	if k < 0 || k >= len(p.blocks) {
		return lazycg.LinearResult{}, fmt.Errorf("lmo: product: block %d outside [0, %d)", k, len(p.blocks))
	}
	b := p.blocks[k]
	res, err := b.LMO.Minimize(ctx, dst[b.Offset:b.Offset+b.Dim], c[b.Offset:b.Offset+b.Dim])
	if err != nil {
		return lazycg.LinearResult{}, fmt.Errorf("lmo: product: block %d: %w", k, err)
	}
	return res, nil
}

// productResult accumulates the results of the blocks.
type productResult struct {
	bound  float64 // sum of the finite bounds, in order (may overflow)
	small  float64 // sum of the finite bounds times 2^−productBoundShift
	nobnd  bool    // a block's bound was −Inf
	nodes  int64
	reason lazycg.StopReason
	exact  bool // every block so far was optimal; start with true
}

// productBoundShift scales the blocks' bounds in productResult.small so
// that their sum cannot overflow (fewer than 2^63 blocks of |bound| <
// 2^1024); only bounds below 2^(productBoundShift−1022), negligible where
// the plain sum overflowed, lose bits.
const productBoundShift = 64

// add folds in the result of block k, or wraps its error.
func (a *productResult) add(k int, res lazycg.LinearResult, err error) error {
	if err != nil {
		return fmt.Errorf("lmo: product: block %d: %w", k, err)
	}
	if !res.Found {
		return fmt.Errorf("lmo: product: block %d returned no vertex (%v)", k, res.Reason)
	}
	if math.IsInf(res.Bound, -1) {
		a.nobnd = true // bounds are never +Inf
	} else {
		a.bound += res.Bound
		a.small += math.Ldexp(res.Bound, -productBoundShift)
	}
	a.nodes += res.Nodes
	if a.exact && !res.Optimal() {
		a.exact, a.reason = false, res.Reason
	}
	return nil
}

// result returns the product's result for the vertex dst, or
// errBeyondFloat64 when c·dst lies beyond the range of float64 (the sum of
// the blocks' finite values can overflow). The bound is −Inf when a
// block's is, and otherwise the sum of the blocks' bounds, summed scaled
// where the plain sum overflowed (+Inf + −Inf gave NaN): −Inf when it lies
// below −MaxFloat64, and never above Value.
func (a *productResult) result(c, dst []float64) (lazycg.LinearResult, error) {
	v, err := basicValue("product", c, dst)
	if err != nil {
		return lazycg.LinearResult{}, err
	}
	if a.exact {
		r := lazycg.Exact(v)
		r.Nodes = a.nodes
		return r, nil
	}
	bound := a.bound
	switch {
	case a.nobnd:
		bound = math.Inf(-1)
	case bound-bound != 0:
		bound = math.Ldexp(a.small, productBoundShift)
	}
	return lazycg.LinearResult{Found: true, Value: v, Bound: min(bound, v), Reason: a.reason, Nodes: a.nodes}, nil
}

// MinimizeFace minimizes over the product of the blocks' faces.
func (f productFace) MinimizeFace(ctx context.Context, dst, c []float64, zero []bool) (lazycg.LinearResult, error) {
	p := f.p
	if err := p.check(dst, c); err != nil {
		return lazycg.LinearResult{}, err
	}
	if err := basicCheckZero("product", p.dim, zero); err != nil {
		return lazycg.LinearResult{}, err
	}
	acc := productResult{exact: true}
	for k, b := range p.blocks {
		lo, hi := b.Offset, b.Offset+b.Dim
		res, err := b.LMO.(lazycg.FaceMinimizer).MinimizeFace(ctx, dst[lo:hi], c[lo:hi], zero[lo:hi])
		if err := acc.add(k, res, err); err != nil {
			return lazycg.LinearResult{}, err
		}
	}
	return acc.result(c, dst)
}

// L1Diameter returns the sum of the blocks' ℓ1-diameters (saturating at
// math.MaxInt).
func (d productDiam) L1Diameter() int {
	s := 0
	for _, b := range d.p.blocks {
		x := b.LMO.(lazycg.Diameter1).L1Diameter()
		if s > math.MaxInt-x {
			return math.MaxInt
		}
		s += x
	}
	return s
}

// ZeroOne reports whether every block is a 0/1 polytope
// (lazycg.IsZeroOne of each factor; see lazycg.ZeroOner).
func (p *product) ZeroOne() bool {
	for _, b := range p.blocks {
		if !lazycg.IsZeroOne(b.LMO) {
			return false
		}
	}
	return true
}

// Augment augments every block of x that is not optimal for its block of
// c and reports whether any was; dst is x with those blocks replaced.
func (g productAug) Augment(ctx context.Context, dst, c, x []float64) (bool, error) {
	p := g.p
	if err := p.check(dst, c); err != nil {
		return false, err
	}
	if len(x) != p.dim {
		return false, fmt.Errorf("lmo: product: point has length %d, want %d", len(x), p.dim)
	}
	improved := false
	for k, b := range p.blocks {
		lo, hi := b.Offset, b.Offset+b.Dim
		ok, err := b.LMO.(lazycg.Augmenter).Augment(ctx, dst[lo:hi], c[lo:hi], x[lo:hi])
		if err != nil {
			return false, fmt.Errorf("lmo: product: block %d: %w", k, err)
		}
		if !ok {
			copy(dst[lo:hi], x[lo:hi])
		}
		improved = improved || ok
	}
	return improved, nil
}

// MaxPairwiseStep returns the largest η ∈ [0, 1] with
// x + η(vPlus − vMinus) in the product: the least of the blocks' steps,
// each from the block's own PairwiseStepBounder or, for a block in
// standard form, the ratio test on its coordinates.
func (pp productPair) MaxPairwiseStep(x, vPlus, vMinus []float64) float64 {
	eta := 1.0
	for _, b := range pp.p.blocks {
		lo, hi := b.Offset, b.Offset+b.Dim
		if sb, ok := b.LMO.(lazycg.PairwiseStepBounder); ok {
			eta = math.Min(eta, math.Max(0, sb.MaxPairwiseStep(x[lo:hi], vPlus[lo:hi], vMinus[lo:hi])))
			continue
		}
		for i := lo; i < hi; i++ {
			if d := vPlus[i] - vMinus[i]; d < 0 {
				eta = math.Min(eta, math.Max(0, x[i])/-d)
			}
		}
	}
	return eta
}
