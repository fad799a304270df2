package shell

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// mvdan.cc/sh/v3/syntax is the shell parser the Go world uses. It is not
// in the runtime (the hook binary keeps its hand-written parser, which
// also unwraps sh -c strings, wrappers and runners); it is this package's
// oracle: every command the two read differently is known and decided.
// The differences on the corpora (the guard's and this package's) are
// listed, by class, in testdata/oracle/differences.txt (go test -run
// TestOracle -update rewrites it; a change is a difference to decide), and
// the fuzzer fails on any difference outside the decided classes.

var updateOracle = flag.Bool("update", false, "rewrite testdata/oracle/differences.txt")

// oracleCall is one simple command as mvdan reads it: its words, each
// literal (its value) or not (ok false).
type oracleCall struct {
	words   []string
	literal []bool
	// fdProc: a word is a file descriptor's digits glued to a process
	// substitution (0<(…)), which this package reads as a redirect
	fdProc bool
	// gluedProc: a word is text glued to a process substitution
	// (A<(…)), one word to bash, two to this package
	gluedProc bool
	// braceCap: a word expands into more words than this package lists
	braceCap bool
	// extglob: a word is an extglob pattern (A!(x y)), which bash
	// without shopt extglob, as bash -c and sh -c run, refuses
	extglob bool
}

// litValue returns a word's value when every part of it is literal
// (plain, single- or double-quoted text), with the shell's quote removal.
func litValue(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(unescapeLit(p.Value, false))
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false // $'…': ANSI-C escapes (a decided difference: not compared)
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", false
			}
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(unescapeLit(l.Value, true))
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// unescapeLit removes the backslashes the shell removes: outside quotes
// every one (a backslash-newline is nothing), inside double quotes the
// ones before $ ` " \ and a new line.
func unescapeLit(s string, dq bool) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			n := s[i+1]
			if !dq || n == '$' || n == '`' || n == '"' || n == '\\' || n == '\n' {
				if n != '\n' {
					b.WriteByte(n)
				}
				i++
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// oracleCalls parses src with mvdan (bash) and returns its simple
// commands: every CallExpr, in substitutions and process substitutions
// too, but not in the strings a command hands to another shell.
func oracleCalls(src string) ([]oracleCall, bool, error) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return nil, false, err
	}
	var out []oracleCall
	tests := false
	// gluedTarget: the calls whose statement redirects to a word glued to
	// a process substitution (A <x<(…)): bash reads the target as one
	// word (x/dev/fd/63), this package as the target x and a word <(…)
	gluedTarget := map[*syntax.CallExpr]bool{}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			if call, ok := n.Cmd.(*syntax.CallExpr); ok {
				for _, r := range n.Redirs {
					if r.Word == nil || len(r.Word.Parts) < 2 {
						continue
					}
					for _, p := range r.Word.Parts[1:] {
						if _, ok := p.(*syntax.ProcSubst); ok {
							gluedTarget[call] = true
						}
					}
				}
			}
		case *syntax.CallExpr:
			if len(n.Args) == 0 {
				return true // assignments only
			}
			if v, ok := litValue(n.Args[0]); ok && v == "" || len(n.Args[0].Parts) == 1 && isEmptyProcSubst(n.Args[0].Parts[0]) {
				return true // an empty program name, or an empty <(): runs nothing
			}
			var c oracleCall
			c.gluedProc = gluedTarget[n]
			for _, w := range n.Args {
				if len(w.Parts) >= 2 {
					if l, ok := w.Parts[0].(*syntax.Lit); ok {
						if ps, ok := w.Parts[1].(*syntax.ProcSubst); ok && (strings.Trim(l.Value, "0123456789") == "" || len(ps.Stmts) == 0) {
							c.fdProc = true // 0<(…), or text glued to an empty <()
						}
					}
					for _, p := range w.Parts[1:] {
						if _, ok := p.(*syntax.ProcSubst); ok && !c.fdProc {
							c.gluedProc = true // A<(…), a$<(…)
						}
					}
				}
				// brace expansion, by mvdan's own expand.Braces: this
				// package expands braces as bash does
				// (on a copy: the walk does not know brace nodes)
				ws := []*syntax.Word{w}
				if cp := (&syntax.Word{Parts: slices.Clone(w.Parts)}); syntax.SplitBraces(cp) {
					ws = nil
					for x, err := range expand.BracesSeq(nil, cp) {
						if err != nil || len(ws) == maxBraceWords {
							c.braceCap = true
							break
						}
						if emptyLit(x) {
							continue // bash removes an unquoted empty word: {..,} is ..
						}
						ws = append(ws, x)
					}
				}
				for _, w := range ws {
					v, ok := litValue(w)
					c.words = append(c.words, v)
					c.literal = append(c.literal, ok)
				}
			}
			for _, w := range n.Args {
				for _, p := range w.Parts {
					if _, ok := p.(*syntax.ExtGlob); ok {
						c.extglob = true
					}
				}
			}
			if len(c.words) == 0 {
				return true // every word expanded to nothing ({,}): nothing runs
			}
			out = append(out, c)
		case *syntax.TestClause, *syntax.ArithmCmd, *syntax.LetClause, *syntax.DeclClause, *syntax.CoprocClause, *syntax.TestDecl:
			tests = true
		}
		return true
	})
	return out, tests, nil
}

