package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
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
