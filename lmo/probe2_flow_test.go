package lmo

import (
	"context"
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/lazycg/lazycg"
)

// probe2RandNet returns a tiny random network (self-loops, parallel arcs,
// lower bounds, zero and infinite capacities); supplies balanced.
func probe2RandNet(rng *rand.Rand) *FlowNetwork {
	n := 1 + rng.IntN(4)
	m := rng.IntN(7)
	net := &FlowNetwork{Nodes: n, Supply: make([]int64, n)}
	for i := 0; i < m; i++ {
		a := Arc{From: rng.IntN(n), To: rng.IntN(n)}
		switch rng.IntN(6) {
		case 0:
			a.Cap = InfCap
		case 1:
			a.Cap = 0
		default:
			a.Cap = int64(1 + rng.IntN(3))
		}
		if rng.IntN(5) == 0 && a.Cap > 0 {
			a.Low = 1
		}
		a.Cost = float64(rng.IntN(7) - 3)
		net.Arcs = append(net.Arcs, a)
	}
	if n > 1 {
		for k := rng.IntN(3); k > 0; k-- {
			u, v := rng.IntN(n), rng.IntN(n)
			d := int64(1 + rng.IntN(2))
			net.Supply[u] += d
			net.Supply[v] -= d
		}
	}
	return net
}

// probe2Brute returns the minimum of c·x over the integral feasible flows
// (feasible: whether any), and whether the problem is unbounded.
func probe2Brute(net *FlowNetwork, c []float64, zero []bool) (best float64, feasible, unbounded bool) {
	m := len(net.Arcs)
	U := int64(1)
	for _, b := range net.Supply {
		U += max(b, -b)
	}
	for _, a := range net.Arcs {
		U += a.Low
		if a.Cap != InfCap {
			U += a.Cap
		}
	}
	hi := make([]int64, m)
	for i, a := range net.Arcs {
		hi[i] = a.Cap
		if a.Cap == InfCap {
			hi[i] = U
		}
		if zero != nil && zero[i] {
			hi[i] = 0
		}
	}
	x := make([]int64, m)
	best = math.Inf(1)
	var rec func(i int)
	rec = func(i int) {
		if i == m {
			ex := make([]int64, net.Nodes)
			copy(ex, net.Supply)
			for k, a := range net.Arcs {
				ex[a.From] -= x[k]
				ex[a.To] += x[k]
			}
			for _, e := range ex {
				if e != 0 {
					return
				}
			}
			feasible = true
			v := 0.0
			for k := range x {
				v += c[k] * float64(x[k])
			}
			best = min(best, v)
			return
		}
		for f := net.Arcs[i].Low; f <= hi[i]; f++ {
			x[i] = f
			rec(i + 1)
		}
	}
	rec(0)
	if !feasible {
		return best, false, false
	}
	// Unbounded iff a directed cycle of infinite-capacity (allowed) arcs
	// has negative cost.
	n := net.Nodes
	d := make([][]float64, n)
	for i := range d {
		d[i] = make([]float64, n)
		for j := range d[i] {
			d[i][j] = math.Inf(1)
		}
	}
	for k, a := range net.Arcs {
		if a.Cap == InfCap && (zero == nil || !zero[k]) {
			d[a.From][a.To] = min(d[a.From][a.To], c[k])
		}
	}
	for k := 0; k < n; k++ {
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				d[i][j] = min(d[i][j], d[i][k]+d[k][j])
			}
		}
	}
	for i := 0; i < n; i++ {
		if d[i][i] < 0 {
			unbounded = true
		}
	}
	return best, true, unbounded
}

