package shell

import (
	"strings"
	"testing"
)

// render shows the commands Parse found, one per line: depth, via and the
// words joined by " | ".
func render(cmds []Command) string {
	var b strings.Builder
	for _, c := range cmds {
		b.WriteString(strings.Repeat(">", c.Depth))
		if c.Via != "" {
			b.WriteString("[" + c.Via + "] ")
		}
		b.WriteString(strings.Join(c.Strings(), " | "))
		if c.HasStdin {
			b.WriteString(" <<" + strings.TrimSuffix(c.Stdin, "\n"))
		}
		b.WriteString("\n")
	}
	return b.String()
}

func TestParse(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`echo hi; git push --force`, "echo | hi\ngit | push | --force\n"},
		{`a && b || c | d & e`, "a\nb\nc\nd\ne\n"},
		{"a\nb", "a\nb\n"},
		{`"git" 'push' \-\-force`, "git | push | --force\n"},
		{`g"i"t pu''sh`, "git | push\n"},
		{`$'\x72\x6d' -rf /`, "rm | -rf | /\n"},
		// bash 5.3 runs ${ cmd; } and ${| cmd; } in the current shell.
		{`echo ${ rm -rf ~; } ${| git push -f; }`, ">[${ …}] rm | -rf | ~\n>[${ …}] git | push | -f\necho | ${ rm -rf ~; } | ${| git push -f; }\n"},
		{"x=${\n reboot\n}", ">[${ …}] reboot\n\n"},
		// A runner handed an empty string runs nothing of its own: it
		// stays the command (as bash sees it).
		{`script -c ''`, "script | -c | \n"},
		{`script -c '!'`, "script | -c | !\n"},
		// Digits glued to < or > are the descriptor when they fit an int,
		// as bash reads them; a longer run is a word.
		{`x 00000<f`, "x\n"},
		{`x 012345678901234567890<f`, "x | 012345678901234567890\n"},
		// A NUL ends the value of its $'…' (bash 5: printf '%s|' $'a\0b'c).
		{`echo $'a\0b'c $'\x00z'y $'q\u0000r' $'\c@x'`, "echo | ac | y | q | \n"},
		{`echo "a b" 'c d' e\ f`, "echo | a b | c d | e f\n"},
		{`zsh -c 'rm -rf ~'`, "zsh | -c | rm -rf ~\n>[zsh -c] rm | -rf | ~\n"},
		{`bash -lc "sh -c \"x y\""`, "bash | -lc | sh -c \"x y\"\n>[bash -c] sh | -c | x y\n>>[sh -c] x | y\n"},
		{`eval "git  reset --hard"`, "eval | git  reset --hard\n>[eval] git | reset | --hard\n"},
		{`nohup env -i nice -n 5 rm -rf / &`, "rm | -rf | /\n"},
		{`sudo -u root VAR=1 timeout -s 9 10 xargs -0 rm -rf`, "rm | -rf\n"},
		{`echo "$(rm -rf /)" ` + "`git push -f`", ">[$(…)] rm | -rf | /\n>[`…`] git | push | -f\necho | $(rm -rf /) | `git push -f`\n"},
		{`(a; b) | c`, "a\nb\nc\n"},
		{`{ a; b; }`, "a\nb\n"},
		{`f() { rm -rf /; }; f`, "rm | -rf | /\nf\n"},
		{`if a; then b; elif c; then d; else e; fi`, "a\nb\nc\nd\ne\n"},
		{`while read x; do rm "$x"; done < list`, "read | x\nrm | $x\n\n"},
		{`for x in $(ls); do y; done`, ">[$(…)] ls\ny\n"},
		{`case $x in a) b;; c|d) e;; esac; f`, "b\ne\nf\n"},
		{"cat <<EOF\ngit reset --hard\nEOF\necho done", "cat <<git reset --hard\necho | done\n"},
		{"cat <<'EOF' > f\n$(rm -rf ~)\nEOF", "cat <<$(rm -rf ~)\n"},
		{"cat <<EOF > f\n$(rm -rf ~)\nEOF", "cat <<$(rm -rf ~)\n>[$(…)] rm | -rf | ~\n"},
		{"bash <<'X'\nrm -rf ~\nX", "bash <<rm -rf ~\n>[stdin of bash] rm | -rf | ~\n"},
		{"cat <<-EOF\n\tindented\n\tEOF", "cat <<indented\n"},
		{`python3 - <<<"import os"`, "python3 | - <<import os\n"},
		{`echo 'rm -rf /' | sudo bash`, "echo | rm -rf /\nbash\n>[pipe to bash] rm | -rf | /\n"},
		{`find / -name x -exec rm -rf {} \;`, "find | / | -name | x | -exec | rm | -rf | {} | ;\n[find -exec] rm | -rf | /\n"},
		{`env -S 'rm -rf /'`, "rm | -rf | /\n"},
		{`command -v rm`, "command | -v | rm\n"},
		{`x=1 y=$(z) cmd`, ">[$(…)] z\ncmd\n"},
		{`echo hi # rm -rf /`, "echo | hi\n"},
		{`diff <(a) >(b)`, ">[<(…)] a\n>[<(…)] b\ndiff | <(a) | >(b)\n"},
		{`echo $((1+2)) $HOME ${x:-$(y)}`, ">[$(…)] y\necho | $((1+2)) | $HOME | ${x:-$(y)}\n"},
		{"a \\\n b", "a | b\n"},
		{`su -c 'rm -rf /' root`, "su | -c | rm -rf / | root\n>[su -c] rm | -rf | /\n"},
		{`watch -n 1 'git push -f'`, "\n>[watch] git | push | -f\n"},
		{`git commit -m "never git push --force"`, "git | commit | -m | never git push --force\n"},
	} {
		cmds, err := Parse(c.src)
		if err != nil {
			t.Errorf("%q: %v", c.src, err)
		}
		if got := render(cmds); got != c.want {
			t.Errorf("%q:\n got %q\nwant %q", c.src, got, c.want)
		}
	}
}

