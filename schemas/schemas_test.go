package schemas

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/internal/oracle"
)

var update = flag.Bool("update", false, "rewrite the embedded schemas from the compat matrix")

// TestEmbeddedSchemasAreCurrent proves the embedded files are exactly what
// the matrix generates, one per band and no others.
func TestEmbeddedSchemasAreCurrent(t *testing.T) {
	want := map[string]bool{}
	for _, band := range compat.Edges() {
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

// TestSchemasAgreeWithTheOracle checks, edge by edge, that each schema
// gives the oracle's verdict (hookgen validate's, package oracle) on
// documents built from the tables: every event, handler type and handler
// key, values of each kind, top-level and nested keys, timeouts and the
// recorded URLs: an error exactly where the oracle rejects the file or
// drops a hook, a warning exactly where it reads a key past or lints.
func TestSchemasAgreeWithTheOracle(t *testing.T) {
	docs := map[string][]byte{
		"unknown event":         doc("NoSuchEvent", okHandler),
		"top-level Stop":        []byte(`{"hooks":{},"Stop":[{"hooks":[` + okHandler + `]}]}`),
		"top-level guard":       []byte(`{"hooks":{},"PreToolUse":[{"hooks":[` + okHandler + `]}]}`),
		"empty top-level guard": []byte(`{"hooks":{},"PreToolUse":[]}`),
		"guard nested in a key": []byte(`{"hooks":{},"x":{"y":{"PermissionRequest":[{"hooks":[]}]}}}`),
		"guard too deep":        []byte(`{"hooks":{},"x":{"y":{"z":{"PreToolUse":[1]}}}}`),
		"guard under env":       []byte(`{"hooks":{},"env":{"PreToolUse":[1]}}`),
		"guard in a list":       []byte(`{"hooks":{},"x":[{"PreToolUse":{}}]}`),
		"surface":               []byte(`{"hooks":{},"surface":"x"}`),
		"one module":            []byte(`{"modules":["./m.js"]}`),
		"two modules":           []byte(`{"hooks":{},"modules":["./a.js","./b.js"]}`),
		"no hooks":              []byte(`{"description":"d"}`),
		"null event":            []byte(`{"hooks":{"Stop":null}}`),
		"null guard":            []byte(`{"hooks":{"PreToolUse":null}}`),
		"group not a list":      []byte(`{"hooks":{"Stop":[{"hooks":{}}]}}`),
		"matcher on Stop":       []byte(`{"hooks":{"Stop":[{"matcher":"Bash","hooks":[` + okHandler + `]}]}}`),
		"star on Stop":          []byte(`{"hooks":{"Stop":[{"matcher":"*","hooks":[` + okHandler + `]}]}}`),
		"matcher number":        []byte(`{"hooks":{"PreToolUse":[{"matcher":1,"hooks":[` + okHandler + `]}]}}`),
		"group key":             []byte(`{"hooks":{"Stop":[{"id":"x","hooks":[` + okHandler + `]}]}}`),
		"empty group":           []byte(`{"hooks":{"Stop":[{"hooks":[]}]}}`),
		"empty command":         doc("Stop", `{"type":"command","command":" "}`),
		"no type":               doc("Stop", `{"command":"x"}`),
		"unknown type":          doc("Stop", `{"type":"script","command":"x"}`),
		"schema key":            []byte(`{"$schema":5,"hooks":{}}`),
		"description number":    []byte(`{"description":1,"hooks":{}}`),
	}
	for _, timeout := range []string{"0", "-1", "0.5", "1.5", "30", "3600", "3601", "5000", `"30"`} {
		docs["timeout "+timeout] = doc("Stop", `{"type":"command","command":"x","timeout":`+timeout+`}`)
	}
	urls, _ := os.ReadFile(filepath.Join("..", "compat", "testdata", "urls.json"))
	var u struct{ URLs map[string]bool }
	if err := json.Unmarshal(urls, &u); err != nil {
		t.Fatal(err)
	}
	for url := range u.URLs {
		b, _ := json.Marshal(url)
		docs["url "+url] = doc("Stop", `{"type":"http","url":`+string(b)+`}`)
	}
	for _, ev := range compat.All(compat.KindEvent) {
		docs["event "+ev.Name] = doc(ev.Name, okHandler)
		if slices.Contains(compat.GuardEvents, ev.Name) {
			docs["bad guard "+ev.Name] = []byte(`{"hooks":{"` + ev.Name + `":[{"hooks":{}}]}}`)
		}
	}
	base := map[string]string{"command": `"command":"true"`, "prompt": `"prompt":"p"`, "agent": `"prompt":"p"`,
		"http": `"url":"http://127.0.0.1:1/h"`, "mcp_tool": `"server":"s","tool":"t"`}
	for ty, b := range base {
		docs["type "+ty] = doc("Stop", fmt.Sprintf(`{"type":%q,%s}`, ty, b))
		docs["type "+ty+" alone"] = doc("Stop", fmt.Sprintf(`{"type":%q}`, ty))
		for _, f := range compat.All(compat.KindField) {
			if f.Scope != compat.ScopeHandler || f.Name == "type" || len(f.Types) > 0 && !slices.Contains(f.Types, ty) {
				continue
			}
			if strings.Contains(b, `"`+f.Name+`"`) {
				docs[ty+" with a bad "+f.Name] = doc("Stop", strings.Replace(fmt.Sprintf(`{"type":%q,%s}`, ty, b), `"`+f.Name+`":`, `"`+f.Name+`":`+badValue(f.Name)+`,"x-`+f.Name+`":`, 1))
				continue
			}
			docs[ty+" with "+f.Name] = doc("Stop", fmt.Sprintf(`{"type":%q,%s,%q:%s}`, ty, b, f.Name, goodValue[f.Name]))
			docs[ty+" with a bad "+f.Name] = doc("Stop", fmt.Sprintf(`{"type":%q,%s,%q:%s}`, ty, b, f.Name, badValue(f.Name)))
		}
	}
	for _, edge := range compat.Edges() {
		for name, d := range docs {
			fs, err := oracle.CheckHooks(edge, d)
			if err != nil {
				t.Fatal(err)
			}
			vs, err := Validate(edge, d)
			if err != nil {
				t.Fatal(err)
			}
			errs, warns := len(Errors(vs)) > 0, len(vs) > len(Errors(vs))
			oErrs := oracle.Count(fs, compat.Rejected)+oracle.Count(fs, compat.Dropped) > 0
			oWarns := oracle.Count(fs, compat.Ignored)+oracle.Count(fs, compat.Lint) > 0
			if errs != oErrs || warns != oWarns {
				t.Errorf("%s, %s: the schema gives errors %v, warnings %v %v; the oracle %v, %v %v", edge, name, errs, warns, vs, oErrs, oWarns, fs)
			}
		}
	}
}

// goodValue is a value of each handler key that its kind takes.
var goodValue = map[string]string{"model": `"m"`, "headers": `{"X-A":"v"}`, "allowedEnvVars": `["TOKEN"]`, "input": `{"a":1}`,
	"continueOnBlock": "true", "holdsTools": "true", "cloud": `"device"`, "onFailure": `"block"`, "rewakeMessage": `"m"`,
	"rewakeSummary": `"s"`, "server": `"s"`, "tool": `"t"`, "url": `"http://127.0.0.1:1/h"`, "prompt": `"p"`, "command": `"true"`,
	"timeout": "10", "once": "true", "async": "true", "asyncRewake": "true", "shell": `"bash"`, "args": `["a"]`,
	"statusMessage": `"s"`, "if": `"Bash(git *)"`}

// badValue is a value of a handler key that its kind refuses (or, for a
// key that takes anything, another value it takes).
func badValue(k string) string {
	switch compat.HandlerValue(k) {
	case compat.ValueString, compat.ValueNonEmptyString, compat.ValueURL:
		return "1"
	case compat.ValuePositiveNumber:
		return "0"
	case compat.ValueBool, compat.ValueShell, compat.ValueStringMap, compat.ValueObject, compat.ValueStringList:
		return `"x"`
	}
	return "null"
}

// check validates d against release band's schema and wants it accepted
// (no violation at all) or not.
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
			"/hooks/Teammateidle", `unknown event "Teammateidle" (event names are case-sensitive): the release drops it`},
		{"unknown event up to 2.1.252", "2.1.252", `{"hooks":{"Bogus":[{"hooks":[{"type":"command","command":"x"}]}]}}`,
			"/hooks/Bogus", "the release refuses the whole hooks.json"},
		{"unknown top-level key", "2.1.33", `{"hooks":{},"version":"1"}`, "/version", `unknown top-level key "version"`},
		{"millisecond timeout", "2.1.33", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x","timeout":5000}]}]}}`,
			"/hooks/Stop/0/hooks/0/timeout", "5000 is over an hour and looks like milliseconds"},
		{"string timeout", "2.1.33", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x","timeout":"30"}]}]}}`,
			"/hooks/Stop/0/hooks/0/timeout", "number of seconds"},
		{"zero timeout", "2.1.33", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x","timeout":0}]}]}}`,
			"/hooks/Stop/0/hooks/0/timeout", "above 0 seconds"},
		{"array command", "2.1.33", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":["node","x.js"]}]}]}}`,
			"/hooks/Stop/0/hooks/0/command", "one shell string"},
		{"matcher on Stop", "2.1.33", `{"hooks":{"Stop":[{"matcher":"Bash","hooks":[{"type":"command","command":"x"}]}]}}`,
			"/hooks/Stop/0/matcher", "takes no matcher"},
		{"args before 2.1.139", "2.1.138", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x","args":["a"]}]}]}}`,
			"/hooks/Stop/0/hooks/0/args", "run the command without its arguments"},
		{"if before 2.1.85", "2.1.84", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x","if":"Bash(git *)"}]}]}}`,
			"/hooks/Stop/0/hooks/0/if", "arrives in Claude Code 2.1.85"},
		{"http handler unproven", "2.1.69", `{"hooks":{"Stop":[{"hooks":[{"type":"http","url":"http://x"}]}]}}`,
			"/hooks/Stop/0/hooks/0/type", "not seen running before 2.1.84"},
		{"http handler too early", "2.1.47", `{"hooks":{"Stop":[{"hooks":[{"type":"http","url":"http://x"}]}]}}`,
			"/hooks/Stop/0/hooks/0/type", "http arrives in 2.1.48"},
		{"unexpanded url", "2.1.100", `{"hooks":{"Stop":[{"hooks":[{"type":"http","url":"${HOOK_URL}"}]}]}}`,
			"/hooks/Stop/0/hooks/0/url", "is not a URL"},
		{"missing command", "2.1.33", `{"hooks":{"Stop":[{"hooks":[{"type":"command"}]}]}}`,
			"/hooks/Stop/0/hooks/0", `needs command`},
		{"unknown handler key", "2.1.33", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x","cmd":"y"}]}]}}`,
			"/hooks/Stop/0/hooks/0/cmd", `unknown key "cmd"`},
		{"hooks missing", "2.1.33", `{"description":"x"}`, "", `"hooks" is missing`},
		{"not JSON", "2.1.33", `{"hooks":`, "", "not valid JSON"},
		{"data after the object", "2.1.33", `{"hooks":{}} garbage`, "", "not valid JSON: data after the top-level value"},
		{"two objects", "2.1.33", `{"hooks":{}} {}`, "", "not valid JSON: data after the top-level value"},
	}
	// What the releases load and ignore is a warning; the rest is an error.
	warnings := map[string]bool{"unknown top-level key": true, "millisecond timeout": true, "http handler unproven": true,
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
	for _, band := range compat.Edges() {
		vs, err := Validate(band, []byte(`{"$schema":"https://json.schemastore.org/claude-code-hooks.json","hooks":{}}`))
		if err != nil || len(vs) > 0 {
			t.Errorf("band %s: %v %v", band, vs, err)
		}
	}
}

// TestEveryErrorNamesItsWitness: every error the schemas can give for a
// whole-file rejection names the release and run that showed it.
func TestEveryErrorNamesItsWitness(t *testing.T) {
	for _, band := range compat.Edges() {
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
	want := "/hooks/Stop/0/hooks/0/command /hooks/TaskCompleted"
	if got := strings.Join(ptrs, " "); got != want {
		t.Errorf("pointers = %s\nwant       %s\n%v", got, want, vs)
	}
}

// TestEveryTypesKeysOnTheNewestBand: on the newest band each handler type
// takes each of its matrix keys with a value of the type 2.1.330's schema
// gives it (compat/FACTS.md), and a value of the wrong type is refused.
func TestEveryTypesKeysOnTheNewestBand(t *testing.T) {
	edges := compat.Edges()
	newest := edges[len(edges)-1].String()
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
