package suite

import (
	"fmt"
	"strings"
)

// How a case decides.
const (
	// ByBehaviour cases run the plugin's own hook commands through sh -c
	// with the payloads real releases send, and judge what they do.
	ByBehaviour = "behaviour"
	// ByLoader cases judge a manifest as the release's loader would: its
	// keys, events and fields against the band's schema.
	ByLoader = "loader"
	// ByContent cases read a file's content (registrations, versions,
	// names) and compare it with the spec or the rules.
	ByContent = "content"
)

// Mapping says what one hookwright case stands for in bkit's compatibility
// design (hooks.json Compatibility Fix, section 6: the 28 test IDs
// COMPAT-01..07, ALT-01..07 and REG-01..14) and how it decides. The cases
// carry IDs of their own (HWC, HWF, HWR), so that no ID means two things:
// COMPAT-02 is always the design's check, HWC-02 always hookwright's.
type Mapping struct {
	ID string
	// Design lists the design's test IDs the case stands for: the same
	// subject, decided by running or reading where the design grepped or
	// checked that a file exists. Empty means the case is new.
	Design []string
	// By is ByBehaviour, ByLoader or ByContent.
	By string
	// How says in a few words what is done, and where hookwright runs
	// something where a file's existence or content would have been read.
	How string
}

// DesignIDs are the design's 28 test IDs with what each checked, in its
// order (REG-02..06 were one row there, "PreToolUse/PostToolUse handlers").
var DesignIDs = []struct{ ID, Checks string }{
	{"COMPAT-01", `no "TeammateIdle" in hooks.json (grep)`},
	{"COMPAT-02", `no "TaskCompleted" in hooks.json (grep)`},
	{"COMPAT-03", `no "$schema" in hooks.json (grep)`},
	{"COMPAT-04", "hooks.json has the 8 expected event keys"},
	{"COMPAT-05", "hooks.json is valid JSON"},
	{"COMPAT-06", "every event is on the v2.0.30+ list"},
	{"COMPAT-07", "every hook script path exists (fs.existsSync)"},
	{"ALT-01", `PostToolUse has a "TaskUpdate" matcher`},
	{"ALT-02", "task-completed-post.js, the TaskCompleted fallback, exists"},
	{"ALT-03", "the fallback carries PDCA_TASK_PATTERNS, so it advances PDCA (grep)"},
	{"ALT-04", "subagent-stop-handler.js calls handleTeammateIdle: idle and next task through SubagentStop (grep)"},
	{"ALT-05", "unified-stop.js calls updateTeammateStatus: teammate status through Stop (grep)"},
	{"ALT-06", "pdca-task-completed.js, the native TaskCompleted handler, still exists"},
	{"ALT-07", "team-idle-handler.js, the native TeammateIdle handler, still exists"},
	{"REG-01", "SessionStart handler syntax (node -c)"},
	{"REG-02", "PreToolUse/PostToolUse handler syntax (node -c)"},
	{"REG-03", "PreToolUse/PostToolUse handler syntax (node -c)"},
	{"REG-04", "PreToolUse/PostToolUse handler syntax (node -c)"},
	{"REG-05", "PreToolUse/PostToolUse handler syntax (node -c)"},
	{"REG-06", "PreToolUse/PostToolUse handler syntax (node -c)"},
	{"REG-07", "Stop handler syntax (node -c)"},
	{"REG-08", "UserPromptSubmit handler syntax (node -c)"},
	{"REG-09", "PreCompact handler syntax (node -c)"},
	{"REG-10", "SubagentStart handler syntax (node -c)"},
	{"REG-11", "SubagentStop handler syntax (node -c)"},
	{"REG-12", "bkit's common.js exports at least 180 names"},
	{"REG-13", "bkit ships 26 skills"},
	{"REG-14", "bkit ships 16 agents"},
}

// NotCarried are the design IDs no hookwright case stands for, with why.
var NotCarried = map[string]string{
	"REG-12": "a count of bkit's own library exports; hookwright's plugins share no such library",
	"REG-13": "a count of bkit's skills; the suite checks hooks, not a plugin's skills",
	"REG-14": "a count of bkit's agents; the suite checks hooks, not a plugin's agents",
}

// regSyntax are the design's handler syntax checks, which running every
// handler on its event's input (HWR-06) subsumes: a handler that does not
// parse does not answer.
var regSyntax = []string{"REG-01", "REG-02", "REG-03", "REG-04", "REG-05", "REG-06", "REG-07", "REG-08", "REG-09", "REG-10", "REG-11"}

