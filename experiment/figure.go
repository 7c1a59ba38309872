package experiment

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/lazycg/lazycg/internal/fileio"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Figure layout: one column per experiment, rows sharing the y quantity.
const (
	figWidth   = 5.5 * vg.Inch
	rowHeight  = 2.3 * vg.Inch
	titleSpace = 0.32 * vg.Inch
	lineSpace  = 0.18 * vg.Inch
	// captionWidth is the number of characters of a caption line.
	captionWidth = 100
)

// Colors: red for non-lazy runs, green for the (first) lazy run as in the
// paper, then further colors for further runs of each kind.
var (
	nonLazyColors = []color.RGBA{{214, 39, 40, 255}, {255, 127, 14, 255}, {140, 86, 75, 255}, {227, 119, 194, 255}}
	lazyColors    = []color.RGBA{{44, 160, 44, 255}, {31, 119, 180, 255}, {148, 103, 189, 255}, {23, 190, 207, 255}, {188, 189, 34, 255}}
)

// series is one run's trace prepared for plotting.
type series struct {
	label  string
	color  color.RGBA
	trace  Trace
	regret []RegretPoint // online runs: the average regret curve
}

// figureData is what DrawFigure draws: rows of plots and caption lines.
type figureData struct {
	title   string
	rows    []*plot.Plot
	caption []string
}

// yTransform maps primal values to the plotted quantity.
type yTransform struct {
	offset float64 // plotted value is primal − offset
	label  string
	log    bool
}

