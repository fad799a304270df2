package main

import (
	"errors"
	"fmt"

	"github.com/hookwright/hookwright/hooks"

	"github.com/hookwright/hookwright/internal/doctor"
	"github.com/hookwright/hookwright/internal/installview"
)

// installLine is one release's line of explain --install, for --json.
type installLine struct {
	Release    string              `json:"release"`
	Loads      []string            `json:"loads"`
	Skips      map[string]string   `json:"skips,omitempty"`
	Hooks      int                 `json:"hooks"`
	Routes     []installview.Route `json:"routes"`
	BelowFloor string              `json:"belowFloor,omitempty"`
}

// explainInstall prints, for every Claude Code release found on this
// machine (the versions the native installer keeps, the releases IDE
// extensions bundle) and every --release, what that release makes of the
// plugin folder: the hooks files it loads and skips, how many hooks it
// registers, and how each of the plugin's events reaches them.
func explainInstall(s streams, pluginDir string, extra []string, asJSON bool) error {
	home := s.Getenv("HOME")
	if pluginDir == "" {
		pluginDir, _ = doctor.PluginRoot(home, hooks.Release{})
		if pluginDir == "" {
			return errors.New("no installed hookwright plugin found under ~/.claude/plugins; name one with --plugin-dir")
		}
	}
	releases := doctor.MachineReleases(home)
	for _, r := range extra {
		v, err := hooks.ParseRelease(r)
		if err != nil {
			return usageError("--release %q is not a release like 2.1.33", r)
		}
		releases = append(releases, v)
	}
	if len(releases) == 0 {
		return fmt.Errorf("no Claude Code release found on this machine (~/.local/share/claude/versions, IDE extensions); name some with --release")
	}
	p := installview.Read(pluginDir)
	var out []installLine
	for _, v := range releases {
		view := installview.Look(p, v)
		if asJSON {
			out = append(out, installLine{Release: v.String(), Loads: view.Loaded, Skips: view.Refused, Hooks: view.Hooks, Routes: view.Routes, BelowFloor: view.BelowFloor})
			continue
		}
		mark := "  "
		if view.BelowFloor != "" {
			mark = "! "
		}
		fmt.Fprintf(s.Out, "%s%s\n", mark, view.Line())
		if view.BelowFloor != "" {
			fmt.Fprintf(s.Out, "  fewer hooks than hooks/hooks.json gives every release: %s (hookgen doctor says how to fix it)\n", view.BelowFloor)
		}
	}
	if asJSON {
		return s.printJSON(out)
	}
	fmt.Fprintf(s.Out, "plugin: %s\n", pluginDir)
	return nil
}
