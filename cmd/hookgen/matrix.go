package main

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/hookwright/hookwright/compat"
	"github.com/urfave/cli/v2"
)

func matrixCommand(e env) *cli.Command {
	return &cli.Command{
		Name:      "matrix",
		Usage:     "print the support table: every event, handler type, field and capability with its first release",
		UsageText: "hookgen matrix",
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageErr("unexpected argument %q", c.Args().First())
			}
			return runMatrix(e)
		},
		OnUsageError: onUsageError,
	}
}

// runMatrix prints the matrix and the band edges.
func runMatrix(e env) error {
	tw := tabwriter.NewWriter(e.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "KIND\tNAME\tSINCE\tSOURCE\tNOTE")
	for _, f := range compat.Matrix {
		name := f.Name
		if f.Scope != "" {
			name = string(f.Scope) + "." + f.Name
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", f.Kind, name, f.Since, f.Source, f.Note)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	var bands []string
	for _, b := range compat.Bands() {
		bands = append(bands, b.String())
	}
	fmt.Fprintf(e.Out, "\nBands (plugin floor %s): %s\n", compat.PluginFloor, strings.Join(bands, " "))
	fmt.Fprintln(e.Out, "Fallbacks: TaskCompleted → PostToolUse[TaskUpdate] from 2.1.16, PostToolUse[TodoWrite] before (approximate); TeammateIdle → SubagentStop + Stop.")
	return nil
}
