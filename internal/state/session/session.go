// Package session is the session fingerprint: which Claude Code release,
// which commit and which hookwright version ran a session, when it started
// and ended, and its hook and tool call totals. The session handlers write
// it; `hwctl sessions`, the store and the OpenTelemetry export read it.
//
// # The file
//
// Each session has one append-only file, .hookwright/sessions/<id>.jsonl:
// every SessionStart adds one [Record] line, and SessionEnd adds one with
// the end and the totals. [Load] folds the lines into a [Fingerprint]. A
// record is one write to the end of the file (package safepath's Append:
// no symlink, no hard link, regular files only), so a start costs no read,
// no lock, no temporary file and no rename: replacing a file by a rename
// makes ext4 flush it, and that flush was most of SessionStart's cost. A
// torn last line after a crash is skipped.
//
// Earlier releases kept the whole fingerprint in <id>.json, rewritten on
// every start; [Load] and [List] still read it, and fold the .jsonl lines
// on top of it.
//
// The session id must pass [safepath.Name] before it becomes a file name.
// Reads are bounded: the first [MaxHead] and the last [MaxTail] bytes of a
// log that outgrew them.
package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/runtime/jsonline"
	"github.com/hookwright/hookwright/internal/runtime/project"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
	"github.com/hookwright/hookwright/internal/runtime/statefile"
)

// Dir is the folder of the session files, relative to the project.
const Dir = config.Dir + "/sessions"

// Ext is the extension of a session's log; LegacyExt that of the
// fingerprint file earlier releases rewrote on every start.
const (
	Ext       = ".jsonl"
	LegacyExt = ".json"
)

// MaxStarts bounds the start records kept per session.
const MaxStarts = 20

// Read bounds: of a log larger than MaxHead+MaxTail, the first MaxHead
// bytes (the first start) and the last MaxTail bytes are read.
const (
	MaxHead = 64 << 10
	MaxTail = 1 << 20
)

// Fingerprint is one session, as [Load] folds its records.
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

// End is the SessionEnd of a session.
type End struct {
	At     time.Time `json:"at"`
	Reason string    `json:"reason,omitempty"`
}

// Record is one line of a session's log: a start (Start set) or an end
// (End set), with what the hook learned then. Empty fields say nothing.
type Record struct {
	Start             *Start  `json:"start,omitempty"`
	End               *End    `json:"end,omitempty"`
	Cwd               string  `json:"cwd,omitempty"`
	TranscriptPath    string  `json:"transcript_path,omitempty"`
	Model             string  `json:"model,omitempty"`
	ClaudeVersion     string  `json:"claude_version,omitempty"`
	GitHead           string  `json:"git_head,omitempty"`
	GitBranch         string  `json:"git_branch,omitempty"`
	HookwrightVersion string  `json:"hookwright_version,omitempty"`
	PPID              int     `json:"ppid,omitempty"`
	Terminal          string  `json:"terminal,omitempty"`
	Totals            *Totals `json:"totals,omitempty"`
}

// Apply folds r into fp. A start sets what it carries and adds to Starts
// (the last [MaxStarts] are kept); an end sets the end, the totals, and
// the Claude Code version only when no start knew it. The first record
// sets Started.
func (fp *Fingerprint) Apply(r Record) {
	at := time.Time{}
	switch {
	case r.Start != nil:
		at = r.Start.At
		fp.Starts = append(fp.Starts, *r.Start)
		if n := len(fp.Starts); n > MaxStarts {
			fp.Starts = append([]Start(nil), fp.Starts[n-MaxStarts:]...)
		}
		set(&fp.ClaudeVersion, r.ClaudeVersion)
	case r.End != nil:
		at = r.End.At
		fp.Ended, fp.EndReason = r.End.At, r.End.Reason
		if r.Totals != nil {
			fp.Totals = r.Totals
		}
		if fp.ClaudeVersion == "" {
			fp.ClaudeVersion = r.ClaudeVersion
		}
	default:
		return
	}
	if fp.Started.IsZero() {
		fp.Started = at
	}
	set(&fp.Cwd, r.Cwd)
	set(&fp.TranscriptPath, r.TranscriptPath)
	set(&fp.Model, r.Model)
	set(&fp.GitHead, r.GitHead)
	set(&fp.GitBranch, r.GitBranch)
	set(&fp.HookwrightVersion, r.HookwrightVersion)
	set(&fp.Terminal, r.Terminal)
	if r.PPID != 0 {
		fp.PPID = r.PPID
	}
}

func set(dst *string, v string) {
	if v != "" {
		*dst = v
	}
}

// folder is the sessions folder of the project at dir.
func folder(dir string) (safepath.Path, error) { return project.Path(dir, Dir) }

// File returns the path of the session's log in the project at dir.
func File(dir, sessionID string) (safepath.Path, error) {
	if err := safepath.Name("session id", sessionID); err != nil {
		return safepath.Path{}, err
	}
	f, err := folder(dir)
	if err != nil {
		return safepath.Path{}, err
	}
	return f.Join(sessionID + Ext), nil
}

// Append adds r to the session's log in one write, creating the file and
// its folder when needed. It is not synced to disk: a fingerprint is a
// record a crash may lose.
func Append(dir, sessionID string, r Record) error {
	path, err := File(dir, sessionID)
	if err != nil {
		return err
	}
	line, err := encode(r)
	if err != nil {
		return err
	}
	if err := safepath.Append(path, append(line, '\n')); err != nil {
		return fmt.Errorf("session: %w", err)
	}
	return nil
}

