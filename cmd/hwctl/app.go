package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"
)

// streams are where a command writes; tests use buffers.
type streams struct {
	out, err io.Writer
	getenv   func(string) string
}

// run is the whole program: it builds the app, runs it and turns an error
// into the exit code (0 ok, 1 failure, 2 usage).
func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	s := streams{out: stdout, err: stderr, getenv: getenv}
	app := newApp(s)
	if err := app.RunContext(ctx, args); err != nil {
		if errors.Is(err, context.Canceled) {
			return 0
		}
		fmt.Fprintln(stderr, "hwctl:", err)
		var ec cli.ExitCoder
		if errors.As(err, &ec) {
			return ec.ExitCode()
		}
		return 1
	}
	return 0
}

func newApp(s streams) *cli.App {
	return &cli.App{
		Name:            "hwctl",
		Usage:           "inspect hookwright's project state: PDCA, work units, sessions, journal",
		Writer:          s.out,
		ErrWriter:       s.err,
		HideHelpCommand: true,
		ExitErrHandler:  func(*cli.Context, error) {}, // run reports errors, once
		Commands: []*cli.Command{
			pdcaCommand(s),
			workCommand(s),
			sessionsCommand(s),
			logCommand(s),
			dashboardCommand(s),
		},
	}
}

// dirFlag is the --dir flag every command takes.
var dirFlag = &cli.StringFlag{Name: "dir", Usage: "project folder (default $CLAUDE_PROJECT_DIR, else .)"}

// jsonFlag asks for JSON output.
var jsonFlag = &cli.BoolFlag{Name: "json", Usage: "print JSON"}

// projectDir is --dir, else $CLAUDE_PROJECT_DIR, else ".".
func (s streams) projectDir(c *cli.Context) string {
	if d := c.String("dir"); d != "" {
		return d
	}
	if d := s.getenv("CLAUDE_PROJECT_DIR"); d != "" {
		return d
	}
	return "."
}

func (s streams) printJSON(v any) error {
	enc := json.NewEncoder(s.out)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func usageError(format string, args ...any) error {
	return cli.Exit(fmt.Sprintf(format, args...), 2)
}
