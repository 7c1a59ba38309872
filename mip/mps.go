package mip

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
)

// MPSError is a syntax or content error in an MPS file. Its message reads
// "mip: mps: [FILE: ]line N: what was expected".
type MPSError struct {
	// File is the file name, empty when reading from an io.Reader.
	File string
	// Line is the 1-based line number, 0 for errors not tied to a line.
	Line int
	// Msg says what is wrong.
	Msg string
}

// Error formats the error with the "mip: mps: " prefix, file and line.
func (e *MPSError) Error() string {
	switch {
	case e.File != "" && e.Line > 0:
		return fmt.Sprintf("mip: mps: %s: line %d: %s", e.File, e.Line, e.Msg)
	case e.File != "":
		return fmt.Sprintf("mip: mps: %s: %s", e.File, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("mip: mps: line %d: %s", e.Line, e.Msg)
	}
	return "mip: mps: " + e.Msg
}

// mpsInfinity is the magnitude from which bounds and right-hand sides count
// as infinite (the usual MPS convention, also used by CPLEX and COIN-OR).
const mpsInfinity = 1e30

// mpsMaxLine is the longest line the reader accepts.
const mpsMaxLine = 1 << 24

// ReadMPSFile reads an MPS file (fixed or free format) with ReadMPS. Files
// starting with the gzip magic bytes are decompressed on the fly, whatever
// their name.
func ReadMPSFile(path string) (*Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("mip: mps: %w", err)
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<16)
	var r io.Reader = br
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, &MPSError{File: path, Msg: "bad gzip header: " + err.Error()}
		}
		defer zr.Close()
		r = zr
	}
	m, err := ReadMPS(r)
	if err != nil {
		var me *MPSError
		if errors.As(err, &me) {
			me.File = path
			return nil, me
		}
		return nil, &MPSError{File: path, Msg: err.Error()}
	}
	if zr, ok := r.(*gzip.Reader); ok {
		// The reader stops at ENDATA, before the gzip trailer: read the
		// stream to its end so that its checksum and length are verified,
		// else a corrupted or truncated file could be read as a model
		// with wrong numbers. Data after a complete gzip member that is
		// not another member is ignored, as gzip -d does.
		if _, err := io.Copy(io.Discard, zr); err != nil && !errors.Is(err, gzip.ErrHeader) {
			return nil, &MPSError{File: path, Msg: "gzip stream after ENDATA: " + err.Error() + " (the file is truncated or corrupted)"}
		}
	}
	return m, nil
}

// ReadMPS reads a mixed-integer program in MPS format.
//
// Both fixed and free MPS are accepted: fields are separated by white space,
// and a line whose fields do not fit that reading is re-read by the column
// positions of fixed MPS (fields at columns 2–3, 5–12, 15–22, 25–36, 40–47,
// 50–61), so fixed-format names may contain spaces. Section headers start in
// column 1; lines starting with '*' are comments.
//
// Supported sections: NAME, OBJSENSE (MIN, MAX, MINIMIZE, MAXIMIZE on the
// same or the next line), OBJNAME, ROWS (N, E, L, G; the first N row, or the
// one named by OBJNAME, is the objective and other N rows are dropped),
// COLUMNS (with 'MARKER' 'INTORG'/'INTEND' integer blocks), RHS (an entry on
// the objective row is the negated objective constant), RANGES (on E rows a
// positive range R gives [rhs, rhs+R], a negative one [rhs+R, rhs]; on L
// and G rows |R| counts), BOUNDS (UP, LO, FX, FR, MI, PL, BV, LI, UI) and
// ENDATA. Each of RHS, RANGES and BOUNDS may hold one set: a line naming a
// second set is an error (which set is meant is the caller's choice, and
// dropping one silently would change the model); a line without a set name
// belongs to the section's set.
//
// Columns have default bounds [0, +Inf), except that an integer column of a
// 'MARKER' block without any BOUNDS entry is binary, [0, 1]: the convention
// of MIPLIB and of COIN-OR's CoinMpsIO, under which eil33-2 and eilB101 are
// 0/1 programs. An UP or UI bound below zero on a column without an
// explicit lower bound makes the lower bound −Inf. Values of magnitude 1e30
// or more in RHS, RANGES and BOUNDS are infinite. Semi-continuous bounds
// (SC) and quadratic, SOS or indicator sections are rejected.
//
// The reader streams its input and allocates memory proportional to the
// model, so large files are read quickly.
func ReadMPS(r io.Reader) (*Model, error) {
	p := &mpsParser{
		m:      &Model{},
		rowIdx: make(map[string]int),
		colIdx: make(map[string]int),
		objRow: -1,
		sc:     bufio.NewScanner(r),
	}
	p.sc.Buffer(make([]byte, 0, 1<<16), mpsMaxLine)
	if err := p.run(); err != nil {
		return nil, err
	}
	return p.m, nil
}

