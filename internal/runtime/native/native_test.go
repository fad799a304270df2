package native

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/ccversion"
)

// pluginRoot copies the real plugin's manifests into a fresh install-like
// folder and returns its root.
func pluginRoot(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "cache", "hookwright", "0.1.0")
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

func opts(t *testing.T, root, session, transcriptPath string) Options {
	return Options{PluginRoot: root, SessionID: session, TranscriptPath: transcriptPath, Enabled: true, StateDir: filepath.Join(filepath.Dir(root), "state")}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestSwitchesOnceOn2133(t *testing.T) {
	root := pluginRoot(t)
	o := opts(t, root, "s1", transcript(t, "2.1.33"))
	out, err := Check(o)
	if err != nil || !out.Switched {
		t.Fatalf("Check = %+v, %v; want a switch", out, err)
	}
	if out.From != (Release{2, 0, 12}) || out.To != (Release{2, 1, 33}) {
		t.Errorf("From %s To %s, want 2.0.12 → 2.1.33", out.From, out.To)
	}
	hooks := mustRead(t, filepath.Join(root, "hooks", "hooks.json"))
	if hooks != mustRead(t, filepath.Join(root, "hooks", "bands", "2.1.33.json")) {
		t.Errorf("hooks.json is not the 2.1.33 band")
	}
	if !strings.Contains(out.Message, "2.1.33") || strings.Contains(out.Message, "\n") {
		t.Errorf("Message = %q, want one line naming 2.1.33", out.Message)
	}
	again, err := Check(o)
	if err != nil || again.Switched || again.Reason != "already checked in this session" {
		t.Errorf("second Check in the session = %+v, %v", again, err)
	}
	next, err := Check(opts(t, root, "s2", o.TranscriptPath))
	if err != nil || next.Switched || !strings.HasPrefix(next.Reason, "already on band 2.1.33") {
		t.Errorf("Check in the next session = %+v, %v", next, err)
	}
	left, _ := filepath.Glob(filepath.Join(root, "hooks", ".hooks-*"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestNeverSwitchesOn2030(t *testing.T) {
	root := pluginRoot(t)
	before := mustRead(t, filepath.Join(root, "hooks", "hooks.json"))
	out, err := Check(opts(t, root, "s1", transcript(t, "2.0.30")))
	if err != nil || out.Switched || out.Running != (Release{2, 0, 30}) {
		t.Fatalf("Check = %+v, %v; want no switch on 2.0.30", out, err)
	}
	if mustRead(t, filepath.Join(root, "hooks", "hooks.json")) != before {
		t.Errorf("hooks.json changed on 2.0.30")
	}
}

func TestAIAgentPicksGreatestBand(t *testing.T) {
	root := pluginRoot(t)
	o := opts(t, root, "s1", "")
	o.AIAgent = "claude-code_2-1-330_harness"
	out, err := Check(o)
	if err != nil || !out.Switched || out.Running != (Release{2, 1, 330}) || out.To != (Release{2, 1, 257}) {
		t.Fatalf("Check = %+v, %v; want a switch to 2.1.257 for 2.1.330", out, err)
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
	t.Run("source checkout", func(t *testing.T) {
		root := pluginRoot(t)
		os.Mkdir(filepath.Join(filepath.Dir(root), ".git"), 0o755)
		out, err := Check(opts(t, root, "s1", transcript(t, "2.1.33")))
		if err != nil || out.Switched || out.Reason != "the plugin root is a source checkout" {
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
		data := mustRead(t, b.path)
		if err := Accepts([]byte(data), b.edge); err != nil {
			t.Errorf("%s at its own edge: %v", b.path, err)
		}
	}
	if err := Accepts([]byte(mustRead(t, bands[len(bands)-1].path)), Release{2, 0, 30}); err == nil {
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
