package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hookwright/hookwright/internal/settings"
	"github.com/urfave/cli/v2"
)

// installOptions are the flags of hookgen install.
type installOptions struct {
	env
	scope, project, bin, ccVersion, spec string
	dryRun                               bool
}

func installCommand(e env) *cli.Command {
	o := &installOptions{env: e}
	return &cli.Command{
		Name:      "install",
		Usage:     "merge the hooks into .claude/settings.json (project) or ~/.claude/settings.json (user), for use without the plugin",
		UsageText: "hookgen install --settings project|user [--project DIR] [--bin PATH] [--cc-version V] [--spec FILE] [--dry-run]",
		Description: `Other keys and their order are kept, other hooks too; running it twice changes
nothing. The old file is copied to settings.json.bak-<timestamp> and the new
one written atomically. Without --cc-version the installed Claude Code is
detected (else the plugin floor).

   hookgen install --settings project --dry-run      show the diff, write nothing
   hookgen install --settings user --bin ~/go/bin/hookwright --cc-version 2.1.33`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "settings", Usage: "`project` or user (required)", Destination: &o.scope},
			&cli.StringFlag{Name: "project", Usage: "project `DIR` for --settings project (default: the current folder)", Destination: &o.project},
			&cli.StringFlag{Name: "bin", Usage: "hookwright binary `PATH` the hooks run (default: next to hookgen, else on PATH)", Destination: &o.bin},
			&cli.StringFlag{Name: "cc-version", Usage: "Claude Code release to write for (default: detected)", Destination: &o.ccVersion},
			&cli.StringFlag{Name: "spec", Usage: "handler spec `FILE` (default: hookwright's own)", Destination: &o.spec},
			&cli.BoolFlag{Name: "dry-run", Usage: "print the diff, write nothing", Destination: &o.dryRun},
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
	res, err := settings.Install(settings.Options{Path: path, Bin: bin, Version: v, Spec: spec, DryRun: o.dryRun})
	if err != nil {
		return err
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
func findBin(e env, flag string) (string, error) {
	if flag != "" {
		abs, err := filepath.Abs(flag)
		if err != nil {
			return "", err
		}
		if _, err := os.Stat(abs); err != nil {
			return "", fmt.Errorf("--bin %s: %w", flag, err)
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
		for _, name := range []string{"hookwright", "hookwright.exe"} {
			p := filepath.Join(dir, name)
			if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
				return p, nil
			}
		}
	}
	if p, err := e.LookPath("hookwright"); err == nil {
		return filepath.Abs(p)
	}
	return "", fmt.Errorf("no hookwright binary next to hookgen or on PATH; pass --bin PATH (make build puts one in bin/)")
}