// Row kinds in mpsParser.rowIdx beyond constraint indices ≥ 0.
const (
	mpsObjRow  = -1 // the objective N row
	mpsFreeRow = -2 // another N row, dropped
)

type mpsSection int

const (
	secNone mpsSection = iota
	secName
	secObjSense
	secObjName
	secRows
	secColumns
	secRHS
	secRanges
	secBounds
	secEnd
)

var mpsSectionNames = [...]string{"", "NAME", "OBJSENSE", "OBJNAME", "ROWS", "COLUMNS", "RHS", "RANGES", "BOUNDS", "ENDATA"}

type mpsParser struct {
	sc   *bufio.Scanner
	line int
	m    *Model

	sec     mpsSection
	seen    [secEnd + 1]bool
	pending bool // OBJSENSE/OBJNAME header waiting for its data line

	objName string // from OBJNAME
	objRow  int    // index in ROWS order of the objective N row, -1 before
	rowIdx  map[string]int
	colIdx  map[string]int
	rowType []byte
	rhs     []float64
	rng     []float64
	hasRHS  []bool
	hasRng  []bool
	rhsLn   []int // line of each row's RHS entry, 0 for none
	rngLn   []int // line of each row's RANGES entry, 0 for none

	inInt   bool
	curCol  int    // current column, -1 before the first
	objSeen bool   // the current column already has an objective entry
	rowMark []int  // rowMark[i] = last column with an entry in row i, -1 none
	loSet   []bool // explicit lower bound given in BOUNDS
	bndLine []int  // line of each column's last BOUNDS entry, 0 for none

	rhsSet, rngSet, bndSet mpsSet

	tok [8][]byte // fields of the current line
	fix [6][]byte // fixed-format fields of the current line
}

func (p *mpsParser) errorf(format string, args ...any) error {
	return &MPSError{Line: p.line, Msg: fmt.Sprintf(format, args...)}
}

func (p *mpsParser) run() error {
	p.curCol = -1
	for p.sc.Scan() {
		p.line++
		line := p.sc.Bytes()
		if len(line) == 0 || line[0] == '*' {
			continue
		}
		line = bytes.TrimRight(line, " \t\r\n")
		if len(line) == 0 {
			continue
		}
		var err error
		if line[0] != ' ' && line[0] != '\t' {
			err = p.header(line)
		} else {
			err = p.data(line)
		}
		if err != nil {
			return err
		}
		if p.sec == secEnd {
			return p.finish()
		}
	}
	if err := p.sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return &MPSError{Line: p.line + 1, Msg: fmt.Sprintf("line longer than %d bytes", mpsMaxLine)}
		}
		return &MPSError{Line: p.line, Msg: "read error: " + err.Error()}
	}
	if p.line == 0 {
		return &MPSError{Msg: "empty input, expected an MPS model"}
	}
	return p.errorf("unexpected end of input, missing ENDATA")
}

// fields splits line into white-space separated fields and returns their
// number (len(p.tok)+1 when there are more than fit).
func (p *mpsParser) fields(line []byte) int {
	n := 0
	i := 0
	for i < len(line) {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		if i == len(line) {
			break
		}
		j := i
		for j < len(line) && line[j] != ' ' && line[j] != '\t' {
			j++
		}
		if n == len(p.tok) {
			return n + 1
		}
		p.tok[n] = line[i:j]
		n++
		i = j
	}
	return n
}

