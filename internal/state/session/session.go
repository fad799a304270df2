// Package session is the session fingerprint: which Claude Code release,
// which commit and which hookwright version ran a session, when it started
// and ended, and its hook and tool call totals. The session handlers write
// it; `hwctl sessions`, the store and the OpenTelemetry export read it.
//
// # The files
//
// Sessions are recorded in append-only day files,
// .hookwright/sessions/<YYYY-MM-DD>.jsonl (UTC), like the journal: every
// SessionStart adds one [Record] line, and SessionEnd adds one with the end
// and the totals. [Load] and [List] fold a session's lines, from every day
// file it wrote to, into a [Fingerprint]. A record is one write to the end
// of a file that usually exists already (package safepath's Append: no
// symlink, no hard link, regular files only). So a start costs no read,
// no lock, no new file and no rename: replacing a file by a rename makes
// ext4 flush it, and creating a file makes it look for a free inode, which
// on a busy disk (a build deleting files) took a SessionStart hundreds of
// microseconds. A torn last line after a crash is skipped.
//
// Earlier releases kept each session in <id>.json, rewritten on every
// start; [Load] and [List] still read those, and fold newer lines on top.
//
// The session id must pass [safepath.Name]. Reads are bounded: the newest
// [MaxDays] day files, the last [MaxTail] bytes of each.
package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
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

// Ext is the extension of a day file; LegacyExt that of the per-session
// file earlier releases rewrote on every start.
const (
	Ext       = ".jsonl"
	LegacyExt = ".json"
)

// MaxStarts bounds the start records kept per session.
const MaxStarts = 20

