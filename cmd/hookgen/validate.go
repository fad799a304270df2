package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/hookwright/hookwright/compat"
	hwcli "github.com/hookwright/hookwright/internal/cli"
	"github.com/hookwright/hookwright/internal/marketplace"
	"github.com/hookwright/hookwright/internal/oracle"
)

// validateOptions are `hookgen validate`'s flags and argument.
type validateOptions struct {
	env
	releaseFlags
	file   string // "-" is stdin
	json   bool
	failOn string
}

// failOnHelp documents the levels of --fail-on, shared with audit.
const failOnHelp = `Every finding is one of four consequences, printed in this order:

   rejected  the release refuses something: the whole plugin, one hooks
             file (the plugin's other hooks still load), or the whole
             marketplace; a release on which every hook of the plugin is
             dropped counts as refused too ("no hook runs")
   dropped   the plugin loads, but this entry never runs (as written)
   ignored   a key the release reads past, with no effect
   lint      loads and runs, but probably not what you meant (a timeout
             that looks like milliseconds, a matcher on Stop)

The exit code is 1 when a finding is at or above --fail-on: "rejected" by
default; --strict is --fail-on dropped.`

func validateCommand(e env) *cli.Command {
	o := &validateOptions{env: e}
	return &cli.Command{
		Name:      "validate",
		Usage:     "say what Claude Code releases do with a plugin folder, a hooks.json or a plugin.json",
		UsageText: "hookgen validate [--cc-version RELEASE ... | --since RELEASE | --releases RANGE] [--strict | --fail-on LEVEL] [--json] PATH   (PATH - reads stdin)",
		Description: `Checks PATH, a plugin folder (hooks/hooks.json, .claude-plugin/plugin.json
with its inline hooks, the hooks files it names, the paths it names), a
hooks.json, or a plugin.json (by its name), with the rules the releases' own
loaders apply, and says what each release does with it. One line per
finding, gravest first:

   CONSEQUENCE FILE POINTER (RELEASES): what happens. Fix: what to do

then one summary line: the range judged and what the releases do, span by
span, as "plugin refused", "hooks file refused", "no hook runs",
"N dropped" or "loads".

` + failOnHelp + `

` + releasesHelp + `

With --json it prints one JSON array of {"file", "pointer", "consequence",
"refuses", "from", "to", "message", "fix", "rule"} objects ([] when clean;
"to" is empty for "and later") and the summary on stderr. A file that is not
JSON is one rejection at its root. The user documentation is docs/validate.md.

Examples:
   hookgen validate --cc-version 2.0.30 plugin/hooks/2.1.33.json
   rejected hooks.json /hooks/TaskCompleted (up to 2.1.32): event TaskCompleted arrives in 2.1.33, so ...
   hookgen validate --cc-version 2.1.257 hooks.json    an unknown event: dropped, exit 0
   hookgen validate --since 2.1.100 .                  CI for a plugin that supports 2.1.100 on
   hookgen --cc-version 2.1.32 | hookgen validate --cc-version 2.1.32 -
   hookgen validate --strict --json .

` + hwcli.ExitCodesHelp,
		Flags: append(o.releaseFlags.flags(),
			&cli.BoolFlag{Name: "json", Usage: "print the findings as one JSON array", Destination: &o.json},
			&cli.BoolFlag{Name: "strict", Usage: "exit 1 on dropped entries too (--fail-on dropped)"},
			&cli.StringFlag{Name: "fail-on", Usage: "the least grave `LEVEL` that exits 1: rejected, dropped, ignored or lint", Value: string(compat.Rejected), Destination: &o.failOn},
		),
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageErr("validate takes exactly one PATH (a plugin folder, a hooks.json or a plugin.json)%s", flagsFirst(c.Args().Slice()))
			}
			o.file = c.Args().First()
			if err := o.releaseFlags.read(c); err != nil {
				return err
			}
			if c.Bool("strict") {
				o.failOn = string(compat.Dropped)
			}
			return runValidate(o)
		},
	}
}

// flagsFirst explains a flag written after the path, which the command
// line reads as a second path.
func flagsFirst(args []string) string {
	for _, a := range args[min(1, len(args)):] {
		if strings.HasPrefix(a, "-") && a != "-" {
			return fmt.Sprintf("; %s comes after it: put flags before the path", a)
		}
	}
	return ""
}

