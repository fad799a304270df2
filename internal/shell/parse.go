// Package shell reads a shell command line the way a POSIX shell (and bash)
// would, far enough to say which programs it runs with which words. It is
// the parser behind hookwright's guard and `hwctl explain`.
//
// [Parse] turns a command line into a flat list of simple commands. It
// understands quoting ('…', "…", $'…', backslashes), the list and pipeline
// operators (; & && || | |& and new lines), subshells, { …; } groups,
// if/while/for/case bodies, function definitions, command substitution
// ($(…) and backticks), process substitution, redirections, heredocs and
// here-strings. It then reads through what runs another command:
//
//   - wrappers, with their options: env (and env -S), command, builtin,
//     exec, nohup, time, nice, timeout, xargs, sudo, doas, su -c, stdbuf,
//     ionice, setsid, watch, find -exec;
//   - the string given to sh, bash, zsh, dash, ksh or fish with -c, and
//     the arguments of eval;
//   - a script fed to a shell on its standard input: a heredoc, a
//     here-string, or echo/printf piped into it.
//   - commands run elsewhere or later: ssh host 'cmd', docker/podman exec
//     and run (a container with the host's root mounted is read as the
//     host: /host/etc is /etc), kubectl exec -- cmd, parallel, unshare,
//     fakeroot, screen, tmux new-session and send-keys, at and batch,
//     trap, entr.
//
// Each nested string is parsed in turn, to a depth of [MaxDepth]. What it
// does not evaluate stays visible: a word that holds an expansion ($x,
// ${x}, $(…)) is marked [Word.Dynamic], and a heredoc or here-string is
// kept as the command's [Command.Stdin], so a caller can read it as data
// or as code. Parse never runs anything and never reads a file.
//
// The cost is linear in the input for each level of nesting.
package shell

import (
	"errors"
	"math"
	"strconv"
	"strings"
)

// MaxDepth bounds how deep strings given to sh -c, eval, $(…) and the like
// are parsed; deeper nesting is an error ([ErrDepth]).
const MaxDepth = 8

// maxNest bounds the nesting of parentheses and braces within one string.
const maxNest = 256

// holder is the Parent of a command found inside the words of a command
// not yet added; [parser.simple] replaces it with that command's index.
const holder = -2

// maxCommands bounds the number of simple commands one call returns.
const maxCommands = 100000

// The errors Parse reports. The commands it read before the error are
// still returned.
var (
	// ErrSyntax: the command line is not valid shell (an unterminated
	// quote or substitution, an unexpected closing parenthesis).
	ErrSyntax = errors.New("shell syntax")
	// ErrDepth: nesting deeper than MaxDepth (or than maxNest brackets).
	ErrDepth = errors.New("nested too deeply")
	// ErrTooMany: more simple commands than the parser keeps.
	ErrTooMany = errors.New("too many commands")
)

// Word is one shell word after quote removal.
type Word struct {
	// Text is the word's value with quotes and escapes removed.
	// Expansions the parser cannot evaluate ($x, ${x}, $(…), `…`) are
	// kept as written.
	Text string
	// Quoted: some part of the word was quoted or escaped.
	Quoted bool
	// Dynamic: the word holds an expansion whose value is unknown.
	Dynamic bool
	// Glob: the word holds an unquoted *, ? or [.
	Glob bool
}

// Redirect is one redirection of a simple command.
type Redirect struct {
	// Op is the operator: < > >> >| <> >& <& &> &>> << <<- <<<.
	Op string
	// Fd is the file descriptor written before the operator, or -1.
	Fd int
	// Target is the file (or, for << and <<-, the delimiter; for <<< the
	// string).
	Target Word
}

