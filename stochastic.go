package lazycg

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"
)

// FiniteSum is an objective f(x) = Σ_{i<N} f_i(x) whose gradient can be
// estimated from a subset of its terms, for stochastic methods.
// objective.LeastSquares is one (a term per row).
type FiniteSum interface {
	Objective
	// Terms returns the number N of terms.
	Terms() int
	// BatchGrad stores (N/|batch|)·Σ_{i ∈ batch} ∇f_i(x) in dst: for
	// indices drawn uniformly at random with replacement, an unbiased
	// estimate of ∇f(x). Indices are in [0, N) and may repeat.
	BatchGrad(dst, x []float64, batch []int)
}

// SFWSchedule selects the batch and step schedule of StochasticFW.
type SFWSchedule int

const (
	// SFWMomentum is the stochastic conditional gradient of Mokhtari,
	// Hassani and Karbasi ("Stochastic conditional gradient methods",
	// JMLR 2020, Algorithm 1 with the parameters of their convex theorem):
	// a constant batch, the averaged direction
	// d_t = (1 − ρ_t)d_{t−1} + ρ_t g̃_t with ρ_t = 4/(t+8)^{2/3}, and the
	// step γ_t = 2/(t+8); E f(x_t) − f* = O(t^{−1/3}) for L-smooth convex f
	// with bounded gradient variance.
	SFWMomentum SFWSchedule = iota
	// SFWGrowingBatch is the stochastic Frank–Wolfe of Hazan and Luo
	// ("Variance-reduced and projection-free stochastic optimization",
	// ICML 2016): the direction is the batch gradient, with the batch
	// b_t = min{N, ⌈Batch·(t+1)²⌉} and the step γ_t = 2/(t+2), which gives
	// E f(x_t) − f* = O(LD²/t) when Batch is about (G/(LD))².
	SFWGrowingBatch
)

// String returns the schedule's name.
func (s SFWSchedule) String() string {
	switch s {
	case SFWMomentum:
		return "momentum"
	case SFWGrowingBatch:
		return "growing-batch"
	}
	return "unknown"
}

// sfwCore holds what StochasticFW and LazyStochasticFW share: the
// schedule, the sampler and the estimate.
//
// One iteration of the driver is an epoch: EpochLength inner steps from
// mini-batch gradients, then one exact evaluation of f and ∇f (the
// driver's state, the primal value and the certificate are always exact).
// Stochastic directions never enter the dual bound: it comes only from
// the exact gradient at the end of an epoch.
type sfwCore struct {
	fs       FiniteSum
	schedule SFWSchedule
	batch    int
	epoch    int
	rng      *rand.Rand
	idx      []int
	g, dir   []float64
	v        []float64
	t        int // inner steps so far
}

func (c *sfwCore) init(s *State, schedule SFWSchedule, batch, epoch int, seed uint64, name string) error {
	if err := needFiniteSum(name, s.Obj); err != nil {
		return err
	}
	fs := s.Obj.(FiniteSum)
	nt := fs.Terms()
	if err := checkSFW(schedule, batch, epoch, name); err != nil {
		return err
	}
	if batch == 0 {
		batch = max(1, int(math.Ceil(math.Sqrt(float64(nt)))))
	}
	batch = min(batch, nt)
	if epoch == 0 {
		epoch = max(1, (nt+batch-1)/batch)
	}
	n := len(s.X)
	*c = sfwCore{fs: fs, schedule: schedule, batch: batch, epoch: epoch,
		rng: rand.New(rand.NewPCG(seed, 0x2545f4914f6cdd1d)), g: make([]float64, n), dir: make([]float64, n),
		v: make([]float64, n)}
	return nil
}

// checkSFW reports an unknown schedule and a negative batch or epoch
// length.
func checkSFW(schedule SFWSchedule, batch, epoch int, name string) error {
	if schedule != SFWMomentum && schedule != SFWGrowingBatch {
		return fmt.Errorf("lazycg: %s: unknown schedule %d", name, int(schedule))
	}
	if batch < 0 || epoch < 0 {
		return fmt.Errorf("lazycg: %s: batch (%d) and epoch length (%d) must be ≥ 0", name, batch, epoch)
	}
	return nil
}

