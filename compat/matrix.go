package compat

import (
	"github.com/hookwright/hookwright/hooks"
)

// Kind says what a [Feature] is.
type Kind string

// The kinds of facts the matrix records.
const (
	// KindEvent is a hook event name, a key of hooks.json's "hooks" object.
	KindEvent Kind = "event"
	// KindHandlerType is a value of a handler's "type" field.
	KindHandlerType Kind = "handler-type"
	// KindField is a key of hooks.json: of the file, of a matcher group or
	// of a handler (see [Feature.Scope]).
	KindField Kind = "field"
	// KindOutput is something a hook's reply can do, such as block.
	KindOutput Kind = "output"
	// KindInput is a field Claude Code sends on a hook's stdin.
	KindInput Kind = "input"
	// KindLoader is a behaviour of the loader that reads hooks.json.
	KindLoader Kind = "loader"
	// KindTool is a built-in tool name a matcher can name.
	KindTool Kind = "tool"
)

// Scope says where a [KindField] key lives in hooks.json.
type Scope string

// The levels of hooks.json.
const (
	ScopeFile    Scope = "file"    // {"description", "hooks"}
	ScopeGroup   Scope = "group"   // {"matcher", "hooks"}
	ScopeHandler Scope = "handler" // {"type", "command", "timeout", ...}
)

// Source says where a fact comes from.
type Source string

// The sources of facts, strongest last.
const (
	SourceChangelog Source = "CHANGELOG"       // a line in Claude Code's CHANGELOG
	SourceNPM       Source = "npm"             // the first npm build that ships it
	SourceIssue     Source = "issue"           // an issue thread shows it in use
	SourceSeen      Source = "seen"            // a real release run here
	SourceDocs      Source = "hooks-reference" // the public hooks reference
	// SourceProbe: the release's own validator, read from its code over
	// every published release (compat/testdata/probes; see compat/FACTS.md).
	SourceProbe Source = "probe"
)

// Channel is how a handler can stop what its event is about.
type Channel string

// The block channels.
const (
	// ChannelNone: the event cannot be blocked; output is advisory.
	ChannelNone Channel = "none"
	// ChannelExit2: exit 2 blocks and stderr is the reason given to Claude.
	ChannelExit2 Channel = "exit2"
	// ChannelContinue: JSON {"continue":false,"stopReason":...} on stdout
	// halts; exit 2 still works as well.
	ChannelContinue Channel = "json-continue"
	// ChannelFeedback: exit 2 feeds stderr to Claude, but the action has
	// already happened (PostToolUse runs after the tool).
	ChannelFeedback Channel = "feedback"
	// ChannelDecision: only a JSON decision counts; exit 2 is ignored
	// (PermissionRequest).
	ChannelDecision Channel = "json-decision"
)

// Channels returns every block channel, in the order above. The public
// hooks package's Channel constants are generated from it
// (internal/releasetable).
func Channels() []Channel {
	return []Channel{ChannelNone, ChannelExit2, ChannelContinue, ChannelFeedback, ChannelDecision}
}

// Feature is one row of the matrix: something that exists from a given
// Claude Code release on.
type Feature struct {
	Kind  Kind
	Name  string
	Since string // first release that has it, e.g. "2.1.33"
	// Source says where Since comes from; Note says what is uncertain.
	Source Source
	Note   string
	// Before is the published release just before Since, seen without the
	// feature: for an event, a release whose validator rejects a hooks.json
	// naming it. Empty when Since is at or below the plugin floor (no
	// earlier release loads a plugin's hooks.json).
	Before string
	// Witness is the evidence for Since and Before, and for any claim that a
	// release rejects a whole file or refuses a plugin: the releases and the
	// run or probe that showed it. compat/FACTS.md holds the details.
	Witness string

	// Scope is where a KindField key lives.
	Scope Scope
	// Types lists the handler types a ScopeHandler field belongs to; empty
	// means every type.
	Types []string

	// Matcher is what a KindEvent's matcher filters ("tool name", "source",
	// ...); empty when the event takes no matcher.
	Matcher string
	// Channel is a KindEvent's block channel, or the channel a KindOutput
	// capability opens for Events.
	Channel Channel
	// Events lists the events a KindOutput capability applies to.
	Events []string
}

