package manifests

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/hooks"
)

var update = flag.Bool("update", false, "rewrite the golden manifests under testdata/")

func version(t testing.TB, s string) hooks.Release {
	t.Helper()
	v, err := hooks.ParseRelease(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func goldenPath(band hooks.Release) string {
	return filepath.Join("testdata", "hooks-"+band.String()+".json")
}

// TestGoldenManifestsAreCurrent keeps one generated manifest per band under
// testdata/; go test ./manifests -update rewrites them.
func TestGoldenManifestsAreCurrent(t *testing.T) {
	want := map[string]bool{}
	for _, band := range compat.Bands() {
		got, err := Generate(Hookwright(), band)
		if err != nil {
			t.Fatalf("band %s: %v", band, err)
		}
		path := goldenPath(band)
		want[filepath.Base(path)] = true
		if *update {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		old, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(old, got) {
			t.Errorf("%s is stale or missing (run go test ./manifests -update)", path)
		}
	}
	entries, _ := filepath.Glob(filepath.Join("testdata", "hooks-*.json"))
	for _, e := range entries {
		if !want[filepath.Base(e)] {
			if *update {
				os.Remove(e)
				continue
			}
			t.Errorf("%s belongs to no band (run go test ./manifests -update)", e)
		}
	}
}

// TestGoldenManifestsAreJSONStringifyOutput feeds every golden to node and
// checks JSON.stringify(JSON.parse(file), null, 2) + "\n" gives it back.
func TestGoldenManifestsAreJSONStringifyOutput(t *testing.T) {
	node := needNode(t)
	files, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	if len(files) == 0 {
		t.Fatal("no golden manifests")
	}
	const prog = `const fs = require('fs');
let bad = [];
for (const f of process.argv.slice(1)) {
  const s = fs.readFileSync(f, 'utf8');
  if (JSON.stringify(JSON.parse(s), null, 2) + '\n' !== s) bad.push(f);
}
process.stdout.write(bad.join('\n'));`
	out, err := exec.Command(node, append([]string{"-e", prog}, files...)...).Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	if len(out) > 0 {
		t.Errorf("node writes these differently:\n%s", out)
	}
}

// manifest is the decoded shape of a generated hooks.json.
type manifest struct {
	Description string
	Hooks       map[string][]struct {
		Matcher *string
		Hooks   []map[string]any
	}
}

func decodeManifest(t *testing.T, b []byte) manifest {
	t.Helper()
	var m manifest
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// commands lists "Event[matcher] command" for every handler, an exec-form
// handler as the shell line it splits from and a direct-form one as the
// launcher call it was written from.
func commands(m manifest) []string {
	var out []string
	for ev, groups := range m.Hooks {
		for _, g := range groups {
			key := ev
			if g.Matcher != nil {
				key += "[" + *g.Matcher + "]"
			}
			for _, h := range g.Hooks {
				cmd := h["command"].(string)
				if args, ok := h["args"].([]any); ok {
					argv := []string{cmd}
					for _, a := range args {
						argv = append(argv, a.(string))
					}
					cmd = JoinExec(argv)
				}
				cmd, _ = LauncherCall(cmd)
				out = append(out, key+" "+cmd)
			}
		}
	}
	return out
}

const bin = `"${CLAUDE_PLUGIN_ROOT}/bin/hookwright"`

func TestBeforeTeamEventsUsesFallbacks(t *testing.T) {
	out, err := Generate(Hookwright(), version(t, "2.1.32"))
	if err != nil {
		t.Fatal(err)
	}
	for _, banned := range []string{`"TeammateIdle"`, `"TaskCompleted"`, `$schema`, "--proto"} {
		if bytes.Contains(out, []byte(banned)) {
			t.Errorf("2.1.32 manifest contains %s", banned)
		}
	}
	cmds := commands(decodeManifest(t, out))
	for _, want := range []string{
		"PostToolUse[TaskUpdate] " + bin + " TaskCompleted --via PostToolUse",
		"SubagentStop " + bin + " TeammateIdle --via SubagentStop",
		"Stop " + bin + " TeammateIdle --via Stop",
		"Stop " + bin + " Stop",
		"PostToolUse " + bin + " PostToolUse --with-async",
	} {
		if !contains(cmds, want) {
			t.Errorf("2.1.32 manifest lacks %q; has %q", want, cmds)
		}
	}
}

func TestTeamEventsNativeWithoutDuplicateFallback(t *testing.T) {
	for _, ver := range []string{"2.1.33", "2.1.68"} {
		out, err := Generate(Hookwright(), version(t, ver))
		if err != nil {
			t.Fatal(err)
		}
		cmds := commands(decodeManifest(t, out))
		for _, want := range []string{"TeammateIdle " + bin + " TeammateIdle", "TaskCompleted " + bin + " TaskCompleted",
			"PostToolUse " + bin + " PostToolUse --with-async"} {
			if !contains(cmds, want) {
				t.Errorf("%s lacks %q; has %q", ver, want, cmds)
			}
		}
		for _, c := range cmds {
			if strings.Contains(c, "--via") || strings.Contains(c, "--proto") {
				t.Errorf("%s has a fallback or proto flag it does not need: %s", ver, c)
			}
		}
	}
}

func TestProtoFlagFromContinueFalse(t *testing.T) {
	out, err := Generate(Hookwright(), version(t, "2.1.330"))
	if err != nil {
		t.Fatal(err)
	}
	cmds := commands(decodeManifest(t, out))
	// --proto names the band of the release: the newest edge at or below it.
	band, err := compat.BandOf(version(t, "2.1.330"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"TeammateIdle " + bin + " TeammateIdle --proto " + band.String(),
		"TaskCompleted " + bin + " TaskCompleted --proto " + band.String(),
		"Stop " + bin + " Stop",
	} {
		if !contains(cmds, want) {
			t.Errorf("2.1.330 lacks %q; has %q", want, cmds)
		}
	}
}

func TestOldestBand(t *testing.T) {
	r, err := Build(Hookwright(), version(t, "2.0.30"))
	if err != nil {
		t.Fatal(err)
	}
	m := decodeManifest(t, r.JSON)
	if _, ok := m.Hooks["SubagentStart"]; ok {
		t.Error("2.0.30 manifest names SubagentStart, which arrives in 2.0.43")
	}
	if !contains(commands(m), "PostToolUse[TodoWrite] "+bin+" TaskCompleted --via PostToolUse") {
		t.Errorf("2.0.30 lacks the TodoWrite fallback: %q", commands(m))
	}
	if bytes.Contains(r.JSON, []byte("statusMessage")) {
		t.Error("2.0.30 manifest has statusMessage")
	}
	joined := strings.Join(r.Notes, "\n")
	for _, want := range []string{"SubagentStart: left out", "TaskCompleted: fallback via PostToolUse[TodoWrite] (approximate", "statusMessage dropped"} {
		if !strings.Contains(joined, want) {
			t.Errorf("notes lack %q:\n%s", want, joined)
		}
	}
	if _, err := Generate(Hookwright(), version(t, "2.0.11")); !errors.Is(err, compat.ErrBelowFloor) {
		t.Errorf("2.0.11: error %v, want ErrBelowFloor", err)
	}
}

// TestForeignSpec shows a JS plugin's spec works unchanged: its commands
// are kept verbatim, only --via is appended on fallbacks, and no --proto
// is added without protoFlag.
func TestForeignSpec(t *testing.T) {
	spec, err := ParseSpec([]byte(`{
  "description": "bkit <hooks> & more \u2028",
  "handlers": [
    {"event": "PreToolUse", "matcher": "Write|Edit", "command": "node \"${CLAUDE_PLUGIN_ROOT}/scripts/pre-write.js\"", "timeout": 5},
    {"event": "TaskCompleted", "command": "node \"${CLAUDE_PLUGIN_ROOT}/scripts/task-done.js\"", "timeout": 30}
  ]
}`))
	if err != nil {
		t.Fatal(err)
	}
	old, err := Generate(spec, version(t, "2.1.20"))
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "description": "bkit <hooks> & more ` + "\u2028" + `",
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Write|Edit",
        "hooks": [
          {
            "type": "command",
            "command": "node \"${CLAUDE_PLUGIN_ROOT}/scripts/pre-write.js\"",
            "timeout": 5
          }
        ]
      }
    ],
    "PostToolUse": [
      {
        "matcher": "TaskUpdate",
        "hooks": [
          {
            "type": "command",
            "command": "node \"${CLAUDE_PLUGIN_ROOT}/scripts/task-done.js\" --via PostToolUse",
            "timeout": 30
          }
        ]
      }
    ]
  }
}
`
	if string(old) != want {
		t.Errorf("2.1.20 manifest:\n%s\nwant:\n%s", old, want)
	}
	latest, err := Generate(spec, version(t, "2.1.330"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(latest, []byte("--proto")) || bytes.Contains(latest, []byte("--via")) {
		t.Errorf("2.1.330 manifest adds flags to a foreign command:\n%s", latest)
	}
}

func TestParseSpecRejects(t *testing.T) {
	cases := map[string]string{
		`{"handlers":[{"event":"Stop","command":"x","timeout":5000}]}`:   "looks like milliseconds",
		`{"handlers":[{"event":"Stop","matcher":"Bash","command":"x"}]}`: "takes no matcher",
		`{"handlers":[{"event":"teammateIdle","command":"x"}]}`:          "unknown event",
		`{"handlers":[{"event":"Stop","command":""}]}`:                   "empty command",
		`{"handlers":[{"event":"Stop","command":["x"]}]}`:                "handlers.command: want a string, got a list",
		`{"handlers":[{"event":"Stop","command":"x","cmd":"y"}]}`:        `unknown field "cmd"`,
		`{"handlers":[]}`: "no handlers",
		`{"handlers":[{"event":"Stop","command":"x"}]} {}`:            "trailing data",
		`{"$schema":"x","handlers":[{"event":"Stop","command":"x"}]}`: "unknown field",
		`{"handlers":[{"event":"Stop","command":"x","timeout":-1}]}`:  "positive number of seconds",
	}
	for in, want := range cases {
		_, err := ParseSpec([]byte(in))
		if !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseSpec(%s) error = %v, want ErrSpec containing %q", in, err, want)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// BenchmarkGenerateAllBands generates our manifest for every band; the
// target is under 50 ms for all of them.
func BenchmarkGenerateAllBands(b *testing.B) {
	spec := Hookwright()
	bands := compat.Bands()
	for i := 0; i < b.N; i++ {
		for _, band := range bands {
			if _, err := Generate(spec, band); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// An async handler is written with "async" from 2.1.15 and "asyncRewake"
// from 2.1.64, and left out before 2.1.15, where it would run in the
// foreground; asyncRewake without async is no spec.
func TestAsyncHandler(t *testing.T) {
	spec := Spec{Handlers: []Handler{
		{Event: "PostToolUse", Command: "sync"},
		{Event: "PostToolUse", Matcher: "Write", Command: "bg", Async: true, AsyncRewake: true},
	}}
	for v, want := range map[string]string{
		"2.0.30":  "",
		"2.1.14":  "",
		"2.1.15":  `"command": "bg",` + "\n" + `            "async": true` + "\n",
		"2.1.63":  `"command": "bg",` + "\n" + `            "async": true` + "\n",
		"2.1.64":  `"async": true,` + "\n" + `            "asyncRewake": true`,
		"2.1.330": `"asyncRewake": true`,
	} {
		out, err := Generate(spec, hooks.MustRelease(v))
		if err != nil {
			t.Fatalf("%s: %v", v, err)
		}
		has := strings.Contains(string(out), `"bg"`)
		if want == "" && has || want != "" && !strings.Contains(string(out), want) {
			t.Errorf("%s: want %q in\n%s", v, want, out)
		}
		if !strings.Contains(string(out), `"sync"`) {
			t.Errorf("%s: the synchronous handler is gone", v)
		}
	}
	if err := (Spec{Handlers: []Handler{{Event: "PostToolUse", Command: "x", AsyncRewake: true}}}).Check(); err == nil {
		t.Error("asyncRewake without async passed Check")
	}
}

// hookwright's own spec: every band that runs async hooks carries the
// asynchronous quality registration beside the synchronous one. The
// runtime's synchronous call leaves linting to it on those releases, so
// a manifest without it would lint nothing.
func TestQualityAsyncPairing(t *testing.T) {
	asyncSince := hooks.MustRelease("2.1.15")
	for _, band := range compat.Bands() {
		out, err := Generate(Hookwright(), band)
		if err != nil {
			t.Fatal(err)
		}
		has := strings.Contains(string(out), "PostToolUse --async") || strings.Contains(string(out), `"--async"`)
		paired := strings.Contains(string(out), "PostToolUse --with-async") || strings.Contains(string(out), `"--with-async"`)
		if band.Less(asyncSince) == has || has != paired {
			t.Errorf("band %s: the async quality registration present = %v, the synchronous one says so = %v", band, has, paired)
		}
	}
}
