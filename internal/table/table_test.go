package table

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func events() *Table {
	t := New(Column{Name: "TIME"}, Column{Name: "SESSION", Drop: 2}, Column{Name: "EVENT"},
		Column{Name: "WHAT", Flex: true, Min: 10}, Column{Name: "AGENT", Drop: 3}, Column{Name: "MS", Right: true, Drop: 1},
		Column{Name: "REASON", Flex: true, Min: 12})
	t.Row("2026-11-28 06:17:11", "7c1e9a40", "PreToolUse", "git push --force origin main && echo done and more text", "-", "0.4",
		"hookwright guard: git push --force rewrites shared history. Use --force-with-lease. (rule git-force-push; …)")
	t.Row("2026-11-28 06:17:12", "7c1e9a40", "PostToolUse", "src/ünïcödé/file.go", "tester", "12.5", "-")
	return t
}

func render(t *testing.T, tb *Table, width int) (string, []string) {
	t.Helper()
	var b strings.Builder
	dropped, err := tb.Render(&b, width)
	if err != nil {
		t.Fatal(err)
	}
	return b.String(), dropped
}

func TestEveryLineFits(t *testing.T) {
	for _, width := range []int{200, 120, 100, 80, 70, 60} {
		out, dropped := render(t, events(), width)
		for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			if n := utf8.RuneCountInString(l); n > width {
				t.Errorf("width %d: a line of %d runes: %q (dropped %v)", width, n, l, dropped)
			}
			if strings.HasSuffix(l, " ") {
				t.Errorf("width %d: trailing blanks in %q", width, l)
			}
		}
	}
}

func TestFreeTextIsCutBeforeColumnsDrop(t *testing.T) {
	out, dropped := render(t, events(), 100)
	if len(dropped) != 0 || !strings.Contains(out, "…") || !strings.Contains(out, "AGENT") {
		t.Errorf("at 100 columns the text should be cut and every column kept; dropped %v\n%s", dropped, out)
	}
	out, dropped = render(t, events(), 70)
	if strings.Join(dropped, ",") != "AGENT,SESSION,MS" && strings.Join(dropped, ",") != "AGENT,SESSION" {
		t.Errorf("at 70 columns dropped %v, want the agent first, then the session\n%s", dropped, out)
	}
	if !strings.Contains(out, "PreToolUse") || !strings.Contains(out, "2026-11-28 06:17:11") {
		t.Errorf("a column that is never dropped is missing:\n%s", out)
	}
}

func TestNoLimitKeepsEveryCell(t *testing.T) {
	out, dropped := render(t, events(), 0)
	if len(dropped) != 0 || !strings.Contains(out, "and more text") || !strings.Contains(out, "(rule git-force-push; …)") || !strings.Contains(out, "src/ünïcödé/file.go") {
		t.Errorf("no limit: dropped %v\n%s", dropped, out)
	}
}

func TestCut(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{{"abcdef", 6, "abcdef"}, {"abcdef", 4, "abc…"}, {"ünïcödé", 3, "ün…"}, {"abc", 1, "…"}, {"abc", 0, ""}} {
		if got := cut(c.s, c.n); got != c.want {
			t.Errorf("cut(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
}

func TestWidth(t *testing.T) {
	env := func(v string) func(string) string { return func(string) string { return v } }
	var b strings.Builder
	if w := Width(&b, false, env("91")); w != 91 {
		t.Errorf("COLUMNS=91: %d", w)
	}
	if w := Width(&b, true, env("91")); w != 0 {
		t.Errorf("--wide: %d", w)
	}
	if w := Width(&b, false, env("x")); w != 0 {
		t.Errorf("a pipe without COLUMNS: %d, want no limit", w)
	}
}

func TestWrap(t *testing.T) {
	got := Wrap("git: Git history and refs: rewrites, ref deletes, reflog expiry", 20, 2)
	for _, l := range strings.Split(got, "\n") {
		if utf8.RuneCountInString(l) > 20 {
			t.Errorf("line %q is longer than 20", l)
		}
	}
	if strings.Join(strings.Fields(got), " ") != "git: Git history and refs: rewrites, ref deletes, reflog expiry" {
		t.Errorf("words lost: %q", got)
	}
	if Wrap("short", 0, 2) != "short" || Wrap("short", 80, 2) != "short" {
		t.Error("a short text or no limit changed")
	}
}
