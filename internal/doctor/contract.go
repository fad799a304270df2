package doctor

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookwright/hookwright/internal/installview"
	"github.com/hookwright/hookwright/manifests"
)

// contract checks, from outside, what the runtime's hook contract
// (hooks.Contract) requires of this installation: an existing project
// folder, and a plugin whose hooks reach the binary through
// "${CLAUDE_PLUGIN_ROOT}", which Claude Code sets for plugin hooks and the
// runtime requires when it runs from a plugin's bin/.
func contract(o Options) Report {
	var r Report
	add := func(ok bool, fix, format string, args ...any) {
		r = append(r, Finding{Topic: "contract", OK: ok, Detail: fmt.Sprintf(format, args...), Fix: fix})
	}
	switch info, err := os.Stat(o.Project); {
	case o.Project == "":
		add(false, "run from the project folder or set CLAUDE_PROJECT_DIR", "no project folder: every hook call would fail open")
	case err != nil:
		add(false, "run from the project folder or set CLAUDE_PROJECT_DIR to it", "project folder %s: %v: every hook call would fail open", o.Project, err)
	case !info.IsDir():
		add(false, "set CLAUDE_PROJECT_DIR to the project folder", "project folder %s is not a folder", o.Project)
	default:
		add(true, "", "project folder %s exists", o.Project)
	}
	if o.PluginRoot == "" {
		return r
	}
	if _, err := os.Stat(filepath.Join(o.PluginRoot, ".claude-plugin", "plugin.json")); err != nil {
		add(false, "reinstall the plugin", "%s has no .claude-plugin/plugin.json, so it does not run as a plugin", o.PluginRoot)
		return r
	}
	prog := programOf(o.PluginRoot)
	var bad []string
	n := 0
	for _, f := range installview.Read(o.PluginRoot).Files {
		if f.Err != nil {
			continue // the manifest findings say so
		}
		var file struct {
			Hooks map[string][]struct {
				Hooks []struct {
					Command string   `json:"command"`
					Args    []string `json:"args"`
				} `json:"hooks"`
			} `json:"hooks"`
		}
		if json.Unmarshal(f.Data, &file) != nil {
			continue
		}
		for ev, groups := range file.Hooks {
			for _, g := range groups {
				for _, h := range g.Hooks {
					if !strings.Contains(h.Command, prog) {
						continue
					}
					n++
					call, _ := manifests.LauncherCall(h.Command)
					if !reachesPluginRoot(call, h.Args != nil) {
						bad = append(bad, ev)
					}
				}
			}
		}
	}
	if len(bad) > 0 {
		add(false, "regenerate the manifest with hookgen (commands start with the quoted \"${CLAUDE_PLUGIN_ROOT}/bin/"+prog+"\")",
			"%d %s hooks do not start with the quoted \"${CLAUDE_PLUGIN_ROOT}/...\" path (%s)", len(bad), prog, strings.Join(uniq(bad), ", "))
		return r
	}
	add(true, "", "%d %s hooks reach the binary through \"${CLAUDE_PLUGIN_ROOT}\", which Claude Code sets for plugin hooks", n, prog)
	return r
}

// reachesPluginRoot reports whether a hook command starts the binary under
// "${CLAUDE_PLUGIN_ROOT}": quoted in the shell form (a command in the
// direct form is read as the launcher call it stands for), and bare in the
// exec form ("args" present, 2.1.139+), where no shell splits the path and
// Claude Code substitutes the variable in place. exec "${CLAUDE_PLUGIN_ROOT}/..."
// is the same path with the shell's fork saved.
func reachesPluginRoot(command string, exec bool) bool {
	if exec {
		return strings.HasPrefix(command, "${CLAUDE_PLUGIN_ROOT}/")
	}
	return strings.HasPrefix(strings.TrimPrefix(command, "exec "), `"${CLAUDE_PLUGIN_ROOT}/`)
}
