package guard

import (
	"fmt"
	"path"
	"strings"

	"github.com/hookwright/hookwright/internal/runtime/safepath"
	"github.com/hookwright/hookwright/internal/shell"
)

// gitGlobalWithValue are git's global options that take the next word as
// their value.
func isGitGlobalWithValue(s string) bool {
	switch s {
	case "-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--super-prefix", "--exec-path",
		"--list-cmds", "--attr-source":
		return true
	}
	return false
}

// defaultBranches are the branch names whose remote deletion blocks.
func isDefaultBranch(s string) bool {
	switch s {
	case "main", "master", "trunk", "develop", "production":
		return true
	}
	return false
}

// git checks a git command: global options first, then the subcommand.
func (cc *cmdCtx) git() {
	args := cc.args()
	aliases := map[string]string{}
	for len(args) > 0 {
		t := args[0].Text
		if !strings.HasPrefix(t, "-") {
			break
		}
		if isGitGlobalWithValue(t) && len(args) > 1 {
			if t == "-c" {
				if k, v, ok := strings.Cut(args[1].Text, "="); ok {
					cc.gitConfigValue(k, v, true)
					if name, ok := strings.CutPrefix(strings.ToLower(k), "alias."); ok {
						aliases[name] = v
					}
				}
			}
			args = args[2:]
			continue
		}
		args = args[1:]
	}
	if len(args) == 0 {
		return
	}
	sub := args[0].Text
	rest := args[1:]
	if v, ok := aliases[strings.ToLower(sub)]; ok {
		if strings.HasPrefix(v, "!") {
			cc.nested(v[1:], "git alias")
			return
		}
		words := []shell.Word{}
		for _, f := range strings.Fields(v) {
			words = append(words, shell.Word{Text: f})
		}
		if len(words) == 0 {
			return
		}
		sub, rest = words[0].Text, append(words[1:], rest...)
	}
	cc.gitEnv(cc.c.Assigns)
	switch sub {
	case "clone", "init", "fetch", "pull", "ls-remote", "archive", "submodule":
		cc.gitHooksFrom(sub, rest)
	case "remote":
		cc.gitRemote(rest)
	}
	switch sub {
	case "push":
		cc.gitHooksFrom(sub, rest)
		cc.gitPushElsewhere(rest)
		cc.gitPush(rest)
	case "reset":
		for _, a := range rest {
			if !strings.HasPrefix(a.Text, "-") && strings.ContainsAny(a.Text, "~^") {
				cc.ck.rewound = true // git reset HEAD~3: the branch moved back
			}
		}
		for _, a := range rest {
			if a.Text == "--hard" || a.Text == "--merge" {
				cc.find("git-reset-hard", "", "git reset "+a.Text+" drops uncommitted work. Commit or stash first (git stash), then reset.")
				return
			}
		}
	case "checkout":
		cc.gitCheckout(rest)
	case "switch":
		for _, a := range rest {
			if a.Text == "--discard-changes" || a.Text == "-f" || a.Text == "--force" {
				cc.find("git-checkout-discard", "", "git switch "+a.Text+" drops uncommitted changes. Commit or stash them first.")
				return
			}
		}
	case "restore":
		staged, worktree := false, false
		for _, a := range rest {
			switch t := a.Text; {
			case t == "--staged" || t == "-S":
				staged = true
			case t == "--worktree" || t == "-W":
				worktree = true
			case len(t) > 1 && t[0] == '-' && t[1] != '-':
				staged = staged || strings.Contains(t, "S")
				worktree = worktree || strings.Contains(t, "W")
			}
		}
		if !staged || worktree {
			cc.find("git-restore-discard", "", "git restore on the working tree drops uncommitted changes. Use git restore --staged to unstage, or git stash to keep the changes.")
		}
	case "clean":
		force, dry := false, false
		for _, a := range rest {
			switch t := a.Text; {
			case t == "--force":
				force = true
			case t == "--dry-run":
				dry = true
			case len(t) > 1 && t[0] == '-' && t[1] != '-':
				force = force || strings.Contains(t, "f")
				dry = dry || strings.Contains(t, "n")
			}
		}
		if force && !dry {
			cc.find("git-clean-force", "", "git clean -f deletes untracked files for good. List them with git clean -n first, and remove what you mean by name.")
			cc.gitCleanGround(rest)
		}
	case "worktree":
		if len(rest) > 0 && (rest[0].Text == "remove" || rest[0].Text == "rm") && gitForce(rest[1:]) {
			cc.find("git-force-discard", "", "git worktree remove --force deletes a worktree with its uncommitted changes. Commit or stash them there first.")
		}
	case "submodule":
		cc.gitSubmodule(rest)
	case "checkout-index":
		if gitForce(rest) {
			cc.find("git-force-discard", "", "git checkout-index -f overwrites working tree files with the index, dropping their uncommitted changes.")
		}
	case "read-tree":
		reset, update := false, false
		for _, a := range rest {
			reset = reset || a.Text == "--reset"
			update = update || a.Text == "-u"
		}
		if reset && update {
			cc.find("git-force-discard", "", "git read-tree --reset -u overwrites the working tree, dropping uncommitted changes.")
		}
	case "apply", "am":
		cc.applyPatch("git "+sub, rest)
	case "mv":
		cc.gitMoveGround(rest)
	case "rm":
		cc.gitMoveGround(append(rest, shell.Word{}))
		if gitForce(rest) {
			cc.find("git-rm-force", "", "git rm -f removes files even when they hold uncommitted changes, which are then lost. Commit or stash them first, or drop -f.")
		}
	case "stash":
		cc.gitStashGround(rest)
		if len(rest) > 0 {
			switch rest[0].Text {
			case "clear":
				cc.find("git-stash-clear", "", "git stash clear drops every stash for good.")
			case "drop":
				cc.find("git-stash-drop", "", "git stash drop deletes a stash for good.")
			}
		}
	case "branch":
		del, force := false, false
		for _, a := range rest {
			switch t := a.Text; {
			case t == "--delete":
				del = true
			case t == "--force":
				force = true
			case len(t) > 1 && t[0] == '-' && t[1] != '-':
				if strings.Contains(t, "D") {
					del, force = true, true
				}
				del = del || strings.Contains(t, "d")
				force = force || strings.Contains(t, "f")
			}
		}
		if del && force {
			cc.find("git-branch-force-delete", "", "git branch -D deletes a branch even when its commits are merged nowhere.")
		}
	case "config":
		var pos []string
		for k := 0; k < len(rest); k++ {
			switch t := rest[k].Text; {
			case t == "-f" || t == "--file" || t == "--blob" || t == "--default" || t == "--comment" || t == "--type":
				k++ // the option's value: --file .git/config is no key
			case !strings.HasPrefix(t, "-"):
				pos = append(pos, t)
			}
		}
		if len(pos) >= 1 && (pos[0] == "set" || pos[0] == "add") { // git 2.46's subcommand form
			pos = pos[1:]
		}
		if len(pos) >= 2 {
			cc.gitConfigValue(pos[0], pos[1], false)
			// An alias runs later, by a name no rule knows: judge what it
			// runs now (git <value>, or the shell command after "!").
			if _, ok := strings.CutPrefix(strings.ToLower(pos[0]), "alias."); ok {
				if cmd, shellAlias := strings.CutPrefix(pos[1], "!"); shellAlias {
					cc.nested(cmd, "git alias")
				} else {
					cc.nested("git "+pos[1], "git alias")
				}
			}
		}
	}
}

