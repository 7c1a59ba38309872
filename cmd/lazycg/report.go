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
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: lazycg report DIR [flags]  (DIR is the -out directory of lazycg bench)")
		fs.PrintDefaults()
	}
	figures := fs.Bool("figures", true, "redraw the figures from the trace CSV files")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return usageError(err)
	}
	if len(pos) != 1 {
		fs.Usage()
		return usageError(fmt.Errorf("report: want one directory, got %d arguments", len(pos)))
	}
	if _, err := experiment.Report(pos[0], experiment.ReportOptions{Figures: *figures}); err != nil {
		return usageError(fmt.Errorf("report: %w", err))
	}
	fmt.Fprintf(stdout, "report:  %s\n", filepath.Join(pos[0], experiment.ReportFile))
	fmt.Fprintf(stdout, "figures: %s\n", filepath.Join(pos[0], "*", experiment.FigurePNG))
	return nil
}