// failLevel parses --fail-on.
func failLevel(s string) (compat.Consequence, error) {
	switch c := compat.Consequence(strings.ToLower(s)); c {
	case compat.Rejected, compat.Dropped, compat.Ignored, compat.Lint:
		return c, nil
	}
	return "", usageErr("--fail-on %q: want rejected, dropped, ignored or lint", s)
}

// fails reports whether any finding is at or above level.
func fails(fs []oracle.Finding, level compat.Consequence) bool {
	for _, f := range fs {
		if f.Consequence.Rank() <= level.Rank() {
			return true
		}
	}
	return false
}

// runValidate judges one plugin, hooks.json or plugin.json.
func runValidate(o *validateOptions) error {
	level, err := failLevel(o.failOn)
	if err != nil {
		return err
	}
	p, err := o.input()
	if err != nil {
		return err
	}
	j, err := o.choose(p.Manifest)
	if err != nil {
		return err
	}
	if j.Exact {
		for _, v := range j.Releases {
			warnIfNewer(o.env, v)
		}
	}
	var per [][]oracle.Finding
	var outcomes []string
	for _, v := range j.Releases {
		vd, err := oracle.Judge(v, p)
		if err != nil {
			return err
		}
		per = append(per, vd.Findings)
		outcomes = append(outcomes, vd.Outcome())
	}
	fs := oracle.Merge(per...)
	if !j.Exact {
		fs = oracle.MergeOver(j.Releases, per)
	}
	summary := "hookgen validate: judged " + j.Label + ": " + j.spanLine(spans(j, func(i int) string { return outcomes[i] }))
	if j.Note != "" {
		summary += " (" + j.Note + ")"
	}
	if o.json {
		if err := writeFindingsJSON(o.Out, fs); err != nil {
			return err
		}
		fmt.Fprintln(o.Err, summary)
	} else {
		for _, f := range fs {
			fmt.Fprintln(o.Out, f)
		}
		fmt.Fprintln(o.Out, summary)
	}
	if fails(fs, level) {
		return errViolations
	}
	return nil
}

// input reads PATH: a plugin folder gives its files, a file named
// plugin.json is a manifest alone, anything else a hooks.json.
func (o *validateOptions) input() (oracle.Plugin, error) {
	if o.file != "-" && isDir(o.file) {
		p, err := marketplace.ReadPlugin(o.file)
		if err != nil {
			return p, hwcli.Exit(exitFailure, fmt.Errorf("reading the plugin %s: %w", o.file, err))
		}
		if p.Hooks == nil && p.Manifest == nil {
			if _, err := os.Stat(filepath.Join(o.file, ".claude-plugin", "marketplace.json")); err == nil {
				return p, usageErr("%s is a marketplace, not a plugin: run hookgen audit %s", o.file, o.file)
			}
			return p, hwcli.Exit(exitFailure, fmt.Errorf("%s holds neither hooks/hooks.json nor .claude-plugin/plugin.json: not a plugin folder", o.file))
		}
		return p, nil
	}
	b, err := readInput(o.file, o.In)
	if err != nil {
		return oracle.Plugin{}, hwcli.Exit(exitFailure, fmt.Errorf("reading the manifest: %w", err))
	}
	if filepath.Base(o.file) == "plugin.json" {
		return oracle.Plugin{Manifest: b, FilesUnknown: true}, nil
	}
	return oracle.Plugin{Hooks: b}, nil
}

// jsonFinding is one finding in --json output.
type jsonFinding struct {
	File        string `json:"file"`
	Pointer     string `json:"pointer"`
	Consequence string `json:"consequence"`
	Refuses     string `json:"refuses,omitempty"`
	From        string `json:"from"`
	To          string `json:"to"`
	Message     string `json:"message"`
	Fix         string `json:"fix"`
	Rule        string `json:"rule"`
}

// toJSON converts findings for --json.
func toJSON(fs []oracle.Finding) []jsonFinding {
	out := make([]jsonFinding, 0, len(fs))
	for _, f := range fs {
		out = append(out, jsonFinding{string(f.File), f.Pointer, string(f.Consequence), string(f.Refuses), f.From, f.To, f.What, f.Fix, f.Rule})
	}
	return out
}

// writeFindingsJSON prints findings as one indented JSON array.
func writeFindingsJSON(w io.Writer, fs []oracle.Finding) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(toJSON(fs))
}
