package guard

import (
	"fmt"
	"path"
	"strings"
	"sync"

	"github.com/hookwright/hookwright/internal/shell"
)

// command checks one Bash command line.
func (ck *check) command(cmd string) {
	if len(cmd) > MaxCommand {
		ck.fault(fmt.Sprintf("the command is %d bytes, over the guard's cap of %d", len(cmd), MaxCommand))
		return
	}
	if strings.IndexByte(cmd, 0) >= 0 {
		// bash ignores NUL bytes in its input (r<NUL>m -rf / runs rm): the
		// guard reads the command as bash does, before every rule
		cmd = strings.ReplaceAll(cmd, "\x00", "")
	}
	if d, ok := ck.g.denyMatch(cmd); ok {
		ck.find("deny-list", -1, "", fmt.Sprintf("the command contains %q, which this project's guard.deny lists.", d))
	}
	if isForkBomb(cmd) {
		ck.find("fork-bomb", -1, "", "this is a fork bomb: it starts processes until the machine stops.")
	}
	if sdkLike(cmd) {
		// gateway.customer.delete('c_1'): an SDK call given as the
		// command, which no shell reads as one
		cc := cmdCtx{ck: ck, c: &shell.Command{Parent: -1, PipeFrom: -1}, idx: -1}
		cc.sdkCommand(cmd)
	}
	if !ck.g.needsParse(cmd) {
		ck.rep.Prefilter = "names no guarded program or path: not parsed"
		return
	}
	cmds, err := shell.Parse(cmd)
	ck.commands(cmds, 0)
	if err != nil {
		ck.rep.ParseError = err.Error()
		guarded := false
		one := make([]shell.Command, 1)
		fallbackWords(cmd, func(part string) bool { return !ck.g.needsParse(part) }, func(c shell.Command) {
			guarded = guarded || ck.g.names(c.Name())
			one[0] = c
			ck.commands(one, 0)
		})
		if guarded {
			ck.find("unparsed", -1, "", "the guard cannot read this command ("+err.Error()+") and it names a guarded program; write it more simply.")
		}
	}
}

// maxSteps bounds the commands a report lists; the rest are checked and
// counted.
const maxSteps = 2000

// commands checks parsed commands (their Parent and PipeFrom index cmds).
func (ck *check) commands(cmds []shell.Command, depth int) {
	cwd := ck.env.cwd
	var next []int
	for i := range cmds {
		c := ck.known(&cmds[i])
		idx := -1
		if len(ck.rep.Commands) < maxSteps {
			idx = len(ck.rep.Commands)
			ck.rep.Commands = append(ck.rep.Commands, Step{Words: c.Strings(), Via: c.Via, Depth: c.Depth + depth, Wrappers: c.Wrappers, Stdin: c.HasStdin})
		} else {
			ck.rep.MoreCommands++
		}
		if len(c.Args) == 0 {
			ck.assign(substituted(cmds, i, c.Assigns))
		}
		cc := cmdCtx{ck: ck, c: c, all: cmds, next: &next, i: i, idx: idx, cwd: cwd}
		cc.check()
		if cc.cwd != cwd {
			cwd = cc.cwd
		}
	}
}

// substituted returns the assignments of command i with a value that is
// one command substitution of a command whose output the parser knows
// (x=$(echo rm -rf ~), x=`printf …`) replaced by that output, trailing new
// lines removed as the shell removes them.
func substituted(cmds []shell.Command, i int, assigns []string) []string {
	var out []string
	for _, a := range assigns {
		name, val, _ := strings.Cut(a, "=")
		if (strings.HasPrefix(val, "$(") && strings.HasSuffix(val, ")") && !strings.HasPrefix(val, "$((")) || (strings.HasPrefix(val, "`") && strings.HasSuffix(val, "`") && len(val) > 1) {
			var inner []int
			for k := range cmds {
				if cmds[k].Parent == i && (cmds[k].Via == "$(…)" || cmds[k].Via == "`…`") {
					inner = append(inner, k)
				}
			}
			if len(inner) == 1 && cmds[inner[0]].PipeFrom < 0 {
				if text, ok := shell.Output(cmds[inner[0]]); ok {
					a = name + "=" + strings.TrimRight(text, "\n")
				}
			}
		}
		out = append(out, a)
	}
	return out
}

// readInto assigns what read gets from a here-string or a pipe the parser
// knows (read -r a b <<< 'rm -rf'): its first line split at blanks, the
// last name taking the rest; with -a, an array.
func (cc *cmdCtx) readInto() {
	args := cc.args()
	text, ok := "", false
	if cc.c.HasStdin {
		text, ok = cc.c.Stdin, true
	} else {
		text, ok = cc.pipedText()
	}
	if !ok {
		return
	}
	line, _, _ := strings.Cut(text, "\n")
	var names []string
	array := ""
	for k := 0; k < len(args); k++ {
		t := args[k].Text
		switch {
		case t == "-a":
			array = wordAt(args, k+1)
			k++
		case t == "-d" || t == "-n" || t == "-N" || t == "-p" || t == "-t" || t == "-u" || t == "-i":
			k++
		case strings.HasPrefix(t, "-"):
		default:
			names = append(names, t)
		}
	}
	fields := strings.Fields(line)
	if array != "" {
		quoted := make([]string, len(fields))
		for j, f := range fields {
			quoted[j] = shell.Quote(f)
		}
		cc.ck.assign([]string{array + "=(" + strings.Join(quoted, " ") + ")"})
		return
	}
	if len(names) == 0 {
		names = []string{"REPLY"}
	}
	var set []string
	for j, n := range names {
		v := ""
		switch {
		case j == len(names)-1 && j < len(fields):
			// the last name takes the rest of the line
			rest := strings.TrimLeft(line, " \t")
			for f := 0; f < j; f++ {
				rest = strings.TrimLeft(strings.TrimPrefix(rest, fields[f]), " \t")
			}
			v = strings.TrimRight(rest, " \t")
		case j < len(fields):
			v = fields[j]
		}
		set = append(set, n+"="+v)
	}
	cc.ck.assign(set)
}

// seen reports whether the same read was judged before in this check, and
// remembers it (a long command repeats its words; each is judged once).
func (ck *check) seen(arg, cwd string, meta bool) bool {
	key := arg + "\x00" + cwd
	if meta {
		key += "\x00m"
	}
	if ck.judged == nil {
		ck.judged = map[string]bool{}
	}
	if ck.judged[key] {
		return true
	}
	if len(ck.judged) < 1<<16 {
		ck.judged[key] = true
	}
	return false
}

