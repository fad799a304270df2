package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/internal/journaltail"
	"github.com/hookwright/hookwright/internal/runtime/journal"
	"github.com/hookwright/hookwright/internal/state/session"
	"github.com/hookwright/hookwright/internal/state/work"
)

func appendRaw(t *testing.T, project, name, text string) {
	t.Helper()
	dir := filepath.Join(project, journal.Dir)
	os.MkdirAll(dir, 0o755)
	f, err := os.OpenFile(filepath.Join(dir, name), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.WriteString(text)
}

func open(t *testing.T, project string) *Store {
	t.Helper()
	s, err := Open(context.Background(), project)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func count(t *testing.T, db *sql.DB, q string, args ...any) int {
	t.Helper()
	var n int
	if err := db.QueryRow(q, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestIngestIdempotentTornAndDerived(t *testing.T) {
	ctx := context.Background()
	p := t.TempDir()
	ts := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	for i, e := range []journal.Entry{
		{Time: ts, Session: "s1", Event: "PreToolUse", Tool: "Bash", Target: "Bash", Decision: "block", Reason: "force-push", Handler: "guard", Exit: 2, Micros: 900},
		{Time: ts.Add(time.Second), Session: "s1", Event: "TaskCompleted", Agent: "alice", Team: "red", Target: "7"},
		{Time: ts.Add(2 * time.Second), Session: "s1", Event: "TeammateIdle", Agent: "bob", Team: "red"},
		{Time: ts.Add(3 * time.Second), Session: "s2", Event: "PostToolUse", Tool: "Edit", Faults: []string{"x: y"}},
	} {
		e.Micros += int64(i)
		if err := journal.Append(p, e); err != nil {
			t.Fatal(err)
		}
	}
	appendRaw(t, p, "2026-11-22.jsonl", "garbage\n"+`{"ts":"2026-11-22T11:00:00Z","event":"St`)
	s := open(t, p)
	st, err := s.Ingest(ctx, 2)
	if err != nil || st.Lines != 5 || st.Bad != 1 {
		t.Fatalf("first ingest: %+v %v", st, err)
	}
	if st, err := s.Ingest(ctx, 2); err != nil || st.Lines != 0 {
		t.Fatalf("a re-run added %+v %v", st, err)
	}
	appendRaw(t, p, "2026-11-22.jsonl", `op","exit":0,"us":1}`+"\n")
	if st, err := s.Ingest(ctx, 0); err != nil || st.Lines != 1 || st.Bad != 0 {
		t.Fatalf("torn line retried: %+v %v", st, err)
	}
	db := s.DB()
	if n := count(t, db, "SELECT count(*) FROM events"); n != 6 {
		t.Fatalf("events = %d", n)
	}
	blocks, err := s.Events(ctx, Filter{Decision: "block", Since: ts.Add(-time.Hour)})
	if err != nil || len(blocks) != 1 || blocks[0].Reason != "force-push" || blocks[0].Handler != "guard" || blocks[0].Line != "2026-11-22.jsonl:0" {
		t.Fatalf("blocks = %+v %v", blocks, err)
	}
	if got, _ := s.Events(ctx, Filter{Since: ts.Add(time.Hour)}); len(got) != 1 || got[0].Event != "Stop" {
		t.Fatalf("since: %+v", got)
	}
	if got, _ := s.Events(ctx, Filter{Session: "s2"}); len(got) != 1 || len(got[0].Faults) != 1 {
		t.Fatalf("session s2: %+v", got)
	}
	all, _ := s.Events(ctx, Filter{})
	if len(all) != 6 || all[0].ID < all[5].ID || all[1].Bad == "" {
		t.Fatalf("all, newest first, the bad line kept: %+v", all)
	}
	after, _ := s.Events(ctx, Filter{After: all[2].ID})
	if len(after) != 2 || after[0].ID != all[1].ID {
		t.Fatalf("after: %+v", after)
	}
	if id, err := s.IDOfLine(ctx, all[3].Line); err != nil || id != all[3].ID {
		t.Fatalf("IDOfLine = %d %v", id, err)
	}
	sess, _ := s.Sessions(ctx, time.Time{}, 0)
	if len(sess) != 2 || sess[0].ID != "s2" || sess[1].Calls != 3 || sess[1].Blocks != 1 {
		t.Fatalf("sessions: %+v", sess)
	}
	mates, _ := s.Teammates(ctx)
	if len(mates) != 2 || mates[0].Agent != "alice" || mates[0].Status != "active" || mates[0].Task != "7" || mates[1].Status != "idle" {
		t.Fatalf("teammates: %+v", mates)
	}
	counts, _ := s.Counts(ctx)
	total := 0
	for _, c := range counts {
		total += int(c.N)
	}
	if total != 6 {
		t.Fatalf("counts %+v", counts)
	}
}

func TestSnapshotsOfStateFiles(t *testing.T) {
	ctx := context.Background()
	p := t.TempDir()
	os.MkdirAll(filepath.Join(p, ".hookwright/sessions"), 0o755)
	os.WriteFile(filepath.Join(p, ".hookwright/sessions/s1.json"), []byte(`{"session_id":"s1","started":"2026-11-22T09:00:00Z",
		"starts":[{"source":"startup","at":"2026-11-22T09:00:00Z"}],"claude_version":"2.1.33","git_head":"abc","git_branch":"main",
		"hookwright_version":"0.3.0","ppid":4242,"terminal":"xterm"}`), 0o644)
	os.MkdirAll(filepath.Join(p, TeamDir), 0o755)
	os.WriteFile(filepath.Join(p, TeamDir, "red.json"), []byte(`{"team":"red","teammates":{"carol":{"status":"idle","last_event":"TeammateIdle","last_seen":"2026-11-22T09:30:00Z","open_task":"3"}}}`), 0o644)
	if err := work.Start(p, "parser", time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	s := open(t, p)
	if _, err := s.Ingest(ctx, 0); err != nil {
		t.Fatal(err)
	}
	sess, _ := s.Sessions(ctx, time.Time{}, 0)
	if len(sess) != 1 || sess[0].ClaudeVersion != "2.1.33" || sess[0].GitBranch != "main" || sess[0].PPID != 4242 || sess[0].Source != "startup" {
		t.Fatalf("sessions: %+v", sess)
	}
	mates, _ := s.Teammates(ctx)
	if len(mates) != 1 || mates[0].Agent != "carol" || mates[0].Task != "3" {
		t.Fatalf("team file: %+v", mates)
	}
	units, _ := s.Work(ctx)
	if len(units) != 1 || units[0].Name != "parser" || units[0].Kind != "manual" {
		t.Fatalf("work: %+v", units)
	}
	// A journal event newer than the team file wins; an older one does not.
	journal.Append(p, journal.Entry{Time: time.Date(2026, 11, 22, 9, 40, 0, 0, time.UTC), Event: "PreToolUse", Agent: "carol", Team: "red"})
	journal.Append(p, journal.Entry{Time: time.Date(2026, 11, 22, 9, 10, 0, 0, time.UTC), Event: "TeammateIdle", Agent: "carol", Team: "red"})
	s.Ingest(ctx, 1)
	if mates, _ := s.Teammates(ctx); mates[0].Status != "active" || mates[0].LastEvent != "PreToolUse" {
		t.Fatalf("after newer event: %+v", mates)
	}
}

// TestSessionsFromDayFiles: a session started one day and ended the next
// is one row, and a later ingest picks up the end.
func TestSessionsFromDayFiles(t *testing.T) {
	ctx := context.Background()
	p := t.TempDir()
	t0 := time.Date(2026, 11, 22, 23, 0, 0, 0, time.UTC)
	session.Append(p, session.Record{SessionID: "s2", Start: &session.Start{Source: "startup", At: t0}, ClaudeVersion: "2.1.330", GitBranch: "main"})
	session.Append(p, session.Record{SessionID: "other", Start: &session.Start{Source: "resume", At: t0.Add(time.Minute)}})
	s := open(t, p)
	if _, err := s.Ingest(ctx, 0); err != nil {
		t.Fatal(err)
	}
	if sess, _ := s.Sessions(ctx, time.Time{}, 0); len(sess) != 2 {
		t.Fatalf("sessions: %+v", sess)
	}
	session.Append(p, session.Record{SessionID: "s2", End: &session.End{At: t0.Add(2 * time.Hour), Reason: "logout"}})
	// The SessionEnd call is journalled too, which makes the store look.
	journal.Append(p, journal.Entry{Time: t0.Add(2 * time.Hour), Session: "s2", Event: "SessionEnd"})
	if _, err := s.Ingest(ctx, 0); err != nil {
		t.Fatal(err)
	}
	sess, _ := s.Sessions(ctx, time.Time{}, 0)
	var s2 Session
	for _, x := range sess {
		if x.ID == "s2" {
			s2 = x
		}
	}
	if len(sess) != 2 || s2.EndReason != "logout" || s2.ClaudeVersion != "2.1.330" || s2.Source != "startup" {
		t.Fatalf("after the end, the next day: %+v", sess)
	}
}

func TestRebuildAndSchemaVersion(t *testing.T) {
	ctx := context.Background()
	p := t.TempDir()
	journal.Append(p, journal.Entry{Time: time.Now(), Event: "Stop"})
	s := open(t, p)
	s.Ingest(ctx, 0)
	if v := count(t, s.DB(), "PRAGMA user_version"); v != SchemaVersion {
		t.Fatalf("user_version %d", v)
	}
	if mode := func() string { var m string; s.DB().QueryRow("PRAGMA journal_mode").Scan(&m); return m }(); mode != "wal" {
		t.Fatalf("journal_mode %q", mode)
	}
	s.DB().Exec("PRAGMA user_version = 99")
	s.Close()
	if _, err := Open(ctx, p); err == nil || !strings.Contains(err.Error(), "--rebuild") {
		t.Fatalf("a newer schema: %v", err)
	}
	os.WriteFile(filepath.Join(p, File), []byte("this is not a database, just text long enough to be a header......"), 0o644)
	if s, err := Open(ctx, p); err == nil {
		s.Close()
		t.Fatal("a corrupt database opened")
	}
	if err := Remove(p); err != nil {
		t.Fatal(err)
	}
	s2 := open(t, p)
	if st, err := s2.Ingest(ctx, 0); err != nil || st.Lines != 1 {
		t.Fatalf("rebuild: %+v %v", st, err)
	}
}

// TestConcurrentIngest runs two stores (as two hwctl processes would) on
// one project at once: every line lands once, and the derived totals
// count it once.
func TestConcurrentIngest(t *testing.T) {
	ctx := context.Background()
	p := t.TempDir()
	const n = 6000
	var b strings.Builder
	for i := range n {
		b.WriteString(`{"ts":"2026-11-22T10:00:00Z","session":"c` + string(rune('a'+i%3)) + `","event":"PreToolUse","exit":0,"us":1}` + "\n")
	}
	appendRaw(t, p, "2026-11-22.jsonl", b.String())
	a, c := open(t, p), open(t, p)
	errs := make(chan error, 2)
	for _, s := range []*Store{a, c} {
		go func() { _, err := s.Ingest(ctx, 500); errs <- err }()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if got := count(t, a.DB(), "SELECT count(*) FROM events"); got != n {
		t.Fatalf("%d rows", got)
	}
	if got := count(t, a.DB(), "SELECT sum(calls) FROM sessions"); got != n {
		t.Fatalf("sessions count %d calls", got)
	}
	if got := count(t, a.DB(), "SELECT sum(n) FROM counts"); got != n {
		t.Fatalf("counts sum %d", got)
	}
}

// TestRowsMatchJournalOneForOne reads each stored row's line back from the
// journal at its file and offset and compares the two.
func TestRowsMatchJournalOneForOne(t *testing.T) {
	ctx := context.Background()
	p := t.TempDir()
	ts := time.Date(2026, 11, 22, 23, 59, 59, 0, time.UTC)
	for i := range 300 {
		e := journal.Entry{Time: ts.Add(time.Duration(i) * 10 * time.Millisecond), Session: "s" + string(rune('a'+i%5)), Event: "PreToolUse",
			Tool: "Bash", Micros: int64(i), Reason: "line\nbreak \"quoted\" ✓", Faults: []string{"f"}}
		journal.Append(p, e) // crosses midnight: two files
	}
	appendRaw(t, p, "2026-11-22.jsonl", "{bad\n")
	s := open(t, p)
	if _, err := s.Ingest(ctx, 64); err != nil {
		t.Fatal(err)
	}
	rows, err := s.Events(ctx, Filter{Limit: MaxLimit})
	if err != nil || len(rows) != 301 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	for _, r := range rows {
		file, off, _ := journaltail.ParseID(r.Line)
		data, err := os.ReadFile(filepath.Join(p, journal.Dir, file))
		if err != nil {
			t.Fatal(err)
		}
		line := data[off:]
		line = line[:strings.IndexByte(string(line), '\n')]
		var e journal.Entry
		if json.Unmarshal(line, &e) != nil {
			if r.Bad == "" {
				t.Errorf("%s: the line does not parse but the row is not marked bad", r.Line)
			}
			continue
		}
		if !e.Time.Equal(r.Time) || e.Session != r.Session || e.Micros != r.Micros || e.Reason != r.Reason || len(r.Faults) != 1 {
			t.Errorf("%s: row %+v differs from line %s", r.Line, r, line)
		}
	}
}

func TestOpenWritesNothingForAMissingProject(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-project")
	if s, err := Open(context.Background(), missing); err == nil {
		s.Close()
		t.Fatal("opened a store in a missing project")
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Fatalf("the missing project was created: %v", err)
	}
}

func TestOpenRefusesAStateFolderOutsideTheProject(t *testing.T) {
	p, outside := t.TempDir(), t.TempDir()
	if err := os.Symlink(outside, filepath.Join(p, ".hookwright")); err != nil {
		t.Skip("no symlinks:", err)
	}
	if s, err := Open(context.Background(), p); err == nil {
		s.Close()
		t.Fatal("opened a store through a symlink out of the project")
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Fatalf("wrote outside the project: %v", ents)
	}
}

// TestMigrationUpgradesInPlace appends a migration, as the next schema
// change will, and reopens a store of the previous version: the rows stay
// and the new schema is there.
func TestMigrationUpgradesInPlace(t *testing.T) {
	ctx := context.Background()
	p := t.TempDir()
	journal.Append(p, journal.Entry{Time: time.Now(), Event: "Stop"})
	s := open(t, p)
	s.Ingest(ctx, 0)
	s.Close()
	saved := migrations
	t.Cleanup(func() { migrations = saved })
	migrations = append(migrations[:len(migrations):len(migrations)], `ALTER TABLE events ADD COLUMN note TEXT NOT NULL DEFAULT ''`)
	s2 := open(t, p)
	if v := count(t, s2.DB(), "PRAGMA user_version"); v != len(saved)+1 {
		t.Fatalf("user_version %d", v)
	}
	if n := count(t, s2.DB(), "SELECT count(*) FROM events WHERE note = ''"); n != 1 {
		t.Fatalf("rows after the migration: %d", n)
	}
}

// TestOpenRefusesPlantedLinks: a symlink planted at the database, its WAL
// or its shared-memory file, leading to a missing path outside the
// project, is an error naming the file; nothing appears outside.
func TestOpenRefusesPlantedLinks(t *testing.T) {
	for _, name := range []string{File, File + "-wal", File + "-shm"} {
		t.Run(filepath.Base(name), func(t *testing.T) {
			p, outside := t.TempDir(), t.TempDir()
			target := filepath.Join(outside, "planted.db")
			if err := os.MkdirAll(filepath.Join(p, ".hookwright"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, filepath.Join(p, name)); err != nil {
				t.Skip("no symlinks:", err)
			}
			s, err := Open(context.Background(), p)
			if err == nil {
				s.Close()
				t.Fatal("opened a store through a planted symlink")
			}
			if !strings.Contains(err.Error(), filepath.Base(name)) || !strings.Contains(err.Error(), "symlink") {
				t.Errorf("unclear error: %v", err)
			}
			if ents, _ := os.ReadDir(outside); len(ents) != 0 {
				t.Fatalf("wrote outside the project: %v", ents)
			}
		})
	}
}

// TestStoreIdentity: a store keeps its id across opens; a rebuilt one has
// a new id, so that a client holding positions in the old one can tell.
func TestStoreIdentity(t *testing.T) {
	p := t.TempDir()
	s := open(t, p)
	id := s.ID()
	s.Close()
	if len(id) < 16 {
		t.Fatalf("store id %q", id)
	}
	s = open(t, p)
	if s.ID() != id {
		t.Fatalf("reopened: %q, was %q", s.ID(), id)
	}
	s.Close()
	if err := Remove(p); err != nil {
		t.Fatal(err)
	}
	s = open(t, p)
	defer s.Close()
	if s.ID() == id {
		t.Fatalf("rebuilt store kept the id %q", id)
	}
}

// TestSubjectIsStoredRedacted: the store keeps each call's subject, and
// redacts it again on the way in (a journal written by hand or by another
// build may hold a secret in clear).
func TestSubjectIsStoredRedacted(t *testing.T) {
	p := t.TempDir()
	journal.Append(p, journal.Entry{Time: time.Now(), Session: "s", Event: "PreToolUse", Tool: "Bash", Subject: "GITHUB_TOKEN=ghp_0123456789abcdefghij0123 gh pr list"})
	s := open(t, p)
	defer s.Close()
	if _, err := s.Ingest(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	list, err := s.Events(context.Background(), Filter{})
	if err != nil || len(list) != 1 || list[0].Subject != "GITHUB_TOKEN=… gh pr list" {
		t.Fatalf("%+v %v", list, err)
	}
}

// Kinds are stored, filtered on, derived for lines that lack them, and
// filled in for rows stored before the column existed.
func TestKinds(t *testing.T) {
	ctx := context.Background()
	p := t.TempDir()
	ts := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	// The store as an older hwctl left it: every migration but the kind
	// column's, rows without kinds.
	saved := migrations
	for i, m := range saved {
		if strings.Contains(m, "ADD COLUMN kind") {
			migrations = saved[:i]
		}
	}
	s := open(t, p)
	if _, err := s.DB().Exec(`INSERT INTO events (file, off, ts, event, target, decision) VALUES
		('old.jsonl', 0, 1, 'PreToolUse', 'Bash', 'block'), ('old.jsonl', 10, 2, 'PreCompact', 'auto', '')`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	migrations = saved
	for _, e := range []journal.Entry{
		{Time: ts, Session: "s1", Event: "SubagentStart", Kind: "agent_started", Target: "Explore"},
		{Time: ts, Session: "s1", Event: "PreCompact", Target: "manual"}, // a line of no kind field
		{Time: ts, Session: "s1", Event: "PostToolUse"},
	} {
		journal.Append(p, e)
	}
	s = open(t, p)
	if _, err := s.Ingest(ctx, 0); err != nil {
		t.Fatal(err)
	}
	for kind, want := range map[string]int{"block": 1, "agent_started": 1, "context_overflow": 1, "checkpoint": 1, "ask": 0} {
		evs, err := s.Events(ctx, Filter{Kind: kind})
		if err != nil || len(evs) != want {
			t.Errorf("kind %s: %d events (%v), want %d", kind, len(evs), err, want)
		}
		for _, e := range evs {
			if e.Kind != kind {
				t.Errorf("kind %s: event of kind %q", kind, e.Kind)
			}
		}
	}
	if _, err := FilterFromQuery(url.Values{"kind": {"nonsense"}}, ts); err == nil {
		t.Error("an unknown kind is no error")
	}
	if f, err := FilterFromQuery(url.Values{"kind": {"ask"}}, ts); err != nil || f.Kind != "ask" {
		t.Errorf("kind=ask: %+v %v", f, err)
	}
}

// insertCols is the number of columns insertEvent names.
func TestInsertColsMatchesTheStatement(t *testing.T) {
	if n := strings.Count(insertEvent, "?"); n != insertCols {
		t.Fatalf("insertEvent has %d placeholders, insertCols is %d", n, insertCols)
	}
}