// Command is one simple command.
type Command struct {
	// Args are the command's words, wrappers removed: Args[0] is the
	// program that runs.
	Args []Word
	// Assigns are the NAME=value words before the program. An array,
	// NAME=(a b), is NAME=('a' 'b'): its words single-quoted.
	Assigns []string
	// Redirects are the command's redirections, in order.
	Redirects []Redirect
	// Stdin is the heredoc or here-string the command reads, if any.
	Stdin string
	// HasStdin: Stdin was given (it may be empty).
	HasStdin bool
	// Wrappers are the programs peeled off before Args[0], outermost
	// first, e.g. ["sudo", "nohup"].
	Wrappers []string
	// Via says how the command was reached: "" at the top level, else
	// e.g. "$(…)", "bash -c", "eval", "heredoc to bash", "find -exec".
	Via string
	// Depth is how many nested strings lie between the command and the
	// top level.
	Depth int
	// Parent is the index of the command whose string, substitution or
	// input held this one, or -1.
	Parent int
	// PipeFrom is the index of the command whose output this one reads
	// through a pipe, or -1.
	PipeFrom int
	// MoreArgs: the command gets more arguments the parser cannot see
	// (xargs).
	MoreArgs bool
}

// Name returns the base name of the program, lower-cased (macOS file
// systems ignore case), or "" for a command with no words.
func (c Command) Name() string {
	if len(c.Args) == 0 {
		return ""
	}
	return ProgramName(c.Args[0].Text)
}

// ProgramName returns the lower-cased base name of a program path.
func ProgramName(s string) string {
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		s = s[i+1:]
	}
	return strings.ToLower(s)
}

// Strings returns the words' texts.
func (c Command) Strings() []string {
	out := make([]string, len(c.Args))
	for i, w := range c.Args {
		out[i] = w.Text
	}
	return out
}

// String returns the command's words joined by spaces.
func (c Command) String() string { return strings.Join(c.Strings(), " ") }

// Parse reads src and returns its simple commands, nested ones included,
// in the order the shell meets them: the commands of a substitution come
// before the command whose words hold it; those of a string run by sh -c
// or eval come after every command of the string that held it. NUL bytes are dropped, as bash drops them from its input. On an error it returns what it read before, and the
// error; a caller must never treat a command that failed to parse as
// harmless.
func Parse(src string) ([]Command, error) {
	if strings.IndexByte(src, 0) >= 0 {
		// bash ignores NUL bytes in its input: r<NUL>m is rm
		src = strings.ReplaceAll(src, "\x00", "")
	}
	s := &state{}
	s.parse(src, 0, "", -1)
	for i := 0; i < len(s.cmds) && !s.stop; i++ {
		s.expand(i)
	}
	return s.cmds, s.err
}

// state is one Parse call: the commands found so far and the first error.
type state struct {
	cmds []Command
	err  error
	// stop: give up (too many commands); the caller judges the rest.
	stop bool
	// expanded counts the words brace and extglob expansion made, against
	// maxExpanded.
	expanded int
}

// maxExpanded bounds the words expansion makes in one Parse; past it a
// word is kept as written and marked Dynamic.
const maxExpanded = 1 << 14

// expand returns the words w stands for (see expandWord), within the
// parse's bound.
func (p *parser) expand(w Word, marks braceMarks, groups []extglobGroup, quotes []int) []Word {
	if len(marks) == 0 && len(groups) == 0 {
		return []Word{w}
	}
	if p.s.expanded >= maxExpanded {
		w.Dynamic = true
		return []Word{w}
	}
	ws := expandWord(w, marks, groups, quotes)
	p.s.expanded += len(ws)
	return ws
}

func (s *state) fail(err error) {
	if s.err == nil {
		s.err = err
	}
}

// parse reads one source string (the top level or a nested one) and
// appends its raw commands.
func (s *state) parse(src string, depth int, via string, parent int) {
	if depth > MaxDepth {
		s.fail(ErrDepth)
		return
	}
	p := &parser{s: s, src: src, depth: depth, via: via, parent: parent}
	p.list(0)
	p.readHeredocs() // a heredoc started on the last line
	if p.pos < len(p.src) && s.err == nil {
		s.fail(ErrSyntax)
	}
}

// add appends a command, honouring maxCommands.
func (s *state) add(c Command) int {
	if len(s.cmds) >= maxCommands {
		s.fail(ErrTooMany)
		s.stop = true
		return -1
	}
	s.cmds = append(s.cmds, c)
	return len(s.cmds) - 1
}