// assign records literal assignments; one whose value is not literal
// makes the name unknown again.
func (ck *check) assign(words []string) {
	for _, a := range words {
		name, val, _ := strings.Cut(a, "=")
		if strings.HasPrefix(val, "(") && strings.HasSuffix(val, ")") {
			// an array, as the shell package records it: x=('rm' '-rf')
			appendTo := strings.HasSuffix(name, "+")
			name = strings.TrimSuffix(name, "+")
			if ck.env.arrays == nil {
				ck.env.arrays = map[string]string{}
			}
			words := val[1 : len(val)-1]
			if appendTo {
				words = strings.TrimSpace(ck.env.arrays[name] + " " + words)
			}
			if len(ck.env.arrays) < 64 && len(words) < 1<<16 {
				ck.env.arrays[name] = words
			} else {
				delete(ck.env.arrays, name)
				ck.env.arraysDropped = true
			}
			delete(ck.env.vars, name)
			continue
		}
		if strings.HasSuffix(name, "+") {
			name = strings.TrimSuffix(name, "+")
			val = "$" + name + val
		}
		if ck.env.vars == nil {
			ck.env.vars = map[string]string{}
		}
		if strings.HasPrefix(val, "$(mktemp") || strings.HasPrefix(val, "`mktemp") {
			val = firstOr(ck.env.temps, "/tmp") + "/mktemp.XXXXXX"
		}
		// x=~ and x=~/dir: the shell expands the tilde in an assignment,
		// and $x later is that path, not a file named "~". (A quoted '~'
		// reads the same here: the stricter reading.)
		if val == "~" || strings.HasPrefix(val, "~/") {
			if ck.env.home == "" {
				delete(ck.env.vars, name)
				continue
			}
			val = ck.env.home + val[1:]
		}
		if name == "IFS" {
			// c="rm,-rf,~"; IFS=,; $c: the shell splits on the new IFS
			ck.env.ifsSet = true
			ck.env.ifsKnown = !strings.ContainsAny(val, "$`")
			ck.env.ifs = val
			continue
		}
		if strings.ContainsAny(val, "$`") && computedBy(val) {
			if ck.env.tainted == nil {
				ck.env.tainted = map[string]bool{}
			}
			ck.env.tainted[name] = true
		}
		if strings.ContainsAny(val, "$`") || len(ck.env.vars) > 256 {
			delete(ck.env.vars, name)
			continue
		}
		ck.env.vars[name] = val
	}
}

// known returns c with each word that holds only variables of known
// literal value ($a, ${a}, "$a/x") and substitutions of echo or printf
// ($(echo rm)) replaced by what the shell would make of it: a=rm; b=-rf;
// $a $b ~ is read as rm -rf ~ (npx rimraf is peeled to rimraf by the
// parser). An unquoted value with white space splits into words. c itself
// comes back when no word changes.
func (ck *check) known(c *shell.Command) *shell.Command {
	if len(ck.env.vars) == 0 && !substitutes(c) {
		return c
	}
	var out []shell.Word
	for i, w := range c.Args {
		v, ok := "", false
		if w.Dynamic && strings.ContainsAny(w.Text, "$`") {
			v, ok = ck.env.substitute(w.Text)
		}
		if !ok {
			if out != nil {
				out = append(out, w)
			}
			continue
		}
		if out == nil {
			out = append([]shell.Word(nil), c.Args[:i]...)
		}
		if w.Quoted {
			out = append(out, shell.Word{Text: v, Quoted: true})
			continue
		}
		for _, f := range ck.env.split(v) {
			out = append(out, shell.Word{Text: f, Glob: hasGlob(f)})
		}
	}
	if out == nil {
		return c
	}
	cp := *c
	cp.Args = out
	return &cp
}

// split splits an unquoted expansion's value into words as the shell
// does: at white space, or at the characters of a literal IFS the line
// set (at none when it set it empty).
func (e *env) split(v string) []string {
	if !e.ifsSet || !e.ifsKnown {
		return strings.Fields(v)
	}
	if e.ifs == "" {
		return []string{v}
	}
	return strings.FieldsFunc(v, func(r rune) bool { return strings.ContainsRune(e.ifs, r) })
}

// computedBy reports whether an assignment's value holds a substitution
// whose text a transform, a decoder or a download computes
// (c=$(echo ez | tr a-z n-za-m)).
func computedBy(val string) bool {
	for i := 0; i < len(val); i++ {
		inner := ""
		switch {
		case strings.HasPrefix(val[i:], "$(") && !strings.HasPrefix(val[i:], "$(("):
			if j := closingParen(val, i+2); j >= 0 {
				inner = val[i+2 : j]
			}
		case val[i] == '`':
			if j := strings.IndexByte(val[i+1:], '`'); j >= 0 {
				inner = val[i+1 : i+1+j]
			}
		}
		if inner == "" {
			continue
		}
		cmds, _ := shell.Parse(inner)
		for k := range cmds {
			if transform(&cmds[k]) || isDecoder(&cmds[k]) || isDownload(cmds[k].Name()) {
				return true
			}
		}
	}
	return false
}

// substitutes reports whether a word of c holds a command substitution.
func substitutes(c *shell.Command) bool {
	for _, w := range c.Args {
		if w.Dynamic && (strings.Contains(w.Text, "$(") || strings.Contains(w.Text, "`")) {
			return true
		}
	}
	return false
}

// cmdCtx is one simple command being checked.
type cmdCtx struct {
	ck  *check
	c   *shell.Command
	all []shell.Command
	// next[j] is the command that reads all[j]'s output through a pipe,
	// or -1 (built lazily, once per slice).
	next *[]int
	i    int // index in all
	idx  int // index in the report
	cwd  string
	// noSDK: the code being scanned is a database shell's, whose calls
	// the database pack judges (not the model's sdk part).
	noSDK bool
}

// pipeNext returns the command that reads all[j]'s output, or -1.
func (cc *cmdCtx) pipeNext(j int) int {
	if *cc.next == nil {
		n := make([]int, len(cc.all))
		for k := range n {
			n[k] = -1
		}
		for k := len(cc.all) - 1; k >= 0; k-- {
			if f := cc.all[k].PipeFrom; f >= 0 && f < len(n) {
				n[f] = k
			}
		}
		*cc.next = n
	}
	if j < 0 || j >= len(*cc.next) {
		return -1
	}
	return (*cc.next)[j]
}

