package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	hwcli "github.com/hookwright/hookwright/internal/cli"
	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/runtime/journal"
	"github.com/hookwright/hookwright/internal/runtime/project"
	"github.com/hookwright/hookwright/internal/table"
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
in the hook path.

The project is --dir (before or after the command), else $CLAUDE_PROJECT_DIR,
else ` + project.FindRule + `.
A query creates nothing: where there is no journal it says where it looked
and exits 3.

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
   hwctl workflow list                         which team workflows run here (scratchpad, pdca, ...) and why
   hwctl workflow enable scratchpad            turn one on for this project
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
		workflowCommand(s),
		exportCommand(s),
		explainCommand(s),
		statuslineCommand(s),
		guardCommand(s),
		hwcli.CompletionCommand(),
	}
}

func newApp(s streams) *cli.App {
	app := &cli.App{
		Name:        "hwctl",
		Usage:       "inspect hookwright's project state (journal, sessions, PDCA, work units, team, guard decisions) and turn its workflows on",
		Description: description,
		Writer:      s.Out,
		ErrWriter:   s.Err,
		Commands:    noArgsUnlessSaid(commands(s)),
	}
	hwcli.Setup(app, version, dirFlag)
	return app
}

// noArgsUnlessSaid makes every command that names no arguments in its
// help (ArgsUsage) refuse them (hwcli.NoArgs), so that a stray word is a
// usage error, never ignored.
func noArgsUnlessSaid(cmds []*cli.Command) []*cli.Command {
	for _, c := range cmds {
		noArgsUnlessSaid(c.Subcommands)
		if c.Action != nil && c.ArgsUsage == "" && len(c.Subcommands) == 0 {
			c.Action = hwcli.NoArgs(c.Action)
		}
	}
	return cmds
}

// dirFlag is the global --dir flag.
var dirFlag = &cli.StringFlag{Name: "dir", Usage: "project `FOLDER` (default $CLAUDE_PROJECT_DIR, else the nearest folder upwards with .hookwright/, up to the one with .git)"}

// wideFlag asks a table for every column in full.
var wideFlag = &cli.BoolFlag{Name: "wide", Usage: "print every column in full (a table fits the terminal's width, or $COLUMNS, by default)"}

// render prints t to fit the line (table.Width: --wide, $COLUMNS, the
// terminal), and says on stderr which columns it left out.
func (s streams) render(c *cli.Context, t *table.Table) error {
	width := s.width(c)
	dropped, err := t.Render(s.Out, width)
	if err == nil {
		s.note(dropped, width)
	}
	return err
}

// note says on stderr which columns a table left out, in one line that
// fits width.
func (s streams) note(dropped []string, width int) {
	if note := table.Note(dropped, width-len("hwctl: ")); note != "" {
		fmt.Fprintln(s.Err, "hwctl: "+note)
	}
}

// width is the line width tables get: 0 (no limit) with --wide or when
// stdout is not a terminal and $COLUMNS is not set.
func (s streams) width(c *cli.Context) int {
	return table.Width(s.raw, c.Bool("wide"), s.Getenv)
}

// jsonFlag asks for JSON output.
var jsonFlag = &cli.BoolFlag{Name: "json", Usage: "print JSON"}

// located is the project a command works on and how hwctl found it.
type located struct {
	dir string
	// how: "--dir", "$CLAUDE_PROJECT_DIR", or "" when searched.
	how    string
	search project.Search
}

// locate finds the project: --dir, else $CLAUDE_PROJECT_DIR, else
// [project.Find] from the current folder (the nearest folder upwards that
// holds .hookwright/, no higher than the folder with .git and never into
// another user's folder).
func (s streams) locate(c *cli.Context) located {
	if d := hwcli.String(c, "dir"); d != "" {
		return located{dir: d, how: "--dir"}
	}
	if d := s.Getenv("CLAUDE_PROJECT_DIR"); d != "" {
		return located{dir: d, how: "$CLAUDE_PROJECT_DIR"}
	}
	found := project.Find(".")
	return located{dir: found.Dir, search: found}
}

// projectDir is the project folder [streams.locate] finds.
func (s streams) projectDir(c *cli.Context) string { return s.locate(c).dir }

// project is [streams.projectDir] when it names a folder; anything else (a
// typo, a file) is a one-line usage error naming it, and nothing is created.
func (s streams) project(c *cli.Context) (string, error) {
	dir := s.projectDir(c)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return "", usageError("no project folder at %s (--dir, else $CLAUDE_PROJECT_DIR, else .)", dir)
	}
	return dir, nil
}

// needs returns the project when it holds rel (config.Dir for the state
// files, journal.Dir for the journal and the store); else an error, exit
// 3, that says where hwctl looked. A query creates nothing: where there
// is no journal there is no store to make.
func (s streams) needs(c *cli.Context, rel, what string) (string, error) {
	dir, err := s.project(c)
	if err != nil {
		return "", err
	}
	l := s.locate(c)
	if l.how != "" || l.search.Found {
		if err := project.Require(dir, rel); err == nil {
			return dir, nil
		} else if !errors.Is(err, project.ErrNoState) {
			return "", err
		}
	}
	if l.how != "" {
		return "", fmt.Errorf("no %s in %s: %s is missing (the project named by %s); no hook has run there yet", what, dir, filepath.Join(dir, filepath.FromSlash(rel)), l.how)
	}
	if l.search.Found {
		return "", fmt.Errorf("no %s in %s: %s is missing; no hook has run there yet", what, dir, filepath.Join(dir, filepath.FromSlash(rel)))
	}
	return "", fmt.Errorf("no %s here: looked for %s/ %s; run hwctl inside a project whose hooks have run, or name one with --dir FOLDER", what, config.Dir, l.search.Where())
}

// journalProject is the project when it has a journal (see needs).
func (s streams) journalProject(c *cli.Context) (string, error) {
	return s.needs(c, journal.Dir, "hookwright journal")
}

// stateProject is the project when it has hookwright's folder (see needs).
func (s streams) stateProject(c *cli.Context) (string, error) {
	return s.needs(c, config.Dir, "hookwright project")
}

func (s streams) printJSON(v any) error {
	enc := json.NewEncoder(s.Out)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func usageError(format string, args ...any) error { return hwcli.Usagef(format, args...) }
