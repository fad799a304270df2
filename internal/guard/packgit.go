package guard

import (
	"strings"

	"github.com/hookwright/hookwright/internal/shell"
)

// gitSub skips git's global options and returns the subcommand (lower
// case) and its words.
func gitSub(args []shell.Word) (string, []shell.Word) {
	for len(args) > 0 {
		t := args[0].Text
		if !strings.HasPrefix(t, "-") {
			return strings.ToLower(t), args[1:]
		}
		if isGitGlobalWithValue(t) && len(args) > 1 {
			args = args[2:]
			continue
		}
		args = args[1:]
	}
	return "", nil
}

// gitRuns checks what git runs for the user: rebase --exec/-x, bisect
// run, submodule foreach.
func (cc *cmdCtx) gitRuns(args []shell.Word) {
	sub, rest := gitSub(args)
	switch sub {
	case "rebase":
		for k := 0; k < len(rest); k++ {
			t := rest[k].Text
			switch {
			case t == "-x" || t == "--exec":
				if k+1 < len(rest) {
					cc.nested(rest[k+1].Text, "git rebase --exec")
					k++
				}
			case strings.HasPrefix(t, "--exec="):
				cc.nested(strings.TrimPrefix(t, "--exec="), "git rebase --exec")
			case strings.HasPrefix(t, "-x") && len(t) > 2:
				cc.nested(t[2:], "git rebase --exec")
			}
		}
	case "bisect":
		if len(rest) > 1 && rest[0].Text == "run" {
			cc.nested(joinWords(rest[1:]), "git bisect run")
		}
	case "submodule":
		for k, w := range rest {
			if w.Text == "foreach" && k+1 < len(rest) {
				body := rest[k+1:]
				for len(body) > 0 && strings.HasPrefix(body[0].Text, "--") {
					body = body[1:]
				}
				if len(body) > 0 {
					cc.nested(joinWords(body), "git submodule foreach")
				}
				break
			}
		}
	}
}

func joinWords(ws []shell.Word) string {
	if len(ws) == 1 {
		return ws[0].Text
	}
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = shell.Quote(w.Text)
	}
	return strings.Join(parts, " ")
}

// gitHistory: filter-branch, filter-repo, update-ref -d, reflog expiry,
// gc --prune=now, the default branch forced, send-pack --force.
func (pc *packCtx) gitHistory(out map[string]string) {
	if pc.name == "git-filter-repo" || pc.name == "bfg" {
		out["rewrite"] = "`" + pc.name + "` rewrites every commit of the repository"
		return
	}
	sub, rest := gitSub(pc.args)
	flag := func(fs ...string) bool { _, ok := hasFlag(rest, fs); return ok }
	switch sub {
	case "filter-branch", "filter-repo":
		if !flag("--help", "--analyze", "--dry-run") {
			out["rewrite"] = "`git " + sub + "` rewrites every commit of the repository"
		}
	case "update-ref":
		if flag("-d", "--delete") {
			out["update-ref"] = "`git update-ref -d` deletes a ref"
		} else if flag("--stdin") && strings.Contains(strings.ToLower(pc.cc.c.Stdin), "delete ") {
			out["update-ref"] = "`git update-ref --stdin` deletes refs"
		} else if pos := positionals(rest, []string{"-m"}); len(pos) > 0 && isDefaultBranch(strings.TrimPrefix(pos[0], "refs/heads/")) && strings.HasPrefix(pos[0], "refs/heads/") {
			// plumbing that moves the default branch anywhere, back included
			out["default-branch"] = "`git update-ref " + pos[0] + "` moves the default branch (to " + wordAt2(pos, 1) + "), dropping the commits after it"
		}
	case "reflog":
		if len(rest) == 0 {
			return
		}
		switch rest[0].Text {
		case "delete":
			out["reflog"] = "`git reflog delete` drops reflog entries"
		case "expire":
			for _, a := range rest[1:] {
				t := a.Text
				if t == "--all" || strings.HasPrefix(t, "--expire=") && (strings.HasSuffix(t, "=now") || strings.HasSuffix(t, "=all") || strings.HasSuffix(t, "=0")) ||
					strings.HasPrefix(t, "--expire-unreachable=") && (strings.HasSuffix(t, "=now") || strings.HasSuffix(t, "=all")) {
					out["reflog"] = "`git reflog expire " + t + "` drops what recovery needs"
					return
				}
			}
		}
	case "gc", "prune":
		for k, a := range rest {
			t := a.Text
			if t == "--prune=now" || t == "--prune=all" || (t == "--prune" || t == "--expire") && (wordAt(rest, k+1) == "now" || wordAt(rest, k+1) == "all") || t == "--expire=now" {
				out["reflog"] = "`git " + sub + " " + t + "` deletes unreachable commits at once"
				return
			}
		}
	case "branch":
		if !flag("-f", "--force") {
			return
		}
		// git branch -f NAME [START]: NAME is the branch that moves
		if pos := positionals(rest); len(pos) > 0 && isDefaultBranch(pos[0]) {
			out["default-branch"] = "`git branch -f " + pos[0] + "` moves the default branch"
		}
	case "checkout", "switch":
		for k, a := range rest {
			t := a.Text
			if t == "-B" || sub == "switch" && (t == "-C" || t == "--force-create") {
				if b := wordAt(rest, k+1); isDefaultBranch(b) {
					out["default-branch"] = "`git " + sub + " " + t + " " + b + "` resets the default branch"
					return
				}
			}
		}
	case "send-pack":
		if flag("--force", "-f") {
			out["send-pack"] = "`git send-pack --force` overwrites the remote's history"
			return
		}
		for _, a := range rest {
			if strings.HasPrefix(a.Text, "+") {
				out["send-pack"] = "`git send-pack " + a.Text + "` force-updates a remote ref"
				return
			}
		}
	}
}