func (cc *cmdCtx) find(rule, path, reason string) { cc.ck.find(rule, cc.idx, path, reason) }

func (cc *cmdCtx) note(arg, resolved, use, class string) {
	if cc.idx < 0 {
		return
	}
	s := &cc.ck.rep.Commands[cc.idx]
	if len(s.Paths) < 32 {
		s.Paths = append(s.Paths, Path{Arg: arg, Resolved: resolved, Use: use, Class: class})
	}
}

// args returns the words after the program name.
func (cc *cmdCtx) args() []shell.Word {
	if len(cc.c.Args) < 2 {
		return nil
	}
	return cc.c.Args[1:]
}

func (cc *cmdCtx) check() {
	c := cc.c
	name := c.Name()
	cc.redirects()
	cc.projectCommands()
	if name == "" {
		cc.packs() // > ~/.bash_history
		return
	}
	if v, ok := cc.ck.env.aliases[c.Args[0].Text]; ok && !c.Args[0].Quoted && cc.ck.aliasDepth < 8 {
		// alias g=git; g push -f: the alias's text, then the words
		var b strings.Builder
		b.WriteString(v)
		for _, a := range c.Args[1:] {
			b.WriteString(" " + shell.Quote(a.Text))
		}
		cc.ck.aliasDepth++
		cc.nested(b.String(), "alias "+c.Args[0].Text)
		cc.ck.aliasDepth--
	}
	if c.Args[0].Dynamic {
		if text, ok := cc.ck.env.arrayCommand(c.Args); ok {
			// x=(rm -rf /); "${x[@]}": the array's words run
			cc.nested(text, "array")
		}
		// The program is not known ($X -rf /): judge the words as rm's.
		cc.rm(true)
	}
	switch {
	case name == "cd" || name == "pushd":
		cc.cd()
	case name == "git":
		cc.git()
	case name == "rm":
		cc.rm(false)
	case name == "find":
		cc.find_()
	case name == "rimraf":
		cc.rimraf(cc.args())
	case name == "set" && wordAt(cc.args(), 0) == "--":
		cc.ck.env.positional = true
	case name == "read":
		cc.readInto()
	case name == "printf" && wordAt(cc.args(), 0) == "-v" && len(cc.args()) > 2:
		// printf -v x FORMAT ARGS: x holds what printf would print
		a := cc.args()
		if text, ok := shell.Output(shell.Command{Args: append([]shell.Word{{Text: "printf"}}, a[2:]...)}); ok {
			cc.ck.assign([]string{a[1].Text + "=" + text})
		}
	case name == "alias":
		// An alias runs later under a name no rule knows: judge what it
		// runs now.
		for _, a := range cc.args() {
			if n, v, ok := strings.Cut(a.Text, "="); ok {
				cc.nested(v, "alias")
				// and later words of the line that use it run it too
				// (Claude Code's shell expands aliases)
				if e := &cc.ck.env; len(e.aliases) < 64 && len(v) < 1<<12 {
					if e.aliases == nil {
						e.aliases = map[string]string{}
					}
					e.aliases[n] = v
				}
			}
		}
	case name == "chmod" || name == "chown" || name == "chgrp" || name == "chattr" || name == "setfacl":
		cc.chmod()
	case strings.HasPrefix(name, "mkfs") || name == "wipefs" || name == "mke2fs" || name == "newfs":
		cc.mkfs(name)
	case name == "dd":
		cc.dd()
	case name == "shred":
		for _, a := range cc.args() {
			if strings.HasPrefix(a.Text, "/dev/") {
				cc.find("disk-overwrite", a.Text, "shred of a device overwrites it.")
			}
		}
	case name == "crontab":
		cc.crontab()
	case name == "claude" || name == "hookgen":
		cc.selfCLI(name)
	case name == "hwctl":
		cc.hwctlLoop()
		cc.hwctlWorkflow()
	case name == "gpg" || name == "gpg2":
		for _, a := range cc.args() {
			if strings.HasPrefix(a.Text, "--export-secret") {
				cc.find("secret-read", "", "gpg "+a.Text+" prints private keys.")
			}
		}
	case name == "security":
		if args := cc.args(); len(args) > 0 && strings.Contains(args[0].Text, "find-") && strings.Contains(args[0].Text, "password") {
			cc.find("secret-read", "", "security "+args[0].Text+" reads the keychain.")
		}
	}
	cc.rawSocket(name)
	cc.shellEscapes(name)
	cc.downloadExec()
	cc.pipedIntoShell(name)
	cc.unresolvedProgram()
	cc.recordWrites()
	cc.recordUnseen(name)
	cc.runScript(name)
	cc.runUnseen(name)
	cc.packs()
	cc.packageScripts(name, cc.args())
	cc.files(name)
	if lang := interpreter(name); lang != "" {
		cc.inline(lang)
	} else if lang := scriptLang(name); lang != "" {
		cc.script(lang)
	}
}

// cd follows the current folder, so later relative paths resolve where
// the shell would.
func (cc *cmdCtx) cd() {
	args := cc.args()
	for len(args) > 0 && strings.HasPrefix(args[0].Text, "-") && args[0].Text != "-" {
		args = args[1:]
	}
	if len(args) == 0 {
		cc.cwd = cc.ck.env.home
		return
	}
	p, ok := cc.ck.env.expand(args[0].Text, cc.cwd)
	if !ok || args[0].Text == "-" {
		cc.cwd = ""
		return
	}
	cc.cwd = p
}

// projectCommands applies the config's command rules.
func (cc *cmdCtx) projectCommands() {
	for _, r := range cc.ck.g.Config.Commands {
		want := strings.Fields(r.Match)
		if len(want) == 0 || len(cc.c.Args) < len(want) {
			continue
		}
		match := shell.ProgramName(want[0]) == cc.c.Name()
		for k := 1; match && k < len(want); k++ {
			match = cc.c.Args[k].Text == want[k]
		}
		if !match {
			continue
		}
		sev, _ := parseSeverity(r.Severity)
		reason := r.Reason
		if reason == "" {
			reason = fmt.Sprintf("this project's config does not let the model run %q.", r.Match)
		}
		cc.ck.findSev("project-command", sev, cc.idx, reason)
	}
}

