package plugin_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
)

// The hookgen and hwctl launchers (bin/hookgen, bin/hwctl) fetch the tool
// from the release's download location, check it against bin/SHA256SUMS
// and run it. These tests run them against a server on 127.0.0.1 with
// stand-in tools, on a PATH without go or node; internal/live
// TestReleaseFetchesTheTools does the same with a release make release
// built.

// LauncherPATH returns a folder holding only the programs the launchers
// use (besides sh), to be the whole PATH: no go, no node.
func launcherPATH(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"sh", "uname", "awk", "sed", "mkdir", "mktemp", "curl", "sha256sum", "chmod", "mv", "rm", "dirname", "cat", "touch"} {
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

// toolFile is the download name of tool for this machine.
func toolFile(tool string) string {
	name := tool + "-" + runtime.GOOS + "-" + runtime.GOARCH
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	return name
}

func hexSum(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

// fetchFixture is a plugin with the launchers and a SHA256SUMS pinning
// stand-in tools, a cache folder, and what the server holds.
type fetchFixture struct {
	plugin, cache, path string
	tools               map[string][]byte // what the release built
	served              map[string][]byte // what the server sends
	hits                atomic.Int32
}

// standIn is a tool that says its name and arguments.
func standIn(tool string) []byte {
	return []byte("#!/bin/sh\necho \"" + tool + " ran: $*\"\n")
}

func newFetchFixture(t *testing.T) *fetchFixture {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("stand-in tools are shell scripts")
	}
	f := &fetchFixture{plugin: filepath.Join(t.TempDir(), "my plugin"), cache: filepath.Join(t.TempDir(), "cache"), path: launcherPATH(t),
		tools: map[string][]byte{}, served: map[string][]byte{}}
	var sums strings.Builder
	for _, tool := range []string{"hookgen", "hwctl"} {
		f.tools[toolFile(tool)] = standIn(tool)
		f.served[toolFile(tool)] = standIn(tool)
		fmt.Fprintf(&sums, "%s  %s\n", hexSum(standIn(tool)), toolFile(tool))
		launcher, err := os.ReadFile(filepath.Join("bin", tool))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(f.plugin, "bin", tool), launcher, 0o755)
	}
	writeFile(t, filepath.Join(f.plugin, "bin", "SHA256SUMS"), []byte(sums.String()), 0o644)
	writeFile(t, filepath.Join(f.plugin, ".claude-plugin", "plugin.json"), []byte("{\n  \"name\": \"hookwright\",\n  \"version\": \"9.8.7\"\n}\n"), 0o644)
	return f
}

func writeFile(t *testing.T, path string, data []byte, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, mode); err != nil {
		t.Fatal(err)
	}
}

