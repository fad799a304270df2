package oracle

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/hooks"
)

// worst is the gravest consequence of a hooks.json on release v; "" loads
// clean.
func worst(t *testing.T, v string, doc string) (compat.Consequence, []Finding) {
	t.Helper()
	fs, err := CheckHooks(hooks.MustRelease(v), []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	w, _ := Worst(fs)
	return w, fs
}

const httpVar = `{"hooks": {"%s": [{"hooks": [{"type": "http", "url": "${SOME_VAR}"}]}]}}`

// The named mismatches of the oracle, each with the release that showed it.
func TestNamedRules(t *testing.T) {
	cases := []struct {
		name, release, doc string
		want               compat.Consequence // "" loads clean
	}{
		{"unexpanded url rejects 2.1.100", "2.1.100", fmt.Sprintf(httpVar, "Stop"), compat.Rejected},
		{"unexpanded url rejects 2.1.252", "2.1.252", fmt.Sprintf(httpVar, "Stop"), compat.Rejected},
		{"unexpanded url dropped on 2.1.330", "2.1.330", fmt.Sprintf(httpVar, "Stop"), compat.Dropped},
		{"unexpanded url under PreToolUse refuses 2.1.330", "2.1.330", fmt.Sprintf(httpVar, "PreToolUse"), compat.Rejected},
		{"full url loads", "2.1.330", `{"hooks": {"Stop": [{"hooks": [{"type": "http", "url": "http://127.0.0.1:9/h"}]}]}}`, ""},
		{"top-level PreToolUse refuses 2.1.330", "2.1.330", `{"hooks": {}, "PreToolUse": [{"hooks": [{"type": "command", "command": "x"}]}]}`, compat.Rejected},
		{"top-level PermissionRequest refuses 2.1.330", "2.1.330", `{"hooks": {}, "PermissionRequest": [{"hooks": [{"type": "command", "command": "x"}]}]}`, compat.Rejected},
		{"empty top-level PreToolUse is read past on 2.1.330", "2.1.330", `{"hooks": {}, "PreToolUse": []}`, compat.Dropped},
		{"guards under env are not searched on 2.1.330", "2.1.330", `{"hooks": {}, "env": {"PreToolUse": [{"hooks": []}]}}`, compat.Ignored},
		{"top-level PreToolUse dropped on 2.1.252", "2.1.252", `{"hooks": {}, "PreToolUse": [{"hooks": [{"type": "command", "command": "x"}]}]}`, compat.Dropped},
		{"timeout 5000 is lint", "2.1.33", `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "timeout": 5000}]}]}}`, compat.Lint},
		{"timeout 345600 is lint", "2.1.330", `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "timeout": 345600}]}]}}`, compat.Lint},
		{"timeout 0 rejects", "2.1.33", `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "timeout": 0}]}]}}`, compat.Rejected},
		{"timeout 1.5 loads", "2.1.33", `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "timeout": 1.5}]}]}}`, ""},
		{"prompt on 2.0.30 is dropped", "2.0.30", `{"hooks": {"Stop": [{"hooks": [{"type": "prompt", "prompt": "ok?"}]}]}}`, compat.Dropped},
		{"prompt on 2.0.29 rejects", "2.0.29", `{"hooks": {"Stop": [{"hooks": [{"type": "prompt", "prompt": "ok?"}]}]}}`, compat.Rejected},
		{"modules known on 2.1.252", "2.1.252", `{"modules": ["./m.js"]}`, ""},
		{"modules without hooks rejects 2.1.100", "2.1.100", `{"modules": ["./m.js"]}`, compat.Rejected},
		{"two modules reject 2.1.252", "2.1.252", `{"modules": ["./a.js", "./b.js"]}`, compat.Rejected},
		{"empty modules and no hooks reject 2.1.252", "2.1.252", `{"modules": []}`, compat.Rejected},
		{"surface refused on 2.1.330", "2.1.330", `{"hooks": {}, "surface": "x"}`, compat.Rejected},
		{"surface read past on 2.1.257", "2.1.257", `{"hooks": {}, "surface": "x"}`, compat.Ignored},
		{"unknown event rejects 2.1.252", "2.1.252", `{"hooks": {"NoSuch": []}}`, compat.Rejected},
		{"unknown event dropped 2.1.257", "2.1.257", `{"hooks": {"NoSuch": []}}`, compat.Dropped},
		{"matcher on Stop is lint", "2.1.33", `{"hooks": {"Stop": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "x"}]}]}}`, compat.Lint},
		{"unknown handler key ignored", "2.1.33", `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "note": 1}]}]}}`, compat.Ignored},
		{"args before 2.1.139 dropped", "2.1.100", `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "args": ["a"]}]}]}}`, compat.Dropped},
		{"command not a string rejects", "2.1.100", `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": ["x"]}]}]}}`, compat.Rejected},
		{"missing command rejects", "2.0.30", `{"hooks": {"Stop": [{"hooks": [{"type": "command"}]}]}}`, compat.Rejected},
		{"shell enum", "2.1.100", `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "shell": "zsh"}]}]}}`, compat.Rejected},
		{"not json", "2.1.33", `{`, compat.Rejected},
		{"unknown event holding guard hooks refuses 2.1.330", "2.1.330", `{"hooks": {"Guards": {"PreToolUse": [{"hooks": []}]}}}`, compat.Rejected},
		{"unknown type under Stop dropped on 2.1.330", "2.1.330", `{"hooks": {"Stop": [{"hooks": [{"type": "webhook"}]}]}}`, compat.Dropped},
		{"unknown type under PreToolUse refuses 2.1.330", "2.1.330", `{"hooks": {"PreToolUse": [{"hooks": [{"type": "webhook"}]}]}}`, compat.Rejected},
		{"mcp_tool needs server", "2.1.252", `{"hooks": {"Stop": [{"hooks": [{"type": "mcp_tool", "tool": "t"}]}]}}`, compat.Rejected},
		{"empty rewakeMessage", "2.1.252", `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "rewakeMessage": ""}]}]}}`, compat.Rejected},
		{"any onFailure loads", "2.1.330", `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "onFailure": "later"}]}]}}`, ""},
		{"null PreToolUse dropped on 2.1.330", "2.1.330", `{"hooks": {"PreToolUse": null}}`, compat.Dropped},
		{"object PreToolUse refuses 2.1.330", "2.1.330", `{"hooks": {"PreToolUse": {}}}`, compat.Rejected},
		{"hooks not a list", "2.1.33", `{"hooks": {"Stop": [{"hooks": {"type": "command"}}]}}`, compat.Rejected},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, fs := worst(t, c.release, c.doc)
			if got != c.want {
				t.Errorf("%s: worst = %q, want %q; findings:\n%v", c.release, got, c.want, fs)
			}
		})
	}
}