// Read bounds: the newest MaxDays day files are read, at most the last
// MaxTail bytes of each.
const (
	MaxDays = 92
	MaxTail = 8 << 20
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

// Record is one line of a day file: a session's start (Start set) or end
// (End set), with what the hook learned then. Empty fields say nothing.
type Record struct {
	SessionID         string  `json:"session_id"`
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

// at is the time of the record.
func (r Record) at() time.Time {
	switch {
	case r.Start != nil:
		return r.Start.At
	case r.End != nil:
		return r.End.At
	}
	return time.Time{}
}

// Apply folds r into fp. A start sets what it carries and adds to Starts
// (the last [MaxStarts] are kept); an end sets the end, the totals, and
// the Claude Code version only when no start knew it. The first record
// sets Started.
func (fp *Fingerprint) Apply(r Record) {
	switch {
	case r.Start != nil:
		fp.Starts = append(fp.Starts, *r.Start)
		if n := len(fp.Starts); n > MaxStarts {
			fp.Starts = append([]Start(nil), fp.Starts[n-MaxStarts:]...)
		}
		set(&fp.ClaudeVersion, r.ClaudeVersion)
	case r.End != nil:
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
		fp.Started = r.at()
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

// DayFile returns the day file a record made at t goes to, in the project
// at dir.
func DayFile(dir string, t time.Time) (safepath.Path, error) {
	f, err := folder(dir)
	if err != nil {
		return safepath.Path{}, err
	}
	return f.Join(t.UTC().Format(time.DateOnly) + Ext), nil
}

// Append adds r to the day file of its time, in one write, creating the
// file and its folder when needed. It is not synced to disk: a fingerprint
// is a record a crash may lose.
func Append(dir string, r Record) error {
	if err := safepath.Name("session id", r.SessionID); err != nil {
		return err
	}
	at := r.at()
	if at.IsZero() {
		return fmt.Errorf("session: a record is a start or an end")
	}
	path, err := DayFile(dir, at)
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
// keeps. Other records go through encoding/json, HTML escaping off too,
// so that an id is spelled the same in every line ([Load] looks for it).
func encode(r Record) ([]byte, error) {
	if r.Start == nil || r.End != nil || r.Totals != nil || r.Start.At.Year() < 0 || r.Start.At.Year() > 9999 {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(r); err != nil {
			return nil, err
		}
		return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
	}
	b := make([]byte, 0, 512)
	b = append(b, `{"session_id":`...)
	b = jsonline.AppendString(b, r.SessionID)
	b = append(b, `,"start":{"source":`...)
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

// Load returns one session of the project at dir: an earlier release's
// <id>.json, if any, with the session's records from the day files folded
// on top. A session with none is an error wrapping fs.ErrNotExist.
func Load(dir, sessionID string) (Fingerprint, error) {
	if err := safepath.Name("session id", sessionID); err != nil {
		return Fingerprint{}, err
	}
	all, err := load(dir, sessionID)
	if err != nil {
		return Fingerprint{}, err
	}
	fp, ok := all[sessionID]
	if !ok {
		return Fingerprint{}, fmt.Errorf("session %s: %w", sessionID, fs.ErrNotExist)
	}
	return *fp, nil
}

// All returns every recorded session of the project at dir by id: one
// read of the files for a reader that looks many sessions up ([Load]
// reads them all for one).
func All(dir string) (map[string]Fingerprint, error) {
	all, err := load(dir, "")
	if err != nil {
		return nil, err
	}
	out := make(map[string]Fingerprint, len(all))
	for id, fp := range all {
		out[id] = *fp
	}
	return out, nil
}

// List returns the recorded sessions of the project at dir, newest start
// first, at most limit of them (0: all).
func List(dir string, limit int) ([]Fingerprint, error) {
	all, err := load(dir, "")
	if err != nil {
		return nil, err
	}
	out := make([]Fingerprint, 0, len(all))
	for _, fp := range all {
		out = append(out, *fp)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Started.Equal(out[j].Started) {
			return out[i].Started.After(out[j].Started)
		}
		return out[i].SessionID < out[j].SessionID
	})
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// load folds the sessions of the project at dir, only the one called only
// when it is not empty: first the earlier releases' files, then the day
// files, oldest first. A missing folder has none.
func load(dir, only string) (map[string]*Fingerprint, error) {
	f, err := folder(dir)
	if err != nil {
		return nil, err
	}
	entries, err := safepath.ReadDir(f)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]*Fingerprint{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("sessions: %w", err)
	}
	all := map[string]*Fingerprint{}
	var days []string
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() {
			continue
		}
		if IsDayFile(name) {
			days = append(days, name)
			continue
		}
		id, ok := strings.CutSuffix(name, LegacyExt)
		if !ok || strings.HasPrefix(name, ".") || safepath.Name("session id", id) != nil || only != "" && id != only {
			continue
		}
		data, err := statefile.Read(f.Join(name))
		var fp Fingerprint
		if err != nil || json.Unmarshal(data, &fp) != nil {
			continue // a broken file counts as no record
		}
		fp.SessionID = id
		all[id] = &fp
	}
	sort.Strings(days) // YYYY-MM-DD: oldest first
	if len(days) > MaxDays {
		days = days[len(days)-MaxDays:]
	}
	var needle []byte
	if only != "" {
		needle = append(jsonline.AppendString([]byte(`"session_id":`), only), ',')
	}
	for _, day := range days {
		data, err := safepath.ReadTail(f.Join(day), MaxTail)
		if err != nil {
			continue
		}
		Fold(all, data, needle)
	}
	return all, nil
}

// IsDayFile reports whether name is a day file, YYYY-MM-DD.jsonl.
func IsDayFile(name string) bool {
	day, ok := strings.CutSuffix(name, Ext)
	if !ok || len(day) != len(time.DateOnly) {
		return false
	}
	_, err := time.Parse(time.DateOnly, day)
	return err == nil
}

// Fold applies the records of one day file's data to the sessions in all,
// adding sessions it has not seen. With a needle, only lines that contain
// it are read. Lines that do not parse (a torn write, a cut first line of
// a tail) and records of an unsafe id are skipped.
func Fold(all map[string]*Fingerprint, data, needle []byte) {
	for line := range bytes.Lines(data) {
		if needle != nil && !bytes.Contains(line, needle) {
			continue
		}
		var r Record
		if json.Unmarshal(line, &r) != nil || safepath.Name("session id", r.SessionID) != nil {
			continue
		}
		fp := all[r.SessionID]
		if fp == nil {
			fp = &Fingerprint{SessionID: r.SessionID}
		}
		fp.Apply(r)
		if !fp.Started.IsZero() {
			all[r.SessionID] = fp
		}
	}
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
