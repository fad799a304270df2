package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/manifests"
	"github.com/urfave/cli/v2"
)

// explainOptions are `hookgen explain`'s flags.
type explainOptions struct {
	env
	ccVersion string
	spec      string
	all       bool
}

func explainCommand(e env) *cli.Command {
	o := &explainOptions{env: e}
	return &cli.Command{
		Name:      "explain",
		Usage:     "say, for a release, which events are native, which are fallbacks, and why",
		UsageText: "hookgen explain --cc-version VERSION [--spec FILE] [--all]",
		Description: `Shows the release's band, then each event of the spec: native or fallback
(through which events), how a handler blocks there, and why; then what the
generator drops. --all covers every event in the matrix, not just the spec's.

   hookgen explain --cc-version 2.1.15`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "cc-version", Usage: "Claude Code release to explain (required)", Destination: &o.ccVersion},
			&cli.StringFlag{Name: "spec", Usage: "handler spec `FILE` (default: hookwright's own)", Destination: &o.spec},
			&cli.BoolFlag{Name: "all", Usage: "explain every event in the matrix", Destination: &o.all},
		},
		Action: noArgs(func(*cli.Context) error { return runExplain(o) }),
	}
}

// runExplain prints the plan for one release.
func runExplain(o *explainOptions) error {
	v, err := requiredVersion(o.env, "explain", o.ccVersion)
	if err != nil {
		return err
	}
	spec, err := loadSpec(o.spec, o.In)
	if err != nil {
		return err
	}
	r, err := manifests.Build(spec, v)
	if err != nil {
		return err
	}
	fmt.Fprintf(o.Out, "Claude Code %s is in band %s.\n\n", v, r.Band)
	for _, rt := range r.Routing.Routes {
		if o.all || slices.ContainsFunc(spec.Handlers, func(h manifests.Handler) bool { return h.Event == rt.Event }) {
			printRoute(o.Out, rt)
		}
	}
	if len(r.Notes) > 0 {
		fmt.Fprintln(o.Out, "\nThe generated manifest:")
		for _, n := range r.Notes {
			fmt.Fprintln(o.Out, "  - "+n)
		}
	}
	return nil
}

func printRoute(w io.Writer, rt compat.Route) {
	how := string(rt.Mode)
	if rt.Mode == compat.Fallback {
		var via []string
		for _, a := range rt.Via {
			s := a.Event
			if a.Matcher != "" {
				s += " matching " + a.Matcher
			}
			via = append(via, s)
		}
		how += " via " + strings.Join(via, " + ")
		if !rt.Exact {
			how += " (approximate)"
		}
	}
	fmt.Fprintf(w, "%-20s %s; blocks by %s\n%-20s %s\n", rt.Event, how, rt.Channel, "", rt.Why)
}
