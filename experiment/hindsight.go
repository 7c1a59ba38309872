package experiment

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"regexp"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/online"
	"github.com/lazycg/lazycg/spec"
)

// DefaultRehindsightTime is the time limit of each solve of Rehindsight
// when HindsightOptions sets none.
const DefaultRehindsightTime = 10 * time.Minute

// HindsightOptions are the settings of Rehindsight.
type HindsightOptions struct {
	// TimeLimit bounds each hindsight solve (0: DefaultRehindsightTime).
	TimeLimit time.Duration
	// DataDir is the benchmark data directory of the instances.
	DataDir string
	// Run selects the runs whose label or "experiment/label" it matches
	// (nil: every online run).
	Run *regexp.Regexp
	// Log receives a line per solve started (nil: none).
	Log io.Writer
	// Relaxation is the share of each solve's time limit given to a solve
	// over the polytope's relaxation (online.Settings.HindsightRelaxation:
	// 0 the default share, negative none).
	Relaxation float64
	// PolytopeOptions, when not empty, are set in each run's polytope spec
	// ("key=value,...", spec.WithOptions: a key the spec has gets the new
	// value, others are appended): options that leave the polytope
	// unchanged and strengthen its solves, such as a cut pool (qubo's
	// cycles=1, cut's triangles=cuts), the solver's settings or another
	// exact oracle (cut's triangles=0,oracle=enum); options that may
	// change the polytope are refused. The runs' fingerprint (first loss,
	// start point) is still checked.
	PolytopeOptions string
}

// HindsightRow is the average regret of one online run of a bench output
// with the best fixed point in hindsight solved again.
type HindsightRow struct {
	Experiment, Label string
	// Rounds is the run's number of rounds T, TotalLoss its Σ f_t(x_t).
	Rounds    int
	TotalLoss float64
	// BeforeLower and BeforeUpper bracket the average regret as recorded
	// by the run (NaN where unknown); Lower and Upper as proven by the new
	// solve (NaN where it found no point or no bound).
	BeforeLower, BeforeUpper float64
	Lower, Upper             float64
	// Status and Time are the new solve's; Err its error, if any: the
	// errors.Join of the solve's and those of the input (InputError).
	Status lazycg.Status
	Time   time.Duration
	Err    error
	// Point is the label of the run whose saved last point gave Lower
	// (better than the solve's primal value), "" for the solve's own.
	Point string
}

// InputError marks an error of Rehindsight's input rather than of a
// solve: a saved point file that is damaged, missing or not its run's, a
// summary whose run has no variant or whose losses can no longer be
// rebuilt (fingerprint), polytope options the polytope does not take, or
// an instance that cannot be read. A row's error may join several; a
// command reports rows whose errors are all InputErrors as bad input.
type InputError struct{ Err error }

// Error returns the message of the wrapped error.
func (e *InputError) Error() string { return e.Err.Error() }

// Unwrap returns the wrapped error.
func (e *InputError) Unwrap() error { return e.Err }

