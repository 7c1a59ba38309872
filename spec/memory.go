package spec

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Memory: every polytope, objective and loss stream estimates the memory
// a run over it needs before it allocates anything large, and a spec
// above the memory budget is refused with an error that names the
// estimate and the budget (instead of a run killed by the kernel or a Go
// out-of-memory crash). The estimates are upper bounds calibrated on
// measured peak resident memory; they cover the instance, the objective
// and the run's fixed working vectors. The vertex cache is bounded by its
// own budget (CacheBytes), and the active sets of the active-set methods
// grow with the iterations: neither is part of the estimate.

// MemoryEnvVar names the environment variable that sets the default
// memory budget (a size such as "8GiB"; see ParseBytes).
const MemoryEnvVar = "LAZYCG_MEMORY"

// runVectors is the number of float64 vectors of the problem's dimension
// that a run keeps besides the instance and the objective: the driver's
// iterate, gradient and best point, the method's directions and vertices.
// Peak resident memory of cg, lcg, afw and lpcg on simplex:4000000
// measured 6.3 to 8.4 such vectors.
const runVectors = 10

// MIP polytopes: bytes per constraint nonzero and per row or column of a
// model held by the Go model and CBC, from peak resident memory of short
// runs on nw04, air04, tsp:200 and cut:300 (470 to 850 bytes per nonzero
// with rows and columns counted).
const (
	mipBytesPerNonzero = 600
	mipBytesPerLine    = 300
)

// fileBytesFactor bounds the memory of a parsed instance file per byte of
// its (uncompressed) text.
const fileBytesFactor = 4

// memoryLimit is the memory this process may use and what bounds it
// (found once; 0 when unknown).
var memoryLimit = sync.OnceValues(func() (int64, string) {
	return findMemoryLimit("/", addressSpaceLimit())
})

// findMemoryLimit returns the smallest of the machine's memory (MemTotal
// of root/proc/meminfo), the memory limit of the process's cgroup (v2
// memory.max or v1 memory.limit_in_bytes, the smallest along the cgroup's
// path and its ancestors under root/sys/fs/cgroup) and the address-space
// limit addressSpace (ulimit -v; 0: none), with a description of where it
// comes from. It returns 0 when none is known. root is "/" except in tests.
func findMemoryLimit(root string, addressSpace int64) (int64, string) {
	best, what := int64(0), ""
	take := func(v int64, desc string) {
		if v > 0 && (best == 0 || v < best) {
			best, what = v, desc
		}
	}
	take(memTotal(filepath.Join(root, "proc", "meminfo")), "the machine's")
	take(cgroupLimit(root), "the cgroup memory limit")
	take(addressSpace, "the address-space limit (ulimit -v)")
	return best, what
}

// memTotal reads MemTotal of a meminfo file (0 when unknown).
func memTotal(path string) int64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			kb, err := strconv.ParseInt(fields[1], 10, 64)
			if err == nil && kb > 0 && kb < math.MaxInt64/1024 {
				return kb * 1024
			}
		}
	}
	return 0
}

// noCgroupLimit: cgroup v1 writes "no limit" as a number near 2^63.
const noCgroupLimit = 1 << 62

// cgroupLimit returns the smallest memory limit of the process's cgroups
// (0 when none): for each line of root/proc/self/cgroup that names the
// memory controller (v1) or the unified hierarchy (v2), the limit files
// of the cgroup's directory and of every ancestor up to the hierarchy's
// root. A directory that does not exist (a container sees its own cgroup
// as the root) is skipped; the root's file still counts.
func cgroupLimit(root string) int64 {
	data, err := os.ReadFile(filepath.Join(root, "proc", "self", "cgroup"))
	if err != nil {
		return 0
	}
	best := int64(0)
	for _, line := range strings.Split(string(data), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		var dir, file string
		switch {
		case parts[0] == "0" && parts[1] == "":
			dir, file = filepath.Join(root, "sys", "fs", "cgroup"), "memory.max"
		case slices.Contains(strings.Split(parts[1], ","), "memory"):
			dir, file = filepath.Join(root, "sys", "fs", "cgroup", "memory"), "memory.limit_in_bytes"
		default:
			continue
		}
		rel := filepath.Clean("/" + parts[2])
		for {
			if v := readCgroupValue(filepath.Join(dir, rel, file)); v > 0 && (best == 0 || v < best) {
				best = v
			}
			if rel == "/" {
				break
			}
			rel = filepath.Dir(rel)
		}
	}
	return best
}

