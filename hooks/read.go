package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/hookwright/hookwright/internal/jsonscan"
)

// Errors returned while reading and decoding input. Callers test them with
// errors.Is; each is reported as one line on stderr with exit code 1.
var (
	// ErrUnknownEvent: the event name is not one Claude Code sends.
	ErrUnknownEvent = errors.New("unknown hook event")
	// ErrTooLarge: stdin held more than the size cap before a JSON value ended.
	ErrTooLarge = errors.New("hook input too large")
	// ErrMalformed: stdin is not one JSON object.
	ErrMalformed = errors.New("malformed hook input")
	// ErrStdinTimeout: no complete JSON value arrived before the deadline.
	ErrStdinTimeout = errors.New("no complete hook input before the deadline")
	// ErrWrongEvent: the input's hook_event_name is not the event the
	// command line names.
	ErrWrongEvent = errors.New("hook input is for another event")
)

// DefaultMaxInput is the stdin size cap: 5 MiB.
const DefaultMaxInput = 5 << 20

// DefaultReadTimeout bounds how long Read waits for a complete JSON value.
// Claude Code writes the event at once, so a second is generous; it also
// bounds the wait when stdin stays open and empty.
const DefaultReadTimeout = time.Second

// ReadOptions bound Read. The zero value uses the defaults.
type ReadOptions struct {
	MaxBytes int64         // size cap; 0 means DefaultMaxInput
	Timeout  time.Duration // deadline; 0 means DefaultReadTimeout
}

// Read returns the bytes of the first complete JSON value on r. It does not
// wait for EOF: Claude Code may keep stdin open after writing the event.
// Empty input (EOF before any non-space byte) returns nil and no error: the
// caller treats it as a no-op. A value larger than the cap, malformed input,
// or no complete value before the deadline is an error wrapping
// [ErrTooLarge], [ErrMalformed] or [ErrStdinTimeout].
//
// When r can take a read deadline (a pipe opened non-blocking, as [Main]
// opens stdin), Read uses it and starts no goroutine; otherwise it reads
// in a goroutine, which a timeout leaves blocked on r: the process is
// expected to exit soon after.
func Read(r io.Reader, opts ReadOptions) ([]byte, error) {
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxInput
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultReadTimeout
	}
	// *os.File first: a concrete type assertion costs a compare, while the
	// interface one builds its method table on first use in the process.
	var d deadliner
	if f, ok := r.(*os.File); ok {
		d = f
	} else if dl, ok := r.(deadliner); ok {
		d = dl
	}
	if d != nil && d.SetReadDeadline(time.Now().Add(opts.Timeout)) == nil {
		data, err := readValue(r, opts.MaxBytes)
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return nil, fmt.Errorf("%w (%s)", ErrStdinTimeout, opts.Timeout)
		}
		return data, err
	}
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		defer func() { // a panicking reader is an error, not a crash
			if p := recover(); p != nil {
				done <- result{nil, fmt.Errorf("%w: reading stdin panicked: %v", ErrMalformed, p)}
			}
		}()
		data, err := readValue(r, opts.MaxBytes)
		done <- result{data, err}
	}()
	timer := time.NewTimer(opts.Timeout)
	defer timer.Stop()
	select {
	case res := <-done:
		return res.data, res.err
	case <-timer.C:
		return nil, fmt.Errorf("%w (%s)", ErrStdinTimeout, opts.Timeout)
	}
}

// deadliner is a reader that supports read deadlines, like *os.File on a
// pollable descriptor.
type deadliner interface {
	SetReadDeadline(time.Time) error
}

// capReader fails once more than max bytes were read from r.
type capReader struct {
	r   io.Reader
	n   int64
	max int64
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.n > c.max {
		return 0, ErrTooLarge
	}
	if rest := c.max + 1 - c.n; int64(len(p)) > rest {
		p = p[:rest]
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.n > c.max {
		return n, ErrTooLarge
	}
	return n, err
}

// readValue returns one raw JSON value from r, reading only as far as it
// needs. An object or array, which is what Claude Code sends, is framed
// as its bytes arrive (each byte looked at once) and checked by package
// jsonscan when it closes, or at every read while it is small, so that
// garbage in a short input is refused at once; anything else (a scalar,
// input that is not JSON, input that ends early) goes to encoding/json's
// Decoder, so that its answer and its error messages stay the reference.
func readValue(r io.Reader, max int64) ([]byte, error) {
	cr := &capReader{r: r, max: max}
	buf := make([]byte, 0, 4096)
	var f framer
	start := -1 // where the object or array begins, once known
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := cr.Read(buf[len(buf):cap(buf)])
		from := len(buf)
		buf = buf[:len(buf)+n]
		atEOF := errors.Is(err, io.EOF)
		if start < 0 {
			// Only white space came before from: look at the new bytes.
			scannedBytes.Add(int64(len(buf) - from))
			if i := len(buf) - len(bytes.TrimLeft(buf[from:], " \t\r\n")); i < len(buf) {
				if buf[i] != '{' && buf[i] != '[' {
					return decodeRest(buf, r, err, max)
				}
				start, from = i, i
			}
		}
		if start >= 0 {
			closed := f.feed(buf, from)
			if closed || atEOF || len(buf) <= smallInput {
				scannedBytes.Add(int64(len(buf)))
				s, e, st := jsonscan.Value(buf, atEOF)
				if st == jsonscan.Complete {
					if int64(e-s) > max {
						return nil, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, max)
					}
					return buf[s:e:e], nil
				}
				if st == jsonscan.Invalid {
					return decodeRest(buf, r, err, max)
				}
			}
		}
		if err == nil {
			continue // white space so far, or an unfinished object or array
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return nil, err
		}
		if !atEOF && !errors.Is(err, ErrTooLarge) {
			return nil, fmt.Errorf("%w: %v", ErrMalformed, err)
		}
		return decodeRest(buf, r, err, max)
	}
}

