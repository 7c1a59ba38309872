package lmo

import (
	"bufio"
	"errors"
	"fmt"
	"github.com/lazycg/lazycg/internal/fileio"
	"io"
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"strings"
)

// InfCap is the capacity of an arc without upper bound (Arc.Cap). The
// DIMACS reader never produces it; networks built in code may use it.
const InfCap int64 = math.MaxInt64

// MaxFlowAmount bounds the absolute value of supplies, lower bounds and
// finite capacities: 2^53, so that every amount and every flow value is
// exact in a float64.
const MaxFlowAmount int64 = 1 << 53

// Limits of the DIMACS reader, which protect against absurd headers.
const (
	// MaxDIMACSNodes is the largest NODES value accepted in a "p min" line.
	MaxDIMACSNodes = 1 << 24
	// MaxDIMACSArcs is the largest ARCS value accepted in a "p min" line.
	MaxDIMACSArcs = 1 << 28
)

// Arc is a directed arc of a FlowNetwork.
type Arc struct {
	// From and To are the 0-based tail and head nodes (DIMACS ids minus 1).
	From, To int
	// Low and Cap are the lower and upper bounds on the flow, with
	// 0 ≤ Low ≤ Cap. Cap == InfCap means the arc has no upper bound.
	Low, Cap int64
	// Cost is the cost of one unit of flow.
	Cost float64
}

// FlowNetwork is a minimum-cost flow instance: find x minimizing
// Σ Cost_a x_a subject to Low_a ≤ x_a ≤ Cap_a for every arc a and
// flow conservation Σ_{a out of v} x_a − Σ_{a into v} x_a = Supply[v] for
// every node v.
type FlowNetwork struct {
	// Nodes is the number of nodes, numbered 0…Nodes−1.
	Nodes int
	// Supply[v] is the net supply of node v: positive for a source,
	// negative for a demand (sink), zero for a transshipment node. The
	// supplies sum to zero.
	Supply []int64
	// Arcs lists the arcs; arc i is coordinate i of a flow vector.
	Arcs []Arc
}

// Validate checks the network: at least one node, len(Supply) == Nodes,
// endpoints in range, 0 ≤ Low ≤ Cap, every finite amount at most
// MaxFlowAmount in absolute value, finite costs, and supplies summing to
// zero. It does not check that a feasible flow exists.
func (net *FlowNetwork) Validate() error {
	if net == nil {
		return errors.New("lmo: flow network: nil network")
	}
	if net.Nodes < 1 || net.Nodes >= math.MaxInt32 {
		return fmt.Errorf("lmo: flow network: number of nodes must be in [1, %d), got %d", math.MaxInt32, net.Nodes)
	}
	if len(net.Arcs) >= math.MaxInt32-net.Nodes {
		return fmt.Errorf("lmo: flow network: too many arcs (%d)", len(net.Arcs))
	}
	if len(net.Supply) != net.Nodes {
		return fmt.Errorf("lmo: flow network: %d supplies for %d nodes", len(net.Supply), net.Nodes)
	}
	for v, b := range net.Supply {
		if b > MaxFlowAmount || b < -MaxFlowAmount {
			return fmt.Errorf("lmo: flow network: supply %d of node %d exceeds 2^53 in absolute value", b, v)
		}
	}
	if sum := supplySum(net.Supply); sum != "0" {
		return fmt.Errorf("lmo: flow network: supplies sum to %s, want 0", sum)
	}
	for i, a := range net.Arcs {
		if a.From < 0 || a.From >= net.Nodes || a.To < 0 || a.To >= net.Nodes {
			return fmt.Errorf("lmo: flow network: arc %d = (%d, %d) has an endpoint outside [0, %d)", i, a.From, a.To, net.Nodes)
		}
		if a.Low < 0 {
			return fmt.Errorf("lmo: flow network: arc %d has negative lower bound %d", i, a.Low)
		}
		if a.Low > MaxFlowAmount {
			return fmt.Errorf("lmo: flow network: arc %d has lower bound %d above 2^53", i, a.Low)
		}
		if a.Cap != InfCap && a.Cap > MaxFlowAmount {
			return fmt.Errorf("lmo: flow network: arc %d has capacity %d above 2^53 (use InfCap for no bound)", i, a.Cap)
		}
		if a.Cap < a.Low {
			return fmt.Errorf("lmo: flow network: arc %d has lower bound %d above its capacity %d", i, a.Low, a.Cap)
		}
		if math.IsNaN(a.Cost) || math.IsInf(a.Cost, 0) {
			return fmt.Errorf("lmo: flow network: arc %d has cost %v, want a finite number", i, a.Cost)
		}
	}
	return nil
}

