//go:build unix

package plugin_test

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/hookwright/hookwright/internal/testkit"
)

// gzipped is data gzip-compressed, as release.sh ships a runtime.
func gzipped(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	w, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	w.Write(data)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// releaseVersion is the version of the runtime releaseBin ships.
const releaseVersion = "9.9.9"

// releaseName is the runtime's name in a release's bin/, as the launcher
// unpacks it: <name>-<version>-<os>-<arch>[.exe].
func releaseName() string {
	return strings.Replace(hostBinary(), "hookwright-", "hookwright-"+releaseVersion+"-", 1)
}

// releaseBin is a plugin bin/ as a release ships it: the launcher, this
// platform's runtime as .gz only, under its version, and SHA256SUMS
// pinning the binary and the .gz. It returns the launcher and the
// runtime's bytes.
func releaseBin(t *testing.T) (launcher string, binary []byte) {
	t.Helper()
	launcher = launcherCopy(t)
	dir := filepath.Dir(launcher)
	raw := testkit.Build(t, "github.com/hookwright/hookwright/cmd/hookwright", testkit.Options{})
	binary, err := os.ReadFile(raw)
	if err != nil {
		t.Fatal(err)
	}
	gz := gzipped(t, binary)
	if err := os.WriteFile(filepath.Join(dir, releaseName()+".gz"), gz, 0o644); err != nil {
		t.Fatal(err)
	}
	sum := func(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }
	sums := sum(binary) + "  " + releaseName() + "\n" + sum(gz) + "  " + releaseName() + ".gz\n"
	if err := os.WriteFile(filepath.Join(dir, "SHA256SUMS"), []byte(sums), 0o644); err != nil {
		t.Fatal(err)
	}
	return launcher, binary
}

// runLauncher runs the launcher as Claude Code does (sh -c, the quoted
// path) with a HOME and cache of its own.
func runLauncher(t *testing.T, launcher string, args string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command("sh", "-c", `"`+launcher+`" `+args)
	home := t.TempDir()
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_CACHE_HOME=" + filepath.Join(home, ".cache")}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.Run()
	return out.String(), errb.String(), cmd.ProcessState.ExitCode()
}

// The first call unpacks this platform's runtime from its .gz, checks it
// against SHA256SUMS and runs it; the unpacked binary is the shipped one,
// executable, and no temporary file is left. Calls that race on the first
// use all run it.
func TestLauncherUnpacksTheRuntime(t *testing.T) {
	launcher, binary := releaseBin(t)
	dir := filepath.Dir(launcher)
	var wg sync.WaitGroup
	outs := make([]string, 4)
	for i := range outs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, errs, code := runLauncher(t, launcher, "version")
			if code != 0 {
				t.Errorf("call %d: exit %d, stderr %q", i, code, errs)
			}
			outs[i] = out
		}()
	}
	wg.Wait()
	for i, out := range outs {
		if !strings.HasPrefix(out, "hookwright ") {
			t.Errorf("call %d printed %q, want the runtime's version", i, out)
		}
	}
	got, err := os.ReadFile(filepath.Join(dir, releaseName()))
	if err != nil || !bytes.Equal(got, binary) {
		t.Fatalf("the unpacked runtime is not the shipped binary (%v)", err)
	}
	if fi, _ := os.Stat(filepath.Join(dir, releaseName())); fi.Mode().Perm()&0o111 == 0 {
		t.Errorf("the unpacked runtime is not executable: %v", fi.Mode())
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.Contains(e.Name(), ".unpack.") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

// A .gz that is damaged, or unpacks to other bytes than SHA256SUMS pins,
// runs nothing and leaves nothing: the call says why as a systemMessage
// and on stderr, and exits 0 (a missing binary never blocks work).
func TestLauncherRefusesABadRuntime(t *testing.T) {
	for _, c := range []struct {
		name, want string
		spoil      func(t *testing.T, gzPath string, binary []byte)
	}{
		{"other bytes", "not the file the release shipped", func(t *testing.T, p string, b []byte) {
			other := append(bytes.Clone(b), 0)
			os.WriteFile(p, gzipped(t, other), 0o644)
		}},
		{"damaged", "does not unpack", func(t *testing.T, p string, _ []byte) {
			os.WriteFile(p, []byte("not gzip at all"), 0o644)
		}},
		{"unpinned", "pins no SHA-256", func(t *testing.T, p string, _ []byte) {
			os.WriteFile(filepath.Join(filepath.Dir(p), "SHA256SUMS"), []byte("\n"), 0o644)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			launcher, binary := releaseBin(t)
			dir := filepath.Dir(launcher)
			c.spoil(t, filepath.Join(dir, releaseName()+".gz"), binary)
			out, errs, code := runLauncher(t, launcher, "version")
			if code != 0 {
				t.Errorf("exit %d, want 0", code)
			}
			var msg struct{ SystemMessage string }
			if err := json.Unmarshal([]byte(out), &msg); err != nil || !strings.Contains(msg.SystemMessage, c.want) || !strings.Contains(errs, c.want) {
				t.Errorf("stdout %q, stderr %q; want a systemMessage saying %q", out, errs, c.want)
			}
			ents, _ := os.ReadDir(dir)
			for _, e := range ents {
				if e.Name() == releaseName() || strings.Contains(e.Name(), ".unpack.") {
					t.Errorf("left behind: %s", e.Name())
				}
			}
		})
	}
}

// An update (git pull of a newer release, or a new cache copy made from a
// folder an older release ran in) brings a new .gz but leaves the binary
// the older release unpacked. That binary never runs again: the launcher
// and the hooks' direct form look only for a binary whose .gz is there;
// the first call unpacks the new one and removes the old.
func TestUpdateNeverRunsTheOlderReleasesBinary(t *testing.T) {
	launcher, binary := releaseBin(t)
	dir := filepath.Dir(launcher)
	stale := strings.Replace(releaseName(), releaseVersion, "1.0.0", 1)
	marker := filepath.Join(t.TempDir(), "stale-ran")
	if err := os.WriteFile(filepath.Join(dir, stale), []byte("#!/bin/sh\ntouch "+marker+"\nexit 2\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runLauncher(t, launcher, "version")
	if code != 0 || !strings.HasPrefix(out, "hookwright ") {
		t.Fatalf("exit %d, stdout %q, stderr %q; want the new runtime's version", code, out, errs)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the older release's binary ran")
	}
	if _, err := os.Stat(filepath.Join(dir, stale)); !os.IsNotExist(err) {
		t.Errorf("the older release's binary is still there (%v)", err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, releaseName())); !bytes.Equal(got, binary) {
		t.Error("the new runtime was not unpacked")
	}
}

// The shipped hooks files call the runtime in the direct form. In a
// release layout, the first call finds no unpacked binary and goes
// through the launcher, which unpacks it; later calls run it directly.
// Both block a force push (exit 2), as Claude Code runs the command:
// the placeholder replaced in the text, then sh -c.
func TestDirectFormInAReleaseLayout(t *testing.T) {
	launcher, _ := releaseBin(t)
	dir := filepath.Dir(launcher)
	root := filepath.Dir(dir)
	var m struct {
		Hooks map[string][]struct{ Hooks []struct{ Command string } }
	}
	readJSON(t, filepath.Join("hooks", "hooks.json"), &m)
	pre := m.Hooks["PreToolUse"][0].Hooks[0].Command
	project := t.TempDir()
	in := `{"session_id":"s","transcript_path":"/nonexistent","cwd":"` + project + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push --force origin main"},"tool_use_id":"t1"}`
	for i := 0; i < 2; i++ {
		cmd := exec.Command("sh", "-c", strings.ReplaceAll(pre, "${CLAUDE_PLUGIN_ROOT}", root))
		home := t.TempDir()
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "CLAUDE_PROJECT_DIR=" + project, "CLAUDE_PLUGIN_ROOT=" + root}
		cmd.Stdin = strings.NewReader(in)
		var errb bytes.Buffer
		cmd.Stderr = &errb
		cmd.Run()
		if code := cmd.ProcessState.ExitCode(); code != 2 || !strings.Contains(errb.String(), "hookwright guard:") {
			t.Fatalf("call %d: exit %d, stderr %q; want the guard's block", i, code, errb.String())
		}
		if _, err := os.Stat(filepath.Join(dir, releaseName())); err != nil {
			t.Fatalf("call %d: nothing unpacked: %v", i, err)
		}
	}
}
