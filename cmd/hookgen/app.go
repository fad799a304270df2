package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"

	"github.com/urfave/cli/v2"

	hwcli "github.com/hookwright/hookwright/internal/cli"
	"github.com/hookwright/hookwright/internal/termsafe"
)

// Exit codes: the scheme every hookwright tool shares (hwcli.ExitCodesHelp).
const (
	exitOK      = hwcli.ExitOK
	exitInvalid = hwcli.ExitNo
	exitUsage   = hwcli.ExitUsage
	exitFailure = hwcli.ExitFailure
)

// version is stamped by the build (-X main.version=...).
var version = "dev"

// env is everything a command touches outside its options: streams and the
// machine (for --detect). Tests build it in memory.
type env struct {
	hwcli.Streams
	Home string
	// Exec runs a program and returns its stdout; ctx bounds it.
	Exec     func(ctx context.Context, name string, args ...string) ([]byte, error)
	LookPath func(name string) (string, error)
	// Width is the terminal's width in columns, 0 when stdout is not a
	// terminal; nil in tests.
	Width func() int
}

// defaultWidth is the width tables fit when neither --width, the
// terminal nor COLUMNS says one: what a CI log shows without wrapping.
const defaultWidth = 120

// width returns the columns a table must fit: flag when set, else the
// terminal's, else $COLUMNS, else defaultWidth.
func (e env) width(flag int) int {
	if flag > 0 {
		return flag
	}
	if e.Width != nil {
		if w := e.Width(); w > 0 {
			return w
		}
	}
	if e.Getenv != nil {
		var w int
		if _, err := fmt.Sscan(e.Getenv("COLUMNS"), &w); err == nil && w >= 40 {
			return w
		}
	}
	return defaultWidth
}

// systemEnv is the real machine.
func systemEnv() env {
	home, _ := os.UserHomeDir()
	return env{
		Streams: hwcli.System(), Home: home,
		Exec: func(ctx context.Context, name string, args ...string) ([]byte, error) {
			return exec.CommandContext(ctx, name, args...).Output()
		},
		LookPath: exec.LookPath,
		Width:    terminalWidth,
	}
}

func usageErr(format string, args ...any) error { return hwcli.Usagef(format, args...) }

// errViolations is returned by validate when the file has violations; they
// are already on stdout, so nothing more is printed.
var errViolations = &hwcli.ExitError{Code: exitInvalid, Err: errors.New("the manifest has violations"), Quiet: true}

// run runs hookgen with args; tests call it. main calls runContext with a
// context Ctrl-C cancels.
func run(args []string, e env) int { return runContext(context.Background(), args, e) }

// runContext is the one place where errors become exit codes and stderr
// lines (hwcli.Run). Cancelling ctx stops a running command, compat's
// suite and the processes it started included.
//
// Its stdout and stderr escape control characters (termsafe): what it
// prints quotes the project's files, commands and names.
func runContext(ctx context.Context, args []string, e env) int {
	e.Out, e.Err = termsafe.NewWriter(e.Out), termsafe.NewWriter(e.Err)
	return hwcli.Run(ctx, newApp(e), args, e.Err)
}

// noArgs wraps an action that takes no arguments (hwcli.NoArgs).
func noArgs(action cli.ActionFunc) cli.ActionFunc { return hwcli.NoArgs(action) }

