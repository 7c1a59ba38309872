package lmo

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/internal/testutil"
)

// graphIsVertex reports whether the feasible flow x is a vertex of the flow
// polytope: the arcs strictly between their bounds contain no cycle.
func graphIsVertex(net *FlowNetwork, x []float64) bool {
	uf := make([]int, net.Nodes)
	for i := range uf {
		uf[i] = i
	}
	var find func(int) int
	find = func(v int) int {
		if uf[v] != v {
			uf[v] = find(uf[v])
		}
		return uf[v]
	}
	for i, a := range net.Arcs {
		free := x[i] > float64(a.Low) && (a.Cap == InfCap || x[i] < float64(a.Cap))
		if !free {
			continue
		}
		ru, rv := find(a.From), find(a.To)
		if ru == rv {
			return false
		}
		uf[ru] = rv
	}
	return true
}

// graphFlowResult checks an LMO answer: no error, marked exact, Value = c·dst
// exactly, dst a feasible integral vertex, and Value equal to want.
func graphFlowResult(t *testing.T, p *FlowPolytope, res lazycg.LinearResult, err error, dst, c []float64, want float64, integer bool) {
	t.Helper()
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
	if !res.Optimal() || res.Reason != lazycg.StopOptimal {
		t.Fatalf("result not exact: %+v", res)
	}
	if d := basicDot(c, dst); d != res.Value {
		t.Fatalf("Value %v, c·dst %v", res.Value, d)
	}
	if err := p.Check(dst, 0); err != nil {
		t.Fatal(err)
	}
	if !graphIsVertex(&p.net, dst) {
		t.Fatalf("%v is not a vertex", dst)
	}
	if !graphSameValue(res.Value, want, integer) {
		t.Fatalf("Value %v, reference %v", res.Value, want)
	}
}