// ours returns this package's simple commands that mvdan also reads as
// commands: those at the top level and in substitutions, not the ones it
// unwraps from sh -c strings, find -exec, ssh and runners.
func ours(src string) ([]Command, []Command, error) {
	cmds, err := Parse(src)
	syntactic := func(via string) bool {
		return via == "" || via == "$(…)" || via == "`…`" || via == "<(…)" || via == "${ …}"
	}
	var out []Command
	for _, c := range cmds {
		ok := syntactic(c.Via)
		// a substitution inside a string handed to eval or sh -c is read
		// where it is written; its second reading, inside the string, is
		// not mvdan's
		for p, hops := c.Parent, 0; ok && p >= 0 && p < len(cmds) && hops < 64; p, hops = cmds[p].Parent, hops+1 {
			ok = syntactic(cmds[p].Via)
		}
		if ok {
			out = append(out, c)
		}
	}
	return out, cmds, err
}

// unwrapped reports whether this package read mvdan's call m as the
// command it runs (watch, env -S, script -c, …): a command of all has a
// Via that names m's program.
func unwrapped(m oracleCall, all []Command) bool {
	if len(m.words) == 0 || !m.literal[0] {
		return false
	}
	name := ProgramName(m.words[0])
	for _, c := range all {
		if strings.HasPrefix(c.Via, name) {
			return true
		}
	}
	return false
}

// matches reports whether our command c is mvdan's call m: the same
// words, or m's words ending in c's (the wrappers c peeled: sudo, env,
// nohup, timeout, …) with m's first word c's first wrapper.
func matches(c Command, m oracleCall) bool {
	n := len(c.Args)
	if n > len(m.words) || n == 0 {
		return false
	}
	off := len(m.words) - n
	if off > 0 && (len(c.Wrappers) == 0 || !m.literal[0] || ProgramName(m.words[0]) != c.Wrappers[0]) {
		return false
	}
	if off == 0 && len(c.Wrappers) > 0 && c.Wrappers[0] != "time" && c.Wrappers[0] != "!" && c.Wrappers[0] != "coproc" {
		return false
	}
	for k, a := range c.Args {
		if !m.literal[off+k] {
			if !a.Dynamic && !strings.ContainsAny(a.Text, "$`") {
				return false
			}
			continue
		}
		if a.Text != m.words[off+k] {
			return false
		}
	}
	return true
}

// difference is one way the two parsers read a command differently.
type difference struct {
	class, detail string
}

