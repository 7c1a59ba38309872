package spec

import (
	"encoding/json"
	"math"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/internal/jsonfloat"
	"github.com/lazycg/lazycg/objective"
	"github.com/lazycg/lazycg/online"
)

// Summary is the machine-readable outcome of a run: the JSON line of
// "lazycg solve -json" and "lazycg online -json", and the bench runner's
// records. For an online run Iterations are the rounds, Primal is the
// average loss (1/T)·Σ_{t≤T} f_t(x_t) (the last point of the run's trace,
// comparable between runs that played different numbers of rounds) and
// OnlineSummary holds the total loss and the regret.
type Summary struct {
	Polytope   string `json:"polytope"`
	Objective  string `json:"objective,omitempty"`
	Method     string `json:"method"`
	Dim        int    `json:"dim"`
	Status     string `json:"status"`
	Iterations int    `json:"iterations"`
	LMOCalls   int    `json:"lmo_calls"`
	CacheHits  int    `json:"cache_hits"`
	LocalHits  int    `json:"local_hits,omitempty"`
	// ConcurrentSteps counts the steps taken at the relaxed threshold
	// while an LMO call ran in the background (lazycg.Stats).
	ConcurrentSteps int `json:"concurrent_steps,omitempty"`
	// HullSteps counts the pairwise steps over the hull of the iterate and
	// the cached vertices taken while a call was in flight (lazycg.Stats).
	HullSteps int `json:"hull_steps,omitempty"`
	// StaleRestarts counts LMO calls canceled and asked again because
	// their question went stale (lazycg.Stats).
	StaleRestarts int `json:"stale_restarts,omitempty"`
	// Races and RacesWon count the race copies of questions (stale
	// policy race) and those that answered first.
	Races    int `json:"races,omitempty"`
	RacesWon int `json:"races_won,omitempty"`
	// Aheads and AheadsSettled count the questions asked ahead at Φ/2
	// (stale policy ahead) and those whose answer also settled the other
	// call's question (lazycg.Stats).
	Aheads        int `json:"aheads,omitempty"`
	AheadsSettled int `json:"aheads_settled,omitempty"`
	// StaleOracleTimeS and LostOracleTimeS are the parts of OracleTimeS
	// spent in concurrent calls that ended after their question went
	// stale, and in calls whose result was no answer (lazycg.Stats).
	StaleOracleTimeS float64 `json:"stale_oracle_time_s,omitempty"`
	LostOracleTimeS  float64 `json:"lost_oracle_time_s,omitempty"`
	// StaleAnswers, StalePositives and StaleImproving count the answers
	// that arrived after their question went stale, the positive ones,
	// and those whose vertex still improved the iterate by Φ/K
	// (lazycg.Stats).
	StaleAnswers   int `json:"stale_answers,omitempty"`
	StalePositives int `json:"stale_positive_answers,omitempty"`
	StaleImproving int `json:"stale_improving_answers,omitempty"`
	// PartialAnswers counts the positive answers below Φ/K from LMO calls
	// that ran out of their budget (lazycg.Stats).
	PartialAnswers int `json:"partial_answers,omitempty"`
	// InexactAnswers counts the negative answers that proved less than Φ,
	// from calls that stopped at the lazy gap (lazycg.Stats).
	InexactAnswers int `json:"inexact_answers,omitempty"`
	// DeferredRounds counts the online rounds decided from the cache
	// without an answer or a proof (lazycg.Stats).
	DeferredRounds int     `json:"deferred_rounds,omitempty"`
	PositiveCalls  int     `json:"positive_calls"`
	NegativeCalls  int     `json:"negative_calls"`
	EarlyStops     int     `json:"early_stops"`
	CacheHitRate   float64 `json:"cache_hit_rate"`
	Primal         float64 `json:"primal"`
	// DualBound is null in JSON when no bound was proven.
	DualBound   *float64 `json:"dual_bound"`
	TimeS       float64  `json:"time_s"`
	OracleTimeS float64  `json:"oracle_time_s"`
	// GradTimeS, CacheTimeS and LineSearchTimeS split the rest of the time
	// (see lazycg.Stats).
	GradTimeS       float64 `json:"grad_time_s"`
	CacheTimeS      float64 `json:"cache_time_s"`
	LineSearchTimeS float64 `json:"line_search_time_s"`
	// Corrections counts the corrective rounds of the active-set methods
	// and CorrectionTimeS their time (lazycg.Stats).
	Corrections     int     `json:"corrections,omitempty"`
	CorrectionTimeS float64 `json:"correction_time_s,omitempty"`
	Error           string  `json:"error,omitempty"`
	// OnlineSummary is set for online runs (its fields appear at the top
	// level of the JSON object).
	*OnlineSummary
	// DCSummary is set for difference-of-convex runs (likewise).
	*DCSummary
	// For a consensus objective (alternating linear minimization):
	// IntersectionBound is the proven lower bound on min f over the
	// factors' intersection (objective.Consensus.IntersectionBound of the
	// dual bound), Disagreement the blocks' ½·Σ_{i<j} ‖x_i − x_j‖² and
	// MeanPrimal f at their mean (a point of the intersection only when
	// they agree).
	IntersectionBound *float64 `json:"intersection_bound,omitempty"`
	Disagreement      *float64 `json:"disagreement,omitempty"`
	MeanPrimal        *float64 `json:"mean_primal,omitempty"`
}

