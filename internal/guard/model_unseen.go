package guard

import (
	"fmt"
	"path"
	"strings"

	"github.com/hookwright/hookwright/internal/shell"
)

// The model's "unseen" part: code runs that no one can read first. A
// script the same line downloads and runs, a makefile or build file it
// writes with text the guard cannot read and then runs, text computed by
// tr, sed, rev or an interpreter and piped into a shell, a command word
// built from an expansion the guard cannot resolve. What the guard can
// read is judged as the command it is; what it cannot asks.

// markUnseen remembers that the line writes file arg with content the
// guard cannot read (a download, the output of a program it cannot
// predict).
func (cc *cmdCtx) markUnseen(arg, how string) {
	p, ok := cc.ck.env.expand(arg, cc.cwd)
	if !ok {
		return
	}
	if kind := hookFile(p); kind != "" {
		cc.judgeLaterFile(p, kind, "", false)
	}
	if cc.ck.unseen == nil {
		cc.ck.unseen = map[string]string{}
	}
	if len(cc.ck.unseen) < 64 {
		cc.ck.unseen[p] = how
	}
}

// unseenFile returns how the line wrote file arg with content the guard
// cannot read, or "".
func (cc *cmdCtx) unseenFile(arg string) string {
	if len(cc.ck.unseen) == 0 || arg == "" {
		return ""
	}
	p, ok := cc.ck.env.expand(arg, cc.cwd)
	if !ok {
		return ""
	}
	return cc.ck.unseen[p]
}

// downloadNames returns the files a download writes under their remote
// name: curl -O / --remote-name, wget without -O (the URL's last path
// element).
func downloadNames(name string, args []shell.Word) []string {
	remote := name == "wget"
	var urls []string
	for k := 0; k < len(args); k++ {
		t := args[k].Text
		switch {
		case name == "curl" && (t == "-O" || t == "--remote-name" || t == "--remote-name-all" || shortCluster(t, 'O')):
			remote = true
		case name == "wget" && (t == "-O" || t == "--output-document" || strings.HasPrefix(t, "--output-document=") || strings.HasPrefix(t, "-O") && len(t) > 2):
			return nil // wget -O names the file (downloadTo reads it)
		case name == "wget" && (t == "-P" || t == "--directory-prefix" || t == "-o" || t == "-a" || t == "-U" || t == "--header" || t == "-e" || t == "-t" || t == "-T"),
			name == "curl" && curlValueOption(t):
			k++
		case strings.Contains(t, "://"):
			urls = append(urls, t)
		}
	}
	if !remote {
		return nil
	}
	var out []string
	for _, u := range urls {
		p := urlPath(u)
		if q := strings.IndexAny(p, "?#"); q >= 0 {
			p = p[:q]
		}
		if b := path.Base(p); b != "" && b != "/" && b != "." {
			out = append(out, b)
		}
	}
	return out
}

// recordUnseen remembers the files this command writes with content the
// guard cannot read: downloads (curl -o/-O, wget), and redirects of a
// program's output the parser cannot predict.
func (cc *cmdCtx) recordUnseen(name string) {
	c := cc.c
	if isDownload(name) {
		for _, f := range downloadNames(name, cc.args()) {
			cc.markUnseen(f, name+" downloads")
		}
	}
	if _, known := shell.Output(*c); known || c.HasStdin && (name == "cat" || name == "tee") {
		return
	}
	for _, r := range c.Redirects {
		if r.Op == ">" || r.Op == ">|" || r.Op == ">>" {
			how := name + " writes"
			if isDownload(name) {
				how = name + " downloads"
			}
			cc.markUnseen(r.Target.Text, how)
		}
	}
	if name == "tee" {
		if _, ok := cc.pipedText(); !ok {
			for _, a := range cc.args() {
				if !strings.HasPrefix(a.Text, "-") {
					cc.markUnseen(a.Text, "tee writes what it is piped")
				}
			}
		}
	}
	if name == "cp" || name == "mv" || name == "install" {
		// a copy of a file this line wrote unseen is unseen too
		var pos []string
		for _, a := range cc.args() {
			if !strings.HasPrefix(a.Text, "-") {
				pos = append(pos, a.Text)
			}
		}
		if len(pos) == 2 {
			if how := cc.unseenFile(pos[0]); how != "" {
				cc.markUnseen(pos[1], how)
			}
			if t, ok := cc.writtenText(pos[0]); ok {
				if p, ok := cc.ck.env.expand(pos[1], cc.cwd); ok && cc.ck.written != nil {
					cc.ck.written[p] = t
				}
			}
		}
	}
}

