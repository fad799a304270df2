package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/hookwright/hookwright/schemas"
	"github.com/urfave/cli/v2"
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
		Description: `Prints one line per violation, "JSON-pointer: message", and exits 1 if there
is any; prints nothing and exits 0 when the file loads on the release. With
--json it prints one JSON array of {"pointer", "message"} objects ([] when
clean) and exits the same way; a file that is not JSON is one violation at
the root.

   hookgen validate --cc-version 2.0.30 plugin/hooks/hooks.json
   /hooks/TeammateIdle: event TeammateIdle arrives in Claude Code 2.1.33; ...`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "cc-version", Usage: "Claude Code release to check for (required)", Destination: &o.ccVersion},
			&cli.BoolFlag{Name: "json", Usage: "print the violations as one JSON array of {pointer, message}", Destination: &o.json},
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
	if o.json {
		type violation struct {
			Pointer string `json:"pointer"`
			Message string `json:"message"`
		}
		out := make([]violation, 0, len(vs))
		for _, viol := range vs {
			out = append(out, violation{viol.Pointer, viol.Message})
		}
		enc := json.NewEncoder(o.Out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return err
		}
	} else {
		for _, viol := range vs {
			fmt.Fprintln(o.Out, viol)
		}
	}
	if len(vs) > 0 {
		return errViolations
	}
	return nil
}

func (o *validateOptions) read() ([]byte, error) {
	if o.file == "-" {
		return io.ReadAll(o.In)
	}
	b, err := os.ReadFile(o.file)
	if err != nil {
		return nil, fmt.Errorf("reading the manifest: %w", err)
	}
	return b, nil
}
