package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"path/filepath"

	"github.com/lazycg/lazycg/experiment"
)

func init() {
	commands["report"] = runReport
}

func runReport(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	figures := fs.Bool("figures", true, "redraw the figures from the trace CSV files")
	pos, err := parseFlags(fs, args, true, "lazycg report DIR [flags]  (DIR is the -out directory of lazycg bench)", stderr)
	if err != nil {
		if err == errHelp {
			return nil
		}
		return err
	}
	if len(pos) != 1 {
		return usageError(fmt.Errorf("report: want one directory, got %d arguments (see lazycg report -h)", len(pos)))
	}
	dir := pos[0]
	res, err := experiment.ReadSuiteResult(dir)
	if err != nil {
		return usageError(fmt.Errorf("report: %w", err))
	}
	if err := checkSummary(res); err != nil {
		return usageError(fmt.Errorf("report: %s: %w", filepath.Join(dir, experiment.SummaryFile), err))
	}
	err = experiment.WriteReport(dir, res, experiment.ReportOptions{Figures: *figures})
	if err != nil && !errors.Is(err, experiment.ErrFigures) {
		return fmt.Errorf("report: %w", err) // the report could not be written
	}
	fmt.Fprintf(stdout, "report:  %s\n", filepath.Join(dir, experiment.ReportFile))
	if *figures {
		fmt.Fprintf(stdout, "figures: %s\n", filepath.Join(dir, "*", experiment.FigurePNG))
	}
	if err != nil {
		// The report names the figures that are missing; their old files
		// are gone.
		return usageError(fmt.Errorf("report: %w", err))
	}
	return nil
}

// checkSummary refuses a summary that lazycg bench cannot have written:
// JSON such as null or {} parses as a summary of nothing, and its report
// would replace the directory's report by an empty one. Every summary of
// bench names its suite and has a positive time scale and a start time.
func checkSummary(res *experiment.SuiteResult) error {
	switch {
	case res.Suite == "":
		return errors.New("not a summary of lazycg bench: no suite name (the file was damaged or edited)")
	case !(res.TimeScale > 0) || math.IsInf(res.TimeScale, 0):
		return fmt.Errorf("not a summary of lazycg bench: time scale %g, want a positive number (the file was damaged or edited)", res.TimeScale)
	case res.Started == "":
		return errors.New("not a summary of lazycg bench: no start time (the file was damaged or edited)")
	}
	return nil
}