// fixedFields splits line by the column positions of fixed MPS into p.fix
// and reports whether the line has that layout (blanks between the fields,
// nothing after column 61).
func (p *mpsParser) fixedFields(line []byte) bool {
	if len(line) > 61 {
		return false
	}
	for _, c := range [...]int{0, 3, 12, 13, 22, 23, 36, 37, 38, 47, 48} {
		if c < len(line) && line[c] != ' ' {
			return false
		}
	}
	spans := [6][2]int{{1, 3}, {4, 12}, {14, 22}, {24, 36}, {39, 47}, {49, 61}}
	for k, s := range spans {
		a, b := s[0], s[1]
		if a > len(line) {
			a = len(line)
		}
		if b > len(line) {
			b = len(line)
		}
		p.fix[k] = bytes.TrimSpace(line[a:b])
	}
	return true
}

func (p *mpsParser) header(line []byte) error {
	n := p.fields(line)
	key := string(bytes.ToUpper(p.tok[0]))
	if p.pending {
		return p.errorf("expected the value of the %s section before %s", mpsSectionNames[p.sec], key)
	}
	var sec mpsSection
	switch key {
	case "NAME":
		sec = secName
	case "OBJSENSE":
		sec = secObjSense
	case "OBJNAME":
		sec = secObjName
	case "ROWS":
		sec = secRows
	case "COLUMNS":
		sec = secColumns
	case "RHS":
		sec = secRHS
	case "RANGES":
		sec = secRanges
	case "BOUNDS":
		sec = secBounds
	case "ENDATA":
		sec = secEnd
	case "SOS", "QUADOBJ", "QMATRIX", "QSECTION", "QCMATRIX", "INDICATORS", "LAZYCONS", "USERCUTS", "CSECTION", "GENERAL", "GENERALS", "BINARY", "BINARIES":
		return p.errorf("section %s is not supported (only linear MIPs: NAME, OBJSENSE, OBJNAME, ROWS, COLUMNS, RHS, RANGES, BOUNDS, ENDATA)", key)
	default:
		return p.errorf("unknown section %q (expected NAME, OBJSENSE, OBJNAME, ROWS, COLUMNS, RHS, RANGES, BOUNDS or ENDATA)", p.tok[0])
	}
	if p.seen[sec] {
		return p.errorf("section %s appears twice", key)
	}
	switch sec {
	case secName, secObjName:
		if p.seen[secRows] {
			return p.errorf("section %s must come before ROWS", key)
		}
	case secRows:
		if p.seen[secColumns] {
			return p.errorf("section ROWS after COLUMNS")
		}
	case secColumns:
		if !p.seen[secRows] {
			return p.errorf("section COLUMNS before ROWS")
		}
	case secRHS, secRanges, secBounds:
		if !p.seen[secColumns] {
			return p.errorf("section %s before COLUMNS", key)
		}
		if p.seen[secBounds] || sec == secRHS && p.seen[secRanges] {
			return p.errorf("section %s out of order (expected RHS, RANGES, BOUNDS)", key)
		}
	}
	if sec == secColumns {
		if err := p.endRows(); err != nil {
			return err
		}
	}
	p.seen[sec] = true
	p.sec = sec
	switch sec {
	case secName:
		rest := bytes.TrimSpace(line[len(p.tok[0]):])
		p.m.Name = string(rest)
	case secObjSense, secObjName:
		if n > 2 {
			return p.errorf("%s: expected one value after the keyword, got %d", key, n-1)
		}
		if n == 2 {
			return p.objData(p.tok[1])
		}
		p.pending = true
	}
	return nil
}

