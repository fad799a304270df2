package main

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/hooks"
	hwcli "github.com/hookwright/hookwright/internal/cli"
	"github.com/hookwright/hookwright/internal/marketplace"
	"github.com/hookwright/hookwright/internal/oracle"
)

// validateOptions are `hookgen validate`'s flags and argument.
type validateOptions struct {
	env
	ccVersions []string
	file       string // "-" is stdin
	json       bool
	failOn     string
}

// failOnHelp documents the levels of --fail-on, shared with audit.
const failOnHelp = `Every finding is one of four consequences, printed in this order:

   rejected  the release refuses the whole hooks.json or the whole plugin;
             nothing of it runs
   dropped   the file loads, but this entry never runs (as written)
   ignored   a key the release reads past, with no effect
   lint      loads and runs, but probably not what you meant (a timeout
             that looks like milliseconds, a matcher on Stop)

The exit code is 1 when a finding is at or above --fail-on: "rejected" by
default; --strict is --fail-on dropped.`

func validateCommand(e env) *cli.Command {
	o := &validateOptions{env: e}
	return &cli.Command{
		Name:      "validate",
		Usage:     "say what Claude Code releases do with a hooks.json or plugin.json",
		UsageText: "hookgen validate [--cc-version VERSION ...] [--strict | --fail-on LEVEL] [--json] FILE   (FILE - reads stdin)",
		Description: `Checks FILE, a hooks.json, a plugin.json (by its name) or a plugin folder
(hooks/hooks.json, .claude-plugin/plugin.json and the hooks files it
names), on each --cc-version (default: every band's first release and
every release where a rule changes, 2.0.12 on), with the rules the
releases' own loaders apply. One line per finding, gravest first:

   CONSEQUENCE FILE POINTER (RELEASES): what happens. Fix: what to do

` + failOnHelp + `

With --json it prints one JSON array of {"file", "pointer", "consequence",
"from", "to", "message", "fix", "rule"} objects ([] when clean); "to" is
empty for "and later". A file that is not JSON is one rejection at the root.

Examples:
   hookgen validate --cc-version 2.0.30 plugin/hooks/bands/2.1.33.json
   rejected hooks.json /hooks/TaskCompleted (up to 2.1.32): event TaskCompleted arrives in 2.1.33, so ...
   hookgen validate --cc-version 2.1.257 hooks.json    an unknown event: dropped, exit 0
   hookgen --cc-version 2.1.32 | hookgen validate --cc-version 2.1.32 -
   hookgen validate --strict --json .

` + hwcli.ExitCodesHelp,
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "cc-version", Usage: "a Claude Code release to check for; repeat it (default: every band edge and rule edge)"},
			&cli.BoolFlag{Name: "json", Usage: "print the findings as one JSON array", Destination: &o.json},
			&cli.BoolFlag{Name: "strict", Usage: "exit 1 on dropped entries too (--fail-on dropped)"},
			&cli.StringFlag{Name: "fail-on", Usage: "the least grave `LEVEL` that exits 1: rejected, dropped, ignored or lint", Value: string(compat.Rejected), Destination: &o.failOn},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageErr("validate takes exactly one FILE")
			}
			o.file = c.Args().First()
			o.ccVersions = c.StringSlice("cc-version")
			if c.Bool("strict") {
				o.failOn = string(compat.Dropped)
			}
			return runValidate(o)
		},
	}
}

// releases parses the --cc-version values, or returns every release where
// a verdict can change (oracle.Edges: the band edges and the rules' edges).
func releases(vs []string) ([]hooks.Release, error) {
	if len(vs) == 0 {
		return oracle.Edges(), nil
	}
	var out []hooks.Release
	for _, s := range vs {
		v, err := parseVersion(s)
		if err != nil {
			return nil, err
		}
		if v.Less(hooks.MustRelease(compat.PluginFloor)) {
			return nil, usageErr("Claude Code %s is older than %s, the first release that loads plugins", v, compat.PluginFloor)
		}
		out = append(out, v)
	}
	return out, nil
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

// runValidate prints the findings of one file.
func runValidate(o *validateOptions) error {
	level, err := failLevel(o.failOn)
	if err != nil {
		return err
	}
	vs, err := releases(o.ccVersions)
	if err != nil {
		return err
	}
	inputs, err := o.inputs()
	if err != nil {
		return err
	}
	var per [][]oracle.Finding
	for _, v := range vs {
		for _, in := range inputs {
			fs, err := in.check(v, in.doc)
			if err != nil {
				return err
			}
			per = append(per, fs)
		}
	}
	fs := oracle.Merge(per...)
	if o.json {
		if err := writeFindingsJSON(o.Out, fs); err != nil {
			return err
		}
	} else {
		for _, f := range fs {
			fmt.Fprintln(o.Out, f)
		}
	}
	if fails(fs, level) {
		return errViolations
	}
	return nil
}

// input is one file to check and its checker.
type input struct {
	doc   []byte
	check func(hooks.Release, []byte) ([]oracle.Finding, error)
}

// inputs reads FILE: a plugin folder gives its hooks.json and plugin.json,
// a file named plugin.json is a manifest, anything else a hooks.json.
func (o *validateOptions) inputs() ([]input, error) {
	if o.file != "-" && isDir(o.file) {
		hooksJSON, manifest, extra, err := marketplace.ReadPlugin(o.file)
		if err != nil {
			return nil, fmt.Errorf("reading the plugin: %w", err)
		}
		var out []input
		if hooksJSON != nil {
			out = append(out, input{hooksJSON, oracle.CheckHooks})
		}
		if manifest != nil {
			out = append(out, input{manifest, oracle.CheckPlugin})
		}
		for name, b := range extra {
			name := name
			out = append(out, input{b, func(v hooks.Release, doc []byte) ([]oracle.Finding, error) {
				return oracle.CheckExtraHooks(v, name, doc)
			}})
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("%s holds neither hooks/hooks.json nor .claude-plugin/plugin.json", o.file)
		}
		return out, nil
	}
	b, err := readInput(o.file, o.In)
	if err != nil {
		return nil, fmt.Errorf("reading the manifest: %w", err)
	}
	if filepath.Base(o.file) == "plugin.json" {
		return []input{{b, oracle.CheckPlugin}}, nil
	}
	return []input{{b, oracle.CheckHooks}}, nil
}

// jsonFinding is one finding in --json output.
type jsonFinding struct {
	File        string `json:"file"`
	Pointer     string `json:"pointer"`
	Consequence string `json:"consequence"`
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
		out = append(out, jsonFinding{string(f.File), f.Pointer, string(f.Consequence), f.From, f.To, f.What, f.Fix, f.Rule})
	}
	return out
}

// writeFindingsJSON prints findings as one indented JSON array.
func writeFindingsJSON(w io.Writer, fs []oracle.Finding) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(toJSON(fs))
}
