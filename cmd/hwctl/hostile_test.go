package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/internal/runtime/journal"
)

// hostile is text the model chooses: a path that would retitle the
// terminal and clear the screen, with a bidi override and a C1 CSI.
const hostile = "/tmp/\x1b]0;owned\a\x1b[2J\u202eevil\u009b31m"

// rawControl reports the first byte or rune of out a terminal would act
// on (newlines and tabs aside).
func rawControl(out string) (rune, bool) {
	for _, r := range out {
		switch {
		case r == '\n' || r == '\t':
		case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f, r == 0x202e:
			return r, true
		}
	}
	return 0, false
}

// Every hwctl view of the journal prints hostile text inert: events, log,
// sessions and the dashboard, as tables and as JSON.
func TestHostileTextIsInert(t *testing.T) {
	dir := t.TempDir()
	e := journal.Entry{Time: time.Now(), Session: "s\x1b[2Jsession", Event: "PreToolUse", Target: "Read", Tool: "Read",
		Agent: "a\x1b]0;x\a", Handler: "guard", Decision: "block", Exit: 2, Reason: "blocked Read of " + hostile}
	if err := journal.Append(dir, e); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"events"}, {"events", "--json"}, {"log"}, {"sessions"}, {"sessions", "--json"}, {"dashboard", "--once"},
	} {
		out, errs, code := hwctl(t, append(args, "--dir", dir)...)
		if code != 0 {
			t.Fatalf("%v: exit %d %q", args, code, errs)
		}
		if r, bad := rawControl(out + errs); bad {
			t.Errorf("%v prints a raw %U:\n%q", args, r, out)
		}
	}
	out, _, _ := hwctl(t, "events", "--dir", dir)
	if !strings.Contains(out, `\x1b]0;owned\x07\x1b[2J\u202eevil\u009b31m`) {
		t.Errorf("events does not show the escapes:\n%s", out)
	}
}

// A symlink planted at .hookwright/hookwright.db, leading to a missing
// path outside the project, is an error for every store command; no file
// appears outside.
func TestPlantedDatabaseLinkIsAnError(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	if err := journal.Append(dir, journal.Entry{Time: time.Now(), Session: "s1", Event: "PreToolUse", Tool: "Bash"}); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "stolen.db"), filepath.Join(dir, ".hookwright", "hookwright.db")); err != nil {
		t.Skip("no symlinks:", err)
	}
	for _, args := range [][]string{{"events"}, {"sessions"}, {"ingest"}} {
		_, errs, code := hwctl(t, append(args, "--dir", dir)...)
		if code != 3 || !strings.Contains(errs, "hookwright.db") || !strings.Contains(errs, "symlink") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Fatalf("wrote outside the project: %v", ents)
	}
}

// `hwctl log -n 2` reads the journal from its end: a journal whose first
// 256 MiB are one unreadable line (a sparse file, so the disk holds
// nothing) shows its last two entries without reading that line, which
// reading from the start would report as unparsable.
func TestLogReadsFromTheEnd(t *testing.T) {
	dir := t.TempDir()
	jdir := filepath.Join(dir, journal.Dir)
	if err := os.MkdirAll(jdir, 0o755); err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(jdir, "2026-11-22.jsonl")
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(256 << 20); err != nil {
		t.Skip("no sparse files:", err)
	}
	f.Seek(0, io.SeekEnd)
	f.WriteString("\n")
	for i := range 5 {
		fmt.Fprintf(f, `{"ts":"2026-11-22T10:00:0%dZ","session":"s1","event":"PreToolUse","target":"T%d"}`+"\n", i, i)
	}
	f.Close()
	out, errs, code := hwctl(t, "log", "-n", "2", "--dir", dir)
	if code != 0 || errs != "" || strings.Count(out, "\n") != 3 || !strings.Contains(out, "T3") || !strings.Contains(out, "T4") || strings.Contains(out, "T2") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}
