package toolrule

import (
	"fmt"
	"strings"
)

// Action is how the guard reads an MCP tool's input (guard.mcp): as the
// built-in tool it acts like, naming the input fields that hold what that
// tool takes. It is written in Claude Code's rule spelling, the tool name
// with the fields in parentheses: "Bash(command)", "Write(path)",
// "SQL(sql)", "Move(from, to)", "HTTP(url, method)", or "Local" for a tool
// that only changes local scratch state (its name's verbs are not asked
// about).
type Action struct {
	// Kind is Bash, Read, Write, Delete, Move, SQL, HTTP or Local.
	Kind string
	// Fields are the input fields, in the order the kind takes them;
	// the kind's defaults when the mapping names none.
	Fields []string
}

// actionKinds are the kinds and their default fields.
var actionKinds = map[string][]string{
	"Bash":   {"command", "args"},
	"Read":   {"path"},
	"Write":  {"path"},
	"Edit":   {"path"},
	"Delete": {"path"},
	"Move":   {"source", "destination"},
	"SQL":    {"query"},
	"HTTP":   {"url", "method"},
	"Local":  nil,
}

// ParseAction reads one guard.mcp value.
func ParseAction(v string) (Action, error) {
	v = strings.TrimSpace(v)
	name, rest, paren := strings.Cut(v, "(")
	name = strings.TrimSpace(name)
	defaults, ok := actionKinds[name]
	if !ok {
		return Action{}, fmt.Errorf("%q: the kind is not Bash, Read, Write, Edit, Delete, Move, SQL, HTTP or Local", v)
	}
	if name == "Edit" {
		name = "Write"
	}
	a := Action{Kind: name, Fields: defaults}
	if !paren {
		return a, nil
	}
	inner, ok := strings.CutSuffix(strings.TrimSpace(rest), ")")
	if !ok || name == "Local" {
		return Action{}, fmt.Errorf("%q: write %s(field, …) with a closing parenthesis (Local takes no fields)", v, name)
	}
	var fields []string
	for f := range strings.SplitSeq(inner, ",") {
		f = strings.TrimSpace(f)
		if f == "" || strings.ContainsAny(f, " ()\"'") || len(f) > 128 {
			return Action{}, fmt.Errorf("%q: %q is not an input field name", v, f)
		}
		fields = append(fields, f)
	}
	if len(fields) > len(defaults) {
		return Action{}, fmt.Errorf("%q: %s takes at most %d fields (%s)", v, name, len(defaults), strings.Join(defaults, ", "))
	}
	a.Fields = append(fields, defaults[len(fields):]...)
	return a, nil
}

// MCPTool reports whether a rule names MCP tools only (mcp__server,
// mcp__server__tool, mcp__server__*).
func (r Rule) MCPTool() bool {
	return strings.HasPrefix(r.Tool, "mcp__") && r.Spec == ""
}
