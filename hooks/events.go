package hooks

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// Event is a Claude Code hook event name, spelled as in hooks.json
// ("PreToolUse", "TaskCompleted", ...).
type Event string

// Events returns every event of compat's matrix, in the order they arrived;
// this package has a type for each (the generated table would not compile
// otherwise).
func Events() []Event {
	out := make([]Event, len(releaseEvents))
	for i, e := range releaseEvents {
		out[i] = e.event
	}
	return out
}

// ParseEvent accepts an event name as hooks.json spells it ("PreToolUse") or
// in kebab case ("pre-tool-use"), case-insensitively, and returns the
// canonical name. It also takes the command names of the hook systems
// hookwright stands in for, so that a settings file copied from one runs
// its hooks: MoAI's "pre-tool", "post-tool" and "compact" (PreCompact),
// and DIA's script names with their "on-" prefix ("on-subagent-start").
// An unknown name is an error that lists no guesses: the caller prints it
// on one line.
func ParseEvent(name string) (Event, error) {
	for _, e := range releaseEvents { // the spelling hooks.json and hookgen write: no allocation
		if string(e.event) == name {
			return e.event, nil
		}
	}
	key := strings.ToLower(strings.ReplaceAll(name, "-", ""))
	key = strings.ReplaceAll(key, "_", "")
	if e, ok := eventAlias(key); ok {
		return e, nil
	}
	if k, ok := strings.CutPrefix(key, "on"); ok && k != "" && !strings.HasPrefix(k, "on") {
		if e, ok := lookupKey(k); ok {
			return e, nil
		}
	}
	if e, ok := lookupKey(key); ok {
		return e, nil
	}
	return "", fmt.Errorf("%w: %q", ErrUnknownEvent, name)
}

// eventAlias maps the source designs' command names, folded as
// ParseEvent folds them, to their events (MoAI SPEC-HOOK-001's "moai hook
// <name>"). A switch, not a map: the runtime builds nothing at start-up.
func eventAlias(key string) (Event, bool) {
	switch key {
	case "pretool":
		return EventPreToolUse, true
	case "posttool":
		return EventPostToolUse, true
	case "compact":
		return EventPreCompact, true
	}
	return "", false
}

// lookupKey finds the event whose folded name is key.
func lookupKey(key string) (Event, bool) {
	for _, e := range releaseEvents {
		if strings.ToLower(string(e.event)) == key && key != "" {
			return e.event, true
		}
	}
	return "", false
}

// NewInput returns a zero input value of the type for e, or nil when e is
// not a known event.
func NewInput(e Event) Input {
	if info, ok := lookup(e); ok {
		return info.new()
	}
	return nil
}

// lookup returns what this package knows of e.
func lookup(e Event) (eventFacts, bool) {
	for _, info := range releaseEvents {
		if info.event == e {
			return info, true
		}
	}
	return eventFacts{}, false
}

// Input is one decoded hook event. Every event type embeds [Common], so a
// handler can read the shared fields of any input through Base.
type Input interface {
	// Base returns the fields every event carries.
	Base() *Common
	// MatchTarget is the string a hooks.json matcher is tested against for
	// this event (the tool name for tool events, the source for
	// SessionStart, ...). It is empty for events that take no matcher.
	MatchTarget() string
}

// Common holds the fields every hook input carries.
type Common struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	HookEventName  Event  `json:"hook_event_name"`
	PermissionMode string `json:"permission_mode,omitempty"`
	// AgentID and AgentType are set by newer releases when the hook fires
	// inside a subagent.
	AgentID   string `json:"agent_id,omitempty"`
	AgentType string `json:"agent_type,omitempty"`

	// raw is the input as received and typ the event type it was decoded
	// into; Extra derives the unmodelled fields from them on demand, so the
	// hot path decodes the JSON once.
	raw []byte
	typ reflect.Type
}

