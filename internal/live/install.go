package live

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"time"

	"github.com/hookwright/hookwright/hooks"
)

// Package is the npm package of the Claude Code CLI.
const Package = "@anthropic-ai/claude-code"

// CacheEnv names the environment variable that overrides the install cache
// folder.
const CacheEnv = "HOOKWRIGHT_CC_CACHE"

// binFile is written into a completed install; it holds the path of the
// claude executable relative to the install folder.
const binFile = ".hookwright-claude"

// stubMax is the size under which bin/claude.exe of a native-binary release
// is still the placeholder that the package's postinstall script replaces.
const stubMax = 1 << 20

// validVersion matches the version specs Install accepts as folder names.
var validVersion = regexp.MustCompile(`^[0-9A-Za-z][0-9A-Za-z.+-]*$`)

// exactVersion matches an exact release (x.y.z), whose --version output
// checkVersion can compare.
var exactVersion = regexp.MustCompile(`^\d+\.\d+\.\d+$`)

// ErrBadVersion is returned for a version that cannot name a cache folder.
var ErrBadVersion = errors.New("live: invalid version")

// Install makes Claude Code version available and returns the path of its
// claude executable. Installs are cached in CacheDir()/<version>, under the
// release's one spelling ([Canonical]: v2.1.33 and 2.1.33 are one entry);
// a cache hit costs a stat. Concurrent calls, in one process or many, are safe: a lock
// file per version serialises installers, and a completed install appears by
// an atomic rename, so a reader never sees a half-written folder.
func Install(ctx context.Context, version string) (string, error) {
	version = Canonical(version)
	if !validVersion.MatchString(version) {
		return "", fmt.Errorf("%w: %q", ErrBadVersion, version)
	}
	cache, err := CacheDir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(cache, version)
	if bin, err := cached(dir); err == nil {
		return bin, nil
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return "", fmt.Errorf("live: create cache: %w", err)
	}
	unlock, err := lock(ctx, filepath.Join(cache, "."+version+".lock"))
	if err != nil {
		return "", err
	}
	defer unlock()
	if bin, err := cached(dir); err == nil {
		return bin, nil // another installer finished while we waited
	}
	return install(ctx, cache, version)
}

// Canonical is the one spelling of a release: "2.1.33" for "v2.1.33",
// " 2.1.33 " and "2.1.33 (Claude Code)" (hooks.ParseRelease); any other
// spec (a dist-tag such as "latest") as it is.
func Canonical(version string) string {
	if v, err := hooks.ParseRelease(version); err == nil {
		return v.String()
	}
	return version
}

// CacheDir returns the install cache folder: $HOOKWRIGHT_CC_CACHE, else
// <repo>/.cache/claude-code for the module containing the working directory,
// else the user cache folder.
func CacheDir() (string, error) {
	if d := os.Getenv(CacheEnv); d != "" {
		return filepath.Abs(d)
	}
	if root, ok := repoRoot(); ok {
		return filepath.Join(root, ".cache", "claude-code"), nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("live: no cache folder: %w", err)
	}
	return filepath.Join(d, "hookwright", "claude-code"), nil
}

