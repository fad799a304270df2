package guard

import (
	"fmt"
	"path"
	"strings"

	"github.com/hookwright/hookwright/internal/shell"
)

// rm checks a recursive delete's targets. With dynamic set the program is
// unknown ($X -rf /) and only a recursive flag makes it count.
func (cc *cmdCtx) rm(dynamic bool) {
	recursive := false
	var targets []shell.Word
	opts := true
	for _, a := range cc.args() {
		t := a.Text
		switch {
		case opts && t == "--":
			opts = false
		case opts && (t == "--recursive" || t == "-R" || t == "-r"):
			recursive = true
		case opts && strings.HasPrefix(t, "--"):
		case opts && len(t) > 1 && t[0] == '-':
			if strings.ContainsAny(t[1:], "rR") {
				recursive = true
			}
		default:
			targets = append(targets, a)
		}
	}
	if !recursive {
		if !dynamic && cc.c.Via != "find -exec" {
			// (find's rules judge what find -exec rm deletes)
			for _, t := range targets {
				cc.destroy(t.Text, t.Glob, "rm deletes")
			}
		}
		return
	}
	if len(targets) == 0 && cc.c.MoreArgs {
		cc.find("rm-unknown-target", "", "a recursive delete fed by xargs deletes paths the guard cannot see; list them first, then delete them by name.")
		return
	}
	for _, t := range targets {
		if cc.c.MoreArgs && strings.Contains(t.Text, "{}") {
			cc.find("rm-unknown-target", "", "a recursive delete fed by xargs deletes paths the guard cannot see; list them first, then delete them by name.")
			continue
		}
		cc.deleteTree(t.Text, t.Glob, "rm -r")
	}
}

// rimraf checks rimraf's targets (npx rimraf dir): each is deleted
// recursively, as by rm -rf.
func (cc *cmdCtx) rimraf(args []shell.Word) {
	for _, a := range args {
		if !strings.HasPrefix(a.Text, "-") {
			cc.deleteTree(a.Text, a.Glob, "rimraf")
		}
	}
}

// rsyncDeletes reports whether rsync's options delete at the destination.
func rsyncDeletes(args []shell.Word) bool {
	for _, a := range args {
		if a.Text == "--del" || strings.HasPrefix(a.Text, "--delete") || a.Text == "--remove-source-files" {
			return true
		}
	}
	return false
}

// remotePath reports whether an rsync or scp operand names another host
// (host:path, user@host:path, rsync://).
func remotePath(s string) bool {
	if strings.HasPrefix(s, "rsync://") {
		return true
	}
	colon := strings.IndexByte(s, ':')
	return colon > 0 && !strings.Contains(s[:colon], "/")
}

// moveAway checks a source of mv: moving away /, the home folder, the
// project root or a folder above them is as good as deleting it for
// everything that uses it.
func (cc *cmdCtx) moveAway(arg string) {
	e := &cc.ck.env
	p, ok := e.expand(arg, cc.cwd)
	if !ok {
		return
	}
	rule, class := e.deleteClass(p, false)
	if rule == "rm-root" || rule == "rm-project-root" {
		cc.note(arg, p, "delete", class)
		cc.find(rule, p, fmt.Sprintf("mv %s moves away %s, as good as deleting it for everything that uses it. Name what to move, inside the project.", arg, class))
	}
}

// deleteTree judges one target of a recursive delete.
func (cc *cmdCtx) deleteTree(arg string, glob bool, how string) {
	e := &cc.ck.env
	p, ok := e.expand(arg, cc.cwd)
	if !ok && cc.unknownGround(arg) {
		cc.note(arg, "", "delete", "unknown")
		cc.find("guard-ground", "", fmt.Sprintf("%s %s deletes a folder the guard cannot resolve and that names hookwright's or Claude Code's own files; the model may not change them.", how, arg))
		return
	}
	if !ok {
		cc.note(arg, "", "delete", "unknown")
		cc.find("rm-unknown-target", "", fmt.Sprintf("%s %s depends on a value the guard cannot know (a variable, or an unknown current folder); if it is empty or wrong this deletes far more than meant. Name the folder literally.", how, arg))
		return
	}
	all := false // the target is everything in folder p
	pat := p
	if glob && hasGlob(p) {
		i := strings.IndexAny(p, "*?[")
		p = path.Clean(p[:i] + "x")
		p = path.Dir(p)
		all = true
	}
	rule, class := e.deleteClass(p, all)
	if (rule == "" || rule == "rm-in-project") && (e.isGround(p, true) || e.isGround(e.real(p), true) || pat != p && e.isGround(pat, true)) {
		cc.note(arg, p, "delete", classGround)
		cc.ck.groundFinding(cc.idx, how+" "+arg+" deletes", p)
		return
	}
	cc.note(arg, p, "delete", class)
	switch rule {
	case "rm-root":
		cc.find(rule, p, fmt.Sprintf("%s %s deletes %s. Name the exact folder inside the project.", how, arg, class))
	case "rm-project-root":
		cc.find(rule, p, fmt.Sprintf("%s %s deletes %s. Name the exact folder inside the project.", how, arg, class))
	case "rm-outside-project":
		cc.find(rule, p, fmt.Sprintf("%s %s deletes %s, outside the project and the temp folders. Ask the user to do it.", how, arg, p))
	case "rm-in-project":
		cc.find(rule, p, fmt.Sprintf("%s %s deletes a folder inside the project, which this guard level does not allow; delete single files by name, or ask the user.", how, arg))
	}
}

