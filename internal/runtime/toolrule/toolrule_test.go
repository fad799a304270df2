package toolrule

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in       string
		tool     string
		spec     string
		kind     specKind
		hasError bool
	}{
		{"WebSearch", "WebSearch", "", specNone, false},
		{"mcp__github__*", "mcp__github__*", "", specNone, false},
		{" Task ", "Task", "", specNone, false},
		{"WebFetch(domain:*.Example.com)", "WebFetch", "*.example.com", specDomain, false},
		{"Bash(npm run test:*)", "Bash", "npm run test", specPrefix, false},
		{"Bash(npm run build)", "Bash", "npm run build", specCommand, false},
		{"Read(~/.aws/**)", "Read", "~/.aws/**", specPath, false},
		{"Edit(/src/**/*.ts)", "Edit", "/src/**/*.ts", specPath, false},
		{"Task(Explore)", "Task", "Explore", specAgent, false},
		{"", "", "", 0, true},
		{"Bash(", "", "", 0, true},
		{"Bash()", "", "", 0, true},
		{"Bash(:*)", "", "", 0, true},
		{"(x)", "", "", 0, true},
		{"Web Fetch", "", "", 0, true},
		{"WebFetch(example.com)", "", "", 0, true},
		{"WebFetch(domain:a.com/x)", "", "", 0, true},
		{"WebSearch(cats)", "", "", 0, true},
		{"mcp__github__get(x)", "", "", 0, true},
		{"Read(**/a/**/b/**/c/**/d/**)", "", "", 0, true},
	}
	for _, tt := range tests {
		r, err := Parse(tt.in)
		if (err != nil) != tt.hasError {
			t.Errorf("Parse(%q) error = %v, want error %v", tt.in, err, tt.hasError)
			continue
		}
		if err != nil {
			continue
		}
		if r.Tool != tt.tool || r.Spec != tt.spec || r.kind != tt.kind {
			t.Errorf("Parse(%q) = %q %q %d, want %q %q %d", tt.in, r.Tool, r.Spec, r.kind, tt.tool, tt.spec, tt.kind)
		}
	}
}

func fields(t *testing.T, kv ...string) map[string]json.RawMessage {
	t.Helper()
	m := map[string]json.RawMessage{}
	for i := 0; i+1 < len(kv); i += 2 {
		b, _ := json.Marshal(kv[i+1])
		m[kv[i]] = b
	}
	return m
}

func TestMatch(t *testing.T) {
	base := Call{Home: "/home/u", Project: "/p", Cwd: "/p/sub"}
	call := func(tool string, cmds []string, kv ...string) *Call {
		c := base
		c.Tool, c.Fields, c.Commands = tool, fields(t, kv...), cmds
		return &c
	}
	tests := []struct {
		rule string
		call *Call
		want Match
	}{
		{"WebFetch(domain:*.example.com)", call("WebFetch", nil, "url", "https://api.example.com/x"), Yes},
		{"WebFetch(domain:*.example.com)", call("WebFetch", nil, "url", "https://API.Example.COM./x"), Yes},
		{"WebFetch(domain:*.example.com)", call("WebFetch", nil, "url", "https://example.com/x"), No},
		{"WebFetch(domain:*.example.com)", call("WebFetch", nil, "url", "https://evilexample.com/"), No},
		{"WebFetch(domain:*.example.com)", call("WebFetch", nil, "url", "https://example.com.evil.org/"), No},
		{"WebFetch(domain:example.com)", call("WebFetch", nil, "url", "https://example.com:8443/a"), Yes},
		{"WebFetch(domain:example.com)", call("WebFetch", nil, "url", "::not a url"), Unsure},
		{"WebFetch(domain:example.com)", call("WebFetch", nil), Unsure},
		{"WebFetch(domain:example.com)", call("WebSearch", nil, "url", "https://example.com"), No},
		{"WebFetch", call("WebFetch", nil, "url", "https://anything.org"), Yes},
		{"WebSearch", call("WebSearch", nil, "query", "x"), Yes},
		{"mcp__github__*", call("mcp__github__create_issue", nil), Yes},
		{"mcp__github__*", call("mcp__gitlab__create_issue", nil), No},
		{"mcp__github", call("mcp__github__create_issue", nil), Yes},
		{"mcp__github", call("mcp__githubx__create_issue", nil), No},
		{"mcp__*__delete_*", call("mcp__db__delete_row", nil), Yes},
		{"Task", call("Agent", nil), Yes},
		{"Task(Explore)", call("Task", nil, "subagent_type", "Explore"), Yes},
		{"Task(Explore)", call("Task", nil, "subagent_type", "general-purpose"), No},
		{"Bash(npm run test:*)", call("Bash", []string{"npm run test -- -u"}, "command", "npm run test -- -u"), Yes},
		{"Bash(npm run test:*)", call("Bash", []string{"npm run test", "rm -rf x"}, "command", "npm run test && rm -rf x"), Unsure},
		{"Bash(npm run test:*)", call("Bash", []string{"npm run build"}, "command", "npm run build"), No},
		{"Bash(git push *)", call("Bash", []string{"git push origin main"}, "command", "git push origin main"), Yes},
		{"Bash(ls)", call("Bash", []string{"ls"}, "command", "ls"), Yes},
		{"Bash(ls)", call("Bash", []string{"ls -la"}, "command", "ls -la"), No},
		{"Read(~/.aws/**)", call("Read", nil, "file_path", "/home/u/.aws/credentials"), Yes},
		{"Read(~/.aws/**)", call("Read", nil, "file_path", "~/.aws/config"), Yes},
		{"Read(~/.aws/**)", call("Grep", nil, "path", "/home/u/.aws"), Yes},
		{"Read(*.env)", call("Read", nil, "file_path", "deep/x/.env"), Yes}, // gitignore: * matches the empty name
		{"Read(*.env)", call("Read", nil, "file_path", "deep/x/env"), No},
		{"Read(*.env)", call("Read", nil, "file_path", "deep/x/prod.env"), Yes},
		{"Read(*.env)", call("Read", nil, "file_path", "/p/prod.env"), No}, // outside cwd /p/sub
		{"Edit(/src/**/*.ts)", call("Write", nil, "file_path", "/p/src/a/b.ts"), Yes},
		{"Edit(/src/**/*.ts)", call("MultiEdit", nil, "file_path", "../src/b.ts"), Yes},
		{"Edit(/src/**/*.ts)", call("Edit", nil, "file_path", "/p/lib/b.ts"), No},
		{"Edit(/src)", call("Edit", nil, "file_path", "/p/src/x/y.go"), Yes},
		{"Write(//etc/**)", call("Write", nil, "file_path", "/etc/passwd"), Yes},
		{"Write(//etc/**)", call("Edit", nil, "file_path", "/etc/passwd"), No},
		{"Read(~/.aws/**)", call("Read", nil, "file_path", ""), Unsure},
	}
	for _, tt := range tests {
		r, err := Parse(tt.rule)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.rule, err)
		}
		if got := r.Match(tt.call); got != tt.want {
			t.Errorf("%s on %s %s: got %d, want %d", tt.rule, tt.call.Tool, tt.call.Fields, got, tt.want)
		}
	}
}

