package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The status line through the built binaries: real hook calls write the
// journal, hwctl work start opens a unit, and `hwctl statusline` reads
// Claude Code's statusLine JSON (cwd in a subfolder, no project_dir) and
// prints the session's line, hostile strings made safe.
func TestStatuslineBinary(t *testing.T) {
	hookwright, hwctl := builtBinaries(t)
	project := t.TempDir()
	os.MkdirAll(filepath.Join(project, "src"), 0o755)
	os.MkdirAll(filepath.Join(project, ".hookwright"), 0o755)
	os.WriteFile(filepath.Join(project, ".hookwright", "pdca.json"),
		[]byte(`{"features":{"parser":{"phase":"Do","updated":"2026-11-25T10:00:00Z","history":[{"phase":"Do","task":"l/1","subject":"write \u001b]0;owned\u0007 tests","at":"2026-11-25T10:00:00Z"}]}}}`), 0o644)
	for _, stdin := range []string{
		`{"session_id":"sl-1","cwd":"` + project + `/src","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push --force origin main"}}`,
		`{"session_id":"sl-1","cwd":"` + project + `/src","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`,
		`{"session_id":"other","cwd":"` + project + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`,
	} {
		runHook(t, hookwright, project, "PreToolUse", stdin)
	}
	start := exec.Command(hwctl, "work", "start", "--dir", project, "wu-test")
	start.Env = hermeticEnv(t)
	if out, err := start.CombinedOutput(); err != nil {
		t.Fatalf("work start: %v\n%s", err, out)
	}
	// hwctl work start opened a manual unit, which covers every session.
	cmd := exec.Command("sh", "-c", `"`+hwctl+`" statusline`)
	cmd.Env = hermeticEnv(t)
	cmd.Dir = filepath.Join(project, "src")
	cmd.Stdin = strings.NewReader(`{"hook_event_name":"Status","session_id":"sl-1","transcript_path":"/nowhere","cwd":"` + project + `/src","model":{"id":"m","display_name":"M"},"workspace":{"current_dir":"` + project + `/src"},"version":"2.1.33"}`)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("statusline: %v\n%s", err, errb.String())
	}
	want := "hookwright · PDCA Do parser: write ?]0;owned? tests · work wu-test · 2 calls, 1 block (last: git-force-push)\n"
	if out.String() != want {
		t.Errorf("statusline printed %q\nwant              %q", out.String(), want)
	}
	if bytes.ContainsAny(out.Bytes(), "\x1b\x07") {
		t.Error("an escape sequence reached the terminal")
	}
}