// plugin.json: what the named releases did.
func TestPluginRules(t *testing.T) {
	cases := []struct {
		name, release, doc string
		want               compat.Consequence
	}{
		{"skills loads on 2.0.30", "2.0.30", `{"name": "p", "skills": ["./s"]}`, ""},
		{"skills loads on 2.1.33", "2.1.33", `{"name": "p", "skills": "./s"}`, ""},
		{"calendar version loads", "2.1.33", `{"name": "p", "version": "2026.04.140"}`, ""},
		{"displayName refused on 2.1.33", "2.1.33", `{"name": "p", "displayName": "P"}`, compat.Rejected},
		{"displayName read past on 2.1.100", "2.1.100", `{"name": "p", "displayName": "P"}`, compat.Ignored},
		{"displayName known on 2.1.252", "2.1.252", `{"name": "p", "displayName": "P"}`, ""},
		{"name with a space", "2.1.330", `{"name": "my plugin"}`, compat.Rejected},
		{"no name", "2.1.330", `{"version": "1"}`, compat.Rejected},
		{"homepage not a url", "2.1.100", `{"name": "p", "homepage": "example"}`, compat.Rejected},
		{"version a number", "2.1.100", `{"name": "p", "version": 1}`, compat.Rejected},
		{"skills path without ./", "2.1.330", `{"name": "p", "skills": ["skills/a"]}`, compat.Rejected},
		{"hooks path not json", "2.1.33", `{"name": "p", "hooks": "./hooks/extra.js"}`, compat.Rejected},
		{"inline hooks object", "2.1.33", `{"name": "p", "hooks": {"Stop": []}}`, ""},
		{"inline hooks with an unknown event", "2.1.33", `{"name": "p", "hooks": {"NoSuch": []}}`, compat.Rejected},
		{"bidi in name 2.1.252", "2.1.252", "{\"name\": \"p\u202e\"}", compat.Rejected},
		{"bidi in name loads 2.1.100", "2.1.100", "{\"name\": \"p\u202e\"}", ""},
		{"guards under metadata are not searched on 2.1.330", "2.1.330", `{"name": "p", "metadata": {"PreToolUse": [{"hooks": []}]}}`, ""},
		{"guards under experimental refuse 2.1.330", "2.1.330", `{"name": "p", "experimental": {"x": {"PreToolUse": [{"hooks": []}]}}}`, compat.Rejected},
		{"guards at plugin.json top level refuse 2.1.330", "2.1.330", `{"name": "p", "PreToolUse": [{"hooks": []}]}`, compat.Rejected},
		{"engines excludes 2.1.330: a lint (--plugin-dir loads it)", "2.1.330", `{"name": "p", "engines": {"claude-code": ">=9.0.0"}}`, compat.Lint},
		{"engines includes 2.1.330", "2.1.330", `{"name": "p", "engines": {"claude-code": ">=2.1.320"}}`, ""},
		{"engines known on 2.1.330", "2.1.330", `{"name": "p", "engines": {"claude-code": ">=2.1.320"}}`, ""},
		{"defaultEnabled known on 2.1.252", "2.1.252", `{"name": "p", "defaultEnabled": false}`, ""},
		{"author a string refused on 2.1.257", "2.1.257", `{"name": "p", "author": "Me"}`, compat.Rejected},
		{"author a string dropped on 2.1.330", "2.1.330", `{"name": "p", "author": "Me"}`, compat.Ignored},
		{"version a number still refused on 2.1.330", "2.1.330", `{"name": "p", "version": 2}`, compat.Rejected},
		{"agents folder refused", "2.1.330", `{"name": "p", "agents": "./agents/"}`, compat.Rejected},
		{"agents file loads", "2.0.30", `{"name": "p", "agents": ["./agents/a.md"]}`, ""},
		{"skills dot loads on 2.1.252", "2.1.252", `{"name": "p", "skills": "."}`, ""},
		{"skills dot refused on 2.1.100", "2.1.100", `{"name": "p", "skills": "."}`, compat.Rejected},
		{"standard hooks file named again", "2.1.33", `{"name": "p", "hooks": "./hooks/hooks.json"}`, compat.Lint},
		{"standard hooks file twice on 2.0.30", "2.0.30", `{"name": "p", "hooks": ["./hooks/hooks.json"]}`, compat.Lint},
		{"defaultEnabled a string", "2.1.252", `{"name": "p", "defaultEnabled": "no"}`, compat.Rejected},
		{"mcpServers path without ./", "2.1.100", `{"name": "p", "mcpServers": "mcp.json"}`, compat.Rejected},
		{"mcpServers bundle url", "2.1.100", `{"name": "p", "mcpServers": "https://example.com/s.mcpb"}`, ""},
		{"lspServers not json", "2.1.330", `{"name": "p", "lspServers": "./lsp"}`, compat.Rejected},
		{"mcp env number", "2.1.33", `{"name": "p", "mcpServers": {"s": {"command": "x", "env": {"PORT": 8080}}}}`, compat.Rejected},
		{"mcp http", "2.1.33", `{"name": "p", "mcpServers": {"s": {"type": "http", "url": "https://e.com/mcp"}}}`, ""},
		{"mcp unknown type", "2.1.33", `{"name": "p", "mcpServers": {"s": {"type": "grpc", "url": "x"}}}`, compat.Rejected},
		{"mcpServers inline", "2.1.100", `{"name": "p", "mcpServers": {"s": {"command": "x"}}}`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fs, err := CheckPlugin(hooks.MustRelease(c.release), []byte(c.doc))
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := Worst(fs); got != c.want {
				t.Errorf("%s: worst = %q, want %q; findings:\n%v", c.release, got, c.want, fs)
			}
		})
	}
}

