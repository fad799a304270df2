package schemas

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/compat"
)

var update = flag.Bool("update", false, "rewrite the embedded schemas from the compat matrix")

// TestEmbeddedSchemasAreCurrent proves the embedded files are exactly what
// the matrix generates, one per band and no others.
func TestEmbeddedSchemasAreCurrent(t *testing.T) {
	want := map[string]bool{}
	for _, band := range compat.Bands() {
		name := FileName(band)
		want[name] = true
		b, err := Build(band)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("bands", name)
		if *update {
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(got, b) {
			t.Errorf("%s is stale or missing (run go test ./schemas -update)", path)
		}
	}
	entries, _ := os.ReadDir("bands")
	for _, e := range entries {
		if want[e.Name()] {
			continue
		}
		if *update {
			os.Remove(filepath.Join("bands", e.Name()))
			continue
		}
		t.Errorf("bands/%s belongs to no band (run go test ./schemas -update)", e.Name())
	}
}

// doc builds a one-event hooks.json around a handler.
func doc(event, handler string) []byte {
	return []byte(fmt.Sprintf(`{"description":"t","hooks":{%q:[{"hooks":[%s]}]}}`, event, handler))
}

const okHandler = `{"type":"command","command":"true"}`

// TestSchemasAgreeWithMatrix checks, band by band, that the schema accepts
// exactly the events, handler types and handler fields the matrix says the
// band has.
func TestSchemasAgreeWithMatrix(t *testing.T) {
	for _, band := range compat.Bands() {
		for _, ev := range compat.All(compat.KindEvent) {
			want := compat.Has(compat.KindEvent, ev.Name, band)
			check(t, band.String(), "event "+ev.Name, doc(ev.Name, okHandler), want)
		}
		for _, ty := range compat.All(compat.KindHandlerType) {
			extra := map[string]string{"command": `"command":"true"`, "prompt": `"prompt":"p"`, "agent": `"prompt":"p"`, "http": `"url":"http://x"`}[ty.Name]
			h := fmt.Sprintf(`{"type":%q,%s}`, ty.Name, extra)
			if extra == "" {
				h = fmt.Sprintf(`{"type":%q}`, ty.Name)
			}
			check(t, band.String(), "handler type "+ty.Name, doc("Stop", h),
				compat.Has(compat.KindHandlerType, ty.Name, band))
		}
		for _, f := range compat.All(compat.KindField) {
			if f.Scope != compat.ScopeHandler || (len(f.Types) > 0 && f.Types[0] != "command") {
				continue
			}
			check(t, band.String(), "command field "+f.Name, doc("Stop", commandWith(f.Name)),
				!band.Less(f.Version()))
		}
		check(t, band.String(), "unknown event", doc("NoSuchEvent", okHandler), false)
	}
}

// commandWith is a valid command handler carrying field name.
func commandWith(name string) string {
	val := map[string]string{"timeout": "10", "once": "true", "async": "true", "asyncRewake": "true", "shell": `"bash"`, "args": `["a"]`, "holdsTools": "true", "cloud": `"device"`, "onFailure": `"block"`}[name]
	if val == "" {
		val = `"x"`
	}
	if name == "type" || name == "command" {
		return okHandler
	}
	return fmt.Sprintf(`{"type":"command","command":"true",%q:%s}`, name, val)
}

func check(t *testing.T, band, what string, d []byte, wantOK bool) {
	t.Helper()
	vs, err := Validate(mustVersion(t, band), d)
	if err != nil {
		t.Fatalf("band %s: %v", band, err)
	}
	if got := len(vs) == 0; got != wantOK {
		t.Errorf("band %s, %s: accepted = %v, want %v (%v)", band, what, got, wantOK, vs)
	}
}

func TestBadManifests(t *testing.T) {
	cases := []struct {
		name, version, doc string
		pointer, message   string // expected in some violation
	}{
		{"unknown event for the band", "2.1.32", `{"hooks":{"TeammateIdle":[{"hooks":[{"type":"command","command":"x"}]}]}}`,
			"/hooks/TeammateIdle", "arrives in Claude Code 2.1.33"},
		{"unknown event anywhere", "2.1.330", `{"hooks":{"Teammateidle":[{"hooks":[{"type":"command","command":"x"}]}]}}`,
			"/hooks/Teammateidle", `unknown event "Teammateidle"`},
		{"unknown event up to 2.1.252", "2.1.252", `{"hooks":{"Bogus":[{"hooks":[{"type":"command","command":"x"}]}]}}`,
			"/hooks/Bogus", "this release rejects the whole hooks.json over it"},
		{"unknown top-level key", "2.1.33", `{"hooks":{},"version":"1"}`, "/version", `unknown top-level key "version"`},
		{"millisecond timeout", "2.1.33", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x","timeout":5000}]}]}}`,
			"/hooks/Stop/0/hooks/0/timeout", "5000 looks like milliseconds"},
		{"fractional timeout", "2.1.33", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x","timeout":1.5}]}]}}`,
			"/hooks/Stop/0/hooks/0/timeout", "whole number of seconds"},
		{"zero timeout", "2.1.33", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x","timeout":0}]}]}}`,
			"/hooks/Stop/0/hooks/0/timeout", "at least 1"},
		{"array command", "2.1.33", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":["node","x.js"]}]}]}}`,
			"/hooks/Stop/0/hooks/0/command", "one shell string"},
		{"matcher on Stop", "2.1.33", `{"hooks":{"Stop":[{"matcher":"Bash","hooks":[{"type":"command","command":"x"}]}]}}`,
			"/hooks/Stop/0/matcher", "takes no matcher"},
		{"args before 2.1.139", "2.1.138", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x","args":["a"]}]}]}}`,
			"/hooks/Stop/0/hooks/0/args", "silently dropped"},
		{"if before 2.1.85", "2.1.84", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x","if":"Bash(git *)"}]}]}}`,
			"/hooks/Stop/0/hooks/0/if", "arrives in Claude Code 2.1.85"},
		{"http handler too early", "2.1.69", `{"hooks":{"Stop":[{"hooks":[{"type":"http","url":"http://x"}]}]}}`,
			"/hooks/Stop/0/hooks/0/type", "http arrives in 2.1.84"},
		{"missing command", "2.1.33", `{"hooks":{"Stop":[{"hooks":[{"type":"command"}]}]}}`,
			"/hooks/Stop/0/hooks/0", `needs "command"`},
		{"unknown handler key", "2.1.33", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x","cmd":"y"}]}]}}`,
			"/hooks/Stop/0/hooks/0/cmd", `unknown key "cmd"`},
		{"hooks missing", "2.1.33", `{"description":"x"}`, "", `missing properties`},
		{"not JSON", "2.1.33", `{"hooks":`, "", "not valid JSON"},
		{"data after the object", "2.1.33", `{"hooks":{}} garbage`, "", "not valid JSON: data after the top-level value"},
		{"two objects", "2.1.33", `{"hooks":{}} {}`, "", "not valid JSON: data after the top-level value"},
	}
	// What the releases load and ignore is a warning; the rest is an error.
	warnings := map[string]bool{"unknown event anywhere": true, "unknown top-level key": true,
		"matcher on Stop": true, "if before 2.1.85": true, "unknown handler key": true}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			vs, err := Validate(mustVersion(t, c.version), []byte(c.doc))
			if err != nil {
				t.Fatal(err)
			}
			want := Error
			if warnings[c.name] {
				want = Warning
			}
			for _, v := range vs {
				if v.Pointer == c.pointer && strings.Contains(v.Message, c.message) {
					if v.Severity != want {
						t.Errorf("%s: severity %s, want %s", v, v.Severity, want)
					}
					return
				}
			}
			t.Errorf("want a violation %s containing %q; got %v", c.pointer, c.message, vs)
		})
	}
}