// parser reads one source string.
type parser struct {
	s      *state
	src    string
	pos    int
	depth  int
	via    string
	parent int
	nest   int
	// pending heredocs wait for the next new line.
	pending []heredoc
	// ext: the next word is an argument, a redirection target or a
	// pattern, where bash with extglob on reads ?(…) *(…) +(…) @(…) !(…)
	// as part of the word (see word).
	ext bool
	// extAssign: the next word starts a command; an extglob pattern is
	// part of it only after NAME=.
	extAssign bool
	// marks and groups: the unquoted braces and commas, and the extglob
	// groups, of the word read last.
	marks  braceMarks
	groups []extglobGroup
	// quotes: where the quoted parts of the word read last start.
	quotes []int
}

// argWord reads a word where an extglob pattern is part of it.
func (p *parser) argWord() Word {
	p.ext = true
	return p.word()
}

type heredoc struct {
	cmd    int // index in s.cmds, or -1
	delim  string
	strip  bool // <<-
	expand bool // unquoted delimiter: $(…) in the body runs
}

func (p *parser) eof() bool { return p.pos >= len(p.src) }

func (p *parser) peek(off int) byte {
	if p.pos+off < len(p.src) {
		return p.src[p.pos+off]
	}
	return 0
}

func (p *parser) has(prefix string) bool { return strings.HasPrefix(p.src[p.pos:], prefix) }

// blanks skips spaces, tabs, line continuations and comments (not new
// lines).
func (p *parser) blanks() {
	for !p.eof() {
		switch c := p.src[p.pos]; {
		case c == ' ' || c == '\t' || c == '\r':
			p.pos++
		case c == '\\' && p.peek(1) == '\n':
			p.pos += 2
		case c == '#':
			for !p.eof() && p.src[p.pos] != '\n' {
				p.pos++
			}
		default:
			return
		}
	}
}

// tooDeep reports whether the nesting p.nest passes maxNest; then the
// parse fails with ErrDepth and reads no further.
func (p *parser) tooDeep() bool {
	if p.nest <= maxNest {
		return false
	}
	p.s.fail(ErrDepth)
	p.pos = len(p.src)
	return true
}

// list reads commands until end, or until the closing byte close (')' or
// '}' for a brace group is handled as a word). It stops before close.
func (p *parser) list(close byte) {
	p.nest++
	defer func() { p.nest-- }()
	if p.tooDeep() {
		return
	}
	pipeFrom := -1
	for {
		p.blanks()
		if p.s.stop {
			p.pos = len(p.src)
			return
		}
		if p.eof() {
			if close != 0 {
				p.s.fail(ErrSyntax)
			}
			return
		}
		c := p.src[p.pos]
		switch {
		case c == '\n':
			p.pos++
			p.readHeredocs()
			pipeFrom = -1
		case c == close:
			return
		case c == ')':
			// A stray closing parenthesis (a case pattern is read by
			// caseClause). Skip it, but remember the script is odd.
			p.s.fail(ErrSyntax)
			p.pos++
		case p.has(";;"):
			p.pos += 2
			if p.has("&") {
				p.pos++
			}
			pipeFrom = -1
		case c == ';' || c == '&' && !p.has("&>"):
			if p.has("&&") {
				p.pos++
			}
			p.pos++
			pipeFrom = -1
		case c == '|':
			p.pos++
			if p.has("|") {
				p.pos++
				pipeFrom = -1
				continue
			}
			if p.has("&") {
				p.pos++
			}
			pipeFrom = len(p.s.cmds) - 1
		case c == '(':
			p.pos++
			if p.has("(") { // (( arithmetic ))
				p.pos++
				p.arith(')')
				continue
			}
			p.list(')')
			if p.eof() {
				return
			}
			p.pos++ // ')'
		default:
			start := len(p.s.cmds)
			p.simple(pipeFrom)
			if len(p.s.cmds) > start {
				pipeFrom = -1
			}
		}
		if p.pos > len(p.src) {
			p.pos = len(p.src)
		}
	}
}

