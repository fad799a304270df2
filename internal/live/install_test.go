package live

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// fakeNpm puts an npm on PATH that logs each call to calls and installs a
// claude that prints "<version> (Claude Code)".
func fakeNpm(t *testing.T) (calls string) {
	t.Helper()
	bin := t.TempDir()
	calls = filepath.Join(t.TempDir(), "calls")
	script := `#!/bin/sh
echo "$@" >> "` + calls + `"
for a; do prefix_next=$prev; prev=$a; [ "$prefix_next" = --prefix ] && prefix=$a; spec=$a; done
version=${spec##*@}
mkdir -p "$prefix/node_modules/.bin"
printf '#!/bin/sh\necho "%s (Claude Code)"\n' "$version" > "$prefix/node_modules/.bin/claude"
chmod +x "$prefix/node_modules/.bin/claude"
`
	writeFile(t, filepath.Join(bin, "npm"), script)
	if err := os.Chmod(filepath.Join(bin, "npm"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv(CacheEnv, t.TempDir())
	return calls
}

func TestInstallConcurrentCallsInstallOnce(t *testing.T) {
	calls := fakeNpm(t)
	var wg sync.WaitGroup
	paths := make([]string, 8)
	errs := make([]error, 8)
	for i := range paths {
		wg.Go(func() { paths[i], errs[i] = Install(context.Background(), "9.9.9") })
	}
	wg.Wait()
	for i := range paths {
		if errs[i] != nil || paths[i] != paths[0] {
			t.Fatalf("Install #%d = %q, %v; want %q", i, paths[i], errs[i], paths[0])
		}
	}
	data, err := os.ReadFile(calls)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "\n"); n != 1 {
		t.Errorf("npm ran %d times, want once:\n%s", n, data)
	}
	cache, _ := CacheDir()
	if !strings.HasPrefix(paths[0], filepath.Join(cache, "9.9.9")+string(filepath.Separator)) {
		t.Errorf("claude at %s, want inside %s", paths[0], filepath.Join(cache, "9.9.9"))
	}
	if left, _ := filepath.Glob(filepath.Join(cache, ".tmp-*")); len(left) != 0 {
		t.Errorf("temporary folders left behind: %v", left)
	}
}

func TestInstallRejectsBadVersion(t *testing.T) {
	fakeNpm(t)
	if _, err := Install(context.Background(), "../x"); !errors.Is(err, ErrBadVersion) {
		t.Errorf("Install(../x) error = %v, want ErrBadVersion", err)
	}
}

func TestInstallNeedsAWorkingClaudeOfThatVersion(t *testing.T) {
	dir := t.TempDir()
	claude := filepath.Join(dir, "node_modules", ".bin", "claude")
	writeFile(t, claude, "#!/bin/sh\necho '0.0.1 (Claude Code)'\n")
	if err := os.Chmod(claude, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := findClaude(context.Background(), dir, "1.2.3"); err == nil {
		t.Errorf("findClaude accepted a claude reporting 0.0.1 for 1.2.3")
	}
	if rel, err := findClaude(context.Background(), dir, "0.0.1"); err != nil || filepath.Join(dir, rel) != claude {
		t.Errorf("findClaude = %q, %v; want %s", rel, err, claude)
	}
	if _, err := cached(dir); err == nil {
		t.Errorf("a folder without the completed-install record counts as cached")
	}
}

// TestInstallOneEntryPerRelease: the spellings of one release share one
// cache entry; the second spelling installs nothing.
func TestInstallOneEntryPerRelease(t *testing.T) {
	calls := fakeNpm(t)
	first, err := Install(context.Background(), "9.9.8")
	if err != nil {
		t.Fatal(err)
	}
	for _, spelling := range []string{"v9.9.8", "9.9.8 (Claude Code)"} {
		p, err := Install(context.Background(), spelling)
		if err != nil || p != first {
			t.Errorf("Install(%q) = %q, %v; want the cached %q", spelling, p, err, first)
		}
	}
	data, _ := os.ReadFile(calls)
	if n := strings.Count(string(data), "\n"); n != 1 {
		t.Errorf("npm ran %d times for one release, want once:\n%s", n, data)
	}
	cache, _ := CacheDir()
	if entries, _ := os.ReadDir(cache); len(entries) != 2 { // 9.9.8 and its lock
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("cache holds %v, want the one entry 9.9.8", names)
	}
}
