package spec

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// writeTree writes files under root (path → content).
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestFindMemoryLimit checks that the budget's base is the smallest of the
// machine's memory, the cgroup limits along the cgroup's path (v1 and v2)
// and the address-space limit.
func TestFindMemoryLimit(t *testing.T) {
	const gib = 1 << 30
	meminfo := "MemTotal:       16777216 kB\nMemFree: 1 kB\n" // 16 GiB
	for _, tc := range []struct {
		name  string
		files map[string]string
		as    int64
		want  int64
		what  string
	}{
		{"machine only", map[string]string{"proc/meminfo": meminfo}, 0, 16 * gib, "the machine's"},
		{"no files", map[string]string{}, 0, 0, ""},
		{"address space", map[string]string{"proc/meminfo": meminfo}, 3 * gib, 3 * gib, "the address-space limit (ulimit -v)"},
		{"v2 limit on an ancestor", map[string]string{
			"proc/meminfo":                      meminfo,
			"proc/self/cgroup":                  "0::/a/b\n",
			"sys/fs/cgroup/a/b/memory.max":      "max\n",
			"sys/fs/cgroup/a/memory.max":        strconv.Itoa(2*gib) + "\n",
			"sys/fs/cgroup/memory.max":          "max\n",
			"sys/fs/cgroup/other/memory.max":    "1\n",
			"sys/fs/cgroup/a/b/memory.swap.max": "0\n",
		}, 0, 2 * gib, "the cgroup memory limit"},
		{"v2 container root", map[string]string{
			"proc/meminfo":             meminfo,
			"proc/self/cgroup":         "0::/kubepods/pod1\n",
			"sys/fs/cgroup/memory.max": strconv.Itoa(5*gib) + "\n",
		}, 6 * gib, 5 * gib, "the cgroup memory limit"},
		{"v1 hybrid", map[string]string{
			"proc/meminfo":     meminfo,
			"proc/self/cgroup": "4:memory:/process_api/x\n3:cpuset:/\n0::/\n",
			"sys/fs/cgroup/memory/process_api/x/memory.limit_in_bytes": strconv.Itoa(gib) + "\n",
			"sys/fs/cgroup/memory/memory.limit_in_bytes":               "9223372036854771712\n",
		}, 0, gib, "the cgroup memory limit"},
		{"v1 no limit", map[string]string{
			"proc/meminfo":     meminfo,
			"proc/self/cgroup": "4:memory:/\n",
			"sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712\n",
		}, 0, 16 * gib, "the machine's"},
		{"v1 joint controllers", map[string]string{
			"proc/self/cgroup": "7:cpu,memory:/g\n",
			"sys/fs/cgroup/memory/g/memory.limit_in_bytes": strconv.Itoa(7*gib) + "\n",
		}, 0, 7 * gib, "the cgroup memory limit"},
		{"garbage", map[string]string{
			"proc/meminfo":             "MemTotal: lots\n",
			"proc/self/cgroup":         "nonsense\n0::/\n",
			"sys/fs/cgroup/memory.max": "-5\n",
		}, 0, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, tc.files)
			got, what := findMemoryLimit(root, tc.as)
			if got != tc.want || what != tc.what {
				t.Errorf("got %d (%q), want %d (%q)", got, what, tc.want, tc.what)
			}
		})
	}
}

// TestDefaultMemoryBudgetUlimit runs a child test process under
// ulimit -v and checks that its default budget is half of that limit,
// not half of the machine's memory.
func TestDefaultMemoryBudgetUlimit(t *testing.T) {
	if os.Getenv("LAZYCG_BUDGET_CHILD") == "1" {
		t.Setenv(MemoryEnvVar, "")
		b, src, err := DefaultMemoryBudget()
		if err != nil {
			t.Fatal(err)
		}
		os.Stdout.WriteString("BUDGET " + strconv.FormatInt(b, 10) + " " + src + "\n")
		return
	}
	if testing.Short() {
		t.Skip("starts a child process")
	}
	machine, _ := findMemoryLimit("/", 0)
	const limitKiB = 3 << 20 // 3 GiB: above a test binary's reservations
	if machine != 0 && machine <= limitKiB*1024 {
		t.Skipf("this machine allows only %d bytes", machine)
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	cmd := exec.Command(sh, "-c", "ulimit -v "+strconv.Itoa(limitKiB)+" && exec \"$0\" -test.run='^TestDefaultMemoryBudgetUlimit$' -test.v", os.Args[0])
	cmd.Env = append(os.Environ(), "LAZYCG_BUDGET_CHILD=1", MemoryEnvVar+"=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	want := "BUDGET " + strconv.Itoa(limitKiB*1024/2) + " half of the address-space limit (ulimit -v) "
	if !strings.Contains(string(out), want) {
		t.Errorf("child output lacks %q:\n%s", want, out)
	}
}