// Version returns Since parsed.
func (f Feature) Version() hooks.Release { return hooks.MustRelease(f.Since) }

// PluginFloor is the first release that loads a plugin's hooks.json.
const PluginFloor = "2.0.12"

// UnknownEventsTolerated is the loader capability whose release first
// ignores an unknown event key (with a warning) instead of rejecting the
// whole file. hookgen never relies on it.
const UnknownEventsTolerated = "unknown event keys ignored"

// FolderPluginInPlace is the loader behaviour whose release first runs a
// plugin installed from a folder marketplace in place, from that folder,
// although installed_plugins.json names a cache copy (doctor reads it).
const FolderPluginInPlace = "folder-marketplace plugin runs in place"

// ContinueFalse is the output capability that lets TeammateIdle and
// TaskCompleted halt with JSON {"continue":false}.
const ContinueFalse = "continue:false"

// Matrix is every fact hookwright relies on, in release order within each
// kind. The evidence for each row, with the release it was seen on, is in
// compat/FACTS.md; the probe fixtures in compat/testdata/probes hold each
// probed release's validator lists, and a test checks every row against
// them.
var Matrix = []Feature{
	// Events. Matcher: what the matcher filters, per the hooks reference.
	{Kind: KindEvent, Name: "PreToolUse", Since: "1.0.38", Source: SourceChangelog, Witness: "in the event enum of 2.0.12, the plugin floor (probe, compat/testdata/probes)", Matcher: "tool name", Channel: ChannelExit2},
	{Kind: KindEvent, Name: "PostToolUse", Since: "1.0.38", Source: SourceChangelog, Witness: "in the event enum of 2.0.12, the plugin floor (probe, compat/testdata/probes)", Matcher: "tool name", Channel: ChannelFeedback},
	{Kind: KindEvent, Name: "Notification", Since: "1.0.38", Source: SourceChangelog, Witness: "in the event enum of 2.0.12, the plugin floor (probe, compat/testdata/probes)", Matcher: "notification type", Channel: ChannelNone},
	{Kind: KindEvent, Name: "Stop", Since: "1.0.38", Source: SourceChangelog, Witness: "in the event enum of 2.0.12, the plugin floor (probe, compat/testdata/probes)", Channel: ChannelExit2},
	{Kind: KindEvent, Name: "SubagentStop", Since: "1.0.41", Source: SourceChangelog, Witness: "in the event enum of 2.0.12, the plugin floor (probe, compat/testdata/probes)", Matcher: "agent type", Channel: ChannelExit2,
		Note: "the agent-type matcher is newer than the event; older releases ignore it"},
	{Kind: KindEvent, Name: "PreCompact", Since: "1.0.48", Source: SourceChangelog, Witness: "in the event enum of 2.0.12, the plugin floor (probe, compat/testdata/probes)", Matcher: "trigger (manual, auto)", Channel: ChannelNone},
	{Kind: KindEvent, Name: "UserPromptSubmit", Since: "1.0.54", Source: SourceChangelog, Witness: "in the event enum of 2.0.12, the plugin floor (probe, compat/testdata/probes)", Channel: ChannelExit2},
	{Kind: KindEvent, Name: "SessionStart", Since: "1.0.62", Source: SourceChangelog, Witness: "in the event enum of 2.0.12, the plugin floor (probe, compat/testdata/probes)", Matcher: "source (startup, resume, clear, compact)", Channel: ChannelNone},
	{Kind: KindEvent, Name: "SessionEnd", Since: "1.0.85", Source: SourceChangelog, Witness: "in the event enum of 2.0.12, the plugin floor (probe, compat/testdata/probes)", Matcher: "reason", Channel: ChannelNone},
	{Kind: KindEvent, Name: "SubagentStart", Since: "2.0.44", Source: SourceProbe, Before: "2.0.42",
		Witness: "probe: 2.0.42's validator lacks it, 2.0.44's accepts it (compat/testdata/probes); seen: 2.0.30 rejected a hooks.json naming it (a real plugin)", Matcher: "agent type", Channel: ChannelNone},
	{Kind: KindEvent, Name: "PermissionRequest", Since: "2.0.45", Source: SourceProbe, Before: "2.0.44",
		Witness: "probe: 2.0.44's validator lacks it, 2.0.45's accepts it (compat/testdata/probes); seen: 2.0.30 rejected a hooks.json naming it (a real plugin)", Matcher: "tool name", Channel: ChannelDecision,
		Note: "ignores even exit 2; only a JSON decision counts"},
	{Kind: KindEvent, Name: "PostToolUseFailure", Since: "2.0.56", Source: SourceProbe, Before: "2.0.55",
		Witness: "probe: 2.0.55's validator lacks it, 2.0.56's accepts it (compat/testdata/probes); seen: 2.0.30 rejected a hooks.json naming it (a real plugin)", Matcher: "tool name", Channel: ChannelFeedback},
	{Kind: KindEvent, Name: "Setup", Since: "2.1.10", Source: SourceProbe, Before: "2.1.9",
		Witness: "probe: 2.1.9's validator lacks it, 2.1.10's accepts it (compat/testdata/probes); seen: 2.0.30 rejected claude-mem's hooks.json over it", Matcher: "trigger (init, maintenance)", Channel: ChannelNone,
		Note: "payload (trigger) and output (additionalContext only, no block) read from 2.1.330's code; never seen firing in a live run"},
	{Kind: KindEvent, Name: "TeammateIdle", Since: "2.1.33", Source: SourceProbe, Before: "2.1.32",
		Witness: "probe: 2.1.32's validator lacks it, 2.1.33's accepts it (compat/testdata/probes); seen: 2.0.30 registered no hook from a hooks.json naming it", Channel: ChannelExit2,
		Note: "releases before it reject a hooks.json naming it (seen on 2.0.30)"},
	{Kind: KindEvent, Name: "TaskCompleted", Since: "2.1.33", Source: SourceProbe, Before: "2.1.32",
		Witness: "probe: 2.1.32's validator lacks it, 2.1.33's accepts it (compat/testdata/probes); seen: 2.0.30 rejected a hooks.json naming it (a real plugin)", Channel: ChannelExit2,
		Note: "exit 2 makes TaskUpdate fail and the task stays open (seen on 2.1.33)"},
	{Kind: KindEvent, Name: "ConfigChange", Since: "2.1.48", Source: SourceProbe, Before: "2.1.47",
		Witness: "probe: 2.1.47's validator lacks it, 2.1.48's accepts it (compat/testdata/probes)", Matcher: "source", Channel: ChannelExit2},
	{Kind: KindEvent, Name: "WorktreeCreate", Since: "2.1.50", Source: SourceProbe, Before: "2.1.49",
		Witness: "probe: 2.1.49's validator lacks it, 2.1.50's accepts it (compat/testdata/probes)", Channel: ChannelExit2},
	{Kind: KindEvent, Name: "WorktreeRemove", Since: "2.1.50", Source: SourceProbe, Before: "2.1.49",
		Witness: "probe: 2.1.49's validator lacks it, 2.1.50's accepts it (compat/testdata/probes)", Channel: ChannelNone},
	{Kind: KindEvent, Name: "Elicitation", Since: "2.1.63", Source: SourceProbe, Before: "2.1.62",
		Witness: "probe: 2.1.62's validator lacks it, 2.1.63's accepts it (compat/testdata/probes)", Matcher: "MCP server name", Channel: ChannelExit2},
	{Kind: KindEvent, Name: "ElicitationResult", Since: "2.1.63", Source: SourceProbe, Before: "2.1.62",
		Witness: "probe: 2.1.62's validator lacks it, 2.1.63's accepts it (compat/testdata/probes)", Matcher: "MCP server name", Channel: ChannelExit2},
	{Kind: KindEvent, Name: "InstructionsLoaded", Since: "2.1.64", Source: SourceProbe, Before: "2.1.63",
		Witness: "probe: 2.1.63's validator lacks it, 2.1.64's accepts it (compat/testdata/probes)", Matcher: "load reason", Channel: ChannelNone},
	{Kind: KindEvent, Name: "PostCompact", Since: "2.1.76", Source: SourceProbe, Before: "2.1.75",
		Witness: "probe: 2.1.75's validator lacks it, 2.1.76's accepts it (compat/testdata/probes)", Matcher: "trigger (manual, auto)", Channel: ChannelNone},
	{Kind: KindEvent, Name: "StopFailure", Since: "2.1.78", Source: SourceProbe, Before: "2.1.77",
		Witness: "probe: 2.1.77's validator lacks it, 2.1.78's accepts it (compat/testdata/probes)", Matcher: "error type", Channel: ChannelNone},
	{Kind: KindEvent, Name: "CwdChanged", Since: "2.1.83", Source: SourceProbe, Before: "2.1.81",
		Witness: "probe: 2.1.81's validator lacks it, 2.1.83's accepts it (compat/testdata/probes)", Channel: ChannelNone},
	{Kind: KindEvent, Name: "FileChanged", Since: "2.1.83", Source: SourceProbe, Before: "2.1.81",
		Witness: "probe: 2.1.81's validator lacks it, 2.1.83's accepts it (compat/testdata/probes)", Matcher: "file name", Channel: ChannelNone},
	{Kind: KindEvent, Name: "TaskCreated", Since: "2.1.84", Source: SourceProbe, Before: "2.1.83",
		Witness: "probe: 2.1.83's validator lacks it, 2.1.84's accepts it (compat/testdata/probes)", Channel: ChannelExit2},
	{Kind: KindEvent, Name: "PermissionDenied", Since: "2.1.88", Source: SourceProbe, Before: "2.1.87",
		Witness: "probe: 2.1.87's validator lacks it, 2.1.88's accepts it (compat/testdata/probes)", Matcher: "tool name", Channel: ChannelNone,
		Note: "fires after a denial, which it cannot undo; its output can only ask for a retry (2.1.330's code); never seen firing in a live run"},
	{Kind: KindEvent, Name: "UserPromptExpansion", Since: "2.1.116", Source: SourceProbe, Before: "2.1.114",
		Witness: "probe: 2.1.114's validator lacks it, 2.1.116's accepts it (compat/testdata/probes); seen: 2.1.33 and 2.1.100 rejected a real plugin's hooks.json over it", Matcher: "command name", Channel: ChannelExit2},
	{Kind: KindEvent, Name: "PostToolBatch", Since: "2.1.118", Source: SourceProbe, Before: "2.1.117",
		Witness: "probe: 2.1.117's validator lacks it, 2.1.118's accepts it (compat/testdata/probes)", Channel: ChannelNone},
	{Kind: KindEvent, Name: "MessageDisplay", Since: "2.1.152", Source: SourceProbe, Before: "2.1.150",
		Witness: "probe: 2.1.150's validator lacks it, 2.1.152's accepts it (compat/testdata/probes)", Channel: ChannelNone,
		Note: "display-only: its output may replace the shown text (displayContent), never block (2.1.330's code); never seen firing in a live run"},
	{Kind: KindEvent, Name: "DirectoryAdded", Since: "2.1.219", Source: SourceProbe, Before: "2.1.218",
		Witness: "probe: 2.1.218's validator lacks it, 2.1.219's accepts it (compat/testdata/probes)", Channel: ChannelNone,
		Note: "payload (directory, source) read from 2.1.330's code; no block channel there; never seen firing in a live run"},
	{Kind: KindEvent, Name: "PreModelSwitch", Since: "2.1.251", Source: SourceProbe, Before: "2.1.250",
		Witness: "probe: 2.1.250's validator lacks it, 2.1.251's accepts it (compat/testdata/probes)", Channel: ChannelNone},
	{Kind: KindEvent, Name: "PostModelSwitch", Since: "2.1.251", Source: SourceProbe, Before: "2.1.250",
		Witness: "probe: 2.1.250's validator lacks it, 2.1.251's accepts it (compat/testdata/probes)", Channel: ChannelNone},

	// Handler types, as a plugin's hooks.json may use them.
	{Kind: KindHandlerType, Name: "command", Since: "1.0.38", Source: SourceChangelog,
		Witness: "in the handler schema of 2.0.12, the plugin floor (probe, compat/testdata/probes)"},
	{Kind: KindHandlerType, Name: "prompt", Since: "2.1.0", Source: SourceChangelog,
		Witness: "CHANGELOG 2.1.0 opens prompt hooks to plugins; probe: 2.0.29's validator lacks the type, 2.0.30's accepts it",
		Note:    "the validator has it from 2.0.30 (probe), but no live run has shown a plugin's prompt hook run before 2.1.0"},
	{Kind: KindHandlerType, Name: "agent", Since: "2.1.0", Source: SourceChangelog,
		Witness: "CHANGELOG 2.1.0 opens agent hooks to plugins; probe: 2.0.42's validator lacks the type, 2.0.44's accepts it",
		Note:    "the validator has it from 2.0.44 (probe), but the CHANGELOG opens it to plugins in 2.1.0; no live run has shown a plugin's agent hook run earlier"},
	{Kind: KindHandlerType, Name: "http", Since: "2.1.84", Source: SourceChangelog,
		Witness: "CHANGELOG 2.1.63 and 2.1.84; probe: 2.1.47's validator lacks the type, 2.1.48's accepts it",
		Note:    "the validator has it from 2.1.48 (probe) and the CHANGELOG announces http hooks at 2.1.63; no live run has shown one run before 2.1.84, the edge kept"},
	{Kind: KindHandlerType, Name: "mcp_tool", Since: "2.1.118", Source: SourceProbe, Before: "2.1.117",
		Witness: "probe: 2.1.117's validator lacks the type, 2.1.118's accepts it (compat/testdata/probes); the CHANGELOG agrees"},

	// Keys of hooks.json.
	{Kind: KindField, Scope: ScopeFile, Name: "hooks", Since: PluginFloor, Source: SourceChangelog, Witness: "seen: every plugin hooks.json loaded here, 2.0.30 to 2.1.330"},
	{Kind: KindField, Scope: ScopeFile, Name: "description", Since: PluginFloor, Source: SourceDocs, Witness: "seen: loads on 2.0.30 to 2.1.330 (every plugin in the live tier has one)"},
	{Kind: KindField, Scope: ScopeGroup, Name: "matcher", Since: "1.0.38", Source: SourceChangelog, Witness: "in the matcher group schema of 2.0.12, the plugin floor (probe: the release's code)"},
	{Kind: KindField, Scope: ScopeGroup, Name: "hooks", Since: "1.0.38", Source: SourceChangelog, Witness: "in the matcher group schema of 2.0.12, the plugin floor (probe: the release's code)"},
	{Kind: KindField, Scope: ScopeHandler, Name: "type", Since: "1.0.38", Source: SourceChangelog, Witness: "in the handler schema of 2.0.12, the plugin floor (probe, compat/testdata/probes)"},
	{Kind: KindField, Scope: ScopeHandler, Name: "command", Since: "1.0.38", Source: SourceChangelog, Witness: "in the handler schema of 2.0.12, the plugin floor (probe, compat/testdata/probes)", Types: []string{"command"}},
	{Kind: KindField, Scope: ScopeHandler, Name: "timeout", Since: "1.0.41", Source: SourceChangelog, Witness: "in the handler schema of 2.0.12, the plugin floor (probe, compat/testdata/probes)",
		Note: "seconds, not milliseconds; the default went from 60 s to 600 s in 2.1.3"},
	{Kind: KindField, Scope: ScopeHandler, Name: "prompt", Since: "2.1.0", Source: SourceChangelog, Witness: "probe: with the prompt type from 2.0.30; the type's edge (2.1.0, CHANGELOG) is kept", Types: []string{"prompt", "agent"}},
	{Kind: KindField, Scope: ScopeHandler, Name: "once", Since: "2.0.77", Source: SourceProbe, Before: "2.0.76",
		Witness: "probe: 2.0.76's validator lacks it, 2.0.77's accepts it (compat/testdata/probes)"},
	{Kind: KindField, Scope: ScopeHandler, Name: "async", Since: "2.1.15", Source: SourceProbe, Before: "2.1.14",
		Witness: "probe: 2.1.14's validator lacks it, 2.1.15's accepts it (compat/testdata/probes)", Types: []string{"command"}},
	{Kind: KindField, Scope: ScopeHandler, Name: "statusMessage", Since: "2.0.44", Source: SourceProbe, Before: "2.0.42",
		Witness: "probe: 2.0.42's validator lacks it, 2.0.44's accepts it (compat/testdata/probes)",
		Note:    "was dated 2.1.42 from an issue thread; earlier releases strip it and load the rest (seen on 2.0.30 with a real plugin)"},
	{Kind: KindField, Scope: ScopeHandler, Name: "url", Since: "2.1.84", Source: SourceChangelog, Witness: "probe: with the http type from 2.1.48; the type's edge (2.1.84) is kept", Types: []string{"http"}},
	{Kind: KindField, Scope: ScopeHandler, Name: "asyncRewake", Since: "2.1.64", Source: SourceProbe, Before: "2.1.63",
		Witness: "probe: 2.1.63's validator lacks it, 2.1.64's accepts it (compat/testdata/probes)", Types: []string{"command"},
		Note: "with async, an exit 2's stderr reaches the model, or wakes it after its turn (seen on 2.1.64 to 2.1.330; compat/FACTS.md, Asynchronous hooks)"},
	{Kind: KindField, Scope: ScopeHandler, Name: "shell", Since: "2.1.81", Source: SourceProbe, Before: "2.1.80",
		Witness: "probe: 2.1.80's validator lacks it, 2.1.81's accepts it (compat/testdata/probes)", Types: []string{"command"},
		Note: "bash or powershell (2.1.330's schema); claude-mem sets \"bash\"; 2.1.330 loads it without a warning (seen)"},
	{Kind: KindField, Scope: ScopeHandler, Name: "if", Since: "2.1.85", Source: SourceProbe, Before: "2.1.84",
		Witness: "probe: 2.1.84's validator lacks it, 2.1.85's accepts it (compat/testdata/probes)"},
	{Kind: KindField, Scope: ScopeHandler, Name: "args", Since: "2.1.139", Source: SourceProbe, Before: "2.1.138",
		Witness: "probe: 2.1.138's validator lacks it, 2.1.139's accepts it (compat/testdata/probes)", Types: []string{"command"},
		Note: "silently dropped before 2.1.139: the command runs without its arguments"},

	// The keys below were added from the probes (TestEveryProbedHandlerKeyIsInTheMatrix);
	// their value types are read from 2.1.330's handler schemas.
	{Kind: KindField, Scope: ScopeHandler, Name: "model", Since: "2.1.0", Source: SourceChangelog, Types: []string{"prompt", "agent"},
		Witness: "probe: with the prompt type from 2.0.42 (2.0.37 lacks it) and the agent type from 2.0.44; the types' edge (2.1.0, CHANGELOG) is kept",
		Note:    "a model name, e.g. \"claude-sonnet-5\" (2.1.330's schema)"},
	{Kind: KindField, Scope: ScopeHandler, Name: "headers", Since: "2.1.84", Source: SourceChangelog, Types: []string{"http"},
		Witness: "probe: with the http type from 2.1.48; the type's edge (2.1.84) is kept",
		Note:    "header names to string values (2.1.330's schema)"},
	{Kind: KindField, Scope: ScopeHandler, Name: "allowedEnvVars", Since: "2.1.84", Source: SourceChangelog, Types: []string{"http"},
		Witness: "probe: 2.1.50's validator lacks it, 2.1.51's accepts it; the http type's edge (2.1.84) is kept",
		Note:    "a list of environment variable names the header values may use (2.1.330's schema)"},
	{Kind: KindField, Scope: ScopeHandler, Name: "rewakeMessage", Since: "2.1.101", Source: SourceProbe, Before: "2.1.100", Types: []string{"command"},
		Witness: "probe: 2.1.100's validator lacks it, 2.1.101's accepts it (compat/testdata/probes)",
		Note:    "marked @internal in 2.1.330's schema: the prefix of the reminder an asyncRewake hook's exit 2 shows the model"},
	{Kind: KindField, Scope: ScopeHandler, Name: "rewakeSummary", Since: "2.1.108", Source: SourceProbe, Before: "2.1.107", Types: []string{"command"},
		Witness: "probe: 2.1.107's validator lacks it, 2.1.108's accepts it (compat/testdata/probes)",
		Note:    "marked @internal in 2.1.330's schema: the line the user sees when an asyncRewake hook exits 2"},
	{Kind: KindField, Scope: ScopeHandler, Name: "server", Since: "2.1.118", Source: SourceProbe, Before: "2.1.117", Types: []string{"mcp_tool"},
		Witness: "probe: 2.1.117's validator lacks it (and the mcp_tool type), 2.1.118's accepts it (compat/testdata/probes)"},
	{Kind: KindField, Scope: ScopeHandler, Name: "tool", Since: "2.1.118", Source: SourceProbe, Before: "2.1.117", Types: []string{"mcp_tool"},
		Witness: "probe: 2.1.117's validator lacks it (and the mcp_tool type), 2.1.118's accepts it (compat/testdata/probes)"},
	{Kind: KindField, Scope: ScopeHandler, Name: "input", Since: "2.1.118", Source: SourceProbe, Before: "2.1.117", Types: []string{"mcp_tool"},
		Witness: "probe: 2.1.117's validator lacks it (and the mcp_tool type), 2.1.118's accepts it (compat/testdata/probes)",
		Note:    "the tool's arguments, an object (2.1.330's schema)"},
	{Kind: KindField, Scope: ScopeHandler, Name: "continueOnBlock", Since: "2.1.139", Source: SourceProbe, Before: "2.1.138", Types: []string{"prompt"},
		Witness: "probe: 2.1.138's validator lacks it, 2.1.139's accepts it (compat/testdata/probes)"},
	{Kind: KindField, Scope: ScopeHandler, Name: "cloud", Since: "2.1.242", Source: SourceProbe, Before: "2.1.241", Types: []string{"command", "http"},
		Witness: "probe: 2.1.241's validator lacks it, 2.1.242's accepts it (compat/testdata/probes)",
		Note:    "marked @internal in 2.1.330's schema: \"device\" or \"skip\", and any other value reads as \"skip\" (the file still loads)"},
	{Kind: KindField, Scope: ScopeHandler, Name: "onFailure", Since: "2.1.295", Source: SourceProbe, Before: "2.1.294", Types: []string{"command", "http", "mcp_tool"},
		Witness: "probe: 2.1.294's validator lacks it, 2.1.295's accepts it for command and http handlers, 2.1.328's for mcp_tool too (compat/testdata/probes)",
		Note:    "\"continue\" or \"block\", and any other value reads as \"block\" (2.1.330's schema)"},
	{Kind: KindField, Scope: ScopeHandler, Name: "holdsTools", Since: "2.1.329", Source: SourceProbe, Before: "2.1.328", Types: []string{"command"},
		Witness: "probe: 2.1.328's validator lacks it, 2.1.329's accepts it (compat/testdata/probes)",
		Note:    "marked @internal in 2.1.330's schema, for one official plugin's UserPromptSubmit hooks"},

	// What a hook's reply can do.
	{Kind: KindOutput, Name: ContinueFalse, Since: "2.1.69", Source: SourceChangelog, Witness: "CHANGELOG 2.1.69; not yet seen in a live run",
		Events: []string{"TeammateIdle", "TaskCompleted"}, Channel: ChannelContinue},
	{Kind: KindOutput, Name: "exit 2 blocks compaction", Since: "2.1.105", Source: SourceChangelog, Witness: "CHANGELOG 2.1.105; not yet seen in a live run",
		Events: []string{"PreCompact"}, Channel: ChannelExit2},

	// What a hook's stdin carries.
	{Kind: KindInput, Name: "last_assistant_message", Since: "2.1.47", Source: SourceChangelog, Witness: "CHANGELOG 2.1.47; not yet seen in a live run",
		Events: []string{"Stop", "SubagentStop"}},

	// The loader.
	{Kind: KindLoader, Name: "plugin hooks.json", Since: PluginFloor, Source: SourceChangelog,
		Witness: "CHANGELOG 2.0.12 (plugins); seen: 2.0.12 has no --plugin-dir yet, 2.0.30 loads a plugin's hooks.json",
		Note:    "no plugin hooks.json loads before this release"},
	{Kind: KindLoader, Name: "plugin.json unknown keys accepted", Since: "2.1.76", Source: SourceSeen,
		Before: "2.1.75", Witness: "seen: 2.1.33 refused bkit v2.1.38's whole plugin over plugin.json's displayName (\"Unrecognized key\"); 2.1.76 accepts unknown keys",
		Note: "up to 2.1.75 any unknown key in plugin.json, $schema included, fails the install"},
	{Kind: KindLoader, Name: FolderPluginInPlace, Since: "2.1.101", Source: SourceSeen,
		Before: "2.1.100", Witness: "seen: 2.1.101, 2.1.104, 2.1.105, 2.1.116, 2.1.118, 2.1.139, 2.1.152, 2.1.200, 2.1.219, 2.1.257 and 2.1.330 load a folder-marketplace plugin's hooks.json from the folder; 2.1.33, 2.1.61 and 2.1.100 from the cache copy installed_plugins.json names (internal/live TestDoctorFindsTheFolderMarketplacePlugin)",
		Note: "2.0.30 also runs it in place, and writes no installed_plugins.json; a plugin from a git URL runs from the cache on every release"},
	{Kind: KindLoader, Name: UnknownEventsTolerated, Since: "2.1.257", Source: SourceSeen,
		Before: "2.1.252", Witness: "seen: 2.0.30 and 2.1.33 logged Hook load failed and registered 0 hooks (compat/testdata/live/debug-*-unknown-event.txt), as did 2.1.100 and 2.1.252 with real plugins; 2.1.257 and 2.1.330 logged a warning and loaded the rest",
		Note: "up to 2.1.252 an unknown event key rejects the whole file and turns off the plugin's MCP servers; no builds exist in between"},

	// Tools a fallback matcher names.
	{Kind: KindTool, Name: "TodoWrite", Since: "1.0.38", Source: SourceSeen, Witness: "seen: offered on 2.0.30, and on 2.1.33 without CLAUDE_CODE_ENABLE_TASKS",
		Note: "offered on every plugin-capable release run here (2.0.30, 2.1.33 without CLAUDE_CODE_ENABLE_TASKS)"},
	{Kind: KindTool, Name: "TaskUpdate", Since: "2.1.16", Source: SourceChangelog, Witness: "CHANGELOG 2.1.16; seen: its payload on 2.1.32 and 2.1.33 (compat/FACTS.md)",
		Note: "in -p mode only with CLAUDE_CODE_ENABLE_TASKS=1; off on the newest models unless CLAUDE_CODE_ENABLE_TODO_TOOLS=1"},
}

