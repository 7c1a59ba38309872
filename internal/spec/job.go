package spec

import (
	"fmt"
	"math"
	"strings"

	"github.com/lazycg/lazycg"
)

// Job describes one optimization run from specs, as the CLI's solve command
// and the bench runner take it.
type Job struct {
	Polytope  string
	Objective string
	Method    string
	// Seed is used for the objective when its spec has no seed.
	Seed    uint64
	Params  MethodParams
	Options Options
	// Oracle selects the weak separation realization: "lmo" (cache + early
	// termination, Algorithm 2; default) or "aug" (augmentation, Algorithm 9).
	Oracle string
	// NoCache and NoEarlyStop switch the two lazification techniques off.
	NoCache     bool
	NoEarlyStop bool
	// Cache is the cache policy.
	Cache lazycg.CachePolicy
}

// Prepared is a job ready to run.
type Prepared struct {
	Problem  lazycg.Problem
	Method   lazycg.Method
	Info     MethodInfo
	Instance *Instance
	// Curvature is the estimate of C used (0 if none).
	Curvature float64
}

// Close releases the instance's resources.
func (p *Prepared) Close() {
	if p.Instance != nil && p.Instance.Close != nil {
		p.Instance.Close()
	}
}

// separatorBuilders realize non-default weak separation oracles ("aug");
// registered by other files.
var separatorBuilders = map[string]func(in *Instance, j Job) (lazycg.WeakSeparator, error){}

// Prepare builds the polytope, objective and method of the job. Non-lazy
// methods get the inexact oracle (Options.OracleGap); lazy ones an exact,
// early-terminating one.
func (j Job) Prepare() (*Prepared, error) {
	info, err := Method(j.Method)
	if err != nil {
		return nil, err
	}
	opt := j.Options
	if info.Lazy {
		opt.OracleGap = 0
	}
	in, err := Polytope(j.Polytope, opt)
	if err != nil {
		return nil, err
	}
	p := &Prepared{Info: info, Instance: in}
	objText := j.Objective
	if s, err := Parse(objText); err == nil {
		if _, has := s.Opts["seed"]; !has && j.Seed != 0 {
			sep := ","
			if !strings.Contains(objText, ":") {
				sep = ":"
			}
			objText += sep + fmt.Sprintf("seed=%d", j.Seed)
		}
	}
	obj, err := Objective(objText, in)
	if err != nil {
		p.Close()
		return nil, err
	}
	params := j.Params
	if params.C == 0 {
		params.C = Curvature(obj, in)
	}
	p.Curvature = params.C
	m, err := info.New(params)
	if err != nil {
		p.Close()
		return nil, err
	}
	p.Method = m
	p.Problem = lazycg.Problem{Objective: obj, LMO: in.LMO, X0: in.Start}
	switch strings.ToLower(j.Oracle) {
	case "", "lmo":
		cs := &lazycg.CachedSeparator{LMO: in.LMO, NoEarlyStop: j.NoEarlyStop}
		if !j.NoCache {
			cs.Cache = lazycg.NewCache(in.Dim(), j.cachePolicy())
		}
		p.Problem.Separator = cs
	default:
		b, ok := separatorBuilders[strings.ToLower(j.Oracle)]
		if !ok {
			p.Close()
			return nil, fmt.Errorf("spec: unknown oracle %q (use lmo or aug)", j.Oracle)
		}
		sep, err := b(in, j)
		if err != nil {
			p.Close()
			return nil, err
		}
		p.Problem.Separator = sep
	}
	return p, nil
}

// DefaultCacheBytes is the cache memory budget of jobs that set none.
const DefaultCacheBytes = 1 << 30

func (j Job) cachePolicy() lazycg.CachePolicy {
	p := j.Cache
	if p.MaxBytes == 0 {
		p.MaxBytes = DefaultCacheBytes
	}
	return p
}

// Summary is the machine-readable outcome of a run (the JSON line of
// "lazycg solve -json" and the bench runner's records).
type Summary struct {
	Polytope      string  `json:"polytope"`
	Objective     string  `json:"objective"`
	Method        string  `json:"method"`
	Dim           int     `json:"dim"`
	Status        string  `json:"status"`
	Iterations    int     `json:"iterations"`
	LMOCalls      int     `json:"lmo_calls"`
	CacheHits     int     `json:"cache_hits"`
	PositiveCalls int     `json:"positive_calls"`
	NegativeCalls int     `json:"negative_calls"`
	EarlyStops    int     `json:"early_stops"`
	CacheHitRate  float64 `json:"cache_hit_rate"`
	Primal        float64 `json:"primal"`
	// DualBound is null in JSON when no bound was proven.
	DualBound   *float64 `json:"dual_bound"`
	TimeS       float64  `json:"time_s"`
	OracleTimeS float64  `json:"oracle_time_s"`
	Error       string   `json:"error,omitempty"`
}

// Summarize turns a result into a Summary.
func Summarize(j Job, dim int, res *lazycg.Result) Summary {
	s := Summary{Polytope: j.Polytope, Objective: j.Objective, Method: j.Method, Dim: dim,
		Status: res.Status.String(), Iterations: res.Stats.Iterations, LMOCalls: res.Stats.LMOCalls,
		CacheHits: res.Stats.CacheHits, PositiveCalls: res.Stats.PositiveCalls,
		NegativeCalls: res.Stats.NegativeCalls, EarlyStops: res.Stats.EarlyStops,
		CacheHitRate: res.Stats.CacheHitRate(), Primal: res.F,
		TimeS: res.Stats.Runtime.Seconds(), OracleTimeS: res.Stats.OracleTime.Seconds()}
	if !math.IsInf(res.DualBound, -1) && !math.IsNaN(res.DualBound) {
		d := res.DualBound
		s.DualBound = &d
	}
	if res.Err != nil {
		s.Error = res.Err.Error()
	}
	return s
}