// chooseY picks the plotted quantity of the f rows: the gap to the best
// proven dual bound L when L > 0 (so that the values are positive and a
// log scale shows the convergence), else f itself; log scale when all
// values are positive and span at least a decade.
func chooseY(ss []series, bestDual float64, online bool) yTransform {
	name := "f(x)"
	if online {
		name = "average loss"
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range ss {
		for _, p := range s.trace.Points {
			lo, hi = math.Min(lo, p.Primal), math.Max(hi, p.Primal)
		}
	}
	if !math.IsInf(bestDual, 0) && !math.IsNaN(bestDual) && bestDual > 0 {
		return yTransform{offset: bestDual, label: name + " − L", log: true}
	}
	if lo > 0 && hi >= 10*lo {
		return yTransform{label: name, log: true}
	}
	return yTransform{label: name}
}

// curve is a list of points with the numbers of points left out, by
// reason.
type curve struct {
	pts plotter.XYs
	// nonFinite counts points with a NaN or infinite coordinate (e.g. the
	// gap before any dual bound was proven); xNonPos and yNonPos count
	// points with a value ≤ 0 on a log axis; huge counts points beyond
	// ±maxLinear on a linear axis.
	nonFinite, xNonPos, yNonPos, huge int
}

// maxLinear bounds the values plotted on a linear axis: the tick
// labelling of gonum/plot does not end when the axis range overflows
// (max − min = +Inf), which values near ±math.MaxFloat64 (a damaged
// trace) would give.
const maxLinear = 1e300

// makeCurve maps trace points to (x, y), leaving out non-finite values,
// on log axes values ≤ 0, and on linear axes values beyond ±maxLinear.
func makeCurve(n int, xy func(i int) (x, y float64), logX, logY bool) curve {
	var c curve
	for i := range n {
		x, y := xy(i)
		switch {
		case math.IsNaN(x) || math.IsInf(x, 0) || math.IsNaN(y) || math.IsInf(y, 0):
			c.nonFinite++
		case logX && x <= 0:
			c.xNonPos++
		case logY && y <= 0:
			c.yNonPos++
		case !logX && math.Abs(x) > maxLinear, !logY && math.Abs(y) > maxLinear:
			c.huge++
		default:
			c.pts = append(c.pts, plotter.XY{X: x, Y: y})
		}
	}
	return c
}

// rowSpec describes one row of a figure.
type rowSpec struct {
	xlabel, ylabel string
	logX, logY     bool
	timeX          bool   // the x axis is a time: starts at 0
	infWhat        string // describes points with infinite values
	xy             func(s *series, i int) (x, y float64)
	n              func(s *series) int
}

func pointsOf(s *series) int { return len(s.trace.Points) }

// spansDecades reports whether the positive values of v span at least
// three decades.
func spansDecades(ss []series, v func(s *series, i int) float64) bool {
	lo, hi := math.Inf(1), 0.0
	for k := range ss {
		for i := range ss[k].trace.Points {
			if x := v(&ss[k], i); x > 0 {
				lo, hi = math.Min(lo, x), math.Max(hi, x)
			}
		}
	}
	return hi > 0 && hi >= 1000*lo
}

// buildFigure prepares the plots of an experiment from its traces.
func buildFigure(er *ExperimentResult, ss []series) (*figureData, error) {
	e := &er.Spec
	online := e.Online()
	bestDual := math.Inf(-1)
	for _, r := range er.Runs {
		if r.Summary != nil && r.Summary.DualBound != nil {
			bestDual = math.Max(bestDual, *r.Summary.DualBound)
		}
	}
	yt := chooseY(ss, bestDual, online)
	fy := func(s *series, i int) float64 { return s.trace.Points[i].Primal - yt.offset }
	iterName := "iterations"
	if online {
		iterName = "rounds"
	}
	iterX := func(s *series, i int) float64 { return float64(s.trace.Points[i].Iteration) }
	lmoX := func(s *series, i int) float64 { return float64(s.trace.Points[i].LMOCalls) }
	rows := []rowSpec{
		{xlabel: "wall-clock time (s)", ylabel: yt.label, logY: yt.log, timeX: true, n: pointsOf,
			xy: func(s *series, i int) (float64, float64) { return s.trace.Points[i].Time.Seconds(), fy(s, i) }},
		{xlabel: iterName, ylabel: yt.label, logY: yt.log, logX: spansDecades(ss, iterX), n: pointsOf,
			xy: func(s *series, i int) (float64, float64) { return iterX(s, i), fy(s, i) }},
		{xlabel: "LMO calls", ylabel: yt.label, logY: yt.log, logX: spansDecades(ss, lmoX), n: pointsOf,
			xy: func(s *series, i int) (float64, float64) { return lmoX(s, i), fy(s, i) }},
	}
	if e.DualRow && !online {
		rows = append(rows, rowSpec{xlabel: "wall-clock time (s)", ylabel: "primal − dual bound", logY: true, timeX: true,
			infWhat: "without a proven dual bound", n: pointsOf,
			xy: func(s *series, i int) (float64, float64) {
				p := s.trace.Points[i]
				return p.Time.Seconds(), p.Primal - p.DualBound
			}})
	}
	if online {
		hasRegret, positive := false, true
		for _, s := range ss {
			for _, q := range s.regret {
				if q.Upper != nil {
					hasRegret = true
					positive = positive && *q.Upper > 0
				}
			}
		}
		if hasRegret {
			rows = append(rows, rowSpec{xlabel: "wall-clock time (s)", ylabel: "average regret (upper bound)", logY: positive,
				timeX: true, infWhat: "without a hindsight bound", n: func(s *series) int { return len(s.regret) },
				xy: func(s *series, i int) (float64, float64) {
					q := s.regret[i]
					if q.Upper == nil {
						return q.TimeS, math.Inf(1)
					}
					return q.TimeS, *q.Upper
				}})
		}
	}
	hasOracle := false
	for _, s := range ss {
		hasOracle = hasOracle || s.trace.OracleTime != nil
	}
	if e.OracleTimeRow && hasOracle {
		rows = append(rows, rowSpec{xlabel: "time in oracle calls (s)", ylabel: yt.label, logY: yt.log, timeX: true,
			n:  func(s *series) int { return len(s.trace.OracleTime) },
			xy: func(s *series, i int) (float64, float64) { return s.trace.OracleTime[i].Seconds(), fy(s, i) }})
	}
	fd := &figureData{title: figureTitle(er)}
	var notes []string
	for ri, rs := range rows {
		p := plot.New()
		p.X.Label.Text, p.Y.Label.Text = rs.xlabel, rs.ylabel
		p.X.Label.TextStyle.Font.Size = vg.Points(10)
		p.Y.Label.TextStyle.Font.Size = vg.Points(10)
		p.Add(plotter.NewGrid())
		xlo, xhi, ylo, yhi := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
		var left curve
		drawn := 0
		for k := range ss {
			s := &ss[k]
			c := makeCurve(rs.n(s), func(i int) (float64, float64) { return rs.xy(s, i) }, rs.logX, rs.logY)
			left.nonFinite += c.nonFinite
			left.xNonPos += c.xNonPos
			left.yNonPos += c.yNonPos
			left.huge += c.huge
			if len(c.pts) == 0 {
				continue
			}
			drawn++
			for _, q := range c.pts {
				xlo, xhi = math.Min(xlo, q.X), math.Max(xhi, q.X)
				ylo, yhi = math.Min(ylo, q.Y), math.Max(yhi, q.Y)
			}
			line, pts, err := plotter.NewLinePoints(c.pts)
			if err != nil {
				return nil, fmt.Errorf("experiment: figure %s: %w", e.Name, err)
			}
			line.Color = s.color
			line.Width = vg.Points(1.6)
			pts.Color = s.color
			pts.Radius = vg.Points(1.8)
			if len(c.pts) > 40 {
				pts.Radius = 0
			}
			p.Add(line, pts)
			if ri == 0 {
				p.Legend.Add(s.label, line)
			}
		}
		if drawn == 0 {
			p.Title.Text = "no data"
			p.Title.TextStyle.Font.Size = vg.Points(9)
			fd.rows = append(fd.rows, p)
			continue
		}
		if rs.timeX && !rs.logX {
			xlo = 0
		}
		setRange(&p.X, xlo, xhi, rs.logX)
		setRange(&p.Y, ylo, yhi, rs.logY)
		if ri == 0 {
			p.Legend.Top = true
			p.Legend.TextStyle.Font.Size = vg.Points(9)
		}
		if k := left.xNonPos; k > 0 {
			notes = append(notes, fmt.Sprintf("%s vs %s: %d points at %s = 0 not shown (log axis)", rs.ylabel, rs.xlabel, k, rs.xlabel))
		}
		if k := left.yNonPos; k > 0 {
			notes = append(notes, fmt.Sprintf("%s vs %s: %d points with %s ≤ 0 not shown (log axis)", rs.ylabel, rs.xlabel, k, rs.ylabel))
		}
		if k := left.huge; k > 0 {
			notes = append(notes, fmt.Sprintf("%s vs %s: %d points beyond ±%g not shown (linear axis)", rs.ylabel, rs.xlabel, k, maxLinear))
		}
		if k := left.nonFinite; k > 0 {
			what := rs.infWhat
			if what == "" {
				what = "with an infinite value"
			}
			notes = append(notes, fmt.Sprintf("%s vs %s: %d points %s not shown", rs.ylabel, rs.xlabel, k, what))
		}
		fd.rows = append(fd.rows, p)
	}
	for _, l := range append(captionLines(er, yt), notes...) {
		fd.caption = append(fd.caption, wrap(l, captionWidth)...)
	}
	return fd, nil
}

// setRange fixes an axis range from the data, padding a degenerate range
// so that log axes never see values ≤ 0.
func setRange(a *plot.Axis, lo, hi float64, log bool) {
	if log {
		if lo == hi {
			// Halve and double within (0, MaxFloat64]: gonum/plot turns an
			// infinite end into 0, which a log axis refuses with a panic.
			if lo/2 > 0 {
				lo /= 2
			}
			hi = math.Min(hi*2, math.MaxFloat64)
		}
		a.Min, a.Max = lo, hi
		a.Scale = plot.LogScale{}
		a.Tick.Marker = logTicks{}
		return
	}
	if lo == hi {
		d := math.Max(math.Abs(lo)*0.05, 1e-9)
		lo, hi = lo-d, hi+d
	}
	a.Min, a.Max = lo, hi
}

// figureTitle is the experiment's title with its dimension.
func figureTitle(er *ExperimentResult) string {
	t := er.Spec.DisplayTitle()
	if er.Dim > 0 {
		t += fmt.Sprintf(", %d dimensions", er.Dim)
	}
	return t
}

// captionLines says what is plotted and gives the cache hit rates.
func captionLines(er *ExperimentResult, yt yTransform) []string {
	var lines []string
	var rates []string
	for _, r := range er.Runs {
		if r.Lazy && r.Summary != nil {
			rates = append(rates, fmt.Sprintf("%s %s", r.Label, pct(100*r.Summary.CacheHitRate)))
		}
	}
	hit := "cache hit rate: " + strings.Join(rates, ", ")
	if len(rates) == 0 {
		hit = "cache hit rate: no lazy run"
	}
	if p := er.Spec.Paper.CacheHitRate; p != nil {
		hit += " (paper " + pct(*p) + ")"
	}
	lines = append(lines, hit)
	if yt.offset != 0 {
		lines = append(lines, fmt.Sprintf("L = %.10g, the best proven dual bound of the runs", yt.offset))
	}
	for _, r := range er.Runs {
		if r.Error != "" {
			lines = append(lines, r.Label+": "+r.Error)
		}
	}
	return lines
}

// pct formats a percentage with up to three decimals.
func pct(v float64) string {
	s := fmt.Sprintf("%.3f", v)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s + "%"
}

// wrap splits s into lines of at most width runes.
func wrap(s string, width int) []string {
	var out []string
	for len([]rune(s)) > width {
		r := []rune(s)
		cut := width
		for i := width; i > width/2; i-- {
			if r[i] == ' ' {
				cut = i
				break
			}
		}
		out = append(out, string(r[:cut]))
		s = "  " + strings.TrimSpace(string(r[cut:]))
	}
	return append(out, s)
}

// render draws the figure on a canvas of the given size.
func (fd *figureData) render(c draw.Canvas) {
	c.FillPolygon(color.White, []vg.Point{c.Min, {X: c.Max.X, Y: c.Min.Y}, c.Max, {X: c.Min.X, Y: c.Max.Y}})
	capH := lineSpace*vg.Length(len(fd.caption)) + 0.1*vg.Inch
	sty := text.Style{Color: color.Black, Font: font.From(plot.DefaultFont, 12), XAlign: draw.XCenter,
		YAlign: draw.YTop, Handler: plot.DefaultTextHandler}
	c.FillText(sty, vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: c.Max.Y - 0.06*vg.Inch}, fd.title)
	sty.Font.Size = vg.Points(9)
	sty.XAlign = draw.XLeft
	for i, l := range fd.caption {
		c.FillText(sty, vg.Point{X: c.Min.X + 0.15*vg.Inch, Y: c.Min.Y + capH - 0.05*vg.Inch - lineSpace*vg.Length(i)}, l)
	}
	area := draw.Crop(c, 0, 0, capH, -titleSpace)
	grid := make([][]*plot.Plot, len(fd.rows))
	for i, p := range fd.rows {
		grid[i] = []*plot.Plot{p}
	}
	tiles := draw.Tiles{Rows: len(fd.rows), Cols: 1, PadX: vg.Millimeter, PadY: 2 * vg.Millimeter,
		PadTop: vg.Millimeter, PadBottom: vg.Millimeter, PadLeft: 2 * vg.Millimeter, PadRight: 3 * vg.Millimeter}
	cs := plot.Align(grid, tiles, area)
	for i, p := range fd.rows {
		p.Draw(cs[i][0])
	}
}

