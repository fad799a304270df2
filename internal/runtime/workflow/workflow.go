// Package workflow decides which of the source designs' team workflows run
// in a project. The guard, the journal, the session records, the fallbacks
// and the compaction snapshot run everywhere; the workflows run only where
// the project asks for them:
//
//	scratchpad  the scratchpad chain (seed 004): every agent writes a dated notebook before it stops
//	artifacts   the L1/L2 artifact gates and the GC-version injection (DIA, seed 000)
//	pdca        PDCA auto-advance of [Plan] [Design] [Do] [Check] [Act] [Report] tasks (bkit, seed 001)
//	work        work units: edits outside one are refused (strict) or recorded (warn) (PAL Kit, seed 002)
//	loop        the Stop loop: the session may not stop until a check passes (MoAI, seed 003)
//
// A workflow is on, first rule first:
//
//  1. where a config file (the user's, or the project's .hookwright/config.json)
//     says so: "enabled" true or false in its section; for work, "mode";
//     `hwctl workflow enable` writes exactly that key;
//  2. where a config file sets a field of the section (a user who wrote
//     {"scratchpad": {"fail": "closed"}} uses the chain): scratchpad,
//     artifacts, pdca on; a work section without a mode is "warn", the
//     mode it had before workflows were on request; the loop only by its
//     own "enabled", as before;
//  3. where the project already uses the workflow's own folder, one that
//     nothing hookwright runs by default ever writes: the scratchpad's ego
//     notes (.claude/scratchpad/ego/*.md: no hookwright handler asks an
//     agent to write them), the artifacts root (.agent/teams/: the gate
//     never asked for a file outside a team folder that already existed),
//     bkit's PDCA documents (docs/01-plan/). Work units and the loop keep
//     their state in hookwright's own folder (.hookwright/), which never
//     turns anything on;
//  4. the loop also where `hwctl loop start` armed it (with its receipt);
//  5. else off.
//
// [Decide] gives each answer with the reason, which hwctl explain, hwctl
// workflow status and the runtime's notice print. The runtime decides one
// workflow when an event needs it (package call), so a tool call that no
// workflow reads pays for none of this.
package workflow

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
	loopstate "github.com/hookwright/hookwright/internal/state/loop"
)

// Name names a workflow.
type Name string

// The workflows.
const (
	Scratchpad Name = "scratchpad"
	Artifacts  Name = "artifacts"
	PDCA       Name = "pdca"
	Work       Name = "work"
	Loop       Name = "loop"
)

// Names lists every workflow in the order they are reported.
var Names = []Name{Scratchpad, Artifacts, PDCA, Work, Loop}

// Parse returns the workflow name s names ("scratchpad", any letter
// case), or an error that lists the names.
func Parse(s string) (Name, error) {
	for _, n := range Names {
		if strings.EqualFold(s, string(n)) {
			return n, nil
		}
	}
	return "", fmt.Errorf("unknown workflow %q (one of %s)", s, List())
}

// List is the names, comma-separated, for messages.
func List() string {
	out := make([]string, len(Names))
	for i, n := range Names {
		out[i] = string(n)
	}
	return strings.Join(out, ", ")
}

// Summary says in a few words what a workflow does, for lists and notices.
func Summary(n Name) string {
	switch n {
	case Scratchpad:
		return "every agent writes a dated scratchpad before it stops"
	case Artifacts:
		return "teammates leave L1/L2 files before idling or completing; subagents learn the team's GC version"
	case PDCA:
		return "tasks tagged [Plan] [Design] [Do] [Check] [Act] [Report] advance their feature's phase"
	case Work:
		return "every edit belongs to a work unit (strict refuses others, warn records them)"
	case Loop:
		return "the session may not stop until a check passes or the model keeps its promise"
	}
	return ""
}

// How a workflow's state was decided (Status.By).
const (
	ByConfig  = "config"  // a config file's switch: "enabled", or work's "mode"
	BySection = "section" // a config file configures the section
	ByFolder  = "folder"  // the project uses the workflow's own folder
	ByArmed   = "armed"   // hwctl loop start armed the loop
	ByDefault = "default" // nothing asked for it: off
)

// Status is one workflow's state in a project.
type Status struct {
	Name Name `json:"name"`
	On   bool `json:"on"`
	// Mode is work's mode while it is on: "strict" or "warn".
	Mode string `json:"mode,omitempty"`
	// By is what decided (the By* constants).
	By string `json:"by"`
	// Why says it in one line: the key and its file, or the folder.
	Why string `json:"why"`
}

// String is the status on one line: "scratchpad: on (why)".
func (s Status) String() string {
	state := "off"
	if s.On {
		state = "on"
		if s.Mode != "" {
			state += ", " + s.Mode
		}
	}
	return fmt.Sprintf("%s: %s (%s)", s.Name, state, s.Why)
}

