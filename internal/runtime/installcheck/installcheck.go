// Package installcheck tells, at the start of a session, whether an
// installed plugin folder still gives every Claude Code release at least
// the hooks its floor manifest gives, and says how to put it right when it
// does not.
//
// The plugin is written so that every release on the machine reads the
// same files right at once (manifests.BuildInstall): hooks/hooks.json
// carries only what the plugin floor (2.0.12) accepts, and later events
// live in hooks/<edge>.json files that plugin.json names, which an older
// release refuses alone. Nothing a session runs rewrites them. What can
// still go wrong is a file changed by hand, by another tool, or by an
// older hookwright that rewrote hooks/hooks.json for one release (the
// wave-3 "native switch"): up to 2.1.252 a release refuses the whole
// hooks/hooks.json over one event or key it does not know, and then no
// hook of the plugin runs there, the guard included, and nothing says so.
//
// [Check] reads hooks/hooks.json (bounded, a regular file only, confined
// to the plugin folder) and checks its events, and any "args", against the
// release table (package hooks, generated from compat's matrix) at the
// plugin floor ([AtFloor]); and that every file plugin.json names exists. It never writes. The runtime runs it on
// SessionStart, so the next session of any release that can run reports
// it, in one line with the one command that fixes it.
package installcheck

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/jsonscan"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
)

// Floor is the oldest release that loads a plugin's hooks files.
var Floor = hooks.Release{2, 0, 12}

// maxFile caps what Check reads of one file: hooks files and plugin.json
// are a few kilobytes.
const maxFile = 1 << 20

// Problem is what Check found wrong, with the fix.
type Problem struct {
	// What says what is wrong and what it costs, in one sentence.
	What string
	// Fix is the one command that puts it right.
	Fix string
}

// Message is the problem as the runtime's systemMessage shows it.
func (p Problem) Message(plugin string) string {
	return fmt.Sprintf("%s: %s; fix: %s", plugin, p.What, p.Fix)
}

// Check inspects the plugin folder root. ok is true when there is nothing
// to report (including when root is empty: not run as a plugin hook).
func Check(root string) (Problem, bool) {
	if root == "" {
		return Problem{}, true
	}
	data, err := safepath.ReadFile(safepath.Path{Root: root, Rel: filepath.Join("hooks", "hooks.json")}, maxFile)
	if err != nil {
		return Problem{What: "hooks/hooks.json cannot be read (" + shortErr(err) + "), so no release registers the plugin's hooks", Fix: fix(root)}, false
	}
	if r := AtFloor(data, Floor); r != nil {
		what := "hooks/hooks.json is not the file the release shipped: " + r.Error()
		if r.Whole {
			what += ", and then no hook of the plugin runs there, the guard included"
		}
		return Problem{What: what, Fix: fix(root)}, false
	}
	pj, err := safepath.ReadFile(safepath.Path{Root: root, Rel: filepath.Join(".claude-plugin", "plugin.json")}, maxFile)
	if err != nil {
		return Problem{}, true // a plugin without plugin.json loads hooks/hooks.json alone
	}
	// Only plugin.json's "hooks" is read (package jsonscan), and decoded
	// when it is there: a path or a list of them.
	var hooksRaw []byte
	if !jsonscan.Members(pj, func(k, v []byte) bool {
		if string(k) == "hooks" {
			hooksRaw = v
		}
		return true
	}) {
		return Problem{What: ".claude-plugin/plugin.json is not valid JSON, so no release loads the plugin", Fix: fix(root)}, false
	}
	var named []string
	if hooksRaw != nil {
		var h any
		_ = json.Unmarshal(hooksRaw, &h)
		switch h := h.(type) {
		case string:
			named = []string{h}
		case []any:
			for _, x := range h {
				if s, ok := x.(string); ok {
					named = append(named, s)
				}
			}
		}
	}
	for _, rel := range named {
		p, err := safepath.In(root, filepath.FromSlash(strings.TrimPrefix(rel, "./")))
		if err != nil {
			return Problem{What: "plugin.json names " + rel + ", outside the plugin", Fix: fix(root)}, false
		}
		if fi, err := safepath.Stat(p); err != nil || !fi.Mode().IsRegular() {
			return Problem{What: "plugin.json names " + rel + ", which is missing, so no release runs its hooks", Fix: fix(root)}, false
		}
	}
	return Problem{}, true
}

// fix is the one command that restores the folder's files to what was
// installed: a development checkout regenerates them, a git clone (a
// folder marketplace) checks them out again, a copy in Claude Code's
// plugin cache is reinstalled.
func fix(root string) string {
	if why, dev := DevCheckout(root); dev && why != "" {
		return "make plugin-hooks (in " + filepath.Dir(root) + ")"
	}
	if top, ok := gitTop(root); ok {
		rel, err := filepath.Rel(top, root)
		if err != nil || rel == "." {
			rel = "."
		}
		return fmt.Sprintf("git -C %q checkout -- %q", top, filepath.ToSlash(rel))
	}
	parts := strings.Split(filepath.ToSlash(root), "/")
	for i := len(parts) - 4; i >= 0; i-- {
		if parts[i] == "cache" && i > 0 && parts[i-1] == "plugins" && i+2 < len(parts) {
			return fmt.Sprintf("claude plugin uninstall %s@%s && claude plugin install %s@%s", parts[i+2], parts[i+1], parts[i+2], parts[i+1])
		}
	}
	return "reinstall the plugin (claude plugin uninstall, then claude plugin install)"
}

// gitTop returns the work tree that holds root, looking up at most eight
// folders for a .git entry.
func gitTop(root string) (string, bool) {
	dir := root
	for range 8 {
		if _, err := safepath.Stat(safepath.At(filepath.Join(dir, ".git"))); err == nil {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return "", false
}

// module is this repository's go.mod module line.
const module = "module github.com/hookwright/hookwright"

// DevCheckout reports whether root is the plugin folder of a development
// checkout of this repository: it holds plugin_test.go or release.sh,
// which a release never ships, or its parent holds this module's go.mod.
// why says which.
func DevCheckout(root string) (why string, ok bool) {
	for _, f := range []string{"plugin_test.go", "release.sh"} {
		if fi, err := safepath.Stat(safepath.Path{Root: root, Rel: f}); err == nil && fi.Mode().IsRegular() {
			return f + " is a source file", true
		}
	}
	f, _, err := safepath.Open(safepath.At(filepath.Join(filepath.Dir(root), "go.mod")))
	if err != nil {
		return "", false
	}
	defer f.Close()
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	for _, line := range strings.Split(string(head[:n]), "\n") {
		if strings.TrimSpace(line) == module {
			return "../go.mod is this module's", true
		}
	}
	return "", false
}

func shortErr(err error) string {
	s := err.Error()
	if len(s) > 120 {
		s = s[:120] + "…"
	}
	return s
}
