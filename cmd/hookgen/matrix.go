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
	var asJSON, wide bool
	var width int
	return &cli.Command{
		Name:      "matrix",
		Usage:     "print the support table: every event, handler type, field and capability with its first release",
		UsageText: "hookgen matrix [--json]",
		Description: `One row per fact: KIND, NAME, the first release that has it (SINCE), the
published release just before it, seen without it (BEFORE) and where that
comes from (SOURCE: probe = the release's own validator, read from its code
over every published release; seen = a real release run); then the band
edges and the fallbacks, every line within the terminal's width (--width,
else the terminal's, else $COLUMNS, else 120 columns). --wide adds the
evidence (WITNESS) and what is uncertain (NOTE), whatever the width. The
evidence in full is compat/FACTS.md in the repository. With --json, one
object: {"floor", "bands", "features": [{"kind", "name", "scope", "since",
"source", "note"}], "fallbacks"}.

   hookgen matrix | grep event
   hookgen matrix --wide
   hookgen matrix --json`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print the table as one JSON object", Destination: &asJSON},
			&cli.BoolFlag{Name: "wide", Usage: "add the WITNESS and NOTE columns, whatever the width", Destination: &wide},
			&cli.IntFlag{Name: "width", Usage: "fit the table in `COLUMNS` (default: the terminal's, else $COLUMNS, else 120)", Destination: &width},
		},
		Action: noArgs(func(*cli.Context) error {
			if asJSON {
				return runMatrixJSON(e)
			}
			return runMatrix(e, wide, e.width(width))
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

// runMatrix prints the matrix and the band edges: five columns within
// width, or every column with wide.
func runMatrix(e env, wide bool, width int) error {
	if wide {
		tw := tabwriter.NewWriter(e.Out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "KIND\tNAME\tSINCE\tBEFORE\tSOURCE\tWITNESS\tNOTE")
		for _, f := range compat.Matrix {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", f.Kind, featureName(f), f.Since, orDash(f.Before), f.Source, f.Witness, f.Note)
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
	rows := [][]string{{"KIND", "NAME", "SINCE", "BEFORE", "SOURCE"}}
	for _, f := range compat.Matrix {
		rows = append(rows, []string{string(f.Kind), featureName(f), f.Since, orDash(f.Before), string(f.Source)})
	}
	widths := make([]int, 5)
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], len(c))
		}
	}
	// NAME gives way when the five columns do not fit.
	if total := widths[0] + widths[2] + widths[3] + widths[4] + 8; total+widths[1] > width {
		widths[1] = max(8, width-total)
	}
	for _, r := range rows {
		var line strings.Builder
		for i, c := range r {
			if i > 0 {
				line.WriteString("  ")
			}
			line.WriteString(pad(clipWidth(c, widths[i]), widths[i]))
		}
		fmt.Fprintln(e.Out, clipWidth(strings.TrimRight(line.String(), " "), width))
	}
	var bands []string
	for _, b := range compat.Bands() {
		bands = append(bands, b.String())
	}
	fmt.Fprintln(e.Out)
	for _, l := range wrap(fmt.Sprintf("Bands (plugin floor %s): %s", compat.PluginFloor, strings.Join(bands, " ")), width) {
		fmt.Fprintln(e.Out, l)
	}
	for _, l := range wrap(fallbackLine(), width) {
		fmt.Fprintln(e.Out, l)
	}
	fmt.Fprintln(e.Out, clipWidth("The evidence of each row: hookgen matrix --wide, or compat/FACTS.md.", width))
	return nil
}

// featureName is a row's name, with its scope for a field.
func featureName(f compat.Feature) string {
	if f.Scope != "" {
		return string(f.Scope) + "." + f.Name
	}
	return f.Name
}

// orDash is s, or "-" when empty.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
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