// A rejection sorts before a hundred lints, and every line is bounded and
// names no internals.
func TestRejectionFirstAndLinesBounded(t *testing.T) {
	var hs []string
	for i := 0; i < 100; i++ {
		hs = append(hs, `{"type": "command", "command": "x", "timeout": 9000}`)
	}
	doc := `{"hooks": {"Stop": [{"hooks": [` + strings.Join(hs, ",") + `]}], "NoSuchEvent": []}}`
	_, fs := worst(t, "2.1.33", doc)
	if len(fs) != 101 || fs[0].Consequence != compat.Rejected || !strings.Contains(fs[0].What, "NoSuchEvent") {
		t.Fatalf("first of %d findings = %v, want the unknown event's rejection", len(fs), fs[0])
	}
	for _, f := range fs {
		s := f.String()
		if len(s) > maxLine {
			t.Errorf("line of %d bytes: %s", len(s), s)
		}
		for _, bad := range []string{"compat/", "testdata", "fallback", "hookwright"} {
			if strings.Contains(s, bad) {
				t.Errorf("line names %q: %s", bad, s)
			}
		}
	}
}

// Merge spans the releases a finding holds on.
func TestMergeSpansReleases(t *testing.T) {
	var per [][]Finding
	for _, v := range []string{"2.0.30", "2.1.33", "2.1.100"} {
		_, fs := worst(t, v, `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "timeout": 5000}]}]}}`)
		per = append(per, fs)
	}
	got := Merge(per...)
	if len(got) != 1 || got[0].Releases() != compat.PluginFloor+" and later" && !strings.HasPrefix(got[0].Releases(), "up to") {
		t.Errorf("merged = %v", got)
	}
}

