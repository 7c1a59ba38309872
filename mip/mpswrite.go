package mip

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode"
)

// WriteMPS writes m in free MPS format, readable by ReadMPS and by other
// solvers (e.g. "cbc FILE -solve"): NAME, OBJSENSE MAX when m.Maximize,
// ROWS (E, L, G; ranged rows as L with a RANGES entry; free rows as N rows,
// which readers drop), COLUMNS with 'MARKER' blocks around integer columns,
// RHS (including the negated objective constant), RANGES and explicit
// BOUNDS for every column. Numbers are written with 17 significant digits,
// so ReadMPS returns the same model, except that the lower bound of a
// ranged row comes back as up − (up − lo) in floating point, which may
// differ from lo in its last bits (7.469999999999999 for [7.47, 21.68]).
// Names that are empty, contain white space or control characters (line
// breaks), repeat, or name a row OBJ (the objective row's name) are
// replaced by C<j> and R<i>. A finite bound, right-hand side, range or
// objective constant of magnitude 1e30 or more is an error (nothing is
// written): MPS readers, ReadMPS and CBC's included, read such values as
// infinite, so the file would describe another model.
func WriteMPS(w io.Writer, m *Model) error {
	if err := checkModel(m); err != nil {
		return err
	}
	if err := mpsWritable(m); err != nil {
		return err
	}
	if m.Known != nil {
		// Not part of the format.
		c := *m
		c.Known = nil
		m = &c
	}
	const obj = "OBJ"
	cols := mpsNames(m.ColNames, m.NumCols(), "C", "")
	rows := mpsNames(m.RowNames, m.NumRows(), "R", obj)
	bw := bufio.NewWriter(w)
	num := func(v float64) string { return strconv.FormatFloat(v, 'g', 17, 64) }
	name := m.Name
	if !mpsNameOK(name) {
		name = "MODEL"
	}
	fmt.Fprintf(bw, "NAME %s\n", name)
	if m.Maximize {
		fmt.Fprintf(bw, "OBJSENSE\n    MAX\n")
	}
	fmt.Fprintf(bw, "ROWS\n N %s\n", obj)
	for i := range m.NumRows() {
		lo, up := m.RowLo[i], m.RowUp[i]
		kind := "E"
		switch {
		case math.IsInf(lo, -1) && math.IsInf(up, 1):
			kind = "N"
		case lo == up:
		case math.IsInf(lo, -1) || !math.IsInf(up, 1):
			kind = "L"
		default:
			kind = "G"
		}
		fmt.Fprintf(bw, " %s %s\n", kind, rows[i])
	}
	fmt.Fprintf(bw, "COLUMNS\n")
	inInt := false
	for j := range m.NumCols() {
		if m.Integer[j] != inInt {
			marker := "INTORG"
			if inInt {
				marker = "INTEND"
			}
			fmt.Fprintf(bw, "    MARKER 'MARKER' '%s'\n", marker)
			inInt = m.Integer[j]
		}
		if m.Obj[j] != 0 {
			fmt.Fprintf(bw, "    %s %s %s\n", cols[j], obj, num(m.Obj[j]))
		}
		for k := m.Start[j]; k < m.Start[j+1]; k++ {
			fmt.Fprintf(bw, "    %s %s %s\n", cols[j], rows[m.Index[k]], num(m.Value[k]))
		}
		if m.Obj[j] == 0 && m.Start[j] == m.Start[j+1] {
			fmt.Fprintf(bw, "    %s %s 0\n", cols[j], obj) // declare the column
		}
	}
	if inInt {
		fmt.Fprintf(bw, "    MARKER 'MARKER' 'INTEND'\n")
	}
	fmt.Fprintf(bw, "RHS\n")
	if m.ObjConst != 0 {
		fmt.Fprintf(bw, "    RHS %s %s\n", obj, num(-m.ObjConst))
	}
	var ranged []int
	for i := range m.NumRows() {
		lo, up := m.RowLo[i], m.RowUp[i]
		var rhs float64
		switch {
		case math.IsInf(lo, -1) && math.IsInf(up, 1):
			continue
		case lo == up || math.IsInf(up, 1):
			rhs = lo
		default:
			rhs = up
			if !math.IsInf(lo, -1) {
				ranged = append(ranged, i)
			}
		}
		if rhs != 0 {
			fmt.Fprintf(bw, "    RHS %s %s\n", rows[i], num(rhs))
		}
	}
	if len(ranged) > 0 {
		fmt.Fprintf(bw, "RANGES\n")
		for _, i := range ranged {
			fmt.Fprintf(bw, "    RNG %s %s\n", rows[i], num(m.RowUp[i]-m.RowLo[i]))
		}
	}
	fmt.Fprintf(bw, "BOUNDS\n")
	for j := range m.NumCols() {
		lo, up := m.ColLo[j], m.ColUp[j]
		switch {
		case lo == up:
			fmt.Fprintf(bw, " FX BND %s %s\n", cols[j], num(lo))
			continue
		case math.IsInf(lo, -1) && math.IsInf(up, 1):
			fmt.Fprintf(bw, " FR BND %s\n", cols[j])
			continue
		case math.IsInf(lo, -1):
			fmt.Fprintf(bw, " MI BND %s\n", cols[j])
		case lo != 0:
			fmt.Fprintf(bw, " LO BND %s %s\n", cols[j], num(lo))
		}
		if math.IsInf(up, 1) {
			fmt.Fprintf(bw, " PL BND %s\n", cols[j])
		} else {
			fmt.Fprintf(bw, " UP BND %s %s\n", cols[j], num(up))
		}
	}
	fmt.Fprintf(bw, "ENDATA\n")
	return bw.Flush()
}

