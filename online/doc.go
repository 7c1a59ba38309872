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
// The paper's experiments play "a random sequence of 100 different random
// loss functions" for a time limit; we read this as rounds drawn at random
// from 100 fixed losses until the time limit (objective.Repeat, the
// default of spec.LossStream; docs/ONLINE.md gives the reasons). Such a
// stream has objective.MaxRounds rounds, so Minimize needs a time limit,
// MaxRounds, a cancelable context or a callback; the trace then keeps
// every round up to Settings.TraceRounds and a geometric grid after that,
// and the cumulative loss objective.Sum merges repeated losses, so a
// round costs the same after a million rounds as after a hundred.
//
// A Method owns its updates: OCG is Hazan and Kale's online conditional
// gradient, one LMO call per round; LOCG is its lazification (Algorithm 8
// of the paper) with Theorem 5.1's parameters (Params) or, with
// Params.ParameterFree, the parameter-free variant built on
// lazycg.PhiSchedule; Params.Certified keeps that variant inside Theorem
// 5.1's envelope, so that the theorem's bound holds for it too.
package online
