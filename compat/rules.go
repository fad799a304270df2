package compat

import "github.com/hookwright/hookwright/hooks"

// Consequence is what a release's loader does about one thing in a
// plugin's hooks.json or plugin.json. The order is the order of gravity.
type Consequence string

// The consequences, gravest first.
const (
	// Rejected: the loader refuses the whole hooks.json or the whole
	// plugin; nothing of it runs.
	Rejected Consequence = "rejected"
	// Dropped: the file loads, but this entry never runs (as written),
	// whether the loader says so or not.
	Dropped Consequence = "dropped"
	// Ignored: a key the loader reads past, with no effect.
	Ignored Consequence = "ignored"
	// Lint: loads and runs, but is probably not what the author meant.
	Lint Consequence = "lint"
)

// Rank orders the consequences: 0 for Rejected, 3 for Lint.
func (c Consequence) Rank() int {
	switch c {
	case Rejected:
		return 0
	case Dropped:
		return 1
	case Ignored:
		return 2
	}
	return 3
}

// Refusal says what a rejection refuses: the reason an author reads first
// ("plugin refused", "hooks file refused").
type Refusal string

// What a rejection refuses, gravest first.
const (
	// RefusesMarketplace: marketplace.json does not parse, so no plugin of
	// the marketplace can be added or installed.
	RefusesMarketplace Refusal = "marketplace"
	// RefusesPlugin: nothing of the plugin loads (its manifest is refused,
	// or an unloadable PreToolUse/PermissionRequest guard refuses it).
	RefusesPlugin Refusal = "plugin"
	// RefusesAllHooks: the plugin loads, but every hook it declares is
	// refused or dropped on the release, so none of them runs.
	RefusesAllHooks Refusal = "all hooks"
	// RefusesFile: one hooks file is refused; the plugin's other hooks
	// files and its inline hooks still load.
	RefusesFile Refusal = "hooks file"
)

// Rule is one check the loader applies to a plugin's files, with the
// releases it holds on and the evidence. Several rows may share an ID, one
// per span of releases where the consequence differs.
type Rule struct {
	ID          string
	Consequence Consequence
	// First and Last are the first and last release the row holds on;
	// Last "" means every release since First that has been looked at.
	First, Last string
	// Refuses is what a rejection of this row refuses, where the row
	// alone decides it ("" for rows whose rejection refuses the file they
	// are found in: hooks.json's rules refuse that hooks file, the same
	// rules in plugin.json's inline hooks refuse the plugin).
	Refuses Refusal
	// Witness is the evidence: the releases' code (probe) or a live load
	// (seen). compat/FACTS.md, "The loader's rules", holds the details.
	Witness string
}

// Holds reports whether the row applies to release v.
func (r Rule) Holds(v hooks.Release) bool {
	if v.Less(hooks.MustRelease(r.First)) {
		return false
	}
	return r.Last == "" || !hooks.MustRelease(r.Last).Less(v)
}

// EntriesTolerated is the first release whose loader drops an invalid
// entry of hooks.json (with a warning) instead of refusing the file,
// except under PreToolUse and PermissionRequest, where it refuses the
// plugin. No release was published between 2.1.252 and it.
const EntriesTolerated = "2.1.257"

// GuardEvents are the events whose invalid entries refuse the whole plugin
// from [EntriesTolerated] on, instead of being dropped.
var GuardEvents = []string{"PreToolUse", "PermissionRequest"}

// GuardDepth is how deep under another key 2.1.257's check looks for
// PreToolUse/PermissionRequest hooks declared outside "hooks" (a guard at
// the top level is depth 0 of its own key; [RuleTopLevelGuard]).
const GuardDepth = 3

// HooksUnscanned are the hooks.json top-level keys 2.1.330's check does
// not search for guard hooks (its code's list).
var HooksUnscanned = []string{"mcpServers", "managedMcpServers", "lspServers", "pluginConfigs", "enabledPlugins", "extraKnownMarketplaces", "env", "skillOverrides", "modelSettings"}

// PluginUnscanned are the plugin.json keys 2.1.330's check does not
// search for guard hooks (its code's list; "experimental" is searched).
var PluginUnscanned = []string{"metadata", "mcpServers", "lspServers"}

