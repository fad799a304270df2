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

// Mapping says how hookwright's case for one ID of the compatibility design
// (the 28 IDs COMPAT-01..07, ALT-01..07 and REG-01..14 that bkit's
// compatibility design named, and that the suite keeps) decides.
type Mapping struct {
	ID string
	// By is ByBehaviour, ByLoader or ByContent.
	By string
	// How says in a few words what is done, and where hookwright runs
	// something where a file's existence or content would have been read.
	How string
}

// IDMap lists every case ID with how hookwright's case decides, in case
// order.
func IDMap() []Mapping {
	return []Mapping{
		{"COMPAT-01", ByLoader, "every manifest a release before 2.1.33 may load, checked for TeammateIdle/TaskCompleted"},
		{"COMPAT-02", ByLoader, "top-level keys of every manifest"},
		{"COMPAT-03", ByContent, "each manifest parsed strictly: UTF-8, no BOM, one object, no duplicate key"},
		{"COMPAT-04", ByLoader, "each manifest through hookgen validate's oracle on every release under test that may load it"},
		{"COMPAT-05", ByContent, "events and matcher groups compared with what hookgen generates from the spec for the band"},
		{"COMPAT-06", ByBehaviour, "not only that the command's file exists: the launcher is run as if on each of 6 platforms, and the binary it picks must be an executable ELF, Mach-O or PE for that platform"},
		{"COMPAT-07", ByContent, "every timeout read as whole seconds from 1 to 600"},
		{"ALT-01", ByContent, "the TaskCompleted fallback registration (PostToolUse on TaskUpdate or TodoWrite, --via) in every band without the event"},
		{"ALT-02", ByContent, "the TeammateIdle fallback registrations (Stop, SubagentStop, --via) in every band without the event"},
		{"ALT-03", ByContent, "native bands have the native handlers and no --via duplicate"},
		{"ALT-04", ByBehaviour, "fallback and native commands run on TaskUpdate/TaskCompleted payloads in two gate states: same exit code and reason"},
		{"ALT-05", ByBehaviour, "the fallback run on TaskUpdates that complete nothing: never blocks"},
		{"ALT-06", ByBehaviour, "TeammateIdle via Stop and native run in a teammate's session: same outcome"},
		{"ALT-07", ByBehaviour, "TeammateIdle via SubagentStop run for a teammate, a plain subagent and a repeated stop"},
		{"REG-01", ByContent, "plugin.json fields and version"},
		{"REG-02", ByContent, "plugin.json keys against what releases up to 2.1.75 accept"},
		{"REG-03", ByContent, "marketplace.json entry resolved to the plugin folder and version"},
		{"REG-04", ByContent, "handler count per manifest against the spec's for the band (the loader's Registered N)"},
		{"REG-05", ByContent, "event count per manifest against the spec's for the band"},
		{"REG-06", ByBehaviour, "every handler run on its event's canonical input: exit 0 or 2 before its timeout"},
		{"REG-07", ByBehaviour, "every reply those runs print, checked against the event's output shape"},
		{"REG-08", ByBehaviour, "every block from those runs and from the gates carries a reason on stderr"},
		{"REG-09", ByBehaviour, "handlers run on harmless input never block"},
		{"REG-10", ByBehaviour, "Stop and SubagentStop handlers run with stop_hook_active never block"},
		{"REG-11", ByBehaviour, "handlers run with stdin left open must answer"},
		{"REG-12", ByBehaviour, "handlers run from a plugin path with a space behave alike"},
		{"REG-13", ByBehaviour, "handlers run with unknown input fields and no CLAUDE_PROJECT_DIR behave alike"},
		{"REG-14", ByBehaviour, "native TeammateIdle/TaskCompleted handlers run in a band before 2.1.69 must block by exit 2, never continue:false"},
	}
}

// IDTable is [IDMap] as the Markdown section of compat/REPORT.md.
func IDTable() string {
	var b strings.Builder
	b.WriteString("## The 28 IDs of the compatibility design\n\n")
	b.WriteString("bkit's compatibility design named 28 checks, COMPAT-01..07, ALT-01..07 and REG-01..14; hookwright's\n")
	b.WriteString("suite keeps each ID for the same subject (the titles are `hookgen compat`'s lines). The last column\n")
	b.WriteString("says how hookwright decides: **behaviour** runs the plugin's own hook commands through `sh -c` with\n")
	b.WriteString("real payloads and judges what they do (where a design might only check that a file exists),\n")
	b.WriteString("**loader** judges a manifest as the release's loader would, **content** reads a file's content.\n")
	b.WriteString("A behaviour case whose handlers never ran (no program, or a launcher without its binary) is SKIP,\n")
	b.WriteString("never PASS.\n\n")
	b.WriteString("| ID | hookwright case | decides by | how |\n|---|---|---|---|\n")
	titles := map[string]string{}
	for _, c := range Cases() {
		titles[c.ID] = c.Title
	}
	for _, m := range IDMap() {
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", m.ID, titles[m.ID], m.By, m.How)
	}
	return b.String()
}