const appDescription = `hookgen writes the plugin hooks.json that a given Claude Code release loads.

Claude Code rejects a whole hooks.json over one event, key or handler type it
does not know, and then no hook of the plugin runs. hookgen starts from a spec
of the plugin's handlers (canonical events) and writes, for the release's
band, native events where they exist and fallbacks where they do not:

   TaskCompleted  (2.1.33+)  else PostToolUse matching TaskUpdate (2.1.16+), else TodoWrite
   TeammateIdle   (2.1.33+)  else SubagentStop + Stop

A fallback command gets " --via <Event>" so one gate serves both paths.

A plugin folder is read by every release on the machine at once (the IDE's
and the terminal's, a downgrade, the shared plugin cache), so a plugin ships
the install for every release that "hookgen plugin" writes, never one
release's hooks.json. One release's file is for a settings file, or to see
what that release gets.

EXAMPLES
   hookgen new go my-plugin                         a new plugin repository (Go; js for JavaScript)
   hookgen plugin --spec plugin.spec.json plugin    a plugin's hooks files for every release at once
   hookgen --cc-version 2.1.32                      the hooks.json of 2.1.32 alone, on stdout
   hookgen --detect                                 for the Claude Code installed here
   hookgen --cc-version 2.1.33 --spec bkit.spec.json   a JS plugin's own spec
   hookgen validate --cc-version 2.0.30 plugin/hooks/hooks.json
   hookgen explain --cc-version 2.1.15
   hookgen matrix

DETECT
   --detect looks, in order, at the native installer's symlink
   ~/.local/bin/claude -> .../versions/<X>, then at the package.json of the
   claude found on PATH (a version file, read at once), then at
   "claude --version" (30 s at most: it can take 16 s on a loaded machine).
   It says on stderr which source answered. When none answers it warns on
   stderr and writes for the plugin floor (2.0.12), which every release with
   plugins loads. A release before 2.0.12 is an error: no
   plugin hooks.json loads there. -o writes atomically (a temporary file, then
   a rename). Without --spec the spec is hookwright's own.

SPEC (JSON)
   {"description": "...", "protoFlag": false, "handlers": [
     {"event": "TaskCompleted", "command": "node \"${CLAUDE_PLUGIN_ROOT}/scripts/done.js\"",
      "timeout": 30, "statusMessage": "checking"}]}
   timeout is whole seconds. matcher only on events that take one. "async": true
   runs a handler in the background (written from 2.1.15, left out before), and
   "asyncRewake": true lets its exit 2 reach the model (from 2.1.64). "exec": true
   writes each command in the exec form ("command" the program, "args" the rest,
   started with no shell) on 2.1.139+ bands, where its words need no shell.
   "direct": true writes each command that calls a launcher in the plugin's
   bin/ as one shell line that runs this machine's binary beside it without a
   second shell (the launcher where it cannot tell the platform).

` + hwcli.ExitCodesHelp

// newApp wires the commands; each has an options struct and a run function.
func newApp(e env) *cli.App {
	g := &genOptions{env: e}
	app := &cli.App{
		Name:        "hookgen",
		Version:     version,
		Usage:       "write, check and explain a Claude Code plugin's hooks.json per release",
		UsageText:   "hookgen --cc-version VERSION [--spec FILE] [-o FILE]\nhookgen --detect [--spec FILE] [-o FILE]\nhookgen validate [--cc-version VERSION ...] [--strict] FILE\nhookgen audit [--cc-version VERSION ...] [--markdown | --json] MARKETPLACE\nhookgen explain --cc-version VERSION [--spec FILE]\nhookgen matrix\nhookgen install --settings project|user [--bin PATH] [--dry-run]\nhookgen doctor [--plugin-dir DIR]\nhookgen compat PLUGIN-DIR [--cc-version X ...] [--spec FILE]\nhookgen new go|js NAME [--dir DIR] [--block COMMAND]\nhookgen plugin [--spec FILE] [--since VERSION] [--check] PLUGIN-DIR\nhookgen event [--] [HOOK ARGS ...] < EVENT\nhookgen reply EVENT [--via FIRED] [--proto VERSION] < RESULT",
		Description: appDescription,
		Reader:      e.In,
		Writer:      e.Out,
		ErrWriter:   e.Err,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "cc-version", Usage: "Claude Code release to write for: 2.1.33, v2.1.33 or \"2.1.33 (Claude Code)\"", Destination: &g.ccVersion},
			&cli.BoolFlag{Name: "detect", Usage: "find the installed Claude Code release instead of --cc-version", Destination: &g.detect},
			&cli.StringFlag{Name: "spec", Usage: "handler spec `FILE`, - for stdin (default: hookwright's own)", Destination: &g.spec},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to `FILE` atomically instead of stdout", Destination: &g.output},
			&cli.BoolFlag{Name: "verbose", Usage: "also print on stderr what was replaced or left out", Destination: &g.verbose},
		},
		Action:   noArgs(func(c *cli.Context) error { return runGenerate(c.Context, g) }),
		Commands: commands(e),
	}
	hwcli.Setup(app, version)
	return app
}

// commands is every hookgen subcommand, in the order --help lists them.
// Add a command here, in its own file.
func commands(e env) []*cli.Command {
	return []*cli.Command{
		newCommand(e),
		pluginCommand(e),
		validateCommand(e),
		auditCommand(e),
		explainCommand(e),
		matrixCommand(e),
		installCommand(e),
		doctorCommand(e),
		compatCommand(e),
		eventCommand(e),
		replyCommand(e),
		hwcli.CompletionCommand(),
	}
}
