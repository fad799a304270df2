package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/hookwright/hookwright/compat"
	"github.com/urfave/cli/v2"
)

func matrixCommand(e env) *cli.Command {
	var asJSON bool
	return &cli.Command{
		Name:      "matrix",
		Usage:     "print the support table: every event, handler type, field and capability with its first release",
		UsageText: "hookgen matrix [--json]",
		Description: `One row per fact: KIND, NAME, the first release that has it (SINCE), the
published release just before it, seen without it (BEFORE), where that comes
from (SOURCE: probe = the release's own validator, read from its code over
every published release; seen = a real release run), the evidence (WITNESS)
and what is uncertain (NOTE); then the band edges and the fallbacks. The
evidence in full is compat/FACTS.md in the repository. With --json, one
object: {"floor", "bands", "features": [{"kind", "name", "scope", "since",
"source", "note"}], "fallbacks"}.

   hookgen matrix | grep event
   hookgen matrix --json`,
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print the table as one JSON object", Destination: &asJSON}},
		Action: noArgs(func(*cli.Context) error {
			if asJSON {
				return runMatrixJSON(e)
			}
			return runMatrix(e)
		}),
	}
}

// runMatrixJSON prints the support table as one JSON object.
func runMatrixJSON(e env) error {
	type feature struct {
		Kind   string `json:"kind"`
		Name   string `json:"name"`
		Scope  string `json:"scope,omitempty"`
		Since  string `json:"since"`
		Source string `json:"source"`
		Note   string `json:"note,omitempty"`
	}
	table := struct {
		Floor     string    `json:"floor"`
		Bands     []string  `json:"bands"`
		Features  []feature `json:"features"`
		Fallbacks string    `json:"fallbacks"`
	}{Floor: compat.PluginFloor, Fallbacks: strings.TrimSuffix(strings.TrimPrefix(fallbackLine(), "Fallbacks: "), ".")}
	for _, b := range compat.Bands() {
		table.Bands = append(table.Bands, b.String())
	}
	for _, f := range compat.Matrix {
		table.Features = append(table.Features, feature{string(f.Kind), f.Name, string(f.Scope), f.Since, string(f.Source), f.Note})
	}
	enc := json.NewEncoder(e.Out)
	enc.SetIndent("", "  ")
	return enc.Encode(table)
}

// runMatrix prints the matrix and the band edges.
func runMatrix(e env) error {
	tw := tabwriter.NewWriter(e.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "KIND\tNAME\tSINCE\tBEFORE\tSOURCE\tWITNESS\tNOTE")
	for _, f := range compat.Matrix {
		name := f.Name
		if f.Scope != "" {
			name = string(f.Scope) + "." + f.Name
		}
		before := f.Before
		if before == "" {
			before = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", f.Kind, name, f.Since, before, f.Source, f.Witness, f.Note)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	var bands []string
	for _, b := range compat.Bands() {
		bands = append(bands, b.String())
	}
	fmt.Fprintf(e.Out, "\nBands (plugin floor %s): %s\n", compat.PluginFloor, strings.Join(bands, " "))
	fmt.Fprintln(e.Out, fallbackLine())
	return nil
}

// fallbackLine is compat.Fallbacks in one line: each option with its
// anchors, the release it needs when a later option covers the older ones,
// and whether it only approximates the event.
func fallbackLine() string {
	var rules []string
	for _, r := range compat.Fallbacks {
		var opts []string
		for i, o := range r.Options {
			s := compat.JoinAnchors(o.Anchors)
			if tool, ok := compat.Lookup(compat.KindTool, o.Requires); ok && i < len(r.Options)-1 {
				s += " from " + tool.Since
			}
			if i > 0 {
				s += " before"
			}
			if !o.Exact {
				s += " (approximate)"
			}
			opts = append(opts, s)
		}
		rules = append(rules, r.Event+" → "+strings.Join(opts, ", "))
	}
	return "Fallbacks: " + strings.Join(rules, "; ") + "."
}