func TestParseRedirects(t *testing.T) {
	cmds, _ := Parse(`git push 2>&1 >/dev/null >> log &> all <in 3<> rw`)
	var ops []string
	for _, r := range cmds[0].Redirects {
		ops = append(ops, r.Op+r.Target.Text)
	}
	if got := strings.Join(ops, " "); got != ">&1 >/dev/null >>log &>all <in <>rw" || cmds[0].Redirects[0].Fd != 2 {
		t.Fatalf("redirects: %q", got)
	}
}

func TestParseErrors(t *testing.T) {
	for _, src := range []string{`echo "open`, `echo 'open`, `echo $(open`, "echo `open", `a )`, `echo ${x`} {
		cmds, err := Parse(src)
		if err == nil {
			t.Errorf("%q: no error", src)
		}
		if len(cmds) == 0 && src != `a )` {
			t.Errorf("%q: the commands read before the error are lost", src)
		}
	}
	deep := "x"
	for i := 0; i < MaxDepth+3; i++ {
		deep = "bash -c " + quote(deep)
	}
	if _, err := Parse(deep); err != ErrDepth {
		t.Errorf("deep nesting: %v, want ErrDepth", err)
	}
	if _, err := Parse(strings.Repeat("(", 10000)); err == nil {
		t.Error("10000 open parentheses: no error")
	}
	if _, err := Parse(strings.Repeat("a;", maxCommands+5)); err != ErrTooMany {
		t.Errorf("too many commands: %v", err)
	}
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// FuzzParse checks that Parse never panics or hangs, that it keeps its
// bounds, and that a parsed command keeps its words through a
// re-quoting round trip.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`echo hi; git push --force`, `zsh -c 'rm -rf ~'`, "cat <<EOF\nx\nEOF", `a $(b "$(c)") ` + "`d`",
		`case x in a) b;; esac`, `f() { g; }`, `$'\x41'`, `env -S 'a b'`, `find . -exec rm {} +`, `x=(a b) y`, `printf '%s\x41%b' a '\101' b | sh`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		cmds, err := Parse(src)
		if len(cmds) > maxCommands+maxCommands/10 {
			t.Fatalf("%d commands", len(cmds))
		}
		for _, c := range cmds {
			if c.Depth > MaxDepth+1 {
				t.Fatalf("depth %d", c.Depth)
			}
			if out, ok := Output(c); ok && len(out) > maxOutput+2*len(src) {
				t.Fatalf("Output of %q is %d bytes", src, len(out))
			}
		}
		if err != nil || len(cmds) != 1 || cmds[0].Depth != 0 || len(cmds[0].Redirects) > 0 || cmds[0].HasStdin || len(cmds[0].Wrappers) > 0 || len(cmds[0].Assigns) > 0 {
			return
		}
		// Round trip: quote every word and parse again; the words stay.
		words := cmds[0].Strings()
		var q []string
		for _, w := range words {
			q = append(q, quote(w))
		}
		again, err := Parse(strings.Join(q, " "))
		if err != nil || len(again) == 0 {
			t.Fatalf("re-quoted %q: %v", q, err)
		}
		if got := again[0].Strings(); strings.Join(got, "\x00") != strings.Join(words, "\x00") {
			t.Fatalf("round trip of %q: %q", words, got)
		}
	})
}

