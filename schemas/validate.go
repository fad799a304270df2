package schemas

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/hooks"
	"github.com/santhosh-tekuri/jsonschema/v5"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

//go:embed bands/*.schema.json
var files embed.FS

// Severity says whether a [Violation] stops the file from working.
type Severity string

// The severities.
const (
	// Error: the release rejects the file, or a hook would not run as
	// written. The message names the release and the run that showed it.
	Error Severity = "error"
	// Warning: the release loads the file, but something in it is ignored
	// or unverified.
	Warning Severity = "warning"
)

// Violation is one reason a hooks.json does not fit a band.
type Violation struct {
	// Pointer is the JSON pointer (RFC 6901) of the offending value; ""
	// is the whole document.
	Pointer  string
	Message  string
	Severity Severity
}

// String renders the violation as "pointer: message", with "(root)" for
// the whole document and "warning: " before a warning's message.
func (v Violation) String() string {
	p := v.Pointer
	if p == "" {
		p = "(root)"
	}
	if v.Severity == Warning {
		return p + ": warning: " + v.Message
	}
	return p + ": " + v.Message
}

// Errors returns the violations of severity Error, in order.
func Errors(vs []Violation) []Violation {
	var out []Violation
	for _, v := range vs {
		if v.Severity != Warning {
			out = append(out, v)
		}
	}
	return out
}

// Schema returns the embedded schema for release v: the one of the edge
// at or below it (compat.EdgeOf).
func Schema(v hooks.Release) ([]byte, error) {
	band, err := compat.EdgeOf(v)
	if err != nil {
		return nil, err
	}
	return embedded(band)
}

// embedded returns the embedded schema of an edge.
func embedded(band hooks.Release) ([]byte, error) {
	b, err := files.ReadFile("bands/" + FileName(band))
	if err != nil {
		return nil, fmt.Errorf("no embedded schema for %s (run go test ./schemas -update): %w", band, err)
	}
	return b, nil
}

// compiled holds the one compilation of each band's schema, shared by
// concurrent callers.
var compiled sync.Map // band string → func() (*bandSchema, error)

// bandSchema is a compiled schema plus its raw form, for x-message lookups.
type bandSchema struct {
	schema *jsonschema.Schema
	raw    any
}

// load returns the compiled schema of release v's band, compiling it on
// first use.
func load(v hooks.Release) (*bandSchema, error) {
	band, err := compat.EdgeOf(v)
	if err != nil {
		return nil, err
	}
	once, ok := compiled.Load(band.String())
	if !ok {
		once, _ = compiled.LoadOrStore(band.String(), sync.OnceValues(func() (*bandSchema, error) {
			b, err := embedded(band)
			if err != nil {
				return nil, err
			}
			return compile(band, b)
		}))
	}
	return once.(func() (*bandSchema, error))()
}

// compile compiles a schema document for band.
func compile(band hooks.Release, doc []byte) (*bandSchema, error) {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	if err := c.AddResource(ID(band), bytes.NewReader(doc)); err != nil {
		return nil, fmt.Errorf("schema for band %s: %w", band, err)
	}
	s, err := c.Compile(ID(band))
	if err != nil {
		return nil, fmt.Errorf("schema for band %s: %w", band, err)
	}
	raw, err := decode(doc)
	if err != nil {
		return nil, fmt.Errorf("schema for band %s: %w", band, err)
	}
	return &bandSchema{schema: s, raw: raw}, nil
}

// decode parses one JSON value keeping numbers exact, as jsonschema wants
// them. Anything after the value is an error, as it is for JSON.parse.
func decode(doc []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(doc))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errors.New("data after the top-level value")
	}
	return v, nil
}

// Validate checks a hooks.json document against release v's band and
// returns every violation, errors and warnings, sorted by pointer (use
// [Errors] for the ones that stop the file). Malformed JSON is one error at
// the root. The error result is for a release below the plugin floor, a
// broken embedded schema or a validator failure, never for a bad document:
// a problem in the validator is never reported as "no violations".
func Validate(v hooks.Release, doc []byte) ([]Violation, error) {
	s, err := load(v)
	if err != nil {
		return nil, err
	}
	return s.validate(doc)
}

