package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/internal/runtime/journal"
)

func searchStore(t *testing.T) *Store {
	t.Helper()
	p := t.TempDir()
	now := time.Now().Add(-time.Hour)
	for i, e := range []journal.Entry{
		{Session: "s1", Event: "PreToolUse", Tool: "Bash", Target: "Bash", Subject: "git push --force origin main", Decision: "block", Reason: "force-push to a protected branch"},
		{Session: "s1", Event: "PreToolUse", Tool: "Read", Target: "Read", Subject: "/etc/passwd"},
		{Session: "s2", Event: "PreToolUse", Tool: "Bash", Target: "Bash", Subject: "make deploy"},
		{Session: "s2", Event: "PreToolUse", Tool: "Write", Target: "Write", Subject: `/tmp/"quoted" NEAR(x, y) * ^col:thing`, Decision: "block", Reason: "outside the project"},
		{Session: "s2", Event: "Stop", Reason: "deploy finished"},
	} {
		e.Time = now.Add(time.Duration(i) * time.Second)
		if err := journal.Append(p, e); err != nil {
			t.Fatal(err)
		}
	}
	s := open(t, p)
	if _, err := s.Ingest(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	return s
}

func subjects(list []Event) []string {
	var out []string
	for _, e := range list {
		out = append(out, e.Subject+"|"+e.Reason)
	}
	return out
}

// Search matches words and word starts in the subject, target and reason,
// combined with the other filters and with paging.
func TestSearch(t *testing.T) {
	s := searchStore(t)
	ctx := context.Background()
	for _, c := range []struct {
		f    Filter
		want []string
	}{
		{Filter{Search: "deploy"}, []string{"|deploy finished", "make deploy|"}},
		{Filter{Search: "DEPL"}, []string{"|deploy finished", "make deploy|"}},
		{Filter{Search: "passwd"}, []string{"/etc/passwd|"}},
		{Filter{Search: "/etc/passwd"}, []string{"/etc/passwd|"}},
		{Filter{Search: "git push"}, []string{"git push --force origin main|force-push to a protected branch"}},
		{Filter{Search: "protected"}, []string{"git push --force origin main|force-push to a protected branch"}},
		{Filter{Search: "deploy", Session: "s2", Event: "PreToolUse"}, []string{"make deploy|"}},
		{Filter{Search: "deploy", Decision: "block"}, nil},
		{Filter{Search: "push deploy"}, nil},
		{Filter{Search: "nothing-like-it"}, nil},
		{Filter{Search: "deploy", Limit: 1}, []string{"|deploy finished"}},
	} {
		list, err := s.Events(ctx, c.f)
		if err != nil {
			t.Fatalf("%+v: %v", c.f, err)
		}
		if got := subjects(list); !slices.Equal(got, c.want) {
			t.Errorf("%+v: got %q, want %q", c.f, got, c.want)
		}
	}
	// Paging: before the newest match, then after the oldest.
	all, _ := s.Events(ctx, Filter{Search: "deploy"})
	older, err := s.Events(ctx, Filter{Search: "deploy", Before: all[0].ID})
	if err != nil || len(older) != 1 || older[0].ID != all[1].ID {
		t.Fatalf("before: %v %v", subjects(older), err)
	}
	newer, err := s.Events(ctx, Filter{Search: "deploy", After: all[1].ID})
	if err != nil || len(newer) != 1 || newer[0].ID != all[0].ID {
		t.Fatalf("after: %v %v", subjects(newer), err)
	}
}

// A hostile search is words and nothing else: FTS5 syntax in it neither
// errors nor acts as syntax.
func TestSearchHostile(t *testing.T) {
	s := searchStore(t)
	ctx := context.Background()
	for _, q := range []string{`"`, `""`, `NEAR(`, `*`, `^`, `-`, `:`, `(`, `)`, `{a b}`, `subject:passwd`, `a OR b`, `NOT`, `AND`,
		`deploy" OR "passwd`, `NEAR(deploy passwd, 1)`, `*passwd`, `'; DROP TABLE events; --`, "\x00", "\x1b[2J", `\`, `%`, `_`} {
		list, err := s.Events(ctx, Filter{Search: q})
		if err != nil {
			t.Errorf("search %q: %v", q, err)
			continue
		}
		for _, e := range list {
			// Whatever matched must hold each word of the query.
			match, _ := ftsQuery(q)
			if match == "" {
				t.Errorf("search %q has no words but matched %q", q, e.Subject)
			}
		}
	}
	// "OR" is a word, not an operator: deploy OR passwd matches nothing
	// (no event holds all three words).
	if list, _ := s.Events(ctx, Filter{Search: `deploy" OR "passwd`}); len(list) != 0 {
		t.Errorf("OR acted as an operator: %q", subjects(list))
	}
	// A column filter is two words: as syntax it would match /etc/passwd.
	if list, _ := s.Events(ctx, Filter{Search: `subject:passwd`}); len(list) != 0 {
		t.Errorf("subject: acted as a column filter: %q", subjects(list))
	}
	// The hostile subject is found by its words.
	if list, _ := s.Events(ctx, Filter{Search: `NEAR(x`}); len(list) != 1 || list[0].Reason != "outside the project" {
		t.Errorf("NEAR(x: %q", subjects(list))
	}
	if n := count(t, s.DB(), "SELECT count(*) FROM events"); n != 5 {
		t.Fatalf("events: %d", n)
	}
}

func TestFTSQuery(t *testing.T) {
	for in, want := range map[string]string{
		"git push":         `"git"* "push"*`,
		`"NEAR(" *`:        `"NEAR"*`,
		`a"b`:              `"a"* "b"*`,
		"API_KEY=x":        `"API"* "KEY"* "x"*`,
		"über café":        `"über"* "café"*`,
		`" * ( ) ^ : - + `: ``,
	} {
		if got, _ := ftsQuery(in); got != want {
			t.Errorf("ftsQuery(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzSearch: any search string is a query that runs without error.
func FuzzSearch(f *testing.F) {
	for _, s := range []string{`"`, `NEAR(`, `*`, "deploy", `a" OR "b`, "\xff\xfe", "x:y", "{a}"} {
		f.Add(s)
	}
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		f.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE VIRTUAL TABLE t USING fts5(a, b); INSERT INTO t VALUES ('git push', 'deploy')`); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, ok := ftsQuery(s)
		if !ok {
			return
		}
		var n int
		if err := db.QueryRow("SELECT count(*) FROM t WHERE t MATCH ?", q).Scan(&n); err != nil {
			t.Fatalf("%q -> %q: %v", s, q, fmt.Sprint(err))
		}
	})
}

// The search index covers rows stored before the migration that made it.
func TestSearchIndexFilledByMigration(t *testing.T) {
	ctx := context.Background()
	p := t.TempDir()
	saved := migrations
	t.Cleanup(func() { migrations = saved })
	migrations = saved[:4]
	s := open(t, p)
	// The row as version 4's ingest stored it.
	if _, err := s.DB().Exec(`INSERT INTO events (file, off, ts, session, event, tool, subject) VALUES ('x.jsonl', 0, 1, 's', 'PreToolUse', 'Bash', 'terraform destroy')`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	migrations = saved
	s = open(t, p)
	list, err := s.Events(ctx, Filter{Search: "terraform"})
	if err != nil || len(list) != 1 {
		t.Fatalf("%v %v", subjects(list), err)
	}
}

// The handler (rule) filter and the time range's end; an unknown handler
// says no with the ones the store holds.
func TestHandlerAndUntil(t *testing.T) {
	s := searchStore(t)
	ctx := context.Background()
	journal.Append(filepathOf(s), journal.Entry{Time: time.Now(), Session: "s3", Event: "PreToolUse", Tool: "Bash", Decision: "ask", Handler: "guard.packs"})
	if _, err := s.Ingest(ctx, 0); err != nil {
		t.Fatal(err)
	}
	f, err := s.Resolve(ctx, Filter{Handler: "GUARD.PACKS"})
	if err != nil || f.Handler != "guard.packs" {
		t.Fatalf("resolve: %+v %v", f, err)
	}
	if list, err := s.Events(ctx, f); err != nil || len(list) != 1 || list[0].Session != "s3" {
		t.Fatalf("handler: %v %v", subjects(list), err)
	}
	if _, err := s.Resolve(ctx, Filter{Handler: "nope"}); err == nil || !strings.Contains(err.Error(), "guard.packs") {
		t.Fatalf("unknown handler: %v", err)
	}
	// The first five are an hour old, the last one now.
	list, err := s.Events(ctx, Filter{Until: time.Now().Add(-30 * time.Minute)})
	if err != nil || len(list) != 5 {
		t.Fatalf("until: %d %v", len(list), err)
	}
	list, err = s.Events(ctx, Filter{Since: time.Now().Add(-2 * time.Hour), Until: time.Now().Add(-30 * time.Minute), Search: "deploy"})
	if err != nil || len(list) != 2 {
		t.Fatalf("since, until and search: %d %v", len(list), err)
	}
	q, err := FilterFromQuery(map[string][]string{"until": {"30m"}, "handler": {"guard"}}, time.Now())
	if err != nil || q.Until.IsZero() || q.Handler != "guard" {
		t.Fatalf("query: %+v %v", q, err)
	}
	if _, err := FilterFromQuery(map[string][]string{"until": {"soon"}}, time.Now()); err == nil || !strings.HasPrefix(err.Error(), "until") {
		t.Fatalf("until=soon: %v", err)
	}
}

func filepathOf(s *Store) string { return s.project }

// A guard block stored before the rule had its own column (schema 7) gets
// the rule its reason names, so that the rule filter finds it.
func TestRuleFilledByMigration(t *testing.T) {
	ctx := context.Background()
	p := t.TempDir()
	saved := migrations
	t.Cleanup(func() { migrations = saved })
	migrations = saved[:7]
	s := open(t, p)
	for i, row := range [][2]string{
		{"guard", "hookwright guard: git push -f rewrites shared history. (rule git-force-push; `hwctl explain` shows how the guard read the call)"},
		{"work-gate", "edit outside a work unit (rule of thumb; run: hwctl work start x)"},
		{"guard", "hookwright guard: (rule ; nothing)"},
	} {
		if _, err := s.DB().Exec(`INSERT INTO events (file, off, ts, session, event, decision, handler, reason) VALUES ('x.jsonl', ?, 1, 's', 'PreToolUse', 'block', ?, ?)`, i, row[0], row[1]); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	migrations = saved
	s = open(t, p)
	list, err := s.Events(ctx, Filter{Rule: "git-force-push"})
	if err != nil || len(list) != 1 || list[0].Rule != "git-force-push" {
		t.Fatalf("rule filter after the migration: %+v %v", list, err)
	}
	var n int
	if err := s.DB().QueryRow("SELECT count(*) FROM events WHERE rule <> ''").Scan(&n); err != nil || n != 1 {
		t.Fatalf("%d rows got a rule (%v), want the guard's one", n, err)
	}
}