// Base returns c itself; it makes every event type satisfy [Input].
func (c *Common) Base() *Common { return c }

// Extra returns every input field this package does not model, so that a
// newer Claude Code never makes a hook fail and handlers can still read
// what it sent. It parses the input again on each call: call it once.
func (c *Common) Extra() map[string]json.RawMessage {
	if c.raw == nil || c.typ == nil {
		return nil
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(c.raw, &fields) != nil {
		return nil
	}
	for name := range knownFields(c.typ) {
		delete(fields, name)
	}
	if len(fields) == 0 {
		return nil
	}
	return fields
}

// MatchTarget is empty for events without a matcher.
func (c *Common) MatchTarget() string { return "" }

// ProjectDir returns the project folder the hook call for in belongs to:
// $CLAUDE_PROJECT_DIR as getenv reads it, else the input's cwd (Claude Code
// 2.0.30 leaves the variable unset in SessionStart). A handler that keeps
// state in the project keeps it there.
func ProjectDir(in Input, getenv func(string) string) string {
	if d := getenv("CLAUDE_PROJECT_DIR"); d != "" {
		return d
	}
	return in.Base().Cwd
}

// ToolCall holds the fields of the tool events.
type ToolCall struct {
	ToolName  string          `json:"tool_name"`
	ToolInput json.RawMessage `json:"tool_input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
}

// PreToolUse fires before a tool runs; it can allow, ask, deny or rewrite it.
type PreToolUse struct {
	Common
	ToolCall
}

// MatchTarget is the tool name.
func (e *PreToolUse) MatchTarget() string { return e.ToolName }

// PostToolUse fires after a tool succeeded. It cannot undo the tool.
type PostToolUse struct {
	Common
	ToolCall
	ToolResponse json.RawMessage `json:"tool_response,omitempty"`
	// DurationMS is the tool's run time, on releases that send it.
	DurationMS int64 `json:"duration_ms,omitempty"`
}

// MatchTarget is the tool name.
func (e *PostToolUse) MatchTarget() string { return e.ToolName }

// PostToolUseFailure fires after a tool failed (2.0.56+).
type PostToolUseFailure struct {
	Common
	ToolCall
	Error       string `json:"error,omitempty"`
	IsInterrupt bool   `json:"is_interrupt,omitempty"`
	// DurationMS is the tool's run time, on releases that send it.
	DurationMS int64 `json:"duration_ms,omitempty"`
}

// MatchTarget is the tool name.
func (e *PostToolUseFailure) MatchTarget() string { return e.ToolName }

// PostToolBatch fires after a batch of parallel tool calls (2.1.118+).
type PostToolBatch struct {
	Common
	ToolCalls json.RawMessage `json:"tool_calls,omitempty"`
}

// PermissionRequest fires when a permission dialog would be shown (2.0.45+).
// It ignores exit 2: only its JSON decision counts.
type PermissionRequest struct {
	Common
	ToolCall
	PermissionSuggestions json.RawMessage `json:"permission_suggestions,omitempty"`
}

// MatchTarget is the tool name.
func (e *PermissionRequest) MatchTarget() string { return e.ToolName }

// Notification fires when Claude Code shows a notification.
type Notification struct {
	Common
	Message          string `json:"message"`
	Title            string `json:"title,omitempty"`
	NotificationType string `json:"notification_type,omitempty"`
}

// MatchTarget is the notification type.
func (e *Notification) MatchTarget() string { return e.NotificationType }

// UserPromptSubmit fires when the user submits a prompt.
type UserPromptSubmit struct {
	Common
	Prompt string `json:"prompt"`
}

// UserPromptExpansion fires when a prompt is expanded (2.1.116+).
type UserPromptExpansion struct {
	Common
	Prompt string `json:"prompt,omitempty"`
}

// Stop fires when the main agent finishes a turn. StopHookActive is true
// when Claude Code is already continuing because of a stop hook; a gate that
// honours it can never loop forever.
type Stop struct {
	Common
	StopHookActive       bool   `json:"stop_hook_active"`
	LastAssistantMessage string `json:"last_assistant_message,omitempty"`
}

// StopFailure fires when a turn ends on an error (2.1.78+).
type StopFailure struct {
	Common
	Error string `json:"error,omitempty"`
}

// SubagentStart fires when a subagent starts (2.0.43+).
type SubagentStart struct {
	Common
}

// MatchTarget is the agent type.
func (e *SubagentStart) MatchTarget() string { return e.AgentType }

// SubagentStop fires when a subagent finishes.
type SubagentStop struct {
	Common
	StopHookActive       bool   `json:"stop_hook_active"`
	AgentTranscriptPath  string `json:"agent_transcript_path,omitempty"`
	LastAssistantMessage string `json:"last_assistant_message,omitempty"`
}

// MatchTarget is the agent type.
func (e *SubagentStop) MatchTarget() string { return e.AgentType }

// PreCompact fires before the context is compacted.
type PreCompact struct {
	Common
	Trigger            string `json:"trigger"`
	CustomInstructions string `json:"custom_instructions,omitempty"`
}

// MatchTarget is the trigger ("manual" or "auto").
func (e *PreCompact) MatchTarget() string { return e.Trigger }

// PostCompact fires after the context was compacted (2.1.76+).
type PostCompact struct {
	Common
	Trigger string `json:"trigger,omitempty"`
}

// MatchTarget is the trigger ("manual" or "auto").
func (e *PostCompact) MatchTarget() string { return e.Trigger }

// SessionStart fires when a session starts, resumes, clears or compacts.
type SessionStart struct {
	Common
	Source string `json:"source"`
	Model  string `json:"model,omitempty"`
}

// MatchTarget is the source ("startup", "resume", "clear", "compact").
func (e *SessionStart) MatchTarget() string { return e.Source }

// SessionEnd fires when a session ends.
type SessionEnd struct {
	Common
	Reason string `json:"reason,omitempty"`
}

// MatchTarget is the reason.
func (e *SessionEnd) MatchTarget() string { return e.Reason }

// Team names the agent team a teammate belongs to. Both are empty outside a
// team session, and TeammateName is empty for the lead.
type Team struct {
	TeammateName string `json:"teammate_name,omitempty"`
	TeamName     string `json:"team_name,omitempty"`
}

// TeammateIdle fires when a teammate is about to go idle (2.1.33+).
type TeammateIdle struct {
	Common
	Team
}

// Task holds the fields of the task events.
type Task struct {
	TaskID          string `json:"task_id"`
	TaskSubject     string `json:"task_subject,omitempty"`
	TaskDescription string `json:"task_description,omitempty"`
}

// TaskCompleted fires when a task is marked completed (2.1.33+). Exit 2
// keeps the task open and gives the reason to the agent.
type TaskCompleted struct {
	Common
	Task
	Team
}

// TaskCreated fires when a task is created (2.1.84+).
type TaskCreated struct {
	Common
	Task
	Team
}

// ConfigChange fires when a settings file changes (2.1.49+).
type ConfigChange struct {
	Common
	Source   string `json:"source,omitempty"`
	FilePath string `json:"file_path,omitempty"`
}

// MatchTarget is the settings source.
func (e *ConfigChange) MatchTarget() string { return e.Source }

// WorktreeCreate fires when a worktree is created (2.1.50+).
type WorktreeCreate struct {
	Common
	Name string `json:"name,omitempty"`
}

// WorktreeRemove fires when a worktree is removed (2.1.50+).
type WorktreeRemove struct {
	Common
	WorktreePath string `json:"worktree_path,omitempty"`
}

// InstructionsLoaded fires when a CLAUDE.md or rules file is loaded (2.1.69+).
type InstructionsLoaded struct {
	Common
	FilePath   string `json:"file_path,omitempty"`
	MemoryType string `json:"memory_type,omitempty"`
	LoadReason string `json:"load_reason,omitempty"`
}

// MatchTarget is the load reason.
func (e *InstructionsLoaded) MatchTarget() string { return e.LoadReason }

// Elicitation fires when an MCP server asks the user for input (2.1.76+).
type Elicitation struct {
	Common
	MCPServerName   string          `json:"mcp_server_name,omitempty"`
	Message         string          `json:"message,omitempty"`
	RequestedSchema json.RawMessage `json:"requested_schema,omitempty"`
}

// MatchTarget is the MCP server name.
func (e *Elicitation) MatchTarget() string { return e.MCPServerName }

// ElicitationResult fires when the user answered an elicitation (2.1.76+).
type ElicitationResult struct {
	Common
	MCPServerName string          `json:"mcp_server_name,omitempty"`
	Action        string          `json:"action,omitempty"`
	Content       json.RawMessage `json:"content,omitempty"`
}

// MatchTarget is the MCP server name.
func (e *ElicitationResult) MatchTarget() string { return e.MCPServerName }

// CwdChanged fires when the working directory changes (2.1.83+).
type CwdChanged struct {
	Common
	OldCwd string `json:"old_cwd,omitempty"`
	NewCwd string `json:"new_cwd,omitempty"`
}

// FileChanged fires when a watched file changes (2.1.83+).
type FileChanged struct {
	Common
	FilePath string `json:"file_path,omitempty"`
}

// MatchTarget is the file path.
func (e *FileChanged) MatchTarget() string { return e.FilePath }

// PreModelSwitch fires before the model changes (about 2.1.251+).
type PreModelSwitch struct {
	Common
	FromModel string `json:"from_model,omitempty"`
	ToModel   string `json:"to_model,omitempty"`
}

// PostModelSwitch fires after the model changed (about 2.1.251+).
type PostModelSwitch struct {
	Common
	FromModel string `json:"from_model,omitempty"`
	ToModel   string `json:"to_model,omitempty"`
}

// Setup fires when Claude Code runs its setup: on first start ("init") or
// for maintenance. Its fields are the ones 2.1.330's own input schema
// declares (read from the release's code, compat/FACTS.md); no live run has
// fired it yet, so when it fires in a plugin session is unseen.
type Setup struct {
	Common
	Trigger string `json:"trigger,omitempty"`
}

// MatchTarget is the trigger ("init" or "maintenance").
func (e *Setup) MatchTarget() string { return e.Trigger }

// PermissionDenied fires after a permission rule, the auto-mode classifier
// or a hook denied a tool call. It cannot undo the denial; its output can
// only ask for a retry. Fields as 2.1.330's input schema declares them
// (compat/FACTS.md); not yet seen firing in a live run.
type PermissionDenied struct {
	Common
	ToolCall
	Reason    string `json:"reason,omitempty"`
	MCPServer string `json:"mcp_server,omitempty"`
}

// MatchTarget is the tool name.
func (e *PermissionDenied) MatchTarget() string { return e.ToolName }

// MessageDisplay fires with each batch of newly completed lines while an
// assistant message streams. It is display-only: the stored message and
// what the model sees are untouched. Fields as 2.1.330's input schema
// declares them (compat/FACTS.md); not yet seen firing in a live run.
type MessageDisplay struct {
	Common
	TurnID    string `json:"turn_id,omitempty"`
	MessageID string `json:"message_id,omitempty"`
	Index     int    `json:"index"`
	Final     bool   `json:"final"`
	Delta     string `json:"delta"`
}

// DirectoryAdded fires when a working directory is added to the session
// (/add-dir, or the SDK's register_repo_root). Fields as 2.1.330's input
// schema declares them (compat/FACTS.md); not yet seen firing in a live run.
type DirectoryAdded struct {
	Common
	Directory string `json:"directory,omitempty"`
	Source    string `json:"source,omitempty"`
}
