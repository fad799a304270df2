package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/hooks/hookstest"
)

// npmHookProject installs hookgen and this machine's platform package, as
// make npm packs them, into a fresh Node project with no Go on PATH.
func npmHookProject(t *testing.T) (dir string, env []string) {
	t.Helper()
	node, npm := npmTools(t)
	out, err := npmBuild()
	if err != nil {
		t.Fatal(err)
	}
	version := pluginVersion(t)
	env = nodeEnv(t, node, npm)
	dir = nodeProject(t, env, []string{
		filepath.Join(out, "hookgen-"+version+".tgz"),
		filepath.Join(out, "hookgen-"+npmPlatform(runtime.GOOS, runtime.GOARCH)+"-"+version+".tgz")})
	return dir, env
}

// hookCase is one payload under one command line.
type hookCase struct {
	name string
	call hookstest.Call
}

// payloadCases are every recorded payload under each command line it
// meets: its own event; the canonical event it stands in for, as the only
// registration and beside a native one (--with-native), on its release and
// where the release cannot be told.
func payloadCases() []hookCase {
	var out []hookCase
	for _, p := range hookstest.Payloads() {
		name := p.Release + "/" + p.Name
		out = append(out, hookCase{name + " as " + string(p.Event), p.Call(string(p.Event))})
		if canonical, ok := hooks.FallbackFor(p.Event); ok {
			for _, args := range []string{string(canonical) + " --via " + string(p.Event), string(canonical) + " --via " + string(p.Event) + " --with-native"} {
				out = append(out, hookCase{name + " as " + args, p.Call(args)})
				c := p.Call(args + " --proto 2.1.16")
				c.Transcript = ""
				out = append(out, hookCase{name + " as " + args + ", release unknown", c})
			}
		}
	}
	return out
}

// TestNPMEventAgreesWithGo: hookgen.event() of the npm package, as make
// npm builds it, gives the canonical event Go's translation (the one
// hooks.Main runs) gives, on every recorded payload of every band, under
// every command line it meets, null included.
func TestNPMEventAgreesWithGo(t *testing.T) {
	dir, env := npmHookProject(t)
	type jsCase struct {
		Argv  []string          `json:"argv"`
		Input string            `json:"input"`
		Env   map[string]string `json:"env"`
	}
	cases := payloadCases()
	var js []jsCase
	var want []any
	for _, c := range cases {
		call, vars := hookstest.Prepare(t, c.call)
		jc := jsCase{Argv: append([]string{"--some", "own-flag"}, strings.Fields(call.Args)...), Input: call.Stdin, Env: map[string]string{}}
		for _, kv := range vars {
			k, v, _ := strings.Cut(kv, "=")
			jc.Env[k] = v
		}
		js = append(js, jc)
		var w any
		if in := hookstest.Canonical(t, call); in != nil {
			data, err := hooks.MarshalInput(in)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, &w); err != nil {
				t.Fatal(err)
			}
		}
		want = append(want, w)
	}
	input, _ := json.Marshal(js)
	casesFile := filepath.Join(t.TempDir(), "cases.json")
	if err := os.WriteFile(casesFile, input, 0o644); err != nil {
		t.Fatal(err)
	}
	script := `const hg = require("hookgen"); const fs = require("fs");
(async () => {
  const out = [];
  for (const c of JSON.parse(fs.readFileSync(process.argv[1], "utf8"))) {
    try { out.push({event: await hg.event({argv: c.argv, input: c.input, env: {...c.env, PATH: process.env.PATH}}), hook: hg.hook()}); }
    catch (e) { out.push({error: e.message}); }
  }
  process.stdout.write(JSON.stringify(out));
})();`
	raw, err := runIn(dir, env, "node", "-e", script, casesFile)
	if err != nil {
		t.Fatalf("node: %v\n%s", err, raw)
	}
	var got []struct {
		Event any
		Hook  struct{ Event, Via, Proto string }
		Error string
	}
	if err := json.Unmarshal(raw, &got); err != nil || len(got) != len(cases) {
		t.Fatalf("node printed %d results for %d cases: %v\n%.500s", len(got), len(cases), err, raw)
	}
	nulls := 0
	for i, c := range cases {
		if got[i].Error != "" {
			t.Errorf("%s: hookgen.event() threw %q", c.name, got[i].Error)
			continue
		}
		if !reflect.DeepEqual(got[i].Event, want[i]) {
			t.Errorf("%s:\n JS %v\n Go %v", c.name, got[i].Event, want[i])
		}
		if want[i] == nil {
			nulls++
		}
		inv, _ := hooks.ParseInvocation(strings.Fields(c.call.Args))
		if got[i].Hook.Event != string(inv.Event) || got[i].Hook.Via != string(inv.Via) {
			t.Errorf("%s: hook() = %+v, want %s --via %s", c.name, got[i].Hook, inv.Event, inv.Via)
		}
	}
	if nulls == 0 || nulls == len(cases) {
		t.Errorf("%d of %d cases stand for nothing: the cases do not exercise both answers", nulls, len(cases))
	}
	t.Logf("%d payload cases, %d stand for nothing", len(cases), nulls)
}

