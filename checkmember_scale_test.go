package lazycg

import (
	"errors"
	"math"
	"testing"
)

// tolRecorder is testSimplex with a membership check that records the
// tolerance it is given and refuses every point; scaledRecorder is it as
// a ScaledChecker of the given scale.
type tolRecorder struct {
	testSimplex
	tol *float64
}

func (r tolRecorder) Check(x []float64, tol float64) error {
	*r.tol = tol
	return errors.New("refused")
}

type scaledRecorder struct {
	tolRecorder
	scale float64
}

func (r scaledRecorder) CheckScaled(x []float64, rel float64) error {
	return r.Check(x, ScaledTol(rel, r.scale, x))
}

// TestCheckMemberScaledTolerance: CheckMember passes a MembershipChecker
// the tolerance 1e-9·max(1, max_i |x_i|) as before, and a ScaledChecker of
// scale s the tolerance 1e-9·max(s, max_i |x_i|), so that a polytope of
// radius 1e-10 is not checked with the absolute floor 1e-9.
func TestCheckMemberScaledTolerance(t *testing.T) {
	x := []float64{1.5e-9, 0, 0}
	var tol float64
	plain := tolRecorder{testSimplex{n: 3}, &tol}
	if err := CheckMember(plain, x); err == nil || tol != 1e-9 {
		t.Errorf("MembershipChecker: tolerance %g, error %v; want 1e-9 and the checker's error", tol, err)
	}
	if CheckMember(plain, []float64{-4e3, 0, 0}); math.Abs(tol-4e-6) > 1e-15*4e-6 {
		t.Errorf("MembershipChecker: tolerance %g for max |x_i| = 4e3, want 4e-6", tol)
	}
	for _, c := range []struct{ scale, want float64 }{
		{1e-10, 1e-9 * 1.5e-9},
		{1e-20, 1e-9 * 1.5e-9},
		{1, 1e-9},
		{1e12, 1e3},
	} {
		sc := scaledRecorder{plain, c.scale}
		if err := CheckMember(sc, x); err == nil || math.Abs(tol-c.want) > 1e-15*c.want {
			t.Errorf("ScaledChecker of scale %g: tolerance %g, error %v; want %g and the checker's error", c.scale, tol, err, c.want)
		}
	}
	if err := CheckProblem(3, scaledRecorder{plain, 1e-10}, nil, x); err == nil {
		t.Error("CheckProblem accepted a start point the ScaledChecker refused")
	}
	if err := CheckMemberTol(testSimplex{n: 3}, x, 1e-9); err != nil {
		t.Errorf("an LMO that cannot check: %v", err)
	}
}
