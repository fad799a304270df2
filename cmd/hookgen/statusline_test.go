package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/internal/testkit"
)

// hookgen install --statusline writes a statusLine that runs hwctl
// statusline; the command it writes, run by sh as Claude Code runs it,
// prints the session's line.
func TestInstallStatusline(t *testing.T) {
	tmp := t.TempDir()
	hwctl := filepath.Join(tmp, "bin", "hwctl")
	testkit.BuildTo(t, "../hwctl", hwctl, testkit.Options{})
	bin := filepath.Join(tmp, "bin", "hookwright")
	testkit.BuildTo(t, "../hookwright", bin, testkit.Options{})
	project := filepath.Join(tmp, "project")
	os.MkdirAll(filepath.Join(project, ".hookwright", "journal"), 0o755)
	os.WriteFile(filepath.Join(project, ".hookwright", "work.json"), []byte(`{"manual":{"parser":{"name":"parser","started":"2026-11-25T10:00:00Z"}}}`), 0o644)

	e, out, errb := fakeEnv(t)
	if code := hookgen(t, e, "install", "--settings", "project", "--project", project, "--bin", bin, "--cc-version", "2.1.33", "--statusline", "--hwctl", hwctl); code != exitOK {
		t.Fatalf("install: exit %d: %s", code, errb)
	}
	data, err := os.ReadFile(filepath.Join(project, ".claude", "settings.json"))
	if err != nil {
		t.Fatal(err, out)
	}
	var s struct {
		StatusLine struct{ Type, Command string } `json:"statusLine"`
		Hooks      map[string]any                 `json:"hooks"`
	}
	if err := json.Unmarshal(data, &s); err != nil || s.StatusLine.Type != "command" || len(s.Hooks) == 0 {
		t.Fatalf("settings: %v\n%s", err, data)
	}
	cmd := exec.Command("sh", "-c", s.StatusLine.Command)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
	cmd.Stdin = strings.NewReader(`{"session_id":"s","cwd":"` + project + `","workspace":{"current_dir":"` + project + `","project_dir":"` + project + `"}}`)
	line, err := cmd.Output()
	if err != nil || string(line) != "hookwright · work parser\n" {
		t.Errorf("%s: %v, printed %q", s.StatusLine.Command, err, line)
	}
	// Without --hwctl, the runtime binary's statusline: the same line.
	other := filepath.Join(tmp, "other")
	os.MkdirAll(other, 0o755)
	if code := hookgen(t, e, "install", "--settings", "project", "--project", other, "--bin", bin, "--cc-version", "2.1.33", "--statusline"); code != exitOK {
		t.Fatalf("install: exit %d: %s", code, errb)
	}
	data, _ = os.ReadFile(filepath.Join(other, ".claude", "settings.json"))
	json.Unmarshal(data, &s)
	if s.StatusLine.Command != `"`+bin+`" statusline` {
		t.Fatalf("statusLine command %q", s.StatusLine.Command)
	}
	cmd = exec.Command("sh", "-c", s.StatusLine.Command)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
	cmd.Stdin = strings.NewReader(`{"session_id":"s","cwd":"` + project + `/sub","workspace":{"current_dir":"` + project + `/sub"}}`)
	if line, err := cmd.Output(); err != nil || string(line) != "hookwright · work parser\n" {
		t.Errorf("%s: %v, printed %q", s.StatusLine.Command, err, line)
	}
	// Twice changes nothing.
	out.Reset()
	if code := hookgen(t, e, "install", "--settings", "project", "--project", project, "--bin", bin, "--cc-version", "2.1.33", "--statusline", "--hwctl", hwctl); code != exitOK || !strings.Contains(out.String(), "nothing to do") {
		t.Errorf("second install: exit %d, %s %s", code, out, errb)
	}
}