// Evidence names the folder whose presence turns n on (rule 3), relative
// to the project, for cfg; "" for the workflows no folder turns on.
func Evidence(n Name, cfg config.Config) string {
	switch n {
	case Scratchpad:
		return filepath.ToSlash(filepath.Join(cfg.Scratchpad.Dir, cfg.Scratchpad.Ego))
	case Artifacts:
		return filepath.ToSlash(filepath.Clean(cfg.Artifacts.Root))
	case PDCA:
		return PDCAFolder
	}
	return ""
}

// PDCAFolder is bkit's folder of PDCA plan documents: a project that has
// it keeps its features in PDCA phases already.
const PDCAFolder = "docs/01-plan"

// Decide returns n's state in the project at dir, whose config layers are
// l; getenv finds the loop's receipts. dir "" (no project) decides by the
// config alone.
func Decide(n Name, dir string, l config.Layers, getenv func(string) string) Status {
	cfg := l.Config
	st := Status{Name: n}
	switchKey := string(n) + ".enabled"
	if n == Work {
		switchKey = "work.mode"
	}
	if src, ok := l.Set(switchKey); ok {
		st.By = ByConfig
		st.Why = fmt.Sprintf("%s is %s in the %s%s", switchKey, switchValue(n, cfg), src, in(l, src))
		st.On, st.Mode = onByConfig(n, cfg)
		return withLoop(st, dir, cfg, getenv)
	}
	if src, ok := l.SetUnder(string(n)); ok && n != Loop {
		st.By, st.On = BySection, true
		st.Why = fmt.Sprintf("the %s%s configures %s (set %s to false to turn it off)", src, in(l, src), n, switchKey)
		if n == Work {
			st.Mode = string(config.WorkWarn)
			st.Why = fmt.Sprintf("the %s%s configures work without a mode: warn, its former default (set work.mode to \"off\" to turn it off)", src, in(l, src))
		}
		return st
	}
	if ev := Evidence(n, cfg); ev != "" && dir != "" && uses(n, dir, ev) {
		st.By, st.On = ByFolder, true
		what := "has " + ev + "/"
		if n == Scratchpad {
			what = "keeps ego notes in " + ev + "/"
		}
		st.Why = fmt.Sprintf("the project %s, the workflow's own folder (hwctl workflow disable %s turns it off)", what, n)
		return st
	}
	st.By = ByDefault
	st.Why = "not turned on (hwctl workflow enable " + string(n) + ")"
	return withLoop(st, dir, cfg, getenv)
}

// All decides every workflow, in [Names] order.
func All(dir string, l config.Layers, getenv func(string) string) []Status {
	out := make([]Status, len(Names))
	for i, n := range Names {
		out[i] = Decide(n, dir, l, getenv)
	}
	return out
}

// onByConfig reads the switch of n from the merged config.
func onByConfig(n Name, cfg config.Config) (on bool, mode string) {
	switch n {
	case Scratchpad:
		return cfg.Scratchpad.Enabled, ""
	case Artifacts:
		return cfg.Artifacts.Enabled, ""
	case PDCA:
		return cfg.PDCA.Enabled, ""
	case Work:
		if cfg.Work.Mode == config.WorkOff {
			return false, ""
		}
		return true, string(cfg.Work.Mode)
	case Loop:
		return cfg.Loop.Enabled, ""
	}
	return false, ""
}

func switchValue(n Name, cfg config.Config) string {
	if n == Work {
		return fmt.Sprintf("%q", cfg.Work.Mode)
	}
	on, _ := onByConfig(n, cfg)
	return fmt.Sprint(on)
}

// in names the file of layer src: " (path)", or "".
func in(l config.Layers, src config.Source) string {
	if f := l.File(src); f != "" {
		return " (" + f + ")"
	}
	return ""
}

// withLoop applies what hwctl loop start and stop left in the project to
// the loop's status: an honoured arming turns it on, a cancel off.
func withLoop(st Status, dir string, cfg config.Config, getenv func(string) string) Status {
	if st.Name != Loop || dir == "" {
		return st
	}
	ls, err := loopstate.Load(dir)
	if err != nil {
		return st
	}
	ls, dropped := ls.Honoured(dir, getenv)
	switch {
	case ls.Cancelled && st.On:
		st.On, st.By, st.Why = false, ByArmed, "hwctl loop stop cancelled it (hwctl loop start arms it again)"
	case ls.Armed != nil && !st.On:
		st.On, st.By, st.Why = true, ByArmed, "hwctl loop start armed it (hwctl loop stop cancels it)"
	case dropped && !st.On:
		st.Why += "; an arming in .hookwright/loop.json has no receipt of yours and is ignored"
	}
	return st
}

// uses reports whether the project at dir has the folder ev (relative) as
// n's own: for the scratchpad, a regular *.md file in it; for the others,
// the folder itself. Everything is read confined to the project.
func uses(n Name, dir, ev string) bool {
	p, err := safepath.In(dir, ev)
	if err != nil {
		return false
	}
	if n != Scratchpad {
		info, err := safepath.Stat(p)
		return err == nil && info.IsDir()
	}
	entries, err := safepath.ReadDir(p)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".md") {
			return true
		}
	}
	return false
}
