package main

import (
	"encoding/json"
	"fmt"

	"github.com/urfave/cli/v2"

	hwcli "github.com/hookwright/hookwright/internal/cli"
	"github.com/hookwright/hookwright/schemas"
)

// validateOptions are `hookgen validate`'s flags and argument.
type validateOptions struct {
	env
	ccVersion string
	file      string // "-" is stdin
	json      bool
}

func validateCommand(e env) *cli.Command {
	o := &validateOptions{env: e}
	return &cli.Command{
		Name:      "validate",
		Usage:     "check a hooks.json against a release's band; print every violation",
		UsageText: "hookgen validate --cc-version VERSION FILE   (FILE - reads stdin)",
		Description: `Prints one line per violation, "JSON-pointer: message".

Errors (the release rejects the whole file, or a hook would not run as
written; each names the release and the run that showed it) go to stdout,
and the exit code is 1. Warnings (the release loads the file but ignores
something in it, or the claim is unverified) go to stderr as
"JSON-pointer: warning: message" and leave the exit code 0. An unknown
event is an error up to 2.1.252 (the whole file is rejected) and a warning
from 2.1.257 (the entry is ignored). A top-level "$schema" is accepted on
every release.

With --json it prints one JSON array of {"pointer", "message", "severity"}
objects ("error" or "warning"; [] when clean) on stdout and exits the same
way; a file that is not JSON is one violation at the root.

Examples:
   hookgen validate --cc-version 2.0.30 plugin/hooks/bands/2.1.33.json
   /hooks/TeammateIdle: event TeammateIdle arrives in Claude Code 2.1.33 (hookgen writes a fallback ...
   hookgen validate --cc-version 2.1.257 hooks.json    an unknown event: a warning, exit 0
   hookgen --cc-version 2.1.32 | hookgen validate --cc-version 2.1.32 -
   hookgen validate --json --cc-version 2.0.30 hooks/hooks.json

` + hwcli.ExitCodesHelp,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "cc-version", Usage: "Claude Code release to check for (required)", Destination: &o.ccVersion},
			&cli.BoolFlag{Name: "json", Usage: "print the violations as one JSON array of {pointer, message, severity}", Destination: &o.json},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageErr("validate takes exactly one FILE")
			}
			o.file = c.Args().First()
			return runValidate(o)
		},
	}
}

// runValidate prints the violations of one file.
func runValidate(o *validateOptions) error {
	v, err := requiredVersion("validate", o.ccVersion)
	if err != nil {
		return err
	}
	doc, err := o.read()
	if err != nil {
		return err
	}
	vs, err := schemas.Validate(v, doc)
	if err != nil && o.json {
		vs, err = []schemas.Violation{{Message: err.Error()}}, nil
	}
	if err != nil {
		return err
	}
	errs := 0
	for _, viol := range vs {
		if viol.Severity != schemas.Warning {
			errs++
		}
	}
	if o.json {
		type violation struct {
			Pointer  string `json:"pointer"`
			Message  string `json:"message"`
			Severity string `json:"severity"`
		}
		out := make([]violation, 0, len(vs))
		for _, viol := range vs {
			sev := "error"
			if viol.Severity == schemas.Warning {
				sev = "warning"
			}
			out = append(out, violation{viol.Pointer, viol.Message, sev})
		}
		enc := json.NewEncoder(o.Out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return err
		}
	} else {
		for _, viol := range vs {
			if viol.Severity == schemas.Warning {
				fmt.Fprintln(o.Err, viol)
				continue
			}
			fmt.Fprintln(o.Out, viol)
		}
	}
	if errs > 0 {
		return errViolations
	}
	return nil
}

func (o *validateOptions) read() ([]byte, error) {
	b, err := readInput(o.file, o.In)
	if err != nil {
		return nil, fmt.Errorf("reading the manifest: %w", err)
	}
	return b, nil
}
