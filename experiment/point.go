package experiment

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"os"
	"strings"
)

// PointSuffix ends the name of the file, beside a run's trace, that holds
// the last point an online run played (RunResult.LastPoint).
const PointSuffix = ".point.json"

// maxPointDim bounds the dimension a point file may declare, so that a
// damaged file cannot ask for an allocation of any size.
const maxPointDim = 1 << 28

// SavedPoint is a point of the polytope saved by a run: the last point an
// online run played. Any such point bounds the best fixed point's loss in
// hindsight from above, for any run on the same polytope, which is how
// Rehindsight uses the points of all runs of an experiment.
type SavedPoint struct {
	// Label is the run's label, Fingerprint its inputs' fingerprint.
	Label       string
	Fingerprint string
	// Rounds is the round in which the run played X.
	Rounds int
	X      []float64
}

// pointJSON is the file form of a SavedPoint: sparse, since the points of
// 0/1 polytopes mostly are.
type pointJSON struct {
	Label       string    `json:"label"`
	Fingerprint string    `json:"fingerprint"`
	Rounds      int       `json:"rounds"`
	Dim         int       `json:"dim"`
	Index       []int     `json:"index"`
	Value       []float64 `json:"value"`
	// Sum is pointSum of the coordinates: a damaged or edited file whose
	// values no longer match it is refused. Files written before it was
	// added (2026-12-02) have none and are read unchecked.
	Sum string `json:"sum,omitempty"`
}

// pointSum is the FNV-1a 64-bit hash, in hex, of the dimension and of
// every stored (index, value) pair, the values by their exact bits.
func pointSum(dim int, index []int, value []float64) string {
	h := fnv.New64a()
	var b [8]byte
	put := func(u uint64) {
		binary.LittleEndian.PutUint64(b[:], u)
		h.Write(b[:])
	}
	put(uint64(dim))
	for k, i := range index {
		put(uint64(i))
		put(math.Float64bits(value[k]))
	}
	return fmt.Sprintf("%016x", h.Sum64())
}

// WritePointFile writes p to path (JSON; the nonzero coordinates only,
// each float64 exactly).
func WritePointFile(path string, p SavedPoint) error {
	pj := pointJSON{Label: p.Label, Fingerprint: p.Fingerprint, Rounds: p.Rounds, Dim: len(p.X), Index: []int{}, Value: []float64{}}
	for i, v := range p.X {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("experiment: point of %s: coordinate %d is %g", p.Label, i, v)
		}
		if v != 0 {
			pj.Index = append(pj.Index, i)
			pj.Value = append(pj.Value, v)
		}
	}
	pj.Sum = pointSum(pj.Dim, pj.Index, pj.Value)
	return writeJSON(path, &pj)
}

// ReadPointFile reads a point written by WritePointFile. A damaged file is
// an error naming it: unknown fields, a dimension out of range, indices
// out of range or not increasing, values that are not finite, values that
// do not match the file's checksum.
func ReadPointFile(path string) (SavedPoint, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return SavedPoint{}, fmt.Errorf("experiment: %w", err)
	}
	p, err := parsePoint(b)
	if err != nil {
		return SavedPoint{}, fmt.Errorf("experiment: %s: %w", path, err)
	}
	return p, nil
}

// parsePoint decodes and checks the JSON form of a saved point.
func parsePoint(b []byte) (SavedPoint, error) {
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	var pj pointJSON
	if err := dec.Decode(&pj); err != nil {
		return SavedPoint{}, fmt.Errorf("not a saved point: %w", err)
	}
	// dec.More is false before a stray ']' or '}': only the end of the
	// input ends the file.
	if _, err := dec.Token(); err != io.EOF {
		return SavedPoint{}, errors.New("not a saved point: data after the point")
	}
	switch {
	case pj.Dim <= 0 || pj.Dim > maxPointDim:
		return SavedPoint{}, fmt.Errorf("dimension %d out of range (1 to %d)", pj.Dim, maxPointDim)
	case pj.Rounds < 0:
		return SavedPoint{}, fmt.Errorf("negative round count %d", pj.Rounds)
	case len(pj.Index) != len(pj.Value):
		return SavedPoint{}, fmt.Errorf("%d indices but %d values", len(pj.Index), len(pj.Value))
	}
	for k, i := range pj.Index {
		if i < 0 || i >= pj.Dim || (k > 0 && i <= pj.Index[k-1]) {
			return SavedPoint{}, fmt.Errorf("index %d (entry %d): out of range [0, %d) or not increasing", i, k+1, pj.Dim)
		}
		if v := pj.Value[k]; math.IsNaN(v) || math.IsInf(v, 0) {
			return SavedPoint{}, fmt.Errorf("value of index %d is %g", i, v)
		}
	}
	// The checksum covers the dimension: a damaged one is refused before
	// the point is allocated.
	if pj.Sum != "" && pj.Sum != pointSum(pj.Dim, pj.Index, pj.Value) {
		return SavedPoint{}, fmt.Errorf("the coordinates do not match the checksum %s: the file was damaged or edited", pj.Sum)
	}
	x := make([]float64, pj.Dim)
	for k, i := range pj.Index {
		x[i] = pj.Value[k]
	}
	return SavedPoint{Label: pj.Label, Fingerprint: pj.Fingerprint, Rounds: pj.Rounds, X: x}, nil
}