// gitForce reports whether args hold --force or a short flag cluster
// with f (-f, -rf).
func gitForce(args []shell.Word) bool {
	for _, a := range args {
		t := a.Text
		if t == "--" {
			return false
		}
		if t == "--force" || len(t) > 1 && t[0] == '-' && t[1] != '-' && strings.Contains(t, "f") {
			return true
		}
	}
	return false
}

// gitSubmodule checks git submodule: deinit or update with --force drop
// the submodules' uncommitted changes, and foreach runs a command in each,
// which is judged as such.
func (cc *cmdCtx) gitSubmodule(rest []shell.Word) {
	for len(rest) > 0 && strings.HasPrefix(rest[0].Text, "-") {
		rest = rest[1:] // --quiet and the like, before the subcommand
	}
	if len(rest) == 0 {
		return
	}
	switch rest[0].Text {
	case "deinit", "update":
		if gitForce(rest[1:]) {
			cc.find("git-force-discard", "", "git submodule "+rest[0].Text+" --force drops the submodules' uncommitted changes. Commit or stash them first.")
		}
	case "foreach":
		args := rest[1:]
		for len(args) > 0 && strings.HasPrefix(args[0].Text, "-") {
			args = args[1:] // --recursive, --quiet
		}
		var words []string
		for _, a := range args {
			words = append(words, a.Text)
		}
		if len(words) > 0 {
			cc.nested(strings.Join(words, " "), "git submodule foreach")
		}
	}
}