// direction stores the t-th direction (the estimate for the LMO) in c.dir
// and returns the step γ_t.
func (c *sfwCore) direction(s *State) float64 {
	t := float64(c.t)
	b := c.batch
	if c.schedule == SFWGrowingBatch {
		b = int(math.Min(float64(c.fs.Terms()), math.Ceil(float64(c.batch)*(t+1)*(t+1))))
	}
	if cap(c.idx) < b {
		c.idx = make([]int, b)
	}
	idx := c.idx[:b]
	nt := c.fs.Terms()
	for i := range idx {
		idx[i] = c.rng.IntN(nt)
	}
	start := time.Now()
	c.fs.BatchGrad(c.g, s.X, idx)
	s.stats.GradTime += time.Since(start)
	s.stats.FuncGradEvals++ // a batch gradient counts as one evaluation
	if !CheckFinite(c.g) {
		// The run ends after the step (State.Func); the caller returns.
		s.nonFinite(badGrad(c.g, "an inner iterate of the epoch (BatchGrad)"))
	}
	c.t++
	if c.schedule == SFWGrowingBatch {
		copy(c.dir, c.g)
		return 2 / (t + 2)
	}
	rho := 4 / math.Pow(t+8, 2.0/3) // 1 at t = 0: d_0 = g̃_0
	for i := range c.dir {
		c.dir[i] += rho * (c.g[i] - c.dir[i])
	}
	return 2 / (t + 8)
}

// needFiniteSum says why the stochastic methods cannot run on obj (nil:
// they can): it must be a finite sum of at least one term.
func needFiniteSum(name string, obj Objective) error {
	fs, ok := obj.(FiniteSum)
	if !ok {
		return fmt.Errorf("lazycg: %s: the objective (%T) is not a finite sum (FiniteSum)", name, obj)
	}
	if nt := fs.Terms(); nt < 1 {
		return fmt.Errorf("lazycg: %s: the finite sum has %d terms", name, nt)
	}
	return nil
}

// needs implements problemNeeds.
func (m *StochasticFW) needs(obj Objective, _ LMO, _ WeakSeparator) error {
	return needFiniteSum("sfw", obj)
}

// needs implements problemNeeds.
func (m *LazyStochasticFW) needs(obj Objective, _ LMO, _ WeakSeparator) error {
	return needFiniteSum("lazy sfw", obj)
}

// StochasticFW is stochastic Frank–Wolfe for finite sums (FiniteSum):
// each inner step estimates the gradient from a mini-batch of terms drawn
// uniformly with replacement and moves toward the LMO vertex of the
// Schedule's direction with its step γ_t. One iteration is an epoch of
// EpochLength inner steps (default ⌈N/Batch⌉, about one pass over the
// terms), after which f and ∇f are evaluated exactly; the epoch ends with
// one LMO call on the exact gradient, whose bound is the dual bound.
//
// Proven dual bound: only from the exact gradient at the end of an epoch
// (a stochastic gradient proves nothing about f). Convergence holds in
// expectation; the primal value reported is exact (the driver keeps the
// best point, the method is not monotone).
type StochasticFW struct {
	// Schedule selects the batch and step schedule (default SFWMomentum).
	Schedule SFWSchedule
	// Batch is the batch size of SFWMomentum (0: ⌈√N⌉) or the scale of
	// SFWGrowingBatch's batches (0: 1); a Batch above the number N of
	// terms is taken as N. Negative values are refused.
	Batch int
	// EpochLength is the number of inner steps per iteration (0: ⌈N/Batch⌉;
	// negative values are refused).
	EpochLength int
	// Seed seeds the sampler.
	Seed uint64

	core sfwCore
}

// Monotone implements Monotone: stochastic steps may increase f.
func (m *StochasticFW) Monotone() bool { return false }

// checkFields implements fieldChecker.
func (m *StochasticFW) checkFields(Objective) error {
	return checkSFW(m.Schedule, m.Batch, m.EpochLength, "sfw")
}