// serve starts the download server on 127.0.0.1: /v9.8.7/<file>.
func (f *fetchFixture) serve(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.hits.Add(1)
		data, ok := f.served[strings.TrimPrefix(r.URL.Path, "/v9.8.7/")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write(data)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v9.8.7"
}

// run runs a launcher with only the fixture's PATH, HOME and cache.
func (f *fetchFixture) run(t *testing.T, url, tool string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(filepath.Join(f.plugin, "bin", tool), args...)
	cmd.Env = []string{"PATH=" + f.path, "HOME=" + filepath.Join(f.cache, "home"), "HOOKWRIGHT_CACHE_DIR=" + f.cache, "HOOKWRIGHT_DOWNLOAD_URL=" + url}
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	return o.String(), e.String(), cmd.ProcessState.ExitCode()
}

// cacheFiles lists every file under the cache's version folder.
func (f *fetchFixture) cacheFiles(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(f.cache, "v9.8.7"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func TestToolLaunchersAreOneScript(t *testing.T) {
	a, err := os.ReadFile(filepath.Join("bin", "hookgen"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join("bin", "hwctl"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Error("bin/hookgen and bin/hwctl differ; they are one script under two names (cp bin/hookgen bin/hwctl)")
	}
}

// TestToolLauncherFetchesVerifiesAndRuns: the first run fetches the tool,
// checks it, keeps it (executable, nothing else in the cache) and runs it
// with the arguments; the next run uses the kept copy without the server.
func TestToolLauncherFetchesVerifiesAndRuns(t *testing.T) {
	f := newFetchFixture(t)
	url := f.serve(t)
	for _, tool := range []string{"hookgen", "hwctl"} {
		out, errOut, code := f.run(t, url, tool, "validate", "a b")
		if code != 0 || out != tool+" ran: validate a b\n" {
			t.Fatalf("%s: exit %d, stdout %q, stderr %q", tool, code, out, errOut)
		}
		kept := filepath.Join(f.cache, "v9.8.7", toolFile(tool))
		data, err := os.ReadFile(kept)
		if err != nil || !bytes.Equal(data, f.tools[toolFile(tool)]) {
			t.Errorf("%s: kept %q (%v), want the pinned bytes", tool, data, err)
		}
		if fi, err := os.Stat(kept); err != nil || fi.Mode().Perm() != 0o755 {
			t.Errorf("%s: kept file mode %v (%v), want 0755", tool, fi.Mode(), err)
		}
	}
	if got := f.cacheFiles(t); len(got) != 2 {
		t.Errorf("cache holds %q, want the two tools only", got)
	}
	hits := f.hits.Load()
	out, errOut, code := f.run(t, "http://127.0.0.1:1/none", "hookgen", "--version")
	if code != 0 || out != "hookgen ran: --version\n" || f.hits.Load() != hits {
		t.Errorf("second run: exit %d, stdout %q, stderr %q, %d more fetches; want the kept copy", code, out, errOut, f.hits.Load()-hits)
	}
}

// TestToolLauncherRejectsTamperedDownload: a download whose sum is not the
// pinned one is an error naming both sums; nothing runs and nothing is
// kept.
func TestToolLauncherRejectsTamperedDownload(t *testing.T) {
	f := newFetchFixture(t)
	marker := filepath.Join(t.TempDir(), "ran")
	evil := []byte("#!/bin/sh\ntouch '" + marker + "'\n")
	f.served[toolFile("hookgen")] = evil
	_, errOut, code := f.run(t, f.serve(t), "hookgen", "validate")
	if code != 65 {
		t.Errorf("exit %d, want 65; stderr %q", code, errOut)
	}
	for _, s := range []string{hexSum(evil), hexSum(f.tools[toolFile("hookgen")]), "nothing was run"} {
		if !strings.Contains(errOut, s) {
			t.Errorf("stderr lacks %q: %q", s, errOut)
		}
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the tampered download ran")
	}
	if got := f.cacheFiles(t); len(got) != 0 {
		t.Errorf("cache holds %q after a rejected download, want nothing", got)
	}
}

// TestToolLauncherUnreachable: no server, a 404, or a download cut short
// is an error with exit 69 that names the URL, and leaves nothing.
func TestToolLauncherUnreachable(t *testing.T) {
	f := newFetchFixture(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String() + "/v9.8.7"
	l.Close()
	cut := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "100000")
		w.Write(f.tools[toolFile("hwctl")])
	}))
	defer cut.Close()
	for what, url := range map[string]string{"unreachable": closed, "not found": f.serve(t) + "/missing", "cut short": cut.URL} {
		_, errOut, code := f.run(t, url, "hwctl", "serve")
		if code != 69 || !strings.Contains(errOut, "cannot fetch "+url+"/"+toolFile("hwctl")) {
			t.Errorf("%s: exit %d, stderr %q; want 69 naming the URL", what, code, errOut)
		}
		if got := f.cacheFiles(t); len(got) != 0 {
			t.Errorf("%s: cache holds %q, want nothing", what, got)
		}
	}
}

// TestToolLauncherRefetchesAChangedCopy: a kept copy that no longer
// matches its sum is not run; the launcher says so and fetches it again.
func TestToolLauncherRefetchesAChangedCopy(t *testing.T) {
	f := newFetchFixture(t)
	url := f.serve(t)
	if _, errOut, code := f.run(t, url, "hookgen"); code != 0 {
		t.Fatalf("first run: exit %d: %s", code, errOut)
	}
	marker := filepath.Join(t.TempDir(), "ran")
	kept := filepath.Join(f.cache, "v9.8.7", toolFile("hookgen"))
	writeFile(t, kept, []byte("#!/bin/sh\ntouch '"+marker+"'\n"), 0o755)
	out, errOut, code := f.run(t, url, "hookgen", "x")
	if code != 0 || out != "hookgen ran: x\n" || !strings.Contains(errOut, "fetching it again") {
		t.Errorf("exit %d, stdout %q, stderr %q; want the fetched tool to run after a warning", code, out, errOut)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the changed copy ran")
	}
}

// TestToolLauncherUnpinned: a tool SHA256SUMS does not pin is an error,
// and nothing is fetched.
func TestToolLauncherUnpinned(t *testing.T) {
	f := newFetchFixture(t)
	writeFile(t, filepath.Join(f.plugin, "bin", "SHA256SUMS"), []byte(hexSum(nil)+"  something-else\n"), 0o644)
	_, errOut, code := f.run(t, f.serve(t), "hookgen")
	if code != 78 || !strings.Contains(errOut, "pins no "+toolFile("hookgen")) || f.hits.Load() != 0 {
		t.Errorf("exit %d, stderr %q, %d fetches; want 78 and no fetch", code, errOut, f.hits.Load())
	}
}