// The decided classes of difference, and what the guard does about each.
var decided = map[string]string{
	"mvdan-rejects":      "mvdan (bash) rejects the line and this package reads it: the guard judges what it reads, and a line bash would not run does nothing worse than what is judged",
	"ours-rejects":       "this package rejects the line and mvdan reads it: the guard judges the line on its words (fallbackWords) and, at guard.level strict, blocks an unparsed line naming a guarded program",
	"test-clause":        "[[ … ]], (( … )), let, declare, export and their kin are clauses to mvdan, commands named [[, let, declare, export to this package: the guard reads their words as a command's, which is the stricter reading (export HISTFILE=/dev/null is judged as the assignment it makes)",
	"not-compared":       "a word mvdan cannot reduce to a literal ($'…', $\"…\", brace expansion, an extglob) that this package reads as literal text: the guard's path and word rules see the text as written, and a word that could expand to a guarded one is judged by the rules for unknown values",
	"ours-only":          "a command this package finds that mvdan does not (a function body's command read where it is defined, an alias body, an assignment's substitution): the guard judges more, never less",
	"mvdan-only":         "a command mvdan finds that this package does not read as a command",
	"trailing-backslash": "a backslash that ends the input: bash and mvdan keep it as a literal backslash, this package drops it (rm -rf /\\ is read as rm -rf /): the stricter reading of a path",
	"mvdan-assignment":   "a first word with = that is no assignment to bash (its name is not a shell name: a!=b): mvdan reads an assignment and runs the next word, this package (as bash) runs the word itself; the guard judges every word either way",
	"fd-procsubst":       "digits glued to a process substitution (echo 0<(cmd)): bash makes one word of them, this package a redirect of that descriptor and a subshell; the commands inside are read either way",
	"glued-procsubst":    "text glued to a process substitution (rm<(x) -rf /): bash makes one word of them (rm/dev/fd/63, no program a guard knows), this package two, the text and the substitution, so the guard judges the text as the program: the stricter reading; glued to a redirection's target (A <x<(y)), bash redirects from the one word, this package from x with <(y) a word of the command; the commands inside are read either way",
	"mvdan-crlf":         "a carriage return before a new line: mvdan drops it, in quotes too; bash keeps it (printf %s \"a\\r\\nb\" prints the \\r), as this package does: the words are bash's",
	"brace-cap":          "a brace expansion into more than 256 words ({1..1000}): mvdan lists them all; this package keeps the word as written and marks it a value it cannot know, which the guard judges as such: the stricter reading",
	"mvdan-heredoc":      "a heredoc body line that holds a $ and ends in the delimiter's text (<<0, then 0$00 or $00): mvdan ends the body there and reads the lines after it as commands; bash ends the body only at a line that is the delimiter, as this package does",
	"mvdan-comment":      "a # glued to a closing quote ('EOF'#): bash reads it as part of the word (the heredoc's delimiter is EOF#), mvdan as a comment, so it ends a heredoc at EOF and reads the lines after it as commands; bash reads them as the heredoc's body and runs nothing, as this package does",
	"assigned-reserved":  "a reserved word after an assignment or a redirection (A= for x, >f if): bash runs a program of that name, which does not exist, or refuses the line; this package reads the compound command it opens and the guard judges the commands in it: the stricter reading",
	"reserved-word":      "a reserved word out of place (else, fi, done, …) as a program name: mvdan reads a command named so, bash refuses the line as a syntax error and runs nothing",
	"bang-word":          "a ! that bash reads as a program name, not the negation (after an assignment: A= ! rm -rf x runs a program named !, which does not exist): this package reads the negation and judges the words after it as the command: the stricter reading",
	"mvdan-bigfd":        "digits over an int's range glued to a redirection (x 2170000000<f): bash reads them as a word (it prints x 2170000000), as this package does; mvdan as the descriptor",
	"nul-byte":           "a line with a NUL byte: Claude Code cannot hand it to a shell (exec takes C strings; Node's spawn refuses an argument with a NUL), so no reading of it runs; this package reads what it can, and the guard judges that",
	"extglob":            "a word with an extglob pattern (rm -rf !(keep)): mvdan reads the pattern as one word; bash runs it only with extglob on (releases before 2.0.77 keep the user's shell options) and refuses the line as a syntax error without it; this package reads it as the plain globs that match at least as much (!(keep) as *, @(a|b) as a and b), which the guard judges: the stricter reading",
	"unwrapped":          "a runner (watch, env -S, script -c, …) this package replaces by the command it runs: the guard judges the command that runs, and the runner itself is harmless",
}