// TestNPMHookAnswersAsTheGoPlugin: the same plugin written in JavaScript
// with hookgen.run (testdata/jshook/hook.js) and in Go with hooks.Main
// (hooks/hookstest/testdata/plugin), run as Claude Code runs hooks, answer
// alike: the same exit code, decision and reason, in the channel of the
// band, on recorded payloads, fallbacks included.
func TestNPMHookAnswersAsTheGoPlugin(t *testing.T) {
	dir, _ := npmHookProject(t)
	js, err := os.ReadFile(filepath.Join("testdata", "jshook", "hook.js"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "hook.js"), js, 0o644); err != nil {
		t.Fatal(err)
	}
	node, _ := npmTools(t)
	wrapper := filepath.Join(dir, "hook")
	if err := os.WriteFile(wrapper, []byte("#!/bin/sh\nexec '"+node+"' '"+filepath.Join(dir, "hook.js")+"' \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	goPlugin := hookstest.Build(t, "../../hooks/hookstest/testdata/plugin/cmd/plugin")
	forcePush := hookstest.Recorded("2.1.33", "PreToolUse-Bash").Call("PreToolUse --proto 2.1.33")
	forcePush.Stdin = strings.Replace(forcePush.Stdin, `"command":"ls"`, `"command":"git push --force origin main"`, 1)
	done := hookstest.Recorded("2.1.25", "PostToolUse-TaskUpdate-completed").Call("TaskCompleted --via PostToolUse --proto 2.1.16")
	done.Files = map[string]string{"parser.go": "package parser\n"}
	cases := []hookCase{
		{"force push", forcePush},
		{"plain Bash", hookstest.Recorded("2.1.330", "PreToolUse-Bash").Call("PreToolUse --proto 2.1.257")},
		{"native TaskCompleted, json-continue band", hookstest.Recorded("2.1.330", "TaskCompleted").Call("TaskCompleted --proto 2.1.69")},
		{"native TaskCompleted", hookstest.Recorded("2.1.33", "TaskCompleted").Call("TaskCompleted --proto 2.1.33")},
		{"TaskUpdate completes the task (fallback)", hookstest.Recorded("2.1.25", "PostToolUse-TaskUpdate-completed").Call("TaskCompleted --via PostToolUse --proto 2.1.16")},
		{"TaskUpdate completes the task, deliverable there", done},
		{"TaskUpdate starts the task", hookstest.Recorded("2.1.25", "PostToolUse-TaskUpdate-in_progress").Call("TaskCompleted --via PostToolUse --proto 2.1.16")},
		{"fallback on 2.1.33, which fires TaskCompleted itself", hookstest.Recorded("2.1.33", "PostToolUse-TaskUpdate-completed").Call("TaskCompleted --via PostToolUse --proto 2.1.16")},
		{"TodoWrite", hookstest.Recorded("2.0.30", "PostToolUse-TodoWrite").Call("TaskCompleted --via PostToolUse")},
		{"teammate's SubagentStop", noTranscript(hookstest.Recorded("2.1.33-team", "SubagentStop-teammate").Call("TeammateIdle --via SubagentStop"))},
		{"plain subagent's SubagentStop", hookstest.Recorded("2.1.25", "SubagentStop").Call("TeammateIdle --via SubagentStop --proto 2.1.16")},
		{"tmux teammate's Stop", noTranscript(hookstest.Recorded("2.1.33-team", "Stop-tmux-teammate").Call("TeammateIdle --via Stop"))},
		{"native TeammateIdle", hookstest.Recorded("2.1.33-team", "TeammateIdle").Call("TeammateIdle --proto 2.1.33")},
	}
	blocks := 0
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := hookstest.Exec(t, goPlugin, c.call)
			j := hookstest.Exec(t, wrapper, c.call)
			if g.Code != j.Code || g.Decision != j.Decision || g.Reason != j.Reason || g.Halt != j.Halt || g.Stdout != j.Stdout {
				t.Errorf("Go and JavaScript answer differently:\nGo:\n%s\nJS:\n%s", g, j)
			}
			if g.Decision == hooks.Block {
				blocks++
			}
		})
	}
	if blocks < 4 || blocks == len(cases) {
		t.Errorf("%d of %d cases block: the cases do not exercise both answers", blocks, len(cases))
	}
}