// Every rule row names a witness, and a rejected or dropped row names a
// probe or a live load.
func TestRulesHaveWitnesses(t *testing.T) {
	for _, r := range compat.Rules {
		if r.Witness == "" {
			t.Errorf("rule %s (%s from %s) has no witness", r.ID, r.Consequence, r.First)
		}
		if (r.Consequence == compat.Rejected || r.Consequence == compat.Dropped) &&
			!strings.Contains(r.Witness, "probe") && !strings.Contains(r.Witness, "seen") && !strings.Contains(r.Witness, "entry-invalid") {
			t.Errorf("rule %s is %s without a probe or a live load: %s", r.ID, r.Consequence, r.Witness)
		}
	}
}

// Hostile input never panics and is bounded.
func FuzzCheck(f *testing.F) {
	f.Add([]byte(fmt.Sprintf(httpVar, "PreToolUse")), "2.1.330")
	f.Add([]byte(`{"name": "p", "skills": 1, "PreToolUse": [{"PermissionRequest": [1]}]}`), "2.1.33")
	f.Add([]byte(`{"hooks": {"Stop": [{"matcher": 1, "hooks": [null, {"type": 5}]}]}}`), "2.0.30")
	f.Fuzz(func(t *testing.T, doc []byte, release string) {
		v, err := hooks.ParseRelease(release)
		if err != nil || v.Less(hooks.MustRelease(compat.PluginFloor)) {
			v = hooks.MustRelease("2.1.330")
		}
		for _, check := range []func(hooks.Release, []byte) ([]Finding, error){CheckHooks, CheckPlugin} {
			fs, err := check(v, doc)
			if err != nil {
				t.Fatal(err)
			}
			for _, x := range fs {
				if len(x.String()) > maxLine {
					t.Fatalf("unbounded line %q", x)
				}
			}
		}
	})
}