// readCgroupValue reads a cgroup limit file: a number of bytes, or "max"
// (v2) or a number ≥ 2^62 (v1) for none. It returns 0 for none or when
// the file is missing or unreadable.
func readCgroupValue(path string) int64 {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	v, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	if err != nil || v <= 0 || v >= noCgroupLimit {
		return 0
	}
	return v
}

// fallbackBudget is the budget when the machine's memory is unknown.
const fallbackBudget = 4 << 30

// DefaultMemoryBudget returns the memory budget of runs that set none and
// where it comes from: $LAZYCG_MEMORY when set, else half of the memory
// the process may use: the smallest of the machine's memory (MemTotal of
// /proc/meminfo), its cgroup's memory limit and its address-space limit
// (ulimit -v); else 4 GiB. A negative budget means none.
func DefaultMemoryBudget() (budget int64, source string, err error) {
	if v := os.Getenv(MemoryEnvVar); v != "" {
		b, err := ParseBytes(v)
		if err != nil {
			return 0, "", fmt.Errorf("spec: $%s %w", MemoryEnvVar, err)
		}
		return b, "$" + MemoryEnvVar, nil
	}
	if m, what := memoryLimit(); m > 0 {
		return m / 2, "half of " + what + " " + FormatBytes(float64(m)), nil
	}
	return fallbackBudget, "default", nil
}

// ParseBytes reads a memory size: a number of bytes ("1e9", "4096") or a
// number with a unit K, M, G, T (powers of 1000) or KiB, MiB, GiB, TiB
// (powers of 1024), case-insensitive, with an optional "B" ("512MB",
// "8GiB"). "-1" means no limit and is returned as −1. The error names
// neither the setting nor the source.
func ParseBytes(value string) (int64, error) {
	v := strings.TrimSpace(value)
	if v == "-1" {
		return -1, nil
	}
	lower := strings.ToLower(v)
	mult := 1.0
	for _, u := range []struct {
		suffix string
		mult   float64
	}{{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"tib", 1 << 40},
		{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"tb", 1e12}, {"k", 1e3}, {"m", 1e6}, {"g", 1e9}, {"t", 1e12}, {"b", 1}} {
		if strings.HasSuffix(lower, u.suffix) {
			lower, mult = strings.TrimSpace(strings.TrimSuffix(lower, u.suffix)), u.mult
			break
		}
	}
	f, err := strconv.ParseFloat(lower, 64)
	b := f * mult
	if err != nil || !(b >= 0) || b > 1<<60 {
		return 0, fmt.Errorf("must be a size such as \"8GiB\", \"512MB\" or a number of bytes (-1: no limit), got %q", value)
	}
	return int64(b), nil
}

// FormatBytes formats a size for messages ("12.3 GB").
func FormatBytes(b float64) string {
	switch {
	case b >= 1e12:
		return fmt.Sprintf("%.3g TB", b/1e12)
	case b >= 1e9:
		return fmt.Sprintf("%.3g GB", b/1e9)
	case b >= 1e6:
		return fmt.Sprintf("%.3g MB", b/1e6)
	case b >= 1e3:
		return fmt.Sprintf("%.3g kB", b/1e3)
	}
	return fmt.Sprintf("%.0f B", b)
}

// memAccount adds up the estimates of one run's parts (polytope,
// objective or losses) against the budget.
type memAccount struct {
	budget int64 // < 0: none
	source string
	used   float64
	copies int // solver instances of a MIP model (Options.SolverCopies; ≥ 1)
}

// newMemAccount returns the account of budget (0: DefaultMemoryBudget).
func newMemAccount(budget int64) (*memAccount, error) {
	if budget != 0 {
		return &memAccount{budget: budget, source: "-memory"}, nil
	}
	b, src, err := DefaultMemoryBudget()
	if err != nil {
		return nil, err
	}
	return &memAccount{budget: b, source: src}, nil
}

// reserve adds bytes for what (described by detail) to the account and
// fails when the total exceeds the budget. A nil account has no budget.
func (a *memAccount) reserve(what, detail string, bytes float64) error {
	if a == nil {
		return nil
	}
	a.used += bytes
	if a.budget < 0 || a.used <= float64(a.budget) {
		return nil
	}
	detail = strings.TrimSpace(detail)
	if a.used > bytes {
		detail = strings.TrimPrefix(detail+fmt.Sprintf("; the whole run about %s", FormatBytes(a.used)), "; ")
	}
	if detail != "" {
		detail = " (" + detail + ")"
	}
	return fmt.Errorf("spec: %s needs about %s of memory%s, more than the memory budget of %s (%s); raise it with -memory or $%s",
		what, FormatBytes(bytes), detail, FormatBytes(float64(a.budget)), a.source, MemoryEnvVar)
}

