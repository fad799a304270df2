package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/internal/runtime/journal"
	"github.com/hookwright/hookwright/internal/store"
)

// filterJournal writes calls of three sessions, two of them sharing an
// 8-character prefix. Three are the guard's blocks: two by git-force-push
// (one a line from before the journal had a rule field, whose reason alone
// names it) and one by rm-root.
func filterJournal(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	t0 := time.Now().Add(-time.Hour)
	sessions := []string{"7c1e9a40-aaaa-4bbb-8ccc-000000000001", "7c1e9a40-bbbb-4bbb-8ccc-000000000002", "d00dfeed-cccc-4bbb-8ccc-000000000003"}
	for i := range 12 {
		e := journal.Entry{Time: t0.Add(time.Duration(i) * time.Second), Session: sessions[i%3], Event: "PreToolUse", Target: "Bash", Tool: "Bash"}
		switch i {
		case 0:
			e.Decision, e.Handler, e.Rule = "block", "guard", "git-force-push"
			e.Reason = "hookwright guard: git push --force rewrites shared history. (rule git-force-push; `hwctl explain` shows how the guard read the call)"
		case 4:
			e.Decision, e.Handler = "block", "guard"
			e.Reason = "hookwright guard: git push -f rewrites shared history. (rule git-force-push; `hwctl explain` shows how the guard read the call)"
		case 8:
			e.Decision, e.Handler, e.Rule = "block", "guard", "rm-root"
			e.Reason = "hookwright guard: rm -rf / deletes everything. (rule rm-root; `hwctl explain` shows how the guard read the call)"
		}
		if i%5 == 0 {
			e.Event, e.Tool, e.Target = "PostToolUse", "Edit", "Edit"
		}
		if err := journal.Append(dir, e); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func eventsJSON(t *testing.T, out string) []store.Event {
	t.Helper()
	var list []store.Event
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if l == "" {
			continue
		}
		var e store.Event
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		list = append(list, e)
	}
	return list
}

// Filters say no: an unknown event, decision or tool is a usage error
// (exit 2) naming the accepted values; a session id matches by unique
// prefix, an ambiguous one lists the candidates; event names take every
// spelling the runtime takes.
func TestEventsFiltersSayNo(t *testing.T) {
	dir := filterJournal(t)
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--decision", "maybe"}, []string{"maybe", "allow", "ask", "block"}},
		{[]string{"--event", "PreToolUze"}, []string{"PreToolUze", "PreToolUse", "SessionStart"}},
		{[]string{"--tool", "Bsh"}, []string{"Bsh", "Bash", "Edit"}},
		{[]string{"--session", "7c1e9a40"}, []string{"7c1e9a40-aaaa-4bbb-8ccc-000000000001", "7c1e9a40-bbbb-4bbb-8ccc-000000000002"}},
		{[]string{"--session", "ffff"}, []string{"ffff"}},
		{[]string{"--rule", "nope"}, []string{`rule "nope" is not a guard rule`, "hwctl explain --rules", "git-force-push, rm-root"}},
		{[]string{"--rule", "guard"}, []string{`rule "guard" is not a guard rule`}},
		{[]string{"--handler", "nope"}, []string{"nope", "guard"}},
		{[]string{"--until", "soon"}, []string{"soon"}},
	} {
		out, errs, code := hwctl(t, append([]string{"events", "--dir", dir}, c.args...)...)
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want a usage error", c.args, code, out, errs)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(errs, w) {
				t.Errorf("%v: %q does not name %q", c.args, errs, w)
			}
		}
	}
	for _, c := range []struct {
		args []string
		n    int
	}{
		{[]string{"--session", "d00dfeed"}, 4},
		{[]string{"--session", "7c1e9a40-a"}, 4},
		{[]string{"--event", "pre-tool-use"}, 9},
		{[]string{"--event", "PreToolUse"}, 9},
		{[]string{"--event", "pretooluse"}, 9},
		{[]string{"--event", "post_tool_use"}, 3},
		{[]string{"--decision", "block"}, 3},
		{[]string{"--decision", "none"}, 9},
		{[]string{"--tool", "bash"}, 9},
		{[]string{"--handler", "guard"}, 3},
		{[]string{"--rule", "git-force-push"}, 2},
		{[]string{"--rule", "GIT-FORCE-PUSH", "--handler", "guard"}, 2},
		{[]string{"--rule", "rm-root"}, 1},
		{[]string{"--rule", "database.drop"}, 0},
		{[]string{"--handler", "Guard", "--session", "d00dfeed"}, 1},
		{[]string{"--until", "1m"}, 12},
		{[]string{"--until", "2h"}, 0},
		{[]string{"--since", "2h", "--until", "1m"}, 12},
	} {
		out, errs, code := hwctl(t, append([]string{"events", "--json", "--dir", dir}, c.args...)...)
		if got := eventsJSON(t, out); code != 0 || len(got) != c.n {
			t.Errorf("%v: exit %d, %d events (want %d); stderr %q", c.args, code, len(got), c.n, errs)
		}
	}
}

// hwctl events --search: full-text over the command, path and reason,
// with the other filters; FTS5 syntax in it is only words.
func TestEventsSearch(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Now().Add(-time.Hour)
	for i, e := range []journal.Entry{
		{Session: "s1", Event: "PreToolUse", Tool: "Bash", Target: "Bash", Subject: "git push --force origin main", Decision: "block", Reason: "force-push"},
		{Session: "s1", Event: "PreToolUse", Tool: "Read", Target: "Read", Subject: "/etc/passwd"},
		{Session: "s2", Event: "PreToolUse", Tool: "Bash", Target: "Bash", Subject: "git push origin feature"},
	} {
		e.Time = t0.Add(time.Duration(i) * time.Second)
		if err := journal.Append(dir, e); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--search", "git push"}, []string{"git push --force origin main", "git push origin feature"}},
		{[]string{"-q", "PASSWD"}, []string{"/etc/passwd"}},
		{[]string{"--search", "push", "--decision", "block"}, []string{"git push --force origin main"}},
		{[]string{"--search", "git", "--session", "s2"}, []string{"git push origin feature"}},
		{[]string{"--search", `"`}, nil},
		{[]string{"--search", `NEAR(git push)`}, nil},
		{[]string{"--search", `*`}, nil},
	} {
		out, errs, code := hwctl(t, append([]string{"events", "--json", "--dir", dir}, c.args...)...)
		var got []string
		for _, e := range eventsJSON(t, out) {
			got = append(got, e.Subject)
		}
		if code != 0 || strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%v: exit %d, %q (want %q); stderr %q", c.args, code, got, c.want, errs)
		}
	}
}
