package guard

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/hookwright/hookwright/internal/shell"
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
		add(project + "/.claude/hooks") // the scripts settings.json runs as hooks
	}
	if x := getenv("XDG_CONFIG_HOME"); filepath.IsAbs(x) {
		add(x + "/hookwright")
	}
	// the user's state folder: the receipts of hwctl loop start, which
	// let the runtime run an armed check (internal/state/loop)
	if x := getenv("XDG_STATE_HOME"); filepath.IsAbs(x) {
		add(x + "/hookwright")
	}
	if home != "" {
		add(home + "/.local/state/hookwright")
		add(home + "/.config/hookwright")
		add(home + "/.claude/plugins")
		add(home + "/.claude/settings.json")
		add(home + "/.claude/settings.local.json")
		add(home + "/.claude/hooks")
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
	if strings.Contains(p, "/.claude/hooks/") || strings.HasSuffix(p, "/.claude/hooks") {
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
	if lower := strings.ToLower(p); lower != p {
		// a file system that ignores case (macOS, Windows) opens
		// .HOOKWRIGHT/config.json as .hookwright/config.json
		if groundName(lower) {
			return true
		}
		for _, r := range e.ground {
			if lr := strings.ToLower(r); under(lower, lr) || above && under(lr, lower) && p != "/" && p != e.home && p != e.project {
				return true
			}
		}
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
	if word == "" {
		return false
	}
	w := strings.ToLower(word)
	return strings.Contains(w, "hookwright") || strings.Contains(w, ".claude") || strings.Contains(w, "claude_plugin")
}

// unknownGround reports whether a target the guard cannot resolve may be
// the ground: its own word names it, or the command line does (for f in
// .hookwright/*; do rm "$f"; done).
func (cc *cmdCtx) unknownGround(arg string) bool {
	return groundHint(arg) || groundHint(cc.ck.rep.Input) && cc.ck.rep.Tool == "Bash"
}

// groundWord reports whether t, a prefilter token, names the ground: a
// command that names none of them and no other guarded word is not
// parsed.
func groundWord(t string) bool {
	switch t {
	case ".hookwright", "hookwright", ".claude.json", "settings.json", "settings.local.json", "hooks.json", "plugins",
		"claude_plugin_root", "claude_plugin_data", "claude-code", "truncate", "chattr", "setfacl", "claude", "hookgen", "hwctl", "sponge", "bsdtar", "gtar", "unzip", "7za", "7zr", "cpio", "pax", "jar", "patch", "yq", "ed", "ex":
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

// holdsGround reports whether p is the ground or a folder that holds
// some of it (the project root included).
func (e *env) holdsGround(p string) bool {
	if e.isGround(p, true) {
		return true
	}
	for _, r := range e.ground {
		if under(r, p) {
			return true
		}
	}
	return false
}

// gitMoveGround judges git mv and git rm: their operands but the last
// (git mv's destination; git rm's caller appends an empty one) are moved
// or deleted.
func (cc *cmdCtx) gitMoveGround(args []shell.Word) {
	var pos []string
	for _, a := range args {
		if !strings.HasPrefix(a.Text, "-") {
			pos = append(pos, a.Text)
		}
	}
	for i := 0; i+1 < len(pos); i++ {
		cc.destroyGround(pos[i], false, "git mv or git rm moves or deletes")
	}
}

// copyInto judges cp, mv, rsync and install into a folder: a source
// named .hookwright (or .claude) copied into the project lands on the
// ground (cp -r /tmp/evil/.hookwright .).
func (cc *cmdCtx) copyInto(dest string, srcs []string, how string) {
	for _, s := range srcs {
		base := path.Base(strings.TrimSuffix(s, "/"))
		if base == "." || base == ".." || base == "/" || strings.HasSuffix(s, "/") && how == "rsync" {
			continue // the folder's contents, not the folder
		}
		p, ok := cc.ck.env.expand(path.Join(dest, base), cc.cwd)
		if !ok {
			continue
		}
		if cc.ck.env.isGround(p, true) {
			cc.note(s, p, "write", classGround)
			cc.ck.groundFinding(cc.idx, how+" "+s+" writes", p)
		}
	}
}

// editorWrites judges the programs that write the file they are given:
// sponge FILE, patch FILE (or -o FILE), ed and ex FILE, yq -i FILE.
func (cc *cmdCtx) editorWrites(name string, args []shell.Word) {
	inPlace := name != "yq"
	var files []string
	for k := 0; k < len(args); k++ {
		t := args[k].Text
		switch {
		case name == "yq" && (t == "-i" || t == "--inplace" || strings.HasPrefix(t, "-i") && !strings.HasPrefix(t, "--")):
			inPlace = true
		case name == "patch" && (t == "-o" || t == "--output"):
			files = append(files, wordAt(args, k+1))
			k++
		case name == "patch" && (t == "-i" || t == "--input" || t == "-d" || t == "--directory" || t == "-p" || t == "-D" || t == "-r" || t == "-B" || t == "-V" || t == "-z" || t == "-F"):
			k++
		case strings.HasPrefix(t, "-"):
		default:
			files = append(files, t)
		}
	}
	if !inPlace {
		return
	}
	for i, f := range files {
		if name == "yq" && i == 0 && len(files) > 1 {
			continue // the expression
		}
		if name == "patch" && i > 0 && len(files) > 1 && i == len(files)-1 {
			cc.read(f, false)
			continue // patch FILE PATCHFILE: the second is read
		}
		if p, ok := cc.ck.env.expand(f, cc.cwd); ok && cc.ck.env.isGround(cc.ck.env.real(p), false) || !ok && groundHint(f) {
			cc.write(f, name)
		}
	}
}

// groundNames are the names of the ground's files a find below a folder
// that holds them could match (-name, -iname).
var groundNames = []string{".hookwright", "config.json", "journal.jsonl", "2026-01-01.jsonl", "pdca.json", "work.json", "loop.json", "idle.json", "settings.json", "settings.local.json", "hooks.json", "hookwright.db", "config-notice", ".claude", "hookwright"}

// findGround judges find … -delete (or -exec rm) from start: when start
// holds some of the guard's ground and no -name filter excludes it (a
// filter that may match one of its names, or none at all), the ground
// may be deleted.
func (cc *cmdCtx) findGround(start string, args []shell.Word) {
	e := &cc.ck.env
	p, known := e.expand(start, cc.cwd)
	if !known || !e.holdsGround(p) && !e.holdsGround(e.real(p)) {
		return
	}
	if e.isGround(p, false) {
		return // the delete rules judge the ground itself
	}
	if rule, _ := e.deleteClass(p, false); rule == "rm-root" || rule == "rm-outside-project" {
		return // find-delete-outside judges it
	}
	named, hits, prune := false, false, false
	for _, a := range args {
		prune = prune || a.Text == "-prune"
	}
	for k := 0; k+1 < len(args); k++ {
		switch t := args[k].Text; t {
		case "-name", "-iname", "-path", "-ipath", "-wholename", "-regex", "-iregex":
			if k > 0 && (args[k-1].Text == "!" || args[k-1].Text == "-not") {
				continue
			}
			named = true
			pat := strings.ToLower(args[k+1].Text)
			if t == "-regex" || t == "-iregex" || strings.Contains(t, "path") {
				// a path pattern: it names the ground, or matches any name
				names := strings.Contains(pat, "hookwright") || strings.Contains(pat, ".claude")
				if prune && names {
					return // find . -path ./.hookwright -prune -o …: the ground is left out
				}
				hits = hits || names || pat == "*" || strings.HasPrefix(pat, ".*")
				continue
			}
			for _, n := range groundNames {
				if m, err := path.Match(pat, n); m && err == nil {
					hits = true
				}
			}
		}
	}
	if named && !hits {
		return
	}
	cc.note(start, p, "delete", classGround)
	cc.ck.groundFinding(cc.idx, "find "+start+" ... -delete may delete files of", p)
}

// receiver returns the literal a method call at is made on, when the
// receiver is a call on one literal: Path("x").unlink() at ".unlink(".
func receiver(code string, lits []literal, at int) (literal, bool) {
	if at < 2 || code[at-1] != ')' {
		return literal{}, false
	}
	for i := len(lits) - 1; i >= 0; i-- {
		if lits[i].end == at-1 && !lits[i].interp {
			return lits[i], true
		}
		if lits[i].end < at-1 {
			break
		}
	}
	return literal{}, false
}

// linkToGround judges a source of ln: a link to the ground is a second
// name for it, which a later command in the same line writes before the
// guard can resolve it (ln -s .hookwright x && echo {} > x/config.json).
func (cc *cmdCtx) linkToGround(src string) bool {
	e := &cc.ck.env
	p, ok := e.expand(src, cc.cwd)
	if !ok || !e.isGround(p, true) && !e.isGround(e.real(p), true) {
		return false
	}
	cc.note(src, p, "write", classGround)
	cc.ck.groundFinding(cc.idx, "ln makes a second name, which the guard cannot follow, for", p)
	return true
}

// awkWrites judges the files an awk program prints into (print > "file",
// printf >> "file").
func (cc *cmdCtx) awkWrites(args []shell.Word) {
	for k := 0; k < len(args); k++ {
		t := args[k].Text
		if t == "-f" || t == "-v" || t == "-F" {
			k++
			continue
		}
		if strings.HasPrefix(t, "-") {
			continue
		}
		for rest := t; ; {
			i := strings.IndexByte(rest, '>')
			if i < 0 {
				break
			}
			rest = strings.TrimLeft(rest[i+1:], "> \t")
			if !strings.HasPrefix(rest, `"`) {
				continue
			}
			end := strings.IndexByte(rest[1:], '"')
			if end < 0 {
				break
			}
			cc.write(rest[1:1+end], "awk print >")
			rest = rest[1+end:]
		}
		return // the program: the other words are input files
	}
}

// selfCLI judges the command lines that change the guard's ground through
// a program of its own: claude config set, claude mcp add or remove,
// claude plugin install, uninstall, enable or disable (and marketplace
// changes), hookgen install without --dry-run, and hookgen -o onto the
// ground. Their read-only forms (list, get, validate, --dry-run) stay
// allowed.
func (cc *cmdCtx) selfCLI(name string) {
	args := cc.args()
	var pos []string
	dry := false
	for k := 0; k < len(args); k++ {
		t := args[k].Text
		switch {
		case t == "--dry-run" || t == "-n" && name == "hookgen":
			dry = true
		case name == "hookgen" && (t == "-o" || t == "--output"):
			cc.write(wordAt(args, k+1), "hookgen -o")
			k++
		case name == "hookgen" && strings.HasPrefix(t, "--output="):
			cc.write(strings.TrimPrefix(t, "--output="), "hookgen -o")
		case name == "claude" && (t == "-p" || t == "--print" || t == "--model" || t == "--append-system-prompt" || t == "--system-prompt" || t == "--settings" || t == "--allowedTools" || t == "--disallowedTools" || t == "--output-format" || t == "--input-format" || t == "--permission-mode" || t == "--session-id" || t == "-r" || t == "--resume"):
			k++ // a value, not a subcommand
		case strings.HasPrefix(t, "-"):
		default:
			pos = append(pos, t)
		}
	}
	if len(pos) == 0 {
		return
	}
	sub, verb := pos[0], ""
	if len(pos) > 1 {
		verb = pos[1]
	}
	what := ""
	switch {
	case name == "hookgen" && sub == "install" && !dry:
		what = "hookgen install writes Claude Code's settings"
	case name != "claude":
	case sub == "config" && (verb == "set" || verb == "add" || verb == "remove" || verb == "rm" || verb == "reset"):
		what = "claude config " + verb + " changes Claude Code's settings"
	case sub == "mcp" && (verb == "add" || verb == "add-json" || verb == "add-from-claude-desktop" || verb == "remove" || verb == "reset-project-choices"):
		what = "claude mcp " + verb + " changes the MCP servers Claude Code starts (~/.claude.json, .mcp.json)"
	case (sub == "plugin" || sub == "plugins") && verb != "" && verb != "list" && verb != "validate" && verb != "help":
		what = "claude plugin " + verb + " changes the installed plugins and their hooks"
	}
	if what != "" {
		cc.find("guard-ground", "", what+": the guard's own ground, which the user changes, not the model.")
	}
}

// gitStashGround judges git stash with --include-untracked (-u) or --all
// (-a): it stashes the untracked files (with --all the ignored ones too),
// .hookwright among them when git does not track it, and removes them from
// the working tree: the guard's config and journal are gone until the
// stash is applied. A pathspec that leaves the ground out (git stash push
// -u -- src/) is allowed; so is git stash of tracked changes only.
func (cc *cmdCtx) gitStashGround(args []shell.Word) {
	untracked := false
	var paths []string
	for k := 0; k < len(args); k++ {
		t := args[k].Text
		switch {
		case t == "--all" || t == "--include-untracked":
			untracked = true
		case t == "-m" || t == "--message" || t == "--pathspec-from-file":
			k++
			if t == "--pathspec-from-file" {
				paths = append(paths, "") // unknown: the whole tree
			}
		case t == "--":
			for _, a := range args[k+1:] {
				paths = append(paths, a.Text)
			}
			k = len(args)
		case len(t) > 1 && t[0] == '-' && t[1] != '-':
			untracked = untracked || strings.ContainsAny(t, "au")
		case strings.HasPrefix(t, "-"):
		case k == 0 && (t == "push" || t == "save"):
		case k == 0:
			return // list, show, apply, pop, drop, …: they remove nothing untracked
		default:
			if args[0].Text == "push" {
				paths = append(paths, t)
			}
		}
	}
	if untracked && cc.pathspecHoldsGround(paths, cc.ck.env.project) {
		cc.ck.groundFinding(cc.idx, "git stash -u or --all stashes and removes the untracked (or ignored) files, which may include", cc.ck.env.project+"/.hookwright")
	}
}

// gitCleanGround judges git clean -f with -x or -X (the ignored files go
// too) or -d (untracked folders go too): .hookwright, untracked or
// ignored, is deleted unless the pathspec leaves it out. Without a
// pathspec git clean works from the current folder down.
func (cc *cmdCtx) gitCleanGround(args []shell.Word) {
	wide := false
	var paths []string
	for k := 0; k < len(args); k++ {
		t := args[k].Text
		switch {
		case t == "-e" || t == "--exclude":
			k++
		case t == "--":
			for _, a := range args[k+1:] {
				paths = append(paths, a.Text)
			}
			k = len(args)
		case len(t) > 1 && t[0] == '-' && t[1] != '-':
			wide = wide || strings.ContainsAny(t, "xXd")
		case strings.HasPrefix(t, "-"):
		default:
			paths = append(paths, t)
		}
	}
	if wide && cc.pathspecHoldsGround(paths, cc.cwd) {
		cc.ck.groundFinding(cc.idx, "git clean -d, -x or -X deletes untracked or ignored files and folders, which may include", cc.ck.env.project+"/.hookwright")
	}
}

// pathspecHoldsGround reports whether a git pathspec (none: def) may name
// the guard's ground or a folder that holds it.
func (cc *cmdCtx) pathspecHoldsGround(paths []string, def string) bool {
	e := &cc.ck.env
	if len(paths) == 0 {
		if def == "" {
			return true
		}
		return e.holdsGround(def)
	}
	for _, p := range paths {
		if p == "" || strings.HasPrefix(p, ":") {
			return true // a magic pathspec (:/, :!x): the safer reading
		}
		a, ok := e.expand(p, cc.cwd)
		if !ok || e.holdsGround(a) || hasGlob(p) && e.isGround(a, true) {
			return true
		}
	}
	return false
}

// hwctlLoop judges hwctl loop start: the check it arms runs at every
// stop, outside the guard, so it is judged now as if the model ran it
// (hwctl loop start --check 'rm -rf ~' is rm -rf ~).
func (cc *cmdCtx) hwctlLoop() {
	args := cc.args()
	for k := 0; k < len(args); k++ {
		t := args[k].Text
		switch {
		case t == "--check" || t == "-check":
			if k+1 < len(args) {
				cc.nested(args[k+1].Text, "hwctl loop start --check")
				k++
			}
		case strings.HasPrefix(t, "--check="):
			cc.nested(strings.TrimPrefix(t, "--check="), "hwctl loop start --check")
		}
	}
}

// hwctlWorkflow judges hwctl workflow enable and disable: they change
// which of hookwright's workflows run (its config), which is the user's
// call. A model held by the scratchpad gate must not switch the chain
// off to stop. Listing them stays allowed.
func (cc *cmdCtx) hwctlWorkflow() {
	args := cc.args()
	var pos []string
	for k := 0; k < len(args); k++ {
		t := args[k].Text
		switch {
		case t == "--dir" || t == "--fail" || t == "--mode" || t == "--check" || t == "--promise":
			k++ // a value
		case strings.HasPrefix(t, "-"):
		default:
			pos = append(pos, t)
		}
	}
	// The command's name may follow a global flag's value (hwctl -dir .
	// workflow disable): look for it anywhere.
	for i := 0; i+1 < len(pos); i++ {
		if pos[i] == "workflow" && (pos[i+1] == "enable" || pos[i+1] == "disable") {
			cc.find("guard-ground", "", "hwctl workflow "+pos[i+1]+" changes which of hookwright's workflows run: the user's decision, not the model's.")
			return
		}
	}
}