// runnerFile returns the build file a runner reads, and whether the
// runner reads it from standard input or a process substitution ("-").
// make reads -f FILE or Makefile, just -f/--justfile FILE or justfile.
func runnerFile(name string, args []shell.Word) (file string, defaults []string) {
	switch name {
	case "make", "gmake", "bmake":
		if v, ok := optValue(args, "-f", "--file", "--makefile"); ok {
			return v, nil
		}
		for _, a := range args {
			if strings.HasPrefix(a.Text, "-f") && len(a.Text) > 2 && !strings.HasPrefix(a.Text, "--") {
				return a.Text[2:], nil
			}
		}
		return "", []string{"GNUmakefile", "makefile", "Makefile"}
	case "just":
		if v, ok := optValue(args, "-f", "--justfile"); ok {
			return v, nil
		}
		return "", []string{"justfile", "Justfile", ".justfile"}
	case "task":
		if v, ok := optValue(args, "-t", "--taskfile"); ok {
			return v, nil
		}
		return "", []string{"Taskfile.yml", "Taskfile.yaml", "taskfile.yml"}
	}
	return "", nil
}

// buildRunners are programs that run code from a build file of their
// own: a line that changes the file and runs them runs that code.
func buildFiles(name string) []string {
	switch name {
	case "gradle", "gradlew":
		return []string{"build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts"}
	case "mvn", "mvnw":
		return []string{"pom.xml"}
	case "rake":
		return []string{"Rakefile", "rakefile"}
	case "npm", "pnpm", "yarn", "bun":
		return []string{"package.json"}
	case "cargo":
		return []string{"build.rs", "Cargo.toml"}
	case "nox":
		return []string{"noxfile.py"}
	case "invoke", "inv":
		return []string{"tasks.py"}
	case "grunt":
		return []string{"Gruntfile.js"}
	case "gulp":
		return []string{"gulpfile.js"}
	case "cmake":
		return []string{"CMakeLists.txt"}
	}
	return nil
}

// recipes returns the recipe lines of a makefile or justfile (lines that
// start with a tab, or with four spaces in a justfile), without make's
// @, - and + prefixes.
func recipes(text string, just bool) []string {
	var out []string
	if !just {
		// make runs $(shell cmd) wherever it reads it: in a variable, a
		// target, a prerequisite
		out = append(out, makeShellCalls(text)...)
	}
	for _, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(line, "\t"):
		case just && strings.HasPrefix(line, "    "):
		case !just && inlineRecipe(line) != "":
			// target: prerequisites ; recipe
			line = "\t" + inlineRecipe(line)
		default:
			continue
		}
		l := strings.TrimLeft(strings.TrimSpace(line), "@-+")
		if l != "" && len(out) < 512 {
			out = append(out, l)
		}
	}
	return out
}

// inlineRecipe returns the recipe a make rule line gives after ';'
// (all: ; rm -rf x), or "".
func inlineRecipe(line string) string {
	colon := strings.IndexByte(line, ':')
	if colon <= 0 || strings.HasPrefix(line[colon:], ":=") || strings.HasPrefix(line[colon:], "::=") {
		return ""
	}
	head := line[:colon]
	if strings.ContainsAny(head, "=#") {
		return "" // a variable (x = a:b) or a comment
	}
	_, recipe, ok := strings.Cut(line[colon:], ";")
	if !ok {
		return ""
	}
	return strings.TrimSpace(recipe)
}