// mpsWritable returns an error when a finite bound, right-hand side,
// range or objective constant of m would be read back as infinite.
func mpsWritable(m *Model) error {
	const why = "has magnitude 1e30 or more, which MPS readers (ReadMPS and CBC's included) read as infinite"
	big := func(v float64) bool { return !math.IsInf(v, 0) && math.Abs(v) >= mpsInfinity }
	// bounds checks the bounds [lo, up] of column or row k; ranged rows
	// also their range up − lo.
	bounds := func(kind string, names []string, k int, lo, up float64, ranged bool) error {
		name := fmt.Sprintf("%s%d", strings.ToUpper(kind[:1]), k) // as mpsNames
		if k < len(names) && names[k] != "" {
			name = fmt.Sprintf("%q", names[k])
		}
		switch {
		case big(lo):
			return fmt.Errorf("mip: WriteMPS: %s %s: lower bound %g %s", kind, name, lo, why)
		case big(up):
			return fmt.Errorf("mip: WriteMPS: %s %s: upper bound %g %s", kind, name, up, why)
		case ranged && lo != up && !math.IsInf(lo, 0) && !math.IsInf(up, 0) && up-lo >= mpsInfinity:
			return fmt.Errorf("mip: WriteMPS: %s %s: the range %g of [%g, %g] %s", kind, name, up-lo, lo, up, why)
		}
		return nil
	}
	if big(m.ObjConst) {
		return fmt.Errorf("mip: WriteMPS: the objective constant %g %s", m.ObjConst, why)
	}
	for j := range m.NumCols() {
		if err := bounds("column", m.ColNames, j, m.ColLo[j], m.ColUp[j], false); err != nil {
			return err
		}
	}
	for i := range m.NumRows() {
		if err := bounds("row", m.RowNames, i, m.RowLo[i], m.RowUp[i], true); err != nil {
			return err
		}
	}
	return nil
}

// mpsNames returns names usable in free MPS: the given ones where they are
// non-empty, free of white space and control characters (a line break in a
// name would break its line), unique and not reserved, prefix<k> otherwise
// (with underscores appended until it is unique and not reserved).
func mpsNames(names []string, n int, prefix, reserved string) []string {
	out := make([]string, n)
	seen := make(map[string]bool, n+1)
	if reserved != "" {
		seen[reserved] = true
	}
	for k := range out {
		s := ""
		if k < len(names) {
			s = names[k]
		}
		if !mpsNameOK(s) || seen[s] || s[0] == '*' {
			s = fmt.Sprintf("%s%d", prefix, k)
		}
		for seen[s] {
			s += "_"
		}
		seen[s] = true
		out[k] = s
	}
	return out
}

// mpsNameOK reports whether s can be written as a name in free MPS: it is
// non-empty and has no white space or control characters.
func mpsNameOK(s string) bool {
	return s != "" && !strings.ContainsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) })
}
