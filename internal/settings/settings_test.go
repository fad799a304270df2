package settings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/manifests"
)

// existing is a settings file with other keys, in an order that is not
// alphabetical, and a hook of the user's own.
const existing = `{
  "model": "opus",
  "permissions": {
    "allow": [
      "Bash(ls:*)"
    ]
  },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "my-own-check"
          }
        ]
      }
    ]
  },
  "env": {
    "A": "1"
  },
  "cleanupPeriodDays": 30
}
`

func install(t *testing.T, path, bin string, dry bool) Result {
	t.Helper()
	v, _ := hooks.ParseRelease("2.1.33")
	res, err := Install(Options{Path: path, Bin: bin, Version: v, Spec: manifests.Hookwright(), DryRun: dry,
		Now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestInstallKeepsKeysAndOrderAndIsIdempotent(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, []byte(existing), 0o644)
	res := install(t, path, "/opt/hw/bin/hookwright", false)
	if !res.Changed || res.Backup != path+".bak-20260102-030405" {
		t.Fatalf("first install: %+v", res)
	}
	if b, _ := os.ReadFile(res.Backup); string(b) != existing {
		t.Errorf("backup differs from the old file")
	}
	after, _ := os.ReadFile(path)
	s := string(after)
	order := []string{`"model"`, `"permissions"`, `"hooks"`, `"env"`, `"cleanupPeriodDays"`}
	last := -1
	for _, k := range order {
		i := strings.Index(s, k)
		if i < last {
			t.Errorf("key %s moved: %s", k, s)
		}
		last = i
	}
	if !strings.Contains(s, `"my-own-check"`) || strings.Index(s, "my-own-check") > strings.Index(s, `\"/opt/hw/bin/hookwright\" PreToolUse`) {
		t.Errorf("the user's hook is gone or no longer first:\n%s", s)
	}
	if strings.Contains(s, "CLAUDE_PLUGIN_ROOT") || !strings.Contains(s, `"\"/opt/hw/bin/hookwright\" TaskCompleted"`) {
		t.Errorf("commands do not run the installed binary:\n%s", s)
	}
	again := install(t, path, "/opt/hw/bin/hookwright", false)
	if again.Changed || again.Backup != "" {
		t.Errorf("second install changed the file: %+v", again)
	}
	// Another binary path replaces, never duplicates, our handlers.
	moved := install(t, path, "/usr/local/bin/hookwright", false)
	s2, _ := os.ReadFile(path)
	if !moved.Changed || strings.Contains(string(s2), "/opt/hw/bin") || strings.Count(string(s2), "hookwright\\\" PreToolUse") != specCount("PreToolUse") {
		t.Errorf("reinstall with another --bin:\n%s", s2)
	}
}

func TestDryRunWritesNothingAndShowsTheDiff(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(path, []byte(existing), 0o644)
	res := install(t, path, "/opt/hw/bin/hookwright", true)
	if b, _ := os.ReadFile(path); string(b) != existing {
		t.Errorf("dry run wrote the file")
	}
	if !strings.HasPrefix(res.Diff, "--- "+path+"\n+++ ") || !strings.Contains(res.Diff, "\n@@ -") ||
		!strings.Contains(res.Diff, `+            "command": "\"/opt/hw/bin/hookwright\" Stop"`) || strings.Contains(res.Diff, "\n-") {
		t.Errorf("diff:\n%s", res.Diff)
	}
	if m, _ := filepath.Glob(path + ".bak-*"); len(m) != 0 {
		t.Errorf("dry run made a backup: %v", m)
	}
}

func TestInstallIntoMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "home", ".claude", "settings.json")
	res := install(t, path, "/opt/hw/bin/hookwright", false)
	if !res.Changed || res.Backup != "" {
		t.Fatalf("%+v", res)
	}
	b, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(b), "{\n  \"hooks\": {\n") {
		t.Errorf("new file:\n%s", b)
	}
}