// makeShellCalls returns the commands of make's $(shell …) and ${shell …}
// calls in a makefile's text, parentheses balanced.
func makeShellCalls(text string) []string {
	var out []string
	for _, open := range []string{"$(shell ", "${shell "} {
		closer := byte(')')
		if open[1] == '{' {
			closer = '}'
		}
		rest := text
		for len(out) < 64 {
			i := strings.Index(rest, open)
			if i < 0 {
				break
			}
			rest = rest[i+len(open):]
			depth, end := 0, len(rest)
			for k := 0; k < len(rest); k++ {
				switch rest[k] {
				case open[1]:
					depth++
				case closer:
					if depth == 0 {
						end = k
						k = len(rest)
						continue
					}
					depth--
				}
			}
			if cmd := strings.TrimSpace(rest[:end]); cmd != "" {
				out = append(out, cmd)
			}
			rest = rest[end:]
		}
	}
	return out
}

// runUnseen judges what a command runs from a file or a pipe the same
// line wrote: a script (sh x.sh, ./x.sh, python x.py) downloaded or
// written unseen asks; a makefile or justfile the line wrote is judged by
// its recipes, or asks when its text is unknown; a build file the line
// changes before its runner runs asks.
func (cc *cmdCtx) runUnseen(name string) {
	if file, _ := cc.scriptRun(name); file != "" {
		if how := cc.unseenFile(file); how != "" {
			cc.modelFind("unseen", fmt.Sprintf("%s %s, and this line runs it: code no one has read", how, file))
		}
	}
	args := cc.args()
	if file, defaults := runnerFile(name, args); file != "" || defaults != nil {
		just := name == "just"
		judge := func(text, via string) {
			if name == "task" {
				for _, line := range strings.Split(text, "\n") {
					l := strings.TrimSpace(line)
					if v, ok := strings.CutPrefix(l, "- "); ok && !strings.Contains(v, ": ") {
						cc.nested(strings.Trim(v, `"'`), via)
					}
				}
				return
			}
			for _, r := range recipes(text, just) {
				cc.nested(r, via)
			}
		}
		switch {
		case file == "-" || file == "/dev/stdin":
			if text, ok := cc.pipedText(); ok {
				judge(text, name+" -f - (piped)")
			} else if cc.c.HasStdin {
				judge(cc.c.Stdin, name+" -f - (heredoc)")
			} else {
				cc.modelFind("unseen", fmt.Sprintf("`%s -f -` runs recipes from a pipe the guard cannot read", name))
			}
		case file != "" && cc.procSub(file):
			cc.modelFind("unseen", fmt.Sprintf("`%s` runs recipes from a process substitution the guard cannot read", name))
		case file != "":
			if text, ok := cc.writtenText(file); ok {
				judge(text, name+" "+file)
			} else if how := cc.unseenFile(file); how != "" {
				cc.modelFind("unseen", fmt.Sprintf("%s %s, and `%s` runs its recipes: code no one has read", how, file, name))
			}
		default:
			for _, d := range defaults {
				if text, ok := cc.writtenText(d); ok {
					judge(text, name+" "+d)
				} else if how := cc.unseenFile(d); how != "" {
					cc.modelFind("unseen", fmt.Sprintf("%s %s, and `%s` runs its recipes: code no one has read", how, d, name))
				}
			}
		}
	}
	for _, f := range buildFiles(name) {
		how := cc.unseenFile(f)
		if _, ok := cc.writtenText(f); ok && f != "package.json" {
			how = "this line changes"
		}
		if how != "" {
			cc.modelFind("unseen", fmt.Sprintf("%s %s, and `%s` runs the code it holds: the guard cannot read what it does", how, f, name))
			return
		}
	}
	if name == "npm" || name == "pnpm" || name == "yarn" || name == "bun" {
		cc.runPackageScript(name, args)
	}
}

// runPackageScript judges npm run X (npm test, yarn X) when this line set
// script X: its value was judged when set; nothing more to do then. A
// script set to something the guard could not read was asked about then.
func (cc *cmdCtx) runPackageScript(name string, args []shell.Word) {}

// procSub reports whether a word is a process substitution (<(…)).
func (cc *cmdCtx) procSub(w string) bool {
	return strings.HasPrefix(w, "<(") || strings.HasPrefix(w, "/dev/fd/")
}