// judgeT judges a plugin on release v or fails t.
func judgeT(t *testing.T, v string, p Plugin) Verdict {
	t.Helper()
	vd, err := Judge(hooks.MustRelease(v), p)
	if err != nil {
		t.Fatal(err)
	}
	return vd
}

const (
	ssHooks  = `{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "a"}]}]}}`
	ssInline = `{"SessionStart": [{"hooks": [{"type": "command", "command": "i"}]}]}`
)

// The plugin-level verdicts, each as the band-edge releases showed it
// (testdata/loader.json holds every fixture; these name the rules).
func TestJudgeNamedShapes(t *testing.T) {
	files := map[string][]byte{"hooks/a.json": []byte(ssHooks), "hooks/bad.json": []byte(`{"hooks": {"NoSuchEvent": []}}`)}
	cases := []struct {
		name, release string
		p             Plugin
		outcome       string
		hooks         int
	}{
		{"a path loads beside hooks.json", "2.0.30", Plugin{Manifest: []byte(`{"name": "p", "hooks": "./hooks/a.json"}`), Hooks: []byte(ssHooks), Files: files}, "loads", 2},
		{"an inline object loads", "2.1.33", Plugin{Manifest: []byte(`{"name": "p", "hooks": ` + ssInline + `}`), Hooks: []byte(ssHooks)}, "loads", 2},
		{"a list of objects loads", "2.1.100", Plugin{Manifest: []byte(`{"name": "p", "hooks": [` + ssInline + `, ` + ssInline + `]}`)}, "loads", 2},
		{"a mix loads", "2.1.252", Plugin{Manifest: []byte(`{"name": "p", "hooks": ["./hooks/a.json", ` + ssInline + `]}`), Files: files}, "loads", 2},
		{"an invalid inline entry refuses the plugin up to 2.1.252", "2.1.252", Plugin{Manifest: []byte(`{"name": "p", "hooks": [{"SessionStart": [{"hooks": [{"type": "command", "command": 5}]}]}]}`), Hooks: []byte(ssHooks)}, "plugin refused", 0},
		{"an invalid inline entry is dropped on 2.1.330", "2.1.330", Plugin{Manifest: []byte(`{"name": "p", "hooks": [{"SessionStart": [{"hooks": [{"type": "command", "command": 5}]}]}]}`), Hooks: []byte(ssHooks)}, "1 dropped", 1},
		{"an invalid inline guard refuses 2.1.330", "2.1.330", Plugin{Manifest: []byte(`{"name": "p", "hooks": {"PreToolUse": [{"hooks": {}}]}}`), Hooks: []byte(ssHooks)}, "plugin refused", 0},
		{"the hooks.json form inline refuses 2.1.33", "2.1.33", Plugin{Manifest: []byte(`{"name": "p", "hooks": {"hooks": ` + ssInline + `}}`)}, "plugin refused", 0},
		{"hooks null refuses 2.1.330", "2.1.330", Plugin{Manifest: []byte(`{"name": "p", "hooks": null}`), Hooks: []byte(ssHooks)}, "plugin refused", 0},
		{"a refused named file leaves the rest", "2.1.100", Plugin{Manifest: []byte(`{"name": "p", "hooks": ["./hooks/bad.json", "./hooks/a.json"]}`), Hooks: []byte(ssHooks), Files: files}, "hooks file refused", 2},
		{"a named file for later releases is skipped, not a refusal", "2.0.30", Plugin{Manifest: []byte(`{"name": "p", "hooks": ["./hooks/a.json", "./hooks/teams.json"]}`), Files: map[string][]byte{"hooks/a.json": []byte(ssHooks), "hooks/teams.json": []byte(`{"hooks": {"TeammateIdle": [{"hooks": [{"type": "command", "command": "t"}]}]}}`)}}, "1 dropped", 1},
		{"the standard file with a later event is still refused", "2.0.30", Plugin{Hooks: []byte(`{"hooks": {"TeammateIdle": [{"hooks": [{"type": "command", "command": "t"}]}]}}`)}, "hooks file refused", 0},
		{"a missing named file leaves the rest", "2.1.33", Plugin{Manifest: []byte(`{"name": "p", "hooks": ["./hooks/missing.json", "./hooks/a.json"]}`), Files: files}, "1 dropped", 1},
		{"the same file twice runs twice on 2.0.30", "2.0.30", Plugin{Manifest: []byte(`{"name": "p", "hooks": ["./hooks/a.json", "./hooks/../hooks/a.json"]}`), Files: files}, "loads", 2},
		{"the same file twice loads once on 2.1.330", "2.1.330", Plugin{Manifest: []byte(`{"name": "p", "hooks": ["./hooks/a.json", "./hooks/a.json"]}`), Files: files}, "loads", 1},
		{"the standard file named runs twice on 2.0.30", "2.0.30", Plugin{Manifest: []byte(`{"name": "p", "hooks": "./hooks/hooks.json"}`), Hooks: []byte(ssHooks)}, "loads", 2},
		{"the standard file named loads once on 2.1.252", "2.1.252", Plugin{Manifest: []byte(`{"name": "p", "hooks": "./hooks/hooks.json"}`), Hooks: []byte(ssHooks)}, "loads", 1},
		{"hooks.json [] is refused, the named file loads", "2.1.330", Plugin{Manifest: []byte(`{"name": "p", "hooks": "./hooks/a.json"}`), Hooks: []byte(`[]`), Files: files}, "hooks file refused", 1},
		{"empty hooks load", "2.0.30", Plugin{Hooks: []byte(`{"hooks": {}}`)}, "loads", 0},
		{"every hook dropped counts as refused", "2.1.330", Plugin{Hooks: []byte(`{"hooks": {"NoSuchEvent": [{"hooks": [{"type": "command", "command": "x"}]}]}}`)}, "no hook runs", 0},
		{"prompt handlers only: none runs on 2.0.30", "2.0.30", Plugin{Hooks: []byte(`{"hooks": {"Stop": [{"hooks": [{"type": "prompt", "prompt": "ok?"}]}]}}`)}, "no hook runs", 0},
		{"a literal http url loads on 2.1.100", "2.1.100", Plugin{Hooks: []byte(`{"hooks": {"Stop": [{"hooks": [{"type": "http", "url": "http://127.0.0.1:9/h"}]}]}}`)}, "loads", 1},
		{"dependencies as an object refuses 2.1.330", "2.1.330", Plugin{Manifest: []byte(`{"name": "p", "dependencies": {"x": "1"}}`), Hooks: []byte(ssHooks)}, "plugin refused", 0},
		{"a guard in a named file refuses 2.1.330", "2.1.330", Plugin{Manifest: []byte(`{"name": "p", "hooks": "./hooks/g.json"}`), Files: map[string][]byte{"hooks/g.json": []byte(`{"hooks": {}, "PreToolUse": [{"hooks": [{"type": "command", "command": "x"}]}]}`)}}, "plugin refused", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			vd := judgeT(t, c.release, c.p)
			if vd.Outcome() != c.outcome || len(vd.Hooks) != c.hooks {
				t.Errorf("%s: %q with %d hooks, want %q with %d:\n%v", c.release, vd.Outcome(), len(vd.Hooks), c.outcome, c.hooks, vd.Findings)
			}
		})
	}
}