// usedBytes returns the bytes reserved so far (0 for a nil account).
func (a *memAccount) usedBytes() float64 {
	if a == nil {
		return 0
	}
	return a.used
}

// fits fails as reserve would if bytes more were reserved, without
// reserving them: a check ahead of building parts whose estimates are
// known (the copies of a product's factor).
func (a *memAccount) fits(what, detail string, bytes float64) error {
	if a == nil || bytes <= 0 || a.budget < 0 || a.used+bytes <= float64(a.budget) {
		return nil
	}
	b := *a
	return b.reserve(what, detail, bytes)
}

// reserveDim reserves a polytope of dimension dim whose oracle keeps
// about own bytes, plus the run's working vectors.
func (a *memAccount) reserveDim(s *Spec, dim, own float64) error {
	return a.reserve(fmt.Sprintf("polytope %q", s.Text),
		fmt.Sprintf("dimension %.4g: %d vectors of %s", dim, runVectors, FormatBytes(8*dim)),
		own+runVectors*8*dim)
}

// reserveMIP reserves a MIP model with the given size held by the Go
// model and CBC, plus the run's working vectors over dim coordinates.
func (a *memAccount) reserveMIP(s *Spec, rows, cols, nonzeros, dim float64) error {
	what := fmt.Sprintf("a MIP model with %.4g rows, %.4g columns and %.4g nonzeros", rows, cols, nonzeros)
	copies := max(a.copies, 1)
	if copies > 1 {
		what += fmt.Sprintf(", loaded %d times (-stale fork, race, race-copy or ahead)", copies)
	}
	return a.reserve(fmt.Sprintf("polytope %q", s.Text), what,
		float64(copies)*(mipBytesPerNonzero*nonzeros+mipBytesPerLine*(rows+cols))+runVectors*8*dim)
}

// lineCapacity returns how many more rows or columns of a MIP model the
// budget can hold (at mipBytesPerLine each, per solver copy), a limit for
// counts that may stop early: a model with more is refused whatever its
// nonzeros. It returns −1 without a budget (a nil account or a negative
// budget).
func (a *memAccount) lineCapacity() int {
	if a == nil || a.budget < 0 {
		return -1
	}
	left := float64(a.budget) - a.used
	return int(max(0, min(left/(mipBytesPerLine*float64(max(a.copies, 1))), math.MaxInt32)))
}

// leastSquaresBytes bounds the memory of a random least squares
// objective ‖Ax − b‖² (objective.RandomLeastSquares) with a rows×cols
// matrix A of about nnz nonzeros: A in CSR form with the generator's
// spare capacity, and the CSC copy its first gradient builds (an index
// and a value per nonzero in each), the row and column pointers, b (twice
// while it is scaled), the residual and the working vectors over rows and
// columns, and the rounding of its dozen large allocations to pages.
func leastSquaresBytes(rows, cols, nnz float64) float64 {
	return 16*(nnz+6*math.Sqrt(nnz)+16) + 16*nnz + 64*(rows+cols) + 1<<17
}

// reserveFile reserves the parsed form of an instance file: about
// fileBytesFactor bytes per byte of its text, the size of a gzip file's
// content read from its trailer (modulo 4 GiB, as gzip records it; at
// least the compressed size).
func (a *memAccount) reserveFile(s *Spec, path string) error {
	size, err := textSize(path)
	if err != nil {
		return fmt.Errorf("spec: %q: %w", s.Text, err)
	}
	return a.reserve(fmt.Sprintf("file %s", path), fmt.Sprintf("%s of text", FormatBytes(size)), fileBytesFactor*size)
}

// textSize returns the size of a file's text: its size, or for a gzip
// file the larger of its size and the uncompressed size in its trailer.
func textSize(path string) (float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	if st.IsDir() {
		return 0, fmt.Errorf("%s is a directory", path)
	}
	size := float64(st.Size())
	var magic [2]byte
	if _, err := io.ReadFull(f, magic[:]); err != nil || magic != [2]byte{0x1f, 0x8b} || st.Size() < 20 {
		return size, nil
	}
	var trailer [4]byte
	if _, err := f.ReadAt(trailer[:], st.Size()-4); err != nil {
		return size, nil
	}
	return math.Max(size, float64(binary.LittleEndian.Uint32(trailer[:]))), nil
}
