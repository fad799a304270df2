package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookwright/hookwright/internal/settings"
	"github.com/urfave/cli/v2"
)

// installOptions are the flags of hookgen install.
type installOptions struct {
	env
	scope, project, bin, ccVersion, spec string
	dryRun                               bool
	// statusline installs the status line as the statusLine command: the
	// hookwright binary's, or hwctl's when hwctl names that binary.
	statusline bool
	hwctl      string
}

func installCommand(e env) *cli.Command {
	o := &installOptions{env: e}
	return &cli.Command{
		Name:      "install",
		Usage:     "merge the hooks into .claude/settings.json (project) or ~/.claude/settings.json (user), for use without the plugin",
		UsageText: "hookgen install --settings project|user [--project DIR] [--bin PATH] [--cc-version V] [--spec FILE] [--statusline [--hwctl PATH]] [--dry-run]",
		Description: `Other keys and their order are kept, other hooks too; running it twice changes
nothing. The old file is copied to settings.json.bak-<timestamp> and the new
one written atomically. Without --cc-version the installed Claude Code is
detected (else the plugin floor).

   hookgen install --settings project --dry-run      show the diff, write nothing
   hookgen install --settings user --bin ~/go/bin/hookwright --cc-version 2.1.33
   hookgen install --settings user --statusline      also show hwctl statusline in Claude Code's status bar`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "settings", Usage: "`project` or user (required)", Destination: &o.scope},
			&cli.StringFlag{Name: "project", Usage: "project `DIR` for --settings project (default: the current folder)", Destination: &o.project},
			&cli.StringFlag{Name: "bin", Usage: "hookwright binary `PATH` the hooks run (default: next to hookgen, else on PATH)", Destination: &o.bin},
			&cli.StringFlag{Name: "cc-version", Usage: "Claude Code release to write for (default: detected)", Destination: &o.ccVersion},
			&cli.StringFlag{Name: "spec", Usage: "handler spec `FILE` (default: hookwright's own)", Destination: &o.spec},
			&cli.BoolFlag{Name: "dry-run", Usage: "print the diff, write nothing", Destination: &o.dryRun},
			&cli.BoolFlag{Name: "statusline", Usage: "also set statusLine to the hookwright binary's statusline (the line hwctl statusline prints; replaces another statusLine, which the backup keeps)", Destination: &o.statusline},
			&cli.StringFlag{Name: "hwctl", Usage: "with --statusline, run hwctl statusline from this binary `PATH` instead", Destination: &o.hwctl},
		},
		Action: noArgs(func(c *cli.Context) error { return runInstall(c.Context, o) }),
	}
}

// runInstall merges the hooks into the chosen settings file.
func runInstall(ctx context.Context, o *installOptions) error {
	var path string
	switch o.scope {
	case "project":
		dir := o.project
		if dir == "" {
			dir = "."
		}
		abs, err := filepath.Abs(dir)
		if err != nil {
			return err
		}
		// A mistyped --project is refused, not created: the settings go
		// into a project that exists.
		if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
			return usageErr("--project %s: no such folder (it is not created; give the project's folder)", dir)
		}
		path = filepath.Join(abs, ".claude", "settings.json")
	case "user":
		path = filepath.Join(o.Home, ".claude", "settings.json")
	case "":
		return usageErr("install needs --settings project or --settings user")
	default:
		return usageErr("--settings: want project or user, not %q", o.scope)
	}
	bin, err := findBin(o.env, o.bin)
	if err != nil {
		return err
	}
	g := genOptions{env: o.env, ccVersion: o.ccVersion, detect: o.ccVersion == ""}
	v, err := g.release(ctx)
	if err != nil {
		return err
	}
	spec, err := loadSpec(o.spec, o.In)
	if err != nil {
		return err
	}
	var statusLine string
	if o.statusline {
		// The runtime binary prints the same line as hwctl statusline at a
		// fraction of hwctl's start-up cost; --hwctl asks for hwctl's.
		hw, sub := bin, "statusline"
		if o.hwctl != "" {
			if hw, err = findTool(o.env, o.hwctl, "hwctl"); err != nil {
				return err
			}
		}
		if strings.ContainsAny(hw, "\"`$\\") {
			return fmt.Errorf("hwctl binary %q: the path may not contain \", `, $ or \\ (it is quoted for sh)", hw)
		}
		statusLine = `"` + hw + `" ` + sub
	}
	res, err := settings.Install(settings.Options{Path: path, Bin: bin, Version: v, Spec: spec, DryRun: o.dryRun, StatusLine: statusLine})
	if err != nil {
		return err
	}
	if res.ReplacedStatusLine != "" && !o.dryRun {
		fmt.Fprintf(o.Out, "replaced the statusLine command %q\n", res.ReplacedStatusLine)
	}
	switch {
	case !res.Changed:
		fmt.Fprintf(o.Out, "%s already has these hooks; nothing to do\n", path)
	case o.dryRun:
		fmt.Fprint(o.Out, res.Diff)
	default:
		if res.Backup != "" {
			fmt.Fprintf(o.Out, "backed up %s to %s\n", path, res.Backup)
		}
		fmt.Fprintf(o.Out, "wrote hookwright hooks for Claude Code %s running %s into %s\n", v, bin, path)
	}
	return nil
}

// findBin resolves --bin, or finds hookwright next to hookgen, else in the
// plugin's bin/ that launched it, else on PATH.
func findBin(e env, flag string) (string, error) { return findTool(e, flag, "hookwright") }

// findTool resolves a binary's flag, or finds name next to hookgen, else
// in the plugin's bin/ that launched it, else on PATH.
func findTool(e env, flag, name string) (string, error) {
	flagName := "--bin"
	if name != "hookwright" {
		flagName = "--" + name
	}
	if flag != "" {
		abs, err := filepath.Abs(flag)
		if err != nil {
			return "", err
		}
		if fi, err := os.Stat(abs); err != nil || fi.IsDir() {
			return "", usageErr("%s %s: no such %s binary", flagName, flag, name)
		}
		return abs, nil
	}
	// Next to hookgen, else next to the launcher that ran it: a release's
	// plugin/bin/hookgen runs the verified binary from the user's cache,
	// and says where the plugin's bin/ is in HOOKWRIGHT_PLUGIN_BIN.
	var dirs []string
	if self, err := os.Executable(); err == nil {
		dirs = append(dirs, filepath.Dir(self))
	}
	if d := os.Getenv("HOOKWRIGHT_PLUGIN_BIN"); filepath.IsAbs(d) {
		dirs = append(dirs, d)
	}
	for _, dir := range dirs {
		for _, n := range []string{name, name + ".exe"} {
			p := filepath.Join(dir, n)
			if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
				return p, nil
			}
		}
	}
	if p, err := e.LookPath(name); err == nil {
		return filepath.Abs(p)
	}
	return "", fmt.Errorf("no %s binary next to hookgen or on PATH; pass %s PATH (make build puts one in bin/)", name, flagName)
}