func (fd *figureData) size() (w, h vg.Length) {
	return figWidth, titleSpace + rowHeight*vg.Length(len(fd.rows)) + lineSpace*vg.Length(len(fd.caption)) + 0.1*vg.Inch
}

// DrawFigure draws DIR/figure.png and DIR/figure.svg for the experiment
// from the trace CSV files of its runs in dir: rows f (or the cumulative
// loss) vs wall-clock time, vs iterations (rounds), vs LMO calls, plus
// the proven gap vs time when DualRow is set and the loss vs oracle time
// when OracleTimeRow is set; red non-lazy, green (then blue, …) lazy; the
// cache hit rates, ours and the paper's, below.
//
// Both files are written atomically. When the figure cannot be drawn (a
// trace is missing or unreadable, no run has a trace) the figure files of
// dir are removed, so that no old figure stays beside new data.
func DrawFigure(dir string, er *ExperimentResult) error {
	err := drawFigure(dir, er)
	if err != nil {
		RemoveFigure(dir)
	}
	return err
}

// RemoveFigure removes DIR/figure.png and DIR/figure.svg, if present.
func RemoveFigure(dir string) {
	for _, name := range []string{FigurePNG, FigureSVG} {
		os.Remove(filepath.Join(dir, name))
	}
}

// errNoTrace is DrawFigure's error for an experiment none of whose runs
// produced a trace (the runs' errors say why).
var errNoTrace = errors.New("no run produced a trace")

