package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// row is a JSON line of lazycg.jsonl, cbc.jsonl or sep.jsonl (the fields
// of all three).
type row struct {
	Model, Cost, Target string
	CPU                 float64  `json:"cpu_s"`
	User                *float64 `json:"user_s"` // run 3 on: user time alone
	Clock               string   // cbc rows from run 3 on: "user+sys"
	Capped              bool
	Found               bool
	Reason              string
	Value               any
	Bound               any
	Nodes               any
	Result              string
	Cap                 float64 `json:"cap_s"`
	SepCalls            int     `json:"sep_calls"`
	ExactCPU            float64 `json:"exact_cpu_s"`
	EarlyCPU            float64 `json:"early_cpu_s"`
	Ratio               float64
	Improving           int
	Certified           int
	ExactCapped         int     `json:"exact_capped"`
	EarlyCapped         int     `json:"early_capped"`
	CallLimit           float64 `json:"call_limit_s"`
	Search              string  `json:"search_used"`
	Runs                int     `json:"-"`
}

// readRows returns the rows of a JSON-lines file by key, for a key
// measured several times the one with the median CPU time, and the keys in
// order of first appearance.
func readRows(path string, key func(row) string) (map[string]row, []string, error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return map[string]row{}, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	all := map[string][]row{}
	var order []string
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		var r row
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, nil, fmt.Errorf("%s:%d: %v", path, line, err)
		}
		k := key(r)
		if _, ok := all[k]; !ok {
			order = append(order, k)
		}
		all[k] = append(all[k], r)
	}
	rows := make(map[string]row, len(all))
	for k, rs := range all {
		sort.Slice(rs, func(a, b int) bool { return rs[a].CPU < rs[b].CPU })
		r := rs[len(rs)/2]
		r.Runs = len(rs)
		rows[k] = r
	}
	return rows, order, sc.Err()
}

// variants are lazycg's configurations in the tables: the JSON-lines
// file of each (written by scripts/bench-oracle.sh) and its column.
var variants = []struct{ file, column string }{
	{"lazycg.jsonl", "lazycg default"},
	{"lazycg-off.jsonl", "no preprocessing"},
	{"lazycg-pre.jsonl", "preprocessing on every call"},
	{"lazycg-search.jsonl", "other search"},
}