// TestSchemaKeyLoadsEverywhere: a top-level $schema loaded on every release
// seen (compat/FACTS.md), so no band reports it.
func TestSchemaKeyLoadsEverywhere(t *testing.T) {
	for _, band := range compat.Bands() {
		vs, err := Validate(band, []byte(`{"$schema":"https://json.schemastore.org/claude-code-hooks.json","hooks":{}}`))
		if err != nil || len(vs) > 0 {
			t.Errorf("band %s: %v %v", band, vs, err)
		}
	}
}

// TestEveryErrorNamesItsWitness: every error the schemas can give for a
// whole-file rejection names the release and run that showed it.
func TestEveryErrorNamesItsWitness(t *testing.T) {
	for _, band := range compat.Bands() {
		vs, err := Validate(band, []byte(`{"hooks":{"Bogus":[{"hooks":[{"type":"command","command":"x"}]}],"DirectoryAdded":[{"hooks":[{"type":"command","command":"x"}]}]}}`))
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range vs {
			if v.Severity == Error && !strings.Contains(v.Message, "seen") && !strings.Contains(v.Message, "probe") {
				t.Errorf("band %s: %s names no witness", band, v)
			}
		}
	}
}

func TestValidateReportsEveryViolation(t *testing.T) {
	d := `{"$schema":"x","hooks":{"TaskCompleted":[{"hooks":[{"type":"command","command":"x","timeout":30000}]}],"Stop":[{"matcher":"*","hooks":[{"type":"command","command":["a"]}]}]}}`
	vs, err := Validate(mustVersion(t, "2.1.32"), []byte(d))
	if err != nil {
		t.Fatal(err)
	}
	var ptrs []string
	for _, v := range vs {
		ptrs = append(ptrs, v.Pointer)
	}
	want := "/hooks/Stop/0/hooks/0/command /hooks/Stop/0/matcher /hooks/TaskCompleted"
	if got := strings.Join(ptrs, " "); got != want {
		t.Errorf("pointers = %s\nwant       %s\n%v", got, want, vs)
	}
}

