// Package journal appends one JSON line per hook call to
// .hookwright/journal/<UTC date>.jsonl under the project folder. It is the
// event log the dashboard and the query tool read; the hot path only ever
// appends, with one write per call, so concurrent hooks never interleave
// lines.
package journal

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// Dir is the journal folder, relative to the project.
const Dir = ".hookwright/journal"

// Entry is one hook call. Empty fields are left out of the line.
type Entry struct {
	Time    time.Time `json:"ts"`
	Session string    `json:"session,omitempty"`
	// Event is the canonical event the handlers saw; Via is the event
	// Claude Code fired, when a fallback adapted it.
	Event string `json:"event"`
	Via   string `json:"via,omitempty"`
	// Target is what the event's matcher filters: the tool name, the
	// SessionStart source, the agent type, ...
	Target string `json:"target,omitempty"`
	// Tool is the tool name on the tool events (PreToolUse, PostToolUse,
	// PostToolUseFailure, PermissionRequest).
	Tool string `json:"tool,omitempty"`
	// Agent is the teammate's name on team events, else the subagent's
	// type where the event gives one; Team is the agent team's name.
	Agent string `json:"agent,omitempty"`
	Team  string `json:"team,omitempty"`
	// Band is the protocol band hooks.json named (--proto), if any.
	Band     string `json:"band,omitempty"`
	Decision string `json:"decision,omitempty"`
	Reason   string `json:"reason,omitempty"`
	// Handler names the handler whose decision or halt the call answered
	// with; empty when no handler decided.
	Handler string `json:"handler,omitempty"`
	Exit    int    `json:"exit"`
	// Micros is how long the hook call took, in microseconds.
	Micros int64 `json:"us"`
	// ToolMillis is the tool's own run time as Claude Code reports it
	// (duration_ms), where it does; Outcome is "success" on PostToolUse
	// and "failure" on PostToolUseFailure, and Error the failure's first
	// line.
	ToolMillis int64    `json:"tool_ms,omitempty"`
	Outcome    string   `json:"outcome,omitempty"`
	Error      string   `json:"error,omitempty"`
	Faults     []string `json:"faults,omitempty"`
}

// Append writes e as one line to the journal of the project at dir.
func Append(dir string, e Entry) error {
	line := appendLine(make([]byte, 0, 256), e)
	folder := filepath.Join(dir, Dir)
	name := filepath.Join(folder, e.Time.UTC().Format("2006-01-02")+".jsonl")
	const flags = os.O_WRONLY | os.O_APPEND | os.O_CREATE
	f, err := os.OpenFile(name, flags, 0o644)
	if errors.Is(err, fs.ErrNotExist) { // first call in this project: make the folder
		// .hookwright, then journal, one level each: a project folder that
		// does not exist is an error, never a folder to create.
		for _, d := range []string{filepath.Dir(folder), folder} {
			if err := os.Mkdir(d, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
				return fmt.Errorf("journal: %w", err)
			}
		}
		f, err = os.OpenFile(name, flags, 0o644)
	}
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	_, werr := f.Write(append(line, '\n'))
	return errors.Join(werr, f.Close())
}

// ReadAll returns every entry of the project at dir, oldest file first. A
// line that does not parse (a torn write after a crash) is skipped and
// counted in bad.
func ReadAll(dir string) (entries []Entry, bad int, err error) {
	files, err := filepath.Glob(filepath.Join(dir, Dir, "*.jsonl"))
	if err != nil {
		return nil, 0, err
	}
	sort.Strings(files)
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return entries, bad, err
		}
		n, e := Scan(f, func(e Entry) { entries = append(entries, e) })
		f.Close()
		bad += n
		if e != nil {
			return entries, bad, fmt.Errorf("%s: %w", name, e)
		}
	}
	return entries, bad, nil
}

// Scan calls fn for each entry in r and returns how many lines did not parse.
func Scan(r io.Reader, fn func(Entry)) (bad int, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 8<<20)
	for sc.Scan() {
		var e Entry
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			bad++
			continue
		}
		fn(e)
	}
	return bad, sc.Err()
}
