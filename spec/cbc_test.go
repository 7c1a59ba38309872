package spec_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/lazycg/lazycg/mip"
	_ "github.com/lazycg/lazycg/mip/cbc"
	"github.com/lazycg/lazycg/spec"
)

// writeMarketSplit writes a market split feasibility model (Cornuéjols–
// Dawande): m equality rows Σ a_ij x_j = ⌊Σ_j a_ij / 2⌋ over n binary
// columns, a_ij uniform in [0, 99], objective 0. Finding a feasible
// point, or proving there is none, takes branch and bound far longer
// than any deadline of the tests (CBC: minutes for m = 5, n = 40).
func writeMarketSplit(t *testing.T, m, n int, seed uint64) string {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 1))
	a := make([][]int, m)
	var b strings.Builder
	fmt.Fprintf(&b, "NAME marketsplit\nROWS\n N obj\n")
	for i := range m {
		fmt.Fprintf(&b, " E r%d\n", i)
		a[i] = make([]int, n)
		for j := range n {
			a[i][j] = r.IntN(100)
		}
	}
	b.WriteString("COLUMNS\n    MARKER MARKER INTORG\n")
	for j := range n {
		fmt.Fprintf(&b, "    x%d obj 0\n", j)
		for i := range m {
			fmt.Fprintf(&b, "    x%d r%d %d\n", j, i, a[i][j])
		}
	}
	b.WriteString("    MARKER MARKER INTEND\nRHS\n")
	for i := range m {
		sum := 0
		for _, v := range a[i] {
			sum += v
		}
		fmt.Fprintf(&b, "    rhs r%d %d\n", i, sum/2)
	}
	b.WriteString("BOUNDS\n")
	for j := range n {
		fmt.Fprintf(&b, " UP bnd x%d 1\n", j)
	}
	b.WriteString("ENDATA\n")
	path := filepath.Join(t.TempDir(), "marketsplit.mps")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestPrepareContextStopsSetup: a setup abandoned at its deadline stops
