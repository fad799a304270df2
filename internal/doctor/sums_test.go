package doctor

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"github.com/hookwright/hookwright/hooks"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// releaseVersion is the version releaseCopy ships.
const releaseVersion = "0.1.0"

// releaseCopy lays out the plugin as a release ships it: every platform's
// runtime as bin/hookwright-<version>-<os>-<arch>.gz (stand-ins, but this
// machine's, which is built and unpacked beside its .gz as the launcher
// does), the launchers, no plugin_test.go or release.sh, and
// bin/SHA256SUMS over every binary and the manifests, with download files
// the plugin does not hold.
func releaseCopy(t *testing.T) string {
	t.Helper()
	root := pluginCopy(t, true)
	for _, f := range []string{"plugin_test.go", "release.sh", "releases_test.go", "unpack_test.go", "fetch_test.go"} {
		os.Remove(filepath.Join(root, f))
	}
	host := hostRuntime()
	unpacked := filepath.Join(root, "bin", shippedName(host))
	if err := os.Rename(filepath.Join(root, "bin", host), unpacked); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64", "windows-amd64.exe", "windows-arm64.exe"} {
		gz := filepath.Join(root, "bin", shippedName("hookwright-"+p)+".gz")
		if err := os.WriteFile(gz, []byte("gzip of the runtime for "+p), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var sums strings.Builder
	entries, err := os.ReadDir(filepath.Join(root, "bin"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		fmt.Fprintf(&sums, "%s  %s\n", sumOf(t, filepath.Join(root, "bin", e.Name())), e.Name())
	}
	hooks, _ := filepath.Glob(filepath.Join(root, "hooks", "*.json"))
	for _, h := range append(hooks, filepath.Join(root, ".claude-plugin", "plugin.json")) {
		rel, _ := filepath.Rel(filepath.Join(root, "bin"), h)
		fmt.Fprintf(&sums, "%s  %s\n", sumOf(t, h), filepath.ToSlash(rel))
	}
	fmt.Fprintf(&sums, "%s  hookgen-linux-amd64\n", strings.Repeat("ab", 32))
	fmt.Fprintf(&sums, "%s  hookwright-linux-amd64\n", strings.Repeat("cd", 32))
	if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(SumsFile)), []byte(sums.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// shippedName is a runtime's name in a release: hookwright-<version>-<platform>.
func shippedName(plain string) string {
	return strings.Replace(plain, "hookwright-", "hookwright-"+releaseVersion+"-", 1)
}

func hostRuntime() string {
	name := "hookwright-" + runtime.GOOS + "-" + runtime.GOARCH
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	return name
}

func sumOf(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

func runOn(t *testing.T, root string) (Report, string) {
	t.Helper()
	v, _ := hooks.ParseRelease("2.1.33")
	r := Run(Options{Version: v, VersionHow: "test", PluginRoot: root, Project: t.TempDir()})
	return r, report(r)
}

// TestSumsUntouchedRelease: a release install as shipped is OK, and its
// runtime runs.
func TestSumsUntouchedRelease(t *testing.T) {
	r, out := runOn(t, releaseCopy(t))
	if !r.OK() {
		t.Fatalf("problems in an untouched release install:\n%s", out)
	}
	for _, want := range []string{"ok  sums", "15 files of", "match bin/SHA256SUMS", "hookwright 0.1.0"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

// TestSumsChangedByte: one flipped byte of a runtime is a BAD line naming
// the file, both sums and how to reinstall.
func TestSumsChangedByte(t *testing.T) {
	root := releaseCopy(t)
	name := shippedName("hookwright-linux-arm64") + ".gz"
	if hostRuntime() == "hookwright-linux-arm64" {
		name = shippedName("hookwright-linux-amd64") + ".gz"
	}
	path := filepath.Join(root, "bin", name)
	want := sumOf(t, path)
	data, _ := os.ReadFile(path)
	data[len(data)/2] ^= 1
	if err := os.WriteFile(path, data, 0o755); err != nil {
		t.Fatal(err)
	}
	got := sumOf(t, path)
	r, out := runOn(t, root)
	if r.OK() {
		t.Fatalf("a changed byte passed:\n%s", out)
	}
	line := badLine(out, path)
	for _, s := range []string{got, want, "claude plugin install hookwright@hookwright"} {
		if !strings.Contains(line, s) {
			t.Errorf("the BAD line lacks %q:\n%s", s, out)
		}
	}
}

// TestSumsReplacedRuntimeDoesNotRun: doctor runs the platform binary to
// ask its version, but not one that fails its sum.
func TestSumsReplacedRuntimeDoesNotRun(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in is a shell script")
	}
	root := releaseCopy(t)
	marker := filepath.Join(t.TempDir(), "ran")
	path := filepath.Join(root, "bin", shippedName(hostRuntime()))
	if err := os.WriteFile(path, []byte("#!/bin/sh\ntouch '"+marker+"'\necho hookwright 0.1.0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	r, out := runOn(t, root)
	if r.OK() || badLine(out, path) == "" {
		t.Errorf("a replaced runtime passed:\n%s", out)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("doctor ran the replaced runtime:\n%s", out)
	}
}

// TestSumsNotAFile: a shipped binary that is missing, a link (even to the
// right bytes), a folder or a named pipe is BAD, named, with the fix.
func TestSumsNotAFile(t *testing.T) {
	for _, c := range []struct {
		name, want string
		make       func(path string) error
	}{
		{"missing", "missing", os.Remove},
		{"link", "symbolic link", func(path string) error {
			real := filepath.Join(filepath.Dir(filepath.Dir(path)), "real")
			if err := os.Rename(path, real); err != nil {
				return err
			}
			return os.Symlink(real, path)
		}},
		{"folder", "not a regular file", func(path string) error {
			if err := os.Remove(path); err != nil {
				return err
			}
			return os.Mkdir(path, 0o755)
		}},
		{"pipe", "not a regular file", func(path string) error {
			if err := os.Remove(path); err != nil {
				return err
			}
			return syscallMkfifo(path)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := releaseCopy(t)
			path := filepath.Join(root, "bin", shippedName("hookwright-darwin-arm64")+".gz")
			if hostRuntime() == "hookwright-darwin-arm64" {
				path = filepath.Join(root, "bin", shippedName("hookwright-linux-amd64")+".gz")
			}
			if err := c.make(path); err != nil {
				t.Skip(err)
			}
			r, out := runOn(t, root)
			line := badLine(out, path)
			if r.OK() || !strings.Contains(line, c.want) {
				t.Errorf("want a BAD line naming %s as %q:\n%s", path, c.want, out)
			}
		})
	}
}

// TestSumsFileProblems: an install without SHA256SUMS, or with one that
// names a path outside bin/, cannot be checked, and says so.
func TestSumsFileProblems(t *testing.T) {
	root := releaseCopy(t)
	sums := filepath.Join(root, filepath.FromSlash(SumsFile))
	if err := os.WriteFile(sums, []byte(strings.Repeat("0", 64)+"  ../../../etc/passwd\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r, out := runOn(t, root); r.OK() || !strings.Contains(out, "line 1 is not") {
		t.Errorf("a SHA256SUMS naming a path passed:\n%s", out)
	}
	os.Remove(sums)
	if r, out := runOn(t, root); r.OK() || !strings.Contains(out, "BAD sums") {
		t.Errorf("a release install without SHA256SUMS passed:\n%s", out)
	}
	// A development checkout has no sums, and that is fine.
	if r, out := runOn(t, pluginCopy(t, true)); !r.OK() || !strings.Contains(out, "a development checkout") {
		t.Errorf("development checkout:\n%s", out)
	}
}

// badLine returns the BAD line of the report that names path, with its
// fix line, or "".
func badLine(out, path string) string {
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "BAD") && strings.Contains(l, path) {
			if i+1 < len(lines) {
				return l + "\n" + lines[i+1]
			}
			return l
		}
	}
	return ""
}

// TestSumsManifests: a release pins its hooks files and plugin.json too,
// so an edited manifest is a BAD line naming it, with the install check's
// own finding beside it when the edit would make a release refuse it.
func TestSumsManifests(t *testing.T) {
	root := releaseCopy(t)
	path := filepath.Join(root, "hooks", "hooks.json")
	data, _ := os.ReadFile(path)
	edited := strings.Replace(string(data), `"hooks": {`, `"hooks": {
    "TeammateIdle": [{"hooks": [{"type": "command", "command": "true"}]}],`, 1)
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	r, out := runOn(t, root)
	if r.OK() || badLine(out, path) == "" {
		t.Errorf("an edited hooks.json passed the sums:\n%s", out)
	}
	// And the release that would refuse it is named, with the fix.
	v, _ := hooks.ParseRelease("2.1.33")
	old, _ := hooks.ParseRelease("2.0.30")
	r = Run(Options{Version: v, VersionHow: "test", PluginRoot: root, Project: t.TempDir(), Releases: []hooks.Release{old}})
	out = report(r)
	if !strings.Contains(out, "BAD release    Claude Code 2.0.30: no hooks") || !strings.Contains(out, "fix: reinstall") {
		t.Errorf("no release line for 2.0.30, which refuses the edited hooks.json:\n%s", out)
	}
}
