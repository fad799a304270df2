package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookwright/hookwright/internal/runtime/safepath"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func TestAppendAndList(t *testing.T) {
	dir := t.TempDir()
	for i, id := range []string{"older", "newer"} {
		if err := Append(dir, Record{SessionID: id, Start: &Start{Source: "startup", At: t0.Add(time.Duration(i) * time.Hour)}}); err != nil {
			t.Fatal(err)
		}
	}
	list, err := List(dir, 0)
	if err != nil || len(list) != 2 || list[0].SessionID != "newer" || list[1].SessionID != "older" {
		t.Fatalf("List = %+v, %v", list, err)
	}
	if list, _ := List(dir, 1); len(list) != 1 {
		t.Errorf("List(limit 1) = %d sessions", len(list))
	}
	for _, id := range []string{"../x", "", "a/b", ".."} {
		if err := Append(dir, Record{SessionID: id, Start: &Start{At: t0}}); err == nil {
			t.Errorf("Append took the unsafe session id %q", id)
		}
	}
	if err := Append(dir, Record{SessionID: "x"}); err == nil {
		t.Error("Append took a record that is neither a start nor an end")
	}
	tot := &Totals{Tools: map[string]int{"Bash": 3, "Read": 5, "Edit": 3}}
	if got := tot.TopTools(2); len(got) != 2 || got[0] != "Read×5" || got[1] != "Bash×3" {
		t.Errorf("TopTools = %v", got)
	}
	if tot.ToolCalls() != 11 {
		t.Errorf("ToolCalls = %d", tot.ToolCalls())
	}
}

// TestFold: starts, a resume and an end fold into one fingerprint, as the
// whole-file rewrite of earlier releases left it.
func TestFold(t *testing.T) {
	dir := t.TempDir()
	must := func(r Record) {
		t.Helper()
		r.SessionID = "s1"
		if err := Append(dir, r); err != nil {
			t.Fatal(err)
		}
	}
	// Another session in the same files stays apart.
	Append(dir, Record{SessionID: "other", Start: &Start{Source: "startup", At: t0}, GitBranch: "dev", ClaudeVersion: "9.9.9"})
	must(Record{Start: &Start{Source: "startup", At: t0}, Cwd: "/p", TranscriptPath: "/t1", GitHead: "aaa", GitBranch: "main", HookwrightVersion: "0.1.0", PPID: 7, Terminal: "xterm"})
	must(Record{Start: &Start{Source: "resume", At: t0.Add(time.Minute)}, Cwd: "/p/src", ClaudeVersion: "2.1.33", GitHead: "bbb", HookwrightVersion: "0.2.0", PPID: 8})
	must(Record{End: &End{At: t0.Add(36 * time.Hour), Reason: "clear"}, ClaudeVersion: "2.1.99", Totals: &Totals{Calls: 3, Events: map[string]int{"Stop": 3}}})
	fp, err := Load(dir, "s1")
	if err != nil {
		t.Fatal(err)
	}
	want := Fingerprint{SessionID: "s1", Started: t0, Starts: []Start{{"startup", t0}, {"resume", t0.Add(time.Minute)}},
		Ended: t0.Add(36 * time.Hour), EndReason: "clear", Cwd: "/p/src", TranscriptPath: "/t1", ClaudeVersion: "2.1.33",
		GitHead: "bbb", GitBranch: "main", HookwrightVersion: "0.2.0", PPID: 8, Terminal: "xterm",
		Totals: &Totals{Calls: 3, Events: map[string]int{"Stop": 3}}}
	if g, w := jsonOf(t, fp), jsonOf(t, want); g != w {
		t.Fatalf("fingerprint\n got %s\nwant %s", g, w)
	}
	// An end without a start (installed mid-session) starts it then.
	must2 := Append(dir, Record{SessionID: "late", End: &End{At: t0, Reason: "other"}, ClaudeVersion: "2.1.50"})
	if fp, err := Load(dir, "late"); must2 != nil || err != nil || !fp.Started.Equal(t0) || fp.ClaudeVersion != "2.1.50" {
		t.Fatalf("late: %+v %v %v", fp, err, must2)
	}
}

