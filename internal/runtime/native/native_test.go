package native

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/ccversion"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
)

// pluginRoot copies the real plugin's manifests into a fresh install-like
// folder and returns its root.
func pluginRoot(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "cache", "hookwright", "0.1.0", "plugin")
	src := filepath.Join("..", "..", "..", "plugin", "hooks")
	files, _ := filepath.Glob(filepath.Join(src, "bands", "*.json"))
	if len(files) == 0 {
		t.Fatal("no band files under plugin/hooks/bands")
	}
	files = append(files, filepath.Join(src, "hooks.json"))
	for _, f := range files {
		rel, _ := filepath.Rel(src, f)
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(root, "hooks", rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// transcript writes a two-line transcript of release v.
func transcript(t *testing.T, v string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "session.jsonl")
	data := `{"type":"summary","summary":"x"}` + "\n" +
		`{"parentUuid":null,"sessionId":"s1","version":"` + v + `","type":"user","message":{"role":"user","content":"hi"}}` + "\n"
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// testPlatform names the fake platform binary the tests put in bin/.
const testPlatform = "testos-testarch"

func opts(t *testing.T, root, session, transcriptPath string) Options {
	noCacheWrites(t)
	return Options{PluginRoot: root, SessionID: session, TranscriptPath: transcriptPath, Enabled: true,
		Platform: testPlatform}
}

// noCacheWrites points HOME and XDG_CACHE_HOME at a fresh folder and fails
// the test if anything is written under it: the switch writes only inside
// the plugin.
func noCacheWrites(t *testing.T) {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CACHE_HOME", filepath.Join(home, ".cache"))
	t.Cleanup(func() {
		filepath.WalkDir(home, func(path string, d fs.DirEntry, err error) error {
			if path != home {
				t.Errorf("written outside the plugin: %s", path)
			}
			return nil
		})
	})
}

// withBinary puts an executable bin/hookwright-<testPlatform> in root.
func withBinary(t *testing.T, root string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(root, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "bin", "hookwright-"+testPlatform), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// bandFile is the shipped band file of edge in root, in the direct form.
func bandFile(t *testing.T, root, edge string) string {
	return string(Direct([]byte(mustRead(t, filepath.Join(root, "hooks", "bands", edge+".json"))), testPlatform))
}

// TestSwitchesToTheExactBand runs one session per release on a fresh
// install: the manifest becomes the band of the release, in the direct
// form, whatever the release.
func TestSwitchesToTheExactBand(t *testing.T) {
	for _, c := range []struct{ release, band string }{
		{"2.0.30", "2.0.12"}, {"2.0.50", "2.0.45"}, {"2.1.16", "2.1.16"}, {"2.1.25", "2.1.16"},
		{"2.1.32", "2.1.16"}, {"2.1.33", "2.1.33"}, {"2.1.61", "2.1.50"}, {"2.1.200", "2.1.152"}, {"2.1.257", "2.1.257"}, {"2.1.330", "2.1.329"},
	} {
		t.Run(c.release, func(t *testing.T) {
			root := pluginRoot(t)
			withBinary(t, root)
			out, err := Check(opts(t, root, "s1", transcript(t, c.release)))
			if err != nil || !out.Switched || !out.Direct || out.To.String() != c.band || out.From != (Release{2, 0, 12}) {
				t.Fatalf("Check = %+v, %v; want a direct switch 2.0.12 → %s", out, err, c.band)
			}
			got := mustRead(t, filepath.Join(root, "hooks", "hooks.json"))
			if got != bandFile(t, root, c.band) {
				t.Errorf("hooks.json is not band %s in the direct form", c.band)
			}
			if strings.Contains(got, `/bin/hookwright\"`) || strings.Contains(got, `/bin/hookwright"`) {
				t.Errorf("hooks.json still calls the launcher:\n%s", got)
			}
			if !strings.Contains(out.Message, c.release) || !strings.Contains(out.Message, c.band) || strings.Contains(out.Message, "\n") {
				t.Errorf("Message = %q, want one line naming %s and %s", out.Message, c.release, c.band)
			}
		})
	}
}

// TestExecFormOnExecBands checks the direct form of a band from 2.1.139
// starts the binary with no shell: the program is the binary itself and
// the event is an argument.
func TestExecFormOnExecBands(t *testing.T) {
	root := pluginRoot(t)
	withBinary(t, root)
	o := opts(t, root, "s1", "")
	o.AIAgent = "claude-code_2-1-330_harness"
	if out, err := Check(o); err != nil || !out.Switched {
		t.Fatalf("Check = %+v, %v", out, err)
	}
	got := mustRead(t, filepath.Join(root, "hooks", "hooks.json"))
	want := `"command": "${CLAUDE_PLUGIN_ROOT}/bin/hookwright-` + testPlatform + `",`
	if !strings.Contains(got, want) || !strings.Contains(got, `"args": [`) || strings.Contains(got, `\"`) {
		t.Errorf("hooks.json on 2.1.330 is not in the exec form with the binary as program:\n%s", got)
	}
}

// TestShellBandsExecTheBinary checks the direct form of a band before
// 2.1.139, which Claude Code runs through a shell: every hookwright
// command execs the platform binary, so the shell hands over its process
// instead of forking one more (dash, the common /bin/sh, forks for the
// last command of sh -c unless told to exec), and the command still starts
// with the quoted "${CLAUDE_PLUGIN_ROOT}/..." path after the exec.
func TestShellBandsExecTheBinary(t *testing.T) {
	root := pluginRoot(t)
	withBinary(t, root)
	if out, err := Check(opts(t, root, "s1", transcript(t, "2.1.25"))); err != nil || !out.Switched || !out.Direct {
		t.Fatalf("Check = %+v, %v", out, err)
	}
	var m struct {
		Hooks map[string][]struct {
			Hooks []struct{ Command string }
		}
	}
	if err := json.Unmarshal([]byte(mustRead(t, filepath.Join(root, "hooks", "hooks.json"))), &m); err != nil {
		t.Fatal(err)
	}
	n := 0
	want := `exec "${CLAUDE_PLUGIN_ROOT}/bin/hookwright-` + testPlatform + `" `
	for ev, groups := range m.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				n++
				if !strings.HasPrefix(h.Command, want) {
					t.Errorf("%s: command %q does not start with %q", ev, h.Command, want)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("the switched manifest has no commands")
	}
}

func TestSwitchesOnceAndAgainAfterAnUpgrade(t *testing.T) {
	root := pluginRoot(t)
	withBinary(t, root)
	o := opts(t, root, "s1", transcript(t, "2.1.25"))
	if out, err := Check(o); err != nil || !out.Switched || out.To != (Release{2, 1, 16}) {
		t.Fatalf("first Check = %+v, %v", out, err)
	}
	again, err := Check(o)
	if err != nil || again.Switched || again.Reason != "already checked in this session" {
		t.Errorf("second Check in the session = %+v, %v", again, err)
	}
	same, err := Check(opts(t, root, "s2", o.TranscriptPath))
	if err != nil || same.Switched || same.Reason != "already on band 2.1.16" {
		t.Errorf("next session on the same release = %+v, %v", same, err)
	}
	up, err := Check(opts(t, root, "s3", transcript(t, "2.1.33")))
	if err != nil || !up.Switched || up.From != (Release{2, 1, 16}) || up.To != (Release{2, 1, 33}) {
		t.Fatalf("session after an upgrade to 2.1.33 = %+v, %v; want 2.1.16 → 2.1.33", up, err)
	}
	if mustRead(t, filepath.Join(root, "hooks", "hooks.json")) != bandFile(t, root, "2.1.33") {
		t.Errorf("hooks.json is not the 2.1.33 band after the upgrade")
	}
	left, _ := filepath.Glob(filepath.Join(root, "hooks", ".hooks-*"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestWithoutBinaryKeepsTheLauncher: a plugin without its platform binary
// still gets its band, calling the launcher as shipped.
func TestWithoutBinaryKeepsTheLauncher(t *testing.T) {
	root := pluginRoot(t)
	out, err := Check(opts(t, root, "s1", transcript(t, "2.1.25")))
	if err != nil || !out.Switched || out.Direct || out.To != (Release{2, 1, 16}) {
		t.Fatalf("Check = %+v, %v", out, err)
	}
	if mustRead(t, filepath.Join(root, "hooks", "hooks.json")) != mustRead(t, filepath.Join(root, "hooks", "bands", "2.1.16.json")) {
		t.Errorf("hooks.json is not the shipped 2.1.16 band")
	}
}

func TestUnknownVersionIsRetried(t *testing.T) {
	root := pluginRoot(t)
	missing := filepath.Join(t.TempDir(), "not-yet.jsonl")
	out, err := Check(opts(t, root, "s1", missing))
	if err != nil || out.Switched || out.Reason != "running release unknown" {
		t.Fatalf("Check = %+v, %v", out, err)
	}
	if err := os.WriteFile(missing, []byte(`{"version":"2.1.40"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err = Check(opts(t, root, "s1", missing))
	if err != nil || !out.Switched || out.To != (Release{2, 1, 33}) {
		t.Fatalf("Check once the transcript exists = %+v, %v; want a switch to 2.1.33", out, err)
	}
}

func TestLeavesAloneWhatItDoesNotOwn(t *testing.T) {
	t.Run("edited manifest", func(t *testing.T) {
		root := pluginRoot(t)
		path := filepath.Join(root, "hooks", "hooks.json")
		edited := strings.Replace(mustRead(t, path), "hookwright:", "edited:", 1)
		os.WriteFile(path, []byte(edited), 0o644)
		out, err := Check(opts(t, root, "s1", transcript(t, "2.1.33")))
		if err != nil || out.Switched || mustRead(t, path) != edited {
			t.Errorf("Check = %+v, %v; want the edited manifest left alone", out, err)
		}
	})
	t.Run("development checkout", func(t *testing.T) {
		root := pluginRoot(t)
		os.WriteFile(filepath.Join(filepath.Dir(root), "go.mod"), []byte("// x\nmodule github.com/hookwright/hookwright\n\ngo 1.24\n"), 0o644)
		out, err := Check(opts(t, root, "s1", transcript(t, "2.1.33")))
		if err != nil || out.Switched || !strings.HasPrefix(out.Reason, "the plugin root is a development checkout") {
			t.Errorf("Check = %+v, %v", out, err)
		}
	})
	t.Run("source file in the plugin", func(t *testing.T) {
		root := pluginRoot(t)
		os.WriteFile(filepath.Join(root, "release.sh"), []byte("#!/bin/sh\n"), 0o755)
		out, err := Check(opts(t, root, "s1", transcript(t, "2.1.33")))
		if err != nil || out.Switched || !strings.HasPrefix(out.Reason, "the plugin root is a development checkout") {
			t.Errorf("Check = %+v, %v", out, err)
		}
	})
	t.Run("switch off", func(t *testing.T) {
		root := pluginRoot(t)
		o := opts(t, root, "s1", transcript(t, "2.1.33"))
		o.Enabled = false
		if out, err := Check(o); err != nil || out.Switched {
			t.Errorf("Check = %+v, %v", out, err)
		}
	})
}

// TestGitCloneOfTheReleaseSwitches: a marketplace that is a git clone of
// the release branch (.git and .claude-plugin above the plugin, another
// module's go.mod even) is an install, which releases from 2.1.200 run in
// place.
func TestGitCloneOfTheReleaseSwitches(t *testing.T) {
	root := pluginRoot(t)
	withBinary(t, root)
	clone := filepath.Dir(root)
	os.Mkdir(filepath.Join(clone, ".git"), 0o755)
	os.Mkdir(filepath.Join(clone, ".claude-plugin"), 0o755)
	os.WriteFile(filepath.Join(clone, "go.mod"), []byte("module example.com/other\n"), 0o644)
	out, err := Check(opts(t, root, "s1", transcript(t, "2.1.330")))
	if err != nil || !out.Switched {
		t.Fatalf("Check = %+v, %v; want a switch in a git clone of the release", out, err)
	}
}

// TestRefusesABandFileNewerThanItsName tampers with the 2.1.33 band file
// so it names an event from 2.1.49: the switch must refuse to write it.
func TestRefusesABandFileNewerThanItsName(t *testing.T) {
	root := pluginRoot(t)
	band := filepath.Join(root, "hooks", "bands", "2.1.33.json")
	tampered := strings.Replace(mustRead(t, band), `"TaskCompleted"`, `"ConfigChange"`, 1)
	os.WriteFile(band, []byte(tampered), 0o644)
	before := mustRead(t, filepath.Join(root, "hooks", "hooks.json"))
	out, err := Check(opts(t, root, "s1", transcript(t, "2.1.33")))
	if !errors.Is(err, ErrRejected) || out.Switched {
		t.Fatalf("Check = %+v, %v; want ErrRejected", out, err)
	}
	if mustRead(t, filepath.Join(root, "hooks", "hooks.json")) != before {
		t.Errorf("hooks.json was written")
	}
}

// TestShippedBandsAreAccepted checks every shipped band file against the
// whitelist at its own edge, and that each is refused one band earlier
// where it uses something new.
func TestShippedBandsAreAccepted(t *testing.T) {
	bands, err := shippedBands(filepath.Join("..", "..", "..", "plugin"))
	if err != nil || len(bands) == 0 {
		t.Fatalf("shippedBands: %v, %d", err, len(bands))
	}
	for _, b := range bands {
		data := mustRead(t, filepath.Join("..", "..", "..", "plugin", "hooks", b.path))
		if err := Accepts([]byte(data), b.edge); err != nil {
			t.Errorf("%s at its own edge: %v", b.path, err)
		}
	}
	if err := Accepts([]byte(mustRead(t, filepath.Join("..", "..", "..", "plugin", "hooks", bands[len(bands)-1].path))), Release{2, 0, 30}); err == nil {
		t.Errorf("the newest band is accepted on 2.0.30")
	}
}

// TestWhitelistMatchesTheMatrix checks that the whitelist [Accepts] reads
// (the generated release table in package hooks) holds every event and key
// of compat's matrix with its first release.
func TestWhitelistMatchesTheMatrix(t *testing.T) {
	for _, f := range compat.All(compat.KindEvent) {
		if got, ok := hooks.EventSince(hooks.Event(f.Name)); !ok || got.String() != f.Version().String() {
			t.Errorf("EventSince(%s) = %s (present %v), compat says %s", f.Name, got, ok, f.Since)
		}
	}
	for _, f := range compat.All(compat.KindField) {
		if got, ok := hooks.KeySince(string(f.Scope), f.Name); !ok || got.String() != f.Version().String() {
			t.Errorf("KeySince(%s, %s) = %s (present %v), compat says %s", f.Scope, f.Name, got, ok, f.Since)
		}
	}
	var latest Release
	for _, ev := range []string{"TeammateIdle", "TaskCompleted"} {
		f, _ := compat.Lookup(compat.KindEvent, ev)
		if r := mustRelease(t, f.Since); latest.Less(r) {
			latest = r
		}
	}
	if NativeSince != latest {
		t.Errorf("NativeSince = %s; the matrix's team events arrive by %s", NativeSince, latest)
	}
	if _, ok := hooks.EventSince("NoSuchEvent"); ok {
		t.Error("EventSince knows NoSuchEvent")
	}
}

func mustRelease(t *testing.T, s string) Release {
	t.Helper()
	r, err := ccversion.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestMarkerLivesInThePlugin: the once-per-session marker is
// hooks/.native-session inside the plugin, holding the session id, and a
// development checkout gets none.
func TestMarkerLivesInThePlugin(t *testing.T) {
	root := pluginRoot(t)
	if _, err := Check(opts(t, root, "s1", transcript(t, "2.1.25"))); err != nil {
		t.Fatal(err)
	}
	if got := mustRead(t, filepath.Join(root, filepath.FromSlash(MarkerFile))); got != "s1" {
		t.Errorf("marker holds %q, want the session id s1", got)
	}
	left, _ := filepath.Glob(filepath.Join(root, "hooks", ".*.tmp"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}

	dev := pluginRoot(t)
	os.WriteFile(filepath.Join(dev, "release.sh"), []byte("#!/bin/sh\n"), 0o755)
	for _, s := range []string{"s1", "s1"} {
		if out, err := Check(opts(t, dev, s, transcript(t, "2.1.33"))); err != nil || out.Switched {
			t.Fatalf("Check in a checkout = %+v, %v", out, err)
		}
	}
	if _, err := os.Lstat(filepath.Join(dev, filepath.FromSlash(MarkerFile))); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a development checkout got a marker: %v", err)
	}

	// A folder that is no plugin (a hooks/ folder without hooks.json, as
	// the repository root has for the Go package) gets no marker either:
	// CLAUDE_PLUGIN_ROOT may name any folder.
	notPlugin := t.TempDir()
	os.MkdirAll(filepath.Join(notPlugin, "hooks"), 0o755)
	if out, err := Check(opts(t, notPlugin, "s1", transcript(t, "2.1.33"))); err != nil || out.Switched {
		t.Fatalf("Check on a folder without hooks.json = %+v, %v", out, err)
	}
	if _, err := os.Lstat(filepath.Join(notPlugin, filepath.FromSlash(MarkerFile))); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a folder that is no plugin got a marker: %v", err)
	}
}

// TestPlantedMarkerIsNotTrusted plants what a hostile model could leave at
// the marker's place: a symlink to a file that holds the session id (not
// followed, so the check still runs), a FIFO (no hang), an oversized file.
// Each time the switch happens, and the marker ends as a regular file.
func TestPlantedMarkerIsNotTrusted(t *testing.T) {
	for name, plant := range map[string]func(t *testing.T, path string){
		"symlink out of the plugin": func(t *testing.T, path string) {
			target := filepath.Join(t.TempDir(), "seen")
			os.WriteFile(target, []byte("s1"), 0o644)
			if err := os.Symlink(target, path); err != nil {
				t.Skip(err)
			}
		},
		"fifo": func(t *testing.T, path string) {
			if err := mkfifo(path); err != nil {
				t.Skip(err)
			}
		},
		"oversized": func(t *testing.T, path string) {
			os.WriteFile(path, []byte("s1"+strings.Repeat(" ", 1<<20)), 0o644)
		},
	} {
		t.Run(name, func(t *testing.T) {
			root := pluginRoot(t)
			marker := filepath.Join(root, filepath.FromSlash(MarkerFile))
			plant(t, marker)
			out, err := Check(opts(t, root, "s1", transcript(t, "2.1.25")))
			if err != nil || !out.Switched {
				t.Fatalf("Check with a planted marker = %+v, %v; want a switch", out, err)
			}
			fi, err := os.Lstat(marker)
			if err != nil || !fi.Mode().IsRegular() || mustRead(t, marker) != "s1" {
				t.Errorf("marker after the check: %v, %v; want a regular file holding s1", fi, err)
			}
		})
	}
}

// countBandReads counts, until the test ends, the band files read through
// readManifest, by name relative to hooks/.
func countBandReads(t *testing.T) *[]string {
	t.Helper()
	var read []string
	orig := readFile
	readFile = func(p safepath.Path, max int64) ([]byte, error) {
		rel := filepath.ToSlash(p.Rel)
		if strings.HasPrefix(rel, "hooks/bands/") {
			read = append(read, strings.TrimPrefix(rel, "hooks/"))
		}
		return orig(p, max)
	}
	t.Cleanup(func() { readFile = orig })
	return &read
}

// TestSteadyStateReadsOneBand: a new session on the release the install
// is already switched to (every session but the first) reads one band
// file, the target's, and one with an unknown release reads none.
func TestSteadyStateReadsOneBand(t *testing.T) {
	root := pluginRoot(t)
	withBinary(t, root)
	tr := transcript(t, "2.1.25")
	if out, err := Check(opts(t, root, "s1", tr)); err != nil || !out.Switched {
		t.Fatalf("first Check = %+v, %v", out, err)
	}
	read := countBandReads(t)
	out, err := Check(opts(t, root, "s2", tr))
	band := Release{2, 1, 16}
	if err != nil || out.Switched || out.Reason != "already on band 2.1.16" || out.From != band || out.To != band || out.Running != (Release{2, 1, 25}) {
		t.Fatalf("next session = %+v, %v; want already on band 2.1.16", out, err)
	}
	if want := []string{"bands/2.1.16.json"}; strings.Join(*read, " ") != strings.Join(want, " ") {
		t.Errorf("the steady state read band files %v, want only %v", *read, want)
	}
	if got := mustRead(t, filepath.Join(root, filepath.FromSlash(MarkerFile))); got != "s2" {
		t.Errorf("marker holds %q, want s2", got)
	}

	*read = nil
	out, err = Check(opts(t, root, "s3", filepath.Join(t.TempDir(), "not-yet.jsonl")))
	if err != nil || out.Switched || out.Reason != "running release unknown" {
		t.Fatalf("Check with the release unknown = %+v, %v", out, err)
	}
	if len(*read) != 0 {
		t.Errorf("with the release unknown, band files were read: %v", *read)
	}
}

// TestLauncherFormMovesToDirect: an install on the right band in the
// launcher form is not "already on band" once its platform binary is
// there: the same band is written again in the direct form.
func TestLauncherFormMovesToDirect(t *testing.T) {
	root := pluginRoot(t)
	tr := transcript(t, "2.1.25")
	if out, err := Check(opts(t, root, "s1", tr)); err != nil || !out.Switched || out.Direct {
		t.Fatalf("first Check = %+v, %v; want a switch in the launcher form", out, err)
	}
	withBinary(t, root)
	out, err := Check(opts(t, root, "s2", tr))
	band := Release{2, 1, 16}
	if err != nil || !out.Switched || !out.Direct || out.From != band || out.To != band || !strings.Contains(out.Message, "the same band 2.1.16") {
		t.Fatalf("Check with the binary = %+v, %v; want the same band in the direct form", out, err)
	}
	if mustRead(t, filepath.Join(root, "hooks", "hooks.json")) != bandFile(t, root, "2.1.16") {
		t.Errorf("hooks.json is not band 2.1.16 in the direct form")
	}
}

// TestEditedManifestWaitsForTheRelease: the release is learned before any
// band file is read, so an edited manifest in a session whose release is
// not known yet (SessionStart before 2.1.120) is not decided there: no
// marker, and the first Stop that knows the release leaves it alone and
// records the session.
func TestEditedManifestWaitsForTheRelease(t *testing.T) {
	root := pluginRoot(t)
	path := filepath.Join(root, "hooks", "hooks.json")
	edited := strings.Replace(mustRead(t, path), "hookwright:", "edited:", 1)
	os.WriteFile(path, []byte(edited), 0o644)
	marker := filepath.Join(root, filepath.FromSlash(MarkerFile))
	tr := filepath.Join(t.TempDir(), "not-yet.jsonl")
	out, err := Check(opts(t, root, "s1", tr))
	if err != nil || out.Switched || out.Reason != "running release unknown" {
		t.Fatalf("Check at SessionStart = %+v, %v; want running release unknown", out, err)
	}
	if _, err := os.Lstat(marker); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("an undecided check wrote the marker: %v", err)
	}
	os.WriteFile(tr, []byte(`{"version":"2.1.40"}`+"\n"), 0o644)
	out, err = Check(opts(t, root, "s1", tr))
	if err != nil || out.Switched || out.Reason != "hooks/hooks.json is not a shipped band (edited?); left alone" {
		t.Fatalf("Check at Stop = %+v, %v; want the edited manifest left alone", out, err)
	}
	if mustRead(t, path) != edited || mustRead(t, marker) != "s1" {
		t.Errorf("after the Stop: manifest edited %v, marker %q", mustRead(t, path) == edited, mustRead(t, marker))
	}
}

// TestPredatesTheOldestBand: a release older than every band writes
// nothing, says so, and still names the installed band; an edited
// manifest is left alone first.
func TestPredatesTheOldestBand(t *testing.T) {
	root := pluginRoot(t)
	out, err := Check(opts(t, root, "s1", transcript(t, "2.0.5")))
	if err != nil || out.Switched || out.Reason != "Claude Code 2.0.5 predates the oldest shipped band 2.0.12" || out.From != (Release{2, 0, 12}) {
		t.Fatalf("Check = %+v, %v", out, err)
	}
	path := filepath.Join(root, "hooks", "hooks.json")
	os.WriteFile(path, []byte(strings.Replace(mustRead(t, path), "hookwright:", "edited:", 1)), 0o644)
	out, err = Check(opts(t, root, "s2", transcript(t, "2.0.5")))
	if err != nil || out.Switched || out.Reason != "hooks/hooks.json is not a shipped band (edited?); left alone" {
		t.Fatalf("Check on an edited manifest = %+v, %v", out, err)
	}
}

// TestMarkerWrittenInPlace: the marker of a new session is written over
// the old one in place (the same file, no rename), and a longer old id is
// cut to the new one.
func TestMarkerWrittenInPlace(t *testing.T) {
	root := pluginRoot(t)
	tr := transcript(t, "2.1.25")
	marker := filepath.Join(root, filepath.FromSlash(MarkerFile))
	if _, err := Check(opts(t, root, "s1", tr)); err != nil {
		t.Fatal(err)
	}
	before, err := os.Lstat(marker)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"s2", "a-much-longer-session-id", "s4"} {
		if out, err := Check(opts(t, root, s, tr)); err != nil || out.Reason != "already on band 2.1.16" {
			t.Fatalf("Check(%s) = %+v, %v", s, out, err)
		}
		if got := mustRead(t, marker); got != s {
			t.Errorf("marker holds %q, want %q", got, s)
		}
		after, err := os.Lstat(marker)
		if err != nil || !os.SameFile(before, after) {
			t.Errorf("the marker of %s was replaced, not written in place: %v", s, err)
		}
	}
	left, _ := filepath.Glob(filepath.Join(root, "hooks", ".*.tmp"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestPlantedMarkerIsNotWrittenThrough plants at the marker's place what
// would redirect an in-place write: a symlink or a hard link to a file
// outside the plugin, a FIFO that has a reader. The outside file keeps its
// content, nothing waits, and the marker ends as a regular file of the
// plugin holding the session id.
func TestPlantedMarkerIsNotWrittenThrough(t *testing.T) {
	for name, plant := range map[string]func(t *testing.T, path, victim string){
		"symlink": func(t *testing.T, path, victim string) {
			if err := os.Symlink(victim, path); err != nil {
				t.Skip(err)
			}
		},
		"dangling symlink": func(t *testing.T, path, victim string) {
			os.Remove(victim)
			if err := os.Symlink(victim, path); err != nil {
				t.Skip(err)
			}
		},
		"hard link": func(t *testing.T, path, victim string) {
			if err := os.Link(victim, path); err != nil {
				t.Skip(err)
			}
		},
		"fifo with a reader": func(t *testing.T, path, victim string) {
			if err := mkfifo(path); err != nil {
				t.Skip(err)
			}
			done, err := openFIFOReader(path)
			if err != nil {
				t.Skip(err)
			}
			t.Cleanup(done)
		},
	} {
		t.Run(name, func(t *testing.T) {
			root := pluginRoot(t)
			victim := filepath.Join(t.TempDir(), "outside")
			os.WriteFile(victim, []byte("outside content"), 0o644)
			marker := filepath.Join(root, filepath.FromSlash(MarkerFile))
			plant(t, marker, victim)
			out, err := Check(opts(t, root, "s1", transcript(t, "2.1.25")))
			if err != nil || !out.Switched {
				t.Fatalf("Check with a planted marker = %+v, %v; want a switch", out, err)
			}
			if name == "dangling symlink" {
				if _, err := os.Lstat(victim); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("the target of a dangling symlink was created: %v", err)
				}
			} else if got := mustRead(t, victim); got != "outside content" {
				t.Errorf("the outside file now holds %q", got)
			}
			fi, err := os.Lstat(marker)
			if err != nil || !fi.Mode().IsRegular() || mustRead(t, marker) != "s1" {
				t.Errorf("marker after the check: %v, %v; want a regular file holding s1", fi, err)
			}
		})
	}
}
