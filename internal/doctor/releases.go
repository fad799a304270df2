package doctor

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/installview"
	"github.com/hookwright/hookwright/internal/runtime/installcheck"
	"github.com/hookwright/hookwright/manifests"
)

// installFindings says what each release of interest makes of the
// plugin's hooks files, and whether those files are the ones the plugin
// was installed with. One release reading the folder must never run fewer
// hooks than hooks/hooks.json gives every release; a release that would is
// a problem, whichever release the user runs now.
func installFindings(o Options) Report {
	var r Report
	p := installview.Read(o.PluginRoot)
	var files []string
	for _, f := range p.Files {
		files = append(files, f.Path)
	}
	r = append(r, Finding{Topic: "manifest", OK: true, Detail: fmt.Sprintf("%s: %s (hooks/hooks.json loads on every release from %s; each further file from the release its name gives)", o.PluginRoot, strings.Join(files, ", "), compat.PluginFloor)})
	if why, dev := installcheck.DevCheckout(o.PluginRoot); dev {
		r = append(r, devManifests(o.PluginRoot, why)...)
	}
	for _, v := range releasesOfInterest(o) {
		view := installview.Look(p, v)
		f := Finding{Topic: "release", OK: view.BelowFloor == "", Detail: view.Line()}
		for _, rt := range view.Routes {
			if rt.Missing {
				f.OK = false
			}
		}
		if !f.OK {
			f.Detail += "; fewer hooks than hooks/hooks.json gives every release"
			if view.BelowFloor != "" {
				f.Detail += " (" + view.BelowFloor + ")"
			}
			prob, _ := installcheck.Check(o.PluginRoot)
			f.Fix = prob.Fix
			if f.Fix == "" {
				f.Fix = reinstallFix(programOf(o.PluginRoot))
			}
		}
		r = append(r, f)
	}
	return r
}

// releasesOfInterest are the detected release and the others found on the
// machine, each once, newest first; without any, the band edges where the
// plugin's routes change: the floor and the edge of every further file.
func releasesOfInterest(o Options) []hooks.Release {
	var out []hooks.Release
	add := func(v hooks.Release) {
		if v.IsZero() || slices.Contains(out, v) {
			return
		}
		if floor := hooks.MustRelease(compat.PluginFloor); v.Less(floor) {
			return
		}
		out = append(out, v)
	}
	add(o.Version)
	for _, v := range o.Releases {
		add(v)
	}
	if len(out) == 0 {
		add(hooks.MustRelease(compat.PluginFloor))
		for _, f := range installview.Read(o.PluginRoot).Files[1:] {
			if name := strings.TrimSuffix(filepath.Base(f.Path), ".json"); versionDir.MatchString(name) {
				add(hooks.MustRelease(name))
			}
		}
	}
	slices.SortFunc(out, func(a, b hooks.Release) int { return b.Compare(a) })
	return out
}

// devManifests compares a development checkout's hooks files and
// plugin.json's "hooks" with what hookgen generates from the spec (a
// release pins them in SHA256SUMS instead).
func devManifests(root, why string) Report {
	in, err := manifests.BuildInstall(manifests.Hookwright(), hooks.Release{})
	if err != nil {
		return Report{{Topic: "manifest", Detail: err.Error()}}
	}
	var stale []string
	for _, f := range in.Files {
		got, err := readPluginFile(root, filepath.FromSlash(f.Path))
		if err != nil || !bytes.Equal(got, f.JSON) {
			stale = append(stale, f.Path)
		}
	}
	if pj, err := readPluginFile(root, filepath.Join(".claude-plugin", "plugin.json")); err == nil {
		if want, err := manifests.SetPluginHooks(pj, in.PluginHooks()); err != nil || !bytes.Equal(want, pj) {
			stale = append(stale, ".claude-plugin/plugin.json")
		}
	}
	if len(stale) > 0 {
		return Report{{Topic: "manifest", Detail: fmt.Sprintf("a development checkout (%s) whose %s differ from what hookgen writes from manifests/hookwright.spec.json", why, strings.Join(stale, ", ")), Fix: "make plugin-hooks (in " + filepath.Dir(root) + ")"}}
	}
	return Report{{Topic: "manifest", OK: true, Detail: fmt.Sprintf("a development checkout (%s): every hooks file and plugin.json's hooks are what hookgen writes from the spec", why)}}
}

// versionDir is a folder or file named by a release, as the native
// installer keeps them (…/claude/versions/2.1.330).
var versionDir = regexp.MustCompile(`^\d+\.\d+\.\d+$`)

// extensionDir is an IDE extension folder of Claude Code, named by its
// version: anthropic.claude-code-2.1.330[-<platform>].
var extensionDir = regexp.MustCompile(`^anthropic\.claude-code-(\d+\.\d+\.\d+)(?:-.*)?$`)

// MachineReleases lists the Claude Code releases installed for the user
// whose home is home, besides the claude on PATH: the versions the native
// installer keeps (~/.local/share/claude/versions) and the releases IDE
// extensions bundle (VS Code, VS Code Server, Cursor, Windsurf). Only
// folder names are read, never more than a few hundred entries.
func MachineReleases(home string) []hooks.Release {
	var out []hooks.Release
	add := func(s string) {
		if !versionDir.MatchString(s) {
			return
		}
		if v, err := hooks.ParseRelease(s); err == nil && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	names := func(dir string) []string {
		f, err := os.Open(dir)
		if err != nil {
			return nil
		}
		defer f.Close()
		ns, _ := f.Readdirnames(500)
		return ns
	}
	for _, n := range names(filepath.Join(home, ".local", "share", "claude", "versions")) {
		if versionDir.MatchString(n) {
			add(n)
		}
	}
	for _, ide := range []string{".vscode", ".vscode-server", ".vscode-insiders", ".cursor", ".windsurf"} {
		for _, n := range names(filepath.Join(home, ide, "extensions")) {
			if m := extensionDir.FindStringSubmatch(n); m != nil {
				add(m[1])
			}
		}
	}
	slices.SortFunc(out, func(a, b hooks.Release) int { return b.Compare(a) })
	return out
}