// arith reads an arithmetic expression up to its closing "))" (close
// ')') or "]" ($[ … ], close ']'). The substitutions in it run before it is
// computed ($(( $(cmd) + 1 ))): they are read as nested commands.
func (p *parser) arith(close byte) {
	p.nest++
	defer func() { p.nest-- }()
	if p.tooDeep() {
		return
	}
	depth := 0
	var scratch strings.Builder
	for !p.eof() {
		switch p.src[p.pos] {
		case '(':
			depth++
		case '[':
			if close == ']' {
				depth++
			}
		case ']':
			if close == ']' {
				if depth == 0 {
					p.pos++
					return
				}
				depth--
			}
		case ')':
			if close == ')' && depth == 0 && p.peek(1) == ')' {
				p.pos += 2
				return
			}
			depth--
		case '$':
			scratch.Reset()
			p.dollar(&scratch)
			continue
		case '`':
			scratch.Reset()
			p.backtick(&scratch)
			continue
		}
		p.pos++
	}
	p.s.fail(ErrSyntax)
}

// reserved words that only introduce or close a compound command; the
// command after them is read as usual.
func isReserved(s string) bool {
	switch s {
	case "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "!", "{", "}", "esac", "coproc":
		return true
	}
	return false
}

// isMeta reports whether c ends an unquoted word.
func isMeta(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', ';', '&', '|', '(', ')', '<', '>':
		return true
	}
	return false
}

// simple reads one simple command (and the reserved words before it).
func (p *parser) simple(pipeFrom int) {
	first := len(p.s.cmds)
	cmd := Command{Via: p.via, Depth: p.depth, Parent: p.parent, PipeFrom: pipeFrom}
	var pend []heredoc
	lead := true // still at the start: reserved words and assignments count
	for {
		p.blanks()
		if p.eof() {
			break
		}
		c := p.src[p.pos]
		if c == '\n' || c == ';' || c == '|' || c == ')' || c == '&' && !p.has("&>") {
			break
		}
		if c == '(' {
			if len(cmd.Args) > 0 || !lead {
				// name() — a function definition; the body follows.
				cmd.Args = nil
			}
			break
		}
		if (c == '<' || c == '>') && p.peek(1) == '(' {
			w := p.word()
			cmd.Args = append(cmd.Args, w)
			lead = false
			continue
		}
		if r, ok := p.redirect(); ok {
			if r.Op == "<<" || r.Op == "<<-" {
				pend = append(pend, heredoc{delim: r.Target.Text, strip: r.Op == "<<-", expand: !r.Target.Quoted})
			}
			if r.Op == "<<<" {
				cmd.Stdin, cmd.HasStdin = r.Target.Text, true
			}
			cmd.Redirects = append(cmd.Redirects, r)
			continue
		}
		start := p.pos
		var w Word
		if len(cmd.Args) > 0 {
			w = p.argWord()
		} else {
			p.extAssign = true
			w = p.word()
		}
		if p.pos == start { // nothing readable: skip one byte
			p.pos++
			continue
		}
		marks, groups, quotes := p.marks, p.groups, p.quotes
		// A quoted word is no reserved word, but NAME="a b" is still an
		// assignment: only the value is quoted.
		if lead && (!w.Quoted || isAssignment(p.src[start:p.pos])) {
			if isReserved(w.Text) {
				continue
			}
			switch w.Text {
			case "case":
				p.caseClause()
				p.adopt(first, -1)
				return
			case "for", "select":
				p.blanks()
				if p.has("((") {
					p.pos += 2
					p.arith(')')
				}
				// for NAME in WORDS: the words are data; a $(…) among them
				// was already read by word.
				p.skipWords()
				p.adopt(first, -1)
				return
			case "function":
				p.blanks()
				p.word() // the name
				p.blanks()
				if p.has("()") {
					p.pos += 2
				}
				continue
			case "time":
				// bash's time keyword; -p is its only option
				p.blanks()
				if p.has("-p") && (p.pos+2 >= len(p.src) || isMeta(p.src[p.pos+2])) {
					p.pos += 2
				}
				cmd.Wrappers = append(cmd.Wrappers, "time")
				continue
			}
			if name, ok := assignment(w.Text); ok && len(cmd.Args) == 0 {
				if p.has("(") && strings.HasSuffix(name, "=") { // NAME=(array)
					// recorded as NAME=(word …), each word single-quoted
					// with its expansions (braces, extglob) made
					var elems []string
					p.pos++
					for !p.eof() && p.src[p.pos] != ')' {
						p.blanks()
						if p.eof() || p.src[p.pos] == ')' {
							break
						}
						if p.src[p.pos] == '\n' {
							p.pos++
							continue
						}
						st := p.pos
						ew := p.argWord()
						if p.pos == st {
							p.pos++
							continue
						}
						for _, x := range p.expand(ew, p.marks, p.groups, p.quotes) {
							elems = append(elems, Quote(x.Text))
						}
					}
					if !p.eof() {
						p.pos++
					}
					name += "(" + strings.Join(elems, " ") + ")"
				}
				cmd.Assigns = append(cmd.Assigns, name)
				continue
			}
		}
		lead = false
		cmd.Args = append(cmd.Args, p.expand(w, marks, groups, quotes)...)
	}
	i := -1
	if len(cmd.Args) > 0 || len(cmd.Redirects) > 0 || len(cmd.Assigns) > 0 || len(pend) > 0 {
		i = p.s.add(cmd)
	}
	p.adopt(first, i)
	if i < 0 {
		return
	}
	for _, h := range pend {
		h.cmd = i
		p.pending = append(p.pending, h)
	}
}