// DCSummary is the part of a Summary specific to a difference-of-convex
// run (lazycg.MinimizeDC): Primal is φ at the final point and DualBound is
// null (no lower bound on φ is proven: φ is not convex).
type DCSummary struct {
	Concave string `json:"concave"`
	// DCAIterations counts the subproblems solved (Iterations counts
	// their iterations).
	DCAIterations int `json:"dca_iterations"`
	// GapBound is the proven bound on the DCA gap of CertifiedPrimal's
	// point (null when no subproblem ran), see lazycg.DCResult.
	GapBound        *float64 `json:"dca_gap_bound"`
	CertifiedPrimal *float64 `json:"certified_primal"`
}

// OnlineSummary is the part of a Summary specific to an online run.
type OnlineSummary struct {
	Losses string  `json:"losses"`
	Oracle string  `json:"oracle"`
	K      float64 `json:"K"`
	Rounds int     `json:"rounds"`
	// TotalLoss is Σ f_t(x_t).
	TotalLoss float64 `json:"total_loss"`
	// The regret bracket (total and per round) is null when unknown (no
	// hindsight bound).
	RegretLower    *float64 `json:"regret_lower"`
	RegretUpper    *float64 `json:"regret_upper"`
	AvgRegretLower *float64 `json:"avg_regret_lower"`
	AvgRegretUpper *float64 `json:"avg_regret_upper"`
	// AvgLoss is TotalLoss/Rounds.
	AvgLoss *float64 `json:"avg_loss"`
	// AvgErrorLower and AvgErrorUpper bracket (1/T)(F_T(x_T) − min F_T),
	// the quantity Theorem 5.1 bounds (null when unknown), and
	// TheoremBound is that bound for the method's parameters (locg and
	// locg-cert only, when L is known).
	AvgErrorLower *float64 `json:"avg_error_lower"`
	AvgErrorUpper *float64 `json:"avg_error_upper"`
	TheoremBound  *float64 `json:"theorem_bound,omitempty"`
	// Certified counts, for locg-cert, the rounds that asked Algorithm 8's
	// question because the parameter-free outcome would have left Theorem
	// 5.1's envelope (online.CertifiedStats; null for other methods).
	Certified       *online.CertifiedStats `json:"certified,omitempty"`
	HindsightStatus string                 `json:"hindsight_status,omitempty"`
	// HindsightPoint names the run of the same experiment whose last
	// point x gave the lower ends of the brackets: Σ_t f_t(x) was below
	// the hindsight solve's primal value, and x ∈ P, so it bounds the best
	// fixed point's loss from above (empty: the solve's own value).
	HindsightPoint string `json:"hindsight_point,omitempty"`
}

