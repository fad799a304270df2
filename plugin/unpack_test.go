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

// releaseBin is a plugin bin/ as a release ships it: the launcher, this
// platform's runtime as .gz only, and SHA256SUMS pinning the binary and
// the .gz. It returns the launcher and the runtime's bytes.
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
	if err := os.WriteFile(filepath.Join(dir, hostBinary()+".gz"), gz, 0o644); err != nil {
		t.Fatal(err)
	}
	sum := func(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }
	sums := sum(binary) + "  " + hostBinary() + "\n" + sum(gz) + "  " + hostBinary() + ".gz\n"
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
	got, err := os.ReadFile(filepath.Join(dir, hostBinary()))
	if err != nil || !bytes.Equal(got, binary) {
		t.Fatalf("the unpacked runtime is not the shipped binary (%v)", err)
	}
	if fi, _ := os.Stat(filepath.Join(dir, hostBinary())); fi.Mode().Perm()&0o111 == 0 {
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
			c.spoil(t, filepath.Join(dir, hostBinary()+".gz"), binary)
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
				if e.Name() == hostBinary() || strings.Contains(e.Name(), ".unpack.") {
					t.Errorf("left behind: %s", e.Name())
				}
			}
		})
	}
}
