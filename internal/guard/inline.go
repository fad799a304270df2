package guard

import (
	"fmt"
	"strings"

	"github.com/hookwright/hookwright/internal/shell"
)

// interpreter returns the language of a program that runs inline code:
// python, node, ruby, perl, php; or "".
func interpreter(name string) string {
	switch {
	case strings.HasPrefix(name, "python"), strings.HasPrefix(name, "pypy"):
		return "python"
	case name == "node" || name == "nodejs" || name == "bun" || name == "deno":
		return "node"
	case name == "ruby" || name == "irb":
		return "ruby"
	case strings.HasPrefix(name, "perl"):
		return "perl"
	case name == "php":
		return "php"
	}
	return ""
}

// inline finds the code an interpreter runs from its command line or its
// standard input, and scans it.
func (cc *cmdCtx) inline(lang string) {
	args := cc.args()
	var code []string
	script := false // a script file runs, not stdin
	for k := 0; k < len(args); k++ {
		t := args[k].Text
		next := func() string {
			if k+1 < len(args) {
				k++
				return args[k].Text
			}
			return ""
		}
		switch {
		case lang == "node" && (t == "-e" || t == "--eval" || t == "-p" || t == "--print"):
			code = append(code, next())
		case lang == "node" && (strings.HasPrefix(t, "--eval=") || strings.HasPrefix(t, "--print=")):
			_, v, _ := strings.Cut(t, "=")
			code = append(code, v)
		case lang == "node" && t == "eval" && cc.c.Name() == "deno":
			code = append(code, next())
		case lang == "php" && t == "-r":
			code = append(code, next())
		case lang == "python" && (t == "-m" || t == "-W" || t == "-X" || t == "--check-hash-based-pycs"):
			next()
			if t == "-m" {
				script = true
			}
		case lang == "python" && len(t) > 1 && t[0] == '-' && t[1] != '-' && strings.HasSuffix(t, "c"):
			code = append(code, next())
		case (lang == "ruby" || lang == "perl") && len(t) > 1 && t[0] == '-' && t[1] != '-' && t[1] != 'M' && t[1] != 'm' && t[1] != 'I' && (strings.HasSuffix(t, "e") || strings.HasSuffix(t, "E")):
			code = append(code, next())
		case (lang == "ruby" || lang == "perl") && (t == "-I" || t == "-r" || t == "-M"):
			next()
		case t == "-":
		case strings.HasPrefix(t, "-"):
		default:
			if len(code) == 0 {
				script = true
			}
			k = len(args)
		}
	}
	if len(code) == 0 && !script && cc.c.HasStdin {
		code = append(code, cc.c.Stdin)
	}
	if len(code) == 0 && !script {
		if text, ok := cc.pipedText(); ok {
			code = append(code, text)
		}
	}
	if len(code) == 0 {
		return
	}
	cc.find("interpreter-one-liner", "", fmt.Sprintf("this guard level does not let the model run %s code given on the command line or on stdin; write it to a file the user can read first.", cc.c.Name()))
	for _, src := range code {
		cc.scanCode(lang, src)
	}
}

// pipedText returns what the command piping into this one writes, when
// the parser can know it (echo, printf, a here-fed cat: shell.Output).
func (cc *cmdCtx) pipedText() (string, bool) {
	from := cc.c.PipeFrom
	if from < 0 || from >= len(cc.all) {
		return "", false
	}
	return shell.Output(cc.all[from])
}

// literal is one string literal in inline code.
type literal struct {
	text       string
	start, end int  // byte span in the code, quotes included
	shell      bool // a backtick or %x literal of ruby/perl: a shell command
	interp     bool // an f-string or template with {…}: parts unknown
}