// Hooks declared in a marketplace entry, as the releases took them.
func TestJudgeMarketplaceEntry(t *testing.T) {
	std := []byte(`{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "s"}]}], "Stop": [{"hooks": [{"type": "command", "command": "t"}]}]}}`)
	entry := func(extra string) []byte { return []byte(`{"name": "p", "source": "./p"` + extra + `}`) }
	cases := []struct {
		name, release string
		p             Plugin
		outcome       string
		hooks         int
	}{
		{"without plugin.json the entry replaces hooks.json", "2.1.330", Plugin{Hooks: std, Entry: entry(`, "strict": false, "hooks": ` + ssInline)}, "1 dropped", 1},
		{"with plugin.json the entry replaces its events", "2.0.30", Plugin{Manifest: []byte(`{"name": "p"}`), Hooks: std, Entry: entry(`, "hooks": ` + ssInline)}, "1 dropped", 2},
		{"strict false beside plugin.json is a conflict", "2.1.252", Plugin{Manifest: []byte(`{"name": "p"}`), Hooks: std, Entry: entry(`, "strict": false, "hooks": ` + ssInline)}, "plugin refused", 0},
		{"a path in the entry loses every hook up to 2.1.197", "2.1.100", Plugin{Hooks: std, Entry: entry(`, "strict": false, "hooks": "./hooks/x.json"`)}, "no hook runs", 0},
		{"a path in the entry is ignored from 2.1.198", "2.1.252", Plugin{Hooks: std, Entry: entry(`, "strict": false, "hooks": "./hooks/x.json"`)}, "1 dropped", 2},
		{"an invalid entry refuses the marketplace up to 2.1.138", "2.1.100", Plugin{Hooks: std, Entry: entry(`, "strict": false, "hooks": {"NoSuchEvent": []}`)}, "marketplace refused", 0},
		{"an invalid entry refuses the plugin from 2.1.139", "2.1.330", Plugin{Hooks: std, Entry: entry(`, "strict": false, "hooks": {"Stop": [{"hooks": [{"type": "command"}]}]}`)}, "plugin refused", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			vd := judgeT(t, c.release, c.p)
			if vd.Outcome() != c.outcome || len(vd.Hooks) != c.hooks {
				t.Errorf("%s: %q with %d hooks, want %q with %d:\n%v", c.release, vd.Outcome(), len(vd.Hooks), c.outcome, c.hooks, vd.Findings)
			}
		})
	}
	vds, err := JudgeMarketplace(hooks.MustRelease("2.1.33"), []Plugin{{Name: "bad", Entry: entry(`, "hooks": 5`)}, {Name: "good", Hooks: std}})
	if err != nil || vds[1].Outcome() != "marketplace refused" || !strings.Contains(vds[1].Findings[0].What, `"bad"`) {
		t.Errorf("a good plugin beside a bad entry on 2.1.33: %v %v", vds, err)
	}
}