// redirects checks where the command's redirections write and read.
func (cc *cmdCtx) redirects() {
	for _, r := range cc.c.Redirects {
		t := r.Target.Text
		switch r.Op {
		case ">", ">>", ">|", "&>", "&>>", "<>":
			if isDiskDevice(t) {
				cc.find("disk-overwrite", t, "writing onto "+t+" overwrites the disk.")
				continue
			}
			cc.write(t, "redirect "+r.Op)
		case "<":
			cc.read(t, false)
		}
	}
}

func isDiskDevice(p string) bool {
	if !strings.HasPrefix(p, "/dev/") {
		return false
	}
	for _, d := range []string{"sd", "hd", "vd", "xvd", "nvme", "mmcblk", "disk", "rdisk", "md", "dm-", "loop", "mapper/"} {
		if strings.HasPrefix(p[5:], d) {
			return true
		}
	}
	return false
}

// write judges a path the command writes to (Bash spellings: redirects,
// tee, cp, sed -i, …). Writes that persist and writes to the guard's own
// ground are blocked; an overwrite of a single file outside the project
// is judged by outsideFile (an append, or a path named in interpreter
// code, is not).
func (cc *cmdCtx) write(arg, how string) {
	if arg == "" {
		return
	}
	p, ok := cc.ck.env.expand(arg, cc.cwd)
	if !ok {
		if cc.unknownGround(arg) && !strings.HasSuffix(how, " code") {
			cc.note(arg, "", "write", "unknown")
			cc.find("guard-ground", "", fmt.Sprintf("%s writes to %s, which the guard cannot resolve and which names hookwright's or Claude Code's own files; the model may not change them.", how, arg))
		}
		return
	}
	real := cc.ck.env.real(p)
	class := worst(cc.ck.env.classify(p), cc.ck.env.classify(real))
	if class == "" && hasGlob(p) && cc.ck.env.isGround(p, false) {
		class = classGround
	}
	cc.note(arg, real, "write", class)
	switch class {
	case classGround:
		cc.ck.groundFinding(cc.idx, how+" writes to", real)
	case classSecret:
		if path.Base(real) == ".envrc" {
			// direnv runs it at the next cd: code that runs later
			cc.find("persistence-write", real, fmt.Sprintf("%s writes to %s, which direnv runs at the next cd into the folder; the user must make that change.", how, real))
		}
	case "":
		switch {
		case strings.HasSuffix(how, " code"):
			// a path named in inline code may be read, not written
		case strings.Contains(how, ">>") || strings.HasSuffix(how, " -a"):
			if systemPath(real) {
				cc.outsideFile(real, how+" appends to")
			}
		default:
			cc.outsideFile(real, how+" overwrites")
		}
	case classPersistence:
		cc.find("persistence-write", real, fmt.Sprintf("%s writes to %s, which runs code or grants access later; the user must make that change.", how, real))
	case classGitHooks:
		cc.find("git-hooks-write", real, fmt.Sprintf("%s writes to %s: a git hook or git config runs code at the next git command.", how, real))
	case classGitInternals:
		if i := gitDir(real); i >= 0 {
			rest := real[i+len("/.git"):]
			if strings.HasPrefix(rest, "/refs/") || rest == "/HEAD" || rest == "/packed-refs" || rest == "/index" || strings.HasPrefix(rest, "/objects/") {
				// echo <sha> > .git/refs/heads/main moves the branch, past
				// every rule git's own commands meet
				cc.find("git-internals-write", real, fmt.Sprintf("%s writes to %s, git's own record of the branches and history; change them with git commands.", how, real))
			}
		}
	}
}

// worst returns the more serious of two path classes.
func worst(a, b string) string {
	rank := map[string]int{"": 0, classGitInternals: 1, classGitHooks: 2, classPersistence: 3, classGround: 4, classSecretDir: 5, classSecret: 6}
	if rank[b] > rank[a] {
		return b
	}
	return a
}

// read judges a path the command reads; meta says it reads only metadata.
func (cc *cmdCtx) read(arg string, meta bool) {
	if arg == "" || strings.HasPrefix(arg, "-") && arg != "-" {
		return
	}
	if cc.ck.seen(arg, cc.cwd, meta) {
		return // judged already; its finding, if any, is recorded
	}
	p, ok := cc.ck.env.expand(arg, cc.cwd)
	if !ok {
		return
	}
	class := cc.ck.env.classify(p)
	real := p
	if class != classSecret && class != classSecretDir {
		real = cc.ck.env.real(p)
		class = worst(class, cc.ck.env.classify(real))
	}
	if class != classSecret && class != classSecretDir {
		if hasGlob(arg) && cc.ck.env.globNamesSecret(p) {
			class = classSecret
		} else {
			return
		}
	}
	use := "read"
	if meta {
		use = "metadata"
	}
	cc.note(arg, real, use, class)
	if meta {
		cc.find("secret-metadata", real, fmt.Sprintf("%s is a %s; at this guard level even listing or testing it is blocked.", real, class))
		return
	}
	cc.find("secret-read", real, fmt.Sprintf("%s is a %s (%s); hookwright does not let the model read, copy or send it. Ask the user for the one value you need.", real, class, cc.c.Name()))
}

func hasGlob(s string) bool { return strings.ContainsAny(s, "*?[") }

// metaCommands read only names and metadata, or use a path without
// printing it.
func isMetaCommand(s string) bool {
	switch s {
	case "ls", "stat", "test", "[", "[[", "file", "du", "wc", "touch", "chmod", "chown", "chgrp", "realpath",
		"readlink", "basename", "dirname", "echo", "printf", "cd", "pushd", "mkdir", "tree", "exa", "eza", "lsd",
		"lsattr", "getfacl", "namei", "md5sum", "sha1sum", "sha256sum", "sha512sum", "shasum", "cksum", "b2sum",
		"rm", "unlink", "rmdir", "which", "type", "ln", "find", "fd", "locate", "true", ":", "export":
		return true
	}
	return false
}

// keyUse are programs that take a secret path to use it (ssh -i key, a
// kubeconfig), not to print it.
func isKeyUse(s string) bool {
	switch s {
	case "ssh", "ssh-add", "ssh-keygen", "ssh-copy-id", "git", "aws", "gcloud", "az", "kubectl", "helm", "docker",
		"terraform", "npm", "pnpm", "yarn", "pip", "twine", "gh", "source", ".", "direnv", "dotenv", "op", "sops",
		"ansible", "ansible-playbook":
		return true
	}
	return false
}

