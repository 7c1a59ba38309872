package lazycg

import (
	"context"
	"fmt"
	"math"
	"time"
)

// Oracle gives methods counted access to the LMO and the weak separator.
type Oracle struct {
	lmo   LMO
	sep   WeakSeparator
	stats *Stats
}

// NewOracle returns an oracle counting into stats (for methods run outside
// Minimize, e.g. by the online driver).
func NewOracle(lmo LMO, sep WeakSeparator, stats *Stats) *Oracle {
	return &Oracle{lmo: lmo, sep: sep, stats: stats}
}

// LMO returns the underlying LMO (uncounted; use for capability checks).
func (o *Oracle) LMO() LMO { return o.lmo }

// Separator returns the weak separation oracle.
func (o *Oracle) Separator() WeakSeparator { return o.sep }

// Minimize calls the LMO, counting the call and its time.
func (o *Oracle) Minimize(ctx context.Context, dst, c []float64) (LinearResult, error) {
	start := time.Now()
	res, err := o.lmo.Minimize(ctx, dst, c)
	o.stats.LMOCalls++
	o.stats.OracleTime += time.Since(start)
	if err == nil && (res.Reason == StopImproving || res.Reason == StopCertified) {
		o.stats.EarlyStops++
	}
	return res, err
}

// StartVertex stores some vertex of P, good for c, in dst with one counted
// LMO call. Any vertex will do, so an EarlyStopper may stop at its first
// feasible point (MIP oracles: the first incumbent instead of a full solve).
func (o *Oracle) StartVertex(ctx context.Context, dst, c []float64) error {
	es, ok := o.lmo.(EarlyStopper)
	if !ok {
		_, err := o.Minimize(ctx, dst, c)
		return err
	}
	start := time.Now()
	res, err := es.MinimizeUntil(ctx, dst, c, StopRule{Improve: math.Inf(1), Certify: math.Inf(1)})
	o.stats.LMOCalls++
	o.stats.OracleTime += time.Since(start)
	if err == nil && !res.Found {
		err = fmt.Errorf("lazycg: the LMO (%T) returned no vertex", o.lmo)
	}
	return err
}

// MinimizeFace calls the LMO restricted to a face (FaceMinimizer), counted.
func (o *Oracle) MinimizeFace(ctx context.Context, dst, c []float64, zero []bool) (LinearResult, error) {
	fm, ok := o.lmo.(FaceMinimizer)
	if !ok {
		return LinearResult{}, fmt.Errorf("lazycg: the LMO (%T) cannot minimize over faces", o.lmo)
	}
	start := time.Now()
	res, err := fm.MinimizeFace(ctx, dst, c, zero)
	o.stats.LMOCalls++
	o.stats.OracleTime += time.Since(start)
	return res, err
}

// Separate calls the weak separation oracle and counts its answer.
func (o *Oracle) Separate(ctx context.Context, dst, c, x []float64, phi, k float64) (Separation, error) {
	sep, err := o.sep.Separate(ctx, dst, c, x, phi, k)
	o.Count(sep, err)
	return sep, err
}

// Count adds the counters of a separation answer made outside Separate.
func (o *Oracle) Count(sep Separation, err error) {
	o.stats.LMOCalls += sep.LMOCalls
	o.stats.OracleTime += sep.LMOTime
	if sep.EarlyStop {
		o.stats.EarlyStops++
	}
	if err != nil {
		return
	}
	if sep.CacheHit {
		o.stats.CacheHits++
	}
	if sep.Positive {
		o.stats.PositiveCalls++
	} else {
		o.stats.NegativeCalls++
	}
}