// literals returns the string literals of code (a rough lexer shared by
// the four languages: quotes, escapes, Python triple quotes and prefixes,
// Ruby/Perl backticks, %x(…) and qx(…)). Comments are not skipped.
func literals(lang, code string) []literal {
	var out []literal
	for i := 0; i < len(code) && len(out) < 4096; i++ {
		c := code[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			q := string(c)
			if lang == "python" && strings.HasPrefix(code[i:], strings.Repeat(q, 3)) {
				q = strings.Repeat(q, 3)
			}
			j := i + len(q)
			var b strings.Builder
			for j < len(code) && !strings.HasPrefix(code[j:], q) {
				if code[j] == '\\' && j+1 < len(code) {
					switch code[j+1] {
					case 'n':
						b.WriteByte('\n')
					case 't':
						b.WriteByte('\t')
					default:
						b.WriteByte(code[j+1])
					}
					j += 2
					continue
				}
				b.WriteByte(code[j])
				j++
			}
			end := min(j+len(q), len(code))
			prefix := ""
			if i > 0 {
				prefix = strings.ToLower(code[max(0, i-2):i])
			}
			l := literal{text: b.String(), start: i, end: end}
			l.shell = c == '`' && (lang == "ruby" || lang == "perl")
			l.interp = strings.HasSuffix(prefix, "f") || c == '`' && lang == "node" || c == '"' && (lang == "ruby" && strings.Contains(l.text, "#{") || lang == "perl" || lang == "php") && strings.ContainsAny(l.text, "$@#{")
			out = append(out, l)
			i = end - 1
		case (lang == "ruby" && strings.HasPrefix(code[i:], "%x") || lang == "perl" && strings.HasPrefix(code[i:], "qx")) && i+2 < len(code):
			open := code[i+2]
			close := map[byte]byte{'(': ')', '{': '}', '[': ']', '<': '>'}[open]
			if close == 0 {
				close = open
			}
			j := strings.IndexByte(code[i+3:], close)
			if j < 0 {
				continue
			}
			out = append(out, literal{text: code[i+3 : i+3+j], start: i, end: i + 4 + j, shell: true})
			i += 3 + j
		}
	}
	return out
}

// shellCalls are the calls whose string arguments are shell commands or
// argument vectors.
var shellCalls = []string{
	"os.system(", "os.popen(", "subprocess.run(", "subprocess.call(", "subprocess.check_call(", "subprocess.check_output(",
	"subprocess.Popen(", "subprocess.getoutput(", "subprocess.getstatusoutput(", "commands.getoutput(", "pty.spawn(",
	"os.execv", "os.execl", "os.spawn", "execSync(", "exec(", "execFile(", "execFileSync(", "spawn(", "spawnSync(",
	"system(", "system ", "IO.popen(", "Open3.", "Process.spawn(", "shell_exec(", "passthru(", "proc_open(", "popen(",
	"Deno.Command(", "Deno.run(", "Bun.spawn(", "Bun.spawnSync(", "$`", "Bun.$`", "os.execute(", "system2(",
}

// deleteCalls are calls that delete; recursive ones delete a tree.
var deleteCalls = []struct {
	name      string
	recursive bool
}{
	{"shutil.rmtree(", true}, {"rmtree(", true}, {"remove_tree(", true}, {"rm_rf(", true}, {"rm_r(", true},
	{"remove_dir(", true}, {"remove_entry(", true}, {"remove_entry_secure(", true}, {"rimraf(", true},
	{"rmSync(", false}, {"rm(", false}, {"rmdirSync(", false}, {"rmdir(", false}, {"removeSync(", true},
	{"fs.remove(", true}, {"Deno.remove(", false}, {"rename(", false}, {"renameSync(", false}, {"os.replace(", false},
	{"shutil.move(", false}, {"truncate(", false}, {"truncateSync(", false}, {"FileUtils.mv(", false}, {"move(", false}, {"emptyDir(", true}, {"emptyDirSync(", true},
	{"os.remove(", false}, {"os.unlink(", false}, {"os.removedirs(", false}, {".unlink(", false},
	{"unlinkSync(", false}, {"File.delete(", false}, {"FileUtils.rm(", false}, {"rm_f(", false}, {"unlink(", false},
	{"unlink ", false}, {"rename ", false},
}

