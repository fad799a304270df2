package doctor

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/manifests"
)

// namedRelease lays out a release of a plugin named deliverables as
// hookgen new's release.sh ships one: hookwright's launcher as
// bin/deliverables, this machine's binary unpacked beside its .gz (a
// script that answers "version" with version), the hooks files, and
// SHA256SUMS over all of them.
func namedRelease(t *testing.T, version string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in binary is a shell script")
	}
	root := filepath.Join(t.TempDir(), "deliverables")
	spec := manifests.Spec{Description: "deliverables", Handlers: []manifests.Handler{
		{Event: "PreToolUse", Matcher: "Bash", Command: `"${CLAUDE_PLUGIN_ROOT}/bin/deliverables" PreToolUse`, Timeout: 10},
		{Event: "TaskCompleted", Command: `"${CLAUDE_PLUGIN_ROOT}/bin/deliverables" TaskCompleted`, Timeout: 30},
	}}
	in, err := manifests.BuildInstall(spec, hooks.Release{})
	if err != nil {
		t.Fatal(err)
	}
	pj, err := manifests.SetPluginHooks([]byte(`{"name":"deliverables","version":"0.1.0"}`), in.PluginHooks())
	if err != nil {
		t.Fatal(err)
	}
	launcher, err := os.ReadFile(filepath.Join("..", "..", "plugin", "bin", "hookwright"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{".claude-plugin/plugin.json": pj, "bin/deliverables": launcher}
	for _, f := range in.Files {
		files[f.Path] = f.JSON
	}
	plat := runtime.GOOS + "-" + runtime.GOARCH
	files["bin/deliverables-0.1.0-"+plat] = []byte("#!/bin/sh\necho 'deliverables " + version + "'\n")
	files["bin/deliverables-0.1.0-"+plat+".gz"] = []byte("the compressed binary")
	var sums strings.Builder
	for p, data := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), data, 0o755); err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel("bin", p)
		fmt.Fprintf(&sums, "%s  %s\n", sumOf(t, filepath.Join(root, p)), filepath.ToSlash(rel))
	}
	if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(SumsFile)), []byte(sums.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// TestPluginOfAnotherName: doctor checks a plugin built the way hookwright
// is by the name its plugin.json gives: its launcher, its binaries, its
// version, its sums, and never hookwright's config or state.
func TestPluginOfAnotherName(t *testing.T) {
	r, out := runOn(t, namedRelease(t, "0.1.0"))
	if !r.OK() {
		t.Fatalf("problems in an untouched release of deliverables:\n%s", out)
	}
	for _, want := range []string{"match bin/SHA256SUMS", "(deliverables 0.1.0)", "4 deliverables hooks reach the binary"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	for _, not := range []string{".hookwright", "hookwright hooks", "hookwright@"} {
		if strings.Contains(out, not) {
			t.Errorf("report names %q, which is hookwright's, not this plugin's:\n%s", not, out)
		}
	}

	root := namedRelease(t, "0.1.0")
	if err := os.WriteFile(filepath.Join(root, "bin", "deliverables"), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	r, out = runOn(t, root)
	if r.OK() || !strings.Contains(out, "bin/deliverables has SHA-256") || !strings.Contains(out, "claude plugin uninstall deliverables@") {
		t.Errorf("a changed launcher: want a BAD sums line naming it and the reinstall of deliverables:\n%s", out)
	}

	r, out = runOn(t, namedRelease(t, "0.0.9"))
	if r.OK() || !strings.Contains(out, `reports "deliverables 0.0.9" but plugin.json says 0.1.0`) {
		t.Errorf("a binary of another version: want a BAD binary line:\n%s", out)
	}
}

// TestPluginOfAnotherNameFromSource: the plugin/ of a Go module's source
// (hookgen new go's layout, after make plugin) has no SHA256SUMS, which
// only a release writes: that is a build from source, not a problem; the
// same folder without ../go.mod is.
func TestPluginOfAnotherNameFromSource(t *testing.T) {
	root := namedRelease(t, "0.1.0")
	plat := runtime.GOOS + "-" + runtime.GOARCH
	if err := os.Rename(filepath.Join(root, "bin", "deliverables-0.1.0-"+plat), filepath.Join(root, "bin", "deliverables-"+plat)); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(root, "bin", "deliverables-0.1.0-"+plat+".gz"))
	os.Remove(filepath.Join(root, filepath.FromSlash(SumsFile)))
	r, out := runOn(t, root)
	if r.OK() || !strings.Contains(out, "cannot check the plugin's binaries") {
		t.Errorf("no SHA256SUMS and no source around it: want a BAD sums line:\n%s", out)
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(root), "go.mod"), []byte("module deliverables\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, out = runOn(t, root)
	if !r.OK() || !strings.Contains(out, "a build from source (../go.mod)") || !strings.Contains(out, "(deliverables 0.1.0)") {
		t.Errorf("a build from source: want every line ok:\n%s", out)
	}
}
