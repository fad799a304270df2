package main

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/hookwright/hookwright/hooks"
	"github.com/urfave/cli/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/internal/atomicfile"
	hwcli "github.com/hookwright/hookwright/internal/cli"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
	"github.com/hookwright/hookwright/manifests"
)

// errStale is returned by plugin --check when a file differs.
var errStale = hwcli.Exit(exitInvalid, errors.New("the plugin's hooks files are not what hookgen writes from the spec (listed above); run hookgen plugin without --check"))

const pluginHelp = `plugin writes the hooks files one plugin folder needs so that every Claude
Code release from the floor reads it right, all at the same time: the IDE's
release and the terminal's, a downgrade, the shared plugin cache. Up to
2.1.252 a release refuses a whole hooks file over one event it does not
know, and then none of its hooks run; so no single hooks.json serves them
all, and rewriting it per release makes the other releases refuse it.

What it writes, from the spec:
   hooks/hooks.json        the events the floor release knows, and the
                           fallbacks for the later ones (TaskCompleted via
                           PostToolUse, TeammateIdle via SubagentStop and
                           Stop), each command with " --via <Event>
                           --with-native"
   hooks/<release>.json    one file per first release of the later events
                           (hooks/2.1.33.json: TeammateIdle, TaskCompleted)
   plugin.json "hooks"     the list of those files: a release older than a
                           file's release refuses that file alone and keeps
                           the plugin's other hooks

A release that fires an event itself also runs its fallbacks, and the
native registration too: --with-native tells the handler so, and it must
do nothing there. hookwright's runtime and the SDK's translation do this
(the release is learned from AI_AGENT or the transcript's "version"); a
script that reads the raw input must check itself (see "Your own plugin"
in the docs). A hooks.json written for one release (hookgen --cc-version)
has no native registration to lean on, so its fallbacks carry no
--with-native and run on every release. Nothing here is ever rewritten by a session: commit these
files, ship them as they are.

--since raises the floor to the oldest release you support. --check writes
nothing and exits 1 when a file differs (for CI). plugin.json must exist;
its other members keep their place.

   hookgen plugin --spec plugin.spec.json .
   hookgen plugin --spec plugin.spec.json --since 2.1.0 plugin
   hookgen plugin --check --spec plugin.spec.json plugin`

func pluginCommand(e env) *cli.Command {
	var spec, since string
	var check bool
	return &cli.Command{
		Name:        "plugin",
		Usage:       "write a plugin's hooks files for every release at once (hooks/hooks.json, hooks/<release>.json, plugin.json's hooks)",
		UsageText:   "hookgen plugin [--spec FILE] [--since VERSION] [--check] PLUGIN-DIR",
		Description: pluginHelp,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "spec", Usage: "handler spec `FILE`, - for stdin (default: hookwright's own)", Destination: &spec},
			&cli.StringFlag{Name: "since", Usage: "the oldest Claude Code `VERSION` the plugin supports (default: the plugin floor, " + compat.PluginFloor + ")", Destination: &since},
			&cli.BoolFlag{Name: "check", Usage: "write nothing; exit 1 when a file differs from what would be written", Destination: &check},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageErr("plugin needs one PLUGIN-DIR (the folder that holds .claude-plugin/plugin.json)")
			}
			var floor hooks.Release
			if since != "" {
				v, err := hooks.ParseRelease(since)
				if err != nil {
					return usageErr("--since: %w", err)
				}
				floor = v
			}
			s, err := loadSpec(spec, e.In)
			if err != nil {
				return err
			}
			return runPlugin(e, c.Args().First(), s, floor, check)
		},
	}
}

// runPlugin writes (or checks) the install of s into the plugin folder dir.
func runPlugin(e env, dir string, s manifests.Spec, floor hooks.Release, check bool) error {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return usageErr("%s is not a folder", dir)
	}
	pjPath := filepath.Join(".claude-plugin", "plugin.json")
	pj, err := safepath.ReadFile(safepath.Path{Root: dir, Rel: pjPath}, 1<<20)
	if err != nil {
		return usageErr("%s has no readable .claude-plugin/plugin.json (%v): a plugin folder needs one", dir, err)
	}
	in, err := manifests.BuildInstall(s, floor)
	if errors.Is(err, manifests.ErrSpec) {
		return usageErr("%w", err)
	}
	if err != nil {
		return err
	}
	want := map[string][]byte{}
	var order []string
	for _, f := range in.Files {
		p := filepath.FromSlash(f.Path)
		want[p], order = f.JSON, append(order, p)
	}
	newPJ, err := manifests.SetPluginHooks(pj, in.PluginHooks())
	if err != nil {
		return usageErr("%s: %w", filepath.Join(dir, pjPath), err)
	}
	want[pjPath], order = newPJ, append(order, pjPath)
	var stale []string
	for _, p := range order {
		old, err := safepath.ReadFile(safepath.Path{Root: dir, Rel: p}, 1<<20)
		if err == nil && bytes.Equal(old, want[p]) {
			continue
		}
		stale = append(stale, p)
		if check {
			fmt.Fprintf(e.Out, "stale %s\n", filepath.ToSlash(p))
			continue
		}
		target, err := safepath.In(dir, p)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(target.String()), 0o755); err != nil {
			return err
		}
		if err := atomicfile.Write(target.String(), want[p]); err != nil {
			return err
		}
		fmt.Fprintf(e.Out, "wrote %s\n", filepath.ToSlash(p))
	}
	if check && len(stale) > 0 {
		return errStale
	}
	var files []string
	for _, f := range in.Files {
		files = append(files, f.Path+" (from "+f.Edge.String()+")")
	}
	fmt.Fprintf(e.Out, "the plugin reads right on every release from %s: %s\n", in.Floor, strings.Join(files, ", "))
	for _, n := range in.Notes {
		fmt.Fprintln(e.Err, "hookgen: "+n)
	}
	return nil
}
