package journaltail

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/internal/runtime/journal"
)

func writeJournal(t *testing.T, project, name, text string) {
	t.Helper()
	dir := filepath.Join(project, journal.Dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(dir, name), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

func collect(t *testing.T, project string, c Cursor, max int) ([]Line, Cursor) {
	t.Helper()
	var got []Line
	next, err := Read(project, c, max, func(l Line) error {
		l.Raw = append([]byte(nil), l.Raw...)
		got = append(got, l)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got, next
}

const (
	a = `{"ts":"2026-11-22T10:00:00Z","event":"PreToolUse","tool":"Bash","decision":"block","exit":2,"us":5}` + "\n"
	b = `{"ts":"2026-11-22T10:00:01Z","event":"Stop","exit":0,"us":3}` + "\n"
	c = `{"ts":"2026-11-23T00:00:01Z","event":"SessionStart","exit":0,"us":3}` + "\n"
)

func TestReadIncrementalTornAndMax(t *testing.T) {
	p := t.TempDir()
	if got, cur := collect(t, p, nil, 0); len(got) != 0 || len(cur) != 0 {
		t.Fatalf("no journal: %v %v", got, cur)
	}
	writeJournal(t, p, "2026-11-23.jsonl", c)
	writeJournal(t, p, "2026-11-22.jsonl", a+b+`{"ts":"2026-11-22T10:00:02Z","ev`)
	got, cur := collect(t, p, nil, 0)
	if len(got) != 3 || got[0].Entry.Decision != "block" || got[1].Entry.Event != "Stop" || got[2].Entry.Event != "SessionStart" {
		t.Fatalf("lines = %+v", got)
	}
	if got[1].ID() != "2026-11-22.jsonl:"+itoa(len(a)) || got[1].Next != int64(len(a+b)) {
		t.Fatalf("offsets: %s next %d", got[1].ID(), got[1].Next)
	}
	if cur["2026-11-22.jsonl"] != int64(len(a+b)) {
		t.Fatalf("the torn tail was consumed: %v", cur)
	}
	// The torn line completes: it is delivered once, whole.
	writeJournal(t, p, "2026-11-22.jsonl", `ent":"Stop","exit":0,"us":1}`+"\n")
	got, cur2 := collect(t, p, cur, 0)
	if len(got) != 1 || got[0].Err != nil || got[0].Entry.Event != "Stop" || got[0].Offset != int64(len(a+b)) {
		t.Fatalf("retried torn line = %+v", got)
	}
	if got, _ := collect(t, p, cur2, 0); len(got) != 0 {
		t.Fatalf("a re-read delivered %d lines", len(got))
	}
	// max: one line at a time walks the same lines in the same order.
	var ids []string
	var cur3 Cursor
	for range 10 {
		got, next := collect(t, p, cur3, 1)
		if len(got) == 0 {
			break
		}
		ids = append(ids, got[0].ID())
		cur3 = next
	}
	if strings.Join(ids, " ") != "2026-11-22.jsonl:0 2026-11-22.jsonl:"+itoa(len(a))+" 2026-11-22.jsonl:"+itoa(len(a+b))+" 2026-11-23.jsonl:0" {
		t.Fatalf("one by one: %v", ids)
	}
}

func itoa(n int) string { return Line{Offset: int64(n)}.ID()[1:] }

func TestReadBadAndLongLines(t *testing.T) {
	p := t.TempDir()
	long := `{"event":"` + strings.Repeat("x", MaxLine+10) + `"}` + "\n"
	writeJournal(t, p, "2026-11-22.jsonl", "not json\n"+long+"\n"+b)
	got, _ := collect(t, p, nil, 0)
	if len(got) != 4 || got[0].Err == nil || !errors.Is(got[1].Err, ErrTooLong) || got[1].Raw != nil || got[2].Err == nil || got[3].Err != nil {
		t.Fatalf("got %d lines: %v / %v / %v / %v", len(got), got[0].Err, got[1].Err, got[2].Err, got[3].Err)
	}
	if got[2].Offset != int64(len("not json\n")+len(long)) {
		t.Fatalf("offset after a long line = %d", got[2].Offset)
	}
}

func TestReadStopsAtCallbackError(t *testing.T) {
	p := t.TempDir()
	writeJournal(t, p, "2026-11-22.jsonl", a+b)
	boom := errors.New("boom")
	n := 0
	cur, err := Read(p, nil, 0, func(Line) error {
		n++
		if n == 2 {
			return boom
		}
		return nil
	})
	if !errors.Is(err, boom) || cur["2026-11-22.jsonl"] != int64(len(a)) {
		t.Fatalf("cursor %v, err %v", cur, err)
	}
}

func TestReadConfined(t *testing.T) {
	outside := t.TempDir()
	writeJournal(t, outside, "2026-11-22.jsonl", a)
	// A journal file that is a symlink is not read; neither is a journal
	// folder that leads out of the project.
	p := t.TempDir()
	if err := os.MkdirAll(filepath.Join(p, journal.Dir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, journal.Dir, "2026-11-22.jsonl"), filepath.Join(p, journal.Dir, "2026-11-22.jsonl")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	if err := os.Mkdir(filepath.Join(p, journal.Dir, "2026-11-21.jsonl"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, _ := collect(t, p, nil, 0); len(got) != 0 {
		t.Fatalf("read %d lines through a symlink or a folder", len(got))
	}
	q := t.TempDir()
	os.MkdirAll(filepath.Join(q, ".hookwright"), 0o755)
	if err := os.Symlink(filepath.Join(outside, journal.Dir), filepath.Join(q, journal.Dir)); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(q, nil, 0, func(Line) error { t.Fatal("read outside the project"); return nil }); err == nil {
		t.Fatal("a journal folder outside the project was no error")
	}
}

func TestParseID(t *testing.T) {
	l := Line{File: "2026-11-22.jsonl", Offset: 42}
	f, off, err := ParseID(l.ID())
	if err != nil || f != l.File || off != 42 {
		t.Fatalf("ParseID = %q %d %v", f, off, err)
	}
	for _, bad := range []string{"", "x", ":1", "f:-1", "f:x"} {
		if _, _, err := ParseID(bad); err == nil {
			t.Errorf("ParseID(%q) accepted", bad)
		}
	}
}

func FuzzRead(f *testing.F) {
	f.Add([]byte(a+b), 0)
	f.Add([]byte("x\n\n{"), 1)
	f.Fuzz(func(t *testing.T, data []byte, max int) {
		p := t.TempDir()
		writeJournal(t, p, "2026-11-22.jsonl", string(data))
		max = max % 5
		if max < 0 {
			max = -max
		}
		var total int64
		var cur Cursor
		for {
			delivered := 0
			next, err := Read(p, cur, max, func(l Line) error {
				delivered++
				if l.Offset != total || l.Next <= l.Offset {
					t.Fatalf("line at %d, want %d", l.Offset, total)
				}
				total = l.Next
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			cur = next
			if delivered == 0 {
				break
			}
		}
		want := int64(strings.LastIndexByte(string(data), '\n') + 1)
		if total != want || cur["2026-11-22.jsonl"] != want {
			t.Fatalf("consumed %d (cursor %d), want %d", total, cur["2026-11-22.jsonl"], want)
		}
	})
}

// TestTailMatchesRead: for journals of one and several files, with a torn
// last line, empty lines and lines across read chunks, Tail(n) gives the
// last n lines Read gives, and a cursor from which Read delivers exactly
// what is appended next.
func TestTailMatchesRead(t *testing.T) {
	long := strings.Repeat("x", 70<<10) // longer than one backward chunk
	for _, files := range [][][2]string{
		{{"2026-11-20.jsonl", "{\"event\":\"A\"}\n{\"event\":\"B\"}\n"}},
		{{"2026-11-20.jsonl", "{\"event\":\"A\"}\n\n{\"event\":\"" + long + "\"}\n{\"event\":\"C\"}\n{\"ev"}},
		{{"2026-11-20.jsonl", "{\"event\":\"A\"}\n"}, {"2026-11-21.jsonl", "{\"event\":\"B\"}\n{\"event\":\"C\"}\n"}, {"2026-11-22.jsonl", "{\"event\":\"D\"}\n"}},
		{{"2026-11-20.jsonl", ""}, {"2026-11-21.jsonl", "torn"}},
	} {
		p := t.TempDir()
		for _, f := range files {
			writeJournal(t, p, f[0], f[1])
		}
		all, end := collect(t, p, nil, 0)
		for n := 0; n <= len(all)+2; n++ {
			got, cur, err := Tail(p, n)
			if err != nil {
				t.Fatal(err)
			}
			want := all[max(len(all)-n, 0):]
			if len(got) != len(want) {
				t.Fatalf("%v n=%d: %d lines, want %d", files, n, len(got), len(want))
			}
			for i := range got {
				if got[i].ID() != want[i].ID() || string(got[i].Raw) != string(want[i].Raw) {
					t.Fatalf("%v n=%d: line %d is %s %q, want %s %q", files, n, i, got[i].ID(), got[i].Raw, want[i].ID(), want[i].Raw)
				}
			}
			for name, off := range end {
				if cur[name] != off {
					t.Fatalf("%v n=%d: cursor %v, want %v", files, n, cur, end)
				}
			}
		}
	}
}
