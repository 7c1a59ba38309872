package online

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
)

// CertifiedStats counts what keeping the parameter-free LOCG inside
// Theorem 5.1's envelope (Params.Certified) cost in a run.
type CertifiedStats struct {
	// Fallbacks counts the rounds whose parameter-free outcome would have
	// left the envelope, so that Algorithm 8's own question was asked in
	// the same round; RejectedSteps those of them in which the outcome
	// was a step (not taken).
	Fallbacks     int `json:"fallbacks"`
	RejectedSteps int `json:"rejected_steps"`
	// Violations counts the rounds that ended above the envelope even
	// after Algorithm 8's question. Theorem 5.1's proof rules them out
	// when C and L are valid for the losses and every negative answer is
	// proven (not Inexact under SeparatorConfig.RelGap; up to rounding);
	// a violation voids the theorem's bound for the run.
	Violations int `json:"violations"`
}

// certifiedStats implements certifiedReporter.
func (m *LOCG) certifiedStats() (CertifiedStats, bool) {
	return m.certStats, m.Params.ParameterFree && m.Params.Certified
}

// certifiedReporter is a method with the counters of Result.Certified.
type certifiedReporter interface {
	certifiedStats() (CertifiedStats, bool)
}

// certified is the state of the certified variant.
type certified struct {
	// bound is Φ_{t−1} of Algorithm 8: a proven bound on
	// F_{t−1}(x_t) − min F_{t−1}, from which h_t is computed.
	bound float64
	// a and e are Theorem 5.1's A and exponent: h̄_t = A·t^{1−e}.
	a, e float64
	xs   []float64 // x_t + γ_t(v − x_t), scratch
}

// initCertified prepares the certified variant after core.init.
func (m *LOCG) initCertified(n int) {
	p := &m.core.p
	a, e := p.theoremConstants(p.lipschitz())
	m.cert = certified{a: a, e: e, xs: make([]float64, n)}
}

// certify ends a round of the certified variant (Params.Certified) whose
// parameter-free outcome decide reported: a step toward c.v (move), LMO
// work that moved nothing (proof), or neither (a round deferred to the
// cache), with bound the proven Wolfe gap bound of F_t at x_t (+Inf or
// NaN: none).
//
// With Φ_{t−1} = m.cert.bound it computes Algorithm 8's h_t, lowered to
// bound when that proves more (both bound F_t(x_t) − min F_t), Φ̄_t =
// (h_t + C_t γ_t²/2)/(1 + γ_t/K) with C_t = C t^{1−b}/(1−b), and the
// envelope E_t, the same expression at Theorem 5.1's worst case h̄_t =
// A·t^{1−e}. The outcome is kept when the bound it certifies for
// F_t(x_{t+1}) − min F_t — h_t − F_t(x_t) + F_t(x_{t+1}) after a step
// (first bounded by h_t + γ_t∇F_t(x_t)·(v − x_t) + C_tγ_t²/2, exact for
// linear losses, and evaluated only when that bound is above E_t), h_t
// otherwise — is at most E_t. Otherwise the round asks Algorithm 8's
// question LPsep(∇F_t(x_t), x_t, Φ̄_t, K) (a fallback): a positive answer
// steps and certifies h_t − F_t(x_t) + F_t(x_{t+1}) ≤ Φ̄_t by the
// curvature bound, a negative one certifies min{h_t, Φ̄_t, its gap bound}
// (min{h_t, its gap bound} when Inexact: it proves no more, and a Φ_t
// above E_t then counts as a violation). Otherwise the new Φ_t is at most
// Φ̄_t ≤ E_t (h_t ≤ h̄_t by induction),
// which is all the induction of Theorem 5.1's proof uses of Φ_t; so
// F_t(x_t) − min F_t ≤ h_t ≤ h̄_t in every round, and the theorem's bound
// (Params.TheoremBound) holds for the points played.
func (m *LOCG) certify(ctx context.Context, s *State, gamma float64, move, proof bool, bound float64) error {
	c := &m.core
	p := &c.p
	t := float64(s.Round)
	h := c.bound(s.Round, m.cert.bound)
	if bound < h { // false for NaN
		h = math.Max(0, bound)
	}
	curv := p.c * math.Pow(t, 1-p.b) * gamma * gamma / (2 * (1 - p.b))
	env := (m.cert.a*math.Pow(t, 1-m.cert.e) + curv) / (1 + gamma/p.k)
	phiBar := (h + curv) / (1 + gamma/p.k)
	if math.IsNaN(env) || math.IsInf(env, 0) || math.IsNaN(phiBar) || math.IsInf(phiBar, 0) {
		return fmt.Errorf("online: locg: the envelope of round %d is not finite (h=%g, E=%g)", s.Round, h, env)
	}
	s.Bound = h
	if move {
		// F_t(x_t + γd) − F_t(x_t) ≤ γ∇F_t(x_t)·d + C_tγ²/2 for d = v − x_t
		// (exact for linear losses); only when that bound leaves the
		// envelope is the change computed: from the cumulative loss's
		// remembered gradient where it can (objective.Sum.StepDelta),
		// else from F_t at both points (a product with every term).
		cert := h + gamma*(floats.Dot(c.g, c.v)-floats.Dot(c.g, s.X)) + curv
		if cert > env {
			if delta, ok := m.stepDelta(s, gamma); ok {
				cert = h + delta
			} else {
				fOld := c.cumValue(s, s.X)
				xs := m.cert.xs
				for i, x := range s.X {
					xs[i] = x + gamma*(c.v[i]-x)
				}
				cert = h - fOld + c.cumValue(s, xs)
			}
		}
		if cert <= env {
			m.settle(true, false)
			c.step(s, gamma) // a searched step ends no higher than γ_t's
			m.cert.bound = math.Max(0, cert)
			s.Phi = m.Phi()
			return nil
		}
		m.certStats.RejectedSteps++
	} else if h <= env {
		m.settle(false, proof)
		m.cert.bound = h
		s.Phi = m.Phi()
		return nil
	}
	m.certStats.Fallbacks++
	cert, moved, err := m.ask8(ctx, s, h, phiBar, gamma, true)
	if err != nil {
		return err
	}
	if !moved {
		cert = math.Min(cert, h) // x stays: h_t still bounds its gap
	}
	m.settle(moved, !moved)
	if cert > env*(1+1e-9)+1e-12 {
		m.certStats.Violations++
	}
	m.cert.bound = cert
	s.Phi = m.Phi()
	return nil
}

// stepDelta returns F_t(x_t + γ(v − x_t)) − F_t(x_t) for v = c.v when the
// cumulative loss computes it cheaply (not for the surrogates of
// smoothing, whose values core.cumValue computes).
func (m *LOCG) stepDelta(s *State, gamma float64) (float64, bool) {
	if m.core.p.smoothing {
		return 0, false
	}
	return s.stepDelta(gamma, m.core.v, m.core.g)
}