// Rehindsight solves again the hindsight problems min_P Σ_{t≤T} f_t of the
// online runs recorded in the bench output directory dir, with a time
// limit of its own (the bench runner gives them a quarter of the run's
// limit, at most a minute, whose brackets may be too wide to compare two
// runs), and returns the average regret brackets before and after. The
// loss stream of a run is rebuilt from the experiment's settings and
// checked against the run's fingerprint, so a generator that changed
// since the run is an error rather than a wrong bracket. The solves use
// exact oracles, as the runner's do. Each solve's limit or an interruption
// (ctx) ends it with the bracket proven so far. An error is returned for
// an unreadable directory or when ctx is canceled; the errors of single
// runs are in their rows.
func Rehindsight(ctx context.Context, dir string, opt HindsightOptions) ([]HindsightRow, error) {
	res, err := ReadSuiteResult(dir)
	if err != nil {
		return nil, err
	}
	limit := opt.TimeLimit
	if limit <= 0 {
		limit = DefaultRehindsightTime
	}
	var rows []HindsightRow
	for i := range res.Experiments {
		er := &res.Experiments[i]
		if !er.Spec.Online() {
			continue
		}
		for j := range er.Runs {
			rr := &er.Runs[j]
			if opt.Run != nil && !opt.Run.MatchString(rr.Label) && !opt.Run.MatchString(er.Spec.Name+"/"+rr.Label) {
				continue
			}
			s := rr.Summary
			if s == nil || s.OnlineSummary == nil || s.Rounds <= 0 {
				continue
			}
			if err := ctx.Err(); err != nil {
				return rows, err
			}
			row := HindsightRow{Experiment: er.Spec.Name, Label: rr.Label, Rounds: s.Rounds, TotalLoss: s.TotalLoss,
				BeforeLower: ptrOrNaN(s.AvgRegretLower), BeforeUpper: ptrOrNaN(s.AvgRegretUpper),
				Lower: math.NaN(), Upper: math.NaN(), Status: lazycg.Failure}
			if opt.Log != nil {
				fmt.Fprintf(opt.Log, "%s/%s: hindsight of %d rounds, time limit %v\n", er.Spec.Name, rr.Label, s.Rounds, limit)
			}
			row.Err = rehindsightRun(ctx, er, rr, &opt, limit, &row, filepath.Join(dir, er.Spec.Name))
			rows = append(rows, row)
		}
	}
	return rows, ctx.Err()
}

// rehindsightRun solves the hindsight problem of the run rr into row.
// The saved last points of the experiment's runs on the same inputs (in
// expDir) bound the best fixed point's loss too; the best of them and the
// solve's primal value gives the lower end.
func rehindsightRun(ctx context.Context, er *ExperimentResult, rr *RunResult, opt *HindsightOptions, limit time.Duration, row *HindsightRow, expDir string) error {
	var v *Variant
	for k := range er.Spec.Variants {
		if er.Spec.Variants[k].DisplayLabel() == rr.Label {
			v = &er.Spec.Variants[k]
		}
	}
	if v == nil {
		return &InputError{fmt.Errorf("experiment: %s: no variant %q in the experiment's settings", er.Spec.Name, rr.Label)}
	}
	cfg := er.Spec.RunConfig(v)
	cfg.DataDir, cfg.NoHindsight = opt.DataDir, true
	if opt.PolytopeOptions != "" {
		poly, err := spec.WithOptions(cfg.Polytope, opt.PolytopeOptions)
		if err != nil {
			return &InputError{fmt.Errorf("experiment: %s/%s: %w", er.Spec.Name, rr.Label, err)}
		}
		cfg.Polytope = poly
	}
	p, err := cfg.PrepareContext(ctx)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			return err
		}
		return &InputError{err}
	}
	defer p.Close()
	if p.Online.Losses == nil {
		return &InputError{fmt.Errorf("experiment: %s/%s: not an online run", er.Spec.Name, rr.Label)}
	}
	if fp := Fingerprint(p.Online.Losses.Loss(0), p.Online.X0); rr.Fingerprint != "" && fp != rr.Fingerprint {
		return &InputError{fmt.Errorf("experiment: %s/%s: the rebuilt losses and start point have fingerprint %s, the run's %s: the instance or its generator changed since the run",
			er.Spec.Name, rr.Label, fp, rr.Fingerprint)}
	}
	h := &hindsighter{ctx: ctx, cfg: cfg, p: p, hind: map[hindsightKey]*lazycg.Result{}, er: &ExperimentResult{},
		label: rr.Label, limit: limit, relax: opt.Relaxation}
	defer h.close()
	start := time.Now()
	hr := h.solve(row.Rounds, false)
	row.Time = time.Since(start)
	if len(h.er.Warnings) > 0 {
		err = errors.New(h.er.Warnings[0])
	}
	t := float64(row.Rounds)
	// A proven lower bound on the best fixed point's loss: the new solve's
	// dual bound, or the one the run recorded. No point of P has a smaller
	// loss, so a saved point below it is not a point of P.
	floor := math.Inf(-1)
	if hr != nil && !math.IsNaN(hr.DualBound) {
		floor = hr.DualBound
	}
	if !math.IsNaN(row.BeforeUpper) && !math.IsInf(row.BeforeUpper, 0) {
		floor = math.Max(floor, row.TotalLoss-t*row.BeforeUpper)
	}
	primal, perr := savedPointsBound(er, rr, expDir, p.Online, row, floor)
	if hr != nil && hr.F < primal {
		primal, row.Point = hr.F, ""
	}
	if !math.IsNaN(primal) && !math.IsInf(primal, 0) {
		row.Lower = (row.TotalLoss - primal) / t
	}
	err = errors.Join(err, perr) // a solver's warning hides no damaged point file
	if hr == nil {
		if err == nil {
			err = fmt.Errorf("experiment: %s/%s: the hindsight solve returned nothing", er.Spec.Name, rr.Label)
		}
		return err
	}
	row.Status = hr.Status
	if !math.IsNaN(hr.DualBound) && !math.IsInf(hr.DualBound, 0) {
		row.Upper = (row.TotalLoss - hr.DualBound) / t
	}
	return err
}