func TestInstallRefusesBadInput(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	os.WriteFile(path, []byte(`{"hooks": [1]}`), 0o644)
	v, _ := hooks.ParseRelease("2.1.33")
	if _, err := Install(Options{Path: path, Bin: "/x/hookwright", Version: v, Spec: manifests.Hookwright()}); err == nil {
		t.Errorf("hooks as a list: no error")
	}
	if _, err := Install(Options{Path: path, Bin: "relative/hookwright", Version: v, Spec: manifests.Hookwright()}); err == nil {
		t.Errorf("relative --bin: no error")
	}
	if b, _ := os.ReadFile(path); string(b) != `{"hooks": [1]}` {
		t.Errorf("a refused install changed the file")
	}
}

func TestDecodeRoundTripsJSONStringifyOutput(t *testing.T) {
	v, err := Decode([]byte(existing))
	if err != nil {
		t.Fatal(err)
	}
	out, err := manifests.MarshalJS(v)
	if err != nil || string(out) != existing {
		t.Errorf("round trip:\n%s\nerr %v", out, err)
	}
}

// specCount is how many handlers hookwright's spec registers for event.
func specCount(event string) int {
	n := 0
	for _, h := range manifests.Hookwright().Handlers {
		if h.Event == event {
			n++
		}
	}
	return n
}

// TestInstallWritesThroughASymlink: a settings file that a dotfiles
// manager links from elsewhere stays a link, and the file it names gets the
// hooks.
func TestInstallWritesThroughASymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "dotfiles", "claude-settings.json")
	os.MkdirAll(filepath.Dir(target), 0o755)
	os.WriteFile(target, []byte(existing), 0o644)
	path := filepath.Join(dir, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.Symlink(filepath.Join("..", "dotfiles", "claude-settings.json"), path); err != nil {
		t.Skip("no symlinks here:", err)
	}
	res := install(t, path, "/opt/hw/bin/hookwright", false)
	if !res.Changed {
		t.Fatalf("%+v", res)
	}
	if fi, err := os.Lstat(path); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("%s is no longer a symlink: %v", path, err)
	}
	b, _ := os.ReadFile(target)
	if !strings.Contains(string(b), `\"/opt/hw/bin/hookwright\" PreToolUse`) || !strings.Contains(string(b), "my-own-check") {
		t.Errorf("the linked file did not get the hooks:\n%s", b)
	}
	if again := install(t, path, "/opt/hw/bin/hookwright", false); again.Changed {
		t.Errorf("second install through the link changed the file")
	}
}

// TestInstallRefusesANamedPipe: a settings path that is a named pipe is
// an error at once, not a wait for a writer.
func TestInstallRefusesANamedPipe(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	if err := mkfifo(path); err != nil {
		t.Skip(err)
	}
	v, _ := hooks.ParseRelease("2.1.33")
	done := make(chan error, 1)
	go func() {
		_, err := Install(Options{Path: path, Bin: "/x/hookwright", Version: v, Spec: manifests.Hookwright()})
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("Install into a named pipe: %v, want an error that says it is not a regular file", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Install waited on a named pipe")
	}
}

func TestSetStatusLine(t *testing.T) {
	in := []byte(`{"model": "opus", "statusLine": {"type": "command", "command": "~/bin/mine.sh"}, "hooks": {}}`)
	out, replaced, err := SetStatusLine(in, `"/opt/hw/hwctl" statusline`)
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"model\": \"opus\",\n  \"statusLine\": {\n    \"type\": \"command\",\n    \"command\": \"\\\"/opt/hw/hwctl\\\" statusline\",\n    \"padding\": 0\n  },\n  \"hooks\": {}\n}\n"
	if string(out) != want || replaced != "~/bin/mine.sh" {
		t.Errorf("SetStatusLine = %s (replaced %q)\nwant %s", out, replaced, want)
	}
	again, replaced, err := SetStatusLine(out, `"/opt/hw/hwctl" statusline`)
	if err != nil || string(again) != string(out) || replaced != "" {
		t.Errorf("a second run changed the file or reported a replacement: %q %v\n%s", replaced, err, again)
	}
	if out, _, err := SetStatusLine(nil, "x"); err != nil || !strings.Contains(string(out), `"statusLine"`) {
		t.Errorf("no file: %v\n%s", err, out)
	}
	if _, _, err := SetStatusLine([]byte(`[1]`), "x"); err == nil {
		t.Error("settings that is no object: no error")
	}
}
