package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestGuardCostIsBounded runs the binary as Claude Code does, with a
// 100k-entry deny list and a command of several MiB that ends in a force
// push, in several shapes that would make a naive guard quadratic. The run
// keeps the runtime's own deadline (5 s): had the guard overrun it, the
// watchdog would fail open (exit 0) and the test would fail. It logs the
// wall and CPU time of each run (about 1 s of CPU on a 2-core machine);
// it asserts no time itself, so a loaded machine cannot make it flaky
// unless the guard really overruns.
func TestGuardCostIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("long input: builds a 100k-entry config and a 4 MiB event")
	}
	for _, filler := range []struct{ name, unit string }{
		{"one long word", "a"},
		{"many short commands", "echo a; "},
		{"many guarded commands", "git status; "},
		{"unparseable", `echo "x; `},
		{"many pipes from downloads", "curl u | "},
		{"fork-bomb look-alikes", "f(){ g; }; "},
		{"inline code calls", "python3 -c 'system(system(' ; "},
	} {
		t.Run(filler.name, func(t *testing.T) {
			project := t.TempDir()
			deny := make([]string, 100000)
			for i := range deny {
				deny[i] = fmt.Sprintf("never-%06d-%x", i, i*7919)
			}
			cfg, _ := json.Marshal(map[string]any{"guard": map[string]any{"enabled": true, "deny": deny}})
			os.MkdirAll(filepath.Join(project, ".hookwright"), 0o755)
			if err := os.WriteFile(filepath.Join(project, ".hookwright", "config.json"), cfg, 0o644); err != nil {
				t.Fatal(err)
			}
			n := (4 << 20) / len(filler.unit)
			command := "echo " + strings.Repeat(filler.unit, n) + " ; git push --force"
			event, _ := json.Marshal(map[string]any{"session_id": "s", "cwd": project, "hook_event_name": "PreToolUse",
				"tool_name": "Bash", "tool_input": map[string]string{"command": command}})
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, "sh", "-c", `"$HOOKWRIGHT_BIN" PreToolUse`)
			cmd.Dir = project
			cmd.Env = append(os.Environ(), "HOOKWRIGHT_BIN="+binPath, "CLAUDE_PROJECT_DIR="+project, "HOOKWRIGHT_DEBUG=")
			cmd.Stdin = bytes.NewReader(event)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			start := time.Now()
			err := cmd.Run()
			var exitErr *exec.ExitError
			if !errors.As(err, &exitErr) || exitErr.ExitCode() != 2 {
				t.Fatalf("%d-byte event: %v, stderr %q; want exit 2 (blocked)", len(event), err, tail(stderr.String()))
			}
			if !strings.Contains(stderr.String(), "git-force-push") {
				t.Fatalf("blocked for another reason: %q", tail(stderr.String()))
			}
			cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			t.Logf("%d-byte event blocked in %v wall, %v CPU", len(event), time.Since(start).Round(time.Millisecond), cpu.Round(time.Millisecond))
		})
	}
}

func tail(s string) string {
	if len(s) > 300 {
		return "…" + s[len(s)-300:]
	}
	return s
}
