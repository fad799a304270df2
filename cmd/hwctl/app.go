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

// description is the app's --help text below the command list: what hwctl
// is for, where it looks, examples and the exit codes.
const description = `hwctl reads the state hookwright's hooks leave in a project; it never runs
in the hook path. The project is --dir, else $CLAUDE_PROJECT_DIR, else the
current folder. log --follow and dashboard read only what was appended and
keep at most N entries in memory, however large the journal grows.

Examples:
   hwctl dashboard            live: calls per event and decision, the last calls
   hwctl log -n 20 --follow   the journal as a table, then each new call
   hwctl pdca status          each feature's PDCA phase, from tasks tagged [Plan] [Do] ...
   hwctl work start parser    open a work unit by hand (work.mode strict blocks edits outside one)
   hwctl sessions             session fingerprints: start, end, Claude Code version, git HEAD, call totals
   hwctl team                 each teammate: active or idle, last event, open task
   hwctl loop start --check 'make test'   keep the session working until the check passes

Exit status: 0 ok, 1 failure, 2 usage error.`

func newApp(s streams) *cli.App {
	app := &cli.App{
		Name:            "hwctl",
		Usage:           "inspect hookwright's project state: PDCA, work units, sessions, journal",
		Description:     description,
		Writer:          s.out,
		ErrWriter:       s.err,
		HideHelpCommand: true,
		ExitErrHandler:  func(*cli.Context, error) {}, // run reports errors, once
		Action:          commandGroup(cli.ShowAppHelp),
		Commands: []*cli.Command{
			pdcaCommand(s),
			workCommand(s),
			sessionsCommand(s),
			logCommand(s),
			dashboardCommand(s),
			loopCommand(s),
			teamCommand(s),
		},
	}
	app.OnUsageError = usageErrorLine
	setUsageErrors(app.Commands)
	return app
}

// commandGroup returns the action of the app and of every command that
// only groups subcommands: show prints its help when no argument is given;
// an argument is an unknown command, a usage error (urfave/cli would print
// "No help topic" and exit 3).
func commandGroup(show cli.ActionFunc) cli.ActionFunc {
	return func(c *cli.Context) error {
		if c.Args().Present() {
			return usageError("unknown command %q; run %s --help", c.Args().First(), helpName(c))
		}
		return show(c)
	}
}

// setUsageErrors makes every command report a bad flag as one line, and
// gives every command group the commandGroup action.
func setUsageErrors(cmds []*cli.Command) {
	for _, cmd := range cmds {
		cmd.OnUsageError = usageErrorLine
		if len(cmd.Subcommands) > 0 {
			cmd.Action = commandGroup(cli.ShowSubcommandHelp)
			setUsageErrors(cmd.Subcommands)
		}
	}
}

// usageErrorLine turns a flag parsing error into a one-line usage error
// (exit 2) instead of urfave/cli's "Incorrect Usage" and a help page.
func usageErrorLine(c *cli.Context, err error, _ bool) error {
	return usageError("%v; run %s --help", err, helpName(c))
}

// helpName is the command line that names c, e.g. "hwctl work start".
func helpName(c *cli.Context) string {
	if c.Command != nil && c.Command.HelpName != "" {
		return c.Command.HelpName
	}
	return c.App.Name
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