func (p *mpsParser) objData(tok []byte) error {
	p.pending = false
	if p.sec == secObjName {
		p.objName = string(tok)
		return nil
	}
	switch string(bytes.ToUpper(tok)) {
	case "MIN", "MINIMIZE", "MINIMISE":
		p.m.Maximize = false
	case "MAX", "MAXIMIZE", "MAXIMISE":
		p.m.Maximize = true
	default:
		return p.errorf("OBJSENSE: expected MIN, MAX, MINIMIZE or MAXIMIZE, got %q", tok)
	}
	return nil
}

func (p *mpsParser) data(line []byte) error {
	n := p.fields(line)
	switch p.sec {
	case secNone:
		return p.errorf("data line before any section (expected NAME or ROWS)")
	case secName:
		return p.errorf("unexpected data line in NAME section (expected ROWS)")
	case secObjSense, secObjName:
		if !p.pending || n != 1 {
			return p.errorf("%s: expected a single value line", mpsSectionNames[p.sec])
		}
		return p.objData(p.tok[0])
	case secRows:
		return p.rowLine(line, n)
	case secColumns:
		return p.columnLine(line, n)
	case secRHS, secRanges:
		return p.rhsLine(line, n)
	case secBounds:
		return p.boundLine(line, n)
	}
	return nil
}

func (p *mpsParser) rowLine(line []byte, n int) error {
	var typ, name []byte
	if n == 2 {
		typ, name = p.tok[0], p.tok[1]
	} else if p.fixedFields(line) && len(p.fix[0]) > 0 && len(p.fix[1]) > 0 && len(p.fix[2])+len(p.fix[3])+len(p.fix[4])+len(p.fix[5]) == 0 {
		typ, name = p.fix[0], p.fix[1]
	} else {
		return p.errorf("ROWS: expected a row type (N, E, L, G) and a row name, got %d fields", n)
	}
	if len(typ) != 1 {
		return p.errorf("ROWS: unknown row type %q (expected N, E, L or G)", typ)
	}
	t := typ[0] &^ 0x20 // upper case
	if _, dup := p.rowIdx[string(name)]; dup {
		return p.errorf("ROWS: duplicate row %q", name)
	}
	switch t {
	case 'N':
		if p.objRow < 0 && (p.objName == "" || p.objName == string(name)) {
			p.objRow = len(p.rowType)
			p.rowIdx[string(name)] = mpsObjRow
		} else {
			p.rowIdx[string(name)] = mpsFreeRow
		}
		return nil
	case 'E', 'L', 'G':
	default:
		return p.errorf("ROWS: unknown row type %q (expected N, E, L or G)", typ)
	}
	p.rowIdx[string(name)] = len(p.rowType)
	p.rowType = append(p.rowType, t)
	p.m.RowNames = append(p.m.RowNames, string(name))
	return nil
}

// endRows is called at the COLUMNS header.
func (p *mpsParser) endRows() error {
	if p.objName != "" && p.objRow < 0 {
		return p.errorf("OBJNAME names %q, which is not an N row of ROWS", p.objName)
	}
	nr := len(p.rowType)
	p.rhs = make([]float64, nr)
	p.rng = make([]float64, nr)
	p.hasRHS = make([]bool, nr)
	p.hasRng = make([]bool, nr)
	p.rhsLn = make([]int, nr)
	p.rngLn = make([]int, nr)
	p.rowMark = make([]int, nr)
	for i := range p.rowMark {
		p.rowMark[i] = -1
	}
	return nil
}

func (p *mpsParser) columnLine(line []byte, n int) error {
	// Integer markers: NAME 'MARKER' 'INTORG' (the name is arbitrary).
	// A row may be named MARKER too (WriteMPS keeps such names): its
	// entries, whose third field is a number, are no markers.
	if n == 3 && isMarker(p.tok[1]) {
		if _, isRow := p.rowIdx[string(p.tok[1])]; !isRow || isMarkerKind(p.tok[2]) {
			return p.marker(p.tok[2])
		}
	}
	if n == 3 || n == 5 {
		err := p.columnEntries(p.tok[0], p.tok[1:n])
		if err == nil || !p.fixedFields(line) {
			return err
		}
		if err2 := p.columnFixed(); err2 != nil {
			return err // report the free-format reading
		}
		return nil
	}
	if p.fixedFields(line) {
		if len(p.fix[0]) == 0 && isMarker(p.fix[2]) && len(p.fix[3]) == 0 {
			return p.marker(p.fix[4])
		}
		return p.columnFixed()
	}
	return p.errorf("COLUMNS: expected column name, row name, value [, row name, value], got %d fields", n)
}

