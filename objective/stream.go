package objective

import (
	"fmt"
	"math"
	"math/bits"
	"sync"

	"github.com/lazycg/lazycg"
)

// Stream is a finite sequence of loss functions f_0, …, f_{T−1} on R^n
// revealed one per round to an online algorithm.
type Stream interface {
	// Rounds returns the number T of losses.
	Rounds() int
	// Dim returns the dimension n.
	Dim() int
	// Loss returns f_t for 0 ≤ t < Rounds(); repeated calls with the same
	// t return the same object. It panics when t is out of range.
	Loss(t int) lazycg.Objective
}

// Linear is the affine loss f(x) = C·x + B. It implements lazycg.Objective,
// lazycg.FuncGrader and lazycg.LineMinimizer, allocates nothing and is safe
// for concurrent use.
type Linear struct {
	// C is the coefficient vector (the gradient).
	C []float64
	// B is the constant term.
	B float64
}

var (
	_ lazycg.Objective     = (*Linear)(nil)
	_ lazycg.FuncGrader    = (*Linear)(nil)
	_ lazycg.LineMinimizer = (*Linear)(nil)
	_ QuadraticLine        = (*Linear)(nil)
)

// NewLinear returns f(x) = c·x + b with c copied. c and b must be finite.
func NewLinear(c []float64, b float64) (*Linear, error) {
	if err := checkVec("c", c, len(c)); err != nil {
		return nil, fmt.Errorf("objective: linear: %w", err)
	}
	if err := checkVec("b", []float64{b}, 1); err != nil {
		return nil, fmt.Errorf("objective: linear: %w", err)
	}
	return &Linear{C: append([]float64(nil), c...), B: b}, nil
}

// Dim returns len(C).
func (f *Linear) Dim() int { return len(f.C) }

// Func returns C·x + B.
func (f *Linear) Func(x []float64) float64 { return dot(f.C, x) + f.B }

// Grad stores C in dst.
func (f *Linear) Grad(dst, x []float64) { copy(dst[:len(f.C)], f.C) }

// FuncGrad stores C in dst and returns C·x + B.
func (f *Linear) FuncGrad(dst, x []float64) float64 {
	copy(dst[:len(f.C)], f.C)
	return dot(f.C, x) + f.B
}

// LineCoeffs returns slope = C·d and curv = 0.
func (f *Linear) LineCoeffs(x, d []float64) (slope, curv float64) { return dot(f.C, d), 0 }

// LineMinimize returns 0 when C·d ≥ 0 and gmax otherwise (grad is not
// needed). The sign of C·d is taken from entries scaled by powers of two
// when the plain sum overflows or underflows.
func (f *Linear) LineMinimize(x, d, grad []float64, gmax float64) float64 {
	slope := dot(f.C, d)
	if a := math.Abs(slope); !(a >= 0x1p-900 && a <= math.MaxFloat64) {
		slope = scaledDot(f.C, d)
	}
	return minimizeQuadratic(slope, 0, slope, gmax)
}