// its solver work. The quadratic objective's scale=auto needs a vertex of
// a market split polytope (a long CBC search); PrepareContext returns at
// the deadline, and the setup's goroutine ends soon after instead of
// searching on in the background.
func TestPrepareContextStopsSetup(t *testing.T) {
	path := writeMarketSplit(t, 5, 40, 3)
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	cfg := spec.Config{Polytope: "mps:" + path, Objective: "quadratic", Method: "lcg"}
	p, err := cfg.PrepareContext(ctx)
	if err == nil {
		p.Close()
		t.Fatal("the setup found a vertex of the market split model within 300 ms; the test needs a harder model")
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("setup error %v, want the deadline", err)
	}
	limit := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(limit) {
			t.Fatalf("the setup is still running 5 s after its deadline (%d goroutines, %d before)", runtime.NumGoroutine(), before)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestMIPSearchOptions: the search=, preprocess=, firstlp=, pool= and
// threads= options of a solver-backed polytope reach its solver (each
// choice solves p0033 to its published optimum 3089) and bad values are
// errors naming the option.
func TestMIPSearchOptions(t *testing.T) {
	file := filepath.Join("..", "mip", "testdata", "p0033.mps.gz")
	for _, opts := range []string{"", ",search=light", ",search=standard", ",search=standard,preprocess=on", ",preprocess=off", ",firstlp=warm", ",firstlp=cold,search=light", ",pool=on", ",pool=off", ",threads=2", ",threads=2,search=light", ",threads=1"} {
		in, err := spec.Polytope("mps:"+file+opts, spec.Options{})
		if err != nil {
			t.Fatalf("%s: %v", opts, err)
		}
		dst := make([]float64, len(in.Own.C))
		res, err := in.LMO.Minimize(context.Background(), dst, in.Own.C)
		in.Close()
		if err != nil {
			t.Fatalf("%s: %v", opts, err)
		}
		if v := in.Own.Sign*res.Value + in.Own.Const; v < 3089-1e-6 || v > 3089+1e-6 {
			t.Errorf("%s: optimum %g, want 3089", opts, v)
		}
	}
	for _, tc := range []struct{ opts, want string }{
		{",search=heavy", `search must be auto, standard or light, got "heavy"`},
		{",preprocess=yes", `preprocess must be auto, off or on, got "yes"`},
		{",firstlp=hot", `firstlp must be auto, warm or cold, got "hot"`},
		{",pool=1", `pool must be auto, on or off, got "1"`},
		{",presolve=on", `unknown option "presolve"`},
		{",threads=0", `threads must be an integer in [1, 64], got "0"`},
		{",threads=two", `threads must be an integer in [1, 64], got "two"`},
	} {
		in, err := spec.Polytope("mps:"+file+tc.opts, spec.Options{})
		if err == nil {
			in.Close()
			t.Errorf("%s: no error", tc.opts)
		} else if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %q, want it to contain %q", tc.opts, err, tc.want)
		}
	}
}

// TestCutPoolSpecs checks the spec options that give a polytope a cut pool
// (cut:N,triangles=cuts; qubo:FILE,cycles=1): the minima of the QUBO
// objective and of a max-cut objective agree with the plain formulations,
// and pool=on/off reach the solver.
func TestCutPoolSpecs(t *testing.T) {
	for _, tc := range []struct{ plain, pooled string }{
		{"cut:9", "cut:9,triangles=cuts"},
		{"cut:9", "cut:9,triangles=cuts,pool=on"},
		{"cut:9,p=0.6,seed=3", "cut:9,p=0.6,seed=3,triangles=cuts,pool=off"},
	} {
		var vals [2]float64
		for k, s := range []string{tc.plain, tc.pooled} {
			in, err := spec.Polytope(s, spec.Options{})
			if err != nil {
				t.Fatalf("%s: %v", s, err)
			}
			c := make([]float64, in.LMO.Dim())
			for i := range c {
				c[i] = float64((i*7)%11) - 5
			}
			dst := make([]float64, len(c))
			res, err := in.LMO.Minimize(context.Background(), dst, c)
			in.Close()
			if err != nil {
				t.Fatalf("%s: %v", s, err)
			}
			vals[k] = res.Value
		}
		if math.Abs(vals[0]-vals[1]) > 1e-9 {
			t.Errorf("%s: minimum %g, %s: %g", tc.plain, vals[0], tc.pooled, vals[1])
		}
	}
	if in, err := spec.Polytope("cut:9,triangles=2", spec.Options{}); err == nil {
		in.Close()
		t.Error("triangles=2: no error")
	}
	// The Chimera instance with its cycle inequalities loads with the
	// dimension of the plain one.
	qubo := "qubo:" + filepath.Join("..", "mip", "testdata", "chimera439-1.txt")
	dims := make([]int, 0, 2)
	for _, s := range []string{qubo, qubo + ",cycles=1"} {
		in, err := spec.Polytope(s, spec.Options{})
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		dims = append(dims, in.LMO.Dim())
		in.Close()
	}
	if dims[0] != dims[1] || dims[0] != 439+1091 {
		t.Errorf("dimensions %v, want 1530 twice", dims)
	}
	if in, err := spec.Polytope(qubo+",cycles=yes", spec.Options{}); err == nil {
		in.Close()
		t.Error("cycles=yes: no error")
	}
}

// TestCallLogSpec checks the calls=FILE option: each polytope built with
// it appends a session (its start line and its calls) to FILE, and a file
// that cannot be opened is an error naming the spec.
func TestCallLogSpec(t *testing.T) {
	path := filepath.Join(t.TempDir(), "calls.jsonl")
	for k := range 2 {
		in, err := spec.Polytope("cut:6,calls="+path, spec.Options{})
		if err != nil {
			t.Fatal(err)
		}
		c := make([]float64, in.LMO.Dim())
		for i := range c {
			c[i] = float64((i*5+k)%7) - 3
		}
		dst := make([]float64, len(c))
		for range k + 1 {
			if _, err := in.LMO.Minimize(context.Background(), dst, c); err != nil {
				t.Fatal(err)
			}
		}
		in.Close()
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sessions, err := mip.ReadCallLog(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(sessions) != 2 || len(sessions[0].Calls) != 1 || len(sessions[1].Calls) != 2 || sessions[0].Start.Dim != 15 {
		t.Errorf("sessions %+v", sessions)
	}
	bad := filepath.Join(t.TempDir(), "missing", "calls.jsonl")
	if in, err := spec.Polytope("cut:6,calls="+bad, spec.Options{}); err == nil {
		in.Close()
		t.Error("a call log in a missing directory was accepted")
	} else if !strings.Contains(err.Error(), "call log") {
		t.Errorf("error %q does not name the call log", err)
	}
}

// TestCutEnumSpec checks cut:N,oracle=enum against CBC on the standard
// formulation: the same coordinates (edge order of the same random graph)
// and the same minima, and clear errors for the options that do not apply.
func TestCutEnumSpec(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, base := range []string{"cut:9", "cut:10,p=0.5,seed=4"} {
		var ins [2]*spec.Instance
		for k, s := range []string{base, base + ",oracle=enum"} {
			in, err := spec.Polytope(s, spec.Options{})
			if err != nil {
				t.Fatalf("%s: %v", s, err)
			}
			defer in.Close()
			ins[k] = in
		}
		if ins[0].Dim() != ins[1].Dim() {
			t.Fatalf("%s: dimensions %d (CBC) and %d (enumeration)", base, ins[0].Dim(), ins[1].Dim())
		}
		c := make([]float64, ins[0].Dim())
		var x [2][]float64
		for trial := range 5 {
			for i := range c {
				c[i] = rng.NormFloat64()
			}
			var vals [2]float64
			for k, in := range ins {
				x[k] = make([]float64, len(c))
				res, err := in.LMO.Minimize(context.Background(), x[k], c)
				if err != nil {
					t.Fatalf("%s: %v", in.Spec, err)
				}
				vals[k] = res.Value
			}
			if math.Abs(vals[0]-vals[1]) > 1e-7*(1+math.Abs(vals[0])) {
				t.Errorf("%s, trial %d: CBC minimum %.10g, enumeration %.10g", base, trial, vals[0], vals[1])
			}
		}
	}
	// triangles=0 says what the enumeration does (a spec whose triangles
	// are replaced, as lazycg hindsight -polytope-options does).
	if in, err := spec.Polytope("cut:9,triangles=0,oracle=enum", spec.Options{}); err != nil {
		t.Errorf("cut:9,triangles=0,oracle=enum: %v", err)
	} else {
		in.Close()
	}
	for _, tc := range []struct{ s, want string }{
		{"cut:9,oracle=enum,triangles=1", "triangles"},
		{"cut:9,triangles=cuts,oracle=enum", "triangles"},
		{"cut:40,oracle=enum", "N ≤"},
		{"cut:9,oracle=gurobi", "oracle must be"},
		{"cut:9,oracle=enum,pool=on", "pool"},
	} {
		in, err := spec.Polytope(tc.s, spec.Options{})
		if err == nil {
			in.Close()
			t.Errorf("%s: no error", tc.s)
		} else if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %q does not mention %q", tc.s, err, tc.want)
		}
	}
}