// TestMaxStarts keeps the last starts only.
func TestMaxStarts(t *testing.T) {
	dir := t.TempDir()
	for i := 0; i < MaxStarts+5; i++ {
		if err := Append(dir, Record{SessionID: "s", Start: &Start{Source: fmt.Sprint(i), At: t0.Add(time.Duration(i) * time.Hour)}}); err != nil {
			t.Fatal(err)
		}
	}
	fp, _ := Load(dir, "s")
	if len(fp.Starts) != MaxStarts || fp.Starts[0].Source != "5" || !fp.Started.Equal(t0) {
		t.Fatalf("starts %d, first %+v, started %v", len(fp.Starts), fp.Starts[0], fp.Started)
	}
}

// TestLegacyFile: a session an earlier release recorded in <id>.json is
// read, and the log's lines fold on top of it.
func TestLegacyFile(t *testing.T) {
	dir := t.TempDir()
	folder := filepath.Join(dir, Dir)
	os.MkdirAll(folder, 0o755)
	os.WriteFile(filepath.Join(folder, "old.json"), []byte(`{"session_id":"old","started":"2026-03-01T12:00:00Z","starts":[{"source":"startup","at":"2026-03-01T12:00:00Z"}],"claude_version":"2.1.33","git_branch":"main"}`), 0o644)
	list, err := List(dir, 0)
	if err != nil || len(list) != 1 || list[0].SessionID != "old" || list[0].ClaudeVersion != "2.1.33" {
		t.Fatalf("legacy only: %+v %v", list, err)
	}
	if err := Append(dir, Record{SessionID: "old", End: &End{At: t0.Add(time.Hour), Reason: "logout"}}); err != nil {
		t.Fatal(err)
	}
	list, _ = List(dir, 0)
	if len(list) != 1 || list[0].EndReason != "logout" || list[0].GitBranch != "main" || !list[0].Started.Equal(t0) {
		t.Fatalf("legacy and log: %+v", list)
	}
	// A broken legacy file reads as none; the day files still count.
	os.WriteFile(filepath.Join(folder, "old.json"), []byte(`{"session_id":`), 0o644)
	if fp, err := Load(dir, "old"); err != nil || fp.EndReason != "logout" || !fp.Started.Equal(t0.Add(time.Hour)) {
		t.Fatalf("broken legacy: %+v %v", fp, err)
	}
	if _, err := Load(dir, "none"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a session with no file: %v", err)
	}
}

// TestTornAndForeignLines: a torn last line (a crash mid-write) and lines
// that are not records are skipped.
func TestTornAndForeignLines(t *testing.T) {
	dir := t.TempDir()
	Append(dir, Record{SessionID: "s", Start: &Start{Source: "startup", At: t0}, GitBranch: "main"})
	path := filepath.Join(dir, Dir, t0.Format(time.DateOnly)+Ext)
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("not json\n[1,2]\n{}\n\n{\"session_id\":\"../x\",\"start\":{\"source\":\"a\",\"at\":\"2026-03-01T12:00:00Z\"}}\n{\"session_id\":\"s\",\"start\":{\"source\":\"res")
	f.Close()
	fp, err := Load(dir, "s")
	if err != nil || len(fp.Starts) != 1 || fp.GitBranch != "main" {
		t.Fatalf("%+v %v", fp, err)
	}
	if list, _ := List(dir, 0); len(list) != 1 {
		t.Fatalf("a record of an unsafe id was listed: %+v", list)
	}
}