// files checks every path-like word of the command for secrets and
// persistence, by how the program uses it.
func (cc *cmdCtx) files(name string) {
	args := cc.args()
	switch name {
	case "tee":
		how := "tee"
		for _, a := range args {
			if a.Text == "-a" || a.Text == "--append" || len(a.Text) > 1 && a.Text[0] == '-' && a.Text[1] != '-' && strings.Contains(a.Text, "a") {
				how = "tee -a"
			}
		}
		for _, a := range args {
			if !strings.HasPrefix(a.Text, "-") {
				cc.write(a.Text, how)
			}
		}
		return
	case "unlink", "shred", "truncate", "rmdir":
		cc.destroyArgs(name, args)
		return
	case "sponge", "patch", "ed", "ex", "yq":
		cc.editorWrites(name, args)
		if name == "patch" {
			cc.applyPatch("patch", args)
		}
	case "awk", "gawk", "mawk", "nawk":
		cc.awkWrites(args)
	case "cp", "mv", "install", "ln", "rsync", "scp":
		var pos []string
		skip := false
		for _, a := range args {
			t := a.Text
			switch {
			case skip:
				skip = false
			case (t == "-t" || t == "--target-directory") && name != "scp":
				skip = true
			case (t == "-i" || t == "-e" || t == "-F" || t == "-o" || t == "-P" || t == "-S") && (name == "scp" || name == "rsync" && t == "-e"):
				skip = true
			case strings.HasPrefix(t, "-"):
			default:
				pos = append(pos, t)
			}
		}
		dest := ""
		if len(pos) >= 2 {
			dest = pos[len(pos)-1]
			cc.write(dest, name)
			cc.copyInto(dest, pos[:len(pos)-1], name)
			if name == "rsync" && rsyncDeletes(args) && !remotePath(dest) {
				// --delete removes from the destination whatever the source
				// lacks: rsync -a --delete empty/ ~/ empties the home folder.
				cc.deleteTree(dest, false, "rsync --delete into")
			}
			pos = pos[:len(pos)-1]
			if name == "mv" {
				for _, p := range pos {
					cc.moveAway(p)
					cc.destroyGround(p, false, "mv moves away")
				}
			}
		}
		// ln reads nothing, but a link to a secret is a second name for it
		// that a later command in the same line reads before the guard
		// can resolve it: the source is judged as read, unless the link's
		// own name is a secret's too (ln -s ../.env .env in a worktree).
		for _, p := range pos {
			if name == "ln" && cc.linkToGround(p) {
				continue
			}
			if name == "ln" && dest != "" && cc.secretName(p, dest, len(pos) > 1) {
				continue
			}
			cc.read(p, false)
		}
		return
	case "sed", "perl":
		inPlace := false
		for _, a := range args {
			if strings.HasPrefix(a.Text, "-i") || a.Text == "--in-place" || strings.HasPrefix(a.Text, "--in-place=") || name == "perl" && strings.HasPrefix(a.Text, "-") && strings.Contains(a.Text, "i") && !strings.HasPrefix(a.Text, "--") {
				inPlace = true
			}
		}
		if inPlace {
			for _, a := range args[1:] {
				if !strings.HasPrefix(a.Text, "-") {
					cc.write(a.Text, name+" -i")
				}
			}
		}
	case "dd":
		for _, a := range args {
			if v, ok := strings.CutPrefix(a.Text, "if="); ok {
				cc.read(v, false)
			}
			if v, ok := strings.CutPrefix(a.Text, "of="); ok {
				cc.write(v, "dd")
			}
		}
		return
	case "curl", "wget", "http", "xh", "nc", "ncat", "socat":
		cc.upload(name, args)
		cc.downloadTo(name, args)
	case "tar", "bsdtar", "gtar", "unzip", "7z", "7za", "7zr", "cpio", "pax", "jar":
		cc.extractTo(name, args)
	}
	if isKeyUse(name) {
		cc.keyUseUploads(name, args)
		return
	}
	meta := isMetaCommand(name)
	pull := pullSubcommand(args)
	for k := 0; k < len(args); k++ {
		a := args[k]
		t := a.Text
		if outputOption(name, t) && k+1 < len(args) {
			// openssl … -keyout dev.key, pandoc -o out.pdf: what the
			// program writes, not what it reads
			cc.write(args[k+1].Text, name+" "+t)
			k++
			continue
		}
		if pull && !strings.HasPrefix(t, "-") && strings.ContainsAny(t, "./") {
			cc.write(t, name) // vercel env pull .env.local: the file it writes
			continue
		}
		if strings.HasPrefix(t, "-") {
			// --file=PATH
			if _, v, ok := strings.Cut(t, "="); ok && strings.Contains(v, "/") {
				cc.read(v, meta)
			}
			continue
		}
		cc.read(t, meta)
	}
}

// secretName reports whether the link ln makes from src at dest (inside
// dest when it names a folder) has a secret's name itself.
func (cc *cmdCtx) secretName(src, dest string, intoFolder bool) bool {
	name := dest
	if intoFolder || strings.HasSuffix(dest, "/") {
		name = path.Join(dest, path.Base(src))
	}
	p, ok := cc.ck.env.expand(name, cc.cwd)
	return ok && cc.ck.env.classify(p) == classSecret
}

// wordAt returns the text of args[k], or "" past the end.
func wordAt(args []shell.Word, k int) string {
	if k < len(args) {
		return args[k].Text
	}
	return ""
}

// downloadTo checks the file curl -o or wget -O writes (curl -sSLo
// ~/.bashrc URL is a write to ~/.bashrc).
func (cc *cmdCtx) downloadTo(name string, args []shell.Word) {
	letter, long := byte('o'), "--output"
	if name == "wget" {
		letter, long = 'O', "--output-document"
	} else if name != "curl" {
		return
	}
	write := func(p, how string) {
		cc.write(p, how)
		if p != "-" && p != "/dev/null" {
			cc.markUnseen(p, name+" downloads")
		}
	}
	for k := 0; k < len(args); k++ {
		t := args[k].Text
		next := wordAt(args, k+1)
		switch {
		case t == long:
			write(next, name)
			k++
		case strings.HasPrefix(t, long+"="):
			write(strings.TrimPrefix(t, long+"="), name)
		case len(t) > 1 && t[0] == '-' && t[1] != '-':
			if i := strings.IndexByte(t, letter); i > 0 {
				if i == len(t)-1 {
					write(next, name)
					k++
				} else {
					write(t[i+1:], name)
				}
			}
		}
	}
}

