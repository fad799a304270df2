package plugin_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/internal/buildinfo"
)

// TestInstallPathsSayUnpublished: until a release is published
// (buildinfo.Published), the README, the hookgen and hwctl launchers and
// every /hookwright:* command say so in the one line buildinfo.Unpublished
// starts, and none advises an @latest that does not resolve; once it is,
// none says so.
func TestInstallPathsSayUnpublished(t *testing.T) {
	files := []string{filepath.Join("..", "README.md"), "README.md", filepath.Join("bin", "hookgen"), filepath.Join("bin", "hwctl")}
	commands, _ := filepath.Glob(filepath.Join("commands", "*.md"))
	if len(commands) == 0 {
		t.Fatal("no plugin commands")
	}
	files = append(files, commands...)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		says := strings.Contains(string(b), buildinfo.Unpublished)
		if says == buildinfo.Published {
			t.Errorf("%s: says %q: %v; published: %v", f, buildinfo.Unpublished, says, buildinfo.Published)
		}
		if !buildinfo.Published && strings.Contains(string(b), "@latest") {
			t.Errorf("%s advises an @latest, which does not resolve before a release", f)
		}
	}
	want := "\npublished=no\n"
	if buildinfo.Published {
		want = "\npublished=yes\n"
	}
	for _, l := range []string{"hookgen", "hwctl"} {
		if b, _ := os.ReadFile(filepath.Join("bin", l)); !strings.Contains(string(b), want) {
			t.Errorf("bin/%s does not set %q as buildinfo.Published says", l, strings.TrimSpace(want))
		}
	}
}

// TestToolLauncherUnpublished: an installed plugin (its SHA256SUMS, no
// binary) before any release, with no HOOKWRIGHT_DOWNLOAD_URL, fetches
// nothing: one line says there is no release yet and how to build the
// tool from a clone instead; exit 69, nothing kept.
func TestToolLauncherUnpublished(t *testing.T) {
	if buildinfo.Published {
		t.Skip("a release is published")
	}
	f := newFetchFixture(t)
	for _, tool := range []string{"hookgen", "hwctl"} {
		out, errOut, code := f.run(t, "", tool, "--version")
		if code != 69 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, buildinfo.Unpublished) ||
			!strings.Contains(errOut, "go install ./cmd/"+tool) || !strings.Contains(errOut, "HOOKWRIGHT_DOWNLOAD_URL=file://") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want 69 and one line with the way from a clone", tool, code, out, errOut)
		}
		if f.hits.Load() != 0 {
			t.Errorf("%s: the launcher fetched something", tool)
		}
	}
	if got := f.cacheFiles(t); len(got) != 0 {
		t.Errorf("cache holds %q, want nothing", got)
	}
}

// TestLauncherAdviceWorks follows the launchers' advice on this machine:
// go install ./cmd/hwctl (and hookgen) in the clone gives a tool that runs.
func TestLauncherAdviceWorks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds hookgen and hwctl")
	}
	gobin := t.TempDir()
	for _, tool := range []string{"hookgen", "hwctl"} {
		cmd := exec.Command("go", "install", "./cmd/"+tool)
		cmd.Dir = ".."
		cmd.Env = append(os.Environ(), "GOBIN="+gobin, "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go install ./cmd/%s: %v\n%s", tool, err, out)
		}
		out, err := exec.Command(filepath.Join(gobin, tool), "--version").CombinedOutput()
		if err != nil || !strings.HasPrefix(string(out), tool+" version ") {
			t.Errorf("%s --version after go install: %v %q", tool, err, out)
		}
	}
}
