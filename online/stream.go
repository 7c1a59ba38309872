package online

import (
	"errors"
	"fmt"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/objective"
)

// CumulativeLoss accumulates the revealed losses F_t = Σ_{i≤t} f_i. Add
// appends one loss; Func and Grad evaluate the sum of the losses added so
// far. objective.Sum is one and the default (it folds linear losses into a
// single affine term, so a sum of linear losses costs O(n) per
// evaluation, and evaluates the other losses one by one).
type CumulativeLoss interface {
	lazycg.Objective
	Add(f lazycg.Objective)
}

// gradAdder is an optional fast path of a CumulativeLoss (objective.Sum
// has it): AddWithGrad adds f like Add, given ∇f(x) = g, which the
// accumulator may use for its next gradient at x instead of evaluating
// ∇f again.
type gradAdder interface {
	AddWithGrad(f lazycg.Objective, x, g []float64)
}

// CumulativeStream is an optional fast path of a loss stream:
// NewCumulative returns an empty accumulator for its losses that evaluates
// Σ_{i≤t} f_i (and its gradient) faster than objective.Sum, the default.
type CumulativeStream interface {
	NewCumulative() CumulativeLoss
}

// newCumulative returns an empty accumulator for the losses of stream.
func newCumulative(stream objective.Stream) (CumulativeLoss, error) {
	cs, ok := stream.(CumulativeStream)
	if !ok {
		return objective.NewSum(), nil
	}
	c := cs.NewCumulative()
	if c == nil {
		return nil, errors.New("online: the stream's NewCumulative returned nil")
	}
	if err := lazycg.CheckNotNil("the stream's NewCumulative result", c); err != nil {
		return nil, fmt.Errorf("online: %w", err)
	}
	return c, nil
}

// checkLoss reports whether f, the loss of round t (1-based; the pool's
// loss t−1 when pool is set), is a usable objective of dimension n: not
// nil, not a nil pointer inside the interface (whose Dim would panic) and
// of dimension n.
func checkLoss(f lazycg.Objective, n, t int, pool bool) error {
	if f != nil && lazycg.CheckNotNil("", f) == nil && f.Dim() == n {
		return nil // the common case, without allocating
	}
	what := fmt.Sprintf("loss of round %d", t)
	if pool {
		what = fmt.Sprintf("pool loss %d", t-1)
	}
	if f == nil {
		return fmt.Errorf("online: %s is nil", what)
	}
	if err := lazycg.CheckNotNil("the "+what, f); err != nil {
		return fmt.Errorf("online: %w", err)
	}
	return fmt.Errorf("online: %s has dimension %d, want %d", what, f.Dim(), n)
}
