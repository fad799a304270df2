package live

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/internal/buildinfo"
)

// maxPluginBytes is the most an installed plugin folder may hold (make
// release fails above it too).
const maxPluginBytes = 25_000_000

// requireLight checks the installed plugin folder root holds at most
// maxPluginBytes, counted as the files' sizes and as the disk blocks du
// reports, and carries no hookgen or hwctl binary.
func requireLight(t *testing.T, root string) {
	t.Helper()
	var size int64
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if n := d.Name(); strings.HasPrefix(n, "hookgen-") || strings.HasPrefix(n, "hwctl-") {
			t.Errorf("the installed plugin carries %s; hookgen and hwctl are download files", path)
		}
		fi, err := d.Info()
		if err == nil {
			size += fi.Size()
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("du", "-sk", root).Output()
	if err != nil {
		t.Fatalf("du -sk %s: %v", root, err)
	}
	kib, _ := strconv.ParseInt(strings.Fields(string(out))[0], 10, 64)
	t.Logf("installed plugin %s: %d bytes in files, %d KiB on disk", root, size, kib)
	if size > maxPluginBytes || kib*1024 > maxPluginBytes {
		t.Errorf("installed plugin %s is %d bytes (%d KiB on disk), over %d", root, size, kib, maxPluginBytes)
	}
}

// flipByte changes one byte in the middle of the file at path.
func flipByte(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0x40
	if err := os.WriteFile(path, data, 0o755); err != nil {
		t.Fatal(err)
	}
}

// noGoNoNode returns a PATH holding only the programs a plugin user is
// assumed to have (a shell, coreutils, curl): no go, no node.
func noGoNoNode(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"sh", "uname", "awk", "sed", "mkdir", "mktemp", "curl", "sha256sum", "chmod", "mv", "rm", "dirname", "cat", "git"} {
		p, err := exec.LookPath(name)
		if err != nil {
			t.Skipf("no %s: %v", name, err)
		}
		if err := os.Symlink(p, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func sha256File(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// TestReleaseFetchesTheTools runs the hookgen and hwctl launchers of a
// release that make release built, as a plugin user with neither Go nor
// Node: they fetch the tool from the release's download files served on
// 127.0.0.1, check it against the plugin's SHA256SUMS, and run it (hookgen
// validate, hwctl serve). A tampered download, and an unreachable server,
// are errors with their exit code, and leave nothing behind.
func TestReleaseFetchesTheTools(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a release (make release's script)")
	}
	rel, dist := buildRelease(t), releaseDist(t)
	requireLight(t, filepath.Join(rel, "plugin"))
	sums := readFileT(t, filepath.Join(rel, "plugin", "bin", "SHA256SUMS"))
	if dsums := readFileT(t, filepath.Join(dist, "SHA256SUMS")); dsums != sums {
		t.Errorf("the plugin's SHA256SUMS and the download files' differ:\n%s\n%s", sums, dsums)
	}
	if sboms, _ := filepath.Glob(filepath.Join(dist, "*.cdx.json")); len(sboms) < 8 {
		t.Errorf("download files hold the SBOMs %q, want one per binary", sboms)
	}
	path := noGoNoNode(t)
	run := func(url, tool string, args ...string) (*exec.Cmd, string) {
		home := t.TempDir()
		cmd := exec.Command(filepath.Join(rel, "plugin", "bin", tool), args...)
		cmd.Dir = home
		cmd.Env = []string{"PATH=" + path, "HOME=" + home, "HOOKWRIGHT_DOWNLOAD_URL=" + url}
		return cmd, filepath.Join(home, ".cache", "hookwright")
	}
	url := serveDownloads(t, dist)

	t.Run("hookgen validate", func(t *testing.T) {
		cmd, cache := run(url, "hookgen", "validate", "--cc-version", "2.1.33", filepath.Join(rel, "plugin", "hooks", "hooks.json"))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("hookgen validate: %v\n%s", err, out)
		}
		kept, _ := filepath.Glob(filepath.Join(cache, "v*", "hookgen-"+platform()))
		if len(kept) != 1 {
			t.Fatalf("kept %q, want the fetched hookgen", kept)
		}
		sum := sha256File(t, kept[0])
		if !strings.Contains(sums, sum+"  hookgen-"+platform()+"\n") || sum != sha256File(t, filepath.Join(dist, "hookgen-"+platform())) {
			t.Errorf("the hookgen that ran has SHA-256 %s, not the one SHA256SUMS pins:\n%s", sum, sums)
		}
	})

	t.Run("hwctl serve", func(t *testing.T) {
		cmd, _ := run(url, "hwctl", "serve", "--addr", "127.0.0.1:0")
		// A project whose hooks have run: hwctl serves no folder without a journal.
		if err := os.MkdirAll(filepath.Join(cmd.Dir, ".hookwright", "journal"), 0o755); err != nil {
			t.Fatal(err)
		}
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() { cmd.Process.Kill(); cmd.Wait() }()
		lines := make(chan string, 1)
		go func() {
			s := bufio.NewScanner(stdout)
			for s.Scan() {
				if strings.Contains(s.Text(), "http://127.0.0.1:") {
					lines <- s.Text()
					return
				}
			}
			close(lines)
		}()
		var line string
		select {
		case line = <-lines:
		case <-time.After(2 * time.Minute):
			t.Fatal("hwctl serve printed no URL")
		}
		u := line[strings.Index(line, "http://"):]
		u = strings.Fields(u)[0]
		resp, err := http.Get(u)
		if err != nil {
			t.Fatalf("GET %s: %v", u, err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("GET %s: %s", u, resp.Status)
		}
	})

	t.Run("tampered", func(t *testing.T) {
		bad := t.TempDir()
		name := "hookgen-" + platform()
		if out, err := exec.Command("cp", filepath.Join(dist, name), filepath.Join(bad, name)).CombinedOutput(); err != nil {
			t.Fatalf("cp: %v\n%s", err, out)
		}
		want := sha256File(t, filepath.Join(bad, name))
		flipByte(t, filepath.Join(bad, name))
		got := sha256File(t, filepath.Join(bad, name))
		cmd, cache := run(serveDownloads(t, bad), "hookgen", "--version")
		out, _ := cmd.CombinedOutput()
		if code := cmd.ProcessState.ExitCode(); code != 65 || !strings.Contains(string(out), got) || !strings.Contains(string(out), want) {
			t.Errorf("exit %d, want 65 and both sums (%s, %s):\n%s", code, got, want, out)
		}
		if strings.Contains(string(out), "hookgen version") {
			t.Errorf("the tampered hookgen ran:\n%s", out)
		}
		requireEmpty(t, cache)
	})

	// The launchers' advice before a release is published: make release,
	// then the download files from a file:// URL.
	t.Run("file URL", func(t *testing.T) {
		cmd, _ := run("file://"+dist, "hookgen", "--version")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "hookgen version ") {
			t.Errorf("hookgen from file://%s: %v\n%s", dist, err, out)
		}
	})

	t.Run("unpublished", func(t *testing.T) {
		if buildinfo.Published {
			t.Skip("a release is published")
		}
		cmd, cache := run("", "hwctl", "--version")
		out, _ := cmd.CombinedOutput()
		if code := cmd.ProcessState.ExitCode(); code != 69 || !strings.Contains(string(out), buildinfo.Unpublished) {
			t.Errorf("exit %d, want 69 and %q:\n%s", code, buildinfo.Unpublished, out)
		}
		requireEmpty(t, cache)
	})

	t.Run("unreachable", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		closed := "http://" + l.Addr().String()
		l.Close()
		cmd, cache := run(closed, "hwctl", "--help")
		out, _ := cmd.CombinedOutput()
		if code := cmd.ProcessState.ExitCode(); code != 69 || !strings.Contains(string(out), "cannot fetch "+closed) {
			t.Errorf("exit %d, want 69 naming %s:\n%s", code, closed, out)
		}
		requireEmpty(t, cache)
	})
}

// requireEmpty checks no file is under dir: no half-written binary.
func requireEmpty(t *testing.T, dir string) {
	t.Helper()
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			t.Errorf("%s was left behind", path)
		}
		return nil
	})
}