func drawFigure(dir string, er *ExperimentResult) error {
	var ss []series
	nl, lz := 0, 0
	for _, r := range er.Runs {
		if r.Trace == "" {
			continue
		}
		tr, err := readRunTrace(dir, &r)
		if err != nil {
			return err
		}
		s := series{label: r.Label, trace: tr, regret: r.Regret}
		if r.Lazy {
			s.color = lazyColors[lz%len(lazyColors)]
			lz++
		} else {
			s.color = nonLazyColors[nl%len(nonLazyColors)]
			nl++
		}
		ss = append(ss, s)
	}
	if len(ss) == 0 {
		return fmt.Errorf("experiment: figure %s: %w", er.Spec.Name, errNoTrace)
	}
	fd, err := buildFigure(er, ss)
	if err != nil {
		return err
	}
	w, h := fd.size()
	png := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(110))
	fd.render(draw.New(png))
	if err := writeCanvas(filepath.Join(dir, FigurePNG), vgimg.PngCanvas{Canvas: png}); err != nil {
		return err
	}
	svg := vgsvg.New(w, h)
	fd.render(draw.New(svg))
	return writeCanvas(filepath.Join(dir, FigureSVG), svg)
}

// readRunTrace reads the trace of run r in dir and checks that it holds
// the run's TracePoints points (when recorded, as the runner does): a
// file cut at a line boundary reads without error, and a figure drawn
// from it would not show the run.
func readRunTrace(dir string, r *RunResult) (Trace, error) {
	path := filepath.Join(dir, r.Trace)
	tr, err := ReadTraceFile(path)
	if err == nil && r.TracePoints > 0 && len(tr.Points) != r.TracePoints {
		err = fmt.Errorf("experiment: trace %s has %d points, the run recorded %d: the file was cut or edited", path, len(tr.Points), r.TracePoints)
	}
	return tr, err
}