func TestFlowPolytopeFixture(t *testing.T) {
	net, err := ReadDIMACSFile(filepath.Join("testdata", "flow_small.min"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewFlowPolytope(net)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{2, 2, 1, 1, 3} // unique optimum, see the file
	v := make([]float64, p.Dim())
	p.Vertex(v)
	if !slices.Equal(v, want) {
		t.Errorf("Vertex %v, want %v", v, want)
	}
	res, err := p.Minimize(context.Background(), v, net.Costs())
	graphFlowResult(t, p, res, err, v, net.Costs(), 15, true)
	if !slices.Equal(v, want) {
		t.Errorf("Minimize %v, want %v", v, want)
	}
	// Reverse the costs: the flow avoids the former cheap arcs.
	c := []float64{-2, -2, -1, -3, -1}
	res, err = p.Minimize(context.Background(), v, c)
	want2, _ := graphBruteMinCost(net, c)
	graphFlowResult(t, p, res, err, v, c, want2, true)
	if got := p.Network(); got.Nodes != 4 || len(got.Arcs) != 5 || got.Arcs[3].Low != 1 {
		t.Errorf("Network() = %+v", got)
	}
}

func TestFlowPolytopeMinimizeRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	ctx := context.Background()
	built := 0
	for trial := range 200 {
		n := 2 + rng.IntN(8)
		net := graphRandNet(rng, n, rng.IntN(4*n), 5, 0.1, true)
		p, err := NewFlowPolytope(net)
		if err != nil {
			t.Fatalf("trial %d: feasible network rejected: %v", trial, err)
		}
		built++
		dst := make([]float64, p.Dim())
		p.Vertex(dst)
		if err := p.Check(dst, 0); err != nil || !graphIsVertex(net, dst) {
			t.Fatalf("trial %d: Vertex %v: %v", trial, dst, err)
		}
		for k := range 4 {
			integer := k != 3
			c := graphRandCosts(rng, p.Dim(), integer)
			res, err := p.Minimize(ctx, dst, c)
			want, st := graphRefMinCost(net, c)
			if st == graphUnbounded {
				if !errors.Is(err, ErrUnbounded) || !strings.HasPrefix(err.Error(), "lmo: unbounded flow problem: ") {
					t.Fatalf("trial %d: unbounded problem gave %v", trial, err)
				}
				continue
			}
			graphFlowResult(t, p, res, err, dst, c, want, integer)
		}
	}
	if built < 200 {
		t.Fatal("too few polytopes")
	}
}

func TestFlowPolytopeFace(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	ctx := context.Background()
	empty := 0
	for trial := range 150 {
		n := 2 + rng.IntN(8)
		net := graphRandNet(rng, n, 1+rng.IntN(4*n), 5, 0, true)
		p, err := NewFlowPolytope(net)
		if err != nil {
			t.Fatal(err)
		}
		m := p.Dim()
		dst, pt := make([]float64, m), make([]float64, m)
		for k := range 4 {
			// Faces from the zeros of a vertex are nonempty; random masks
			// may be empty.
			zero := make([]bool, m)
			if k%2 == 0 {
				if _, err := p.Minimize(ctx, pt, graphRandCosts(rng, m, true)); err != nil {
					t.Fatal(err)
				}
				for i := range zero {
					zero[i] = pt[i] == 0 && rng.IntN(2) == 0
				}
			} else {
				for i := range zero {
					zero[i] = rng.IntN(3) == 0
				}
			}
			ref := graphCopyNet(net)
			lowForced := false
			for i, z := range zero {
				if z {
					lowForced = lowForced || ref.Arcs[i].Low > 0
					ref.Arcs[i].Cap = 0
					ref.Arcs[i].Low = 0
				}
			}
			c := graphRandCosts(rng, m, true)
			want, st := graphRefMinCost(ref, c)
			if lowForced {
				st = graphInfeasible
			}
			res, err := p.MinimizeFace(ctx, dst, c, zero)
			if st == graphInfeasible {
				if !errors.Is(err, ErrInfeasible) {
					t.Fatalf("trial %d: empty face gave %v", trial, err)
				}
				if k%2 == 0 {
					t.Fatalf("trial %d: face of a vertex reported empty", trial)
				}
				empty++
				continue
			}
			graphFlowResult(t, p, res, err, dst, c, want, true)
			for i, z := range zero {
				if z && dst[i] != 0 {
					t.Fatalf("trial %d: forbidden arc %d carries %v", trial, i, dst[i])
				}
			}
		}
	}
	if empty < 20 {
		t.Errorf("only %d empty faces tested", empty)
	}
}

// TestFlowPolytopeAugment checks the augmentation oracle: false exactly when
// the LMO value equals c·x; otherwise a feasible vertex y with c·y < c·x.
// Repeated augmentation reaches the LMO optimum.
func TestFlowPolytopeAugment(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	ctx := context.Background()
	improved, optimal := 0, 0
	for trial := range 200 {
		n := 2 + rng.IntN(9)
		net := graphRandNet(rng, n, 1+rng.IntN(4*n), 4, 0, true)
		p, err := NewFlowPolytope(net)
		if err != nil {
			t.Fatal(err)
		}
		m := p.Dim()
		x, y, opt := make([]float64, m), make([]float64, m), make([]float64, m)
		integer := trial%4 != 3
		if _, err := p.Minimize(ctx, x, graphRandCosts(rng, m, true)); err != nil {
			t.Fatal(err)
		}
		c := graphRandCosts(rng, m, integer)
		res, err := p.Minimize(ctx, opt, c)
		if err != nil {
			t.Fatal(err)
		}
		for step := 0; ; step++ {
			ok, err := p.Augment(ctx, y, c, x)
			if err != nil {
				t.Fatalf("trial %d: %v", trial, err)
			}
			cx, cy := basicDot(c, x), basicDot(c, y)
			if !ok {
				if !slices.Equal(y, x) {
					t.Fatalf("trial %d: false but dst differs from x", trial)
				}
				if !graphSameValue(cx, res.Value, integer) {
					t.Fatalf("trial %d: no augmentation at c·x = %v, optimum %v", trial, cx, res.Value)
				}
				if step == 0 {
					optimal++
				}
				break
			}
			improved++
			if !(cy < cx) {
				t.Fatalf("trial %d: augmented c·y = %v not below c·x = %v", trial, cy, cx)
			}
			if err := p.Check(y, 0); err != nil {
				t.Fatalf("trial %d: %v", trial, err)
			}
			if !graphIsVertex(net, y) {
				t.Fatalf("trial %d: %v is not a vertex", trial, y)
			}
			if integer && cx-res.Value == 0 {
				t.Fatalf("trial %d: augmented an optimal point", trial)
			}
			copy(x, y)
			if step > 10*m+10 {
				t.Fatalf("trial %d: too many augmentations", trial)
			}
		}
	}
	if improved < 100 || optimal < 10 {
		t.Errorf("test mix: %d improvements, %d optimal starts", improved, optimal)
	}
}

// TestFlowPolytopeAugmentNonVertex starts from midpoints of two vertices:
// the result must still be a vertex.
func TestFlowPolytopeAugmentNonVertex(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 28))
	ctx := context.Background()
	for trial := range 100 {
		n := 3 + rng.IntN(6)
		net := graphRandNet(rng, n, 3*n, 4, 0, true)
		p, err := NewFlowPolytope(net)
		if err != nil {
			t.Fatal(err)
		}
		m := p.Dim()
		a, b, x, y := make([]float64, m), make([]float64, m), make([]float64, m), make([]float64, m)
		p.Minimize(ctx, a, graphRandCosts(rng, m, true))
		p.Minimize(ctx, b, graphRandCosts(rng, m, true))
		for i := range x {
			x[i] = (a[i] + b[i]) / 2
		}
		c := graphRandCosts(rng, m, true)
		opt, _ := p.Minimize(ctx, a, c)
		ok, err := p.Augment(ctx, y, c, x)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			if basicDot(c, x) != opt.Value {
				t.Fatalf("trial %d: no augmentation from %v, optimum %v", trial, basicDot(c, x), opt.Value)
			}
			continue
		}
		if !(basicDot(c, y) < basicDot(c, x)) || p.Check(y, 0) != nil || !graphIsVertex(net, y) {
			t.Fatalf("trial %d: bad augmentation %v from %v", trial, y, x)
		}
	}
}

