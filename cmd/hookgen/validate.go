package main

import (
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
}

func validateCommand(e env) *cli.Command {
	o := &validateOptions{env: e}
	return &cli.Command{
		Name:      "validate",
		Usage:     "check a hooks.json against a release's band; print every violation",
		UsageText: "hookgen validate --cc-version VERSION FILE   (FILE - reads stdin)",
		Description: `Prints one line per violation, "JSON-pointer: message", and exits 1 if there
is any; prints nothing and exits 0 when the file loads on the release.

   hookgen validate --cc-version 2.0.30 plugin/hooks/hooks.json
   /hooks/TeammateIdle: event TeammateIdle arrives in Claude Code 2.1.33; ...`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "cc-version", Usage: "Claude Code release to check for (required)", Destination: &o.ccVersion},
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
	if err != nil {
		return err
	}
	for _, viol := range vs {
		fmt.Fprintln(o.Out, viol)
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