// gitConfigValue judges a git key set to value: a key that runs a program
// later blocks; given once (git -c key=value cmd), a pager, an editor or
// an ssh command runs now and is judged as the command it is. once is
// git -c (and git clone -c).
func (cc *cmdCtx) gitConfigValue(key, value string, once bool) {
	k := strings.ToLower(key)
	cc.gitLater(key, value)
	switch {
	case k == "init.templatedir":
		cc.find("git-hooks-template", "", "git's init.templateDir copies that folder's hooks into every repository git init or git clone makes, and git runs them; the user must set it.")
		return
	case k == "core.sshcommand" && plainSSH(value):
		return // ssh -i ~/.ssh/deploy_key: runs ssh, as git would
	case k == "core.pager" || k == "core.editor" || k == "sequence.editor" || k == "core.askpass" || k == "gpg.program" || k == "diff.external" || k == "core.sshcommand":
		// runs now (git -c) or at the next commit, log or fetch: judged
		// as the command it is
		how := "git config " + key
		if once {
			how = "git -c " + key
		}
		cc.nested(value, how)
	}
	switch {
	case k == "core.hookspath" || k == "core.fsmonitor" || k == "core.sshcommand" || k == "core.pager" && strings.ContainsAny(value, "|;&$`") ||
		strings.HasSuffix(k, ".textconv") || strings.HasPrefix(k, "filter.") && (strings.HasSuffix(k, ".clean") || strings.HasSuffix(k, ".smudge") || strings.HasSuffix(k, ".process")) ||
		k == "core.editor" && strings.ContainsAny(value, "|;&$`") || k == "credential.helper" && strings.HasPrefix(value, "!"):
		cc.find("git-config-exec", "", "setting git's "+key+" makes git run a program later; the user must change that setting.")
	}
}

// plainSSH reports whether a git ssh command is ssh with options only
// (no shell syntax, no command of its own to run).
func plainSSH(v string) bool {
	f := strings.Fields(v)
	if len(f) == 0 || strings.ContainsAny(v, "|;&$`<>()") || strings.Contains(strings.ToLower(v), "proxycommand") || strings.Contains(strings.ToLower(v), "localcommand") {
		return false
	}
	n := shell.ProgramName(f[0])
	return n == "ssh" || n == "ssh.exe" || n == "plink" || n == "plink.exe"
}

// gitEnv judges the environment a git command gets: GIT_TEMPLATE_DIR
// brings hooks into the repository it makes; GIT_SSH_COMMAND, GIT_PAGER,
// GIT_EDITOR and their kind run now, and are judged as the commands they
// are.
func (cc *cmdCtx) gitEnv(assigns []string) {
	for _, a := range assigns {
		name, v, ok := strings.Cut(a, "=")
		if !ok {
			continue
		}
		switch name {
		case "GIT_TEMPLATE_DIR":
			cc.find("git-hooks-template", "", "GIT_TEMPLATE_DIR copies that folder's hooks into the repository git makes, and git runs them; the user must choose its hooks.")
		case "GIT_SSH_COMMAND", "GIT_SSH", "GIT_PAGER", "PAGER", "GIT_EDITOR", "EDITOR", "VISUAL", "GIT_SEQUENCE_EDITOR", "GIT_EXTERNAL_DIFF", "GIT_ASKPASS", "SSH_ASKPASS":
			cc.nested(v, name)
		case "GIT_CONFIG_PARAMETERS":
			cc.find("git-config-exec", "", "GIT_CONFIG_PARAMETERS sets git configuration the guard does not read; the user must set it.")
		}
	}
}