// extractTo checks where an archive is unpacked: tar -x (-C DIR), bsdtar,
// unzip (-d DIR), 7z x (-oDIR), cpio -i (-D DIR), pax -r, jar x. The
// folder is a write (an archive of hooks unpacked into .git/hooks); in a
// folder that holds the guard's ground the members decide (unseenInto).
func (cc *cmdCtx) extractTo(name string, args []shell.Word) {
	extract := name == "unzip"
	var dir, archive string
	known := true // the archive is the file named (not a stream)
	for k := 0; k < len(args); k++ {
		t := args[k].Text
		next := wordAt(args, k+1)
		switch name {
		case "unzip":
			switch {
			case t == "-d":
				dir = next
				k++
			case t == "-l" || t == "-v" || t == "-t" || t == "-Z" || t == "-z" || t == "-p" || t == "-c":
				return // lists, tests or prints: writes nothing
			case t == "-x":
				k = len(args) // the rest are exclusions
			case strings.HasPrefix(t, "-"):
			case archive == "":
				archive = t
			}
		case "7z", "7za", "7zr":
			switch {
			case k == 0:
				extract = t == "x" || t == "e"
			case strings.HasPrefix(t, "-o"):
				dir = t[2:]
			case strings.HasPrefix(t, "-"):
			case archive == "":
				archive = t
			}
			known = false // 7z's formats are not read
		case "cpio":
			switch {
			case t == "-i" || t == "--extract":
				extract = true
			case t == "-D" || t == "--directory":
				dir = next
				k++
			case strings.HasPrefix(t, "--directory="):
				dir = strings.TrimPrefix(t, "--directory=")
			case len(t) > 1 && t[0] == '-' && t[1] != '-' && strings.Contains(t, "i") && !strings.Contains(t, "t"):
				extract = true
			}
			known = false
		case "pax":
			extract = extract || t == "-r" || len(t) > 1 && t[0] == '-' && strings.Contains(t, "r") && !strings.Contains(t, "w")
			known = false
		default: // tar, bsdtar, gtar, jar
			switch {
			case t == "-C" || t == "--directory":
				dir = next
				k++
			case strings.HasPrefix(t, "--directory="):
				dir = strings.TrimPrefix(t, "--directory=")
			case t == "-f" || t == "--file":
				archive = next
				k++
			case strings.HasPrefix(t, "--file="):
				archive = strings.TrimPrefix(t, "--file=")
			case t == "--extract" || t == "--get":
				extract = true
			case t == "--list" || t == "--create" || t == "--append" || t == "--diff" || t == "--compare":
				return
			case k == 0 && !strings.HasPrefix(t, "-") || len(t) > 1 && t[0] == '-' && t[1] != '-':
				// xzf, -xzf, -xf FILE: f takes the next word unless its
				// value is glued on (-fFILE)
				if strings.ContainsAny(t, "tc") && !strings.Contains(t, "x") {
					return // -t lists, -c creates
				}
				if strings.Contains(t, "x") {
					extract = true
				}
				if i := strings.IndexByte(t, 'f'); i >= 0 {
					if i == len(t)-1 {
						archive = next
						k++
					} else if t[0] == '-' {
						archive = t[i+1:]
					}
				}
			}
		}
	}
	if !extract {
		return
	}
	if dir != "" {
		cc.write(dir, name)
	}
	e := &cc.ck.env
	d := cc.cwd
	if dir != "" {
		p, ok := e.expand(dir, cc.cwd)
		if !ok {
			return // judged by write
		}
		d = p
	}
	if d == "" {
		return
	}
	if archive == "" || archive == "-" {
		for _, r := range cc.c.Redirects {
			if r.Op == "<" {
				archive = r.Target.Text
			}
		}
	}
	ap, ok := e.expand(archive, cc.cwd)
	if ok && archive != "" && cc.absent(archive, ap) {
		return // no such archive, and the line does not make it: nothing is unpacked
	}
	if archive == "" || !known || !ok {
		cc.unseenInto(name, d, archive, nil, errUnseen)
		return
	}
	var members []string
	var err error
	if e.holdsGround(d) || e.holdsGround(e.real(d)) {
		members, err = archiveMembers(ap)
		if err != nil {
			err = errUnseen
		}
	}
	cc.unseenInto(name, d, archive, members, err)
}

// upload checks the files curl, wget and friends send.
func (cc *cmdCtx) upload(name string, args []shell.Word) {
	for k := 0; k < len(args); k++ {
		t := args[k].Text
		next := wordAt(args, k+1)
		switch {
		case t == "-F" || t == "--form" || t == "--form-string":
			if _, v, ok := strings.Cut(next, "@"); ok {
				cc.read(strings.SplitN(v, ";", 2)[0], false)
			} else if _, v, ok := strings.Cut(next, "<"); ok {
				cc.read(v, false)
			}
			k++
		case t == "-d" || strings.HasPrefix(t, "--data") || t == "--json":
			if _, v, ok := strings.Cut(next, "@"); ok {
				cc.read(v, false)
			}
			k++
		case t == "-T" || t == "--upload-file" || t == "-K" || t == "--config":
			cc.read(next, false)
			k++
		case strings.HasPrefix(t, "--post-file=") || strings.HasPrefix(t, "--body-file="):
			_, v, _ := strings.Cut(t, "=")
			cc.read(v, false)
		case strings.HasPrefix(t, "@") && (name == "http" || name == "xh"):
			cc.read(t[1:], false)
		}
	}
}

// crontab installs a crontab unless it only lists one.
func (cc *cmdCtx) crontab() {
	for _, a := range cc.args() {
		if a.Text == "-l" || a.Text == "-h" || a.Text == "--help" {
			return
		}
	}
	cc.find("persistence-write", "", "crontab installs jobs that run later, outside this session; the user must set up cron jobs.")
}

// dd onto a device.
func (cc *cmdCtx) dd() {
	for _, a := range cc.args() {
		if v, ok := strings.CutPrefix(a.Text, "of="); ok && strings.HasPrefix(v, "/dev/") {
			switch v {
			case "/dev/null", "/dev/zero", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/random", "/dev/urandom":
				continue
			}
			cc.find("disk-overwrite", v, "dd onto "+v+" overwrites the device.")
		}
	}
}