func TestProbe2FlowBrute(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(7, 11))
	checked := 0
	for trial := 0; trial < 3000; trial++ {
		net := probe2RandNet(rng)
		m := len(net.Arcs)
		best0, feas, unb0 := probe2Brute(net, net.Costs(), nil)
		_ = best0
		_ = unb0
		p, err := NewFlowPolytope(net)
		if !feas {
			if err == nil || !errors.Is(err, ErrInfeasible) {
				t.Fatalf("trial %d: infeasible network accepted: %v %+v", trial, err, net)
			}
			continue
		}
		if err != nil {
			t.Fatalf("trial %d: feasible network refused: %v %+v", trial, err, net)
		}
		var v0 = make([]float64, m)
		p.Vertex(v0)
		if err := p.Check(v0, 1e-9); err != nil {
			t.Fatalf("trial %d: vertex refused: %v", trial, err)
		}
		for k := 0; k < 6; k++ {
			c := make([]float64, m)
			for i := range c {
				if k%2 == 0 {
					c[i] = float64(rng.IntN(7) - 3)
				} else {
					c[i] = rng.NormFloat64()
				}
			}
			best, _, unb := probe2Brute(net, c, nil)
			dst := make([]float64, m)
			res, err := p.Minimize(ctx, dst, c)
			if unb {
				if !errors.Is(err, ErrUnbounded) {
					t.Fatalf("trial %d: unbounded not reported: %v %v net %+v c %v", trial, res, err, net, c)
				}
				continue
			}
			if err != nil {
				t.Fatalf("trial %d: %v net %+v c %v", trial, err, net, c)
			}
			checked++
			if math.Abs(res.Value-best) > 1e-9 || res.Bound > best+1e-9 {
				t.Fatalf("trial %d: value %v bound %v, brute %v; net %+v c %v", trial, res.Value, res.Bound, best, net, c)
			}
			if err := p.Check(dst, 0); err != nil {
				t.Fatalf("trial %d: answer refused by Check: %v", trial, err)
			}
			// Early stop rules.
			for _, rule := range []lazycg.StopRule{
				{Improve: math.Inf(1), Certify: math.Inf(1)},
				{Improve: best + 0.5, Certify: math.Inf(1)},
				{Improve: math.Inf(-1), Certify: best - 0.5},
				{Improve: math.Inf(-1), Certify: best},
				{Improve: best, Certify: math.Inf(1)},
			} {
				p2, _ := NewFlowPolytope(net)
				r, err := p2.MinimizeUntil(ctx, dst, c, rule)
				if err != nil {
					t.Fatalf("trial %d: until %v: %v", trial, rule, err)
				}
				if r.Bound > best+1e-9 {
					t.Fatalf("trial %d: until %+v: bound %v > min %v net %+v c %v", trial, rule, r.Bound, best, net, c)
				}
				if r.Found {
					if err := p2.Check(dst, 1e-9); err != nil {
						t.Fatalf("trial %d: until: %v", trial, err)
					}
					if math.Abs(basicDot(c, dst)-r.Value) > 1e-9 {
						t.Fatalf("trial %d: until value mismatch", trial)
					}
				}
				switch r.Reason {
				case lazycg.StopImproving:
					if !(r.Found && r.Value < rule.Improve) {
						t.Fatalf("trial %d: improving but value %v ≥ %v", trial, r.Value, rule.Improve)
					}
				case lazycg.StopCertified:
					if !(r.Bound >= rule.Certify) {
						t.Fatalf("trial %d: certified but bound %v < %v", trial, r.Bound, rule.Certify)
					}
				case lazycg.StopOptimal:
					if !(r.Found && math.Abs(r.Value-best) < 1e-9) {
						t.Fatalf("trial %d: optimal %+v, brute %v", trial, r, best)
					}
				default:
					t.Fatalf("trial %d: reason %v", trial, r.Reason)
				}
			}
			// Augment from the answer and from a random other vertex.
			y := make([]float64, m)
			c2 := make([]float64, m)
			for i := range c2 {
				c2[i] = float64(rng.IntN(7) - 3)
			}
			if _, err := p.Minimize(ctx, y, c2); err != nil {
				continue
			}
			aug := make([]float64, m)
			ok, err := p.Augment(ctx, aug, c, y)
			if err != nil {
				t.Fatalf("trial %d: augment: %v net %+v c %v y %v", trial, err, net, c, y)
			}
			cy := basicDot(c, y)
			if ok {
				if !(basicDot(c, aug) < cy) {
					t.Fatalf("trial %d: augment not improving", trial)
				}
				if err := p.Check(aug, 1e-9); err != nil {
					t.Fatalf("trial %d: augment point: %v", trial, err)
				}
			} else if cy > best+1e-9 {
				t.Fatalf("trial %d: augment says optimal at %v, min %v; net %+v c %v y %v", trial, cy, best, net, c, y)
			}
			// Faces.
			zero := make([]bool, m)
			for i := range zero {
				zero[i] = rng.IntN(3) == 0
			}
			fb, ffeas, funb := probe2Brute(net, c, zero)
			r, err := p.MinimizeFace(ctx, dst, c, zero)
			switch {
			case !ffeas:
				if !errors.Is(err, ErrInfeasible) {
					t.Fatalf("trial %d: infeasible face: %v %v", trial, r, err)
				}
			case funb:
				if !errors.Is(err, ErrUnbounded) {
					t.Fatalf("trial %d: unbounded face: %v %v", trial, r, err)
				}
			default:
				if err != nil || math.Abs(r.Value-fb) > 1e-9 {
					t.Fatalf("trial %d: face %v %v, brute %v; net %+v c %v zero %v", trial, r, err, fb, net, c, zero)
				}
				for i := range zero {
					if zero[i] && dst[i] != 0 {
						t.Fatalf("trial %d: face violated", trial)
					}
				}
			}
		}
	}
	t.Logf("checked %d", checked)
}