func (p *mpsParser) columnFixed() error {
	f := &p.fix
	if len(f[0]) != 0 || len(f[1]) == 0 || len(f[2]) == 0 || len(f[3]) == 0 || (len(f[4]) == 0) != (len(f[5]) == 0) {
		return p.errorf("COLUMNS: bad fixed-format line")
	}
	if len(f[4]) == 0 {
		return p.columnEntries(f[1], f[2:4])
	}
	return p.columnEntries(f[1], f[2:6])
}

func isMarker(b []byte) bool {
	b = bytes.Trim(b, "'\"")
	return bytes.EqualFold(b, []byte("MARKER"))
}

// isMarkerKind reports whether b is INTORG or INTEND, quoted or not.
func isMarkerKind(b []byte) bool {
	b = bytes.Trim(b, "'\"")
	return bytes.EqualFold(b, []byte("INTORG")) || bytes.EqualFold(b, []byte("INTEND"))
}

func (p *mpsParser) marker(kind []byte) error {
	k := bytes.ToUpper(bytes.Trim(kind, "'\""))
	switch string(k) {
	case "INTORG":
		p.inInt = true
	case "INTEND":
		p.inInt = false
	default:
		return p.errorf("COLUMNS: unknown marker %q (expected 'INTORG' or 'INTEND')", kind)
	}
	return nil
}

// columnEntries handles the (row, value) pairs in kv for column name. It
// checks everything before changing the model, so that a failed free-format
// reading can be retried as fixed format.
func (p *mpsParser) columnEntries(name []byte, kv [][]byte) error {
	var rows [2]int
	var vals [2]float64
	np := len(kv) / 2
	newCol := p.curCol < 0 || string(name) != p.m.ColNames[p.curCol]
	if newCol {
		if _, dup := p.colIdx[string(name)]; dup {
			return p.errorf("COLUMNS: entries of column %q are not contiguous (it appeared before)", name)
		}
	}
	for k := 0; k < np; k++ {
		rname := kv[2*k]
		i, ok := p.rowIdx[string(rname)]
		if !ok {
			return p.errorf("COLUMNS: unknown row %q (not declared in ROWS)", rname)
		}
		v, err := parseMPSNumber(kv[2*k+1])
		if err != nil || math.IsInf(v, 0) {
			return p.errorf("COLUMNS: bad number %q for column %q, row %q (expected a finite number)", kv[2*k+1], name, rname)
		}
		rows[k], vals[k] = i, v
	}
	if np == 2 && rows[0] == rows[1] && rows[0] != mpsFreeRow {
		return p.errorf("COLUMNS: duplicate entry for column %q, row %q", name, kv[0])
	}
	j := p.curCol
	for k := 0; k < np; k++ {
		switch i := rows[k]; {
		case i == mpsObjRow:
			if (!newCol && p.objSeen) || (newCol && k == 1 && rows[0] == mpsObjRow) {
				return p.errorf("COLUMNS: duplicate objective entry for column %q", name)
			}
		case i >= 0:
			if !newCol && p.rowMark[i] == j {
				return p.errorf("COLUMNS: duplicate entry for column %q, row %q", name, kv[2*k])
			}
		}
	}
	m := p.m
	if newCol {
		j = len(m.ColNames)
		p.curCol = j
		s := string(name)
		p.colIdx[s] = j
		m.ColNames = append(m.ColNames, s)
		m.Obj = append(m.Obj, 0)
		m.ColLo = append(m.ColLo, 0)
		m.ColUp = append(m.ColUp, inf)
		m.Integer = append(m.Integer, p.inInt)
		m.Start = append(m.Start, len(m.Index))
		p.objSeen = false
	}
	for k := 0; k < np; k++ {
		switch i := rows[k]; {
		case i == mpsObjRow:
			m.Obj[j] = vals[k]
			p.objSeen = true
		case i >= 0:
			p.rowMark[i] = j
			if vals[k] != 0 {
				m.Index = append(m.Index, i)
				m.Value = append(m.Value, vals[k])
			}
		}
	}
	return nil
}

