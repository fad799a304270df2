package session

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/journal"
	state "github.com/hookwright/hookwright/internal/state/session"
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

// Sum reads the journal of the project at dir and returns the totals of
// session, reading the files from since's day (at most TotalsDays of
// them, newest first) up to now.
func Sum(dir, session string, since, now time.Time) state.Totals {
	t := state.Totals{Events: map[string]int{}, Tools: map[string]int{}}
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
				if e.Via != "" || e.Async {
					break // a fallback's line, or the asynchronous call's: not a tool call of its own
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

// PostToolUse does nothing; see the type comment.
func (ToolMetrics) PostToolUse(context.Context, *hooks.PostToolUse) (hooks.Result, error) {
	return hooks.Result{}, nil
}

// PostToolUseFailure does nothing; see the type comment.
func (ToolMetrics) PostToolUseFailure(context.Context, *hooks.PostToolUseFailure) (hooks.Result, error) {
	return hooks.Result{}, nil
}
