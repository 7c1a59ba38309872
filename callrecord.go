package lazycg

import (
	"context"
	"errors"
	"time"
)

// CallRecord is one LMO call of concurrent weak separation
// (Result.Calls): the instance it ran on, why it was asked, when it ran,
// the question it asked and how it ended. The records show where the
// solver's time went: which calls overlapped, which answered and which
// were asked about an iterate the method had left.
type CallRecord struct {
	// Instance is 0 for the problem's LMO and 1 for its fork (the
	// stale-call policies with two instances).
	Instance int
	// Role says why the call was asked.
	Role CallRole
	// Start and End are the times since the run's start at which the call
	// started and ended (End: when its goroutine had its result, the
	// call's start plus its LMO time).
	Start, End time.Duration
	// F is f(x_a) at the point asked about, Phi the Φ of the question (for
	// LPCG the pair question's, whose FW component the call is) and T its
	// threshold: a positive answer improves c·x_a by more than T.
	F, Phi, T float64
	// Outcome says how the call ended.
	Outcome CallOutcome
	// Stale reports that the method had left the question for a better
	// iterate (f < F) when it collected the call's result.
	Stale bool
	// Gap is the bound on the Wolfe gap at x_a that the call's result
	// proves, whatever its outcome (an answer's GapBound, or c·x_a − Bound
	// for a call that ended without its answer: UnansweredError); +Inf
	// when it proves none. F − Gap is the dual bound the call gave.
	Gap float64
}

// CallRole says why a call of concurrent weak separation was asked.
type CallRole int

const (
	// CallQuestion is a question of the method (the first, or under the
	// policies with two instances a fresh one beside a stale call).
	CallQuestion CallRole = iota
	// CallRaceCopy is the copy of the question in flight, asked on the
	// idle instance (StaleRace, StaleRaceCopy).
	CallRaceCopy
	// CallAhead is the question at Φ/2 asked beside the question in flight
	// (StaleAhead).
	CallAhead
)

var callRoleNames = [...]string{CallQuestion: "question", CallRaceCopy: "race-copy", CallAhead: "ahead"}

// String returns the role's name: question, race-copy or ahead.
func (r CallRole) String() string { return policyName(callRoleNames[:], r, "CallRole") }

// CallOutcome says how a call of concurrent weak separation ended.
type CallOutcome int

const (
	// CallPositive: the call found a vertex that improves c·x_a by more
	// than its threshold.
	CallPositive CallOutcome = iota
	// CallNegative: the call proved the Wolfe gap at x_a at most its Φ.
	CallNegative
	// CallInexact: a negative answer within the LMO's relative gap only
	// (Separation.Inexact).
	CallInexact
	// CallRetired: the call was canceled because the other instance's
	// call answered its question first (a race, or a question asked
	// ahead that settled it); its work and vertex were kept, its answer
	// was not used.
	CallRetired
	// CallCanceled: the call was canceled before it answered (a restart of
	// a stale call, or the run's end).
	CallCanceled
	// CallFailed: the call ended with another error (an inconclusive
	// answer, a solver failure).
	CallFailed
)

var callOutcomeNames = [...]string{CallPositive: "positive", CallNegative: "negative", CallInexact: "inexact",
	CallRetired: "retired", CallCanceled: "canceled", CallFailed: "failed"}

// String returns the outcome's name: positive, negative, inexact,
// retired, canceled or failed.
func (c CallOutcome) String() string { return policyName(callOutcomeNames[:], c, "CallOutcome") }

// recordCalls makes the concurrent calls of the run recorded, with times
// counted from start (Result.Calls).
func (o *Oracle) recordCalls(start time.Time) {
	if o.async != nil {
		o.async.t0 = start
	}
}

// callRecords returns the records of the run's concurrent calls (nil when
// not recorded).
func (o *Oracle) callRecords() []CallRecord {
	if o.async == nil {
		return nil
	}
	return o.async.calls
}

// record opens the record of the call about to start on slot sl, when
// calls are recorded. Role and question are as set before launch; LPCG
// replaces the question's note right after it (noteAsked), so Φ and the
// threshold are read when the call ends.
func (a *concurrency) record(sl *inflight) {
	sl.rec = -1
	if a.t0.IsZero() {
		return
	}
	role := CallQuestion
	switch {
	case !sl.copy:
	case a.policy == StaleAhead:
		role = CallAhead
	default:
		role = CallRaceCopy
	}
	sl.rec = len(a.calls)
	a.calls = append(a.calls, CallRecord{Instance: sl.id, Role: role, Start: time.Since(a.t0), F: sl.f})
}

// ended closes the record of slot sl's call with its result r (retired
// when sl.retired), stale as for Stats.StaleOracleTime.
func (a *concurrency) ended(sl *inflight, r inflightResult, stale bool, gap float64) {
	if sl.rec < 0 {
		return
	}
	c := &a.calls[sl.rec]
	sl.rec = -1
	c.End = c.Start + r.sep.LMOTime
	c.Phi, c.T, c.Stale, c.Gap = sl.note.phi, sl.note.t, stale, gap
	switch {
	case sl.retired:
		c.Outcome = CallRetired
	case r.err != nil && (errors.Is(r.err, context.Canceled) || errors.Is(r.err, context.DeadlineExceeded)):
		c.Outcome = CallCanceled
	case r.err != nil:
		c.Outcome = CallFailed
	case r.sep.Positive:
		c.Outcome = CallPositive
	case r.sep.Inexact:
		c.Outcome = CallInexact
	default:
		c.Outcome = CallNegative
	}
}