// rhsLine handles RHS and RANGES lines: [set] row value [row value].
func (p *mpsParser) rhsLine(line []byte, n int) error {
	sec := mpsSectionNames[p.sec]
	var set []byte
	var kv [][]byte
	switch n {
	case 2, 4:
		kv = p.tok[:n]
	case 3, 5:
		set, kv = p.tok[0], p.tok[1:n]
	}
	var err error
	if kv != nil {
		if err = p.rhsEntries(set, kv, true); err == nil {
			return p.rhsEntries(set, kv, false)
		}
	}
	if p.fixedFields(line) {
		f := &p.fix
		if len(f[0]) == 0 && len(f[2]) > 0 && len(f[3]) > 0 && (len(f[4]) == 0) == (len(f[5]) == 0) {
			kv = f[2:6]
			if len(f[4]) == 0 {
				kv = f[2:4]
			}
			if p.rhsEntries(f[1], kv, true) == nil {
				return p.rhsEntries(f[1], kv, false)
			}
		}
	}
	if err != nil {
		return err
	}
	return p.errorf("%s: expected [set name] row name, value [, row name, value], got %d fields", sec, n)
}

func (p *mpsParser) rhsEntries(set []byte, kv [][]byte, check bool) error {
	sec := mpsSectionNames[p.sec]
	isRHS := p.sec == secRHS
	ss := &p.rhsSet
	if !isRHS {
		ss = &p.rngSet
	}
	if err := ss.check(p, sec, set); err != nil {
		return err
	}
	np := len(kv) / 2
	first := 0
	for k := 0; k < np; k++ {
		rname := kv[2*k]
		i, ok := p.rowIdx[string(rname)]
		if !ok {
			return p.errorf("%s: unknown row %q (not declared in ROWS)", sec, rname)
		}
		v, err := parseMPSNumber(kv[2*k+1])
		if err != nil {
			return p.errorf("%s: bad number %q for row %q", sec, kv[2*k+1], rname)
		}
		if check {
			dup := k == 1 && i == first && i != mpsFreeRow
			if i >= 0 && (isRHS && p.hasRHS[i] || !isRHS && p.hasRng[i]) {
				dup = true
			}
			if dup {
				return p.errorf("%s: duplicate entry for row %q", sec, rname)
			}
			if i == mpsObjRow && isRHS && math.IsInf(mpsClamp(v), 0) {
				return p.errorf("RHS: infinite value %s for the objective row %q (the negated objective constant)", kv[2*k+1], rname)
			}
			first = i
			continue
		}
		v = mpsClamp(v)
		switch {
		case i == mpsObjRow && isRHS:
			p.m.ObjConst = -v
		case i >= 0 && isRHS:
			p.rhs[i], p.hasRHS[i], p.rhsLn[i] = v, true, p.line
		case i >= 0:
			p.rng[i], p.hasRng[i], p.rngLn[i] = v, true, p.line
		}
	}
	if !check {
		ss.adopt(p, set)
	}
	return nil
}

// mpsSet is the set name of an RHS, RANGES or BOUNDS section: the first
// one named there (empty while no line named one).
type mpsSet struct {
	name string
	line int // where name was first given
}

// check returns an error when set names a set other than s.
func (s *mpsSet) check(p *mpsParser, sec string, set []byte) error {
	if len(set) == 0 || s.name == "" || string(set) == s.name {
		return nil
	}
	return p.errorf("%s: a second set %q (the section's set is %q, line %d); files with several %s sets are not supported, keep the one to solve",
		sec, set, s.name, s.line, sec)
}

// adopt makes set the section's set if it has none yet.
func (s *mpsSet) adopt(p *mpsParser, set []byte) {
	if s.name == "" && len(set) > 0 {
		s.name, s.line = string(set), p.line
	}
}