// downloadExec: a download, or decoded data, feeding a shell or an
// interpreter.
func (cc *cmdCtx) downloadExec() {
	c := cc.c
	rule, what := "", ""
	switch {
	case isDownload(c.Name()):
		rule, what = "download-exec", "a download"
	case isDecoder(c):
		rule, what = "obfuscated-exec", "decoded data"
	default:
		return
	}
	runs := func(n string) bool {
		return shell.IsShell(n) || interpreter(n) != "" || n == "source" || n == "." || n == "eval"
	}
	// curl … | sh, also through tee, cat or a decoder
	for j, hops := cc.i, 0; hops < 6; hops++ {
		next := cc.pipeNext(j)
		if next < 0 {
			break
		}
		if n := cc.all[next].Name(); runs(n) {
			cc.find(rule, "", "piping "+what+" into "+n+" runs code nobody has read. Write it to a file, read it, then run it.")
			return
		}
		j = next
	}
	// sh -c "$(curl …)", bash <(curl …), eval "$(… | base64 -d)", source <(curl …)
	for j, hops := cc.i, 0; hops < 6 && j >= 0 && j < len(cc.all); hops++ {
		cj := cc.all[j]
		if cj.Via != "$(…)" && cj.Via != "<(…)" && cj.Via != "`…`" || cj.Parent < 0 || cj.Parent >= len(cc.all) {
			// a pipeline inside the substitution: follow it to its end
			next := cc.pipeNext(j)
			if next < 0 {
				return
			}
			j = next
			continue
		}
		if n := cc.all[cj.Parent].Name(); runs(n) {
			cc.find(rule, "", "handing "+what+" to "+n+" runs code nobody has read. Write it to a file, read it, then run it.")
		}
		return
	}
}

// isDecoder reports whether c decodes data (base64 -d, xxd -r, …), the
// usual way to hide a command from a reader.
func isDecoder(c *shell.Command) bool {
	n := c.Name()
	for _, a := range c.Args[1:] {
		t := a.Text
		switch n {
		case "base64", "base32", "basenc", "openssl":
			if t == "-d" || t == "-D" || t == "--decode" {
				return true
			}
		case "xxd":
			if t == "-r" || t == "-revert" || strings.HasPrefix(t, "-r") {
				return true
			}
		}
	}
	return n == "uudecode" || n == "rev"
}

func isDownload(n string) bool {
	return n == "curl" || n == "wget" || n == "fetch" || n == "http" || n == "xh" || n == "aria2c"
}

// isForkBomb spots :(){ :|:& };: and its renamed forms.
func isForkBomb(cmd string) bool {
	s := strings.Join(strings.Fields(cmd), "")
	i := strings.Index(s, "(){")
	// Each "(){" is a candidate; one with no name before it (at the start)
	// is skipped, not the end of the search.
	for tries := 0; i >= 0 && tries < 1024; tries++ {
		name := s[:i]
		if j := strings.LastIndexAny(name, ";&|\n(){}"); j >= 0 {
			name = name[j+1:]
		}
		name = strings.TrimPrefix(name, "function")
		if name != "" && len(name) <= 64 {
			win := s[i:min(len(s), i+4*len(name)+32)]
			if strings.Contains(win, name+"|"+name) && strings.Contains(win, "&") {
				return true
			}
		}
		k := strings.Index(s[i+3:], "(){")
		if k < 0 {
			break
		}
		i += 3 + k
	}
	return false
}