// smallInput is the size up to which readValue checks the whole input at
// every read (so that {x is refused before stdin closes); past it, only
// when the value closes.
const smallInput = 64 << 10

// scannedBytes counts the bytes readValue looks at for leading white
// space and hands to jsonscan, for the tests that hold it to a linear scan.
var scannedBytes atomic.Int64

// decodeRest hands what arrived, and what follows (unless the read ended
// with err), to encoding/json's Decoder.
func decodeRest(buf []byte, r io.Reader, err error, max int64) ([]byte, error) {
	rest := r
	if err != nil {
		rest = &errReader{err}
	}
	return decodeValue(io.MultiReader(bytes.NewReader(buf), rest), max)
}

// framer follows the nesting of a JSON object or array as its bytes
// arrive, strings and escapes included, to tell when it closes.
type framer struct {
	depth      int
	inStr, esc bool
}

// feed reads data[from:] and reports whether the value that began at the
// first byte fed has closed.
func (f *framer) feed(data []byte, from int) bool {
	for _, c := range data[from:] {
		switch {
		case f.esc:
			f.esc = false
		case f.inStr:
			if c == '\\' {
				f.esc = true
			} else if c == '"' {
				f.inStr = false
			}
		case c == '"':
			f.inStr = true
		case c == '{' || c == '[':
			f.depth++
		case c == '}' || c == ']':
			f.depth--
			if f.depth <= 0 {
				return true
			}
		}
	}
	return false
}

// errReader returns err on every read.
type errReader struct{ err error }

func (e *errReader) Read([]byte) (int, error) { return 0, e.err }

// decodeValue decodes one raw JSON value with encoding/json's Decoder.
func decodeValue(r io.Reader, max int64) ([]byte, error) {
	cr := &capReader{r: r, max: max}
	dec := json.NewDecoder(cr)
	var raw json.RawMessage
	err := dec.Decode(&raw)
	switch {
	case err == nil && int64(len(raw)) <= max:
		return raw, nil
	case err == nil || errors.Is(err, ErrTooLarge):
		return nil, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, max)
	case errors.Is(err, io.EOF):
		return nil, nil // nothing but white space before EOF
	case errors.Is(err, io.ErrUnexpectedEOF):
		return nil, fmt.Errorf("%w: input ended inside a JSON value", ErrMalformed)
	case errors.Is(err, os.ErrDeadlineExceeded):
		return nil, err
	default:
		return nil, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
}

// Decode parses data as the input of event. When the input names an event
// in hook_event_name it must be event; a missing name is filled in. Fields
// the event type does not model stay available through [Common.Extra].
func Decode(data []byte, event Event) (Input, error) {
	in := NewInput(event)
	if in == nil {
		return nil, fmt.Errorf("%w: %q", ErrUnknownEvent, event)
	}
	if d := bytes.TrimLeft(data, " \t\r\n"); len(d) == 0 || d[0] != '{' {
		return nil, fmt.Errorf("%w: want a JSON object, got %.20s", ErrMalformed, d)
	}
	if !decodeFast(data, in) {
		in = NewInput(event)
		if err := json.Unmarshal(data, in); err != nil {
			return nil, fmt.Errorf("%w: %s", ErrMalformed, describeTypeError(err))
		}
	}
	base := in.Base()
	base.raw, base.typ = data, reflect.TypeOf(in).Elem()
	if base.HookEventName == "" {
		base.HookEventName = event
	} else if base.HookEventName != event {
		return nil, fmt.Errorf("%w: input says %q, command line says %q", ErrWrongEvent, base.HookEventName, event)
	}
	return in, nil
}

// describeTypeError shortens encoding/json's type errors to name the field.
func describeTypeError(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		field := te.Field[strings.LastIndex(te.Field, ".")+1:]
		return fmt.Sprintf("field %q: want %s, got JSON %s", field, te.Type, te.Value)
	}
	return err.Error()
}

// knownFields returns the JSON names of t's fields, embedded ones included.
func knownFields(t reflect.Type) map[string]bool {
	names := map[string]bool{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			for n := range knownFields(f.Type) {
				names[n] = true
			}
			continue
		}
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag != "" && tag != "-" {
			names[tag] = true
		}
	}
	return names
}

// MarshalInput writes in as the JSON object Claude Code sends for its
// event: the fields its type models, in their order, then those it does
// not ([Common.Extra]), by name. A translated input ([Translate]) is
// written as the canonical event; the fired event's fields that the
// canonical one does not model (tool_name, ...) are not carried over.
func MarshalInput(in Input) ([]byte, error) {
	data, err := json.Marshal(in)
	if err != nil {
		return nil, err
	}
	extra := in.Base().Extra()
	if len(extra) == 0 {
		return data, nil
	}
	known := knownFields(reflect.TypeOf(in).Elem())
	if base := in.Base(); base.typ != nil {
		for name := range knownFields(base.typ) { // the fired event's own fields
			known[name] = true
		}
	}
	names := make([]string, 0, len(extra))
	for name := range extra {
		if !known[name] {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	var b bytes.Buffer
	b.Write(data[:len(data)-1])
	for _, name := range names {
		key, _ := json.Marshal(name)
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		b.Write(key)
		b.WriteByte(':')
		if err := json.Compact(&b, extra[name]); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
