package main

import (
	"bytes"
	"github.com/hookwright/hookwright/internal/testkit"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestMain(m *testing.M) { os.Exit(testkit.Main(m)) }

// builtBinaries are hookwright and hwctl built once per test process: the
// production path the binary tests drive (hookwright through sh -c as
// hooks.json runs it, and hwctl as a user or the model runs it).
func builtBinaries(t *testing.T) (hookwright, hwctl string) {
	t.Helper()
	return testkit.Build(t, "../hookwright", testkit.Options{}), buildHwctl(t)
}

// hermeticEnv is the environment a binary test runs in: PATH, a temporary
// HOME and XDG_CONFIG_HOME, and extra.
func hermeticEnv(t *testing.T, extra ...string) []string {
	home := t.TempDir()
	return append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config")}, extra...)
}

// runHook runs `"<hookwright>" <event>` through sh -c, with
// CLAUDE_PROJECT_DIR at project and stdin, as hooks.json has Claude Code
// run it; it returns stdout, stderr and the exit code.
func runHook(t *testing.T, hookwright, project, event, stdin string) (string, string, int) {
	t.Helper()
	return runHookEnv(t, hookwright, project, event, stdin)
}

// runHookEnv is runHook with extra KEY=value pairs in the environment.
func runHookEnv(t *testing.T, hookwright, project, event, stdin string, extra ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command("sh", "-c", `"`+hookwright+`" `+event)
	cmd.Env = hermeticEnv(t, append([]string{"CLAUDE_PROJECT_DIR=" + project}, extra...)...)
	cmd.Dir = project
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s: %v", event, err)
	}
	return out.String(), errb.String(), code
}