// The rule IDs.
const (
	RuleNotJSON          = "not-json"                    // the file is not JSON, or not an object
	RuleHooksShape       = "hooks-shape"                 // "hooks" missing or not an object; description not a string
	RuleUnknownEvent     = "unknown-event"               // an event the release does not know
	RuleEntryInvalid     = "entry-invalid"               // a matcher group or handler the validator refuses
	RuleGuardInvalid     = "guard-invalid"               // the same under PreToolUse/PermissionRequest
	RuleTypeNotRun       = "type-not-run"                // a handler type the validator takes but plugins do not run yet
	RuleTypeUnproven     = "type-unproven"               // a handler type the validator takes, never seen running
	RuleTopLevelGuard    = "top-level-guard"             // PreToolUse/PermissionRequest hooks outside "hooks"
	RuleTopLevelEvent    = "top-level-event"             // another event outside "hooks"
	RuleUnknownKey       = "unknown-key"                 // a key hooks.json's validator strips
	RuleArgsDropped      = "args-dropped"                // "args" before 2.1.139
	RuleLongTimeout      = "long-timeout"                // a timeout that looks like milliseconds
	RuleIgnoredMatcher   = "ignored-matcher"             // a matcher on an event that takes none
	RuleEmptyCommand     = "empty-command"               // "command": ""
	RulePluginShape      = "plugin-shape"                // plugin.json not an object, name or a typed field wrong
	RulePluginKeyStrict  = "plugin-unknown-key"          // a key plugin.json's schema lacks
	RuleNameControl      = "plugin-name-control"         // a control or bidi character in the plugin name
	RuleModules          = "hooks-modules"               // "modules" of more than one entry, or not strings
	RuleSurfaceGone      = "hooks-surface"               // hooks.json "surface", refused from 2.1.330
	RuleDisplayKey       = "plugin-display-key"          // a bad value of a display-only plugin.json key
	RuleStandardHooks    = "plugin-standard-hooks"       // plugin.json's hooks names hooks/hooks.json again
	RuleStandardTwice    = "plugin-standard-hooks-twice" // ... and the release loads it twice
	RuleEngines          = "plugin-engines"              // engines["claude-code"] excludes the release
	RuleNamedTwice       = "plugin-hooks-file-twice"     // plugin.json's hooks names one file twice
	RuleHooksFileMissing = "plugin-hooks-file-missing"   // plugin.json's hooks names a file that is not there
	RuleMCPOff           = "plugin-mcp-off"              // a load error keeps the plugin's MCP servers off
	RuleNoHookRuns       = "no-hook-runs"                // every hook the plugin declares is refused or dropped
	RuleEntryHooks       = "market-entry-hooks"          // a marketplace entry's hooks fail the entry schema
	RuleEntryConflict    = "market-entry-conflict"       // strict: false, a plugin.json, and components in the entry
	RuleEntryReplaces    = "market-entry-replaces"       // entry hooks without a plugin.json replace hooks/hooks.json
	RuleEntryOverrides   = "market-entry-overrides"      // entry hooks replace the plugin's hooks of the same events
	RuleEntryHooksForm   = "market-entry-hooks-form"     // entry hooks given as a path or a list
	RulePathMissing      = "plugin-path-missing"         // a commands/agents/skills path that is not there
	RuleLaterFile        = "hooks-file-for-later"        // a named hooks file refused only for names later releases know
	RuleDuplicateKey     = "duplicate-key"               // an object names a key twice: JSON.parse keeps the last
)

// PluginDisplayKeys are the plugin.json keys whose bad values 2.1.330
// drops with a note instead of refusing the plugin.
var PluginDisplayKeys = []string{"$schema", "displayName", "description", "author", "homepage", "repository", "license", "keywords"}