// table prints the comparison and separation tables of dir.
func table(w io.Writer, dir string) error {
	key := func(r row) string { return r.Model + "|" + r.Cost + "|" + r.Target }
	var vs []map[string]row
	var cols []string
	var order []string
	named := map[string]row{} // a row of each key, for its names
	for _, v := range variants {
		rows, o, err := readRows(filepath.Join(dir, v.file), key)
		if err != nil {
			return err
		}
		if len(rows) == 0 {
			continue // a configuration this run did not measure
		}
		vs = append(vs, rows)
		cols = append(cols, v.column)
		for _, k := range o {
			if _, ok := named[k]; !ok {
				named[k] = rows[k]
				order = append(order, k)
			}
		}
	}
	cb, _, err := readRows(filepath.Join(dir, "cbc.jsonl"), key)
	if err != nil {
		return err
	}
	userClock := false // cbc's cpu_s is user time alone (runs 1 and 2)
	for _, c := range cb {
		userClock = userClock || c.Clock == ""
	}
	head := "| instance | objective | target | runs | cbc |"
	align := "|---|---|---|---:|---:|"
	for _, c := range cols {
		head += " " + c + " | ratio |"
		align += "---:|---:|"
	}
	if !userClock {
		head += " ratio in user time |"
		align += "---:|"
	}
	if userClock {
		fmt.Fprintln(w, "CPU seconds (lazycg: user + system; cbc: user, its printed total), median of the runs, and lazycg's time over cbc's (\"other search\": the search SearchAuto does not pick):")
	} else {
		fmt.Fprintln(w, "CPU seconds (user + system, both), median of the runs, and lazycg's time over cbc's (\"other search\": the search SearchAuto does not pick); the last column compares user time alone (the clock of cbc's printed total):")
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, head)
	fmt.Fprintln(w, align)
	for _, k := range order {
		l := named[k]
		c, ok := cb[k]
		ccap := ok && cbcCapped(c)
		var cells []string
		for i, v := range vs {
			if r, ok2 := v[k]; ok2 {
				t := secs(r.CPU, r.Capped, r.Cap)
				if cols[i] == "other search" {
					t += " (" + r.Search + ")"
				}
				cells = append(cells, t, ratio(r, c, ok, ccap))
			} else {
				cells = append(cells, "—", "—")
			}
		}
		cs := "—"
		if ok {
			cs = secs(c.CPU, ccap, c.Cap)
		}
		if !userClock {
			cells = append(cells, userRatio(vs[0][k], c, ok, ccap))
		}
		fmt.Fprintf(w, "| %s | %s | %s | %d | %s | %s |\n", l.Model, l.Cost, l.Target, runs(vs, k), cs, strings.Join(cells, " | "))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Answers (value, stop reason, bound, nodes):")
	fmt.Fprintln(w)
	head, align = "| instance | objective | target | cbc |", "|---|---|---|---|"
	for _, c := range cols {
		head += " " + c + " |"
		align += "---|"
	}
	fmt.Fprintln(w, head)
	fmt.Fprintln(w, align)
	for _, k := range order {
		l := named[k]
		cells := []string{"—"}
		if c, ok := cb[k]; ok {
			cells[0] = fmt.Sprintf("%s (%s, bound %s, %v nodes)", num(c.Value), strings.TrimSpace(c.Result), num(c.Bound), c.Nodes)
		}
		for _, v := range vs {
			if r, ok := v[k]; ok {
				cells = append(cells, answer(r))
			} else {
				cells = append(cells, "—")
			}
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", l.Model, l.Cost, l.Target, strings.Join(cells, " | "))
	}
	sp, sorder, err := readRows(filepath.Join(dir, "sep.jsonl"), func(r row) string { return r.Model })
	if err != nil || len(sorder) == 0 {
		return err
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| instance | calls | exact calls, CPU s | early-terminated calls, CPU s | ratio | answers (improving / certified) |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---|")
	for _, k := range sorder {
		r := sp[k]
		// Exact calls cut by the call limit make the exact time a lower
		// bound, hence the ratio an upper bound.
		exact, ratio := fmt.Sprintf("%.3f", r.ExactCPU), fmt.Sprintf("**%.2g**", r.Ratio)
		if r.ExactCapped > 0 {
			exact = fmt.Sprintf("≥ %.3f (%d of %d at the %g s limit)", r.ExactCPU, r.ExactCapped, r.SepCalls, r.CallLimit)
			ratio = fmt.Sprintf("**≤ %.2g**", r.Ratio)
		}
		answers := fmt.Sprintf("%d / %d", r.Improving, r.Certified)
		if r.EarlyCapped > 0 {
			answers += fmt.Sprintf(" (%d at the limit, unanswered)", r.EarlyCapped)
		}
		fmt.Fprintf(w, "| %s | %d | %s | %.3f | %s | %s |\n", r.Model, r.SepCalls, exact, r.EarlyCPU, ratio, answers)
	}
	return nil
}

// userRatio formats lazycg's user time over cbc's ("—" where either row
// lacks it or was capped).
func userRatio(l, c row, ok, ccap bool) string {
	if !ok || ccap || l.Capped || l.User == nil || c.User == nil || *c.User <= 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f", *l.User / *c.User)
}

// ratio formats lazycg's CPU time over cbc's.
func ratio(l, c row, ok, ccap bool) string {
	switch {
	case !ok:
		return "no cbc run"
	case !l.Capped && !ccap && c.CPU > 0:
		return fmt.Sprintf("%.2f", l.CPU/c.CPU)
	case !l.Capped && ccap:
		return fmt.Sprintf("< %.2f", l.CPU/c.Cap)
	case l.Capped && !ccap && c.CPU > 0:
		return fmt.Sprintf("> %.2f", l.CPU/c.CPU)
	}
	return "—"
}

// answer describes a lazycg row's result.
func answer(l row) string {
	if l.Found {
		return fmt.Sprintf("%v (%s, bound %v, %v nodes)", num(l.Value), l.Reason, num(l.Bound), l.Nodes)
	}
	return fmt.Sprintf("%s, %v nodes", l.Reason, l.Nodes)
}

// cbcCapped reports whether a cbc run stopped on its time limit.
func cbcCapped(r row) bool {
	return strings.Contains(r.Result, "Stopped on time") || r.Cap > 0 && r.CPU >= r.Cap
}

func secs(t float64, capped bool, limit float64) string {
	if capped {
		if limit == 0 {
			limit = 300
		}
		return fmt.Sprintf("> %g", limit)
	}
	return fmt.Sprintf("%.2f", t)
}

// num formats a JSON number or numeric string compactly.
func num(v any) string {
	switch v := v.(type) {
	case nil:
		return "—"
	case float64:
		return fmt.Sprintf("%.10g", v)
	case string:
		if v == "" {
			return "—"
		}
		return v
	}
	return fmt.Sprint(v)
}

// runs returns the most runs any variant made of key k.
func runs(vs []map[string]row, k string) int {
	n := 0
	for _, v := range vs {
		n = max(n, v[k].Runs)
	}
	return n
}