// Costs returns the arc costs as a vector (one entry per arc).
func (net *FlowNetwork) Costs() []float64 {
	c := make([]float64, len(net.Arcs))
	for i, a := range net.Arcs {
		c[i] = a.Cost
	}
	return c
}

// ReadDIMACSFile reads a DIMACS min-cost flow file (see ReadDIMACS). Gzip
// files are recognized by their magic bytes (1f 8b), whatever their name.
func ReadDIMACSFile(path string) (*FlowNetwork, error) {
	return ReadDIMACSFileCheck(path, nil)
}

// ReadDIMACSFileCheck is ReadDIMACSFile that calls check (unless nil) with
// the NODES and ARCS of the problem line as soon as it is read, before
// anything of that size is allocated: an error of check ends the reading
// and is returned as is. Callers refuse there the networks too large for
// their memory budget (a header alone asks for up to 2^24 nodes).
func ReadDIMACSFileCheck(path string, check func(nodes, arcs int) error) (*FlowNetwork, error) {
	var checkErr error
	net, err := fileio.ReadPath(path, "lmo: dimacs", func(r io.Reader) (*FlowNetwork, error) {
		return readDIMACS(r, func(nodes, arcs int) error {
			if check != nil {
				checkErr = check(nodes, arcs)
			}
			return checkErr
		})
	})
	if checkErr != nil {
		return nil, checkErr
	}
	return net, err
}

// ReadDIMACS reads a minimum-cost flow problem in the DIMACS format:
//
//	c any comment
//	p min NODES ARCS
//	n ID SUPPLY
//	a FROM TO LOW CAP COST
//
// Node ids are 1-based in the file and 0-based in the result. Comment lines
// (whose first word starts with 'c') and blank lines are ignored. The "p" line must come
// before any "n" or "a" line and appear once; each node has at most one
// "n" line (nodes without one have supply 0); exactly ARCS "a" lines must
// follow. Supplies, bounds and capacities are integers with
// 0 ≤ LOW ≤ CAP and absolute values at most MaxFlowAmount; costs are
// finite numbers (usually integers); supplies must sum to zero.
//
// Errors name the offending line and say what was expected.
func ReadDIMACS(r io.Reader) (*FlowNetwork, error) {
	return readDIMACS(r, nil)
}