func TestAtLeastAsStrict(t *testing.T) {
	user := map[string]string{"WebFetch(domain:*.example.com)": "deny", "WebSearch": "ask", "Task": "allow"}
	tests := []struct {
		name    string
		project map[string]string
		ok      bool
		loose   []string
	}{
		{"same", user, true, nil},
		{"adds a deny", map[string]string{"WebFetch(domain:*.example.com)": "deny", "WebSearch": "deny", "Task": "allow", "mcp__github__*": "ask"}, true, nil},
		{"raises an allow", map[string]string{"WebFetch(domain:*.example.com)": "deny", "WebSearch": "ask", "Task": "ask"}, true, nil},
		{"drops an allow", map[string]string{"WebFetch(domain:*.example.com)": "deny", "WebSearch": "ask"}, true, nil},
		{"drops a deny", map[string]string{"WebSearch": "ask", "Task": "allow"}, false, []string{"WebFetch(domain:*.example.com)"}},
		{"lowers an ask", map[string]string{"WebFetch(domain:*.example.com)": "deny", "WebSearch": "allow", "Task": "allow"}, false, []string{"WebSearch"}},
		{"adds an allow", map[string]string{"WebFetch(domain:*.example.com)": "deny", "WebSearch": "ask", "Task": "allow", "Bash": "allow"}, false, []string{"Bash"}},
		{"space in a key", map[string]string{" WebFetch(domain:*.example.com) ": "deny", "WebSearch": "ask"}, true, nil},
	}
	for _, tt := range tests {
		ok, loose := AtLeastAsStrict(tt.project, user)
		if ok != tt.ok || !reflect.DeepEqual(loose, tt.loose) {
			t.Errorf("%s: AtLeastAsStrict = %v %q, want %v %q", tt.name, ok, loose, tt.ok, tt.loose)
		}
	}
	if ok, _ := AtLeastAsStrict(nil, nil); !ok {
		t.Error("two empty maps: not as strict")
	}
}

// FuzzParse: Parse never panics, and a rule it reads matches a call
// without panicking, whatever the input.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"WebFetch(domain:*.example.com)", "Bash(npm run test:*)", "Read(~/.aws/**)", "Edit(//etc/**/*)", "mcp__github__*", "Task(Explore)", "Bash(*)", "Read(**/**/**)", "(", "Bash(a(b))"} {
		f.Add(s, "https://a.example.com/x", "/p/sub/../.aws/x")
	}
	f.Fuzz(func(t *testing.T, rule, u, p string) {
		r, err := Parse(rule)
		if err != nil {
			return
		}
		if r.Tool == "" {
			t.Fatalf("Parse(%q) read no tool name", rule)
		}
		for _, tool := range []string{r.Tool, "WebFetch", "Bash", "Read", "Edit", "Task", "mcp__x__y"} {
			c := &Call{Tool: tool, Fields: fields(t, "url", u, "file_path", p, "command", u, "subagent_type", u), Home: "/home/u", Project: "/p", Cwd: "/p/sub", Commands: []string{u, p}}
			r.Match(c)
		}
	})
}