// repoRoot finds the folder holding go.mod above the working directory.
func repoRoot() (string, bool) {
	dir, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// cached returns the claude path of a completed install in dir.
func cached(dir string) (string, error) {
	rel, err := os.ReadFile(filepath.Join(dir, binFile))
	if err != nil {
		return "", fmt.Errorf("live: not installed: %w", err)
	}
	bin := filepath.Join(dir, strings.TrimSpace(string(rel)))
	if _, err := os.Stat(bin); err != nil {
		return "", fmt.Errorf("live: broken install: %w", err)
	}
	return bin, nil
}

// install runs npm into a temporary folder of cache, checks the result and
// renames it to cache/version. The caller holds the version lock.
func install(ctx context.Context, cache, version string) (string, error) {
	removeStale(cache, version)
	tmp, err := os.MkdirTemp(cache, ".tmp-"+version+"-")
	if err != nil {
		return "", fmt.Errorf("live: install %s: %w", version, err)
	}
	defer os.RemoveAll(tmp) // a no-op after the rename
	cmd := exec.CommandContext(ctx, "npm", "install", "--no-audit", "--no-fund", "--no-save",
		"--prefix", tmp, Package+"@"+version)
	cmd.Env = npmEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("live: npm install %s: %w\n%s", version, err, out)
	}
	rel, err := findClaude(ctx, tmp, version)
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(tmp, binFile), []byte(rel+"\n"), 0o644); err != nil {
		return "", fmt.Errorf("live: install %s: %w", version, err)
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return "", fmt.Errorf("live: install %s: %w", version, err)
	}
	dir := filepath.Join(cache, version)
	_ = os.RemoveAll(dir) // a broken earlier install; the lock keeps installers out
	if err := os.Rename(tmp, dir); err != nil {
		return "", fmt.Errorf("live: install %s: %w", version, err)
	}
	return filepath.Join(dir, rel), nil
}

// removeStale deletes temporary folders left by killed installers of
// version. The caller holds the version lock, so none is in use.
func removeStale(cache, version string) {
	old, _ := filepath.Glob(filepath.Join(cache, ".tmp-"+version+"-*"))
	for _, d := range old {
		_ = os.RemoveAll(d) // best effort; a leftover only costs disk
	}
}

// npmEnv is the caller's environment without variables that would change
// what Claude Code's own install script does.
func npmEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !leaks(kv) {
			env = append(env, kv)
		}
	}
	return env
}

// findClaude returns the claude executable of the install in dir, relative to
// dir, and checks that it reports version. Releases with a native binary
// replace the bin/claude.exe placeholder in a postinstall script; when npm
// did not run it, the platform package's binary is used directly.
func findClaude(ctx context.Context, dir, version string) (string, error) {
	candidates := []string{filepath.Join("node_modules", ".bin", "claude")}
	if native, ok := platformBinary(dir); ok {
		candidates = append(candidates, native)
	}
	var errs []error
	for _, rel := range candidates {
		err := checkVersion(ctx, filepath.Join(dir, rel), version)
		if err == nil {
			return rel, nil
		}
		errs = append(errs, err)
	}
	return "", fmt.Errorf("live: no working claude in %s install: %w", version, errors.Join(errs...))
}

// platformBinary returns the relative path of the native binary shipped in
// the platform package (e.g. @anthropic-ai/claude-code-linux-x64/claude), when
// the installed bin/claude.exe is still a placeholder.
func platformBinary(dir string) (string, bool) {
	exe := filepath.Join(dir, "node_modules", Package, "bin", "claude.exe")
	if fi, err := os.Stat(exe); err != nil || fi.Size() > stubMax {
		return "", false
	}
	rel := filepath.Join("node_modules", Package+"-"+runtime.GOOS+"-"+npmArch(), "claude")
	if _, err := os.Stat(filepath.Join(dir, rel)); err != nil {
		return "", false
	}
	return rel, true
}

// npmArch maps GOARCH to Node's process.arch.
func npmArch() string {
	switch runtime.GOARCH {
	case "amd64":
		return "x64"
	default:
		return runtime.GOARCH
	}
}

// checkVersion runs `claude --version` with a scratch HOME and requires the
// output to start with version when version is exact (x.y.z).
func checkVersion(ctx context.Context, bin, version string) error {
	home, err := os.MkdirTemp("", "hookwright-cc-version-")
	if err != nil {
		return fmt.Errorf("live: check %s: %w", bin, err)
	}
	defer os.RemoveAll(home)
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--version")
	cmd.Env = baseEnv(home)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("live: %s --version: %w\n%s", bin, err, out)
	}
	if exactVersion.MatchString(version) && !bytes.HasPrefix(bytes.TrimSpace(out), []byte(version+" ")) {
		return fmt.Errorf("live: %s --version printed %q, want %s", bin, out, version)
	}
	return nil
}