// deleteClass says which rule a recursive delete of p (everything in p
// when all is set) falls under, and what p is.
func (e *env) deleteClass(p string, all bool) (rule, class string) {
	switch {
	case p == "/":
		return "rm-root", "the whole file system"
	case e.home != "" && under(e.home, p):
		if p == e.home {
			return "rm-root", "the home folder"
		}
		return "rm-root", "a folder above the home folder"
	case e.project != "" && under(e.project, p):
		if p == e.project && all {
			return "rm-project-root", "everything in the project"
		}
		if p == e.project {
			return "rm-project-root", "the project root"
		}
		return "rm-project-root", "a folder above the project root"
	case e.project != "" && p == e.project+"/.git":
		return "rm-project-root", "the repository's history (.git)"
	case e.project != "" && under(p, e.project):
		return "rm-in-project", "inside the project"
	}
	for _, t := range e.temps {
		if under(p, t) && p != t {
			return "", "inside a temp folder"
		}
	}
	return "rm-outside-project", "outside the project"
}

// find_ checks find … -delete on a whole tree (find -exec was turned into
// commands by the parser).
func (cc *cmdCtx) find_() {
	args := cc.args()
	var starts []shell.Word
	j := 0
	for ; j < len(args); j++ {
		t := args[j].Text
		if t == "-H" || t == "-L" || t == "-P" {
			continue
		}
		if strings.HasPrefix(t, "-") || t == "(" || t == "!" {
			break
		}
		starts = append(starts, args[j])
	}
	del, filtered := false, false
	for ; j < len(args); j++ {
		switch t := args[j].Text; t {
		case "-delete":
			del = true
		case "-exec", "-execdir", "-ok", "-okdir":
			// -exec rm {} \; deletes what find finds, as -delete does; any
			// other program is an action, not a filter.
			k := j + 1
			for k < len(args) && args[k].Text != ";" && args[k].Text != "+" {
				k++
			}
			if j+1 < len(args) && isDeleteProgram(shell.ProgramName(args[j+1].Text)) {
				del = true
			}
			j = k
		case "-depth", "-xdev", "-mount", "-follow", "-ignore_readdir_race", "-noleaf", "-d", "-print", "-print0":
		case "-mindepth", "-maxdepth":
			j++
		default:
			filtered = true
		}
	}
	if !del {
		return
	}
	if len(starts) == 0 {
		starts = []shell.Word{{Text: "."}}
	}
	for _, s := range starts {
		cc.findGround(s.Text, args)
		if filtered {
			cc.filteredDelete(s.Text)
		} else {
			cc.deleteTree(s.Text, s.Glob, "find -delete on")
		}
	}
}

// isDeleteProgram reports whether find -exec running name deletes files.
func isDeleteProgram(name string) bool {
	switch name {
	case "rm", "unlink", "rmdir", "shred":
		return true
	}
	return false
}

// filteredDelete checks a find that deletes only what its filter matches
// (find ~ -name '*.log' -delete). Inside the project, the project root
// included, it is a cleanup; on /, the home folder, above the project root
// or outside the project and the temp folders, the filter may match
// anything there: the user is asked.
func (cc *cmdCtx) filteredDelete(arg string) {
	e := &cc.ck.env
	p, ok := e.expand(arg, cc.cwd)
	if !ok {
		cc.note(arg, "", "delete", "unknown")
		cc.find("rm-unknown-target", "", fmt.Sprintf("find %s ... -delete searches a folder the guard cannot know (a variable, or an unknown current folder). Name the folder literally.", arg))
		return
	}
	rule, class := e.deleteClass(p, false)
	if e.isGround(p, false) || e.isGround(e.real(p), false) {
		cc.note(arg, p, "delete", classGround)
		cc.ck.groundFinding(cc.idx, "find "+arg+" ... -delete deletes in", p)
		return
	}
	cc.note(arg, p, "delete", class)
	if rule == "rm-root" || rule == "rm-outside-project" || rule == "rm-project-root" && p != e.project && p != e.project+"/.git" {
		cc.find("find-delete-outside", p, fmt.Sprintf("find %s deletes whatever its filter matches in %s, outside the project. Ask the user, or search a folder inside the project.", arg, p))
	}
}

// chmod checks a recursive chmod, chown or chgrp of the system or the home
// folder.
func (cc *cmdCtx) chmod() {
	recursive := false
	var pos []string
	for _, a := range cc.args() {
		t := a.Text
		switch {
		case t == "-R" || t == "--recursive" || len(t) > 1 && t[0] == '-' && !strings.HasPrefix(t, "--") && strings.Contains(t, "R"):
			recursive = true
		case strings.HasPrefix(t, "-"):
		default:
			pos = append(pos, t)
		}
	}
	if len(pos) < 2 {
		return
	}
	e := &cc.ck.env
	for _, t := range pos[1:] {
		cc.chmodOne(t, recursive)
	}
	if !recursive {
		return
	}
	for _, t := range pos[1:] {
		p, ok := e.expand(t, cc.cwd)
		if !ok {
			continue
		}
		rule, class := e.deleteClass(p, false)
		if rule == "rm-root" || rule == "rm-outside-project" && !under(p, e.home) {
			cc.note(t, p, "write", class)
			cc.find("chmod-outside-project", p, fmt.Sprintf("%s -R on %s changes %s. Change the files inside the project you mean.", cc.c.Name(), t, p))
		}
	}
}