// HooksPaths lists the hooks files plugin.json names, as written.
func TestHooksPaths(t *testing.T) {
	got := HooksPaths([]byte(`{"name": "p", "hooks": ["./hooks/hooks.json", "./hooks/extra.json", {"Stop": []}, "./x.js"]}`))
	if len(got) != 2 || got[1] != "./hooks/extra.json" {
		t.Errorf("HooksPaths = %q", got)
	}
}

// Hostile plugins never panic, and every line stays bounded.
func FuzzJudge(f *testing.F) {
	f.Add([]byte(`{"name": "p", "hooks": ["./a.json", {"PreToolUse": [{"hooks": {}}]}, 5]}`), []byte(`[]`), []byte(`{"strict": false, "hooks": "./x.json"}`), "2.1.330")
	f.Add([]byte(`{"name": "p", "hooks": {"hooks": {}}}`), []byte(`{"hooks": {"Stop": null}}`), []byte(`{"hooks": [{"Stop": []}]}`), "2.0.30")
	f.Fuzz(func(t *testing.T, manifest, hooksDoc, entry []byte, release string) {
		v, err := hooks.ParseRelease(release)
		if err != nil || v.Less(hooks.MustRelease(compat.PluginFloor)) {
			v = hooks.MustRelease("2.1.100")
		}
		vd, err := Judge(v, Plugin{Manifest: manifest, Hooks: hooksDoc, Entry: entry, Files: map[string][]byte{"a.json": hooksDoc}})
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range vd.Findings {
			if len(x.String()) > maxLine {
				t.Fatalf("unbounded line %q", x)
			}
		}
		_ = vd.Outcome()
	})
}
