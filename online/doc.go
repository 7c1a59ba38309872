// Package online plays online convex optimization over a polytope with
// lazified conditional gradients (section 5 of Braun, Pokutta and Zink,
// "Lazifying Conditional Gradient Algorithms").
//
// An online Problem is a stream of convex losses f_1, f_2, … (an
// objective.Stream, revealed one per round) over a polytope P given by an
// LMO. In round t the learner plays x_t, then f_t is revealed. Minimize is
// the online driver: it plays the rounds, records the losses and the
// oracle work per round, and afterwards solves the best fixed point in
// hindsight, min over P of Σ_t f_t, with lazycg.Minimize, which brackets
// the regret by a proven primal value and dual bound. It shares the run
// clock (lazycg.Run: time limit, cancellation, counters) and the counted
// oracle (lazycg.Oracle) with the offline driver.
//
// A Method owns its updates: OCG is Hazan and Kale's online conditional
// gradient, one LMO call per round; LOCG is its lazification (Algorithm 8
// of the paper) with Theorem 5.1's parameters (Params) or, with
// Params.ParameterFree, the parameter-free variant built on
// lazycg.PhiSchedule.
package online
