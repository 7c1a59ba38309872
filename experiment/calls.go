package experiment

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/internal/fileio"
)

// CallsSuffix ends the name of the file, beside a concurrent run's trace,
// that holds its LMO calls (WriteCalls).
const CallsSuffix = ".calls.csv"

var callsHeader = []string{"instance", "role", "start_s", "end_s", "f", "phi", "t", "outcome", "stale", "gap"}

// WriteCalls writes the LMO calls of a concurrent run (lazycg.Result.Calls)
// as CSV with the columns instance, role, start_s, end_s (seconds since
// the run's start), f (f at the point asked about), phi, t (the question's
// Φ and threshold), outcome, stale (true or false) and gap (the bound on
// the Wolfe gap at the point asked about that the call proved, +Inf for
// none: f − gap is its dual bound), one row per call in the order they
// started.
func WriteCalls(w io.Writer, calls []lazycg.CallRecord) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(callsHeader); err != nil {
		return fmt.Errorf("experiment: writing calls: %w", err)
	}
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	rec := make([]string, len(callsHeader))
	for _, c := range calls {
		rec[0], rec[1] = strconv.Itoa(c.Instance), c.Role.String()
		rec[2], rec[3] = g(c.Start.Seconds()), g(c.End.Seconds())
		rec[4], rec[5], rec[6] = g(c.F), g(c.Phi), g(c.T)
		rec[7], rec[8], rec[9] = c.Outcome.String(), strconv.FormatBool(c.Stale), g(c.Gap)
		if err := cw.Write(rec); err != nil {
			return fmt.Errorf("experiment: writing calls: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("experiment: writing calls: %w", err)
	}
	return nil
}

// WriteCallsFile writes a calls CSV file (see WriteCalls) atomically.
func WriteCallsFile(path string, calls []lazycg.CallRecord) error {
	var werr error
	err := fileio.WriteAtomic(path, func(w io.Writer) error { werr = WriteCalls(w, calls); return werr })
	if err != nil && werr == nil {
		err = fmt.Errorf("experiment: %w", err)
	}
	return err
}
