package work

import (
	"path/filepath"
	"strings"

	"github.com/hookwright/hookwright/internal/shell"
)

// writers are the programs that change the files their operands name:
// all of them (mv removes its sources), or only the last, the
// destination (cp, install, ln, rsync).
var writers = map[string]string{
	"tee": "all", "mv": "all", "rm": "all", "rmdir": "all", "unlink": "all", "touch": "all",
	"truncate": "all", "shred": "all", "mkdir": "all", "sponge": "all",
	"cp": "last", "install": "last", "ln": "last", "rsync": "last",
}

// BashEdits reports whether the Bash command writes a file inside the
// project: an output redirection to a file (not /dev/null or another
// device, not a descriptor such as 2>&1), tee, sed -i, perl -i, cp, mv,
// rm, touch, truncate, dd of=, patch, git apply and the like, with an
// operand that lies in the project, or whose value the command line does
// not show ($OUT). cwd is the folder the command starts in; a cd earlier
// in the line moves it. A line that does not parse is judged on what was
// read of it.
func BashEdits(command, cwd, project string) bool {
	cmds, _ := shell.Parse(command)
	dir := cwd
	if dir == "" {
		dir = project
	}
	inside := func(w shell.Word, at string) bool {
		if w.Dynamic {
			return true
		}
		p := w.Text
		if p == "" || strings.HasPrefix(p, "/dev/") {
			return false
		}
		if strings.HasPrefix(p, "~") {
			return false // the home folder: outside the project
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(at, p)
		}
		rel, err := filepath.Rel(project, filepath.Clean(p))
		return err == nil && (rel == "." || filepath.IsLocal(rel))
	}
	for _, c := range cmds {
		at := dir
		for _, r := range c.Redirects {
			switch r.Op {
			case ">", ">>", ">|", "&>", "&>>", "<>":
				if inside(r.Target, at) {
					return true
				}
			}
		}
		name := c.Name()
		if name == "cd" && len(c.Args) > 1 && c.Depth == 0 {
			next := c.Args[1].Text
			if !filepath.IsAbs(next) {
				next = filepath.Join(dir, next)
			}
			dir = filepath.Clean(next)
			continue
		}
		if len(c.Args) < 2 && name != "patch" {
			continue
		}
		ops := operands(c.Args[1:])
		switch {
		case writers[name] == "last":
			if t, ok := targetDir(c.Args[1:]); ok {
				ops = []shell.Word{t}
			} else if len(ops) > 0 {
				ops = ops[len(ops)-1:]
			}
		case writers[name] == "all":
		case name == "patch":
			if hasWord(c.Args, "--dry-run") {
				continue
			}
			if len(ops) == 0 {
				ops = []shell.Word{{Text: at}}
			}
		case name == "sed" || name == "perl" || name == "ruby":
			if !inPlace(c.Args[1:]) {
				continue
			}
		case name == "dd":
			for _, a := range c.Args[1:] {
				if v, ok := strings.CutPrefix(a.Text, "of="); ok && inside(shell.Word{Text: v, Dynamic: a.Dynamic}, at) {
					return true
				}
			}
			continue
		case name == "git" && len(ops) > 0 && (ops[0].Text == "apply" || ops[0].Text == "am" || ops[0].Text == "restore" ||
			ops[0].Text == "mv" || ops[0].Text == "rm" || ops[0].Text == "checkout" && hasWord(c.Args, "--")):
			return true
		default:
			continue
		}
		for _, o := range ops {
			if inside(o, at) {
				return true
			}
		}
	}
	return false
}

// operands are the words that are not options.
func operands(ws []shell.Word) []shell.Word {
	var out []shell.Word
	for _, w := range ws {
		if !strings.HasPrefix(w.Text, "-") || w.Text == "-" {
			out = append(out, w)
		}
	}
	return out
}

// inPlace reports a sed, perl or ruby option that edits files in place
// (-i, -i.bak, --in-place, -pi, -ni).
func inPlace(ws []shell.Word) bool {
	for _, w := range ws {
		t := w.Text
		switch {
		case t == "--in-place" || strings.HasPrefix(t, "--in-place="):
			return true
		case strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && strings.ContainsRune(t[1:], 'i'):
			// -i, -i.bak, -pi, -ni; a script passed with -e is another
			// word, so an i in it is not read here.
			if i := strings.IndexRune(t[1:], 'i'); i >= 0 && !strings.ContainsAny(t[1:1+i], "e") {
				return true
			}
		}
	}
	return false
}

// targetDir is the folder of -t DIR or --target-directory=DIR.
func targetDir(ws []shell.Word) (shell.Word, bool) {
	for i, w := range ws {
		switch {
		case (w.Text == "-t" || w.Text == "--target-directory") && i+1 < len(ws):
			return ws[i+1], true
		case strings.HasPrefix(w.Text, "--target-directory="):
			return shell.Word{Text: strings.TrimPrefix(w.Text, "--target-directory="), Dynamic: w.Dynamic}, true
		}
	}
	return shell.Word{}, false
}

func hasWord(ws []shell.Word, s string) bool {
	for _, w := range ws {
		if w.Text == s {
			return true
		}
	}
	return false
}