// transform reports whether a command computes its output from its input
// or its code (tr, sed, rev, an interpreter's print): text a shell then
// runs has been hidden from the reader.
func transform(c *shell.Command) bool {
	n := c.Name()
	switch n {
	case "tr", "sed", "gsed", "awk", "gawk", "mawk", "rev", "cut", "iconv", "zcat", "gunzip", "gzcat", "bzcat", "xzcat",
		"zstdcat", "unxz", "uncompress", "caesar", "rot13", "recode", "basenc", "xxd", "od":
		return true
	case "gzip", "bzip2", "xz", "zstd", "lz4":
		for _, a := range c.Args[1:] {
			if a.Text == "-d" || a.Text == "--decompress" || shortCluster(a.Text, 'd') {
				return true
			}
		}
	}
	return interpreter(n) != "" || scriptLang(n) != ""
}

// pipedIntoShell judges a shell or eval that runs text the guard cannot
// read: sh reading a pipe from a transform or any program whose output is
// unknown; sh -c, eval, source or bash <(…) of a substitution whose
// pipeline ends in a transform. Downloads and decoders are blocked by
// download-exec and obfuscated-exec.
func (cc *cmdCtx) pipedIntoShell(name string) {
	c := cc.c
	// X | sh
	if (shell.IsShell(name) || name == "source" || name == ".") && c.PipeFrom >= 0 && c.PipeFrom < len(cc.all) && !shellHasScript(c) {
		src := &cc.all[c.PipeFrom]
		if _, known := shell.Output(*src); !known && !isDownload(src.Name()) && !isDecoder(src) {
			cc.modelFind("unseen", fmt.Sprintf("`%s | %s` runs text the guard cannot read (what %s prints)", src.Name(), name, src.Name()))
		}
	}
	// sh -c "$(X)", eval "$(X)", source <(X), bash <(X): the substitution's
	// last command is a transform
	if c.Via != "$(…)" && c.Via != "`…`" && c.Via != "<(…)" || c.Parent < 0 || c.Parent >= len(cc.all) {
		return
	}
	if c.Via == "<(…)" && cc.pipeNext(cc.i) < 0 {
		// source <(echo 'cmd'), bash <(printf …): what it prints runs
		if p := cc.all[c.Parent].Name(); shell.IsShell(p) || p == "source" || p == "." {
			if text, ok := shell.Output(*c); ok {
				cc.nested(text, p+" <(…)")
			}
		}
	}
	if cc.pipeNext(cc.i) >= 0 || !transform(c) || isDecoder(c) {
		return // not the end of the pipeline; decoders are judged as such
	}
	if p := cc.all[c.Parent].Name(); shell.IsShell(p) || p == "eval" || p == "source" || p == "." {
		cc.modelFind("unseen", fmt.Sprintf("`%s` runs text that %s computes: the guard cannot read the command", p, name))
	}
}

// shellHasScript reports whether a shell command runs a script of its own
// (-c STRING or a file operand) rather than its standard input.
func shellHasScript(c *shell.Command) bool {
	for _, a := range c.Args[1:] {
		t := a.Text
		if t == "-s" {
			return false
		}
		if t == "-c" || len(t) > 1 && t[0] == '-' && t[1] != '-' && strings.Contains(t, "c") {
			return true
		}
		if !strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "+") {
			return true
		}
	}
	return false
}

// unresolvedProgram asks when the program word is an expansion the guard
// cannot resolve in a line that changed how words split (IFS) or set
// positional parameters, or that holds a value computed by a transform.
func (cc *cmdCtx) unresolvedProgram() {
	c := cc.c
	if len(c.Args) == 0 || !c.Args[0].Dynamic || !strings.ContainsAny(c.Args[0].Text, "$`") {
		return
	}
	t := c.Args[0].Text
	switch {
	case cc.ck.env.ifsSet:
		cc.modelFind("unseen", fmt.Sprintf("the command word %s is split by a changed IFS into words the guard cannot read", t))
	case cc.ck.env.positional && (strings.Contains(t, "$@") || strings.Contains(t, "$*") || strings.Contains(t, "$1")):
		cc.modelFind("unseen", fmt.Sprintf("the command word %s runs positional parameters the line set: the guard cannot read the command", t))
	case cc.ck.env.arraysDropped:
		cc.modelFind("unseen", fmt.Sprintf("the command word %s may run an array too large for the guard to read", t))
	case cc.ck.env.taintedUse(t):
		cc.modelFind("unseen", fmt.Sprintf("the command word %s holds text computed by a transform (tr, sed, rev, …): the guard cannot read the command", t))
	}
}