// TestBoundedRead: of a day file larger than the bound, the tail is read
// (its cut first line skipped), and only the newest MaxDays files.
func TestBoundedRead(t *testing.T) {
	dir := t.TempDir()
	day := t0.Format(time.DateOnly) + Ext
	line, _ := json.Marshal(Record{SessionID: "filler", Start: &Start{Source: "compact", At: t0}, Model: strings.Repeat("m", 400)})
	var buf bytes.Buffer
	buf.WriteString(`{"session_id":"lost","start":{"source":"startup","at":"2026-03-01T00:00:00Z"}}` + "\n")
	for buf.Len() < MaxTail+4096 {
		buf.Write(line)
		buf.WriteByte('\n')
	}
	os.MkdirAll(filepath.Join(dir, Dir), 0o755)
	os.WriteFile(filepath.Join(dir, Dir, day), buf.Bytes(), 0o644)
	Append(dir, Record{SessionID: "kept", Start: &Start{Source: "startup", At: t0.Add(time.Hour)}, GitBranch: "last"})
	if _, err := Load(dir, "lost"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the head of an oversized day file was read: %v", err)
	}
	if fp, err := Load(dir, "kept"); err != nil || fp.GitBranch != "last" {
		t.Errorf("the tail: %+v %v", fp, err)
	}
	os.Remove(filepath.Join(dir, Dir, day))
	for i := 0; i <= MaxDays; i++ {
		Append(dir, Record{SessionID: fmt.Sprintf("d%03d", i), Start: &Start{Source: "startup", At: t0.AddDate(0, 0, i)}})
	}
	list, _ := List(dir, 0)
	if len(list) != MaxDays || list[len(list)-1].SessionID != "d001" {
		t.Errorf("%d sessions listed from %d day files, the oldest %q", len(list), MaxDays+1, list[len(list)-1].SessionID)
	}
}

// TestHostileFiles: a symlink, a hard link or a FIFO planted at a day file
// is neither written through nor waited on, and nothing outside changes.
func TestHostileFiles(t *testing.T) {
	dir := t.TempDir()
	folder := filepath.Join(dir, Dir)
	os.MkdirAll(folder, 0o755)
	outside := filepath.Join(t.TempDir(), "victim")
	os.WriteFile(outside, []byte("keep"), 0o644)
	days := map[string]time.Time{"link": t0, "hard": t0.AddDate(0, 0, 1), "fifo": t0.AddDate(0, 0, 2)}
	plant := func(what string) string { return filepath.Join(folder, days[what].Format(time.DateOnly)+Ext) }
	os.Symlink(outside, plant("link"))
	os.Link(outside, plant("hard"))
	if err := syscall.Mkfifo(plant("fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	for what, at := range days {
		done := make(chan error, 1)
		go func() { done <- Append(dir, Record{SessionID: "s", Start: &Start{At: at}}) }()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("%s: Append wrote through it", what)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: Append hangs", what)
		}
	}
	done := make(chan error, 1)
	go func() { _, err := List(dir, 0); done <- err }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("List hangs on a planted FIFO")
	}
	if data, _ := os.ReadFile(outside); string(data) != "keep" {
		t.Fatalf("the file outside the project changed: %q", data)
	}
	if list, err := List(dir, 0); err != nil || len(list) != 0 {
		t.Fatalf("List of planted files: %+v %v", list, err)
	}
}

