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
	named := cc.findNamed()
	for _, t := range targets {
		if named[t.Text] {
			continue // find -name X -exec rm -rf {}: find's rules judge what it picks
		}
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
	if host := remoteVia(cc.c.Via); host != "" && !remoteTemp(arg) {
		// on another host the guard cannot tell a project's build folder
		// from its data: the user is asked, and / or ~ are judged below
		cc.modelFind("remote", fmt.Sprintf("%s %s runs on another host (%s), whose folders the guard cannot place", how, arg, host))
	}
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
	all, some := false, false // the target is everything in folder p, or some of what is in it
	pat := p
	if glob && hasGlob(p) {
		i := strings.IndexAny(p, "*?[")
		p = path.Clean(p[:i] + "x")
		p = path.Dir(p)
		if matchesMost(strings.TrimPrefix(pat[len(p):], "/")) {
			all = true
		} else {
			some = true // *.egg-info, */__pycache__, build-*: what the pattern's letters pick
		}
	}
	rule, class := e.deleteClass(p, all)
	if some {
		switch {
		case rule == "rm-project-root" && p == e.project, rule == "rm-in-project":
			rule, class = "rm-in-project", "inside the project"
		case rule != "":
			if e.isGround(pat, true) {
				break
			}
			cc.note(arg, pat, "delete", class)
			cc.find("find-delete-outside", pat, fmt.Sprintf("%s %s deletes whatever the pattern matches in %s, outside the project. Ask the user, or name the folders inside the project.", how, arg, p))
			return
		}
	}
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
	if e.cacheFolder(p) {
		return "", "inside a cache folder the tools rebuild"
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

// matchesMost reports whether a glob's pattern below its folder matches
// nearly every name there: its last element has no letter or digit of its
// own (*, .*, *.*, .??*, [a-z]*), or a middle element that does is
// followed by one that does not (build/*).
func matchesMost(rest string) bool {
	segs := strings.Split(rest, "/")
	for len(segs) > 1 && segs[len(segs)-1] == "" {
		segs = segs[:len(segs)-1]
	}
	last := segs[len(segs)-1]
	depth := 0
	for i := 0; i < len(last); i++ {
		c := last[i]
		switch {
		case c == '[':
			depth++
		case c == ']' && depth > 0:
			depth--
		case depth > 0, c == '*', c == '?', c == '.', c == '\\':
		default:
			return false
		}
	}
	return true
}

// findNamed returns the starting points of the find that runs this
// command through -exec, when find picks what it deletes by name (-name,
// -iname, -path, -regex with a pattern that neither matches every name nor
// the starting point itself): find's own rules (filteredDelete) judge
// those, not rm -rf of the starting point.
func (cc *cmdCtx) findNamed() map[string]bool {
	c := cc.c
	if !strings.HasSuffix(c.Via, "find -exec") || c.Parent < 0 || c.Parent >= len(cc.all) {
		return nil
	}
	parent := cc.all[c.Parent]
	if parent.Name() != "find" {
		return nil
	}
	starts, named := findFilter(parent.Args[1:])
	if len(named) == 0 {
		return nil
	}
	out := map[string]bool{}
	for _, s := range starts {
		p, ok := cc.ck.env.expand(s, cc.cwd)
		base := path.Base(p)
		if !ok {
			continue
		}
		if rule, _ := cc.ck.env.deleteClass(p, false); rule != "" && rule != "rm-in-project" && !(rule == "rm-project-root" && p == cc.ck.env.project) {
			continue // on /, the home folder or outside the project, rm -rf of the start decides
		}
		matched := false
		for _, pat := range named {
			if m, _ := path.Match(pat, base); m {
				matched = true
			}
		}
		if !matched {
			out[s] = true
		}
	}
	return out
}

// findFilter returns find's starting points and the name patterns it
// filters on (none when a pattern matches every name).
func findFilter(args []shell.Word) (starts, named []string) {
	j := 0
	for j < len(args) && (args[j].Text == "-H" || args[j].Text == "-L" || args[j].Text == "-P") {
		j++
	}
	for ; j < len(args); j++ {
		t := args[j].Text
		if strings.HasPrefix(t, "-") || t == "(" || t == "!" || t == "," {
			break
		}
		starts = append(starts, t)
	}
	if len(starts) == 0 {
		starts = []string{"."}
	}
	for ; j+1 < len(args); j++ {
		switch t := args[j].Text; t {
		case "-exec", "-execdir", "-ok", "-okdir":
			for j < len(args) && args[j].Text != ";" && args[j].Text != "+" {
				j++
			}
		case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex":
			if j > 0 && (args[j-1].Text == "!" || args[j-1].Text == "-not") {
				return starts, nil // everything but a name: not a filter
			}
			pat := args[j+1].Text
			if strings.Contains(t, "path") || strings.Contains(t, "wholename") {
				if strings.Trim(pat, "*?./[]") == "" {
					return starts, nil
				}
				named = append(named, "*x*") // a path pattern with letters: judged as a name the start's is not
				j++
				continue
			}
			if strings.HasSuffix(t, "regex") {
				if pat == ".*" || pat == ".+" || pat == "" {
					return starts, nil
				}
				pat = "*x*" // a regex picks by name; it is judged as a name that is not the start's
			} else if matchesMost(pat) {
				return starts, nil
			}
			named = append(named, pat)
			j++
		case "-o", "-or":
			return starts, nil // find . -name x -o -exec …: the other branch picks everything
		}
	}
	return starts, named
}

// remoteTemp reports whether a path on another host is in its temp
// folders (/tmp, /var/tmp), which a recursive delete may clean there too.
func remoteTemp(arg string) bool {
	p := path.Clean(arg)
	return strings.HasPrefix(arg, "/") && (under(p, "/tmp") && p != "/tmp" || under(p, "/var/tmp") && p != "/var/tmp")
}
