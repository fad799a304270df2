package guard

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/internal/runtime/config"
)

// FuzzCheckCommand checks any command: the guard never panics, always
// decides, and is monotone under sequencing: a command it blocks is still
// blocked with a harmless command before it, after it, or in a subshell.
func FuzzCheckCommand(f *testing.F) {
	// A few of each family: the committed corpus under testdata/fuzz holds
	// the rest of the seeds and every regression found.
	for _, fam := range allFamilies() {
		for _, c := range fam.cmds[:min(3, len(fam.cmds))] {
			f.Add(c)
		}
	}
	g := newTest(config.Guard{Deny: []string{"terraform destroy"}, Secrets: []string{"~/.acme/"}}, nil)
	f.Fuzz(func(t *testing.T, cmd string) {
		r := bash(g, cmd)
		switch r.Decision {
		case "allow", "ask", "block":
		default:
			t.Fatalf("decision %q", r.Decision)
		}
		if r.Decision != "allow" && !strings.Contains(r.Reason, "(rule "+r.Rule+";") {
			t.Fatalf("the reason does not name the rule: %q", r.Reason)
		}
		if r.Decision != "block" || strings.ContainsAny(cmd, "#\\") || r.ParseError != "" {
			return
		}
		for _, wrapped := range []string{"true; " + cmd, cmd + "\ntrue", "( " + cmd + "\n)"} {
			if w := bash(g, wrapped); w.Decision != "block" {
				t.Fatalf("%q blocks (%s) but %q is %s", cmd, r.Rule, wrapped, w.Decision)
			}
		}
	})
}

// FuzzCheckPath checks any path for every file tool: the guard never
// panics, and a path and its spelling through /tmp/.. get one decision.
func FuzzCheckPath(f *testing.F) {
	for _, c := range fileToolCases[:min(12, len(fileToolCases))] {
		f.Add(c.tool, c.path)
	}
	g := newTest(config.Guard{Protect: []string{"*.lock"}, Secrets: []string{"vault/"}}, nil)
	f.Fuzz(func(t *testing.T, toolName, p string) {
		key := map[string]string{"Read": "file_path", "Write": "file_path", "Edit": "file_path", "MultiEdit": "file_path",
			"NotebookEdit": "notebook_path", "Grep": "path", "Glob": "path"}[toolName]
		if key == "" {
			toolName, key = "Read", "file_path"
		}
		r := tool(g, toolName, key, p)
		switch r.Decision {
		case "allow", "ask", "block":
		default:
			t.Fatalf("decision %q", r.Decision)
		}
		if !strings.HasPrefix(p, "/") || strings.ContainsAny(p, "*?[$\x00") || strings.Contains(p, "/..") {
			return
		}
		again := tool(g, toolName, key, "/tmp/.."+p)
		if again.Decision != r.Decision {
			t.Fatalf("%s %q is %s but /tmp/..%s is %s", toolName, p, r.Decision, p, again.Decision)
		}
	})
}

// BenchmarkCheck measures the guard over its own table cases (the rule
// packs' included) and reports
// the median cost of one command (median-ns/cmd).
func BenchmarkCheck(b *testing.B) {
	g := newTest(config.Guard{}, nil)
	var inputs []json.RawMessage
	for _, fam := range benchFamilies() {
		for _, c := range fam.cmds {
			in, _ := json.Marshal(map[string]string{"command": c})
			inputs = append(inputs, in)
		}
	}
	for _, c := range fileToolCases {
		key := "file_path"
		if c.tool == "Grep" || c.tool == "Glob" {
			key = "path"
		} else if c.tool == "NotebookEdit" {
			key = "notebook_path"
		}
		in, _ := json.Marshal(map[string]string{key: c.path})
		inputs = append(inputs, in)
	}
	tools := make([]string, len(inputs))
	for i := range tools {
		tools[i] = "Bash"
	}
	k := 0
	for _, fam := range benchFamilies() {
		k += len(fam.cmds)
	}
	for i, c := range fileToolCases {
		tools[k+i] = c.tool
	}
	per := make([][]time.Duration, len(inputs))
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		for i, in := range inputs {
			start := time.Now()
			g.Check(Call{Tool: tools[i], Input: in, Cwd: project})
			per[i] = append(per[i], time.Since(start))
		}
	}
	b.StopTimer()
	med := make([]time.Duration, len(per))
	for i, d := range per {
		sort.Slice(d, func(a, b int) bool { return d[a] < d[b] })
		med[i] = d[len(d)/2]
	}
	sort.Slice(med, func(a, b int) bool { return med[a] < med[b] })
	b.ReportMetric(float64(med[len(med)/2].Nanoseconds()), "median-ns/cmd")
	b.ReportMetric(float64(med[len(med)*9/10].Nanoseconds()), "p90-ns/cmd")
	b.ReportMetric(float64(med[len(med)-1].Nanoseconds()), "max-ns/cmd")
	b.ReportMetric(float64(len(inputs)), "cmds")
}

// FuzzCheckMCP checks any MCP call: the guard never panics and always
// decides, whatever the tool's name and input, and a call that names a
// command is judged at least as strictly as that command in Bash.
func FuzzCheckMCP(f *testing.F) {
	for _, c := range readMCP(f, "testdata/model/mcp.jsonl", home, project) {
		f.Add(c.Tool, string(c.Input))
	}
	g := newTest(config.Guard{MCP: map[string]string{"mcp__box__*": "Bash(cmd, argv)", "mcp__wh__run": "SQL(stmt)"}}, nil)
	f.Fuzz(func(t *testing.T, name, input string) {
		if !strings.HasPrefix(name, "mcp__") {
			name = "mcp__" + name
		}
		r := g.Check(Call{Tool: name, Input: json.RawMessage(input), Cwd: project})
		switch r.Decision {
		case "allow", "ask", "block":
		default:
			t.Fatalf("decision %q", r.Decision)
		}
		var in map[string]json.RawMessage
		if json.Unmarshal([]byte(input), &in) != nil {
			return
		}
		var cmd string
		if json.Unmarshal(in["cmd"], &cmd) != nil || cmd == "" || !strings.HasPrefix(name, "mcp__box__") || in["argv"] != nil {
			return
		}
		if b := bash(g, cmd); rank(b.Decision) > rank(r.Decision) {
			t.Fatalf("%s %s is %s, but the command in Bash is %s", name, input, r.Decision, b.Decision)
		}
	})
}

func rank(d string) int {
	switch d {
	case "ask":
		return 1
	case "block":
		return 2
	}
	return 0
}