// Rules is every rule the oracle (hookgen validate, hookgen audit)
// applies beyond the matrix's events, handler types and keys, read from
// the band-edge releases' own validators (2.0.30, 2.1.33, 2.1.100,
// 2.1.252, 2.1.257, 2.1.330) or seen in a live load.
var Rules = []Rule{
	{ID: RuleNotJSON, Consequence: Rejected, First: PluginFloor,
		Witness: "probe: every release parses the file with JSON.parse and a zod object schema"},
	{ID: RuleDuplicateKey, Consequence: Dropped, First: PluginFloor,
		Witness: "probe: every release reads its files with JSON.parse, which keeps the last of two equal keys; the first one's hooks never register"},
	{ID: RuleHooksShape, Consequence: Rejected, First: PluginFloor,
		Witness: "probe: {description?: string, hooks: record} in 2.0.30, 2.1.33, 2.1.100 and 2.1.252's code; from 2.1.252 \"modules\" may stand in for \"hooks\""},
	{ID: RuleUnknownEvent, Consequence: Rejected, First: PluginFloor, Last: "2.1.252",
		Witness: "seen: 2.0.30, 2.1.33, 2.1.100 and 2.1.252 registered 0 hooks (Hook load failed)"},
	{ID: RuleUnknownEvent, Consequence: Dropped, First: EntriesTolerated,
		Witness: "seen: 2.1.257 and 2.1.330 log \"unknown hook event; entry ignored\" and load the rest"},
	{ID: RuleEntryInvalid, Consequence: Rejected, First: PluginFloor, Last: "2.1.252",
		Witness: "probe: one zod parse of the whole file (discriminated union on type, string().url(), number().positive()); seen: \"Invalid URL\" and 0 hooks on 2.1.100 and 2.1.252"},
	{ID: RuleEntryInvalid, Consequence: Dropped, First: EntriesTolerated,
		Witness: "probe: 2.1.257 and 2.1.330 check each entry and log \"Invalid <type> hook ...; entry ignored\"; seen on 2.1.330"},
	{ID: RuleGuardInvalid, Consequence: Rejected, First: PluginFloor, Last: "2.1.252",
		Witness: "as entry-invalid: the whole file is refused"},
	{ID: RuleGuardInvalid, Consequence: Rejected, First: EntriesTolerated, Refuses: RefusesPlugin,
		Witness: "probe: 2.1.257 and 2.1.330 keep an invalid PreToolUse/PermissionRequest entry as an unloadable guard and refuse the plugin"},
	{ID: RuleTypeNotRun, Consequence: Dropped, First: "2.0.30", Last: "2.0.30",
		Witness: "probe: 2.0.30's plugin-hook loader keeps only type \"command\" (2.1.33's keeps every type); seen: 2.0.30 registered 1 of 3 hooks of a plugin with prompt handlers"},
	{ID: RuleTypeUnproven, Consequence: Lint, First: "2.0.31", Last: "2.1.83",
		Witness: "probe: the validator takes the type; no live run has shown a plugin's handler of it run before the matrix's edge"},
	{ID: RuleTopLevelGuard, Consequence: Dropped, First: PluginFloor, Last: "2.1.252",
		Witness: "probe: the file schema is a zod object, which strips unknown keys, so the hooks never register"},
	{ID: RuleTopLevelGuard, Consequence: Rejected, First: EntriesTolerated, Refuses: RefusesPlugin,
		Witness: "probe: 2.1.257 and 2.1.330 (\"PreToolUse/PermissionRequest hooks are declared outside \\\"hooks\\\"\", severity fatal); 2.1.252 lacks it; seen refusing the plugin on 2.1.330"},
	{ID: RuleTopLevelEvent, Consequence: Dropped, First: PluginFloor,
		Witness: "probe: the file schema strips keys other than description and hooks, so the hooks never register"},
	{ID: RuleUnknownKey, Consequence: Ignored, First: PluginFloor,
		Witness: "seen: unknown file, group and handler keys load on 2.0.30 to 2.1.330 (TestLooseKeysLoad)"},
	{ID: RuleArgsDropped, Consequence: Dropped, First: PluginFloor, Last: "2.1.138",
		Witness: "seen: before 2.1.139 \"args\" is stripped and the command runs without its arguments"},
	{ID: RuleLongTimeout, Consequence: Lint, First: PluginFloor,
		Witness: "probe: timeout is number().positive() with no upper bound on every release; 5000, 10000 and 345600 load"},
	{ID: RuleIgnoredMatcher, Consequence: Lint, First: PluginFloor,
		Witness: "seen: a matcher on Stop loads from 2.0.30 on and matches everything"},
	{ID: RuleEmptyCommand, Consequence: Lint, First: PluginFloor,
		Witness: "probe: command is string() with no minimum; the hook runs an empty shell command"},
	{ID: RulePluginShape, Consequence: Rejected, First: PluginFloor,
		Witness: "probe: name string min(1) without spaces, version/description/repository/license strings, homepage string().url(), author {name}, keywords string[], commands/agents/skills/outputStyles/hooks paths starting with ./ (hooks ending .json) in 2.0.30, 2.1.33, 2.1.100 and 2.1.252; a version such as 2026.04.140 is any string and loads"},
	{ID: RuleNameControl, Consequence: Rejected, First: "2.1.252",
		Witness: "probe: 2.1.252 and 2.1.330 (\"Plugin name cannot contain control or bidirectional-formatting characters\"); 2.1.100 lacks it"},
	{ID: RuleModules, Consequence: Rejected, First: HooksModulesSince,
		Witness: "probe: 2.1.252 and 2.1.330: modules is string[] of at most 1 (\"a second entry is refused\"); hooks or a module is required"},
	{ID: RuleSurfaceGone, Consequence: Rejected, First: "2.1.330",
		Witness: "probe: 2.1.330's hooks-file schema fails on it (\"hooks.json `surface` is gone\"); 2.1.257 lacks the key"},
	{ID: RuleDisplayKey, Consequence: Rejected, First: PluginFloor, Last: "2.1.329",
		Witness: "probe: one zod parse of the manifest in 2.0.30, 2.1.33, 2.1.100, 2.1.252 and 2.1.257; the edge to 2.1.330 is not bisected"},
	{ID: RuleDisplayKey, Consequence: Ignored, First: "2.1.330",
		Witness: "probe: 2.1.330 deletes a display key that fails (author, homepage, keywords, ...) and loads the plugin (plugin_load_manifest_display_key_ignored); 2.1.257 lacks it"},
	{ID: RuleEngines, Consequence: Lint, First: "2.1.330",
		Witness: "probe: 2.1.330's manifest schema says a release outside engines[\"claude-code\"] does not install, update or load the plugin; seen: --plugin-dir loads it anyway on 2.1.330, so no refusal is proven"},
	{ID: RuleStandardTwice, Consequence: Lint, First: PluginFloor, Last: "2.0.30",
		Witness: "seen: 2.0.30 registered the standard hooks.json's hooks twice when plugin.json's hooks named it; its code has no duplicate check"},
	{ID: RuleStandardHooks, Consequence: Lint, First: "2.1.33", Last: StandardNamedErrorUntil,
		Witness: "seen: 2.1.33, 2.1.100 and 2.1.252 register the hooks once, log \"Hook load failed: Duplicate hooks file detected\" and keep the plugin's MCP servers off (\"Plugin not available for MCP\"); probe: the error is in the code up to 2.1.278"},
	{ID: RuleStandardHooks, Consequence: Lint, First: "2.1.280",
		Witness: "probe: from 2.1.280 the code loads it once and says so without an error (2.1.278 logs the error; 2.1.279 was never published); seen once and quiet on 2.1.330"},
	{ID: RuleNamedTwice, Consequence: Lint, First: PluginFloor, Last: "2.0.30",
		Witness: "seen: 2.0.30 ran every hook of a hooks file plugin.json names twice when it is named twice (also as ./hooks/../hooks/a.json); its code has no duplicate check"},
	{ID: RuleNamedTwice, Consequence: Lint, First: "2.1.33",
		Witness: "seen: 2.1.33, 2.1.100, 2.1.252 and 2.1.330 load the file once and log \"Hook load failed: Duplicate hooks file detected\", which keeps the plugin's MCP servers off"},
	{ID: RuleHooksFileMissing, Consequence: Dropped, First: PluginFloor,
		Witness: "seen: 2.0.30, 2.1.33, 2.1.100, 2.1.252 and 2.1.330 log \"Hooks file ... specified in manifest but not found\" and load the plugin's other hooks"},
	{ID: RulePathMissing, Consequence: Dropped, First: PluginFloor,
		Witness: "seen: 2.0.30 to 2.1.330 log \"Path not found\" for a skills, commands or agents path plugin.json names that is not there, register the plugin's hooks, and keep its MCP servers off"},
	{ID: RuleLaterFile, Consequence: Dropped, First: PluginFloor, Last: "2.1.252",
		Witness: "seen: 2.0.30 skips a hooks file plugin.json names over TeammateIdle (\"Failed to load hooks from …\") and runs the plugin's other files (ph-edge-files); the same file loads on 2.1.33 to 2.1.330. It is dropped, not a refusal: a plugin may name one file per event edge on purpose"},
	{ID: RuleMCPOff, Consequence: Dropped, First: PluginFloor,
		Witness: "seen: 2.0.30 to 2.1.330 log \"Plugin not available for MCP: <plugin> - error type: hook-load-failed\" (or path-not-found) for a plugin with any hooks load error; 2.1.330's \"entry ignored\" warnings do not count"},
	{ID: RuleNoHookRuns, Consequence: Rejected, First: PluginFloor, Refuses: RefusesAllHooks,
		Witness: "seen: 2.0.30 registered none of a plugin whose only hooks are prompt handlers; 2.1.330 registered none of a plugin whose only event it does not know (\"Registered N hooks\")"},
	{ID: RuleEntryHooks, Consequence: Rejected, First: PluginFloor, Last: "2.1.138", Refuses: RefusesMarketplace,
		Witness: "seen: 2.0.30, 2.1.33, 2.1.100 and 2.1.101 to 2.1.138 refuse to add the whole marketplace (\"Invalid schema: plugins.N.hooks: Invalid input\"); bisected live: 2.1.138 refuses it, 2.1.139 adds it"},
	{ID: RuleEntryHooks, Consequence: Rejected, First: "2.1.139", Refuses: RefusesPlugin,
		Witness: "seen: 2.1.139 to 2.1.330 add the marketplace and refuse to install that plugin (\"This plugin's marketplace entry is invalid: hooks: ...\"); on 2.1.330 too for a bad Stop entry, which plugin.json would only drop"},
	{ID: RuleEntryConflict, Consequence: Rejected, First: PluginFloor, Refuses: RefusesPlugin,
		Witness: "seen: 2.0.30, 2.1.33, 2.1.100, 2.1.252 and 2.1.330 install the plugin and then refuse to load it (\"has both plugin.json and marketplace manifest entries ... This is a conflict\")"},
	{ID: RuleEntryReplaces, Consequence: Dropped, First: PluginFloor,
		Witness: "seen: 2.0.30, 2.1.33, 2.1.100, 2.1.252 and 2.1.330 run the entry's hooks and none of hooks/hooks.json's when the plugin has no plugin.json (strict or not)"},
	{ID: RuleEntryOverrides, Consequence: Dropped, First: PluginFloor,
		Witness: "seen: 2.0.30, 2.1.33, 2.1.100, 2.1.252 and 2.1.330 replace the plugin's hooks of an event the entry also declares ({...plugin, ...entry}); the plugin's other events still run"},
	{ID: RuleEntryHooksForm, Consequence: Dropped, First: PluginFloor, Last: "2.1.197",
		Witness: "seen: 2.0.30, 2.1.33, 2.1.100 and 2.1.101 to 2.1.197 take the path or list as the hooks themselves, so none registers; without a plugin.json, hooks/hooks.json's are lost too; bisected live: 2.1.197 loses them, 2.1.198 keeps them"},
	{ID: RuleEntryHooksForm, Consequence: Dropped, First: "2.1.198",
		Witness: "seen: 2.1.198, 2.1.200, 2.1.252 and 2.1.330 ignore it (\"the file-path and array forms are not yet supported in a marketplace entry\") and load the plugin's own hooks"},
	{ID: RulePluginKeyStrict, Consequence: Rejected, First: PluginFloor, Last: "2.1.75",
		Witness: "seen: 2.1.33 refused a plugin over plugin.json's displayName (\"Unrecognized key\"); probe: .strict() in 2.0.30 and 2.1.33"},
	{ID: RulePluginKeyStrict, Consequence: Ignored, First: "2.1.76",
		Witness: "seen: 2.1.76 and later load unknown plugin.json keys; probe: no .strict() in 2.1.100"},
}

