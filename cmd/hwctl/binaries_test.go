package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The built binaries, once per test process: the production path the
// binary tests drive (hookwright through sh -c as hooks.json runs it, and
// hwctl as a user or the model runs it).
var (
	binOnce sync.Once
	binDir  string
	binErr  error
)

func builtBinaries(t *testing.T) (hookwright, hwctl string) {
	t.Helper()
	binOnce.Do(func() {
		binDir, binErr = os.MkdirTemp("", "hwctl-bins-")
		if binErr != nil {
			return
		}
		for _, pkg := range []string{"hookwright", "hwctl"} {
			if out, err := exec.Command("go", "build", "-o", filepath.Join(binDir, pkg), "../"+pkg).CombinedOutput(); err != nil {
				binErr = &buildError{pkg, err, out}
				return
			}
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return filepath.Join(binDir, "hookwright"), filepath.Join(binDir, "hwctl")
}

type buildError struct {
	pkg string
	err error
	out []byte
}

func (e *buildError) Error() string {
	return "build " + e.pkg + ": " + e.err.Error() + "\n" + string(e.out)
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
