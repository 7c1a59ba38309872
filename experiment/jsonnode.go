package experiment

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lazycg/lazycg/spec"
)

// node is a parsed JSON value that remembers where it started, so that
// suite files get errors naming the line, column and field.
type node struct {
	kind   nodeKind
	offset int64 // byte offset of the value's first character
	str    string
	num    json.Number
	b      bool
	keys   []string // object keys in order
	fields map[string]*node
	items  []*node
}

type nodeKind int

const (
	nullNode nodeKind = iota
	boolNode
	numberNode
	stringNode
	arrayNode
	objectNode
)

var nodeKindNames = [...]string{"null", "a boolean", "a number", "a string", "an array", "an object"}

func (k nodeKind) String() string { return nodeKindNames[k] }

// maxNodeDepth bounds the nesting of suite files.
const maxNodeDepth = 64

// srcDoc is a document being decoded: its name (for messages), its bytes
// (to turn offsets into lines and columns) and its root value.
type srcDoc struct {
	name string
	data []byte
}

// position returns "name:line:col" for a byte offset.
func (d *srcDoc) position(off int64) string {
	if off < 0 {
		off = 0
	}
	if off > int64(len(d.data)) {
		off = int64(len(d.data))
	}
	before := d.data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return fmt.Sprintf("%s:%d:%d", d.name, line, col)
}

// parseNodes parses a complete JSON document into a node tree.
func (d *srcDoc) parse() (*node, error) {
	dec := json.NewDecoder(bytes.NewReader(d.data))
	dec.UseNumber()
	root, err := d.parseValue(dec, 0)
	if err != nil {
		return nil, err
	}
	if tok, err := dec.Token(); err != io.EOF {
		if err != nil {
			return nil, d.tokenErr(dec, err)
		}
		return nil, fmt.Errorf("experiment: %s: unexpected %v after the top-level value", d.position(dec.InputOffset()), tok)
	}
	return root, nil
}

// valueStart returns the offset of the first non-space byte at or after off
// (the decoder's offset after the previous token, which may precede a comma
// or colon).
func (d *srcDoc) valueStart(off int64) int64 {
	for off < int64(len(d.data)) {
		switch d.data[off] {
		case ' ', '\t', '\r', '\n', ',', ':':
			off++
		default:
			return off
		}
	}
	return off
}

func (d *srcDoc) tokenErr(dec *json.Decoder, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("experiment: %s: invalid JSON: %v", d.position(se.Offset), se)
	}
	if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("experiment: %s: unexpected end of JSON", d.position(int64(len(d.data))))
	}
	return fmt.Errorf("experiment: %s: invalid JSON: %v", d.position(dec.InputOffset()), err)
}

func (d *srcDoc) parseValue(dec *json.Decoder, depth int) (*node, error) {
	start := d.valueStart(dec.InputOffset())
	tok, err := dec.Token()
	if err != nil {
		return nil, d.tokenErr(dec, err)
	}
	return d.parseToken(dec, tok, start, depth)
}

func (d *srcDoc) parseToken(dec *json.Decoder, tok json.Token, start int64, depth int) (*node, error) {
	if depth > maxNodeDepth {
		return nil, fmt.Errorf("experiment: %s: JSON nested deeper than %d levels", d.position(start), maxNodeDepth)
	}
	n := &node{offset: start}
	switch t := tok.(type) {
	case nil:
		n.kind = nullNode
	case bool:
		n.kind, n.b = boolNode, t
	case json.Number:
		n.kind, n.num = numberNode, t
	case string:
		n.kind, n.str = stringNode, t
	case json.Delim:
		switch t {
		case '[':
			n.kind = arrayNode
			for dec.More() {
				it, err := d.parseValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				n.items = append(n.items, it)
			}
			if _, err := dec.Token(); err != nil {
				return nil, d.tokenErr(dec, err)
			}
		case '{':
			n.kind = objectNode
			n.fields = map[string]*node{}
			for dec.More() {
				kstart := d.valueStart(dec.InputOffset())
				kt, err := dec.Token()
				if err != nil {
					return nil, d.tokenErr(dec, err)
				}
				key, ok := kt.(string)
				if !ok {
					return nil, fmt.Errorf("experiment: %s: object key must be a string", d.position(kstart))
				}
				if _, dup := n.fields[key]; dup {
					return nil, fmt.Errorf("experiment: %s: field %q given twice", d.position(kstart), key)
				}
				v, err := d.parseValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				n.keys = append(n.keys, key)
				n.fields[key] = v
			}
			if _, err := dec.Token(); err != nil {
				return nil, d.tokenErr(dec, err)
			}
		default:
			return nil, fmt.Errorf("experiment: %s: unexpected %q", d.position(start), string(t))
		}
	}
	return n, nil
}

// fieldErr is an error about the value at path.
type fieldErr struct {
	doc  *srcDoc
	n    *node
	path string
	msg  string
}

func (e *fieldErr) Error() string {
	if e.path == "" {
		return fmt.Sprintf("experiment: %s: the suite: %s", e.doc.position(e.n.offset), e.msg)
	}
	return fmt.Sprintf("experiment: %s: %s: %s", e.doc.position(e.n.offset), e.path, e.msg)
}

// reader decodes fields of an object node, collecting the first error.
type reader struct {
	doc  *srcDoc
	n    *node
	path string
	used map[string]bool
	err  error
}