// savedPointsBound returns the least loss min over the saved last points of
// er's runs with rr's fingerprint of the first row.Rounds losses of prob
// (+Inf when there is none) and sets row.Point to the label of the run
// that played it. A point file that cannot be read or does not fit the
// problem is an error, reported after the others are evaluated, and so is
// a point whose loss lies below floor, a proven lower bound on the loss of
// every point of the polytope (such a point is not in it: its file was
// damaged or edited); neither bounds anything.
func savedPointsBound(er *ExperimentResult, rr *RunResult, expDir string, prob online.Problem, row *HindsightRow, floor float64) (float64, error) {
	best := math.Inf(1)
	var errs []error
	for k := range er.Runs {
		o := &er.Runs[k]
		if o.LastPoint == "" || (rr.Fingerprint != "" && o.Fingerprint != rr.Fingerprint) {
			continue
		}
		sp, err := ReadPointFile(filepath.Join(expDir, o.LastPoint))
		if err == nil && sp.Fingerprint != o.Fingerprint {
			err = fmt.Errorf("experiment: %s: the point's fingerprint %s is not its run's %s", o.LastPoint, sp.Fingerprint, o.Fingerprint)
		}
		if err == nil && sp.Label != o.Label {
			// Another run's file copied over this one: a point of P all
			// the same, but the row would credit the wrong run with it.
			err = fmt.Errorf("experiment: %s: the point is %s's, not %s's (the file was replaced)", o.LastPoint, sp.Label, o.Label)
		}
		if err != nil {
			errs = append(errs, &InputError{err})
			continue
		}
		if len(sp.X) == prob.Losses.Dim() {
			// Where the polytope can say whether the point is in it: a
			// point outside bounds nothing, whatever its loss.
			if err := lazycg.CheckMember(prob.LMO, sp.X); err != nil {
				errs = append(errs, &InputError{fmt.Errorf("experiment: %s: not a point of the polytope (the file was damaged or edited); not used: %w", o.LastPoint, err)})
				continue
			}
		}
		v, err := online.LossAt(prob, row.Rounds, sp.X)
		if err != nil {
			errs = append(errs, &InputError{fmt.Errorf("experiment: %s: %w", o.LastPoint, err)})
			continue
		}
		if v < floor-1e-9*math.Max(1, math.Abs(floor)) {
			errs = append(errs, &InputError{fmt.Errorf("experiment: %s: its loss over %d rounds, %g, is below the proven minimum %g over the polytope: not a point of the polytope (the file was damaged or edited); not used",
				o.LastPoint, row.Rounds, v, floor)})
			continue
		}
		if v < best {
			best, row.Point = v, o.Label
		}
	}
	return best, errors.Join(errs...)
}

// Combined returns the intersection of the recorded and the new bracket:
// both are proven (each solve's primal value is attained and its dual
// bound holds), so the average regret lies in both. An unknown end of one
// bracket takes the other's.
func (r *HindsightRow) Combined() (lower, upper float64) {
	lower, upper = r.Lower, r.Upper
	if math.IsNaN(lower) || r.BeforeLower > lower {
		lower = r.BeforeLower
	}
	if math.IsNaN(upper) || r.BeforeUpper < upper {
		upper = r.BeforeUpper
	}
	return lower, upper
}

func ptrOrNaN(v *float64) float64 {
	if v == nil {
		return math.NaN()
	}
	return *v
}