// compare returns how the two parsers read src differently.
func compare(src string) []difference {
	if strings.IndexByte(src, 0) >= 0 {
		// no shell is handed a NUL: exec takes C strings, and Node's
		// spawn refuses an argument with a NUL in it
		diffs := compareRaw(src)
		for i := range diffs {
			diffs[i].class = "nul-byte"
		}
		return diffs
	}
	if strings.Contains(src, "\r\n") && len(compareWith(src, strings.ReplaceAll(src, "\r\n", "\n"))) == 0 {
		// mvdan drops a carriage return before a new line, in quotes
		// too (mvdan on src reads what this package reads without
		// them); bash keeps it, as this package does
		diffs := compareRaw(src)
		for i := range diffs {
			diffs[i].class = "mvdan-crlf"
		}
		return diffs
	}
	if bigFd(src) {
		diffs := compareRaw(src)
		for i := range diffs {
			diffs[i].class = "mvdan-bigfd"
		}
		return diffs
	}
	if trailingBackslash(src) {
		// bash and mvdan keep a backslash that ends the input as a
		// literal one; this package drops it
		diffs := compareRaw(src)
		for i := range diffs {
			diffs[i].class = "trailing-backslash"
		}
		return diffs
	}
	return compareRaw(src)
}

// fdDigits is a run of digits glued to a redirection operator.
var fdDigits = regexp.MustCompile(`[0-9]+[<>]`)

// bigFd reports whether src glues to a redirection a run of digits over
// an int's range, which bash reads as a word (echo x 2170000000<f prints
// x 2170000000) and mvdan as a descriptor.
func bigFd(src string) bool {
	for _, m := range fdDigits.FindAllString(src, -1) {
		if v, err := strconv.ParseInt(m[:len(m)-1], 10, 64); err != nil || v > math.MaxInt32 {
			return true
		}
	}
	return false
}

// trailingBackslash reports whether src ends with an odd run of
// backslashes (one that escapes nothing).
func trailingBackslash(src string) bool {
	n := 0
	for i := len(src) - 1; i >= 0 && src[i] == '\\'; i-- {
		n++
	}
	return n%2 == 1
}

// compareRaw compares the two parsers' commands for src.
func compareRaw(src string) []difference { return compareWith(src, src) }

