package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/lazycg/lazycg/experiment"
	"github.com/lazycg/lazycg/internal/datadir"
	"github.com/lazycg/lazycg/lmo"
	"github.com/lazycg/lazycg/objective"
	"github.com/lazycg/lazycg/spec"
)

// hostileCase is one line of testdata/bad/cases.txt.
type hostileCase struct {
	line int
	code int
	args []string
	text string
}

// badDir is the directory of the hostile inputs.
const badDir = "../../testdata/bad"

func readHostileCases(t *testing.T) []hostileCase {
	f, err := os.Open(filepath.Join(badDir, "cases.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []hostileCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) < 2 || len(cols) > 3 {
			t.Fatalf("cases.txt:%d: want CODE<tab>ARGS[<tab>TEXT], got %q", n, line)
		}
		code, err := strconv.Atoi(cols[0])
		if err != nil {
			t.Fatalf("cases.txt:%d: bad exit code %q", n, cols[0])
		}
		c := hostileCase{line: n, code: code}
		if cols[1] != "(none)" {
			c.args = strings.Fields(cols[1])
		}
		if len(cols) == 3 {
			c.text = cols[2]
		}
		if code != 0 && c.text == "" {
			t.Fatalf("cases.txt:%d: a failing case needs the text its error must contain", n)
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

// readers are the library readers of the file formats that no spec reads.
var readers = map[string]func(path string) error{
	"mtx":    func(p string) error { _, err := objective.ReadMatrixMarketFile(p); return err },
	"csv":    func(p string) error { _, err := objective.ReadCSVFile(p); return err },
	"vector": func(p string) error { _, err := objective.ReadVectorFile(p); return err },
	"hull":   func(p string) error { _, err := lmo.ReadConvexHullFile(p); return err },
	"trace":  func(p string) error { _, err := experiment.ReadTraceFile(p); return err },
}

// TestHostileInputs runs the hostile-input sweep of testdata/bad/cases.txt:
// every case must end with its exit code and, when it fails, exactly one
// line on stderr that says what is wrong. No case may panic.
func TestHostileInputs(t *testing.T) {
	if testing.Short() {
		t.Skip("the sweep solves small MIPs and runs small suites")
	}
	// A fixed budget makes the memory cases independent of the machine.
	t.Setenv(spec.MemoryEnvVar, "16GiB")
	bad, err := filepath.Abs(badDir)
	if err != nil {
		t.Fatal(err)
	}
	data, haveData := datadir.Find("")
	counts := map[int]int{}
	cases := readHostileCases(t)
	for _, c := range cases {
		name := fmt.Sprintf("line%d", c.line)
		t.Run(name, func(t *testing.T) {
			tmp := t.TempDir()
			args := make([]string, len(c.args))
			for i, a := range c.args {
				if strings.Contains(a, "{data}") && !haveData {
					t.Skip("benchmark data not found")
				}
				a = strings.ReplaceAll(a, "{bad}", bad)
				a = strings.ReplaceAll(a, "{data}", data)
				args[i] = strings.ReplaceAll(a, "{tmp}", tmp)
			}
			var code int
			var stderr string
			if len(args) > 0 && args[0] == "read" {
				code, stderr = runReader(t, args)
			} else {
				var o, e bytes.Buffer
				code = exitCode(run(context.Background(), args, &o, &e), &e)
				stderr = e.String()
			}
			counts[code]++
			if code != c.code {
				t.Fatalf("cases.txt:%d: lazycg %s: exit %d, want %d; stderr:\n%s", c.line, strings.Join(args, " "), code, c.code, stderr)
			}
			if code == 0 {
				return
			}
			msg := strings.TrimSuffix(stderr, "\n")
			if len(args) > 0 && args[0] == "bench" {
				// The runner's progress log comes first.
				msg = msg[strings.LastIndex(msg, "\n")+1:]
				if strings.Count(stderr, "lazycg: ") != 1 {
					t.Fatalf("cases.txt:%d: lazycg %s: more than one error line:\n%s", c.line, strings.Join(args, " "), stderr)
				}
			}
			if strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "lazycg: ") {
				t.Fatalf("cases.txt:%d: lazycg %s: stderr is not one line \"lazycg: ...\":\n%s", c.line, strings.Join(args, " "), stderr)
			}
			t.Log(strings.ReplaceAll(msg, bad, "{bad}"))
			if !strings.Contains(msg, strings.ReplaceAll(c.text, "{bad}", bad)) {
				t.Fatalf("cases.txt:%d: lazycg %s: error %q lacks %q", c.line, strings.Join(args, " "), msg, c.text)
			}
		})
	}
	t.Logf("%d cases: %d exit 0, %d exit 1, %d exit 2", len(cases), counts[0], counts[1], counts[2])
}

// runReader runs "read FORMAT FILE": code 2 and the error (one line with
// the "lazycg: " prefix of the CLI) when the reader rejects the file.
func runReader(t *testing.T, args []string) (int, string) {
	if len(args) != 3 || readers[args[1]] == nil {
		t.Fatalf("want read FORMAT FILE with a format of %v, got %q", readers, args)
	}
	err := readers[args[1]](args[2])
	if err == nil {
		return 0, ""
	}
	return exitUsage, "lazycg: " + err.Error() + "\n"
}