// gitHooksFrom judges git clone and git init: --template brings its
// hooks into the new repository (git runs post-checkout during the
// clone), clone's -c core.hooksPath points git at hooks, and -u
// (--upload-pack) runs a program.
func (cc *cmdCtx) gitHooksFrom(sub string, rest []shell.Word) {
	for k := 0; k < len(rest); k++ {
		t := rest[k].Text
		next := wordAt(rest, k+1)
		switch {
		case t == "--template" || strings.HasPrefix(t, "--template="):
			dir := next
			if v, ok := strings.CutPrefix(t, "--template="); ok {
				dir = v
			} else {
				k++
			}
			cc.find("git-hooks-template", "", fmt.Sprintf("git %s --template %s copies that folder's hooks into the new repository, and git runs them (post-checkout runs during the clone); the user must choose its hooks.", sub, dir))
		case sub == "clone" && (t == "-c" || t == "--config"):
			if kk, v, ok := strings.Cut(next, "="); ok {
				cc.gitConfigValue(kk, v, true)
			}
			k++
		case sub == "clone" && strings.HasPrefix(t, "--config="):
			if kk, v, ok := strings.Cut(strings.TrimPrefix(t, "--config="), "="); ok {
				cc.gitConfigValue(kk, v, true)
			}
		case t == "-u" || t == "--upload-pack" || t == "--receive-pack" || t == "--exec":
			cc.nested(next, "git "+sub+" "+t)
			k++
		case strings.HasPrefix(t, "--upload-pack=") || strings.HasPrefix(t, "--receive-pack=") || strings.HasPrefix(t, "--exec="):
			_, v, _ := strings.Cut(t, "=")
			cc.nested(v, "git "+sub+" "+strings.SplitN(t, "=", 2)[0])
		case strings.HasPrefix(t, "ext::") || strings.HasPrefix(t, "fd::"):
			cc.modelFind("unseen", fmt.Sprintf("git %s %s: the ext:: transport runs a command as the remote", sub, t))
		}
	}
}

// nested parses a string the command runs (a git alias) and checks it.
func (cc *cmdCtx) nested(text, via string) {
	cmds, err := shell.Parse(text)
	for i := range cmds {
		cmds[i].Via = via + nonEmpty(cmds[i].Via)
		cmds[i].Depth += cc.c.Depth + 1
		if cmds[i].Parent < 0 {
			cmds[i].Parent = -1
		}
	}
	if cc.c.Depth+1 > shell.MaxDepth {
		cc.ck.rep.ParseError = shell.ErrDepth.Error()
		cc.find("unparsed", "", "the command nests strings too deeply for the guard to read.")
		return
	}
	cc.ck.commands(cmds, 0)
	if err != nil && cc.ck.rep.ParseError == "" {
		cc.ck.rep.ParseError = err.Error()
	}
}

func nonEmpty(s string) string {
	if s == "" {
		return ""
	}
	return " → " + s
}

// gitCheckout: checkout of paths drops their uncommitted changes.
func (cc *cmdCtx) gitCheckout(rest []shell.Word) {
	for k, a := range rest {
		t := a.Text
		switch {
		case t == "--":
			if k+1 < len(rest) {
				cc.find("git-checkout-discard", "", "git checkout -- <path> overwrites the file with the committed version and drops uncommitted changes. Use git stash, or git diff first.")
				return
			}
		case t == "-f" || t == "--force":
			cc.find("git-checkout-discard", "", "git checkout --force drops uncommitted changes.")
			return
		case t == "." || t == "./" || t == ":/":
			cc.find("git-checkout-discard", "", "git checkout . drops every uncommitted change in the working tree. Use git stash to keep them.")
			return
		case t == "-b" || t == "-B" || t == "--orphan":
			return
		}
	}
}