// validate runs a compiled schema over doc.
func (s *bandSchema) validate(doc []byte) ([]Violation, error) {
	inst, err := decode(doc)
	if err != nil {
		return []Violation{{Message: "not valid JSON: " + err.Error(), Severity: Error}}, nil
	}
	return s.violations(s.schema.Validate(inst), inst)
}

// violations turns the validator's result into violations. A result that
// is not a validation error (a failure of the validator itself) is
// returned as an error: it must never read as "no violations".
func (s *bandSchema) violations(err error, inst any) ([]Violation, error) {
	if err == nil {
		return nil, nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return nil, fmt.Errorf("validating against the schema: %w", err)
	}
	var out []Violation
	for _, leaf := range leaves(ve) {
		msg, sev := s.message(leaf, inst)
		out = append(out, Violation{Pointer: leaf.InstanceLocation, Message: msg, Severity: sev})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Pointer != out[j].Pointer {
			return out[i].Pointer < out[j].Pointer
		}
		return out[i].Message < out[j].Message
	})
	return slices.Compact(out), nil
}

// leaves returns the errors that have no causes: the actual failures.
func leaves(e *jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(e.Causes) == 0 {
		return []*jsonschema.ValidationError{e}
	}
	var out []*jsonschema.ValidationError
	for _, c := range e.Causes {
		out = append(out, leaves(c)...)
	}
	return out
}

// message is the x-message for a failure, or the validator's own text, and
// its severity: x-severity of the failing schema node, else Error.
func (s *bandSchema) message(e *jsonschema.ValidationError, inst any) (string, Severity) {
	path := pointerTokens(fragment(e.AbsoluteKeywordLocation))
	if len(path) == 0 {
		return e.Message, Error
	}
	keyword := path[len(path)-1]
	parent, ok := walk(s.raw, path[:len(path)-1])
	if !ok {
		return e.Message, Error
	}
	sev := Error
	if parent["x-severity"] == string(Warning) {
		sev = Warning
	}
	var msg string
	switch xm := parent["x-message"].(type) {
	case string:
		msg = xm
	case map[string]any:
		msg, _ = xm[keyword].(string)
	}
	if msg == "" {
		return e.Message, sev
	}
	return expand(msg, e.InstanceLocation, inst), sev
}

// expand fills {name} and {value} from the offending instance location.
func expand(msg, ptr string, inst any) string {
	toks := pointerTokens(ptr)
	name := ""
	if len(toks) > 0 {
		name = toks[len(toks)-1]
	}
	val := ""
	if v, ok := walkAny(inst, toks); ok {
		if b, err := json.Marshal(v); err == nil {
			val = string(b)
		}
	}
	return strings.NewReplacer("{name}", name, "{value}", val).Replace(msg)
}

// fragment returns the part of a URL after '#'.
func fragment(u string) string {
	if i := strings.IndexByte(u, '#'); i >= 0 {
		return u[i+1:]
	}
	return ""
}

// pointerTokens splits and unescapes a JSON pointer.
func pointerTokens(p string) []string {
	if p == "" {
		return nil
	}
	parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
	for i, t := range parts {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return parts
}

// walk follows tokens through objects and returns the object reached.
func walk(v any, toks []string) (map[string]any, bool) {
	got, ok := walkAny(v, toks)
	if !ok {
		return nil, false
	}
	m, ok := got.(map[string]any)
	return m, ok
}

// walkAny follows tokens through objects and arrays.
func walkAny(v any, toks []string) (any, bool) {
	for _, t := range toks {
		switch c := v.(type) {
		case map[string]any:
			next, ok := c[t]
			if !ok {
				return nil, false
			}
			v = next
		case []any:
			i, err := strconv.Atoi(t)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			v = c[i]
		default:
			return nil, false
		}
	}
	return v, true
}