func TestIsDayFile(t *testing.T) {
	for name, want := range map[string]bool{"2026-11-25.jsonl": true, "2026-13-01.jsonl": false, "abc.jsonl": false, "2026-11-25.json": false, ".2026-11-25.jsonl": false} {
		if IsDayFile(name) != want {
			t.Errorf("IsDayFile(%q) = %v", name, !want)
		}
	}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// FuzzFold: any bytes fold without a panic; every session has an id that
// is a safe name and at most MaxStarts starts.
func FuzzFold(f *testing.F) {
	line, _ := json.Marshal(Record{SessionID: "x", Start: &Start{Source: "startup", At: t0}, Cwd: "/p"})
	f.Add(line, false)
	f.Add([]byte("{\"session_id\":\"x\",\"end\":{}}\n{\"start\":null}\n{\"session_id\":\"../x\",\"end\":{\"at\":\"2026-01-01T00:00:00Z\"}}"), true)
	f.Fuzz(func(t *testing.T, data []byte, withNeedle bool) {
		all := map[string]*Fingerprint{}
		var needle []byte
		if withNeedle {
			needle = []byte(`"session_id":"x",`)
		}
		Fold(all, data, needle)
		for id, fp := range all {
			if fp.SessionID != id || safepath.Name("session id", id) != nil || len(fp.Starts) > MaxStarts || fp.Started.IsZero() {
				t.Fatalf("%q: %+v", id, fp)
			}
		}
	})
}

// TestEncodeMatchesJSON: the hand-written start record is the bytes
// encoding/json writes (HTML escaping off), for plain and hostile text.
func TestEncodeMatchesJSON(t *testing.T) {
	for _, r := range []Record{
		{SessionID: "s<&>", Start: &Start{Source: "startup", At: t0}},
		{Start: &Start{Source: "resume", At: time.Date(2026, 11, 25, 16, 0, 0, 123456789, time.UTC)}, Cwd: "/p/src", TranscriptPath: "/t.jsonl",
			Model: "claude", ClaudeVersion: "2.1.33", GitHead: "abc", GitBranch: "main", HookwrightVersion: "0.1.0", PPID: 42, Terminal: "xterm"},
		{Start: &Start{Source: "x\"\\\n\t\x01<>&\u2028\xff", At: t0.In(time.FixedZone("x", 3600))}, Cwd: "é\x7f", PPID: -1},
		{Start: &Start{At: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}},
		{End: &End{At: t0, Reason: "other"}, Totals: &Totals{Calls: 1}},
	} {
		checkEncode(t, r)
	}
}

func checkEncode(t *testing.T, r Record) {
	t.Helper()
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	werr := enc.Encode(r)
	got, gerr := encode(r)
	if (werr == nil) != (gerr == nil) || werr == nil && string(got)+"\n" != want.String() {
		t.Errorf("encode(%+v)\n got %s (%v)\nwant %s (%v)", r, got, gerr, want.String(), werr)
	}
}

func FuzzEncode(f *testing.F) {
	f.Add("startup", "/p", "2.1.33", "main", 42, int64(0))
	f.Add("\"<&>\u2028", "\xff\x00", "", "", -7, int64(1<<40))
	f.Fuzz(func(t *testing.T, source, cwd, version, branch string, ppid int, nanos int64) {
		checkEncode(t, Record{SessionID: branch, Start: &Start{Source: source, At: time.Unix(0, nanos).UTC()}, Cwd: cwd, ClaudeVersion: version, GitBranch: branch, PPID: ppid, Terminal: source})
	})
}

// TestHostileIDs: an id with quotes, escapes, HTML characters or a line
// break is data in a line, found again by Load and All, and never mixed up
// with an id it contains.
func TestHostileIDs(t *testing.T) {
	dir := t.TempDir()
	ids := []string{`a"b`, "a\tb", "a\nb", "<x>&", "s1", "s1\"", "\u2028", "é"}
	for i, id := range ids {
		if err := Append(dir, Record{SessionID: id, Start: &Start{Source: "startup", At: t0}, GitBranch: fmt.Sprint(i)}); err != nil {
			t.Fatalf("%q: %v", id, err)
		}
		if err := Append(dir, Record{SessionID: id, End: &End{At: t0.Add(time.Hour), Reason: fmt.Sprint(i)}, Totals: &Totals{Calls: i}}); err != nil {
			t.Fatalf("%q: %v", id, err)
		}
	}
	all, err := All(dir)
	if err != nil || len(all) != len(ids) {
		t.Fatalf("All: %d sessions, %v", len(all), err)
	}
	for i, id := range ids {
		fp, err := Load(dir, id)
		if err != nil || fp.SessionID != id || fp.GitBranch != fmt.Sprint(i) || fp.EndReason != fmt.Sprint(i) || len(fp.Starts) != 1 {
			t.Errorf("Load(%q) = %+v, %v", id, fp, err)
		}
	}
}
