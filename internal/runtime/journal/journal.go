// Package journal appends one JSON line per hook call to
// .hookwright/journal/<UTC date>.jsonl under the project folder. It is the
// event log the dashboard and the query tool read; the hot path only ever
// appends, with one write per call, so concurrent hooks never interleave
// lines. The file is opened through package safepath: inside the project
// (a symlinked .hookwright or journal file cannot lead out), without
// blocking (a FIFO in its place costs nothing), and only when it is a
// regular file with no other hard link.
package journal

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/hookwright/hookwright/internal/runtime/safepath"
)

// Dir is the journal folder, relative to the project.
const Dir = ".hookwright/journal"

// MaxSubject bounds Entry.Subject.
const MaxSubject = 512

// Entry is one hook call. Empty fields are left out of the line.
type Entry struct {
	Time    time.Time `json:"ts"`
	Session string    `json:"session,omitempty"`
	// Event is the canonical event the handlers saw; Via is the event
	// Claude Code fired, when a fallback adapted it.
	Event string `json:"event"`
	Via   string `json:"via,omitempty"`
	// Async marks the asynchronous registration's call (hookwright
	// <event> --async), which Claude Code ran in the background: not a
	// tool call of its own.
	Async bool `json:"async,omitempty"`
	// Kind is what happened, where Claude Code shows it: one of the
	// Kind* constants, or "" for a call of no kind ([KindOf]).
	Kind string `json:"kind,omitempty"`
	// Target is what the event's matcher filters: the tool name, the
	// SessionStart source, the agent type, ...
	Target string `json:"target,omitempty"`
	// Tool is the tool name on the tool events (PreToolUse, PostToolUse,
	// PostToolUseFailure, PermissionRequest).
	Tool string `json:"tool,omitempty"`
	// Subject is what a tool call was about: its command, file path, URL,
	// pattern or query, on one line, secret-looking values redacted
	// (package redact), at most MaxSubject bytes.
	Subject string `json:"subject,omitempty"`
	// Agent is the teammate's name on team events, else the subagent's
	// type where the event gives one; Team is the agent team's name.
	Agent string `json:"agent,omitempty"`
	Team  string `json:"team,omitempty"`
	// Band is the protocol band hooks.json named (--proto), if any.
	Band     string `json:"band,omitempty"`
	Decision string `json:"decision,omitempty"`
	Reason   string `json:"reason,omitempty"`
	// Handler names the handler whose decision or halt the call answered
	// with; empty when no handler decided. Rule is the rule of that
	// handler that decided, where it has rules: the guard's rule id
	// ("git-force-push", "database.drop"), which its reason names too.
	Handler string `json:"handler,omitempty"`
	Rule    string `json:"rule,omitempty"`
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

// The kinds of journal lines: what happened, in the words of PAL Kit's
// typed events.
const (
	KindAgentStarted    = "agent_started"    // SubagentStart
	KindAgentStopped    = "agent_stopped"    // SubagentStop (or an idle seen through it)
	KindCheckpoint      = "checkpoint"       // PreCompact, manual: the compaction snapshot
	KindContextOverflow = "context_overflow" // PreCompact, auto: the context overflowed (a snapshot too)
	KindQualityWarning  = "quality_warning"  // a quality check after an edit found something
	KindBlock           = "block"            // any call that blocked
	KindAsk             = "ask"              // any call that asked the user
	// KindUntrackedEdit: an edit outside a work unit that work.mode
	// "warn" let through (PAL Kit's untracked_edit).
	KindUntrackedEdit = "untracked_edit"
	// KindContextLoaded: a session start whose reply gave the model
	// context (a briefing: the scratchpad's, the compaction's).
	KindContextLoaded = "context_loaded"
	// KindDependencyResolved: a task completed whose completion made
	// another task of the list ready (every task it was blocked by done).
	KindDependencyResolved = "dependency_resolved"
)

// Kinds lists every kind, for filters that check a value.
var Kinds = []string{KindAgentStarted, KindAgentStopped, KindCheckpoint, KindContextOverflow, KindQualityWarning,
	KindUntrackedEdit, KindContextLoaded, KindDependencyResolved, KindBlock, KindAsk}

// KindOf is the kind of a call: block and ask by its decision first (a
// blocked SubagentStop did not stop), then by its event; "" for the rest.
// It reads only fields every journal line has, so readers derive the kind
// of lines written before it existed.
func KindOf(event, via, target, decision string) string {
	switch decision {
	case "block":
		return KindBlock
	case "ask":
		return KindAsk
	}
	switch {
	case event == "SubagentStart":
		return KindAgentStarted
	case event == "SubagentStop" || via == "SubagentStop":
		return KindAgentStopped
	case event == "PreCompact" && target == "auto":
		return KindContextOverflow
	case event == "PreCompact":
		return KindCheckpoint
	}
	return ""
}

// RuleOf is the rule that decided the call e: its Rule, else, for a
// line the guard decided before lines carried the rule, the rule its
// reason names ("… (rule git-force-push; …)"); "" when none.
func RuleOf(e Entry) string {
	if e.Rule != "" || e.Handler != "guard" {
		return e.Rule
	}
	return RuleInReason(e.Reason)
}

// RuleInReason is the rule a guard reason names ("… (rule
// git-force-push; …"): the id after its last "(rule ", letters, digits,
// "-", "_" and "." up to ";" or ")"; "" when it names none.
func RuleInReason(reason string) string {
	i := strings.LastIndex(reason, "(rule ")
	if i < 0 {
		return ""
	}
	r := reason[i+len("(rule "):]
	n := strings.IndexFunc(r, func(c rune) bool {
		return !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.')
	})
	if n <= 0 || (r[n] != ';' && r[n] != ')') {
		return ""
	}
	return r[:n]
}

// Append writes e as one line to the journal of the project at dir.
func Append(dir string, e Entry) error {
	line := appendLine(make([]byte, 0, 256), e)
	name := safepath.Path{Root: dir, Rel: filepath.Join(filepath.FromSlash(Dir), e.Time.UTC().Format("2006-01-02")+".jsonl")}
	if err := safepath.Append(name, append(line, '\n')); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
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
		f, _, err := safepath.Open(safepath.At(name))
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

// QualityFeedbackPrefix starts the feedback the quality checker gives the
// model after an edit; a call whose context carries it is a
// [KindQualityWarning].
const QualityFeedbackPrefix = "hookwright quality, after the edit of "
