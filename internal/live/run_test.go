package live

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// fakeClaude writes a stand-in for the claude executable: it records its
// arguments and environment, reads stdin to EOF, writes a debug log and
// exits with code 3.
func fakeClaude(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "claude")
	writeFile(t, path, "#!/bin/sh\n"+body)
	if err := os.Chmod(path, 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestRunIsolatesTheSession(t *testing.T) {
	t.Setenv("ANTHROPIC_MODEL", "leaked")
	t.Setenv("CLAUDE_CODE_USE_BEDROCK", "1")
	t.Setenv("HTTPS_PROXY", "http://proxy.invalid")
	claude := fakeClaude(t, `printf '%s\n' "$@" > args.txt
env > env.txt
cat > stdin.txt
mkdir -p "$HOME/.claude/debug"
echo "[DEBUG] Registered 2 hooks from 1 plugins" > "$HOME/.claude/debug/s.txt"
echo out; echo err >&2
exit 3
`)
	res, err := Run(context.Background(), Options{
		Claude: claude, Prompt: "do it", BaseURL: "http://127.0.0.1:9",
		PluginDirs: []string{"/p1", "/p2"}, AllowedTools: []string{"Bash", "Write"}, Debug: true,
		Env: []string{"CLAUDE_CODE_ENABLE_TASKS=1"},
	})
	t.Cleanup(func() { os.RemoveAll(res.Home); os.RemoveAll(res.Dir) })
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if res.ExitCode != 3 || res.Stdout != "out\n" || res.Stderr != "err\n" {
		t.Errorf("result = exit %d, stdout %q, stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	if n, ok := RegisteredHooks(res.DebugLog); !ok || n != 2 {
		t.Errorf("debug log %q not read from the scratch HOME", res.DebugLog)
	}
	wantArgs := []string{"-p", "do it", "--plugin-dir", "/p1", "--plugin-dir", "/p2", "--allowedTools", "Bash,Write", "--debug"}
	if got := lines(t, filepath.Join(res.Dir, "args.txt")); !slices.Equal(got, wantArgs) {
		t.Errorf("args = %q, want %q", got, wantArgs)
	}
	env := lines(t, filepath.Join(res.Dir, "env.txt"))
	for _, want := range []string{"HOME=" + res.Home, "ANTHROPIC_BASE_URL=http://127.0.0.1:9", "ANTHROPIC_API_KEY=test",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "CLAUDE_CODE_ENABLE_TASKS=1"} {
		if !slices.Contains(env, want) {
			t.Errorf("env lacks %s", want)
		}
	}
	for _, kv := range env {
		if strings.Contains(kv, "leaked") || strings.HasPrefix(kv, "CLAUDE_CODE_USE_BEDROCK=") || strings.HasPrefix(kv, "HTTPS_PROXY=") {
			t.Errorf("env leaked from the caller: %s", kv)
		}
	}
}

func TestRunTimeoutKillsTheSession(t *testing.T) {
	claude := fakeClaude(t, "sleep 600 & sleep 600\n")
	res, err := Run(context.Background(), Options{
		Claude: claude, Home: t.TempDir(), Dir: t.TempDir(), Timeout: 200 * time.Millisecond,
	})
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("Run error = %v, want ErrTimeout", err)
	}
	if res.ExitCode != -1 {
		t.Errorf("exit code = %d, want -1 for a killed run", res.ExitCode)
	}
}

// lines reads path as lines.
func lines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}
