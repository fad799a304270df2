// Package session is the session fingerprint file,
// .hookwright/sessions/<session_id>.json: which Claude Code release, which
// commit and which hookwright version ran a session, when it started and
// ended, and its hook and tool call totals. The session handlers write it;
// `hwctl sessions`, the store and the OpenTelemetry export read it. Files
// are updated under a lock and replaced atomically, without an fsync
// (internal/runtime/statefile), and the session id must pass
// [safepath.Name] before it becomes a file name.
package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/runtime/project"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
	"github.com/hookwright/hookwright/internal/runtime/statefile"
)

// Dir is the folder of the session files, relative to the project.
const Dir = config.Dir + "/sessions"

// MaxStarts bounds the start records kept per session.
const MaxStarts = 20

// Fingerprint is one session file.
type Fingerprint struct {
	SessionID         string    `json:"session_id"`
	Started           time.Time `json:"started"`
	Starts            []Start   `json:"starts,omitempty"`
	Ended             time.Time `json:"ended,omitzero"`
	EndReason         string    `json:"end_reason,omitempty"`
	Cwd               string    `json:"cwd,omitempty"`
	TranscriptPath    string    `json:"transcript_path,omitempty"`
	Model             string    `json:"model,omitempty"`
	ClaudeVersion     string    `json:"claude_version,omitempty"`
	GitHead           string    `json:"git_head,omitempty"`
	GitBranch         string    `json:"git_branch,omitempty"`
	HookwrightVersion string    `json:"hookwright_version,omitempty"`
	// PPID is the process that started the hook: Claude Code itself, or
	// the shell it ran the command through. Terminal is the terminal the
	// session runs in, from $TERM_PROGRAM, else $TERM; empty when
	// headless.
	PPID     int    `json:"ppid,omitempty"`
	Terminal string `json:"terminal,omitempty"`
	// Totals are the session's hook calls, written at SessionEnd.
	Totals *Totals `json:"totals,omitempty"`
}

// Start is one SessionStart of a session.
type Start struct {
	Source string    `json:"source"`
	At     time.Time `json:"at"`
}

// File returns the path of the session's file in the project at dir.
func File(dir, sessionID string) (safepath.Path, error) {
	if err := safepath.Name("session id", sessionID); err != nil {
		return safepath.Path{}, err
	}
	folder, err := project.Path(dir, Dir)
	if err != nil {
		return safepath.Path{}, err
	}
	return folder.Join(sessionID + ".json"), nil
}

// Change updates the session's file under its lock: edit gets the
// fingerprint as stored (a broken file reads as empty) with its id set.
// The file is replaced atomically but not synced to disk: a fingerprint is
// a record a crash may lose, and its fsync was most of SessionStart's cost.
func Change(dir, sessionID string, edit func(*Fingerprint)) error {
	path, err := File(dir, sessionID)
	if err != nil {
		return err
	}
	return statefile.UpdateUnsynced(path, func(old []byte) ([]byte, error) {
		var fp Fingerprint
		if len(old) > 0 && json.Unmarshal(old, &fp) != nil {
			fp = Fingerprint{} // a broken file is replaced, not kept
		}
		fp.SessionID = sessionID
		edit(&fp)
		data, err := json.MarshalIndent(fp, "", "  ")
		return append(data, '\n'), err
	})
}

// List returns the recorded sessions of the project at dir, newest start
// first, at most limit of them (0: all). Files that do not parse are
// skipped.
func List(dir string, limit int) ([]Fingerprint, error) {
	folder, err := project.Path(dir, Dir)
	if err != nil {
		return nil, err
	}
	entries, err := safepath.ReadDir(folder)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("sessions: %w", err)
	}
	var out []Fingerprint
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		data, err := statefile.Read(folder.Join(e.Name()))
		var fp Fingerprint
		if err != nil || json.Unmarshal(data, &fp) != nil {
			continue
		}
		out = append(out, fp)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Started.After(out[j].Started) })
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

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
		out[i] = k + "×" + strconv.Itoa(t.Tools[k])
	}
	return out
}
