package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/internal/runtime/native"
)

// TestNativeSwitchWritesOnlyInThePlugin runs the SessionStart command of
// the shipped hooks.json as Claude Code does (sh -c, the event on stdin)
// in an install-like copy of the plugin, on 2.1.330: the manifest is
// switched and announced once, the once-per-session marker lands inside
// the plugin (hooks/.native-session), and nothing at all is written under
// HOME (no ~/.cache/hookwright).
func TestNativeSwitchWritesOnlyInThePlugin(t *testing.T) {
	src := filepath.Join("..", "..", "plugin")
	root := filepath.Join(t.TempDir(), "cache", "hookwright", "hookwright", "0.1.0")
	copyFile := func(from, to string, mode fs.FileMode) {
		t.Helper()
		data, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, data, mode); err != nil {
			t.Fatal(err)
		}
	}
	bands, _ := filepath.Glob(filepath.Join(src, "hooks", "bands", "*.json"))
	if len(bands) == 0 {
		t.Fatal("no shipped bands")
	}
	for _, f := range bands {
		copyFile(f, filepath.Join(root, "hooks", "bands", filepath.Base(f)), 0o644)
	}
	copyFile(filepath.Join(src, "hooks", "hooks.json"), filepath.Join(root, "hooks", "hooks.json"), 0o644)
	copyFile(filepath.Join(src, "bin", "hookwright"), filepath.Join(root, "bin", "hookwright"), 0o755)
	copyFile(binPath, filepath.Join(root, "bin", "hookwright-"+native.Platform()), 0o755)

	var m struct {
		Hooks map[string][]struct {
			Hooks []struct {
				Command string `json:"command"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal([]byte(mustReadFile(t, filepath.Join(root, "hooks", "hooks.json"))), &m); err != nil {
		t.Fatal(err)
	}
	start := m.Hooks["SessionStart"]
	if len(start) == 0 || len(start[0].Hooks) == 0 {
		t.Fatal("the shipped hooks.json has no SessionStart command")
	}
	command := start[0].Hooks[0].Command

	home, project := t.TempDir(), t.TempDir()
	run := func(session string) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, "sh", "-c", command)
		cmd.Dir = project
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "CLAUDE_PLUGIN_ROOT=" + root,
			"CLAUDE_PROJECT_DIR=" + project, "AI_AGENT=claude-code_2-1-330_harness"}
		cmd.Stdin = strings.NewReader(`{"session_id":"` + session + `","transcript_path":"` + filepath.Join(project, "none.jsonl") +
			`","cwd":"` + project + `","hook_event_name":"SessionStart","source":"startup"}`)
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		if err := cmd.Run(); err != nil {
			t.Fatalf("SessionStart: %v; stderr %q", err, e.String())
		}
		return o.String() + e.String()
	}

	const announce = "hookwright: for Claude Code 2.1.330"
	if out := run("s1"); !strings.Contains(out, announce) {
		t.Errorf("first SessionStart output %q, want the announcement", out)
	}
	hooksJSON := mustReadFile(t, filepath.Join(root, "hooks", "hooks.json"))
	if !strings.Contains(hooksJSON, "/bin/hookwright-"+native.Platform()+`"`) {
		t.Errorf("hooks.json was not switched to the direct exec form:\n%s", hooksJSON)
	}
	if got := mustReadFile(t, filepath.Join(root, filepath.FromSlash(native.MarkerFile))); got != "s1" {
		t.Errorf("marker %s holds %q, want s1", native.MarkerFile, got)
	}
	if out := run("s1"); strings.Contains(out, announce) {
		t.Errorf("the same session announced again: %q", out)
	}
	filepath.WalkDir(home, func(path string, d fs.DirEntry, err error) error {
		if path != home {
			t.Errorf("written under HOME: %s", path)
		}
		return nil
	})
}

func mustReadFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