// scanCode checks inline code: shell commands it runs are checked like
// any other command, trees it deletes like rm -rf, and secret paths it
// names like a read.
func (cc *cmdCtx) scanCode(lang, code string) {
	if len(code) > 1<<20 {
		code = code[:1<<20]
	}
	lits := literals(lang, code)
	// shell commands
	for _, l := range lits {
		if l.shell {
			cc.runShell(l.text, lang+" `…`", l.interp)
		}
	}
	done := map[int]bool{} // calls already read, by where their arguments start
	for _, call := range shellCalls {
		for off, n := 0, 0; off < len(code) && n < maxCalls; n++ {
			i := strings.Index(code[off:], call)
			if i < 0 {
				break
			}
			at := off + i
			off = at + len(call)
			if done[off] {
				continue // os.system( was read; system( is the same call
			}
			if at > 0 && isNameByte(code[at-1]) && call[0] != '.' && !strings.Contains(call, ".") {
				continue // e.g. "subsystem(" is not "system(" (and "exec(" in "shell_exec(" is not the call)
			}
			done[off] = true
			if call == "exec(" && at > 0 && code[at-1] == '.' && !strings.Contains(code, "child_process") {
				continue // /re/.exec(s), a regular expression's exec
			}
			argStart := off
			args, end := callArgs(code, lits, off)
			off = max(off, end)
			if strings.HasSuffix(call, "`") {
				// a template tag: the literal starts at the backtick
				args = literalsIn(lits, at+len(call)-1, at+len(call)+len(code[at+len(call)-1:]))
				if len(args) > 0 {
					args = args[:1]
				}
			}
			if len(args) == 0 || !strings.HasSuffix(call, "`") && exprFirst(code, argStart) {
				// os.system(cmd), os.system(base64.b64decode(…).decode()),
				// execSync(Buffer.from(…).toString()): the command is computed
				cc.find("inline-code-unknown", "", fmt.Sprintf("the %s code calls %s with a command the guard cannot read.", lang, strings.TrimSuffix(call, "(")))
				continue
			}
			if joined, ok := concatenated(code, args, argStart, end); ok {
				// os.system('r' + 'm -rf ~'): the literals are one command
				cc.runShell(joined, lang+" "+strings.TrimSuffix(call, "("), false)
				continue
			}
			if len(args) == 1 && !strings.HasPrefix(strings.TrimSpace(code[off:min(len(code), off+2)]), "[") {
				cc.runShell(args[0].text, lang+" "+strings.TrimSuffix(call, "("), args[0].interp)
				continue
			}
			var words []string
			unknown := false
			for _, a := range args {
				unknown = unknown || a.interp
				words = append(words, shell.Quote(a.text))
			}
			cc.runShell(strings.Join(words, " "), lang+" "+strings.TrimSuffix(call, "("), unknown)
		}
	}
	// deletes
	for _, d := range deleteCalls {
		for off, n := 0, 0; off < len(code) && n < maxCalls; n++ {
			i := strings.Index(code[off:], d.name)
			if i < 0 {
				break
			}
			at := off + i
			off = at + len(d.name)
			if done[off] {
				continue
			}
			if at > 0 && d.name[0] != '.' && !strings.Contains(d.name, ".") && (isNameByte(code[at-1])) {
				continue // remove( in os.remove( is os.remove's, read on its own
			}
			done[off] = true
			args, end := callArgs(code, lits, off)
			region := code[off:max(off, min(end, len(code)))]
			recursive := d.recursive || strings.Contains(region, "recursive") || strings.Contains(region, "force")
			target, known := "", false
			if len(args) > 0 && !args[0].interp {
				target, known = args[0].text, true
			} else if r, ok := receiver(code, lits, at); ok && d.name[0] == '.' {
				// Path(".hookwright/config.json").unlink()
				target, known = r.text, true
			} else if h := homeExpr(region); h != "" {
				target, known = h, true
			}
			off = max(off, end)
			if !recursive {
				how := lang + " " + strings.TrimSuffix(d.name, "(") + " deletes"
				if known {
					cc.destroy(target, hasGlob(target), how)
				} else {
					cc.destroyNamed(code, lits, how)
				}
				continue
			}
			if !known {
				cc.find("inline-code-delete", "", fmt.Sprintf("the %s code deletes a tree (%s) whose path the guard cannot read; name a literal folder inside the project.", lang, strings.TrimSuffix(d.name, "(")))
				continue
			}
			if homeExpr(region) != "" && !strings.HasPrefix(target, "~") && !strings.HasPrefix(target, "/") {
				target = "~/" + target
			}
			cc.deleteTree(target, hasGlob(target), lang+" "+strings.TrimSuffix(d.name, "("))
		}
	}
	cc.codeWrites(lang, code, lits)
	cc.sdkCalls(lang, code)
	// secret paths named in the code, and persistence writes
	writes := strings.Contains(code, "write") || strings.Contains(code, "append") || strings.Contains(code, ">>") || strings.Contains(code, "'a'") || strings.Contains(code, `"a"`) || strings.Contains(code, "'w'") || strings.Contains(code, `"w"`)
	for _, l := range lits {
		t := strings.TrimSpace(l.text)
		if l.shell || t == "" || len(t) > 1024 || strings.ContainsAny(t, "\n ") || !strings.ContainsAny(t, "/.~") {
			continue
		}
		if h := homeExpr(code[max(0, l.start-40):l.start]); h != "" && !strings.HasPrefix(t, "/") && !strings.HasPrefix(t, "~") {
			t = "~/" + strings.TrimPrefix(t, "/")
		}
		before := code[max(0, l.start-24):l.start]
		meta := strings.Contains(before, "exists") || strings.Contains(before, "isfile") || strings.Contains(before, "isdir") || strings.Contains(before, "stat(") || strings.Contains(before, "access(")
		if writes {
			cc.write(t, lang+" code")
		}
		cc.read(t, meta)
	}
}

