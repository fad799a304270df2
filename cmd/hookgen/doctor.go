package main

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/hookwright/hookwright/internal/doctor"
	"github.com/urfave/cli/v2"

	hwcli "github.com/hookwright/hookwright/internal/cli"
)

// errDoctor is returned when doctor found problems; each is on stdout
// with its fix.
var errDoctor = hwcli.Exit(exitInvalid, errors.New("doctor found problems (listed above, each with a fix)"))

func doctorCommand(e env) *cli.Command {
	var pluginDir, project, ccVersion string
	var releases cli.StringSlice
	return &cli.Command{
		Name:      "doctor",
		Usage:     "check the installation: what each Claude Code release on this machine runs of it, the plugin's files against its SHA256SUMS, config and state; exit 1 with a fix per problem",
		UsageText: "hookgen doctor [--plugin-dir DIR] [--project DIR] [--cc-version V] [--release V ...]",
		Description: `Without --plugin-dir, the hookwright plugin the release runs is inspected:
the copy in ~/.claude/plugins/cache, or the folder of a folder marketplace,
which 2.0.30 and 2.1.101+ run in place. Every binary and launcher the plugin
ships is checked against the SHA-256 in its bin/SHA256SUMS: a changed byte, a
missing file, a link or anything not a regular file is a BAD line naming the
file and both sums; in a release the hooks files and plugin.json are pinned
there too, and in a development checkout they are compared with what hookgen
writes from the spec.

One plugin folder is read by every Claude Code release on the machine (the
IDE's and the terminal's, a downgrade, the shared plugin cache). doctor gives
one "release" line per release it finds (the detected one, the versions the
native installer keeps, the releases IDE extensions bundle, and every
--release): which hooks files that release loads, how many hooks it runs, and
how each event reaches them (native, or through a fallback on releases that
lack it). A release that would run fewer hooks than hooks/hooks.json gives
every release is a problem, with the command that fixes it.

Any plugin built the way hookwright is (hookgen new go writes one) is
inspected with --plugin-dir by the name in its plugin.json: its launcher
bin/<name>, its binaries, "<name> version" against plugin.json's version.
The plugin/ folder of its source (beside go.mod, after make plugin) needs no
SHA256SUMS; a release (make release) pins every file there.

Prints one line per check, each problem with its fix; exits 1 when there is
a problem.

   hookgen doctor
   hookgen doctor --plugin-dir plugin --cc-version 2.1.32
   hookgen doctor --release 2.0.30 --release 2.1.330
   hookgen doctor --plugin-dir dist/release/v0.1.0/plugin --cc-version 2.1.33   a plugin of your own`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "plugin-dir", Usage: "plugin `DIR` to inspect (default: the installed hookwright plugin)", Destination: &pluginDir},
			&cli.StringFlag{Name: "project", Usage: "project `DIR` (default: the current folder)", Destination: &project},
			&cli.StringFlag{Name: "cc-version", Usage: "Claude Code release (default: detected)", Destination: &ccVersion},
			&cli.StringSliceFlag{Name: "release", Usage: "also say what release `V` runs of the plugin (repeatable)", Destination: &releases},
		},
		Action: noArgs(func(c *cli.Context) error {
			o := doctor.Options{PluginRoot: pluginDir, Project: project}
			if o.Project == "" {
				o.Project, _ = os.Getwd()
			}
			if ccVersion != "" {
				v, err := parseVersion(ccVersion)
				if err != nil {
					return err
				}
				o.Version, o.VersionHow = v, "--cc-version"
			} else if v, how, err := detect(c.Context, e); err == nil {
				o.Version, o.VersionHow = v, how
			} else {
				o.VersionHow = err.Error()
			}
			if o.PluginRoot == "" {
				o.PluginRoot, o.PluginHow = doctor.PluginRoot(e.Home, o.Version)
			}
			o.Releases = doctor.MachineReleases(e.Home)
			for _, s := range releases.Value() {
				v, err := parseVersion(s)
				if err != nil {
					return err
				}
				o.Releases = append(o.Releases, v)
			}
			o.Settings = []string{filepath.Join(e.Home, ".claude", "settings.json"), filepath.Join(o.Project, ".claude", "settings.json")}
			r := doctor.Run(o)
			r.Write(e.Out)
			if !r.OK() {
				return errDoctor
			}
			return nil
		}),
	}
}