// unquote drops quotes and backslashes from a word the parser could not
// read.
var unquote = sync.OnceValue(func() *strings.Replacer { return strings.NewReplacer(`"`, "", `'`, "", `\`, "") })

// fallbackWords calls f with each simple command of a command line the
// parser could not read, split roughly: on ; & | ( ) ` { } and new lines,
// quotes dropped, leading wrappers and assignments skipped. A part for
// which skip (when not nil) returns true is left out.
func fallbackWords(cmd string, skip func(string) bool, f func(shell.Command)) {
	isSep := func(c byte) bool {
		return c == ';' || c == '&' || c == '|' || c == '\n' || c == '(' || c == ')' || c == '`' || c == '{' || c == '}'
	}
	for start := 0; start < len(cmd); {
		end := start
		for end < len(cmd) && !isSep(cmd[end]) {
			end++
		}
		part := cmd[start:end]
		start = end + 1
		if strings.TrimSpace(part) == "" || skip != nil && skip(part) {
			continue
		}
		var words []shell.Word
		for _, w := range strings.Fields(unquote().Replace(part)) {
			words = append(words, shell.Word{Text: w})
		}
		for len(words) > 1 {
			n := shell.ProgramName(words[0].Text)
			if n == "sudo" || n == "exec" || n == "nohup" || n == "env" || n == "command" || n == "builtin" || n == "time" || n == "doas" || strings.Contains(words[0].Text, "=") {
				words = words[1:]
				continue
			}
			break
		}
		if len(words) > 0 {
			f(shell.Command{Args: words, Via: "words (unparsed)", Parent: -1, PipeFrom: -1})
		}
	}
}

// globNamesSecret reports whether the glob p (absolute) could name a
// secret: its folder is a secret folder, or its last element matches a
// secret's name and no ordinary file's.
func (e *env) globNamesSecret(p string) bool {
	dir, base := path.Split(p)
	dir = strings.TrimSuffix(dir, "/")
	if hasGlob(dir) {
		dir = dir[:strings.IndexAny(dir, "*?[")]
		dir = strings.TrimSuffix(path.Dir(dir+"x"), "/")
		base = "*"
	}
	if c := e.classify(dir); c == classSecretDir || c == classSecret {
		for _, n := range []string{"id_rsa", "id_ed25519", "credentials", "config.json", "token", "key.json", "private-keys-v1.d"} {
			if ok(path.Match(base, n)) && e.classify(dir+"/"+n) == classSecret {
				return true
			}
		}
		return false
	}
	return globTargetsSecret(base)
}

// globTargetsSecret reports whether a file-name glob matches a secret's
// name and no ordinary file's name (so "*" is not a secret glob, but
// ".env*" and "*.pem" are).
func globTargetsSecret(base string) bool {
	base = strings.ReplaceAll(base, "**", "*")
	if base == "" {
		return false
	}
	hit := false
	for _, n := range []string{".env", ".env.local", ".env.production", "id_rsa", "id_ed25519", "server.key", "server.pem", ".netrc", ".npmrc", ".git-credentials", ".pypirc"} {
		if ok(path.Match(base, n)) && (base[0] == '.' || n[0] != '.') {
			hit = true
			break
		}
	}
	if !hit {
		return false
	}
	for _, n := range []string{"README.md", "main.go", "index.js", "notes.txt", "a", "Makefile", ".gitignore"} {
		if ok(path.Match(base, n)) {
			return false
		}
	}
	return true
}

// keyUseUploads judges the files that a program which otherwise uses
// secrets only as keys (gh, aws, git) sends or commits: gh gist create
// and release upload, aws s3 cp and sync, git add. A secret among them is
// read out of the machine (a public gist, a bucket, the repository's
// history).
func (cc *cmdCtx) keyUseUploads(name string, args []shell.Word) {
	var files []string
	pos := func(from []shell.Word, valueOpts ...string) []string {
		var out []string
		for k := 0; k < len(from); k++ {
			t := from[k].Text
			if contains(valueOpts, t) {
				k++
				continue
			}
			if !strings.HasPrefix(t, "-") {
				out = append(out, t)
			}
		}
		return out
	}
	switch name {
	case "gh":
		sub, rest := firstPositional(args)
		op, rest2 := firstPositional(rest)
		switch {
		case sub == "gist" && (op == "create" || op == "new" || op == "edit"):
			files = pos(rest2, "-d", "--desc", "-f", "--filename", "-a", "--add")
			if v, ok := optValue(rest2, "-a", "--add"); ok {
				files = append(files, v)
			}
		case sub == "release" && op == "upload":
			if p := pos(rest2, "-R", "--repo"); len(p) > 1 {
				files = p[1:]
			}
		}
		if v, ok := optValue(args, "--body-file", "-F", "--input"); ok && sub != "api" || sub == "api" && v != "" {
			files = append(files, v)
		}
	case "aws":
		sub, rest := firstPositional(args)
		op, rest2 := firstPositional(rest)
		if sub == "s3" && (op == "cp" || op == "mv" || op == "sync") {
			if p := pos(rest2, "--profile", "--region", "--exclude", "--include", "--acl", "--storage-class", "--sse", "--endpoint-url"); len(p) > 1 && !strings.Contains(p[0], "://") {
				files = append(files, p[0])
			}
		}
		if v, ok := optValue(args, "--body"); ok {
			files = append(files, v)
		}
	case "gcloud", "gsutil":
		// gsutil is read as any program; gcloud storage cp as a copy
		if wordAt(args, 0) == "storage" && (wordAt(args, 1) == "cp" || wordAt(args, 1) == "rsync") {
			if p := pos(args[2:]); len(p) > 1 && !strings.Contains(p[0], "://") {
				files = append(files, p[0])
			}
		}
	case "az":
		if v, ok := optValue(args, "--file", "-f"); ok && strings.Contains(joinTexts(args), "upload") {
			files = append(files, v)
		}
	case "git":
		sub, rest := gitSub(args)
		if sub == "add" || sub == "stage" {
			files = pos(rest, "--chmod", "--pathspec-from-file")
		}
	}
	for _, f := range files {
		if f != "" && f != "-" && f != "." {
			cc.read(f, false)
		}
	}
}

// sdkLike reports whether a command line starts like a method call on a
// name chain (stripe.Customer.delete(…), gateway.customer.delete(…)).
func sdkLike(cmd string) bool {
	t := strings.TrimSpace(cmd)
	dots := 0
	for i := 0; i < len(t) && i < 128; i++ {
		c := t[i]
		switch {
		case isNameByte(c):
		case c == '.' || c == ':':
			dots++
		case c == '(' || c == ' ' && i+1 < len(t) && t[i+1] == '(':
			return dots > 0 && i > 0
		default:
			return false
		}
	}
	return false
}

// mkfs judges a format: onto a device, or a target the guard cannot
// resolve, it blocks (disk-overwrite); onto an image file it is a write
// of that file, judged as any other (inside the project it is the
// model's work: mkfs.ext4 -F build/rootfs.img).
func (cc *cmdCtx) mkfs(name string) {
	var targets []string
	args := cc.args()
	for k := 0; k < len(args); k++ {
		t := args[k].Text
		switch {
		case t == "-t" || t == "-L" || t == "-b" || t == "-N" || t == "-m" || t == "-O" || t == "-E" || t == "-U" || t == "-I" ||
			t == "-n" || t == "-s" || t == "-S" || t == "-T" || t == "-i" || t == "-g" || t == "-G" || t == "-d" || t == "-l" ||
			t == "-r" || t == "-R" || t == "-c" && name != "mkfs.fat" && name != "mkfs.vfat":
			k++
		case t == "-F" && (name == "mkfs.fat" || name == "mkfs.vfat" || name == "mkfs.msdos"):
			k++ // the FAT size
		case strings.HasPrefix(t, "-"):
		case strings.Trim(t, "0123456789kKmMgGbBsS") == "":
			// a block count or size
		default:
			targets = append(targets, t)
		}
	}
	if len(targets) == 0 {
		cc.find("disk-overwrite", "", name+" formats a file system on a device the guard cannot see.")
		return
	}
	for _, t := range targets {
		p, ok := cc.ck.env.expand(t, cc.cwd)
		switch {
		case !ok:
			cc.find("disk-overwrite", "", name+" formats "+t+", which the guard cannot resolve: it may be a disk.")
			return
		case strings.HasPrefix(p, "/dev/") || p == "/dev":
			cc.find("disk-overwrite", p, name+" formats "+p+", a device: everything on it is lost.")
			return
		}
	}
	for _, t := range targets {
		cc.write(t, name)
	}
}

// outputOption reports whether a program's option names a file it
// writes (the next word).
func outputOption(name, t string) bool {
	switch t {
	case "-out", "-keyout", "--output", "--out", "--outfile", "--output-file", "-outfile":
		return true
	case "-o":
		return name != "ssh" && name != "scp" && name != "sftp" && name != "mount"
	}
	return false
}

// pullSubcommand reports whether a command's subcommand path pulls or
// downloads into the files it names (vercel env pull .env.local).
func pullSubcommand(args []shell.Word) bool {
	n := 0
	for _, a := range args {
		if strings.HasPrefix(a.Text, "-") {
			continue
		}
		switch strings.ToLower(a.Text) {
		case "pull", "download":
			return true
		}
		if n++; n >= 3 {
			return false
		}
	}
	return false
}