// maxCalls bounds the calls of one name read in one piece of code, and
// maxCallLen how far one call's arguments are read.
const (
	maxCalls   = 256
	maxCallLen = 64 << 10
)

// homeExpr returns "~" when the text computes the home folder.
func homeExpr(s string) string {
	for _, h := range []string{"expanduser(", "Path.home()", "os.homedir()", "homedir()", "environ['HOME']", `environ["HOME"]`, "getenv('HOME')", `getenv("HOME")`, "process.env.HOME", "ENV['HOME']", `ENV["HOME"]`, "Dir.home", "$ENV{HOME}", `$ENV{"HOME"}`, "Deno.env.get(\"HOME\")"} {
		if strings.Contains(s, h) {
			return "~"
		}
	}
	return ""
}

// callArgs returns the literals inside the call whose arguments start at
// off (just after "name(" or "name "), and where the call ends.
func callArgs(code string, lits []literal, off int) ([]literal, int) {
	depth := 1
	end := min(len(code), off+maxCallLen)
	paren := off > 0 && code[off-1] == '('
	for j := off; j < end; j++ {
		if l, ok := literalAt(lits, j); ok {
			j = l.end - 1
			continue
		}
		c := code[j]
		if !paren && (c == ';' || c == '\n') {
			end = j
			break
		}
		if c == '(' || c == '[' || c == '{' {
			depth++
		}
		if c == ')' || c == ']' || c == '}' {
			depth--
			if depth == 0 {
				end = j + 1
				break
			}
		}
	}
	return literalsIn(lits, off, end), end
}

func literalAt(lits []literal, j int) (literal, bool) {
	// lits are sorted by start; a binary search keeps this linear overall
	lo, hi := 0, len(lits)
	for lo < hi {
		m := (lo + hi) / 2
		if lits[m].start < j {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(lits) && lits[lo].start == j {
		return lits[lo], true
	}
	return literal{}, false
}

func literalsIn(lits []literal, from, to int) []literal {
	var out []literal
	for _, l := range lits {
		if l.start >= from && l.end <= to {
			out = append(out, l)
		}
		if l.start >= to || len(out) >= 64 {
			break
		}
	}
	return out
}

// runShell checks a shell command that inline code runs.
func (cc *cmdCtx) runShell(text, via string, unknown bool) {
	if unknown {
		// f-strings and templates: the {…} parts are unknown values
		text = replaceInterp(text)
	}
	cc.nested(text, via)
}

// replaceInterp turns {…} and ${…} parts into $UNKNOWN, so a path built
// from them is judged as unknown.
func replaceInterp(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '{' || s[i] == '$' && i+1 < len(s) && s[i+1] == '{' || s[i] == '#' && i+1 < len(s) && s[i+1] == '{' {
			j := strings.IndexByte(s[i:], '}')
			if j > 0 {
				b.WriteString("$UNKNOWN")
				i += j
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// exprFirst reports whether the argument list that starts at code[off]
// begins with an expression rather than a literal or a list of them
// (os.system(cmd), execSync(Buffer.from(…))).
func exprFirst(code string, off int) bool {
	j := off
	for j < len(code) && (code[j] == ' ' || code[j] == '\t' || code[j] == '\n') {
		j++
	}
	if j >= len(code) {
		return false
	}
	switch c := code[j]; {
	case c == '\'' || c == '"' || c == '`' || c == '[' || c == '(' || c == '%' || c == '{':
		return false
	case (c == 'f' || c == 'r' || c == 'b' || c == 'u' || c == 'F' || c == 'R' || c == 'B') && j+1 < len(code) && (code[j+1] == '\'' || code[j+1] == '"'):
		return false
	case (c == 'f' || c == 'r' || c == 'b') && j+2 < len(code) && (code[j+1] == 'r' || code[j+1] == 'b' || code[j+1] == 'f') && (code[j+2] == '\'' || code[j+2] == '"'):
		return false
	}
	return isNameByte(code[j])
}

// concatenated returns the literals of a call's arguments joined when
// they are one string built with + ('r' + 'm -rf ~'), and whether they
// are.
func concatenated(code string, args []literal, off, end int) (string, bool) {
	if len(args) < 2 || end <= off || end > len(code) {
		return "", false
	}
	var b strings.Builder
	plus := false
	for i, a := range args {
		if i > 0 {
			between := strings.TrimSpace(code[args[i-1].end:a.start])
			if between != "+" && between != "." && between != ".." {
				return "", false
			}
			plus = true
		}
		b.WriteString(a.text)
	}
	return b.String(), plus
}