// TestEveryTypesKeysOnTheNewestBand: on the newest band each handler type
// takes each of its matrix keys with a value of the type 2.1.330's schema
// gives it (compat/FACTS.md), and a value of the wrong type is refused.
func TestEveryTypesKeysOnTheNewestBand(t *testing.T) {
	bands := compat.Bands()
	newest := bands[len(bands)-1].String()
	base := map[string]string{"command": `"command":"true"`, "prompt": `"prompt":"p"`, "agent": `"prompt":"p"`,
		"http": `"url":"http://127.0.0.1:1/h"`, "mcp_tool": `"server":"s","tool":"t"`}
	good := map[string]string{"model": `"m"`, "headers": `{"X-A":"v"}`, "allowedEnvVars": `["TOKEN"]`, "input": `{"a":1}`,
		"continueOnBlock": "true", "holdsTools": "true", "cloud": `"device"`, "onFailure": `"block"`, "rewakeMessage": `"m"`,
		"rewakeSummary": `"s"`, "server": `"s"`, "tool": `"t"`, "url": `"http://127.0.0.1:1/h"`, "prompt": `"p"`, "command": `"true"`,
		"timeout": "10", "once": "true", "async": "true", "asyncRewake": "true", "shell": `"bash"`, "args": `["a"]`,
		"statusMessage": `"s"`, "if": `"Bash(git *)"`}
	bad := map[string]string{"headers": `["x"]`, "allowedEnvVars": `"TOKEN"`, "input": `[1]`, "continueOnBlock": `"yes"`, "holdsTools": `1`}
	for _, f := range compat.All(compat.KindField) {
		if f.Scope != compat.ScopeHandler || f.Name == "type" {
			continue
		}
		types := f.Types
		if len(types) == 0 {
			types = []string{"command", "prompt", "agent", "http", "mcp_tool"}
		}
		for _, ty := range types {
			v, ok := good[f.Name]
			if !ok {
				t.Fatalf("no valid value for handler key %q: add one", f.Name)
			}
			h := fmt.Sprintf(`{"type":%q,%s,%q:%s}`, ty, base[ty], f.Name, v)
			check(t, newest, ty+" handler with "+f.Name, doc("Stop", h), true)
			if b, ok := bad[f.Name]; ok {
				h := fmt.Sprintf(`{"type":%q,%s,%q:%s}`, ty, base[ty], f.Name, b)
				check(t, newest, ty+" handler with a bad "+f.Name, doc("Stop", h), false)
			}
		}
	}
}
