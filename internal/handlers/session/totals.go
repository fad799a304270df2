package session

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"time"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/journal"
)

// Bounds of the journal read at SessionEnd.
const (
	// TotalsDays is how many journal days (one file each) are read, the
	// newest first: today's and those back to the session's start.
	TotalsDays = 3
	// TotalsBytes is how much of each journal file is read (its end).
	TotalsBytes = 16 << 20
	// MaxTools bounds the tools counted by name; the rest count as "other".
	MaxTools = 50
)

// Totals are a session's hook calls, summed from the journal at
// SessionEnd. The runtime journals every call: the tool, its outcome and
// run time on PostToolUse and PostToolUseFailure, the decision and the
// hook's own time on every event.
type Totals struct {
	// Events counts the hook calls per event.
	Events map[string]int `json:"events"`
	// Tools counts the tool calls per tool (from PostToolUse and
	// PostToolUseFailure, one of which follows every call).
	Tools map[string]int `json:"tools,omitempty"`
	// Calls is the number of hook calls, Blocks those that blocked and
	// Failures the tool calls that failed.
	Calls    int `json:"calls"`
	Blocks   int `json:"blocks"`
	Failures int `json:"failures"`
	// HookMillis is the time spent in hookwright, ToolMillis the tools'
	// own run time as Claude Code reported it.
	HookMillis int64 `json:"hook_ms"`
	ToolMillis int64 `json:"tool_ms,omitempty"`
	// Partial is set when the journal was read only in part (a bound was
	// hit, or a file could not be read).
	Partial bool `json:"partial,omitempty"`
}

// ToolCalls is the total of Tools.
func (t *Totals) ToolCalls() int {
	if t == nil {
		return 0
	}
	n := 0
	for _, c := range t.Tools {
		n += c
	}
	return n
}

// Sum reads the journal of the project at dir and returns the totals of
// session, reading the files from since's day (at most TotalsDays of
// them, newest first) up to now.
func Sum(dir, session string, since, now time.Time) Totals {
	t := Totals{Events: map[string]int{}, Tools: map[string]int{}}
	if since.IsZero() || since.After(now) {
		since = now
	}
	var micros int64
	needle := []byte(`"session":` + string(mustJSON(session)) + `,`)
	day := now.UTC().Truncate(24 * time.Hour)
	first := since.UTC().Truncate(24 * time.Hour)
	for i := 0; i < TotalsDays && !day.Before(first); i, day = i+1, day.Add(-24*time.Hour) {
		path := filepath.Join(dir, journal.Dir, day.Format("2006-01-02")+".jsonl")
		data, partial, err := tailFile(path, TotalsBytes)
		if err != nil {
			if !os.IsNotExist(err) {
				t.Partial = true
			}
			continue
		}
		t.Partial = t.Partial || partial
		for line := range bytes.Lines(data) {
			if !bytes.Contains(line, needle) {
				continue
			}
			var e journal.Entry
			if json.Unmarshal(line, &e) != nil || e.Session != session {
				continue
			}
			t.Calls++
			t.Events[e.Event]++
			micros += e.Micros
			if e.Decision == hooks.Block.String() {
				t.Blocks++
			}
			switch hooks.Event(e.Event) {
			case hooks.EventPostToolUse, hooks.EventPostToolUseFailure:
				if e.Via != "" {
					break // a fallback's line, not a tool call of its own
				}
				name := e.Tool
				if _, known := t.Tools[name]; !known && len(t.Tools) >= MaxTools {
					name = "other"
				}
				t.Tools[name]++
				t.ToolMillis += e.ToolMillis
				if e.Outcome == "failure" {
					t.Failures++
				}
			}
		}
		if day.Equal(first) {
			break
		}
	}
	t.HookMillis = micros / 1000
	return t
}

// mustJSON quotes s as the journal writes it (no HTML escapes), so the
// session's lines can be found before they are decoded.
func mustJSON(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// tailFile reads the last max bytes of the regular file at path; partial
// is set when the file was longer (its first, cut line is dropped).
func tailFile(path string, max int64) (data []byte, partial bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, false, err
	}
	if !info.Mode().IsRegular() {
		return nil, true, nil
	}
	off := info.Size() - max
	if off <= 0 {
		data, err = io.ReadAll(io.LimitReader(f, max))
		return data, false, err
	}
	data, err = io.ReadAll(io.NewSectionReader(f, off, max))
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		data = data[i+1:]
	}
	return data, true, err
}

// TopTools returns the n most used tools as "Name×count", most used first.
func (t *Totals) TopTools(n int) []string {
	if t == nil {
		return nil
	}
	names := make([]string, 0, len(t.Tools))
	for k := range t.Tools {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool {
		if t.Tools[names[i]] != t.Tools[names[j]] {
			return t.Tools[names[i]] > t.Tools[names[j]]
		}
		return names[i] < names[j]
	})
	if len(names) > n {
		names = names[:n]
	}
	out := make([]string, len(names))
	for i, k := range names {
		out[i] = k + "×" + itoa(t.Tools[k])
	}
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }

// ToolMetrics is the PostToolUse and PostToolUseFailure registration for
// every tool. It answers nothing: its registration is what makes Claude
// Code call the runtime after each tool call, and the runtime's journal line
// for that call is the record (tool, tool_ms from duration_ms, outcome,
// the failure's first line), which [Ender] sums into the fingerprint.
type ToolMetrics struct{}

// Name names the handler in reports.
func (ToolMetrics) Name() string { return "tool-metrics" }

// Handle does nothing; see the type comment.
func (ToolMetrics) Handle(context.Context, hooks.Input) (hooks.Result, error) {
	return hooks.Result{}, nil
}