func (d *srcDoc) object(n *node, path string) (*reader, error) {
	if n.kind != objectNode {
		return nil, &fieldErr{d, n, path, "want an object, got " + n.kind.String()}
	}
	return &reader{doc: d, n: n, path: path, used: map[string]bool{}}, nil
}

func (r *reader) sub(key string) string {
	if r.path == "" {
		return key
	}
	return r.path + "." + key
}

func (r *reader) fail(n *node, key, format string, args ...any) {
	if r.err == nil {
		r.err = &fieldErr{r.doc, n, r.sub(key), fmt.Sprintf(format, args...)}
	}
}

// get returns the field's node (nil when absent or null).
func (r *reader) get(key string) *node {
	r.used[key] = true
	n := r.n.fields[key]
	if n == nil || n.kind == nullNode {
		return nil
	}
	return n
}

func (r *reader) str(key string, dst *string) {
	n := r.get(key)
	if n == nil {
		return
	}
	if n.kind != stringNode {
		r.fail(n, key, "want a string, got %v", n.kind)
		return
	}
	*dst = n.str
}

func (r *reader) boolean(key string, dst *bool) {
	n := r.get(key)
	if n == nil {
		return
	}
	if n.kind != boolNode {
		r.fail(n, key, "want true or false, got %v", n.kind)
		return
	}
	*dst = n.b
}

// float reads a finite number in [lo, hi].
func (r *reader) float(key string, dst *float64, lo, hi float64) {
	n := r.get(key)
	if n == nil {
		return
	}
	if n.kind != numberNode {
		r.fail(n, key, "want a number, got %v", n.kind)
		return
	}
	f, err := strconv.ParseFloat(string(n.num), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < lo || f > hi {
		r.fail(n, key, "want a number in [%g, %g], got %s", lo, hi, n.num)
		return
	}
	*dst = f
}

// optFloat reads a number in [lo, hi] into a new pointer.
func (r *reader) optFloat(key string, dst **float64, lo, hi float64) {
	if r.get(key) == nil {
		return
	}
	var f float64
	r.float(key, &f, lo, hi)
	*dst = &f
}

// integer reads an integer in [lo, hi].
func (r *reader) integer(key string, dst *int, lo, hi int) {
	n := r.get(key)
	if n == nil {
		return
	}
	if n.kind != numberNode {
		r.fail(n, key, "want an integer, got %v", n.kind)
		return
	}
	v, err := strconv.ParseInt(string(n.num), 10, 64)
	if err != nil || v < int64(lo) || v > int64(hi) {
		r.fail(n, key, "want an integer in [%d, %d], got %s", lo, hi, n.num)
		return
	}
	*dst = int(v)
}

// duration reads a Go duration string ("90s", "2m") or a number of
// seconds (spec.ParseDuration).
func (r *reader) duration(key string, dst *time.Duration) {
	n := r.get(key)
	if n == nil {
		return
	}
	text, ok := r.text(n, key, spec.SettingDuration)
	if !ok {
		return
	}
	d, err := spec.ParseDuration(text)
	if err != nil {
		r.fail(n, key, "want %s", strings.TrimPrefix(err.Error(), "must be "))
		return
	}
	*dst = d
}

// kindWant describes the JSON values a setting of each kind accepts.
var kindWant = map[spec.SettingKind]string{spec.SettingBool: "true or false", spec.SettingFloat: "a number",
	spec.SettingInt: "an integer", spec.SettingUint: "a non-negative integer",
	spec.SettingDuration: "a duration string (\"90s\") or seconds", spec.SettingString: "a string",
	spec.SettingBytes: "a size string (\"8GiB\") or bytes"}

// text returns the text of the value n of a setting of the given kind,
// checking the JSON type.
func (r *reader) text(n *node, key string, kind spec.SettingKind) (string, bool) {
	switch {
	case n.kind == boolNode && kind == spec.SettingBool:
		return fmt.Sprint(n.b), true
	case n.kind == numberNode && (kind == spec.SettingFloat || kind == spec.SettingInt || kind == spec.SettingUint ||
		kind == spec.SettingDuration || kind == spec.SettingBytes):
		return string(n.num), true
	case n.kind == stringNode && (kind == spec.SettingString || kind == spec.SettingDuration || kind == spec.SettingBytes):
		return n.str, true
	}
	r.fail(n, key, "want %s, got %v", kindWant[kind], n.kind)
	return "", false
}

// settings reads the run settings (spec.Settings) named (all that have a
// field name when none are named) into c, by their field names and
// deprecated aliases.
func (r *reader) settings(c *spec.Config, names ...string) {
	for _, st := range spec.Settings() {
		if st.JSON == "" || (len(names) > 0 && !slices.Contains(names, st.JSON)) {
			continue
		}
		for _, key := range append([]string{st.JSON}, st.Aliases...) {
			n := r.get(key)
			if n == nil {
				continue
			}
			if text, ok := r.text(n, key, st.Kind); ok {
				if err := c.Set(key, text); err != nil {
					r.fail(n, key, "%v", err)
				}
			}
		}
	}
}

// done reports the first error, or the first unknown field.
func (r *reader) done() error {
	if r.err != nil {
		return r.err
	}
	for _, k := range r.n.keys {
		if !r.used[k] {
			known := make([]string, 0, len(r.used))
			for u := range r.used {
				known = append(known, u)
			}
			return &fieldErr{r.doc, r.n.fields[k], r.sub(k), "unknown field (known: " + strings.Join(sortedCopy(known), ", ") + ")"}
		}
	}
	return nil
}