// TestProbe2FlowToleranceHidesHugeCycle: with non-integer costs the
// network simplex prices with a tolerance 1e-14·(n+1)·max|c|; a cycle of
// cost −1e-14 per unit and capacity 2^50 priced out within it, and the
// zero flow was reported as an exact optimum (Bound 0) although the
// saturated cycle costs −11.25. Bound must stay a proven lower bound.
func TestProbe2FlowToleranceHidesHugeCycle(t *testing.T) {
	ctx := context.Background()
	const capa = 1 << 50
	net := &FlowNetwork{Nodes: 2, Supply: []int64{0, 0}, Arcs: []Arc{
		{From: 0, To: 1, Cap: capa}, {From: 1, To: 0, Cap: capa}}}
	c := []float64{0.5, -0.5 - 1e-14}
	// The exact minimum: the saturated cycle, capa·(c0 + c1) < 0.
	exact := new(big.Float).SetPrec(200).SetFloat64(c[0])
	exact.Add(exact, new(big.Float).SetFloat64(c[1]))
	exact.Mul(exact, new(big.Float).SetFloat64(capa))
	below := func(b float64) bool { return new(big.Float).SetFloat64(b).Cmp(exact) <= 0 }
	p, err := NewFlowPolytope(net)
	if err != nil {
		t.Fatal(err)
	}
	dst := make([]float64, 2)
	res, err := p.Minimize(ctx, dst, c)
	if err != nil {
		t.Fatal(err)
	}
	if !below(res.Bound) || (res.Optimal() && !below(res.Value)) {
		t.Errorf("Minimize: %+v, but the minimum is %v", res, exact)
	}
	res, err = p.MinimizeUntil(ctx, dst, c, lazycg.StopRule{Improve: math.Inf(-1), Certify: math.Inf(1)})
	if err != nil {
		t.Fatal(err)
	}
	if !below(res.Bound) {
		t.Errorf("MinimizeUntil: %+v, but the minimum is %v", res, exact)
	}
	res, err = p.MinimizeFace(ctx, dst, c, make([]bool, 2))
	if err != nil {
		t.Fatal(err)
	}
	if !below(res.Bound) {
		t.Errorf("MinimizeFace: %+v, but the minimum is %v", res, exact)
	}
}

// TestProbe2FlowHugeCosts: costs above MaxFloat64/(4(n+1)) were refused
// ("costs … are too large") although every flow has a finite cost; now
// they are solved scaled by a power of two. Small integer costs times
// 2^1019 must give the brute-force optimum times 2^1019.
func TestProbe2FlowHugeCosts(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(31, 37))
	const big = 0x1p1019
	solved := 0
	for trial := 0; trial < 1500; trial++ {
		net := probe2RandNet(rng)
		m := len(net.Arcs)
		if m == 0 {
			continue
		}
		p, err := NewFlowPolytope(net)
		if err != nil {
			continue
		}
		c := make([]float64, m)
		for i := range c {
			c[i] = float64(rng.IntN(7) - 3)
		}
		c[rng.IntN(m)] = 3 // max|c| = 3·2^1019: beyond MaxFloat64/(4(n+1))
		best, _, unb := probe2Brute(net, c, nil)
		cb := make([]float64, m)
		for i := range c {
			cb[i] = c[i] * big
		}
		want := best * big
		dst := make([]float64, m)
		res, err := p.Minimize(ctx, dst, cb)
		switch {
		case unb:
			if !errors.Is(err, ErrUnbounded) {
				t.Fatalf("trial %d: %+v %v, want unbounded", trial, res, err)
			}
			continue
		case math.IsInf(want, 0):
			if err == nil {
				t.Fatalf("trial %d: %+v, want an error for a value beyond float64", trial, res)
			}
			continue
		case err != nil:
			t.Fatalf("trial %d: %v; net %+v c %v", trial, err, net, c)
		}
		solved++
		if res.Value != want || !(res.Bound <= want) || basicDot(cb, dst) != want {
			t.Fatalf("trial %d: %+v, want %v", trial, res, want)
		}
		for _, rule := range []lazycg.StopRule{
			{Improve: math.Inf(-1), Certify: math.Inf(1)},
			{Improve: want + big/2, Certify: math.Inf(1)},
			{Improve: math.Inf(-1), Certify: want - big/2},
		} {
			r, err := p.MinimizeUntil(ctx, dst, cb, rule)
			if err != nil {
				t.Fatalf("trial %d: until %+v: %v", trial, rule, err)
			}
			if r.Bound > want || (r.Found && r.Value != basicDot(cb, dst)) ||
				(r.Reason == lazycg.StopImproving && !(r.Value < rule.Improve)) ||
				(r.Reason == lazycg.StopCertified && !(r.Bound >= rule.Certify)) ||
				(r.Reason == lazycg.StopOptimal && r.Value != want) {
				t.Fatalf("trial %d: until %+v: %+v, want %v", trial, rule, r, want)
			}
		}
		r, err := p.MinimizeFace(ctx, dst, cb, make([]bool, m))
		if err != nil || r.Value != want {
			t.Fatalf("trial %d: face: %+v %v, want %v", trial, r, err, want)
		}
	}
	if solved < 100 {
		t.Fatalf("only %d instances solved", solved)
	}
}