// RuleAt returns the row of rule id that holds on release v.
func RuleAt(id string, v hooks.Release) (Rule, bool) {
	for _, r := range Rules {
		if r.ID == id && r.Holds(v) {
			return r, true
		}
	}
	return Rule{}, false
}

// HandlerValidatorSince is the first release whose hooks.json validator
// takes each handler type (probe, compat/testdata/probes). The matrix's
// Since may be later: the CHANGELOG's edge for plugins running it.
var HandlerValidatorSince = map[string]string{
	"command":  PluginFloor,
	"prompt":   "2.0.30",
	"agent":    "2.0.44",
	"http":     "2.1.48",
	"mcp_tool": "2.1.118",
}

// HandlerValidatorBefore is the published release just before each
// handler type's [HandlerValidatorSince], whose validator lacks the type
// (probe fixtures).
var HandlerValidatorBefore = map[string]string{
	"prompt":   "2.0.29",
	"agent":    "2.0.42",
	"http":     "2.1.47",
	"mcp_tool": "2.1.117",
}

// SkillsDotSince is the first release seen taking "." for the plugin
// root in plugin.json's skills (probe: 2.1.252 and 2.1.330 have
// union(literal("."), path); 2.1.100 takes only "./" paths).
const SkillsDotSince = "2.1.252"

