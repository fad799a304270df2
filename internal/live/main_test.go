package live

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/hookwright/hookwright/internal/testkit"
)

// scratchRoot holds what the tests build once per process; TestMain
// removes it.
var scratchRoot string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "hookwright-live-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	scratchRoot = dir
	guard := NewHomeGuard()
	code := testkit.Main(m)
	os.RemoveAll(dir)
	if leaked := guard.Leaked(); len(leaked) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: a test started Claude Code with the user's HOME: %v appeared (give every claude a scratch HOME)\n", leaked)
		code = 1
	}
	os.Exit(code)
}

// runtimeBinary is the hookwright runtime built for this machine, once per
// test process; writePlugin links it into every plugin it writes.
var runtimeBinary = sync.OnceValues(func() (string, error) {
	bin := filepath.Join(scratchRoot, "hookwright")
	if err := testkit.BuildFile("github.com/hookwright/hookwright/cmd/hookwright", bin, testkit.Options{}); err != nil {
		return "", err
	}
	return bin, nil
})

// release is what a user gets from git, built once per test process: the
// repository's committed HEAD is cloned, make release's script builds the
// release branch there (and its download files, see [releaseDist]), and
// that branch is cloned again. It is the last
// clone. Tests only read it: they copy it (cloneRelease) before installing
// from it, since releases that run a folder marketplace in place switch its
// manifest there.
var release = sync.OnceValues(func() (string, error) {
	root, ok := repoRoot()
	if !ok {
		return "", fmt.Errorf("no repository root above the working directory")
	}
	src, rel := filepath.Join(scratchRoot, "src"), filepath.Join(scratchRoot, "release")
	for _, s := range [][]string{
		{"git", "clone", "-q", root, src},
		{"sh", "-c", "cd \"$0\" && RELEASE_TAG=0 RELEASE_DIST=\"$2\" TOOLS_PLATFORMS=\"$1\" ./plugin/release.sh", src, runtime.GOOS + "/" + runtime.GOARCH, filepath.Join(scratchRoot, "dist")},
		{"git", "clone", "-q", "-b", "release", src, rel},
	} {
		if out, err := exec.Command(s[0], s[1:]...).CombinedOutput(); err != nil {
			return "", fmt.Errorf("%s: %v\n%s", strings.Join(s, " "), err, out)
		}
	}
	return rel, nil
})

// buildRelease returns the release clone or fails t.
func buildRelease(t *testing.T) string {
	t.Helper()
	rel, err := release()
	if err != nil {
		t.Fatal(err)
	}
	return rel
}

// releaseDist returns the folder of the release's download files (hookgen
// and hwctl for this machine, the runtimes, SHA256SUMS, the SBOMs), which
// the release's launchers fetch from, or fails t.
func releaseDist(t *testing.T) string {
	t.Helper()
	buildRelease(t)
	dirs, _ := filepath.Glob(filepath.Join(scratchRoot, "dist", "v*"))
	if len(dirs) != 1 {
		t.Fatalf("release download folders %q, want one", dirs)
	}
	return dirs[0]
}

// serveDownloads serves dir on 127.0.0.1 for the test and returns the
// URL for HOOKWRIGHT_DOWNLOAD_URL.
func serveDownloads(t *testing.T, dir string) string {
	t.Helper()
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	t.Cleanup(srv.Close)
	return srv.URL
}