// encode returns r as one JSON object. A start, written on every
// SessionStart, is written by hand (see package jsonline): the same bytes
// as json.Marshal with HTML escaping off, which TestEncodeMatchesJSON
// keeps. Other records go through encoding/json.
func encode(r Record) ([]byte, error) {
	if r.Start == nil || r.End != nil || r.Totals != nil || r.Start.At.Year() < 0 || r.Start.At.Year() > 9999 {
		return json.Marshal(r)
	}
	b := make([]byte, 0, 512)
	b = append(b, `{"start":{"source":`...)
	b = jsonline.AppendString(b, r.Start.Source)
	b = append(b, `,"at":"`...)
	b = r.Start.At.AppendFormat(b, time.RFC3339Nano)
	b = append(b, `"}`...)
	b = jsonline.AppendField(b, "cwd", r.Cwd)
	b = jsonline.AppendField(b, "transcript_path", r.TranscriptPath)
	b = jsonline.AppendField(b, "model", r.Model)
	b = jsonline.AppendField(b, "claude_version", r.ClaudeVersion)
	b = jsonline.AppendField(b, "git_head", r.GitHead)
	b = jsonline.AppendField(b, "git_branch", r.GitBranch)
	b = jsonline.AppendField(b, "hookwright_version", r.HookwrightVersion)
	if r.PPID != 0 {
		b = append(b, `,"ppid":`...)
		b = strconv.AppendInt(b, int64(r.PPID), 10)
	}
	b = jsonline.AppendField(b, "terminal", r.Terminal)
	return append(b, '}'), nil
}

// Load returns the session's fingerprint in the project at dir: the file
// an earlier release wrote, if any, with the log's records folded on top.
// A session with neither file is an error wrapping fs.ErrNotExist. Lines
// that do not parse are skipped.
func Load(dir, sessionID string) (Fingerprint, error) {
	path, err := File(dir, sessionID)
	if err != nil {
		return Fingerprint{}, err
	}
	legacy, err := statefile.Read(legacyPath(path))
	if err != nil {
		return Fingerprint{}, err
	}
	head, tail, err := readLog(path)
	switch {
	case errors.Is(err, os.ErrNotExist) && legacy != nil:
	case err != nil:
		return Fingerprint{}, err
	}
	return Parse(sessionID, legacy, head, tail), nil
}

// legacyPath is the <id>.json next to the log at path.
func legacyPath(path safepath.Path) safepath.Path {
	return safepath.Path{Root: path.Root, Rel: strings.TrimSuffix(path.Rel, Ext) + LegacyExt}
}

// readLog reads the log at path within the bounds: all of it, or its
// head and its tail.
func readLog(path safepath.Path) (head, tail []byte, err error) {
	f, info, err := safepath.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	if info.Size() <= MaxHead+MaxTail {
		data, err := io.ReadAll(io.LimitReader(f, MaxHead+MaxTail))
		return data, nil, err
	}
	head = make([]byte, MaxHead)
	if _, err := io.ReadFull(f, head); err != nil {
		return nil, nil, err
	}
	tail = make([]byte, MaxTail)
	if _, err := f.ReadAt(tail, info.Size()-MaxTail); err != nil && !errors.Is(err, io.EOF) {
		return nil, nil, err
	}
	return head, tail, nil
}

// Parse folds a session's files: legacy is the <id>.json of an earlier
// release (nil when none), head the log (or its first bytes) and tail its
// last bytes when the log was read in two parts (the head's last line and
// the tail's first are cut, and skipped). The id is set.
func Parse(sessionID string, legacy, head, tail []byte) Fingerprint {
	var fp Fingerprint
	if len(legacy) > 0 && json.Unmarshal(legacy, &fp) != nil {
		fp = Fingerprint{}
	}
	fold := func(data []byte, skipFirst, skipLast bool) {
		lines := bytes.Split(data, []byte("\n"))
		for i, line := range lines {
			if i == 0 && skipFirst || i == len(lines)-1 && skipLast || len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			var r Record
			if json.Unmarshal(line, &r) == nil {
				fp.Apply(r)
			}
		}
	}
	fold(head, false, tail != nil)
	if tail != nil {
		fold(tail, true, false)
	}
	fp.SessionID = sessionID
	return fp
}

// IDs returns the ids of the sessions recorded in the project at dir, from
// both file names, in name order; a missing folder has none.
func IDs(dir string) ([]string, error) {
	f, err := folder(dir)
	if err != nil {
		return nil, err
	}
	entries, err := safepath.ReadDir(f)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("sessions: %w", err)
	}
	var ids []string
	seen := map[string]bool{}
	for _, e := range entries {
		id, ok := ID(e.Name())
		if !ok || !e.Type().IsRegular() || seen[id] {
			continue
		}
		seen[id] = true
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids, nil
}

// ID returns the session id a file name in the sessions folder stands
// for: <id>.jsonl or an earlier release's <id>.json; hidden files and
// names that are no safe id are none.
func ID(name string) (string, bool) {
	id, ok := strings.CutSuffix(name, Ext)
	if !ok {
		id, ok = strings.CutSuffix(name, LegacyExt)
	}
	if !ok || strings.HasPrefix(name, ".") || safepath.Name("session id", id) != nil {
		return "", false
	}
	return id, true
}

// List returns the recorded sessions of the project at dir, newest start
// first, at most limit of them (0: all). Sessions whose files do not
// parse are skipped.
func List(dir string, limit int) ([]Fingerprint, error) {
	ids, err := IDs(dir)
	if err != nil {
		return nil, err
	}
	var out []Fingerprint
	for _, id := range ids {
		fp, err := Load(dir, id)
		if err != nil || fp.Started.IsZero() && len(fp.Starts) == 0 && fp.Ended.IsZero() {
			continue
		}
		out = append(out, fp)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Started.After(out[j].Started) })
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