// HooksModulesSince is the first release seen taking a top-level "modules"
// (a hooks module) in hooks.json beside or instead of "hooks" (probe:
// 2.1.252's code has it, 2.1.100's lacks it; the edge between is not
// bisected).
const HooksModulesSince = "2.1.252"

// HooksModulesBefore is the published release just before
// [HooksModulesSince], the last one taken to read a top-level "modules"
// past (the module never loads): the edge is not bisected, so the releases
// between 2.1.100 and it are assumed to lack modules.
const HooksModulesBefore = "2.1.251"

// StandardNamedErrorUntil is the last release that logs "Hook load
// failed: Duplicate hooks file detected" when plugin.json's hooks names
// the standard hooks/hooks.json (probe: 2.1.278 has the error, 2.1.280
// loads it once quietly; 2.1.279 was never published).
const StandardNamedErrorUntil = "2.1.278"

// SurfaceReadPastUntil is the last release that reads a top-level
// "surface" in hooks.json past; from the next, [RuleSurfaceGone] refuses
// the file (the edge to 2.1.330 is not bisected).
const SurfaceReadPastUntil = "2.1.329"

// PluginKey is a key of plugin.json and the first release whose manifest
// schema declares it.
type PluginKey struct {
	Name, Since, Witness string
}

// PluginKeys are plugin.json's keys, read from each band-edge release's
// manifest schema (the zod object that merges the plugin's fields). Edges
// between two probed releases are not bisected: Since is the first probed
// release that has the key.
var PluginKeys = []PluginKey{
	{"name", PluginFloor, "probe: 2.0.30"}, {"version", PluginFloor, "probe: 2.0.30"},
	{"description", PluginFloor, "probe: 2.0.30"}, {"author", PluginFloor, "probe: 2.0.30"},
	{"homepage", PluginFloor, "probe: 2.0.30"}, {"repository", PluginFloor, "probe: 2.0.30"},
	{"license", PluginFloor, "probe: 2.0.30"}, {"keywords", PluginFloor, "probe: 2.0.30"},
	{"hooks", PluginFloor, "probe: 2.0.30"}, {"commands", PluginFloor, "probe: 2.0.30"},
	{"agents", PluginFloor, "probe: 2.0.30"}, {"skills", PluginFloor, "probe: 2.0.30; seen loading on 2.0.30 to 2.1.330"},
	{"mcpServers", PluginFloor, "probe: 2.0.30"}, {"lspServers", PluginFloor, "probe: 2.0.30"},
	{"outputStyles", "2.1.33", "probe: 2.1.33 has it, 2.0.30 lacks it"},
	{"dependencies", "2.1.100", "probe: 2.1.100 has it, 2.1.33 lacks it"},
	{"channels", "2.1.100", "probe: 2.1.100 has it, 2.1.33 lacks it"},
	{"settings", "2.1.100", "probe: 2.1.100 has it, 2.1.33 lacks it"},
	{"userConfig", "2.1.100", "probe: 2.1.100 has it, 2.1.33 lacks it"},
	{"$schema", "2.1.252", "probe: 2.1.252 declares it (ignored at load time)"},
	{"displayName", "2.1.252", "probe: 2.1.252 has it; seen refused by 2.1.33"},
	{"metadata", "2.1.252", "probe: 2.1.252 has it (free-form, not read)"},
	{"defaultEnabled", "2.1.252", "probe: 2.1.252 has it, 2.1.100 lacks it"},
	{"themes", "2.1.252", "probe: 2.1.252 has it, 2.1.100 lacks it"},
	{"workflows", "2.1.252", "probe: 2.1.252 has it, 2.1.100 lacks it"},
	{"monitors", "2.1.252", "probe: 2.1.252 has it, 2.1.100 lacks it"},
	{"binaries", "2.1.252", "probe: 2.1.252 has it, 2.1.100 lacks it"},
	{"experimental", "2.1.252", "probe: 2.1.252 has it, 2.1.100 lacks it"},
	{"engines", "2.1.330", "probe: 2.1.330 has it, 2.1.257 lacks it"},
	{"network", "2.1.330", "probe: 2.1.330 has it, 2.1.257 lacks it"},
	{"types", "2.1.330", "probe: 2.1.330 has it, 2.1.257 lacks it"},
}

// PluginKeyKnown reports whether release v's manifest schema declares key.
func PluginKeyKnown(key string, v hooks.Release) bool {
	for _, k := range PluginKeys {
		if k.Name == key {
			return !v.Less(hooks.MustRelease(k.Since))
		}
	}
	return false
}
