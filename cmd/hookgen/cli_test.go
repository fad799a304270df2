//go:build unix

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	hwcli "github.com/hookwright/hookwright/internal/cli"
	"github.com/hookwright/hookwright/internal/testkit"
)

func TestMain(m *testing.M) { os.Exit(testkit.Main(m)) }

// TestInterruptStopsCompat builds hookgen, runs `hookgen compat` on a
// plugin whose hook sleeps for a minute, presses Ctrl-C (SIGINT) once the
// hook runs, and checks that hookgen exits 130 at once and that no hook
// process is left.
func TestInterruptStopsCompat(t *testing.T) {
	tmp := t.TempDir()
	bin := testkit.Build(t, ".", testkit.Options{Name: "hookgen"})
	plugin := filepath.Join(tmp, "plugin")
	if err := os.CopyFS(plugin, os.DirFS("../../compat/testdata/broken/teammateidle-2.0.30")); err != nil {
		t.Fatal(err)
	}
	pids := filepath.Join(tmp, "pids")
	hook := "#!/bin/sh\necho $$ >> '" + pids + "'\nexec sleep 60\n"
	if err := os.WriteFile(filepath.Join(plugin, "scripts/hook.sh"), []byte(hook), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "compat", plugin, "--cc-version", "2.0.30")
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = new(bytes.Buffer), &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	deadline := time.Now().Add(60 * time.Second)
	for {
		if b, _ := os.ReadFile(pids); len(b) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the hook never ran")
		}
		time.Sleep(20 * time.Millisecond)
	}
	start := time.Now()
	cmd.Process.Signal(os.Interrupt)
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Fatalf("after Ctrl-C: %v (want exit 130); stderr: %s", err, stderr.String())
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("hookgen took %s to stop", took)
	}
	b, _ := os.ReadFile(pids)
	for _, f := range strings.Fields(string(b)) {
		pid, _ := strconv.Atoi(f)
		for i := 0; alive(pid) && i < 100; i++ {
			time.Sleep(20 * time.Millisecond)
		}
		if alive(pid) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("hook process %d survived Ctrl-C", pid)
		}
	}
}

// alive reports whether pid runs (a zombie does not).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	i := bytes.LastIndexByte(stat, ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z'
}

// TestVersionAndExitCodesHelp checks the plumbing hookgen shares with
// hwctl: --version, and the one exit-code text in --help.
func TestVersionAndExitCodesHelp(t *testing.T) {
	e, out, _ := fakeEnv(t)
	if code := hookgen(t, e, "--version"); code != exitOK || !strings.HasPrefix(out.String(), "hookgen version ") {
		t.Fatalf("--version: exit %d %q", code, out.String())
	}
	e, out, _ = fakeEnv(t)
	words := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	if code := hookgen(t, e, "--help"); code != exitOK || !strings.Contains(words(out.String()), words(hwcli.ExitCodesHelp)) {
		t.Fatalf("--help: exit %d\n%s", code, out.String())
	}
}

// TestCompletion: hookgen completion prints a script for each shell
// (internal/cli; cmd/hwctl's TestCompletionInRealShells drives the same
// scripts in bash, zsh and fish: urfave/cli reads the words from os.Args,
// so only a real process can be asked).
func TestCompletion(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish"} {
		e, out, _ := fakeEnv(t)
		if code := hookgen(t, e, "completion", shell); code != exitOK || !strings.Contains(out.String(), "hookgen") {
			t.Errorf("completion %s: exit %d\n%s", shell, code, out)
		}
	}
	e, _, errb := fakeEnv(t)
	if code := hookgen(t, e, "completion", "tcsh"); code != exitUsage || !strings.Contains(errb.String(), "bash, zsh or fish") {
		t.Errorf("completion tcsh: exit %d %q", code, errb)
	}
}
