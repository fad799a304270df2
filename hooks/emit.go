package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/hookwright/hookwright/internal/runtime/ccversion"
)

// Exit codes of the hook runtime. Only a handler's Block ever yields
// ExitBlock; every internal problem is ExitError, which Claude Code shows to
// the user without blocking anything.
const (
	ExitOK    = 0 // go on; stdout may carry JSON
	ExitError = 1 // non-blocking error, one line on stderr
	ExitBlock = 2 // block; stderr is the reason given to Claude
)

// Band is what the runtime knows of the running Claude Code's protocol. The
// zero Band is the conservative floor: exit 2 is the only block channel.
type Band struct {
	// Version is the band's first release, as given by --proto.
	Version ccversion.Release
}

// ParseBand parses a release such as "2.1.69" into a Band.
func ParseBand(s string) (Band, error) {
	r, err := ccversion.Parse(s)
	if err != nil {
		return Band{}, fmt.Errorf("protocol band: %w", err)
	}
	return Band{Version: r}, nil
}

// AtLeast reports whether the band is at or after release maj.min.patch.
func (b Band) AtLeast(maj, min, patch int) bool {
	return !b.Version.Less(ccversion.Release{maj, min, patch})
}

// teamStopJSON reports whether continue:false works on TeammateIdle and
// TaskCompleted (2.1.69+).
func (b Band) teamStopJSON() bool { return b.AtLeast(2, 1, 69) }

// canBlock lists the events on which exit 2 blocks something.
var canBlock = map[Event]bool{
	EventPreToolUse: true, EventPostToolUse: true, EventUserPromptSubmit: true,
	EventUserPromptExpansion: true, EventStop: true, EventSubagentStop: true,
	EventTeammateIdle: true, EventTaskCompleted: true, EventTaskCreated: true,
	EventConfigChange: true, EventPreCompact: true, EventElicitation: true,
	EventElicitationResult: true, EventWorktreeCreate: true, EventPostToolBatch: true,
}

// Emit writes res for event in the protocol and returns the exit code. It is
// the only place where a result becomes an exit code:
//
//   - Block: the reason on stderr and ExitBlock, except on PermissionRequest
//     (which ignores exit 2: a JSON deny instead) and on events that cannot
//     block (the reason becomes a system message).
//   - Halt: {"continue":false,"stopReason":...}. On TeammateIdle and
//     TaskCompleted below 2.1.69 that JSON is not understood, so the halt
//     degrades to a block with the same reason.
//   - Otherwise JSON on stdout when there is anything to say, ExitOK.
//
// Context goes into hookSpecificOutput.additionalContext where the event
// takes it, and into systemMessage elsewhere.
func Emit(stdout, stderr io.Writer, event Event, res Result, band Band) int {
	if res.Halt && (event == EventTeammateIdle || event == EventTaskCompleted) && !band.teamStopJSON() {
		res = Result{Decision: Block, Reason: res.StopReason}
	}
	if res.Decision == Block && event != EventPermissionRequest {
		if canBlock[event] {
			reason := strings.TrimSpace(res.Reason)
			if reason == "" {
				reason = "blocked by hookwright"
			}
			fmt.Fprintln(stderr, reason)
			return ExitBlock
		}
		res.SystemMessage = join(res.SystemMessage, res.Reason, "\n")
		res.Decision, res.Reason = None, ""
	}
	out := render(event, res)
	if out == nil {
		return ExitOK
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)                // Claude Code reads JSON, not HTML
	if err := enc.Encode(out); err != nil { // cannot happen with these types; never block on it
		fmt.Fprintf(stderr, "hookwright: encoding output: %v\n", err)
		return ExitError
	}
	stdout.Write(buf.Bytes())
	return ExitOK
}

// render builds the typed output value for event, or nil when res has
// nothing to say.
func render(event Event, res Result) any {
	if res.Empty() {
		return nil
	}
	base := Output{SystemMessage: res.SystemMessage}
	if res.Halt {
		f := false
		base.Continue, base.StopReason = &f, res.StopReason
	}
	ctx := func() *ContextSpecific {
		if res.Context == "" {
			return nil
		}
		return &ContextSpecific{HookEventName: event, AdditionalContext: res.Context}
	}
	switch event {
	case EventPreToolUse:
		out := PreToolUseOutput{Output: base}
		if res.Decision != None || res.Context != "" || res.UpdatedInput != nil {
			spec := &PreToolUseSpecific{HookEventName: event, UpdatedInput: res.UpdatedInput, AdditionalContext: res.Context}
			if res.Decision != None {
				spec.PermissionDecision, spec.PermissionDecisionReason = res.Decision.String(), res.Reason
			}
			out.HookSpecificOutput = spec
		}
		return out
	case EventPermissionRequest:
		out := PermissionRequestOutput{Output: base}
		out.SystemMessage = join(out.SystemMessage, res.Context, "\n")
		switch res.Decision {
		case Allow:
			out.HookSpecificOutput = &PermissionRequestSpecific{event, &PermissionDecision{Behavior: "allow", UpdatedInput: res.UpdatedInput}}
		case Block:
			out.HookSpecificOutput = &PermissionRequestSpecific{event, &PermissionDecision{Behavior: "deny", Message: res.Reason}}
		}
		return out
	case EventSessionStart, EventSubagentStart, EventPostToolUseFailure:
		return ContextOutput{Output: base, HookSpecificOutput: ctx()}
	case EventUserPromptSubmit, EventPostToolUse:
		return DecisionContextOutput{Output: base, HookSpecificOutput: ctx()}
	default:
		base.SystemMessage = join(base.SystemMessage, res.Context, "\n")
		if base == (Output{}) {
			return nil
		}
		return base
	}
}