func TestFlowPolytopeAugmentErrors(t *testing.T) {
	ctx := context.Background()
	// Negative cycle of infinite capacity: Minimize and Augment both say
	// unbounded; the constructor falls back to zero costs for its vertex.
	net := &FlowNetwork{Nodes: 2, Supply: []int64{1, -1}, Arcs: []Arc{
		{From: 0, To: 1, Cap: InfCap, Cost: -1}, {From: 1, To: 0, Cap: InfCap},
	}}
	p, err := NewFlowPolytope(net)
	if err != nil {
		t.Fatal(err)
	}
	x, y := make([]float64, 2), make([]float64, 2)
	p.Vertex(x)
	if !slices.Equal(x, []float64{1, 0}) {
		t.Fatalf("Vertex %v", x)
	}
	// The root package's kind too, so that drivers and the CLI report an
	// unbounded polytope.
	if _, err := p.Minimize(ctx, y, net.Costs()); !errors.Is(err, ErrUnbounded) || !errors.Is(err, lazycg.ErrUnbounded) {
		t.Errorf("Minimize: %v", err)
	}
	if _, err := p.Augment(ctx, y, net.Costs(), x); !errors.Is(err, ErrUnbounded) {
		t.Errorf("Augment: %v", err)
	}
	if ok, err := p.Augment(ctx, y, []float64{1, 1}, x); ok || err != nil {
		t.Errorf("Augment at the optimum: %v %v", ok, err)
	}
	if _, err := p.Augment(ctx, y, []float64{1, 1}, []float64{2, 0}); err == nil {
		t.Error("infeasible point accepted")
	}
	if _, err := p.Augment(ctx, y, []float64{1, math.NaN()}, x); err == nil {
		t.Error("NaN cost accepted")
	}
	if _, err := p.Augment(ctx, y, []float64{1, 1}, x[:1]); err == nil {
		t.Error("short point accepted")
	}
}