// adopt gives the commands found since first inside the words of the
// command now at index i (or, when none was added, -1) their parent.
func (p *parser) adopt(first, i int) {
	parent := i
	if i < 0 {
		parent = p.parent
	}
	end := len(p.s.cmds)
	if i >= 0 {
		end = i
	}
	for j := first; j < end; j++ {
		if p.s.cmds[j].Parent == holder {
			p.s.cmds[j].Parent = parent
		}
	}
}

// skipWords reads words (and their substitutions) to the end of the
// command.
func (p *parser) skipWords() {
	for {
		p.blanks()
		if p.eof() || isMeta(p.src[p.pos]) {
			return
		}
		st := p.pos
		p.argWord()
		if p.pos == st {
			p.pos++
		}
	}
}

// caseClause reads "case WORD in PATTERN) LIST ;; … esac" after "case".
func (p *parser) caseClause() {
	p.blanks()
	p.word() // the subject
	for {
		p.blanks()
		if p.eof() {
			p.s.fail(ErrSyntax)
			return
		}
		if p.src[p.pos] == '\n' || p.src[p.pos] == ';' {
			p.pos++
			continue
		}
		st := p.pos
		w := p.word()
		if p.pos == st {
			p.pos++
			continue
		}
		if w.Text == "in" && !w.Quoted {
			break
		}
	}
	for {
		// patterns up to ')'
		for {
			p.blanks()
			if p.eof() {
				p.s.fail(ErrSyntax)
				return
			}
			c := p.src[p.pos]
			if c == '\n' || c == '(' || c == '|' {
				p.pos++
				if c == '\n' {
					p.readHeredocs()
				}
				continue
			}
			if c == ')' {
				p.pos++
				break
			}
			st := p.pos
			w := p.argWord()
			if p.pos == st {
				p.pos++
				continue
			}
			if w.Text == "esac" && !w.Quoted {
				return
			}
		}
		// the body, up to ;; ;& ;;& or esac
		p.caseBody()
		if p.eof() {
			return
		}
		if p.has(";;") {
			p.pos += 2
			if p.has("&") {
				p.pos++
			}
		} else if p.has(";&") {
			p.pos += 2
		} else { // esac
			p.pos += 4
			return
		}
	}
}

// caseBody reads the commands of one case item.
func (p *parser) caseBody() {
	for {
		p.blanks()
		if p.eof() || p.has(";;") || p.has(";&") {
			return
		}
		if p.has("esac") && (p.pos+4 == len(p.src) || isMeta(p.src[p.pos+4])) {
			return
		}
		c := p.src[p.pos]
		switch {
		case c == '\n':
			p.pos++
			p.readHeredocs()
		case c == ';' || c == '&' || c == '|':
			p.pos++
		case c == '(':
			p.pos++
			p.list(')')
			if !p.eof() {
				p.pos++
			}
		case c == ')':
			p.s.fail(ErrSyntax)
			p.pos++
		default:
			st := p.pos
			p.simple(-1)
			if p.pos == st {
				p.pos++
			}
		}
	}
}

