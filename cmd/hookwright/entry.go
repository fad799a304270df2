package main

import (
	"encoding/json"
	"strings"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/journal"
	"github.com/hookwright/hookwright/internal/runtime/redact"
	"github.com/hookwright/hookwright/internal/runtime/toolinput"
)

// maxErrorLine bounds the failure text a journal line keeps.
const maxErrorLine = 200

// describe fills the journal fields that depend on the event's type: the
// tool and what the call was about (Subject), the agent and team, and a
// tool's outcome and run time.
func describe(in hooks.Input, e *journal.Entry) {
	switch ev := in.(type) {
	case *hooks.PreToolUse:
		e.Tool, e.Subject = ev.ToolName, subject(ev.ToolInput)
	case *hooks.PermissionRequest:
		e.Tool, e.Subject = ev.ToolName, subject(ev.ToolInput)
	case *hooks.PostToolUse:
		e.Tool, e.ToolMillis, e.Outcome = ev.ToolName, ev.DurationMS, "success"
		e.Subject = subject(ev.ToolInput)
	case *hooks.PostToolUseFailure:
		e.Tool, e.ToolMillis, e.Outcome = ev.ToolName, ev.DurationMS, "failure"
		e.Subject = subject(ev.ToolInput)
		e.Error = firstLine(ev.Error, maxErrorLine)
	case *hooks.TeammateIdle:
		e.Agent, e.Team = ev.TeammateName, ev.TeamName
	case *hooks.TaskCompleted:
		e.Agent, e.Team = ev.TeammateName, ev.TeamName
	case *hooks.TaskCreated:
		e.Agent, e.Team = ev.TeammateName, ev.TeamName
	}
	if e.Agent == "" {
		e.Agent = in.Base().AgentType
	}
}

// firstLine returns s up to its first line break, cut to at most max bytes
// on a rune boundary.
func firstLine(s string, max int) string {
	s, _, _ = strings.Cut(s, "\n")
	s = strings.TrimSpace(s)
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && s[cut]&0xC0 == 0x80 { // back up to the start of a rune
		cut--
	}
	return s[:cut]
}

// bandName is the band as --proto named it, or "" without --proto.
func bandName(b hooks.Band) string {
	if b == (hooks.Band{}) {
		return ""
	}
	return b.Version.String()
}

// subjectKeys are the tool_input members that say what a call is about,
// in the order looked at: Bash's command, the file tools' paths, WebFetch's
// URL, Glob's and Grep's pattern, WebSearch's query, and the same names on
// MCP tools.
var subjectKeys = []string{"command", "file_path", "notebook_path", "url", "path", "pattern", "query"}

// subject is the journal's Subject of a tool call: the first of
// subjectKeys that tool_input holds as a string, redacted and bounded.
func subject(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	m, err := toolinput.Fields(raw)
	if err != nil {
		return ""
	}
	for _, k := range subjectKeys {
		if v := toolinput.String(m, k); v != "" {
			return redact.Subject(v, journal.MaxSubject)
		}
	}
	return ""
}