func writeCanvas(path string, c io.WriterTo) error {
	err := fileio.WriteAtomic(path, func(w io.Writer) error { _, err := c.WriteTo(w); return err })
	if err != nil {
		return fmt.Errorf("experiment: %w", err)
	}
	return nil
}

// logTicks are plot.LogTicks that also label the minor ticks when fewer
// than two labeled ticks fall in the axis range.
type logTicks struct{}

// Ticks implements plot.Ticker.
func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	ts := plot.LogTicks{Prec: -1}.Ticks(lo, hi)
	labeled := 0
	for i, t := range ts {
		if t.Label != "" {
			// The powers of ten are computed, 10^-5 as 9.999999999999999e-05:
			// label the value rounded to 15 digits.
			ts[i].Label = strconv.FormatFloat(round15(t.Value), 'g', -1, 64)
			if t.Value >= lo && t.Value <= hi {
				labeled++
			}
		}
	}
	if labeled >= 2 {
		return ts
	}
	for i := range ts {
		if ts[i].Label == "" {
			ts[i].Label = strconv.FormatFloat(ts[i].Value, 'g', 3, 64)
		}
	}
	return ts
}

// round15 rounds v to 15 significant digits.
func round15(v float64) float64 {
	r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 15, 64), 64)
	if err != nil {
		return v
	}
	return r
}
