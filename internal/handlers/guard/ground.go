package guard

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"
)

// The guard's own ground is what decides whether the guard runs and what
// it remembers: hookwright's config, journal and state (.hookwright/ in
// any project, the user config folder), the installed plugin (its
// hooks.json and binaries) and Claude Code's settings, where hooks are
// declared. A model that may write, delete, move or chmod any of it can
// switch the guard off, so every tool is judged against one list, built
// here: the file tools (writePath), the shell's writes (write: redirects,
// tee, cp, mv, install, ln, sed -i, dd of=, curl -o, interpreter writes),
// its deletes and moves (destroy: rm, unlink, truncate, shred, mv's
// sources, chmod; deleteTree: rm -r, find -delete, rsync --delete) and the
// deletes in interpreter code. Reading stays allowed: users and hwctl
// read the journal.
//
// What a later change adds to the ground goes into groundRoots (a folder
// or file and all below it) or groundName (a name wherever it is).

// classGround is the path class of the guard's own ground.
const classGround = "the guard's own ground"

// groundRoots returns the absolute, clean folders and files that are the
// guard's ground for this check: the project's .hookwright and Claude
// Code settings, the user config folder, the plugin, and Claude Code's
// user settings.
func groundRoots(getenv func(string) string, home, project string) []string {
	var roots []string
	add := func(p string) {
		if p == "" || !filepath.IsAbs(p) {
			return
		}
		p = filepath.ToSlash(filepath.Clean(p))
		if p != "/" && p != home && !contains(roots, p) {
			roots = append(roots, p)
		}
	}
	if project != "" {
		add(project + "/.hookwright")
		add(project + "/.claude/settings.json")
		add(project + "/.claude/settings.local.json")
	}
	if x := getenv("XDG_CONFIG_HOME"); filepath.IsAbs(x) {
		add(x + "/hookwright")
	}
	if home != "" {
		add(home + "/.config/hookwright")
		add(home + "/.claude/plugins")
		add(home + "/.claude/settings.json")
		add(home + "/.claude/settings.local.json")
		add(home + "/.claude.json")
	}
	// The running plugin and its data folder (Claude Code sets both for
	// a plugin's hooks).
	add(getenv("CLAUDE_PLUGIN_ROOT"))
	add(getenv("CLAUDE_PLUGIN_DATA"))
	// Managed settings: the administrator's hooks.
	add("/etc/claude-code")
	add("/Library/Application Support/ClaudeCode")
	return roots
}

// groundName reports whether p (absolute, clean) is ground by its name
// alone: inside any .hookwright folder, or any .claude folder's
// settings*.json, wherever the project is.
func groundName(p string) bool {
	if strings.Contains(p, "/.hookwright/") || strings.HasSuffix(p, "/.hookwright") {
		return true
	}
	dir, base := path.Split(p)
	return strings.HasSuffix(dir, "/.claude/") && strings.HasPrefix(base, "settings") && strings.HasSuffix(base, ".json")
}

// isGround reports whether p is the guard's ground, or (with above set,
// for a delete, a move or a recursive chmod) a folder that holds some of
// it. A glob in p matches as the shell would (a * does not match a name
// that starts with a dot).
func (e *env) isGround(p string, above bool) bool {
	if p == "" {
		return false
	}
	if groundName(p) {
		return true
	}
	glob := hasGlob(p)
	for _, r := range e.ground {
		switch {
		case under(p, r):
			return true
		case above && under(r, p) && p != "/" && p != e.home && p != e.project:
			// / the home folder and the project root have rules of their
			// own, which name them better.
			return true
		case glob && globHits(p, r, above):
			return true
		}
	}
	if glob {
		for _, el := range strings.Split(p, "/") {
			if strings.HasPrefix(el, ".") && hasGlob(el) && ok(path.Match(el, ".hookwright")) {
				return true
			}
		}
	}
	return false
}

// globHits reports whether the glob g may name r, something below it, or
// (with above) a folder above it: element by element, as far as both go.
func globHits(g, r string, above bool) bool {
	ge := strings.Split(strings.TrimPrefix(g, "/"), "/")
	re := strings.Split(strings.TrimPrefix(r, "/"), "/")
	if len(ge) < len(re) && !above {
		return false
	}
	for i := 0; i < len(ge) && i < len(re); i++ {
		if strings.HasPrefix(re[i], ".") && !strings.HasPrefix(ge[i], ".") {
			return false // a leading * does not match a dot name
		}
		if !ok(path.Match(ge[i], re[i])) {
			return false
		}
	}
	return true
}

// groundHint reports whether a word the guard cannot resolve ($X/config.json)
// still names the ground: then it is judged as ground, the safer reading.
func groundHint(word string) bool {
	w := strings.ToLower(word)
	return strings.Contains(w, "hookwright") || strings.Contains(w, ".claude") || strings.Contains(w, "claude_plugin")
}

// groundWord reports whether t, a prefilter token, names the ground: a
// command that names none of them and no other guarded word is not
// parsed.
func groundWord(t string) bool {
	switch t {
	case ".hookwright", "hookwright", ".claude.json", "settings.json", "settings.local.json", "hooks.json", "plugins",
		"claude_plugin_root", "claude_plugin_data", "claude-code", "truncate", "chattr", "setfacl":
		return true
	}
	return false
}

// groundFinding records a write, delete or move of the ground.
func (ck *check) groundFinding(cmd int, what, p string) {
	ck.find("guard-ground", cmd, p, fmt.Sprintf("%s %s, %s: hookwright's config, journal or state, the installed plugin, or Claude Code's settings and hooks. The model may read them, never change them; the user changes them (see hwctl explain).", what, p, classGround))
}

// writesFile reports whether cmd has a redirect that may write a file (>,
// >>, >|, &>, 2>), not only a descriptor copy (2>&1, >&2): such a command
// is parsed whatever program it names, since the path decides.
func writesFile(cmd string) bool {
	for i := strings.IndexByte(cmd, '>'); i >= 0; {
		j := i + 1
		for j < len(cmd) && (cmd[j] == '>' || cmd[j] == '|') {
			j++
		}
		if j >= len(cmd) || cmd[j] != '&' && cmd[j] != '(' {
			return true
		}
		k := strings.IndexByte(cmd[j:], '>')
		if k < 0 {
			return false
		}
		i = j + k
	}
	return false
}