// boundLine handles a BOUNDS line: type [set] column [value].
func (p *mpsParser) boundLine(line []byte, n int) error {
	err := p.boundFree(n)
	if err == nil {
		return nil
	}
	if p.fixedFields(line) {
		f := &p.fix
		if len(f[0]) > 0 && len(f[2]) > 0 && len(f[4])+len(f[5]) == 0 {
			if p.bound(f[0], f[1], f[2], f[3]) == nil {
				return nil
			}
		}
	}
	return err
}

func (p *mpsParser) boundFree(n int) error {
	if n < 2 || n > 4 {
		return p.errorf("BOUNDS: expected bound type, [set name,] column name [, value], got %d fields", n)
	}
	t := p.tok
	typ := bytes.ToUpper(t[0])
	needsValue := true
	switch string(typ) {
	case "FR", "MI", "PL", "BV":
		needsValue = false
	}
	switch {
	case n == 4:
		return p.bound(t[0], t[1], t[2], t[3])
	case n == 2:
		return p.bound(t[0], nil, t[1], nil)
	case needsValue:
		return p.bound(t[0], nil, t[1], t[2])
	}
	// Three fields for a type without value: set and column, or column and
	// a (redundant) value.
	if _, ok := p.colIdx[string(t[2])]; !ok {
		if _, ok := p.colIdx[string(t[1])]; ok {
			if _, err := parseMPSNumber(t[2]); err == nil {
				return p.bound(t[0], nil, t[1], t[2])
			}
		}
	}
	return p.bound(t[0], t[1], t[2], nil)
}

func (p *mpsParser) bound(typ, set, col, val []byte) error {
	ut := string(bytes.ToUpper(typ))
	needsValue := false
	switch ut {
	case "UP", "LO", "FX", "LI", "UI":
		needsValue = true
	case "FR", "MI", "PL", "BV":
	case "SC":
		return p.errorf("BOUNDS: semi-continuous bounds (SC) are not supported, column %q", col)
	default:
		return p.errorf("BOUNDS: unknown bound type %q (expected UP, LO, FX, FR, MI, PL, BV, LI or UI)", typ)
	}
	j, ok := p.colIdx[string(col)]
	if !ok {
		return p.errorf("BOUNDS: unknown column %q (not in COLUMNS)", col)
	}
	var v float64
	if val != nil {
		var err error
		if v, err = parseMPSNumber(val); err != nil {
			return p.errorf("BOUNDS: bad number %q for column %q", val, col)
		}
		v = mpsClamp(v)
	} else if needsValue {
		return p.errorf("BOUNDS: bound type %s needs a value for column %q", ut, col)
	}
	if err := p.bndSet.check(p, "BOUNDS", set); err != nil {
		return err
	}
	p.bndSet.adopt(p, set)
	if p.loSet == nil {
		p.loSet = make([]bool, len(p.m.ColLo))
		p.bndLine = make([]int, len(p.m.ColLo))
	}
	p.bndLine[j] = p.line
	m := p.m
	switch ut {
	case "UP", "UI":
		m.ColUp[j] = v
		if v < 0 && m.ColLo[j] == 0 && !p.loSet[j] {
			m.ColLo[j] = math.Inf(-1)
		}
		if ut == "UI" {
			m.Integer[j] = true
		}
	case "LO", "LI":
		m.ColLo[j], p.loSet[j] = v, true
		if ut == "LI" {
			m.Integer[j] = true
		}
	case "FX":
		m.ColLo[j], m.ColUp[j], p.loSet[j] = v, v, true
	case "FR":
		m.ColLo[j], m.ColUp[j], p.loSet[j] = math.Inf(-1), inf, true
	case "MI":
		m.ColLo[j], p.loSet[j] = math.Inf(-1), true
	case "PL":
		m.ColUp[j] = inf
	case "BV":
		m.ColLo[j], m.ColUp[j], p.loSet[j] = 0, 1, true
		m.Integer[j] = true
	}
	return nil
}