// Lookup returns the matrix row for kind and name. For KindField it returns
// the first row with that name; use [LookupField] where scope matters.
func Lookup(kind Kind, name string) (Feature, bool) {
	for _, f := range Matrix {
		if f.Kind == kind && f.Name == name {
			return f, true
		}
	}
	return Feature{}, false
}

// LookupField returns the matrix row for a hooks.json key at scope.
func LookupField(scope Scope, name string) (Feature, bool) {
	for _, f := range Matrix {
		if f.Kind == KindField && f.Scope == scope && f.Name == name {
			return f, true
		}
	}
	return Feature{}, false
}

// Has reports whether release v has the feature kind/name. An unknown
// feature is never present.
func Has(kind Kind, name string, v hooks.Release) bool {
	f, ok := Lookup(kind, name)
	return ok && !v.Less(f.Version())
}

// Features returns the rows of kind present in release v, in matrix order.
func Features(kind Kind, v hooks.Release) []Feature {
	var out []Feature
	for _, f := range Matrix {
		if f.Kind == kind && !v.Less(f.Version()) {
			out = append(out, f)
		}
	}
	return out
}

// All returns every row of kind, in matrix order.
func All(kind Kind) []Feature {
	var out []Feature
	for _, f := range Matrix {
		if f.Kind == kind {
			out = append(out, f)
		}
	}
	return out
}