// roundSeed derives the seed of round t of a stream with seed s: the
// SplitMix64 finalizer of s + (t+1)·SeedMix.
func roundSeed(s uint64, t int) uint64 {
	z := s + uint64(t+1)*SeedMix
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// maxStreamRounds bounds the rounds of the streams that keep a slot for
// every round (LinearLosses, QuadraticLosses), so that a huge count is an
// error rather than a makeslice panic.
const maxStreamRounds = 1 << 40

// lazyStream caches the losses of a stream, generating round t on first
// request from its own seed, so the losses do not depend on the order of
// the requests. It is safe for concurrent use.
type lazyStream[T lazycg.Objective] struct {
	mu     sync.Mutex
	n      int
	losses []T
	made   []bool
	gen    func(t int) T
}

func (s *lazyStream[T]) get(t int) T {
	if t < 0 || t >= len(s.losses) {
		panic(fmt.Sprintf("objective: stream: round %d out of range [0, %d)", t, len(s.losses)))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.made[t] {
		s.losses[t] = s.gen(t)
		s.made[t] = true
	}
	return s.losses[t]
}

// LinearStream is the stream of random linear losses of the paper's online
// experiments; see LinearLosses.
type LinearStream struct {
	lazy lazyStream[*Linear]
}

var _ Stream = (*LinearStream)(nil)

// LinearLosses returns rounds random linear losses f_t(x) = c_t·x + b_t on
// R^n with c_t uniform in [−1, 1)^n and b_t uniform in [0, 1) (section 7 of
// the paper, "Online Results"). Round t draws c_t then b_t from a PCG seeded
// with a seed derived from (seed, t), so losses are generated lazily, in any
// order, with identical results. It fails when n is not in [1,
// lazycg.MaxDim] or rounds not in [1, 2^40] (the stream keeps a slot for
// every round; Repeat plays a pool for more rounds).
func LinearLosses(n, rounds int, seed uint64) (*LinearStream, error) {
	if n <= 0 || rounds <= 0 {
		return nil, fmt.Errorf("objective: linear losses: dimension %d and rounds %d must be positive", n, rounds)
	}
	if n > lazycg.MaxDim {
		return nil, fmt.Errorf("objective: linear losses: dimension %d exceeds the dimension limit %d", n, lazycg.MaxDim)
	}
	if rounds > maxStreamRounds {
		return nil, fmt.Errorf("objective: linear losses: rounds %d exceed the limit %d", rounds, maxStreamRounds)
	}
	s := &LinearStream{lazy: lazyStream[*Linear]{n: n, losses: make([]*Linear, rounds), made: make([]bool, rounds)}}
	s.lazy.gen = func(t int) *Linear {
		rng := newRand(roundSeed(seed, t))
		c := make([]float64, n)
		for i := range c {
			c[i] = 2*rng.Float64() - 1
		}
		return &Linear{C: c, B: rng.Float64()}
	}
	return s, nil
}

// Rounds returns the number of losses.
func (s *LinearStream) Rounds() int { return len(s.lazy.losses) }

// Dim returns the dimension n.
func (s *LinearStream) Dim() int { return s.lazy.n }

// Loss returns f_t as a lazycg.Objective (a *Linear).
func (s *LinearStream) Loss(t int) lazycg.Objective { return s.lazy.get(t) }

// Linear returns f_t.
func (s *LinearStream) Linear(t int) *Linear { return s.lazy.get(t) }

// QuadraticStream is a stream of random least squares losses; see
// QuadraticLosses.
type QuadraticStream struct {
	lazy lazyStream[*LeastSquares]
}

var _ Stream = (*QuadraticStream)(nil)

// QuadraticLosses returns rounds random losses f_t(x) = ‖A_t x − b_t‖² on
// R^n, where round t is RandomLeastSquares(n, n, density, s_t) with a seed
// s_t derived from (seed, t). The n×n matrices are stored in CSR, so a
// round takes O(n²·density) memory; rounds are generated lazily on first
// request. It fails on the conditions of RandomLeastSquares or when
// rounds is not in [1, 2^40] (the stream keeps a slot for every round).
func QuadraticLosses(n, rounds int, density float64, seed uint64) (*QuadraticStream, error) {
	if err := checkLeastSquaresParams(n, n, density); err != nil {
		return nil, fmt.Errorf("objective: quadratic losses: %w", err)
	}
	if rounds <= 0 || rounds > maxStreamRounds {
		return nil, fmt.Errorf("objective: quadratic losses: rounds %d not in [1, %d]", rounds, maxStreamRounds)
	}
	s := &QuadraticStream{lazy: lazyStream[*LeastSquares]{n: n, losses: make([]*LeastSquares, rounds), made: make([]bool, rounds)}}
	s.lazy.gen = func(t int) *LeastSquares {
		f, err := RandomLeastSquares(n, n, density, roundSeed(seed, t))
		if err != nil {
			// The parameters were validated above.
			panic(fmt.Sprintf("objective: quadratic losses: round %d: %v", t, err))
		}
		return f
	}
	return s, nil
}

// Rounds returns the number of losses.
func (s *QuadraticStream) Rounds() int { return len(s.lazy.losses) }

// Dim returns the dimension n.
func (s *QuadraticStream) Dim() int { return s.lazy.n }

// Loss returns f_t as a lazycg.Objective (a *LeastSquares).
func (s *QuadraticStream) Loss(t int) lazycg.Objective { return s.lazy.get(t) }

// LeastSquares returns f_t.
func (s *QuadraticStream) LeastSquares(t int) *LeastSquares { return s.lazy.get(t) }

// Order is how a Repeated stream walks through its pool of losses.
type Order int

const (
	// OrderRandom draws the loss of every round uniformly at random from
	// the pool (independently, from a seed derived from the stream's seed
	// and the round): the paper's "random sequence of 100 different random
	// loss functions", i.i.d. losses whose expectation is the pool's mean.
	OrderRandom Order = iota
	// OrderCycle plays the pool in order, round t using loss t mod m.
	OrderCycle
)

// String returns the order's name (random, cycle).
func (o Order) String() string {
	switch o {
	case OrderRandom:
		return "random"
	case OrderCycle:
		return "cycle"
	}
	return fmt.Sprintf("Order(%d)", int(o))
}

// drawMix separates the draws of a Repeated stream from its pool's seeds.
const drawMix = 0x5851f42d4c957f2d

// MaxRounds is the number of rounds of a Repeated stream that is meant to
// run until a time limit: more than any run can play.
const MaxRounds = 1 << 52

// Repeated is a stream whose rounds are drawn from a finite pool of losses
// (see Repeat). It is safe for concurrent use when its pool is.
type Repeated struct {
	pool   Stream
	rounds int
	order  Order
	seed   uint64
}

var _ Stream = (*Repeated)(nil)

// Repeat returns the stream of rounds rounds whose losses are the m =
// pool.Rounds() losses of pool, in the given order (OrderRandom draws round
// t's loss from a seed derived from (seed, t), so rounds can be requested in
// any order with identical results). Round t's loss is the pool's object
// itself, so accumulators that merge repeated terms (Sum) evaluate the
// cumulative loss of any number of rounds in m evaluations. rounds may be
// MaxRounds for a run bounded by time. It fails when pool is nil or empty,
// rounds ≤ 0 or the order is unknown.
func Repeat(pool Stream, rounds int, order Order, seed uint64) (*Repeated, error) {
	if pool == nil || lazycg.CheckNotNil("the pool", pool) != nil || pool.Rounds() <= 0 {
		return nil, fmt.Errorf("objective: repeat: the pool must have at least one loss")
	}
	if rounds <= 0 || rounds > MaxRounds {
		return nil, fmt.Errorf("objective: repeat: rounds %d must be in [1, %d]", rounds, MaxRounds)
	}
	if order != OrderRandom && order != OrderCycle {
		return nil, fmt.Errorf("objective: repeat: unknown order %d", int(order))
	}
	return &Repeated{pool: pool, rounds: rounds, order: order, seed: seed}, nil
}

// Rounds returns the number of rounds.
func (s *Repeated) Rounds() int { return s.rounds }

// Dim returns the dimension of the pool's losses.
func (s *Repeated) Dim() int { return s.pool.Dim() }

// Pool returns the pool of losses.
func (s *Repeated) Pool() Stream { return s.pool }

// Order returns the order of the rounds.
func (s *Repeated) Order() Order { return s.order }

// Index returns the position in the pool of round t's loss (0 ≤ t <
// Rounds()); it panics when t is out of range.
func (s *Repeated) Index(t int) int {
	if t < 0 || t >= s.rounds {
		panic(fmt.Sprintf("objective: repeat: round %d out of range [0, %d)", t, s.rounds))
	}
	m := uint64(s.pool.Rounds())
	if s.order == OrderCycle {
		return int(uint64(t) % m)
	}
	// ⌊z·m/2⁶⁴⌋ for a hash z of (seed, t), uniform up to 2⁻⁶⁴·m; the seed
	// is mixed so that the draws do not share their hash with the pool's
	// generators when both use the same seed.
	hi, _ := bits.Mul64(roundSeed(s.seed^drawMix, t), m)
	return int(hi)
}

// Loss returns round t's loss, the pool's loss Index(t).
func (s *Repeated) Loss(t int) lazycg.Objective { return s.pool.Loss(s.Index(t)) }

// Generate makes every distinct loss of s: the pool of a Repeated stream,
// every round of another stream. Streams that generate their losses on
// first request (LinearLosses, QuadraticLosses) then charge no generation
// work to the rounds of a timed run.
func Generate(s Stream) {
	if r, ok := s.(*Repeated); ok {
		s = r.pool
	}
	for t := range s.Rounds() {
		s.Loss(t)
	}
}
