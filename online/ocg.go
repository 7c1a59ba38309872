package online

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
)

// core is the state shared by OCG and LOCG: the resolved parameters,
// the gradient of the cumulative (or surrogate) loss and the smoothing
// accumulators.
type core struct {
	p    resolved
	g    []float64 // ∇F_t(x_t)
	gt   []float64 // ∇f_t(x_t) or ∇f̃_t(x_t)
	v    []float64 // oracle answer
	x1   []float64 // first point (smoothing)
	gsum []float64 // Σ_{i≤t} ∇f_i(x_i) (smoothing)
	wsum float64   // Σ_{i≤t} i^{−1/4} (smoothing)
	dx   []float64 // scratch
}

func (c *core) init(s *State, params Params, who string) error {
	// s.X is of the problem's checked dimension: the LMO's Dim is not
	// read again (see resolveDim).
	p, err := params.resolveDim(s.Oracle.LMO(), len(s.X), who)
	if err != nil {
		return err
	}
	n := len(s.X)
	c.p = p
	c.g = make([]float64, n)
	c.gt = make([]float64, n)
	c.v = make([]float64, n)
	c.dx = make([]float64, n)
	c.x1, c.gsum, c.wsum = nil, nil, 0
	if p.smoothing {
		c.x1 = append([]float64(nil), s.X...)
		c.gsum = make([]float64, n)
	}
	return nil
}

// gradients computes ∇f_t(x_t) (or the surrogate's) into c.gt and
// ∇F_t(x_t) into c.g; with smoothing it first adds round t to the running
// sums.
func (c *core) gradients(s *State) {
	if !c.p.smoothing {
		copy(c.gt, s.Grad)
		s.CumulativeGrad(c.g, s.X)
		return
	}
	t := float64(s.Round)
	w := math.Pow(t, -0.25)
	floats.Add(c.gsum, s.Grad)
	c.wsum += w
	floats.SubTo(c.dx, s.X, c.x1)
	two := 2 * c.p.smoothCoef // 4L/√k
	for i := range c.g {
		c.gt[i] = s.Grad[i] + two*w*c.dx[i]
		c.g[i] = c.gsum[i] + two*c.wsum*c.dx[i]
	}
}

// cumScale returns F_t(x) (or the surrogate's value) for scale decisions
// only: an estimate when the cumulative loss has a cheap one
// (State.CumulativeEstimate).
func (c *core) cumScale(s *State, x []float64) float64 {
	if !c.p.smoothing {
		return s.CumulativeEstimate(x)
	}
	return c.cumValue(s, x)
}

// cumValue returns F_t(x) (or the surrogate F̃_t(x) = Σ∇f_i(x_i)·x +
// (2L/√k)·Σ i^{−1/4}·‖x − x_1‖²).
func (c *core) cumValue(s *State, x []float64) float64 {
	if !c.p.smoothing {
		return s.CumulativeFunc(x)
	}
	floats.SubTo(c.dx, x, c.x1)
	return floats.Dot(c.gsum, x) + c.p.smoothCoef*c.wsum*floats.Dot(c.dx, c.dx)
}

// OCG is the online conditional gradient method of Hazan and Kale (2012):
// in round t it calls the LMO on ∇F_t(x_t), F_t = Σ_{i≤t} f_i, and moves
// x_{t+1} = (1−γ_t)x_t + γ_t v_t with the γ_t of Theorem 5.1 (no line
// search). It is the non-lazy baseline of LOCG: one LMO call per round, no
// cache and no early termination.
type OCG struct {
	// Params are the step-size parameters. K and the fields of LOCG
	// only (TightenPhi, ParameterFree, Certified, Phi0LMO, NoBackoff,
	// PhiGrowth) do not change OCG's steps, but are checked as for LOCG.
	Params Params

	core core
}

// params implements paramsMethod.
func (m *OCG) params() Params { return m.Params }

// Init implements Method.
func (m *OCG) Init(ctx context.Context, s *State) error {
	return m.core.init(s, m.Params, "ocg")
}

// Update implements Method.
func (m *OCG) Update(ctx context.Context, s *State) error {
	c := &m.core
	c.gradients(s)
	res, err := s.Oracle.Minimize(ctx, c.v, c.g)
	if err != nil {
		return err
	}
	if !res.Found {
		return fmt.Errorf("online: ocg: LMO returned no vertex (%v)", res.Reason)
	}
	if !math.IsInf(res.Bound, -1) && !math.IsNaN(res.Bound) {
		s.Bound = math.Max(0, floats.Dot(c.g, s.X)-res.Bound)
	}
	c.step(s, c.p.gamma(float64(s.Round)))
	return nil
}

// step moves s.X toward the oracle's vertex c.v by γ_t = gamma, or with
// Params.LineSearch by the minimizer of F_t over [0, γ_t] (c.g = ∇F_t(s.X);
// State.searchToward).
func (c *core) step(s *State, gamma float64) {
	if c.p.lineSearch {
		s.searchToward(gamma, c.v, c.g)
		return
	}
	s.moveToward(gamma, c.v)
}
