package hooks

import "encoding/json"

// Output holds the JSON fields every event accepts on stdout.
type Output struct {
	// Continue false stops Claude Code after the hook; nil leaves it out.
	Continue       *bool  `json:"continue,omitempty"`
	StopReason     string `json:"stopReason,omitempty"`
	SuppressOutput bool   `json:"suppressOutput,omitempty"`
	SystemMessage  string `json:"systemMessage,omitempty"`
}

// ContextSpecific is the hookSpecificOutput of events that take only
// additionalContext (SessionStart, SubagentStart, UserPromptSubmit,
// PostToolUse, PostToolUseFailure).
type ContextSpecific struct {
	HookEventName     Event  `json:"hookEventName"`
	AdditionalContext string `json:"additionalContext,omitempty"`
}

// ContextOutput is the stdout of SessionStart, SubagentStart and
// PostToolUseFailure.
type ContextOutput struct {
	Output
	HookSpecificOutput *ContextSpecific `json:"hookSpecificOutput,omitempty"`
}

// DecisionContextOutput is the stdout of UserPromptSubmit and PostToolUse.
type DecisionContextOutput struct {
	Output
	Decision           string           `json:"decision,omitempty"`
	Reason             string           `json:"reason,omitempty"`
	HookSpecificOutput *ContextSpecific `json:"hookSpecificOutput,omitempty"`
}

// PreToolUseSpecific is PreToolUse's hookSpecificOutput.
type PreToolUseSpecific struct {
	HookEventName            Event           `json:"hookEventName"`
	PermissionDecision       string          `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string          `json:"permissionDecisionReason,omitempty"`
	UpdatedInput             json.RawMessage `json:"updatedInput,omitempty"`
	AdditionalContext        string          `json:"additionalContext,omitempty"`
}

// PreToolUseOutput is the stdout of PreToolUse.
type PreToolUseOutput struct {
	Output
	HookSpecificOutput *PreToolUseSpecific `json:"hookSpecificOutput,omitempty"`
}

// PermissionDecision is PermissionRequest's verdict.
type PermissionDecision struct {
	Behavior     string          `json:"behavior"`
	UpdatedInput json.RawMessage `json:"updatedInput,omitempty"`
	Message      string          `json:"message,omitempty"`
}

// PermissionRequestSpecific is PermissionRequest's hookSpecificOutput.
type PermissionRequestSpecific struct {
	HookEventName Event               `json:"hookEventName"`
	Decision      *PermissionDecision `json:"decision,omitempty"`
}

// PermissionRequestOutput is the stdout of PermissionRequest, the one event
// that ignores exit 2: only this JSON can deny.
type PermissionRequestOutput struct {
	Output
	HookSpecificOutput *PermissionRequestSpecific `json:"hookSpecificOutput,omitempty"`
}