// MarshalJSON writes the summary as one JSON object. JSON has no number
// for NaN and ±Inf: a Primal or TotalLoss that is not finite (a run whose
// objective or losses overflowed) is written as the string "NaN", "Inf"
// or "-Inf", which UnmarshalJSON reads back, instead of failing the
// write of the whole record.
func (s Summary) MarshalJSON() ([]byte, error) {
	fields := (*summaryFields)(&s)
	if isFinite(s.Primal) && (s.OnlineSummary == nil || isFinite(s.OnlineSummary.TotalLoss)) {
		return json.Marshal(fields)
	}
	w := summaryJSON{summaryFields: fields, Primal: jsonFloat(s.Primal)}
	if s.OnlineSummary != nil {
		t := jsonFloat(s.OnlineSummary.TotalLoss)
		w.TotalLoss = &t
	}
	return json.Marshal(&w)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (s *Summary) UnmarshalJSON(b []byte) error {
	w := summaryJSON{summaryFields: (*summaryFields)(s), Primal: jsonFloat(s.Primal)}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	s.Primal = float64(w.Primal)
	if w.TotalLoss != nil {
		if s.OnlineSummary == nil {
			s.OnlineSummary = &OnlineSummary{}
		}
		s.OnlineSummary.TotalLoss = float64(*w.TotalLoss)
	}
	return nil
}

// summaryFields is Summary without its JSON methods.
type summaryFields Summary

// summaryJSON is the JSON form of a Summary whose Primal or TotalLoss may
// be NaN or infinite: its fields hide those of the same name in
// summaryFields.
type summaryJSON struct {
	*summaryFields
	Primal    jsonFloat  `json:"primal"`
	TotalLoss *jsonFloat `json:"total_loss,omitempty"`
}

// jsonFloat is a float64 whose JSON form is a number, or the string
// "NaN", "Inf" or "-Inf".
type jsonFloat = jsonfloat.Float

// isFinite reports whether v is neither NaN nor infinite.
func isFinite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// finite returns a pointer to v, or nil when v is NaN or infinite.
func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// newSummary fills the fields common to offline and online runs.
func (p *Prepared) newSummary(method string, st lazycg.Stats, status lazycg.Status, err error) Summary {
	s := Summary{Polytope: p.Config.Polytope, Method: method, Dim: p.Instance.Dim(), Status: status.String(),
		Iterations: st.Iterations, LMOCalls: st.LMOCalls, CacheHits: st.CacheHits, LocalHits: st.LocalHits,
		ConcurrentSteps: st.ConcurrentSteps, HullSteps: st.HullSteps, StaleRestarts: st.StaleRestarts, Races: st.Races, RacesWon: st.RacesWon,
		Aheads: st.Aheads, AheadsSettled: st.AheadsSettled,
		StaleOracleTimeS: st.StaleOracleTime.Seconds(), LostOracleTimeS: st.LostOracleTime.Seconds(),
		StaleAnswers: st.StaleAnswers, StalePositives: st.StalePositives, StaleImproving: st.StaleImproving, PartialAnswers: st.PartialAnswers,
		InexactAnswers: st.InexactAnswers, DeferredRounds: st.DeferredRounds,
		PositiveCalls: st.PositiveCalls, NegativeCalls: st.NegativeCalls, EarlyStops: st.EarlyStops,
		CacheHitRate: st.CacheHitRate(), TimeS: st.Runtime.Seconds(), OracleTimeS: st.OracleTime.Seconds(),
		GradTimeS: st.GradTime.Seconds(), CacheTimeS: st.CacheTime.Seconds(), LineSearchTimeS: st.LineSearchTime.Seconds(),
		Corrections: st.Corrections, CorrectionTimeS: st.CorrectionTime.Seconds()}
	if err != nil {
		s.Error = err.Error()
	}
	return s
}

// Summary summarizes the result of the offline run of p.
func (p *Prepared) Summary(res *lazycg.Result) Summary {
	s := p.newSummary(p.Config.Method, res.Stats, res.Status, res.Err)
	s.Objective, s.Primal, s.DualBound = p.Config.Objective, res.F, finite(res.DualBound)
	if c := objective.AsConsensus(p.Problem.Objective); c != nil && res.X != nil {
		s.IntersectionBound = finite(c.IntersectionBound(res.DualBound))
		s.Disagreement = finite(c.Disagreement(res.X))
		mean := make([]float64, c.Inner().Dim())
		c.Mean(mean, res.X)
		s.MeanPrimal = finite(c.Inner().Func(mean))
	}
	return s
}

// DCSummary summarizes the difference-of-convex run of p.
func (p *Prepared) DCSummary(res *lazycg.DCResult) Summary {
	s := p.newSummary(p.Config.Method, res.Stats, res.Status, res.Err)
	s.Objective, s.Primal = p.Config.Objective, res.F
	s.DCSummary = &DCSummary{Concave: p.Config.Concave, DCAIterations: res.Iterations,
		GapBound: finite(res.GapBound), CertifiedPrimal: finite(res.CertifiedF)}
	return s
}

// OnlineSummary summarizes an online run on the problem of p; method names
// the run (the method, or a variant of the caching study).
func (p *Prepared) OnlineSummary(method string, res *online.Result) Summary {
	s := p.newSummary(method, res.Stats, res.Status, res.Err)
	s.Iterations, s.Primal = res.Rounds, res.TotalLoss
	if res.Rounds > 0 {
		s.Primal = res.TotalLoss / float64(res.Rounds)
	}
	o := &OnlineSummary{Losses: p.Config.Losses, Oracle: p.oracle(), K: p.Config.K, Rounds: res.Rounds,
		TotalLoss: res.TotalLoss, RegretLower: finite(res.RegretLower), RegretUpper: finite(res.RegretUpper)}
	if res.Rounds > 0 {
		lo, hi := res.AverageRegret()
		o.AvgRegretLower, o.AvgRegretUpper = finite(lo), finite(hi)
		lo, hi = res.AverageError()
		o.AvgErrorLower, o.AvgErrorUpper = finite(lo), finite(hi)
		o.AvgLoss = finite(res.TotalLoss / float64(res.Rounds))
		if q, ok := theoremParams(p.OnlineParams, method); ok {
			if b, err := q.TheoremBound(p.Instance.LMO, res.Rounds); err == nil {
				o.TheoremBound = finite(b)
			}
		}
	}
	o.Certified = res.Certified
	if h := res.Hindsight; h != nil {
		o.HindsightStatus = h.Status.String()
		if h.Err != nil && s.Error == "" {
			s.Error = "hindsight: " + h.Err.Error()
		}
	}
	s.OnlineSummary = o
	return s
}

// theoremParams returns the parameters the online method named method
// runs with when it is an LOCG (Theorem 5.1's bound covers Algorithm 8
// and the certified variant; Params.TheoremBound refuses the
// parameter-free one): the registry's constructor sets the variant.
func theoremParams(p online.Params, method string) (online.Params, bool) {
	info, err := Method(method)
	if err != nil || info.NewOnline == nil {
		return p, false
	}
	m, q := onlineMethod(info, p)
	_, ok := m.(*online.LOCG)
	return q, ok
}

// oracle returns the normalized oracle name of the config.
func (p *Prepared) oracle() string {
	name, err := p.Config.oracleName()
	if err != nil {
		return p.Config.Oracle
	}
	return name
}
