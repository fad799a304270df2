package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/internal/state/session"
)

// TestReleaseVersionInFingerprint builds the runtime with the Makefile's
// own build command (GOBUILD: -trimpath, -X main.version from plugin.json,
// as make plugin and make release run it) and reads the version back from
// the fingerprint a SessionStart writes: before, a release build recorded
// "(devel)" there while `hookwright version` said 0.1.0.
func TestReleaseVersionInFingerprint(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make")
	}
	if runtime.GOOS == "windows" {
		t.Skip("the Makefile's build command is a shell line")
	}
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	mk := func(target string) string {
		t.Helper()
		cmd := exec.Command("make", "-s", "--no-print-directory", "-C", repo, "--eval", "print-gobuild: ; @echo '$(GOBUILD)'", target)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("make %s: %v", target, err)
		}
		return strings.TrimSpace(string(out))
	}
	want, gobuild := mk("version"), mk("print-gobuild")
	if want == "" || !strings.Contains(gobuild, "main.version="+want) {
		t.Fatalf("the Makefile's version %q, build command %q", want, gobuild)
	}
	bin := filepath.Join(t.TempDir(), "hookwright")
	build := exec.Command("sh", "-c", gobuild+` -o "$1" ./cmd/hookwright`, "sh", bin)
	build.Dir = repo
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", gobuild, err, out)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil || strings.TrimSpace(string(out)) != "hookwright "+want {
		t.Errorf("hookwright version: %q, %v", out, err)
	}

	root := t.TempDir()
	in, _ := json.Marshal(map[string]any{"session_id": "rel", "transcript_path": filepath.Join(root, "t.jsonl"),
		"cwd": root, "hook_event_name": "SessionStart", "source": "startup"})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "SessionStart")
	cmd.Dir, cmd.Stdin = root, bytes.NewReader(in)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "CLAUDE_PROJECT_DIR=" + root, "HOOKWRIGHT_STDIN_TIMEOUT=10s"}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("SessionStart: %v\n%s", err, out)
	}
	fp, err := session.Load(root, "rel")
	if err != nil {
		t.Fatal(err)
	}
	if fp.HookwrightVersion != want {
		t.Errorf("the fingerprint says hookwright %q, the release is %q", fp.HookwrightVersion, want)
	}
}