// compareWith compares mvdan's commands for mvdanSrc with this package's
// for oursSrc.
func compareWith(mvdanSrc, oursSrc string) []difference {
	src := mvdanSrc
	mc, tests, merr := oracleCalls(mvdanSrc)
	oc, all, oerr := ours(oursSrc)
	switch {
	case merr != nil && oerr == nil:
		return []difference{{"mvdan-rejects", merr.Error()}}
	case merr == nil && oerr != nil:
		return []difference{{"ours-rejects", oerr.Error()}}
	case merr != nil:
		return nil // both reject
	}
	used := make([]bool, len(mc))
	var diffs []difference
	for _, c := range oc {
		if len(c.Args) == 0 {
			continue
		}
		found := false
		for j, m := range mc {
			if !used[j] && matches(c, m) {
				used[j], found = true, true
				break
			}
		}
		// words with = that bash does not take for assignments (a!=b c,
		// 0=[ 0=[ c): mvdan may read them as such, and run only c
		for n := 1; !found && n < len(c.Args) && strings.Contains(c.Args[n-1].Text, "="); n++ {
			for j, m := range mc {
				// (the next word may be one mvdan cannot reduce: 0$00)
				if !used[j] && len(m.words) == len(c.Args)-n && (m.literal[0] && m.words[0] == c.Args[n].Text || !m.literal[0] && strings.Contains(c.Args[n].Text, "$")) {
					used[j], found = true, true
					diffs = append(diffs, difference{"mvdan-assignment", fmt.Sprintf("%q", c.Strings())})
					break
				}
			}
		}
		if !found && len(c.Wrappers) > 0 {
			// env -S 'cmd args': the wrapper's string is split into the
			// command it runs
			for j, m := range mc {
				if !used[j] && len(m.words) > 0 && m.literal[0] && ProgramName(m.words[0]) == c.Wrappers[0] {
					used[j] = true
					diffs = append(diffs, difference{"unwrapped", fmt.Sprintf("%q", c.Strings())})
					found = true
					break
				}
			}
		}
		if !found {
			class := "ours-only"
			if fdProcIn(src) {
				class = "fd-procsubst"
			}
			if slices.ContainsFunc(mc, func(m oracleCall) bool { return m.braceCap }) {
				class = "brace-cap"
			}
			if n := c.Name(); tests && (n == "[[" || n == "((" || n == "let" || n == "declare" || n == "typeset" || n == "local" || n == "export" || n == "readonly" || n == "coproc") {
				class = "test-clause"
			} else if nearMatch(c, mc, used) {
				class = "not-compared"
			}
			diffs = append(diffs, difference{class, fmt.Sprintf("%q", c.Strings())})
		}
	}
	for j, m := range mc {
		if !used[j] {
			class := "mvdan-only"
			switch {
			case oursNear(m, oc):
				class = "not-compared"
			case unwrapped(m, all):
				class = "unwrapped"
			case m.fdProc:
				class = "fd-procsubst"
			case m.extglob:
				class = "extglob"
			case m.gluedProc:
				class = "glued-procsubst"
			case m.braceCap:
				class = "brace-cap"
			case len(m.words) > 0 && m.literal[0] && m.words[0] == "!":
				class = "bang-word"
			case len(m.words) > 0 && m.literal[0] && slices.Contains([]string{"then", "else", "elif", "fi", "do", "done", "esac", "}", "in"}, m.words[0]):
				class = "reserved-word"
			case len(m.words) > 0 && m.literal[0] && slices.Contains([]string{"for", "if", "while", "until", "case", "select", "function", "coproc", "time", "{", "[["}, m.words[0]):
				class = "assigned-reserved"
			case heredocEarlyEnd(src):
				class = "mvdan-heredoc"
			case strings.Contains(src, "'#") || strings.Contains(src, `"#`):
				class = "mvdan-comment"
			}
			diffs = append(diffs, difference{class, fmt.Sprintf("%q", m.words)})
		}
	}
	return diffs
}

// nearMatch reports whether an unmatched command of ours has a call of
// mvdan's with the same number of words and the same program where only
// words mvdan could not reduce to literals differ.
func nearMatch(c Command, mc []oracleCall, used []bool) bool {
	for j, m := range mc {
		if used[j] || len(m.words) < len(c.Args) {
			continue
		}
		off := len(m.words) - len(c.Args)
		same := true
		for k, a := range c.Args {
			if m.literal[off+k] && m.words[off+k] != a.Text {
				same = false
				break
			}
		}
		if same {
			used[j] = true
			return true
		}
	}
	return false
}

// oursNear reports whether an unmatched call of mvdan's is a command of
// ours whose words differ only where mvdan's are not literal.
func oursNear(m oracleCall, oc []Command) bool {
	for _, c := range oc {
		if len(c.Args) == 0 || len(c.Args) > len(m.words) {
			continue
		}
		off := len(m.words) - len(c.Args)
		same := true
		for k, a := range c.Args {
			if m.literal[off+k] && m.words[off+k] != a.Text {
				same = false
				break
			}
		}
		if same {
			return true
		}
	}
	return false
}

// oracleCorpus is every command line of the guard's corpora and this
// package's fuzz seeds.
func oracleCorpus(t testing.TB) []string {
	var out []string
	files, _ := filepath.Glob("../guard/testdata/model/*.txt")
	more, _ := filepath.Glob("../guard/testdata/packs/*.txt")
	files = append(files, more...)
	sort.Strings(files)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			switch {
			case strings.HasPrefix(line, "  ") && len(out) > 0:
				out[len(out)-1] += "\n" + line[2:]
			case strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#"):
			default:
				out = append(out, line)
			}
		}
	}
	return out
}