func TestFlowPolytopeErrors(t *testing.T) {
	_, err := NewFlowPolytope(&FlowNetwork{Nodes: 2, Supply: []int64{1, -1}})
	if !errors.Is(err, ErrInfeasible) || !errors.Is(err, lazycg.ErrEmptyPolytope) || strings.Count(err.Error(), "infeasible") != 1 {
		t.Errorf("infeasible network: %v; want ErrInfeasible, which is lazycg.ErrEmptyPolytope", err)
	}
	if _, err := NewFlowPolytope(&FlowNetwork{Nodes: 2, Supply: []int64{1, 0}}); err == nil {
		t.Error("invalid network accepted")
	}
	p, err := NewFlowPolytope(graphSmall())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	dst := make([]float64, 5)
	for name, c := range map[string][]float64{
		"nan": {0, 0, math.NaN(), 0, 0}, "inf": {math.Inf(1), 0, 0, 0, 0}, "short": {0, 0},
	} {
		if _, err := p.Minimize(ctx, dst, c); err == nil {
			t.Errorf("Minimize: %s cost accepted", name)
		}
		if _, err := p.MinimizeFace(ctx, dst, c, make([]bool, 5)); err == nil {
			t.Errorf("MinimizeFace: %s cost accepted", name)
		}
	}
	if _, err := p.Minimize(ctx, dst[:4], make([]float64, 5)); err == nil {
		t.Error("short destination accepted")
	}
	if _, err := p.MinimizeFace(ctx, dst, make([]float64, 5), make([]bool, 6)); err == nil {
		t.Error("long mask accepted")
	}
	// Arc 3 has lower bound 1.
	if _, err := p.MinimizeFace(ctx, dst, make([]float64, 5), []bool{false, false, false, true, false}); !errors.Is(err, ErrInfeasible) {
		t.Errorf("face forcing a lower-bounded arc to zero: %v", err)
	}
}

func TestFlowPolytopeCheck(t *testing.T) {
	p, err := NewFlowPolytope(graphSmall())
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		x    []float64
		want string // "" for nil
	}{
		{[]float64{2, 2, 1, 1, 3}, ""},
		{[]float64{2.5, 1.5, 0.5, 2, 2}, ""}, // fractional but feasible
		{[]float64{2, 2, 1, 1, 3.01}, "node 2"},
		{[]float64{4, 0, 2, 0, 2}, "arc 3 carries 0"},
		{[]float64{-1, 5, 0, 0, 5}, "arc 0"},
		{[]float64{2, 2, 1, 1, math.NaN()}, "arc 4"},
		{[]float64{2, 2, 1, 1}, "length 4"},
	}
	for _, tc := range cases {
		err := p.Check(tc.x, 1e-9)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%v: %v", tc.x, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%v: error %v, want one mentioning %q", tc.x, err, tc.want)
		}
	}
	if err := p.Check([]float64{2, 2, 1, 1, 3.01}, 0.1); err != nil {
		t.Errorf("tolerance ignored: %v", err)
	}
}

// TestFlowPolytopeL1Diameter compares with the largest distance between
// enumerated vertices of tiny networks.
func TestFlowPolytopeL1Diameter(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 30))
	for trial := range 60 {
		n := 2 + rng.IntN(3)
		net := graphRandNet(rng, n, 1+rng.IntN(5), 2, 0, true)
		p, err := NewFlowPolytope(net)
		if err != nil {
			t.Fatal(err)
		}
		var verts [][]float64
		x := make([]int64, len(net.Arcs))
		var rec func(i int)
		rec = func(i int) {
			if i == len(x) {
				ex := make([]int64, n)
				xf := make([]float64, len(x))
				for j, a := range net.Arcs {
					ex[a.From] += x[j]
					ex[a.To] -= x[j]
					xf[j] = float64(x[j])
				}
				if slices.Equal(ex, net.Supply) && graphIsVertex(net, xf) {
					verts = append(verts, xf)
				}
				return
			}
			for f := net.Arcs[i].Low; f <= net.Arcs[i].Cap; f++ {
				x[i] = f
				rec(i + 1)
			}
		}
		rec(0)
		best := 0.0
		for _, a := range verts {
			for _, b := range verts {
				d := 0.0
				for i := range a {
					d += math.Abs(a[i] - b[i])
				}
				best = max(best, d)
			}
		}
		if float64(p.L1Diameter()) < best {
			t.Fatalf("trial %d: L1Diameter %d below the vertex diameter %v", trial, p.L1Diameter(), best)
		}
	}
	// Unit capacities on a path of parallel pairs: two disjoint routes.
	net := &FlowNetwork{Nodes: 2, Supply: []int64{1, -1}, Arcs: []Arc{{From: 0, To: 1, Cap: 1}, {From: 0, To: 1, Cap: 1}}}
	p, _ := NewFlowPolytope(net)
	if d := p.L1Diameter(); d != 2 {
		t.Errorf("L1Diameter %d, want 2", d)
	}
}

func TestFlowPolytopeAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	net := graphRandNet(rng, 50, 300, 10, 0, true)
	for i := range net.Arcs {
		net.Arcs[i].Low = 0
	}
	p, err := NewFlowPolytope(net)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	m := p.Dim()
	x, y := make([]float64, m), make([]float64, m)
	cs := [][]float64{graphRandCosts(rng, m, false), graphRandCosts(rng, m, true)}
	zero := make([]bool, m)
	p.Vertex(x)
	for i := range zero {
		zero[i] = x[i] == 0 && i%2 == 0
	}
	if _, err := p.MinimizeFace(ctx, y, cs[0], zero); err != nil { // builds the face solver
		t.Fatal(err)
	}
	k := 0
	for name, f := range map[string]func() error{
		"Minimize": func() error { _, err := p.Minimize(ctx, y, cs[k%2]); return err },
		"MinimizeFace": func() error {
			_, err := p.MinimizeFace(ctx, y, cs[k%2], zero)
			return err
		},
		"Augment": func() error { _, err := p.Augment(ctx, y, cs[k%2], x); return err },
		"MinimizeUntil": func() error {
			// Thresholds that stop early, certify, or never stop.
			rules := []lazycg.StopRule{{Improve: math.Inf(1), Certify: math.Inf(1)}, {Improve: 0, Certify: -1e9}, {Improve: math.Inf(-1), Certify: math.Inf(-1)}}
			_, err := p.MinimizeUntil(ctx, y, cs[k%2], rules[k%3])
			return err
		},
	} {
		if a := testutil.Mallocs(20, func() {
			k++
			if err := f(); err != nil {
				t.Fatal(err)
			}
		}); a != 0 {
			t.Errorf("%s allocates %d times in 20 calls", name, a)
		}
	}
}

// BenchmarkFlowPolytopeMinimize solves netgen_8_10a with slowly changing
// costs (±1% noise), the warm-started hot path of Frank–Wolfe.
func BenchmarkFlowPolytopeMinimize(b *testing.B) {
	net := graphNetgen(b, "netgen_8_10a")
	p, err := NewFlowPolytope(net)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(33, 34))
	base := net.Costs()
	costs := make([][]float64, 16)
	for k := range costs {
		costs[k] = make([]float64, len(base))
		for i, c := range base {
			costs[k][i] = c * (1 + 0.01*rng.NormFloat64())
		}
	}
	dst := make([]float64, len(base))
	ctx := context.Background()
	for i := 0; b.Loop(); i++ {
		if _, err := p.Minimize(ctx, dst, costs[i%len(costs)]); err != nil {
			b.Fatal(err)
		}
	}
}

// TestFlowPolytopeMinimizeUntilStart checks the start-vertex request of
// lazycg's driver (any vertex: Improve = Certify = +Inf): a fresh polytope
// answers with its own vertex, at once and for any costs.
func TestFlowPolytopeMinimizeUntilStart(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	net := graphRandNet(rng, 30, 200, 10, 0.05, true)
	p, err := NewFlowPolytope(net)
	if err != nil {
		t.Fatal(err)
	}
	m := p.Dim()
	x, y := make([]float64, m), make([]float64, m)
	p.Vertex(x)
	c := graphRandCosts(rng, m, false)
	res, err := p.MinimizeUntil(context.Background(), y, c, lazycg.StopRule{Improve: math.Inf(1), Certify: math.Inf(1)})
	if err != nil || !res.Found || res.Reason != lazycg.StopImproving {
		t.Fatalf("%+v, %v", res, err)
	}
	if !slices.Equal(x, y) {
		t.Fatal("the answer is not the polytope's vertex")
	}
	if res.Value != basicNaiveDot(c, y) || res.Bound > res.Value {
		t.Fatalf("value %v, bound %v, c·y %v", res.Value, res.Bound, basicNaiveDot(c, y))
	}
}