// TestReleaseRefusesAHeavyPlugin runs make release's script with a limit
// below the plugin's size: it prints the sizes, fails naming the limit,
// and commits nothing.
func TestReleaseRefusesAHeavyPlugin(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a release (make release's script)")
	}
	buildRelease(t) // the clone it was built in is ours to reuse
	src := filepath.Join(scratchRoot, "src")
	cmd := exec.Command("sh", "-c", "./plugin/release.sh")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "RELEASE_TAG=0", "RELEASE_BRANCH=too-heavy", "RELEASE_MAX_BYTES=10000000",
		"TOOLS_PLATFORMS="+runtime.GOOS+"/"+runtime.GOARCH, "RELEASE_DIST="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "over the limit of 10000000") {
		t.Errorf("release.sh with a 10 MB limit: %v, want a failure naming the limit:\n%s", err, out)
	}
	for _, want := range []string{"release: hookwright-" + platform() + " ", "release: plugin folder "} {
		if !strings.Contains(string(out), want) {
			t.Errorf("release.sh did not print %q:\n%s", want, out)
		}
	}
	if exec.Command("git", "-C", src, "rev-parse", "-q", "--verify", "refs/heads/too-heavy").Run() == nil {
		t.Error("release.sh over the limit still made the branch")
	}
}