// TestOracle compares the two parsers on the corpora: every difference is
// of a decided class, and the list of differences is the committed one.
func TestOracle(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("# How internal/shell and mvdan.cc/sh/v3/syntax read the corpora's commands\n")
	b.WriteString("# differently, by class (see decided in oracle_test.go for what each means\n")
	b.WriteString("# and what the guard does about it). go test ./internal/shell -run TestOracle\n")
	b.WriteString("# -update rewrites this file; a new line is a new difference to decide.\n")
	byClass := map[string][]string{}
	n := 0
	for _, src := range oracleCorpus(t) {
		n++
		for _, d := range compare(src) {
			if _, ok := decided[d.class]; !ok {
				t.Errorf("%q: an undecided difference %s: %s", src, d.class, d.detail)
			}
			byClass[d.class] = append(byClass[d.class], fmt.Sprintf("%q: %s", src, d.detail))
		}
	}
	var classes []string
	for c := range byClass {
		classes = append(classes, c)
	}
	sort.Strings(classes)
	for _, c := range classes {
		fmt.Fprintf(&b, "\n## %s (%d): %s\n", c, len(byClass[c]), decided[c])
		for _, l := range byClass[c] {
			b.WriteString(strings.ReplaceAll(l, "\n", `\n`) + "\n")
		}
	}
	t.Logf("%d command lines compared", n)
	golden := filepath.Join("testdata", "oracle", "differences.txt")
	if *updateOracle {
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(want, b.Bytes()) {
		t.Errorf("the differences between the parsers changed; review them and run go test ./internal/shell -run TestOracle -update\n%s", lineDiff(string(want), b.String()))
	}
}

// lineDiff lists the lines only one of two texts has.
func lineDiff(a, b string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	ia, ib := in(a), in(b)
	var out strings.Builder
	for _, l := range strings.Split(a, "\n") {
		if !ib[l] {
			out.WriteString("- " + l + "\n")
		}
	}
	for _, l := range strings.Split(b, "\n") {
		if !ia[l] {
			out.WriteString("+ " + l + "\n")
		}
	}
	return out.String()
}

// FuzzOracle runs both parsers on any input: every difference must be of
// a decided class, and "mvdan-only" (a command bash runs that this package
// does not read) is not decided for input where the guard would not
// judge the words some other way.
func FuzzOracle(f *testing.F) {
	for _, s := range oracleCorpus(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 {
			return
		}
		for _, d := range compare(src) {
			if _, ok := decided[d.class]; !ok {
				t.Fatalf("%q: an undecided difference %s: %s", src, d.class, d.detail)
			}
			if d.class == "mvdan-only" {
				t.Fatalf("%q: bash runs a command this package does not read: %s", src, d.detail)
			}
		}
	})
}

// heredocEarlyEnd reports whether src has a heredoc body line that holds
// a $ and ends in the heredoc's delimiter (<<0, then 0$00 or $00): mvdan
// ends the body there.
func heredocEarlyEnd(src string) bool {
	lines := strings.Split(src, "\n")
	for _, m := range regexp.MustCompile(`<<-?[ \t]*['"]?([^\s'"<>;&|()]+)`).FindAllStringSubmatch(src, -1) {
		for _, l := range lines {
			if l != m[1] && strings.Contains(l, "$") && strings.HasSuffix(l, m[1]) {
				return true
			}
		}
	}
	return false
}

// emptyLit reports whether a word is empty and unquoted (an empty
// alternative of a brace expansion).
func emptyLit(w *syntax.Word) bool {
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); !ok || l.Value != "" {
			return false
		}
	}
	return true
}

// isEmptyProcSubst reports whether a word part is <() or >() with no
// command in it.
func isEmptyProcSubst(p syntax.WordPart) bool {
	ps, ok := p.(*syntax.ProcSubst)
	return ok && len(ps.Stmts) == 0
}

// fdProcIn reports whether src glues digits to a process substitution.
func fdProcIn(src string) bool {
	for i := 1; i+1 < len(src); i++ {
		if (src[i] == '<' || src[i] == '>') && src[i+1] == '(' && src[i-1] >= '0' && src[i-1] <= '9' {
			return true
		}
	}
	return false
}