// IDMap lists every case ID with what it stands for in the design and how
// it decides, in case order.
func IDMap() []Mapping {
	return []Mapping{
		{"HWC-01", []string{"COMPAT-01", "COMPAT-02"}, ByLoader, "the oracle's unknown-event findings for TeammateIdle/TaskCompleted on every release before 2.1.33 (event keys, not strings: a command may name them)"},
		{"HWC-02", []string{"COMPAT-03"}, ByLoader, "the oracle's findings on every hooks file's top-level keys ($schema loads everywhere, so it is allowed)"},
		{"HWC-03", []string{"COMPAT-05"}, ByLoader, "the oracle's parse of each hooks file: one JSON object (else refused), duplicate keys (the first lost)"},
		{"HWC-04", []string{"COMPAT-06"}, ByLoader, "the plugin folder through hookgen validate's oracle on every release under test: fails where validate fails"},
		{"HWC-05", []string{"COMPAT-04"}, ByContent, "events and matcher groups compared with what hookgen generates from the spec for the band"},
		{"HWC-06", []string{"COMPAT-07"}, ByBehaviour, "not only that the command's file exists: the launcher is run as if on each of 6 platforms, and the binary it picks must be an executable ELF, Mach-O or PE for that platform"},
		{"HWC-07", nil, ByContent, "every timeout read as whole seconds from 1 to 600 (a warning: every release loads any positive number)"},
		{"HWF-01", []string{"ALT-01"}, ByContent, "the TaskCompleted fallback registration (PostToolUse on TaskUpdate or TodoWrite, --via) in every band without the event"},
		{"HWF-02", nil, ByContent, "the TeammateIdle fallback registrations (Stop, SubagentStop, --via) in every band without the event"},
		{"HWF-03", []string{"ALT-06", "ALT-07"}, ByBehaviour, "native releases run the native handlers once; an install's fallbacks are silent there"},
		{"HWF-04", []string{"ALT-02"}, ByBehaviour, "fallback and native commands run on TaskUpdate/TaskCompleted payloads in two gate states: same exit code and reason"},
		{"HWF-05", nil, ByBehaviour, "the fallback run on TaskUpdates that complete nothing: never blocks"},
		{"HWF-06", nil, ByBehaviour, "TeammateIdle via Stop and native run in a teammate's session: same outcome"},
		{"HWF-07", nil, ByBehaviour, "TeammateIdle via SubagentStop run for a teammate, a plain subagent and a repeated stop"},
		{"HWF-08", []string{"ALT-03"}, ByBehaviour, "the fallback and native TaskCompleted run on a PDCA-tagged task: the same phase in .hookwright/pdca.json"},
		{"HWF-09", []string{"ALT-04"}, ByBehaviour, "TeammateIdle via SubagentStop and Stop with a pending task: the same next task as native"},
		{"HWF-10", []string{"ALT-05"}, ByBehaviour, "TeammateIdle via SubagentStop and Stop: the same teammate status in .hookwright/team/ as native"},
		{"HWR-01", nil, ByLoader, "plugin.json through the oracle: values, inline hooks, the files and paths it names"},
		{"HWR-02", nil, ByLoader, "the oracle's unknown-key findings on plugin.json for releases up to 2.1.75"},
		{"HWR-03", nil, ByLoader, "marketplace.json entry resolved to the plugin folder, and the oracle's verdict on the plugin as the marketplace installs it"},
		{"HWR-04", nil, ByContent, "handler count per manifest against the spec's for the band (the loader's Registered N)"},
		{"HWR-05", nil, ByContent, "event count per manifest against the spec's for the band"},
		{"HWR-06", regSyntax, ByBehaviour, "every handler run on its event's canonical input: exit 0 or 2 before its timeout (where the design ran node -c on each)"},
		{"HWR-07", nil, ByBehaviour, "every reply those runs print, checked against the event's output shape"},
		{"HWR-08", nil, ByBehaviour, "every block from those runs and from the gates carries a reason on stderr"},
		{"HWR-09", nil, ByBehaviour, "handlers run on harmless input never block"},
		{"HWR-10", nil, ByBehaviour, "Stop and SubagentStop handlers run with stop_hook_active never block"},
		{"HWR-11", nil, ByBehaviour, "handlers run with stdin left open must answer"},
		{"HWR-12", nil, ByBehaviour, "handlers run from a plugin path with a space behave alike"},
		{"HWR-13", nil, ByBehaviour, "handlers run with unknown input fields and no CLAUDE_PROJECT_DIR behave alike"},
		{"HWR-14", nil, ByBehaviour, "native TeammateIdle/TaskCompleted handlers run in a band before 2.1.69 must block by exit 2, never continue:false"},
	}
}

// IDTable is [IDMap] as the Markdown section of compat/REPORT.md: each case
// with the design ID it stands for (or "new"), then the design IDs no case
// carries.
func IDTable() string {
	var b strings.Builder
	b.WriteString("## The suite's cases and the compatibility design's test IDs\n\n")
	b.WriteString("bkit's compatibility design (hooks.json Compatibility Fix, section 6) named 28 checks,\n")
	b.WriteString("COMPAT-01..07, ALT-01..07 and REG-01..14. hookwright's cases have IDs of their own (HWC, HWF, HWR),\n")
	b.WriteString("so that no ID means two things; the second column names the design IDs each case stands for (the\n")
	b.WriteString("same subject), or says **new**. The titles are `hookgen compat`'s lines. The last column says how\n")
	b.WriteString("hookwright decides: **behaviour** runs the plugin's own hook commands through `sh -c` with real\n")
	b.WriteString("payloads and judges what they do (where the design grepped or checked that a file exists),\n")
	b.WriteString("**loader** judges a manifest as the release's loader would, **content** reads a file's content.\n")
	b.WriteString("A behaviour case whose handlers never ran (no program, or a launcher without its binary) is SKIP,\n")
	b.WriteString("never PASS.\n\n")
	b.WriteString("| case | what it proves | stands for | decides by | how |\n|---|---|---|---|---|\n")
	titles := map[string]string{}
	for _, c := range Cases() {
		titles[c.ID] = c.Title
	}
	for _, m := range IDMap() {
		design := "new"
		if len(m.Design) > 0 {
			design = strings.Join(m.Design, ", ")
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", m.ID, titles[m.ID], design, m.By, m.How)
	}
	b.WriteString("\nDesign IDs no case stands for:\n\n")
	for _, d := range DesignIDs {
		if why, ok := NotCarried[d.ID]; ok {
			fmt.Fprintf(&b, "- %s (%s): %s\n", d.ID, d.Checks, why)
		}
	}
	return b.String()
}
