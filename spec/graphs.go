package spec

import (
	"fmt"

	"github.com/lazycg/lazycg/lmo"
)

func init() {
	polytopeKinds["flow"] = buildFlow
	polytopeKinds["dag"] = buildDAG
}

// buildFlow: flow:FILE.min[.gz] — the flow polytope of a DIMACS min-cost
// flow instance (the paper's video colocalization polytopes).
func buildFlow(s *Spec, opt Options) (*Instance, error) {
	path, err := s.fileArg(opt, "flow:FILE.min (DIMACS, gzip accepted)")
	if err != nil {
		return nil, err
	}
	// The network simplex keeps about ten words per arc and per node;
	// counted at the problem line, before the reader allocates for it.
	net, err := lmo.ReadDIMACSFileCheck(path, func(nodes, arcs int) error {
		return opt.mem.reserveDim(s, float64(arcs), 80*float64(arcs+nodes))
	})
	if err != nil {
		return nil, err
	}
	p, err := lmo.NewFlowPolytope(net)
	if err != nil {
		return nil, err
	}
	var d2 float64
	for _, a := range net.Arcs {
		if a.Cap == lmo.InfCap {
			d2 = 0 // unbounded arc capacities: no diameter bound
			break
		}
		w := float64(a.Cap - a.Low)
		d2 += w * w
	}
	return &Instance{LMO: p, Check: p.Check, Diameter2: d2}, nil
}

// buildDAG: dag:FRAMES,BOXES[,p=P][,seed=S] — the path polytope of a layered
// DAG as in video colocalization: a node per candidate box per frame, arcs
// between consecutive frames (each present with probability p), a source
// and a sink.
func buildDAG(s *Spec, opt Options) (*Instance, error) {
	if err := s.NArgs(2, 2, "dag:FRAMES,BOXES[,p=P][,seed=S]"); err != nil {
		return nil, err
	}
	frames, err := s.Int(0, "FRAMES", 1, 1<<20)
	if err != nil {
		return nil, err
	}
	boxes, err := s.Int(1, "BOXES", 1, 1<<12)
	if err != nil {
		return nil, err
	}
	if float64(frames)*float64(boxes)*float64(boxes) > 5e7 {
		return nil, fmt.Errorf("spec: %q: %d frames × %d² boxes is too large", s.Text, frames, boxes)
	}
	p, err := s.OptFloat("p", 1, 1e-9, 1)
	if err != nil {
		return nil, err
	}
	seed, err := s.OptSeed(1)
	if err != nil {
		return nil, err
	}
	// At most FRAMES·BOXES² + 2·BOXES arcs; the graph and the DP keep a
	// few words per arc.
	arcs := float64(frames)*float64(boxes)*float64(boxes) + 2*float64(boxes)
	if err := opt.mem.reserveDim(s, arcs, 40*arcs); err != nil {
		return nil, err
	}
	d, err := lmo.LayeredDAG(frames, boxes, p, seed)
	if err != nil {
		return nil, err
	}
	return &Instance{LMO: d, Check: d.Check, Diameter2: float64(d.L1Diameter())}, nil
}