// readDIMACS is ReadDIMACS that calls check (unless nil) with NODES and
// ARCS before allocating for them.
func readDIMACS(r io.Reader, check func(nodes, arcs int) error) (*FlowNetwork, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	var (
		net      *FlowNetwork
		pLine    int
		wantArcs int
		hasN     []bool
		fields   = make([]string, 0, 8)
		lineNo   int
	)
	for sc.Scan() {
		lineNo++
		line := sc.Text()
		fields = dimacsFields(fields[:0], line)
		if len(fields) == 0 || fields[0][0] == 'c' {
			continue
		}
		switch fields[0] {
		case "p":
			if pLine != 0 {
				return nil, fmt.Errorf("lmo: dimacs: line %d: duplicate problem line (the first is line %d)", lineNo, pLine)
			}
			if len(fields) != 4 {
				return nil, fmt.Errorf("lmo: dimacs: line %d: expected \"p min NODES ARCS\", got %d fields", lineNo, len(fields))
			}
			if fields[1] != "min" {
				return nil, fmt.Errorf("lmo: dimacs: line %d: unsupported problem type %q, expected \"min\"", lineNo, fields[1])
			}
			nodes, err := dimacsInt(lineNo, "NODES", fields[2])
			if err != nil {
				return nil, err
			}
			arcs, err := dimacsInt(lineNo, "ARCS", fields[3])
			if err != nil {
				return nil, err
			}
			if nodes < 1 || nodes > MaxDIMACSNodes {
				return nil, fmt.Errorf("lmo: dimacs: line %d: NODES must be in [1, %d], got %d", lineNo, MaxDIMACSNodes, nodes)
			}
			if arcs < 0 || arcs > MaxDIMACSArcs {
				return nil, fmt.Errorf("lmo: dimacs: line %d: ARCS must be in [0, %d], got %d", lineNo, MaxDIMACSArcs, arcs)
			}
			if check != nil {
				if err := check(int(nodes), int(arcs)); err != nil {
					return nil, err
				}
			}
			pLine, wantArcs = lineNo, int(arcs)
			net = &FlowNetwork{
				Nodes:  int(nodes),
				Supply: make([]int64, nodes),
				Arcs:   make([]Arc, 0, min(arcs, 1<<16)),
			}
			hasN = make([]bool, nodes)
		case "n":
			if net == nil {
				return nil, fmt.Errorf("lmo: dimacs: line %d: node line before the problem line \"p min NODES ARCS\"", lineNo)
			}
			if len(fields) != 3 {
				return nil, fmt.Errorf("lmo: dimacs: line %d: expected \"n ID SUPPLY\", got %d fields", lineNo, len(fields))
			}
			id, err := dimacsNode(lineNo, "ID", fields[1], net.Nodes)
			if err != nil {
				return nil, err
			}
			b, err := dimacsAmount(lineNo, "SUPPLY", fields[2])
			if err != nil {
				return nil, err
			}
			if hasN[id] {
				return nil, fmt.Errorf("lmo: dimacs: line %d: second node line for node %d", lineNo, id+1)
			}
			hasN[id] = true
			net.Supply[id] = b
		case "a":
			if net == nil {
				return nil, fmt.Errorf("lmo: dimacs: line %d: arc line before the problem line \"p min NODES ARCS\"", lineNo)
			}
			if len(fields) != 6 {
				return nil, fmt.Errorf("lmo: dimacs: line %d: expected \"a FROM TO LOW CAP COST\", got %d fields", lineNo, len(fields))
			}
			if len(net.Arcs) == wantArcs {
				return nil, fmt.Errorf("lmo: dimacs: line %d: more arc lines than the %d declared on line %d", lineNo, wantArcs, pLine)
			}
			from, err := dimacsNode(lineNo, "FROM", fields[1], net.Nodes)
			if err != nil {
				return nil, err
			}
			to, err := dimacsNode(lineNo, "TO", fields[2], net.Nodes)
			if err != nil {
				return nil, err
			}
			low, err := dimacsAmount(lineNo, "LOW", fields[3])
			if err != nil {
				return nil, err
			}
			capa, err := dimacsAmount(lineNo, "CAP", fields[4])
			if err != nil {
				return nil, err
			}
			cost, err := strconv.ParseFloat(fields[5], 64)
			if err != nil || math.IsNaN(cost) || math.IsInf(cost, 0) {
				return nil, fmt.Errorf("lmo: dimacs: line %d: COST: expected a finite number, got %q", lineNo, fields[5])
			}
			if low < 0 {
				return nil, fmt.Errorf("lmo: dimacs: line %d: negative lower bound %d", lineNo, low)
			}
			if capa < 0 {
				return nil, fmt.Errorf("lmo: dimacs: line %d: negative capacity %d", lineNo, capa)
			}
			if low > capa {
				return nil, fmt.Errorf("lmo: dimacs: line %d: lower bound %d exceeds capacity %d", lineNo, low, capa)
			}
			net.Arcs = append(net.Arcs, Arc{From: from, To: to, Low: low, Cap: capa, Cost: cost})
		default:
			return nil, fmt.Errorf("lmo: dimacs: line %d: unknown line type %q, expected c, p, n or a", lineNo, fields[0])
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("lmo: dimacs: line %d: line longer than 1 MiB", lineNo+1)
		}
		return nil, fmt.Errorf("lmo: dimacs: after line %d: %w", lineNo, err)
	}
	if net == nil {
		return nil, errors.New("lmo: dimacs: missing problem line \"p min NODES ARCS\"")
	}
	if len(net.Arcs) != wantArcs {
		return nil, fmt.Errorf("lmo: dimacs: line %d declares %d arcs, found %d arc lines", pLine, wantArcs, len(net.Arcs))
	}
	if sum := supplySum(net.Supply); sum != "0" {
		return nil, fmt.Errorf("lmo: dimacs: supplies sum to %s, want 0", sum)
	}
	return net, nil
}