func noTranscript(c hookstest.Call) hookstest.Call {
	c.Transcript = ""
	return c
}

// TestNPMYourOwnPluginPage runs the JavaScript hook docs/your-own-plugin.md
// shows, with the package as make npm builds it, on recorded payloads: a
// completion without its deliverable is refused, natively and through the
// fallback; with it, it passes; a TaskUpdate that completes nothing, or a
// fallback beside a native registration on a release with TaskCompleted,
// says nothing.
func TestNPMYourOwnPluginPage(t *testing.T) {
	dir, _ := npmHookProject(t)
	page, err := os.ReadFile(filepath.Join("..", "..", "docs", "your-own-plugin.md"))
	if err != nil {
		t.Fatal(err)
	}
	var hook string
	for _, b := range regexp.MustCompile("(?s)```js\n(.*?)```").FindAllSubmatch(page, -1) {
		if strings.Contains(string(b[1]), "hookgen.run(") {
			hook = string(b[1])
			break
		}
	}
	if hook == "" {
		t.Fatal("the page shows no JavaScript hook with hookgen.run")
	}
	// The page shows hookgen new js's hooks/task.js; the lib/rules.js it
	// requires is the template's, as hookgen new writes it (its golden).
	rules, err := os.ReadFile(filepath.Join("testdata", "new", "js", "lib", "rules.js.golden"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{filepath.Join("hooks", "task.js"): hook, filepath.Join("lib", "rules.js"): string(rules)} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	node, _ := npmTools(t)
	wrapper := filepath.Join(dir, "task")
	os.WriteFile(wrapper, []byte("#!/bin/sh\nexec '"+node+"' '"+filepath.Join(dir, "hooks", "task.js")+"' \"$@\"\n"), 0o755)

	hookstest.Exec(t, wrapper, hookstest.Recorded("2.1.33", "TaskCompleted").Call("TaskCompleted")).Blocks(t, "deliverable parser.go is missing")
	fallback := hookstest.Recorded("2.1.25", "PostToolUse-TaskUpdate-completed").Call("TaskCompleted --via PostToolUse")
	hookstest.Exec(t, wrapper, fallback).Blocks(t, "deliverable parser.go is missing")
	fallback.Files = map[string]string{"parser.go": "package parser\n"}
	hookstest.Exec(t, wrapper, fallback).Passes(t)
	hookstest.Exec(t, wrapper, hookstest.Recorded("2.1.25", "PostToolUse-TaskUpdate-in_progress").Call("TaskCompleted --via PostToolUse")).Silent(t)
	// On 2.1.33, which fires TaskCompleted itself: silent beside a native
	// registration (hookgen plugin's --with-native), the gate where the
	// fallback is the plugin's only registration.
	hookstest.Exec(t, wrapper, hookstest.Recorded("2.1.33", "PostToolUse-TaskUpdate-completed").Call("TaskCompleted --via PostToolUse --with-native")).Silent(t)
	hookstest.Exec(t, wrapper, hookstest.Recorded("2.1.33", "PostToolUse-TaskUpdate-completed").Call("TaskCompleted --via PostToolUse")).Blocks(t, "deliverable parser.go is missing")
}
