// Package cli is the command-line plumbing hookgen and hwctl share: one
// exit-code scheme, one usage-error type, a context that Ctrl-C cancels,
// --version, one-line errors, and global flags that work before or after
// the subcommand. It wraps urfave/cli; each program keeps its commands in
// one list and hands its app to [Setup] and [Run].
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	ucli "github.com/urfave/cli/v2"

	"github.com/hookwright/hookwright/internal/buildinfo"
	"github.com/hookwright/hookwright/internal/termsafe"
)

// The exit codes of every hookwright tool.
const (
	// ExitOK: the command did what was asked.
	ExitOK = 0
	// ExitNo: the command ran and its answer is no (validate found
	// violations, doctor found problems, compat cases failed).
	ExitNo = 1
	// ExitUsage: a bad flag, argument or value (a folder or program named
	// by a flag that does not exist included), or no command where one is
	// needed; nothing was done.
	ExitUsage = 2
	// ExitFailure: the command could not do its work (unreadable input,
	// a write error, a broken database).
	ExitFailure = 3
	// ExitInterrupted: stopped by Ctrl-C or SIGTERM (128 + SIGINT).
	ExitInterrupted = 130
)

// ExitCodesHelp documents the exit codes in every tool's --help.
const ExitCodesHelp = `EXIT CODES
   0    ok
   1    the answer is no (violations, problems, failed cases)
   2    usage error: a bad flag, argument or value, a folder that does not
        exist, no command; nothing was done
   3    failure: unreadable input, a write error, no journal to read
   130  interrupted (Ctrl-C)
   Errors are one line on stderr, starting with the tool's name.`

// UsageError is a bad flag, argument or value: exit 2. Help names the
// command whose --help to read ("hwctl work start"); Setup fills it in.
type UsageError struct {
	Err  error
	Help string
}

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// ExitCode is ExitUsage.
func (e *UsageError) ExitCode() int { return ExitUsage }

// Usagef returns a UsageError; %w wraps as in fmt.Errorf.
func Usagef(format string, args ...any) error {
	return &UsageError{Err: fmt.Errorf(format, args...)}
}

// ExitError is an error with its exit code. A Quiet one is not printed:
// the command already said what went wrong.
type ExitError struct {
	Code  int
	Err   error
	Quiet bool
}

func (e *ExitError) Error() string { return e.Err.Error() }
func (e *ExitError) Unwrap() error { return e.Err }

// ExitCode is e.Code.
func (e *ExitError) ExitCode() int { return e.Code }

// Exit returns err with an exit code.
func Exit(code int, err error) error { return &ExitError{Code: code, Err: err} }

// Code is the exit code for err: 0 for nil, 130 when the context was
// cancelled by a signal, the code of an error with an ExitCode method
// (UsageError, ExitError, urfave/cli's exit errors), else ExitFailure.
func Code(err error) int {
	if err == nil {
		return ExitOK
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, errInterrupted) {
		return ExitInterrupted
	}
	var ec interface{ ExitCode() int }
	if errors.As(err, &ec) {
		return ec.ExitCode()
	}
	return ExitFailure
}

var errInterrupted = errors.New("interrupted")