// isAssignment reports whether raw, a word as written, starts with an
// unquoted NAME= (or NAME+=), whatever the quoting of the value.
func isAssignment(raw string) bool {
	eq := strings.IndexByte(raw, '=')
	if eq <= 0 {
		return false
	}
	_, ok := assignment(raw[:eq+1])
	return ok
}

// assignment reports whether w is NAME=value (or NAME+=value).
func assignment(w string) (string, bool) {
	eq := strings.IndexByte(w, '=')
	if eq <= 0 {
		return "", false
	}
	name := strings.TrimSuffix(w[:eq], "+")
	if name == "" {
		return "", false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return "", false
		}
	}
	return w, true
}

// redirect reads a redirection at the current position, if there is one.
func (p *parser) redirect() (Redirect, bool) {
	st := p.pos
	fd := -1
	i := p.pos
	for i < len(p.src) && p.src[i] >= '0' && p.src[i] <= '9' {
		i++
	}
	// As bash's lexer: digits glued to < or > name the descriptor when
	// they are a number that fits an int (00000<f is descriptor 0); a run
	// that overflows is a word of its own (012345678901234567890<f).
	if i > p.pos && i < len(p.src) && (p.src[i] == '<' || p.src[i] == '>') {
		if v, err := strconv.ParseInt(p.src[p.pos:i], 10, 64); err == nil && v <= math.MaxInt32 {
			fd = int(v)
			p.pos = i
		}
	}
	var op string
	for _, o := range []string{"<<<", "<<-", "<<", "<>", "<&", "<", "&>>", "&>", ">>", ">|", ">&", ">"} {
		if p.has(o) {
			op = o
			break
		}
	}
	if op == "" {
		p.pos = st
		return Redirect{}, false
	}
	p.pos += len(op)
	p.blanks()
	w := p.argWord()
	return Redirect{Op: op, Fd: fd, Target: w}, true
}

// readHeredocs reads the bodies of the pending heredocs, which start at
// the current position (just after a new line).
func (p *parser) readHeredocs() {
	pend := p.pending
	p.pending = nil
	for _, h := range pend {
		var body strings.Builder
		found := false
		for !p.eof() {
			end := strings.IndexByte(p.src[p.pos:], '\n')
			line := p.src[p.pos:]
			if end >= 0 {
				line = line[:end]
				p.pos += end + 1
			} else {
				p.pos = len(p.src)
			}
			cmp := line
			if h.strip {
				cmp = strings.TrimLeft(cmp, "\t")
			}
			if strings.TrimSuffix(cmp, "\r") == h.delim {
				found = true
				break
			}
			if h.strip {
				line = strings.TrimLeft(line, "\t")
			}
			body.WriteString(line)
			body.WriteByte('\n')
		}
		_ = found // bash reads an unterminated heredoc to the end, with a warning
		text := body.String()
		if h.expand {
			// $(…) and backticks in an unquoted heredoc run.
			first := len(p.s.cmds)
			sub := &parser{s: p.s, src: text, depth: p.depth, via: p.via, parent: holder}
			sub.expansions()
			for j := first; j < len(p.s.cmds); j++ {
				if p.s.cmds[j].Parent == holder {
					p.s.cmds[j].Parent = h.cmd
				}
			}
		}
		if h.cmd >= 0 && h.cmd < len(p.s.cmds) {
			c := &p.s.cmds[h.cmd]
			c.Stdin, c.HasStdin = text, true
		}
	}
}

// expansions scans text as the inside of double quotes without a closing
// quote, reading the substitutions in it.
func (p *parser) expansions() {
	var b strings.Builder
	for !p.eof() {
		p.dquoted(&b, true)
		if !p.eof() {
			p.pos++ // a '"' that does not close anything here
		}
	}
}
