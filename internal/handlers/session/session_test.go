package session_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/handlers/session"
	state "github.com/hookwright/hookwright/internal/state/session"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func TestStartEnd(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".git", "refs", "heads"), 0o755)
	os.WriteFile(filepath.Join(dir, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	os.WriteFile(filepath.Join(dir, ".git", "refs", "heads", "main"), []byte("0123456789abcdef0123456789abcdef01234567\n"), 0o644)
	transcript := filepath.Join(dir, "t.jsonl")
	noEnv := func(string) string { return "" }
	now := func() time.Time { return t0 }

	start := &hooks.SessionStart{Common: hooks.Common{SessionID: "abc-1", Cwd: dir, TranscriptPath: transcript, HookEventName: hooks.EventSessionStart}, Source: "startup"}
	term := func(k string) string {
		if k == "TERM" {
			return "xterm-256color"
		}
		return ""
	}
	rec := session.Recorder{Dir: dir, Version: "v0.1.0", Getenv: term, Now: now, PPID: func() int { return 4242 }}
	if _, err := rec.Handle(ctx, start); err != nil {
		t.Fatal(err)
	}
	// The transcript appears only later, as on real releases.
	os.WriteFile(transcript, []byte(`{"type":"summary"}`+"\n"+`{"type":"user","version":"2.1.33","sessionId":"abc-1"}`+"\n"), 0o644)
	end := &hooks.SessionEnd{Common: hooks.Common{SessionID: "abc-1", TranscriptPath: transcript}, Reason: "other"}
	if _, err := (session.Ender{Dir: dir, Getenv: noEnv, Now: func() time.Time { return t0.Add(time.Hour) }}).Handle(ctx, end); err != nil {
		t.Fatal(err)
	}
	list, err := state.List(dir, 0)
	if err != nil || len(list) != 1 {
		t.Fatalf("List: %v %v", list, err)
	}
	fp := list[0]
	if fp.ClaudeVersion != "2.1.33" || fp.GitHead[:8] != "01234567" || fp.GitBranch != "main" ||
		fp.HookwrightVersion != "v0.1.0" || !fp.Started.Equal(t0) || !fp.Ended.Equal(t0.Add(time.Hour)) ||
		len(fp.Starts) != 1 || fp.EndReason != "other" || fp.PPID != 4242 || fp.Terminal != "xterm-256color" {
		t.Fatalf("fingerprint %+v", fp)
	}
}

func TestUnsafeSessionID(t *testing.T) {
	dir := t.TempDir()
	for _, id := range []string{"../x", "", "a/b", "/abs"} {
		start := &hooks.SessionStart{Common: hooks.Common{SessionID: id, Cwd: dir}}
		if _, err := (session.Recorder{Dir: dir}).Handle(context.Background(), start); err == nil {
			t.Errorf("session id %q accepted", id)
		}
	}
}

func TestClaudeVersionFallbacks(t *testing.T) {
	env := func(k string) string {
		if k == "AI_AGENT" {
			return "claude-code_2-1-330_harness"
		}
		return ""
	}
	if v := session.ClaudeVersion("/does/not/exist", env); v != "2.1.330" {
		t.Fatalf("AI_AGENT: %q", v)
	}
	if v := session.ClaudeVersion("", func(string) string { return "" }); v != "" {
		t.Fatalf("nothing known: %q", v)
	}
}

func TestGitHeadPackedAndDetached(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".git"), 0o755)
	os.WriteFile(filepath.Join(dir, ".git", "HEAD"), []byte("ref: refs/heads/dev\n"), 0o644)
	os.WriteFile(filepath.Join(dir, ".git", "packed-refs"), []byte("# pack-refs\nfeedface refs/heads/dev\n"), 0o644)
	if c, b := session.GitHead(dir); c != "feedface" || b != "dev" {
		t.Fatalf("packed: %q %q", c, b)
	}
	os.WriteFile(filepath.Join(dir, ".git", "HEAD"), []byte("cafe\n"), 0o644)
	if c, b := session.GitHead(dir); c != "cafe" || b != "" {
		t.Fatalf("detached: %q %q", c, b)
	}
	if c, _ := session.GitHead(t.TempDir()); c != "" {
		t.Fatal("not a repo")
	}
}
