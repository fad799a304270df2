package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	hwcli "github.com/hookwright/hookwright/internal/cli"
	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/termsafe"
)

// version is stamped by the build (-X main.version=...).
var version = "dev"

// streams are where a command reads and writes, and its environment: the
// tools' shared hwcli.Streams, with hwctl's own helpers as methods. Out and
// Err escape control characters (termsafe): the journal's text comes from
// the model and the project. raw is stdout itself, for the dashboard's own
// screen codes.
type streams struct {
	hwcli.Streams
	raw io.Writer
}

// run is the whole program: it builds the app, runs it and turns an error
// into the exit code (see hwcli.ExitCodesHelp).
func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	out, errw := termsafe.NewWriter(stdout), termsafe.NewWriter(stderr)
	return hwcli.Run(ctx, newApp(streams{hwcli.Streams{In: os.Stdin, Out: out, Err: errw, Getenv: getenv}, stdout}), args, errw)
}

// description is the app's --help text below the command list: what hwctl
// is for, where it looks, examples and the exit codes. It is hwctl's one
// usage text; main's doc comment points here.
const description = `hwctl reads the state hookwright's hooks leave in a project; it never runs
in the hook path. The project is --dir (before or after the command), else
$CLAUDE_PROJECT_DIR, else the current folder.

The journal (.hookwright/journal/*.jsonl) is the source of truth. hwctl keeps
a SQLite copy of it in .hookwright/hookwright.db for queries and the web
dashboard, adding what is new before each query; "hwctl ingest --rebuild"
deletes the database and rebuilds it from the journal.

Examples:
   hwctl serve                                 web dashboard on 127.0.0.1: feed, sessions, PDCA, work, team
   hwctl events --decision block --since 24h   every block of the last day
   hwctl events --session S --follow           one session's calls, then each new one
   hwctl sessions --json                       fingerprints: start, end, Claude Code version, git HEAD, call totals
   hwctl ingest --rebuild                      rebuild the store from the journal
   hwctl dashboard                             live terminal view (plain text when piped)
   hwctl log -n 20 --follow                    the journal itself as a table, then each new call
   hwctl pdca status                           each feature's PDCA phase, from tasks tagged [Plan] [Do] ...
   hwctl work start parser                     open a work unit by hand (work.mode strict blocks edits outside one)
   hwctl team                                  each teammate: active or idle, last event, open task
   hwctl loop start --check 'make test'        keep the session working until the check passes
   hwctl export otlp --follow                  ship the journal to an OpenTelemetry Collector as OTLP logs
   hwctl explain -- 'git push -f origin main'  how the guard reads a command, and which rule decides
   hwctl guard packs                           the guard's rule packs, their rules and severities

` + hwcli.ExitCodesHelp

// commands is every hwctl command, in the order --help lists them. Add a
// command here, in its own file.
func commands(s streams) []*cli.Command {
	return []*cli.Command{
		serveCommand(s),
		eventsCommand(s),
		sessionsCommand(s),
		ingestCommand(s),
		dashboardCommand(s),
		logCommand(s),
		pdcaCommand(s),
		workCommand(s),
		teamCommand(s),
		loopCommand(s),
		exportCommand(s),
		explainCommand(s),
		statuslineCommand(s),
		guardCommand(s),
	}
}

func newApp(s streams) *cli.App {
	app := &cli.App{
		Name:        "hwctl",
		Usage:       "inspect hookwright's project state: journal, sessions, PDCA, work units, team, guard decisions",
		Description: description,
		Writer:      s.Out,
		ErrWriter:   s.Err,
		Commands:    commands(s),
	}
	hwcli.Setup(app, version, dirFlag)
	return app
}

// dirFlag is the global --dir flag.
var dirFlag = &cli.StringFlag{Name: "dir", Usage: "project `FOLDER` (default $CLAUDE_PROJECT_DIR, else .)"}

// jsonFlag asks for JSON output.
var jsonFlag = &cli.BoolFlag{Name: "json", Usage: "print JSON"}

// projectDir is --dir, else $CLAUDE_PROJECT_DIR, else ".".
func (s streams) projectDir(c *cli.Context) string {
	if d := hwcli.String(c, "dir"); d != "" {
		return d
	}
	if d := s.Getenv("CLAUDE_PROJECT_DIR"); d != "" {
		return d
	}
	return nearestProject(".")
}

// nearestProject is the nearest folder from start upwards that holds a
// .hookwright folder, as git finds its repository, so that a command
// run in a subfolder (the model's Bash in src/) reaches the project's
// state; start itself when none does.
func nearestProject(start string) string {
	abs, err := filepath.Abs(start)
	if err != nil {
		return start
	}
	for d := abs; ; {
		if fi, err := os.Stat(filepath.Join(d, config.Dir)); err == nil && fi.IsDir() {
			if d == abs {
				return start
			}
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			return start
		}
		d = up
	}
}

// project is [streams.projectDir] when it names a folder; anything else (a
// typo, a file) is a one-line usage error naming it, and nothing is created.
func (s streams) project(c *cli.Context) (string, error) {
	dir := s.projectDir(c)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return "", usageError("no project folder at %s (--dir, else $CLAUDE_PROJECT_DIR, else .)", dir)
	}
	return dir, nil
}

func (s streams) printJSON(v any) error {
	enc := json.NewEncoder(s.Out)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func usageError(format string, args ...any) error { return hwcli.Usagef(format, args...) }