func (p *mpsParser) finish() error {
	if p.pending {
		return p.errorf("expected the value of the %s section before ENDATA", mpsSectionNames[p.sec])
	}
	if !p.seen[secColumns] {
		if !p.seen[secRows] {
			return p.errorf("ENDATA without ROWS and COLUMNS sections")
		}
		if err := p.endRows(); err != nil {
			return err
		}
	}
	m := p.m
	m.Start = append(m.Start, len(m.Index))
	for j, isInt := range m.Integer {
		if isInt && (p.bndLine == nil || p.bndLine[j] == 0) {
			m.ColUp[j] = 1
		}
	}
	for j := range m.ColLo {
		line := 0
		if p.bndLine != nil {
			line = p.bndLine[j]
		}
		if m.ColLo[j] > m.ColUp[j] {
			return &MPSError{Line: line, Msg: fmt.Sprintf("BOUNDS: column %q has lower bound %g above its upper bound %g", m.ColNames[j], m.ColLo[j], m.ColUp[j])}
		}
		if math.IsInf(m.ColLo[j], 1) || math.IsInf(m.ColUp[j], -1) {
			// Values of magnitude 1e30 or more are infinite: a column
			// at +Inf or −Inf has no value.
			return &MPSError{Line: line, Msg: fmt.Sprintf("BOUNDS: column %q has bounds [%g, %g], which contain no finite value", m.ColNames[j], m.ColLo[j], m.ColUp[j])}
		}
	}
	nr := len(p.rowType)
	m.RowLo = make([]float64, nr)
	m.RowUp = make([]float64, nr)
	for i, t := range p.rowType {
		b := p.rhs[i]
		lo, up := b, b
		switch t {
		case 'L':
			lo = math.Inf(-1)
		case 'G':
			up = inf
		}
		if p.hasRng[i] {
			r := p.rng[i]
			switch {
			case t == 'L':
				lo = b - math.Abs(r)
			case t == 'G':
				up = b + math.Abs(r)
			case r >= 0:
				up = b + r
			default:
				lo = b + r
			}
		}
		if !(lo < inf && up > math.Inf(-1)) { // also NaN: +Inf plus a range of −Inf
			line, what := p.rhsLn[i], "RHS"
			if math.IsInf(b, 0) && p.rngLn[i] != 0 {
				what = "RHS and RANGES"
			} else if !math.IsInf(b, 0) {
				line, what = p.rngLn[i], "RANGES"
			}
			return &MPSError{Line: line, Msg: fmt.Sprintf("%s: row %q (%c) gets the bounds [%g, %g], which no finite activity meets (values of magnitude 1e30 or more are infinite)",
				what, m.RowNames[i], t, lo, up)}
		}
		m.RowLo[i], m.RowUp[i] = lo, up
	}
	if m.ColNames == nil {
		m.ColNames = []string{}
		m.Obj, m.ColLo, m.ColUp, m.Integer = []float64{}, []float64{}, []float64{}, []bool{}
	}
	if m.RowNames == nil {
		m.RowNames = []string{}
	}
	if m.Index == nil {
		m.Index, m.Value = []int{}, []float64{}
	}
	return nil
}

// mpsClamp maps values of magnitude ≥ 1e30 to ±Inf.
func mpsClamp(v float64) float64 {
	if v >= mpsInfinity {
		return inf
	}
	if v <= -mpsInfinity {
		return math.Inf(-1)
	}
	return v
}

// parseMPSNumber parses a decimal number, also with a Fortran 'D' exponent.
// NaN is rejected; "Inf" and "Infinity" are accepted.
func parseMPSNumber(b []byte) (float64, error) {
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		if k := bytes.IndexAny(b, "dD"); k > 0 && len(b) <= 64 {
			var buf [64]byte
			c := append(buf[:0], b...)
			c[k] = 'e'
			v, err = strconv.ParseFloat(string(c), 64)
		}
		if err != nil {
			return 0, err
		}
	}
	if math.IsNaN(v) {
		return 0, errors.New("NaN")
	}
	return v, nil
}
