package experiment

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/lazycg/lazycg/internal/fileio"
)

// lockPath is the lock file that serializes the updates of
// OUT/summary.json by benches writing into the same OUT side by side: in
// the temporary directory, named after OUT's absolute path, so that output
// directories (often committed) stay clean.
func lockPath(out string) string {
	abs, err := filepath.Abs(out)
	if err != nil {
		abs = out
	}
	h := fnv.New64a()
	h.Write([]byte(abs))
	return filepath.Join(os.TempDir(), fmt.Sprintf("lazycg-bench-%016x.lock", h.Sum64()))
}

// writeSummary writes OUT/summary.json, and with report OUT/summary.md and
// OUT/report.md (WriteReport): the experiments of res merged into those of
// an earlier run of the same suite at the same time scale found there
// (mergeSummaries). The read, merge and writes hold a lock (lockPath), so
// that benches writing into the same OUT side by side do not lose each
// other's experiments.
func (r *Runner) writeSummary(res *SuiteResult, report bool) error {
	unlock, err := fileio.Lock(lockPath(r.Out))
	if err != nil {
		return fmt.Errorf("experiment: %w", err)
	}
	defer unlock()
	all := r.merged(res)
	if err := writeJSON(filepath.Join(r.Out, SummaryFile), all); err != nil {
		return err
	}
	if report {
		return WriteReport(r.Out, all, ReportOptions{})
	}
	return nil
}

// merged is res merged into the summary already in OUT, if that is an
// earlier run of the same suite at the same time scale; otherwise res
// itself (the first time, the earlier summary's replacement is logged).
func (r *Runner) merged(res *SuiteResult) *SuiteResult {
	prev, err := ReadSuiteResult(r.Out)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return res
	case err != nil:
		r.noteOnce("replacing %s, which cannot be read: %v", filepath.Join(r.Out, SummaryFile), err)
		return res
	case prev.Suite != res.Suite || prev.TimeScale != res.TimeScale:
		r.noteOnce("replacing %s of suite %s at time scale %g (this run: suite %s at time scale %g)",
			filepath.Join(r.Out, SummaryFile), prev.Suite, prev.TimeScale, res.Suite, res.TimeScale)
		return res
	}
	all := mergeSummaries(prev, res)
	ran := map[string]bool{}
	for i := range res.Experiments {
		if !notStarted(&res.Experiments[i]) {
			ran[res.Experiments[i].Spec.Name] = true
		}
	}
	n := 0
	for i := range all.Experiments {
		if e := &all.Experiments[i]; !ran[e.Spec.Name] && !notStarted(e) {
			n++
		}
	}
	if n > 0 {
		r.noteOnce("%s: keeping %d experiments of earlier runs of suite %s beside this run's", filepath.Join(r.Out, SummaryFile), n, res.Suite)
	}
	return all
}

// noteOnce logs a message about the output directory once per Run.
func (r *Runner) noteOnce(format string, args ...any) {
	if !r.noted {
		r.noted = true
		r.logf(format, args...)
	}
}

// mergeSummaries returns the summary of prev with the experiments of res:
// an experiment of res replaces the one of prev with its name, in its
// place; the others of res follow in their order. Benches lists the bench
// runs whose experiments the merged summary holds (res's earlier writes,
// recognized by its start time, replaced), and the header spans them: the
// earliest start, the wall-clock time to the latest end, every machine.
//
// An experiment of res that did not start (an interrupted bench,
// notStarted) replaces nothing: the earlier result of its name, if any,
// stays with its bench run, as its directory does.
func mergeSummaries(prev, res *SuiteResult) *SuiteResult {
	all := *res
	all.Experiments = make([]ExperimentResult, 0, len(prev.Experiments)+len(res.Experiments))
	had := make(map[string]bool, len(prev.Experiments)) // earlier results
	for i := range prev.Experiments {
		if !notStarted(&prev.Experiments[i]) {
			had[prev.Experiments[i].Spec.Name] = true
		}
	}
	fresh := make(map[string]int, len(res.Experiments))
	used := make([]bool, len(res.Experiments))
	cur := *res // res's bench run: the experiments that replace or add
	cur.Experiments = nil
	for i := range res.Experiments {
		e := &res.Experiments[i]
		if notStarted(e) && had[e.Spec.Name] {
			used[i] = true // the earlier result stays
			continue
		}
		fresh[e.Spec.Name] = i
		cur.Experiments = append(cur.Experiments, *e)
	}
	for _, e := range prev.Experiments {
		if i, ok := fresh[e.Spec.Name]; ok {
			if !used[i] {
				all.Experiments = append(all.Experiments, res.Experiments[i])
				used[i] = true
			}
			continue
		}
		all.Experiments = append(all.Experiments, e)
	}
	for i := range res.Experiments {
		if !used[i] {
			all.Experiments = append(all.Experiments, res.Experiments[i])
		}
	}

	earlier := prev.Benches
	if len(earlier) == 0 {
		earlier = []BenchRun{benchOf(prev)}
	}
	all.Benches = nil
	for _, b := range earlier {
		if b.Started == res.Started {
			continue // an earlier write of this run
		}
		kept := b.Experiments[:0:0]
		for _, n := range b.Experiments {
			if _, ok := fresh[n]; !ok {
				kept = append(kept, n)
			}
		}
		if len(kept) > 0 {
			b.Experiments = kept
			all.Benches = append(all.Benches, b)
		}
	}
	if all.Benches == nil {
		return &all // res re-ran every experiment of the earlier runs
	}
	if len(cur.Experiments) > 0 {
		all.Benches = append(all.Benches, benchOf(&cur))
	}
	var start, end time.Time
	var machines []string
	for _, b := range all.Benches {
		if t, err := time.Parse(time.RFC3339, b.Started); err == nil {
			if start.IsZero() || t.Before(start) {
				start = t
			}
			if e := t.Add(seconds(b.WallTimeS)); e.After(end) {
				end = e
			}
		}
		if b.Machine != "" && !slices.Contains(machines, b.Machine) {
			machines = append(machines, b.Machine)
		}
	}
	if !start.IsZero() {
		all.Started, all.WallTimeS = start.Format(time.RFC3339Nano), end.Sub(start).Seconds()
	}
	all.Machine = strings.Join(machines, "; ")
	return &all
}

// notStarted reports whether e is an experiment that did not start
// because its bench was interrupted first.
func notStarted(e *ExperimentResult) bool {
	return e.Error == notRunCanceled && len(e.Runs) == 0
}

// benchOf describes the bench run of a summary that holds one.
func benchOf(r *SuiteResult) BenchRun {
	b := BenchRun{Started: r.Started, WallTimeS: r.WallTimeS, Machine: r.Machine}
	for _, e := range r.Experiments {
		b.Experiments = append(b.Experiments, e.Spec.Name)
	}
	return b
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
