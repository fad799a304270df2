package main

import (
	"strings"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/journal"
)

// maxErrorLine bounds the failure text a journal line keeps.
const maxErrorLine = 200

// describe fills the journal fields that depend on the event's type: the
// tool, the agent and team, and a tool's outcome and run time.
func describe(in hooks.Input, e *journal.Entry) {
	switch ev := in.(type) {
	case *hooks.PreToolUse:
		e.Tool = ev.ToolName
	case *hooks.PermissionRequest:
		e.Tool = ev.ToolName
	case *hooks.PostToolUse:
		e.Tool, e.ToolMillis, e.Outcome = ev.ToolName, ev.DurationMS, "success"
	case *hooks.PostToolUseFailure:
		e.Tool, e.ToolMillis, e.Outcome = ev.ToolName, ev.DurationMS, "failure"
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