// Context returns a context that SIGINT (Ctrl-C) and SIGTERM cancel, so
// that a command stops its work and the processes it started. stop
// releases the signals.
func Context() (ctx context.Context, stop context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// Version is the version to print, by package buildinfo's rule: the
// module version of a go install, else v as the build stamped it (-X
// main.version=...), else "devel <commit>".
func Version(v string) string { return buildinfo.Version(v) }

// Setup finishes an app: --version, one-line usage errors on every
// command, command groups that reject an unknown subcommand, no help
// command, and globals added to every command so that they work before
// or after the subcommand (read them with [String], [Bool] ...).
func Setup(app *ucli.App, version string, globals ...ucli.Flag) {
	app.Version = Version(version)
	app.HideHelpCommand = true
	app.EnableBashCompletion = true                    // completion bash|zsh (CompletionCommand)
	app.ExitErrHandler = func(*ucli.Context, error) {} // Run reports errors, once
	app.OnUsageError = onUsageError
	app.Flags = append(app.Flags, globals...)
	if app.Action == nil {
		app.Action = group(ucli.ShowAppHelp)
	}
	app.Action = named(app.Action)
	setup(app.Commands, globals)
}

// named fills in the Help of a usage error an action returns.
func named(action ucli.ActionFunc) ucli.ActionFunc {
	return func(c *ucli.Context) error {
		err := action(c)
		var ue *UsageError
		if errors.As(err, &ue) && ue.Help == "" {
			ue.Help = HelpName(c)
		}
		return err
	}
}

func setup(cmds []*ucli.Command, globals []ucli.Flag) {
	for _, c := range cmds {
		c.OnUsageError = onUsageError
		for _, g := range globals {
			if !hasFlag(c.Flags, g.Names()[0]) {
				c.Flags = append(c.Flags, g)
			}
		}
		if len(c.Subcommands) > 0 {
			if c.Action == nil {
				c.Action = group(ucli.ShowSubcommandHelp)
			}
			setup(c.Subcommands, globals)
		}
		if c.Action != nil {
			c.Action = named(c.Action)
		}
	}
}

func hasFlag(flags []ucli.Flag, name string) bool {
	for _, f := range flags {
		for _, n := range f.Names() {
			if n == name {
				return true
			}
		}
	}
	return false
}

// group is the action of a command that only groups subcommands: a
// usage error for an unknown subcommand (urfave/cli would say "No help
// topic" and exit 3), and for none at all the help on stderr with exit 2,
// as a missing command is a usage error everywhere (--help prints it on
// stdout with exit 0).
func group(show ucli.ActionFunc) ucli.ActionFunc {
	return func(c *ucli.Context) error {
		if c.Args().Present() {
			return Usagef("unknown command %q", c.Args().First())
		}
		out := c.App.Writer
		c.App.Writer = c.App.ErrWriter
		err := show(c)
		c.App.Writer = out
		if err != nil {
			return err
		}
		return &ExitError{Code: ExitUsage, Err: errors.New("no command given"), Quiet: true}
	}
}

// NoArgs wraps the action of a command that takes no arguments: any
// argument is a usage error.
func NoArgs(action ucli.ActionFunc) ucli.ActionFunc {
	return func(c *ucli.Context) error {
		if c.NArg() > 0 {
			return Usagef("unexpected argument %q", c.Args().First())
		}
		return action(c)
	}
}

func onUsageError(c *ucli.Context, err error, _ bool) error {
	return &UsageError{Err: err, Help: HelpName(c)}
}

// HelpName is the command line that names c, e.g. "hwctl work start".
func HelpName(c *ucli.Context) string {
	if c.Command != nil && c.Command.HelpName != "" {
		return c.Command.HelpName
	}
	return c.App.Name
}

// localFlag reports whether x itself defines name.
func localFlag(x *ucli.Context, name string) bool {
	var flags []ucli.Flag
	if x.Command != nil && x.Command.Name != "" {
		flags = x.Command.Flags
	} else if x.App != nil {
		flags = x.App.Flags
	}
	return hasFlag(flags, name)
}

// String is the global string flag name as set nearest to the command,
// else its default.
func String(c *ucli.Context, name string) string {
	for _, x := range c.Lineage() {
		if localFlag(x, name) && x.IsSet(name) {
			return x.String(name)
		}
	}
	return c.String(name)
}

// Bool is the global bool flag name as set nearest to the command.
func Bool(c *ucli.Context, name string) bool {
	for _, x := range c.Lineage() {
		if localFlag(x, name) && x.IsSet(name) {
			return x.Bool(name)
		}
	}
	return c.Bool(name)
}

// Run runs app with args under ctx and turns the outcome into an exit
// code, writing an error as one line "name: message" on stderr (a usage
// error also says where help is). A cancelled context is exit 130, with
// nothing written: the user pressed Ctrl-C.
func Run(ctx context.Context, app *ucli.App, args []string, stderr io.Writer) int {
	err := app.RunContext(ctx, args)
	if ctx.Err() != nil {
		// Interrupted: whatever the command made of its cancelled
		// work (failed cases, a partial answer) is not its answer.
		err = errInterrupted
	}
	if err == nil {
		return ExitOK
	}
	code := Code(err)
	var ee *ExitError
	if errors.As(err, &ee) && ee.Quiet {
		return code
	}
	if code == ExitInterrupted {
		return code // the user asked for it; nothing to report
	}
	msg := strings.ReplaceAll(strings.TrimSpace(err.Error()), "\n", " ")
	var ue *UsageError
	if code == ExitUsage && !strings.Contains(msg, "--help") {
		help := app.Name
		if errors.As(err, &ue) && ue.Help != "" {
			help = ue.Help
		}
		msg += "; run " + help + " --help"
	}
	fmt.Fprintf(stderr, "%s: %s\n", app.Name, termsafe.Line(msg))
	return code
}