// TestQuotedAssignments: NAME="a b" and NAME='x' are assignments whose
// value is quoted; a quoted name ("NAME"=x) is a command word.
func TestQuotedAssignments(t *testing.T) {
	for src, want := range map[string][]string{
		`cmd="rm -rf"; $cmd ~`:  {"cmd=rm -rf"},
		`X='a b' Y=1 prog arg`:  {"X=a b", "Y=1"},
		`A+="more" run`:         {"A+=more"},
		`"NAME"=x`:              nil,
		`N\AME=x`:               nil,
		`echo X="not assigned"`: nil,
	} {
		cmds, err := Parse(src)
		if err != nil || len(cmds) == 0 {
			t.Fatalf("Parse(%q) = %v, %v", src, cmds, err)
		}
		if got := cmds[0].Assigns; strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("Parse(%q): Assigns = %q, want %q", src, got, want)
		}
	}
}

func TestOutput(t *testing.T) {
	for src, want := range map[string]string{
		`printf '\x72\x6d -rf ~' | sh`:     "rm -rf ~",
		`printf '\162\155 -rf /' | sh`:     "rm -rf /",
		`printf '%s %s\n' git status | sh`: "git status\n",
		`printf '%b' 'a\tb' | sh`:          "a\tb",
		`printf '%s;' a b c | sh`:          "a;b;c;",
		`printf '100%%' | sh`:              "100%",
		`echo -e '\x67it push' | sh`:       "git push",
		`echo -n hello world | sh`:         "hello world",
		`echo '\u00e9t\U0001F600' | sh`:    "ét😀",
		`printf -- '\q \x' | sh`:           `\q \x`,
		"cat <<EOF | sh\nrm -rf x\nEOF":    "rm -rf x\n",
		`printf 'trailing \' | sh`:         `trailing \`,
		`printf '%5.2s|%-3d' ab 7 | sh`:    "ab|7",
		`printf '%' | sh`:                  "%",
	} {
		cmds, err := Parse(src)
		if err != nil || len(cmds) < 1 {
			t.Fatalf("Parse(%q) = %v, %v", src, cmds, err)
		}
		got, ok := Output(cmds[0])
		if !ok || got != want {
			t.Errorf("Output of %q = %q, %v; want %q", src, got, ok, want)
		}
	}
	if _, ok := Output(Command{Args: []Word{{Text: "ls"}}}); ok {
		t.Errorf("ls has a known output")
	}
}