// supplySum returns the exact sum of the supplies in decimal. An int64
// sum can overflow (2^11 supplies of 2^53 sum to 2^64, which wraps to 0,
// so that such a network passed as balanced), so the sum is kept in 128
// bits, which is exact for fewer than 2^63 entries.
func supplySum(supply []int64) string {
	var hi, lo uint64 // two's complement of the sum
	for _, b := range supply {
		var carry uint64
		lo, carry = bits.Add64(lo, uint64(b), 0)
		hi += carry
		if b < 0 {
			hi-- // sign extension of b: its high word is all ones
		}
	}
	if int64(hi) == int64(lo)>>63 { // the sum fits in an int64
		return strconv.FormatInt(int64(lo), 10)
	}
	sum := new(big.Int).SetUint64(hi)
	sum.Lsh(sum, 64).Add(sum, new(big.Int).SetUint64(lo))
	if hi>>63 != 0 {
		sum.Sub(sum, new(big.Int).Lsh(big.NewInt(1), 128))
	}
	return sum.String()
}

// dimacsFields splits line at ASCII white space, appending to dst.
func dimacsFields(dst []string, line string) []string {
	for {
		line = strings.TrimLeft(line, " \t\r\v\f")
		if line == "" {
			return dst
		}
		i := strings.IndexAny(line, " \t\r\v\f")
		if i < 0 {
			return append(dst, line)
		}
		dst = append(dst, line[:i])
		line = line[i:]
	}
}

// dimacsInt parses an integer field.
func dimacsInt(lineNo int, name, s string) (int64, error) {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("lmo: dimacs: line %d: %s: expected an integer, got %q", lineNo, name, s)
	}
	return v, nil
}

// dimacsAmount parses a supply, bound or capacity: an integer of absolute
// value at most MaxFlowAmount.
func dimacsAmount(lineNo int, name, s string) (int64, error) {
	v, err := dimacsInt(lineNo, name, s)
	if err != nil {
		return 0, err
	}
	if v > MaxFlowAmount || v < -MaxFlowAmount {
		return 0, fmt.Errorf("lmo: dimacs: line %d: %s %d exceeds 2^53 in absolute value", lineNo, name, v)
	}
	return v, nil
}

// dimacsNode parses a 1-based node id and returns it 0-based.
func dimacsNode(lineNo int, name, s string, nodes int) (int, error) {
	v, err := dimacsInt(lineNo, name, s)
	if err != nil {
		return 0, err
	}
	if v < 1 || v > int64(nodes) {
		return 0, fmt.Errorf("lmo: dimacs: line %d: %s: node id %d out of range [1, %d]", lineNo, name, v, nodes)
	}
	return int(v - 1), nil
}

// WriteDIMACS writes net in the DIMACS min-cost flow format read by
// ReadDIMACS (1-based node ids; "n" lines only for nonzero supplies). It
// returns an error for invalid networks and for arcs with InfCap, which the
// format cannot express.
func WriteDIMACS(w io.Writer, net *FlowNetwork) error {
	if err := net.Validate(); err != nil {
		return err
	}
	for i, a := range net.Arcs {
		if a.Cap == InfCap {
			return fmt.Errorf("lmo: dimacs: arc %d has no upper bound, which DIMACS cannot express", i)
		}
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "p min %d %d\n", net.Nodes, len(net.Arcs))
	for v, b := range net.Supply {
		if b != 0 {
			fmt.Fprintf(bw, "n %d %d\n", v+1, b)
		}
	}
	for _, a := range net.Arcs {
		fmt.Fprintf(bw, "a %d %d %d %d %s\n", a.From+1, a.To+1, a.Low, a.Cap, strconv.FormatFloat(a.Cost, 'g', -1, 64))
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("lmo: dimacs: write: %w", err)
	}
	return nil
}