// TestFlowPolytopeWarmColdPolicy follows the warm/cold state machine of
// Minimize on a sequence of unrelated costs (where warm starts do not pay)
// and of slowly changing ones, checking every transition against the
// measured work and every answer against a cold solve.
func TestFlowPolytopeWarmColdPolicy(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 44))
	net := graphRandNet(rng, 200, 2000, 50, 0, true)
	p, err := NewFlowPolytope(net)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := NewNetworkSimplex(net)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	m := p.Dim()
	x, y := make([]float64, m), make([]float64, m)
	base := graphRandCosts(rng, m, false)
	colds, warms := 0, 0
	for k := range 60 {
		c := graphRandCosts(rng, m, false) // unrelated costs
		if k >= 30 {
			for i := range c {
				c[i] = base[i] + 1e-3*c[i] // slowly changing costs
			}
		}
		cold, coldWork, backoff := p.coldsLeft > 0, p.coldWork, p.backoff
		w := p.full.Work()
		res, err := p.Minimize(ctx, x, c)
		if err != nil {
			t.Fatal(err)
		}
		w = p.full.Work() - w
		ref.Reset()
		want, err := ref.Solve(ctx, y, c)
		if err != nil || !graphSameValue(res.Value, want, false) {
			t.Fatalf("call %d: value %v, cold solve %v (%v)", k, res.Value, want, err)
		}
		switch {
		case k == 0 && !cold:
			t.Fatal("the first call is not cold")
		case cold:
			colds++
			if p.coldWork != w {
				t.Fatalf("call %d: cold work %d recorded as %d", k, w, p.coldWork)
			}
		case w > coldWork:
			warms++
			if want := min(max(1, 2*backoff), 64); p.coldsLeft != want || p.backoff != want {
				t.Fatalf("call %d: warm work %d > cold %d, then %d cold calls (backoff %d), want %d", k, w, coldWork, p.coldsLeft, p.backoff, want)
			}
		default:
			warms++
			if p.coldsLeft != 0 || p.backoff != 0 {
				t.Fatalf("call %d: warm work %d ≤ cold %d, then %d cold calls", k, w, coldWork, p.coldsLeft)
			}
		}
	}
	if colds < 2 || warms < 10 {
		t.Errorf("%d cold and %d warm calls", colds, warms)
	}
}

// TestFlowZeroOne: a flow polytope is 0/1 (augmenting weak separation
// applies) exactly when every arc's bounds lie in [0, 1]; a product is 0/1
// when every block is.
func TestFlowZeroOne(t *testing.T) {
	// Two parallel paths 0→1→3 and 0→2→3, one unit from 0 to 3.
	build := func(cap1 int64) *FlowPolytope {
		t.Helper()
		net := &FlowNetwork{Nodes: 4, Supply: []int64{1, 0, 0, -1}, Arcs: []Arc{
			{From: 0, To: 1, Cap: cap1, Cost: 1}, {From: 1, To: 3, Cap: 1, Cost: 1},
			{From: 0, To: 2, Cap: 1, Cost: 2}, {From: 2, To: 3, Cap: 1, Cost: 2},
		}}
		p, err := NewFlowPolytope(net)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	unit := build(1)
	for _, tc := range []struct {
		name string
		p    *FlowPolytope
		want bool
	}{
		{"unit capacities", unit, true},
		{"a capacity of 2", build(2), false},
		{"an uncapacitated arc", build(InfCap), false},
	} {
		if got := tc.p.ZeroOne(); got != tc.want {
			t.Errorf("%s: ZeroOne %v, want %v", tc.name, got, tc.want)
		}
	}
	for _, tc := range []struct {
		name   string
		blocks []lazycg.LMO
		want   bool
	}{
		{"unit × unit", []lazycg.LMO{unit, unit}, true},
		{"unit × capacity 2", []lazycg.LMO{unit, build(2)}, false},
	} {
		p, err := NewProduct(tc.blocks...)
		if err != nil {
			t.Fatal(err)
		}
		z, ok := p.(interface{ ZeroOne() bool })
		if !ok || z.ZeroOne() != tc.want {
			t.Errorf("%s: product ZeroOne method %v, want %v", tc.name, ok, tc.want)
		}
	}
}
