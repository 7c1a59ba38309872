package spec_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lazycg/lazycg"
	_ "github.com/lazycg/lazycg/mip/cbc"
	"github.com/lazycg/lazycg/spec"
)

// infeasibleMPS is x + y ≥ 3 over binary x and y: an empty polytope.
const infeasibleMPS = `NAME          INFEAS
ROWS
 N  obj
 G  c1
COLUMNS
    MARKER                 'MARKER'                 'INTORG'
    x         obj       1.0   c1        1.0
    y         obj       1.0   c1        1.0
    MARKER                 'MARKER'                 'INTEND'
RHS
    rhs       c1        3.0
BOUNDS
 BV bnd       x
 BV bnd       y
ENDATA
`

// TestEmptyPolytopeBlamesPolytope: an infeasible model found while the
// quadratic objective looks for a vertex (scale=auto) is reported as the
// polytope's fault, first, and still wraps lazycg.ErrEmptyPolytope.
func TestEmptyPolytopeBlamesPolytope(t *testing.T) {
	f := filepath.Join(t.TempDir(), "infeas.mps")
	if err := os.WriteFile(f, []byte(infeasibleMPS), 0o644); err != nil {
		t.Fatal(err)
	}
	c := spec.Config{Polytope: "mps:" + f, Objective: "quadratic", Method: "lcg", Seed: 1, MethodParams: spec.MethodParams{K: 2}}
	p, err := c.Prepare()
	if err == nil {
		p.Close()
		t.Fatal("an empty polytope was prepared")
	}
	if !strings.HasPrefix(err.Error(), `spec: polytope "mps:`+f+`": `) || !strings.Contains(err.Error(), "empty") ||
		!errors.Is(err, lazycg.ErrEmptyPolytope) {
		t.Errorf("error %q (errors.Is ErrEmptyPolytope: %v): want it to name the polytope first and wrap ErrEmptyPolytope",
			err, errors.Is(err, lazycg.ErrEmptyPolytope))
	}
}