// Init implements Method.
func (m *StochasticFW) Init(ctx context.Context, s *State) error {
	return m.core.init(s, m.Schedule, sfwBatch(m.Schedule, m.Batch), m.EpochLength, m.Seed, "sfw")
}

// sfwBatch returns the default batch of a schedule when batch is 0.
func sfwBatch(schedule SFWSchedule, batch int) int {
	if batch == 0 && schedule == SFWGrowingBatch {
		return 1
	}
	return batch
}

// Step implements Method: one epoch.
func (m *StochasticFW) Step(ctx context.Context, s *State) error {
	c := &m.core
	for range c.epoch {
		if ctx.Err() != nil {
			break // time limit or cancellation: the driver ends the run
		}
		gamma := c.direction(s)
		if s.failed() {
			return nil
		}
		res, err := s.Oracle.Minimize(ctx, c.v, c.dir)
		if err != nil {
			return err
		}
		if !res.Found {
			return fmt.Errorf("lazycg: sfw: LMO returned no vertex (%v)", res.Reason)
		}
		convexStep(s.X, gamma, c.v)
	}
	s.Eval()
	// The certificate: one LMO call on the exact gradient.
	_, _, _, err := fwVertex(ctx, s, c.v, "sfw")
	return err
}

// LazyStochasticFW is the lazified stochastic Frank–Wolfe method: each
// inner step asks the Oracle's weak separation LPsep(d_t, x, Φ, K) with
// the Schedule's stochastic direction d_t (the cache, then the LMO, early
// terminated when possible) and steps toward a positive answer with γ_t; a
// negative answer, which says nothing about f, leaves x. At the end of an
// epoch the weak separation with the exact gradient either proves the
// Wolfe gap is at most Φ (a dual bound; Φ is then updated by the
// PhiSchedule) or gives a vertex, which is kept for the cache only. Φ0
// comes from the exact gradient at x_1.
type LazyStochasticFW struct {
	// K ≥ 1 is the laziness factor (default DefaultK).
	K float64
	// PhiSchedule is Φ, as in LazyCG.
	PhiSchedule
	// Schedule, Batch, EpochLength and Seed are as in StochasticFW.
	Schedule    SFWSchedule
	Batch       int
	EpochLength int
	Seed        uint64

	core sfwCore
}

// Monotone implements Monotone: stochastic steps may increase f.
func (m *LazyStochasticFW) Monotone() bool { return false }

// checkFields implements fieldChecker.
func (m *LazyStochasticFW) checkFields(Objective) error {
	if err := checkLazy(m.K, &m.PhiSchedule, "lazy sfw"); err != nil {
		return err
	}
	return checkSFW(m.Schedule, m.Batch, m.EpochLength, "lazy sfw")
}

// Init implements Method.
func (m *LazyStochasticFW) Init(ctx context.Context, s *State) error {
	if err := defaultK(&m.K, "lazy sfw"); err != nil {
		return err
	}
	if err := m.core.init(s, m.Schedule, sfwBatch(m.Schedule, m.Batch), m.EpochLength, m.Seed, "lazy sfw"); err != nil {
		return err
	}
	return m.Start(ctx, s, m.core.v, m.K)
}

// Step implements Method: one epoch.
func (m *LazyStochasticFW) Step(ctx context.Context, s *State) error {
	c := &m.core
	for range c.epoch {
		if ctx.Err() != nil {
			break // time limit or cancellation: the driver ends the run
		}
		gamma := c.direction(s)
		if s.failed() {
			return nil
		}
		sep, err := s.Oracle.Separate(ctx, c.v, c.dir, s.X, m.phi, m.K)
		if err != nil {
			return err
		}
		if sep.Positive {
			convexStep(s.X, gamma, c.v)
		}
	}
	s.Eval()
	sep, err := s.Oracle.Separate(ctx, c.v, s.Grad, s.X, m.phi, m.K)
	if err != nil {
		s.reportUnanswered(err)
		return err
	}
	s.ReportGap(s.F, sep.GapBound)
	if !sep.Positive {
		m.negativeAnswer(s, sep)
	}
	return nil
}
