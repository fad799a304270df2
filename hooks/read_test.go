package hooks

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

func TestReadTable(t *testing.T) {
	big := `{"prompt":"` + strings.Repeat("x", 2000) + `"}`
	tests := []struct {
		name    string
		in      string
		max     int64
		want    string
		wantErr error
	}{
		{name: "object", in: `{"a":1}`, want: `{"a":1}`},
		{name: "first value only", in: `{"a":1} {"b":2}`, want: `{"a":1}`},
		{name: "leading space", in: "\n\t {\"a\":1}\n", want: `{"a":1}`},
		{name: "empty", in: ``, want: ``},
		{name: "only space", in: " \n\n ", want: ``},
		{name: "malformed", in: `{"a":}`, wantErr: ErrMalformed},
		{name: "truncated", in: `{"a":"b`, wantErr: ErrMalformed},
		{name: "too large", in: big, max: 1000, wantErr: ErrTooLarge},
		{name: "exactly at cap", in: `{"a":1}`, max: 7, want: `{"a":1}`},
		{name: "one over cap", in: `{"a":12}`, max: 7, wantErr: ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Read(strings.NewReader(tt.in), ReadOptions{MaxBytes: tt.max})
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if string(got) != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestReadDoesNotWaitForEOF writes one event on a pipe that stays open, as
// Claude Code may do, and expects the value back without EOF.
func TestReadDoesNotWaitForEOF(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	go w.Write([]byte(`{"hook_event_name":"Stop"}`))
	got, err := Read(r, ReadOptions{Timeout: time.Minute})
	if err != nil || string(got) != `{"hook_event_name":"Stop"}` {
		t.Fatalf("Read = %q, %v", got, err)
	}
}

func TestReadTimesOutOnSilentOpenStdin(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	_, err := Read(r, ReadOptions{Timeout: 20 * time.Millisecond})
	if !errors.Is(err, ErrStdinTimeout) {
		t.Fatalf("err = %v, want ErrStdinTimeout", err)
	}
}

func TestDecodeKeepsUnknownFields(t *testing.T) {
	in, err := Decode([]byte(`{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"Bash",
		"tool_input":{"command":"ls"},"future_field":{"x":[1,2]},"another":"v"}`), EventPreToolUse)
	if err != nil {
		t.Fatal(err)
	}
	ev := in.(*PreToolUse)
	if ev.SessionID != "s1" || ev.ToolName != "Bash" || string(ev.ToolInput) != `{"command":"ls"}` {
		t.Fatalf("decoded %+v", ev)
	}
	extra := ev.Extra()
	if len(extra) != 2 || string(extra["future_field"]) != `{"x":[1,2]}` || string(extra["another"]) != `"v"` {
		t.Fatalf("Extra = %v", extra)
	}
	if in.MatchTarget() != "Bash" {
		t.Fatalf("MatchTarget = %q", in.MatchTarget())
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name, in string
		event    Event
		wantErr  error
		mention  string
	}{
		{"wrong type", `{"tool_name":42}`, EventPreToolUse, ErrMalformed, "tool_name"},
		{"array", `[1,2]`, EventStop, ErrMalformed, ""},
		{"null", `null`, EventStop, ErrMalformed, "null"},
		{"number", ` 42`, EventStop, ErrMalformed, "42"},
		{"string", `"x"`, EventStop, ErrMalformed, ""},
		{"other event", `{"hook_event_name":"Stop"}`, EventPreToolUse, ErrWrongEvent, "Stop"},
		{"unknown event", `{}`, Event("Nope"), ErrUnknownEvent, "Nope"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode([]byte(tt.in), tt.event)
			if !errors.Is(err, tt.wantErr) || !strings.Contains(err.Error(), tt.mention) {
				t.Fatalf("err = %v, want %v mentioning %q", err, tt.wantErr, tt.mention)
			}
		})
	}
}

func TestDecodeFillsMissingEventName(t *testing.T) {
	in, err := Decode([]byte(`{"source":"startup"}`), EventSessionStart)
	if err != nil {
		t.Fatal(err)
	}
	if in.Base().HookEventName != EventSessionStart || in.MatchTarget() != "startup" {
		t.Fatalf("got %+v", in)
	}
}

func TestEveryEventDecodesItsOwnName(t *testing.T) {
	for _, e := range Events() {
		in, err := Decode([]byte(`{"hook_event_name":"`+string(e)+`","session_id":"s"}`), e)
		if err != nil {
			t.Fatalf("%s: %v", e, err)
		}
		if in.Base().SessionID != "s" {
			t.Fatalf("%s: common fields not decoded", e)
		}
	}
}

func TestParseEvent(t *testing.T) {
	for in, want := range map[string]Event{
		"PreToolUse": EventPreToolUse, "pre-tool-use": EventPreToolUse, "PRE_TOOL_USE": EventPreToolUse,
		"task-completed": EventTaskCompleted, "TeammateIdle": EventTeammateIdle, "session-start": EventSessionStart,
		// The source designs' own command names (MoAI's "moai hook
		// pre-tool", PAL Kit's "pal hook pre-compact", DIA's
		// on-<event>.sh scripts).
		"pre-tool": EventPreToolUse, "post-tool": EventPostToolUse, "compact": EventPreCompact,
		"session-end": EventSessionEnd, "stop": EventStop, "pre-compact": EventPreCompact,
		"post-tool-use": EventPostToolUse, "notification": EventNotification,
		"on-subagent-start": EventSubagentStart, "on-teammate-idle": EventTeammateIdle, "on-task-completed": EventTaskCompleted,
		"on-subagent-stop": EventSubagentStop, "on-pre-compact": EventPreCompact, "PRE_TOOL": EventPreToolUse,
	} {
		got, err := ParseEvent(in)
		if err != nil || got != want {
			t.Errorf("ParseEvent(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "-", "PreToolUsed", "Pre Tool Use", "on-", "on-on-stop", "subagent", "tool", "post-compact-tool"} {
		if _, err := ParseEvent(bad); !errors.Is(err, ErrUnknownEvent) {
			t.Errorf("ParseEvent(%q) err = %v", bad, err)
		}
	}
	seen := map[Event]bool{}
	for _, e := range Events() {
		if seen[e] {
			t.Fatalf("%s listed twice", e)
		}
		seen[e] = true
	}
	if len(seen) < 29 {
		t.Fatalf("only %d events", len(seen))
	}
}

func TestCapReaderStopsReading(t *testing.T) {
	var src bytes.Buffer
	src.WriteString(`{"a":"` + strings.Repeat("y", 1<<20))
	_, err := Read(&src, ReadOptions{MaxBytes: 1024})
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v", err)
	}
	if src.Len() < 1<<19 {
		t.Fatalf("read %d bytes past a 1 KiB cap", (1<<20)-src.Len())
	}
}

// FuzzReadValue holds readValue, which finds objects with package
// jsonscan, to encoding/json's Decoder, which it replaces: the same value
// or the same error, whether the input arrives at once or a byte at a
// time, with the cap anywhere.
func FuzzReadValue(f *testing.F) {
	for _, s := range []string{`{"a":1}`, ` {"a":[1,{"b":"}"}]} {"next":1}`, `{"a":`, `{x`, `123`, `"s"`, `  `, `[1,2]tail`, `{"a":"\u00"}`, `nul`} {
		f.Add([]byte(s), uint16(64))
	}
	f.Fuzz(func(t *testing.T, data []byte, max uint16) {
		limit := int64(max%512) + 1
		want, wantErr := decodeValue(bytes.NewReader(data), limit)
		for _, r := range []io.Reader{bytes.NewReader(data), iotest.OneByteReader(bytes.NewReader(data))} {
			got, err := readValue(r, limit)
			if !bytes.Equal(got, want) || (err == nil) != (wantErr == nil) {
				t.Fatalf("readValue(%q, %d) = %q, %v; the Decoder gives %q, %v", data, limit, got, err, want, wantErr)
			}
			if err != nil && !errors.Is(err, ErrTooLarge) && err.Error() != wantErr.Error() {
				t.Fatalf("readValue(%q, %d): error %q; the Decoder says %q", data, limit, err, wantErr)
			}
		}
	})
}

// countingReader hands out data in chunks of size bytes.
type chunkReader struct {
	data []byte
	size int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	n := min(len(p), c.size, len(c.data))
	copy(p, c.data[:n])
	c.data = c.data[n:]
	return n, nil
}

// TestReadValueScansOnce: a large object that arrives in small pieces
// (a pipe hands out what is there) is scanned as it comes, not again from
// the start after every piece. It counts the bytes jsonscan reads, not
// time: 4 MiB in 4 KiB pieces would be 2 GiB of rescanning.
func TestReadValueScansOnce(t *testing.T) {
	big := []byte(`{"tool_input":{"content":"` + strings.Repeat("x{[\\\"", 1<<19) + `"},"n":[1,{"a":"}"}]}`)
	scannedBytes.Store(0)
	got, err := readValue(&chunkReader{data: big, size: 4096}, DefaultMaxInput)
	if err != nil || !bytes.Equal(got, big) {
		t.Fatalf("readValue = %d bytes, %v", len(got), err)
	}
	if scannedBytes.Load() > 4*int64(len(big)) {
		t.Errorf("scanned %d bytes to find a value of %d", scannedBytes.Load(), len(big))
	}
}

// TestReadValueSkipsLeadingSpaceOnce: white space before the value is
// looked at once, not again after every piece.
func TestReadValueSkipsLeadingSpaceOnce(t *testing.T) {
	in := append(bytes.Repeat([]byte(" \n"), 1<<20), `{"a":1}`...)
	scannedBytes.Store(0)
	got, err := readValue(&chunkReader{data: in, size: 512}, DefaultMaxInput)
	if err != nil || string(got) != `{"a":1}` {
		t.Fatalf("readValue = %q, %v", got, err)
	}
	if scannedBytes.Load() > 2*int64(len(in)) {
		t.Errorf("looked at %d bytes to find a value after %d bytes of space", scannedBytes.Load(), len(in))
	}
}
