package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/hookwright/hookwright/internal/termsafe"
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
// zero Band is the conservative floor: every event gets the block channel it
// has at the plugin floor (2.0.12).
type Band struct {
	// Version is the band's first release, as given by --proto.
	Version Release
}

// ParseBand parses a release such as "2.1.69" into a Band.
func ParseBand(s string) (Band, error) {
	r, err := ParseRelease(s)
	if err != nil {
		return Band{}, fmt.Errorf("protocol band: %w", err)
	}
	return Band{Version: r}, nil
}

// AtLeast reports whether the band is at or after release maj.min.patch.
func (b Band) AtLeast(maj, min, patch int) bool {
	return !b.Version.Less(Release{maj, min, patch})
}

// Emit writes res for event in the protocol and returns the exit code. It is
// the only place where a result becomes an exit code, and it follows the
// block channel that compat's matrix gives event on band ([ChannelOf], read
// from the generated release table):
//
//   - Block: on an exit-2 or feedback channel (and json-continue, where exit
//     2 still works), the reason on stderr and ExitBlock. On
//     PermissionRequest (json-decision; it ignores exit 2) a JSON deny. On
//     an event that cannot block on this band (PreCompact before 2.1.105,
//     PostToolBatch, SessionEnd, ...) the reason becomes a system message.
//   - Halt: {"continue":false,"stopReason":...}. On an event whose own halt
//     channel arrives later (TeammateIdle and TaskCompleted before 2.1.69)
//     that JSON is not understood there, so the halt degrades to a block
//     with the same reason.
//   - Otherwise JSON on stdout when there is anything to say, ExitOK.
//
// Context goes into hookSpecificOutput.additionalContext where the event
// takes it, and into systemMessage elsewhere.
//
// Every text of res reaches the user's terminal (stderr, systemMessage,
// the reasons) and quotes what the model or the project chose (a path, a
// command): its control characters and bidi overrides are made visible
// as escapes ([termsafe.Text]); newlines and tabs stay.
func Emit(stdout, stderr io.Writer, event Event, res Result, band Band) int {
	res.Reason, res.SystemMessage = termsafe.Text(res.Reason), termsafe.Text(res.SystemMessage)
	res.StopReason, res.Context = termsafe.Text(res.StopReason), termsafe.Text(res.Context)
	channel := ChannelOf(event, band)
	if res.Halt && channel != ChannelContinue && canHalt(event) {
		res = Result{Decision: Block, Reason: res.StopReason}
	}
	if res.Decision == Block && channel != ChannelDecision {
		switch channel {
		case ChannelExit2, ChannelFeedback, ChannelContinue:
			reason := strings.TrimSpace(res.Reason)
			if reason == "" {
				reason = "blocked by a hook"
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
		fmt.Fprintf(stderr, "hooks: encoding output: %v\n", err)
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
