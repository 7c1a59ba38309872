package lmo_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lazycg/lazycg/lmo"
)

// graphSmallNet is the network of testdata/flow_small.min.
var graphSmallNet = &lmo.FlowNetwork{
	Nodes:  4,
	Supply: []int64{4, 0, 0, -4},
	Arcs: []lmo.Arc{
		{From: 0, To: 1, Low: 0, Cap: 4, Cost: 2},
		{From: 0, To: 2, Low: 0, Cap: 2, Cost: 2},
		{From: 1, To: 2, Low: 0, Cap: 2, Cost: 1},
		{From: 1, To: 3, Low: 1, Cap: 3, Cost: 3},
		{From: 2, To: 3, Low: 0, Cap: 5, Cost: 1},
	},
}

func TestReadDIMACSFixture(t *testing.T) {
	for _, name := range []string{"flow_small.min", "flow_small.min.gz"} {
		net, err := lmo.ReadDIMACSFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(net, graphSmallNet) {
			t.Errorf("%s: got %+v, want %+v", name, net, graphSmallNet)
		}
	}
}

// TestReadDIMACSFileSniffsGzip checks that gzip is recognized by its magic
// bytes, not by the file name, in both directions.
func TestReadDIMACSFileSniffsGzip(t *testing.T) {
	gz, err := os.ReadFile(filepath.Join("testdata", "flow_small.min.gz"))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := os.ReadFile(filepath.Join("testdata", "flow_small.min"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, data := range map[string][]byte{"gzip-named.min": gz, "plain-named.min.gz": plain, "noext": gz} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		net, err := lmo.ReadDIMACSFile(p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(net, graphSmallNet) {
			t.Errorf("%s: wrong network %+v", name, net)
		}
	}
	// A truncated gzip stream is an error, not a panic or a short network.
	p := filepath.Join(dir, "truncated.min")
	if err := os.WriteFile(p, gz[:len(gz)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := lmo.ReadDIMACSFile(p); err == nil {
		t.Error("truncated gzip file accepted")
	}
	if _, err := lmo.ReadDIMACSFile(filepath.Join(dir, "missing.min")); err == nil || !strings.Contains(err.Error(), "missing.min") {
		t.Errorf("missing file: error %v should name the file", err)
	}
}

func TestReadDIMACSErrors(t *testing.T) {
	const hdr = "p min 3 1\n"
	cases := []struct {
		name, in string
		want     []string // substrings of the error
	}{
		{"empty", "", []string{"missing problem line"}},
		{"comments only", "c nothing\nc here\n", []string{"missing problem line"}},
		{"arc before p", "a 1 2 0 1 1\np min 2 1\n", []string{"line 1", "before the problem line"}},
		{"node before p", "c x\nn 1 1\n", []string{"line 2", "before the problem line"}},
		{"duplicate p", hdr + "p min 3 1\n", []string{"line 2", "duplicate problem line", "line 1"}},
		{"p fields", "p min 3\n", []string{"line 1", "p min NODES ARCS"}},
		{"p type", "p max 3 1\n", []string{"line 1", "unsupported problem type", "max"}},
		{"p nodes text", "p min three 1\n", []string{"line 1", "NODES", "integer", "three"}},
		{"p arcs text", "p min 3 1.5\n", []string{"line 1", "ARCS", "integer"}},
		{"p zero nodes", "p min 0 0\n", []string{"line 1", "NODES must be in"}},
		{"p negative arcs", "p min 2 -1\n", []string{"line 1", "ARCS must be in"}},
		{"p huge", "p min 99999999999 0\n", []string{"line 1", "NODES must be in"}},
		{"node id range", hdr + "n 4 1\n", []string{"line 2", "node id 4 out of range [1, 3]"}},
		{"node id zero", hdr + "n 0 1\n", []string{"line 2", "out of range"}},
		{"node fields", hdr + "n 1\n", []string{"line 2", "n ID SUPPLY"}},
		{"node supply text", hdr + "n 1 x\n", []string{"line 2", "SUPPLY", "integer"}},
		{"node twice", hdr + "n 1 1\nn 1 -1\n", []string{"line 3", "second node line for node 1"}},
		{"supply too big", hdr + "n 1 9007199254740993\n", []string{"line 2", "2^53"}},
		{"arc fields", hdr + "a 1 2 0 1\n", []string{"line 2", "a FROM TO LOW CAP COST"}},
		{"arc from range", hdr + "a 5 2 0 1 1\n", []string{"line 2", "FROM", "out of range"}},
		{"arc to range", hdr + "a 1 -2 0 1 1\n", []string{"line 2", "TO", "out of range"}},
		{"arc low text", hdr + "a 1 2 zero 1 1\n", []string{"line 2", "LOW", "integer"}},
		{"arc cap text", hdr + "a 1 2 0 1e3 1\n", []string{"line 2", "CAP", "integer"}},
		{"arc cost text", hdr + "a 1 2 0 1 cheap\n", []string{"line 2", "COST", "finite number"}},
		{"arc cost nan", hdr + "a 1 2 0 1 NaN\n", []string{"line 2", "COST", "finite number"}},
		{"arc cost inf", hdr + "a 1 2 0 1 +Inf\n", []string{"line 2", "COST"}},
		{"negative capacity", hdr + "a 1 2 0 -1 1\n", []string{"line 2", "negative capacity -1"}},
		{"negative low", hdr + "a 1 2 -1 1 1\n", []string{"line 2", "negative lower bound"}},
		{"low above cap", hdr + "a 1 2 3 2 1\n", []string{"line 2", "lower bound 3 exceeds capacity 2"}},
		{"too many arcs", hdr + "a 1 2 0 1 1\na 2 3 0 1 1\n", []string{"line 3", "more arc lines than the 1 declared on line 1"}},
		{"too few arcs", "p min 3 2\na 1 2 0 1 1\n", []string{"line 1 declares 2 arcs, found 1"}},
		{"unbalanced", hdr + "n 1 2\nn 3 -1\na 1 2 0 1 1\n", []string{"supplies sum to 1"}},
		{"unknown line", hdr + "x 1 2\n", []string{"line 2", "unknown line type", "\"x\""}},
		{"long line", hdr + "c " + strings.Repeat("y", 2<<20) + "\n", []string{"line 2", "longer than"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			net, err := lmo.ReadDIMACS(strings.NewReader(tc.in))
			if err == nil {
				t.Fatalf("accepted, got %+v", net)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "lmo: dimacs: ") {
				t.Errorf("error %q lacks the package prefix", msg)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not contain %q", msg, w)
				}
			}
		})
	}
}

func TestReadDIMACSAccepts(t *testing.T) {
	// Tabs, CRLF line ends, blank lines, comments anywhere, decimal costs,
	// zero-capacity arcs and nodes without "n" line.
	in := "c head\r\n\r\np\tmin 3  2\r\nc mid\nn 1 2\n\nn 3 -2\na 1 3 0 0 -1.5\na 1\t3 2 2 0.25\nc tail"
	net, err := lmo.ReadDIMACS(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := &lmo.FlowNetwork{
		Nodes:  3,
		Supply: []int64{2, 0, -2},
		Arcs: []lmo.Arc{
			{From: 0, To: 2, Low: 0, Cap: 0, Cost: -1.5},
			{From: 0, To: 2, Low: 2, Cap: 2, Cost: 0.25},
		},
	}
	if !reflect.DeepEqual(net, want) {
		t.Errorf("got %+v, want %+v", net, want)
	}
}

func TestWriteDIMACSRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	if err := lmo.WriteDIMACS(&buf, graphSmallNet); err != nil {
		t.Fatal(err)
	}
	back, err := lmo.ReadDIMACS(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, graphSmallNet) {
		t.Errorf("round trip changed the network: %+v", back)
	}
	inf := &lmo.FlowNetwork{Nodes: 1, Supply: []int64{0}, Arcs: []lmo.Arc{{Cap: lmo.InfCap}}}
	if err := lmo.WriteDIMACS(&buf, inf); err == nil {
		t.Error("arc without upper bound written")
	}
	bad := &lmo.FlowNetwork{Nodes: 2, Supply: []int64{1, 0}}
	if err := lmo.WriteDIMACS(&buf, bad); err == nil {
		t.Error("unbalanced network written")
	}
}

func TestFlowNetworkValidate(t *testing.T) {
	ok := func() *lmo.FlowNetwork {
		return &lmo.FlowNetwork{Nodes: 2, Supply: []int64{1, -1}, Arcs: []lmo.Arc{{From: 0, To: 1, Cap: 1, Cost: 1}}}
	}
	if err := ok().Validate(); err != nil {
		t.Fatal(err)
	}
	cases := map[string]func(*lmo.FlowNetwork){
		"no nodes":      func(n *lmo.FlowNetwork) { n.Nodes, n.Supply = 0, nil },
		"supply length": func(n *lmo.FlowNetwork) { n.Supply = []int64{1} },
		"unbalanced":    func(n *lmo.FlowNetwork) { n.Supply[1] = 0 },
		"huge supply":   func(n *lmo.FlowNetwork) { n.Supply = []int64{lmo.MaxFlowAmount + 1, -lmo.MaxFlowAmount - 1} },
		"endpoint":      func(n *lmo.FlowNetwork) { n.Arcs[0].To = 2 },
		"negative low":  func(n *lmo.FlowNetwork) { n.Arcs[0].Low = -1 },
		"low above cap": func(n *lmo.FlowNetwork) { n.Arcs[0].Low = 2 },
		"huge cap":      func(n *lmo.FlowNetwork) { n.Arcs[0].Cap = lmo.MaxFlowAmount + 1 },
		"nan cost":      func(n *lmo.FlowNetwork) { n.Arcs[0].Cost = (func() float64 { z := 0.0; return z / z })() },
	}
	for name, mod := range cases {
		net := ok()
		mod(net)
		if err := net.Validate(); err == nil || !strings.HasPrefix(err.Error(), "lmo: flow network: ") {
			t.Errorf("%s: error %v", name, err)
		}
	}
	var nilNet *lmo.FlowNetwork
	if err := nilNet.Validate(); err == nil {
		t.Error("nil network accepted")
	}
}

// FuzzReadDIMACS checks that the reader never panics, that what it accepts
// is a valid network, and that writing and reading it again reproduces it.
func FuzzReadDIMACS(f *testing.F) {
	seeds := []string{
		"p min 4 5\nn 1 4\nn 4 -4\na 1 2 0 4 2\na 1 3 0 2 2\na 2 3 0 2 1\na 2 4 1 3 3\na 3 4 0 5 1\n",
		"c x\np min 1 1\na 1 1 0 0 0\n",
		"p min 2 1\nn 1 3\nn 2 -3\na 1 2 3 3 -7.5\n",
		"p min 2 0\n",
		"p min 3 1\na 1 4 0 1 1\n",
		"p min 2 1\na 1 2 0 9007199254740992 1e308\n",
		"n 1 1\n",
		"p min 2 1\np min 2 1\n",
	}
	if data, err := os.ReadFile(filepath.Join("testdata", "flow_small.min")); err == nil {
		seeds = append(seeds, string(data))
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		net, err := lmo.ReadDIMACS(strings.NewReader(in))
		if err != nil {
			if net != nil {
				t.Fatal("network returned together with an error")
			}
			if !strings.HasPrefix(err.Error(), "lmo: dimacs: ") {
				t.Fatalf("error without prefix: %v", err)
			}
			return
		}
		if err := net.Validate(); err != nil {
			t.Fatalf("accepted an invalid network: %v", err)
		}
		sum := new(big.Int)
		for _, b := range net.Supply {
			sum.Add(sum, big.NewInt(b))
		}
		if sum.Sign() != 0 {
			t.Fatalf("accepted supplies summing to %v", sum)
		}
		if net.Nodes > 1<<16 {
			return // keep the fuzzer fast on huge NODES headers
		}
		var buf bytes.Buffer
		if err := lmo.WriteDIMACS(&buf, net); err != nil {
			t.Fatal(err)
		}
		back, err := lmo.ReadDIMACS(&buf)
		if err != nil {
			t.Fatalf("written network does not read back: %v", err)
		}
		if back.Nodes != net.Nodes || !reflect.DeepEqual(back.Supply, net.Supply) || len(back.Arcs) != len(net.Arcs) {
			t.Fatalf("round trip changed the network")
		}
		for i, a := range net.Arcs {
			b := back.Arcs[i]
			// Costs such as -0 read back as 0; compare values.
			if a.From != b.From || a.To != b.To || a.Low != b.Low || a.Cap != b.Cap || a.Cost != b.Cost {
				t.Fatalf("arc %d changed: %+v → %+v", i, a, b)
			}
		}
	})
}

// ExampleReadDIMACS reads a min-cost flow problem and minimizes over its
// flow polytope, once with the file's costs and once with other costs.
func ExampleReadDIMACS() {
	const problem = `c two routes from node 1 to node 3
p min 3 3
n 1 5
n 3 -5
a 1 2 0 4 1
a 2 3 0 4 1
a 1 3 0 10 3
`
	net, err := lmo.ReadDIMACS(strings.NewReader(problem))
	if err != nil {
		fmt.Println(err)
		return
	}
	poly, err := lmo.NewFlowPolytope(net)
	if err != nil {
		fmt.Println(err)
		return
	}
	x := make([]float64, poly.Dim())
	res, err := poly.Minimize(context.Background(), x, net.Costs())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("file costs:", res.Value, x)
	res, err = poly.Minimize(context.Background(), x, []float64{1, 1, 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("direct arc cheap:", res.Value, x)

	// Infeasible supplies are reported when the polytope is built.
	net.Supply = []int64{15, 0, -15}
	_, err = lmo.NewFlowPolytope(net)
	fmt.Println(errors.Is(err, lmo.ErrInfeasible))
	// Output:
	// file costs: 11 [4 4 1]
	// direct arc cheap: 5 [0 0 5]
	// true
}
