package shell

import (
	"slices"
	"strings"
	"testing"
)

// TestBraceExpansion holds the words bash makes of braces (checked with
// bash 5.2's echo) and of extglob groups (the plain globs that match at
// least as much).
func TestBraceExpansion(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`rm -rf {/,x}`, `rm|-rf|/|x`},
		{`{rm,-rf,/}`, `rm|-rf|/`},
		{`echo a{b,c}d{e,f}`, `echo|abde|abdf|acde|acdf`},
		{`echo x{a,{b,c}}y`, `echo|xay|xby|xcy`},
		{`echo {01..3}`, `echo|01|02|03`},
		{`echo {-3..3..2}`, `echo|-3|-1|1|3`},
		{`echo {5..1..2}`, `echo|5|3|1`},
		{`echo {a..e..2}`, `echo|a|c|e`},
		{`echo {c..a}`, `echo|c|b|a`},
		{`echo {a,b`, `echo|{a,b`},
		{`echo {a{b,c}`, `echo|{ab|{ac`},
		{`echo {,/}`, `echo|/`},
		{`echo {,} x`, `echo|x`},
		{`echo {"",/}`, `echo||/`},
		{`echo {,{0""0{}}}`, `echo|{00{}}`},
		{`echo {'',a}{,b}`, `echo||b|a|ab`},
		{`{..,}`, `..`},
		{`echo ""{,/}`, `echo||/`},
		{`echo {a,{b,c}`, `echo|{a,b|{a,c`},
		{`echo a,b}`, `echo|a,b}`},
		{`echo {}`, `echo|{}`},
		{`echo {x}`, `echo|{x}`},
		{`echo {a..}`, `echo|{a..}`},
		{`echo "{a,b}"`, `echo|{a,b}`},
		{`echo '{a,b}'{c,d}`, `echo|{a,b}c|{a,b}d`},
		{`echo \{a,b}`, `echo|{a,b}`},
		{`echo {a,"b c"}`, `echo|a|b c`},
		{`x={a,b} echo {a,b}`, `echo|a|b`},
		{`printf %s {} +`, `printf|%s|{}|+`},
		{`rm -rf !(.git)`, `rm|-rf|*`},
		{`rm -rf ./.!(x)`, `rm|-rf|./.*`},
		{`ls @(a|b).go`, `ls|a.go|b.go`},
		{`ls x?(a|b)`, `ls|x|xa|xb`},
		{`ls +(a|b)`, `ls|a*|b*`},
		{`ls *(a)`, `ls|a*`},
		{`ls @(a|!(b))`, `ls|a|*`},
		{`ls {a,b}@(x|y)`, `ls|ax|bx|ay|by`},
	} {
		cmds, err := Parse(c.src)
		if err != nil || len(cmds) != 1 {
			t.Errorf("%q: %d commands, %v", c.src, len(cmds), err)
			continue
		}
		if got := strings.Join(cmds[0].Strings(), "|"); got != c.want {
			t.Errorf("%q: got %s, want %s", c.src, got, c.want)
		}
	}
}

// TestBraceExpansionBounded: a word that expands past the bound is kept
// as written and marked Dynamic, a value the guard cannot know, and the
// bound holds however the braces are nested or multiplied.
func TestBraceExpansionBounded(t *testing.T) {
	for _, src := range []string{
		`echo {1..100000}`,
		`echo {1..9223372036854775807}`,
		`echo {-9223372036854775807..9223372036854775807}`,
		`echo ` + strings.Repeat(`{a,b}`, 40),
		`echo ` + strings.Repeat(`{,a}`, 30) + `{x,/}`,
		`echo ` + strings.Repeat(`@(a|b)`, 20),
		`echo ` + strings.Repeat(`@(a|b)`, 4) + strings.Repeat(`{a,b}`, 5),
		`echo @(` + strings.Repeat(`a|`, 2000) + `b)`,
	} {
		cmds, err := Parse(src)
		if err != nil || len(cmds) != 1 {
			t.Fatalf("%.40q: %d commands, %v", src, len(cmds), err)
		}
		args := cmds[0].Args
		if len(args) != 2 || !args[1].Dynamic {
			t.Errorf("%.40q: %d words (dynamic %v), want the word kept and marked dynamic", src, len(args), len(args) > 1 && args[1].Dynamic)
		}
	}
	// arithmetic nested past the bound ends the parse with ErrDepth
	if _, err := Parse(`echo ` + strings.Repeat(`$((`, 100000)); err == nil {
		t.Errorf("100000 nested $((: no error")
	}
	// many braces that never close: each is text, read in one pass
	for _, src := range []string{`echo ` + strings.Repeat(`{`, 4000) + `a,b}`, `echo ` + strings.Repeat(`{a,`, 1300) + `}`} {
		cmds, err := Parse(src)
		if err != nil || len(cmds) != 1 || len(cmds[0].Args) != 3 {
			t.Errorf("%.20q…: %d commands, %v; want echo and two words", src, len(cmds), err)
		}
	}
	// the bound of one parse: many words that each expand
	many, _ := Parse(`echo ` + strings.Repeat(`{1..200} `, 200))
	if n := len(many[0].Args); n > maxExpanded+200 || !many[0].Args[n-1].Dynamic {
		t.Errorf("200 × {1..200}: %d words, the last dynamic %v; want at most %d, the rest dynamic", n, many[0].Args[n-1].Dynamic, maxExpanded+200)
	}
	cmds, _ := Parse(`echo {1..256}`)
	if n := len(cmds[0].Args); n != 257 || slices.ContainsFunc(cmds[0].Args, func(w Word) bool { return w.Dynamic }) {
		t.Errorf("{1..256}: %d words, want 257, none dynamic", n)
	}
}