// gitPush checks git push in every spelling of force and delete.
func (cc *cmdCtx) gitPush(rest []shell.Word) {
	force, mirror, del, prune, lease, dry := "", false, false, false, "", false
	var pos []string
	for k := 0; k < len(rest); k++ {
		t := rest[k].Text
		switch {
		case t == "--force" || strings.HasPrefix(t, "--force="):
			force = t
		case t == "--dry-run":
			dry = true
		case strings.HasPrefix(t, "--force-with-lease") || t == "--force-if-includes":
			lease = t
		case t == "--no-force-if-includes":
		case t == "--mirror":
			mirror = true
		case t == "--delete":
			del = true
		case t == "--prune":
			prune = true
		case t == "--repo" || t == "--receive-pack" || t == "--exec" || t == "--push-option" || t == "-o":
			k++
		case strings.HasPrefix(t, "--"):
		case len(t) > 1 && t[0] == '-':
			for _, r := range t[1:] {
				if r == 'o' {
					k++
					break
				}
				if r == 'f' {
					force = "-f"
				}
				if r == 'd' {
					del = true
				}
				if r == 'n' {
					dry = true
				}
			}
		default:
			pos = append(pos, t)
		}
	}
	if dry {
		return // --dry-run, -n: git reports what it would do and sends nothing
	}
	if force != "" {
		cc.find("git-force-push", "", "git push "+force+" rewrites shared history. Use --force-with-lease, or push a new branch.")
		return
	}
	if lease != "" {
		cc.leaseDefault(lease, pos)
	}
	if mirror {
		cc.find("git-force-push", "", "git push --mirror overwrites and deletes every ref on the remote.")
		return
	}
	refs := pos
	if len(refs) > 0 {
		refs = refs[1:] // the remote
	}
	for _, r := range pos {
		if strings.HasPrefix(r, "+") {
			cc.find("git-force-push", "", "git push "+r+": a +refspec force-pushes and rewrites shared history. Drop the +, or use --force-with-lease.")
			return
		}
	}
	for _, r := range refs {
		target := ""
		switch {
		case del:
			target = r
		case strings.HasPrefix(r, ":"):
			target = r[1:]
		}
		if target == "" {
			continue
		}
		target = strings.TrimPrefix(target, "refs/heads/")
		if isDefaultBranch(target) {
			cc.find("git-push-delete-default", "", "git push deletes the remote's "+target+" branch.")
			return
		}
		cc.find("git-push-delete", "", "git push deletes the remote branch "+target+".")
		return
	}
	if prune {
		cc.find("git-push-delete", "", "git push --prune deletes remote branches that have no local counterpart.")
	}
}

// leaseDefault asks before git push --force-with-lease moves the default
// branch back: a refspec whose source goes back (HEAD~3:main, main^:main),
// or no refspec while the project's current branch (.git/HEAD) is the
// default one and the same line reset it back (git reset --soft HEAD~5).
// A lease protects others' new commits, not the history everyone already
// builds on; a lease push of the branch's own new history is allowed.
func (cc *cmdCtx) leaseDefault(lease string, pos []string) {
	target := ""
	back := func(src string) bool { return strings.ContainsAny(src, "~^") || strings.Contains(src, "@{") }
	if len(pos) > 1 {
		for _, r := range pos[1:] {
			src, dst, ok := strings.Cut(r, ":")
			if !ok {
				dst = r
			}
			dst = strings.TrimPrefix(strings.TrimPrefix(dst, "+"), "refs/heads/")
			if isDefaultBranch(dst) && (back(src) || cc.ck.rewound && !ok) {
				target = dst
				break
			}
		}
	} else if cc.ck.rewound {
		if b := cc.ck.env.currentBranch(); isDefaultBranch(b) {
			target = b
		}
	}
	if target != "" {
		cc.find("git-lease-default", "", "git push "+lease+" moves "+target+", the default branch everyone builds on, back to an older commit. Push the rewrite to a new branch and open a pull request.")
	}
}

// currentBranch returns the project's current branch as its .git/HEAD
// says (a worktree's .git file points to its own HEAD), or "": bounded
// reads of regular files only.
func (e *env) currentBranch() string {
	if e.project == "" {
		return ""
	}
	headOf := func(dir string) string {
		data, err := safepath.ReadFileAt(path.Join(dir, "HEAD"), 4096)
		if err != nil {
			return ""
		}
		ref, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "ref: refs/heads/")
		if !ok {
			return ""
		}
		return ref
	}
	gitPath := path.Join(e.project, ".git")
	if b := headOf(gitPath); b != "" {
		return b
	}
	data, err := safepath.ReadFileAt(gitPath, 4096)
	if err != nil {
		return ""
	}
	dir, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir: ")
	if !ok {
		return ""
	}
	if !path.IsAbs(dir) {
		dir = path.Join(e.project, dir)
	}
	return headOf(dir)
}
