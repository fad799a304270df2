package guard

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/hookwright/hookwright/internal/runtime/toolrule"
	"github.com/hookwright/hookwright/internal/shell"
)

// An MCP tool is judged by what it does. An MCP server's write-file tool
// is a Write, its execute-SQL tool a SQL client, its start-process tool a
// shell: the guard reads the input as the built-in tool it acts like and
// applies that tool's rules (the file rules and the guard's ground, the
// SQL rules, the shell rules). What it acts like comes from guard.mcp
// when the user's config maps the tool, else from the tool's name and its
// input fields. An unknown tool whose name says it destroys (delete_*,
// drop_*, *_purge, cancel_*) asks (rule mcp-destructive).

// mcpInput is an MCP call's input with the helpers to read it.
type mcpInput map[string]json.RawMessage

// str returns field k as a string ("" when absent or not a string); a
// dotted name reads a nested object (params.command).
func (in mcpInput) str(k string) string {
	raw := in.raw(k)
	var s string
	if raw == nil || json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// strs returns field k as a list of strings (a string is a list of one).
func (in mcpInput) strs(k string) []string {
	raw := in.raw(k)
	if raw == nil {
		return nil
	}
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		return list
	}
	var s string
	if json.Unmarshal(raw, &s) == nil && s != "" {
		return []string{s}
	}
	return nil
}

func (in mcpInput) raw(k string) json.RawMessage {
	head, rest, nested := strings.Cut(k, ".")
	raw, ok := in[head]
	if !ok {
		return nil
	}
	if !nested {
		return raw
	}
	var sub map[string]json.RawMessage
	if json.Unmarshal(raw, &sub) != nil {
		return nil
	}
	return mcpInput(sub).raw(rest)
}

// first returns the first of the fields that holds a string, and its
// name.
func (in mcpInput) first(keys ...string) (string, string) {
	for _, k := range keys {
		if v := in.str(k); v != "" {
			return v, k
		}
	}
	return "", ""
}

// mcpParts splits an MCP tool name: mcp__server__tool.
func mcpParts(tool string) (server, name string) {
	rest := strings.TrimPrefix(tool, "mcp__")
	server, name, _ = strings.Cut(rest, "__")
	return server, name
}

// mcpMapping returns the guard.mcp action for a tool: the most specific
// key that names it (the longest), and whether one does.
func (ck *check) mcpMapping(tool string, fields map[string]json.RawMessage) (toolrule.Action, string, bool) {
	keys := make([]string, 0, len(ck.g.Config.MCP))
	for k := range ck.g.Config.MCP {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		return len(keys[i]) > len(keys[j]) || len(keys[i]) == len(keys[j]) && keys[i] < keys[j]
	})
	for _, k := range keys {
		r, err := toolrule.Parse(k)
		if err != nil || !r.MCPTool() || r.Match(&toolrule.Call{Tool: tool, Fields: fields}) != toolrule.Yes {
			continue
		}
		a, err := toolrule.ParseAction(ck.g.Config.MCP[k])
		if err != nil {
			ck.rep.Warnings = append(ck.rep.Warnings, "guard.mcp: "+err.Error())
			continue
		}
		return a, k, true
	}
	return toolrule.Action{}, "", false
}

// Tool-name words, by what the tool does to a file.
func mcpWord(toks []string, words ...string) bool {
	for _, t := range toks {
		for _, w := range words {
			if t == w {
				return true
			}
		}
	}
	return false
}

// localFileServer reports whether an MCP server's paths are the machine's
// (a file system server, a desktop or shell server), not a remote
// repository's or drive's.
func localFileServer(server string, toks []string) bool {
	var buf [16]string
	for _, t := range wordTokens(server, buf[:0]) {
		switch t {
		case "filesystem", "fs", "file", "files", "desktop", "commander", "local", "editor", "text", "serena", "shell", "terminal", "disk", "workspace", "code":
			return true
		}
	}
	return false
}

// shellServer reports whether an MCP server runs commands on the machine
// (its kill and terminate tools stop processes it started).
func shellServer(server string) bool {
	var buf [16]string
	for _, t := range wordTokens(server, buf[:0]) {
		switch t {
		case "shell", "terminal", "commander", "process", "exec", "cmd", "bash", "command", "commands":
			return true
		}
	}
	return false
}

// sqlLike reports whether text reads as SQL (starts with a statement
// keyword, after comments and white space).
func sqlLike(text string) bool {
	t := strings.TrimLeft(text, " \t\r\n(;")
	for strings.HasPrefix(t, "--") || strings.HasPrefix(t, "/*") {
		if strings.HasPrefix(t, "--") {
			if i := strings.IndexByte(t, '\n'); i >= 0 {
				t = strings.TrimLeft(t[i+1:], " \t\r\n")
				continue
			}
			return false
		}
		if i := strings.Index(t, "*/"); i >= 0 {
			t = strings.TrimLeft(t[i+2:], " \t\r\n")
			continue
		}
		return false
	}
	w := t
	if i := strings.IndexAny(t, " \t\r\n("); i >= 0 {
		w = t[:i]
	}
	switch strings.ToUpper(w) {
	case "SELECT", "INSERT", "UPDATE", "DELETE", "DROP", "TRUNCATE", "ALTER", "CREATE", "WITH", "MERGE", "GRANT", "REVOKE",
		"COPY", "VACUUM", "REPLACE", "UPSERT", "BEGIN", "COMMIT", "RENAME", "COMMENT", "EXPLAIN", "SHOW", "DESCRIBE", "PRAGMA",
		"SET", "USE", "CALL", "EXEC", "EXECUTE", "DO", "REINDEX", "CLUSTER", "ANALYZE", "LOCK", "UNLOCK", "FLUSH", "DETACH", "ATTACH":
		return true
	}
	return false
}

// mcp judges an MCP tool call.
func (ck *check) mcp(tool string, fields map[string]json.RawMessage) {
	in := mcpInput(fields)
	server, name := mcpParts(tool)
	var buf [16]string
	toks := wordTokens(name, buf[:0])
	if a, key, ok := ck.mcpMapping(tool, fields); ok {
		ck.rep.Input = tool + " (guard.mcp " + key + ": " + a.Kind + ")"
		ck.mcpAct(tool, a, in)
		return
	}
	local := localFileServer(server, toks)
	// a command to run
	if cmd, field := in.first("command", "cmd", "script", "shell", "commandLine", "command_line", "bash", "cmdline"); cmd != "" &&
		(shellServer(server) || mcpWord(toks, "exec", "execute", "run", "start", "spawn", "shell", "terminal", "process", "command", "bash", "launch", "interact", "send")) {
		ck.mcpAct(tool, toolrule.Action{Kind: "Bash", Fields: []string{field, "args"}}, in)
		return
	}
	// SQL
	if q, field := in.first("sql", "query", "statement", "statements", "queryText", "query_text"); q != "" && sqlLike(q) {
		ck.mcpAct(tool, toolrule.Action{Kind: "SQL", Fields: []string{field}}, in)
		return
	}
	// an HTTP request
	if u, field := in.first("url", "uri", "endpoint"); u != "" && strings.Contains(u, "://") {
		if m := in.str("method"); m != "" || mcpWord(toks, "request", "http", "fetch", "call", "api") {
			ck.mcpAct(tool, toolrule.Action{Kind: "HTTP", Fields: []string{field, "method"}}, in)
			if m == "" || strings.EqualFold(m, "GET") || strings.EqualFold(m, "HEAD") {
				ck.mcpName(tool, server, name, toks, local, in)
			}
			return
		}
	}
	// a file
	if local {
		pathKeys := []string{"path", "file_path", "filePath", "filename", "file", "target", "notebook_path"}
		switch {
		case mcpWord(toks, "move", "rename", "mv"):
			if src, _ := in.first("source", "src", "from", "oldPath", "old_path", "path"); src != "" {
				dst, _ := in.first("destination", "dest", "dst", "to", "newPath", "new_path", "target")
				ck.mcpAct(tool, toolrule.Action{Kind: "Move"}, mcpInput{"source": jsonStr(src), "destination": jsonStr(dst)})
				return
			}
		case mcpWord(toks, "delete", "remove", "rm", "unlink", "trash", "del", "erase"):
			if p, field := in.first(pathKeys...); p != "" {
				ck.mcpAct(tool, toolrule.Action{Kind: "Delete", Fields: []string{field}}, in)
				return
			}
		case mcpWord(toks, "write", "edit", "create", "save", "append", "put", "update", "patch", "replace", "insert", "modify", "set", "apply"):
			if mcpWord(toks, "directory", "dir", "folder", "mkdir") {
				return // a folder made: what is written into it is judged then
			}
			if p, field := in.first(pathKeys...); p != "" {
				ck.mcpAct(tool, toolrule.Action{Kind: "Write", Fields: []string{field}}, in)
				return
			}
		default:
			ps := in.strs("paths")
			if p, _ := in.first(pathKeys...); p != "" {
				ps = append(ps, p)
			}
			if len(ps) > 0 {
				ck.rep.Input = tool + " (read: " + strings.Join(ps, ", ") + ")"
				use := "read"
				if mcpWord(toks, "list", "search", "find", "tree", "info", "stat", "glob", "directory", "exists") {
					use = "metadata"
				}
				for _, p := range ps {
					ck.filePath(p, use)
				}
				return
			}
		}
	}
	ck.mcpName(tool, server, name, toks, local, in)
}

func jsonStr(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}

// mcpName judges an MCP tool the guard cannot read as a built-in one: a
// name that says it destroys asks, and an input that opens a repository
// or grants admin asks.
func (ck *check) mcpName(tool, server, name string, toks []string, local bool, in mcpInput) {
	cc := cmdCtx{ck: ck, c: nil, idx: -1}
	if v := in.raw("private"); v != nil && strings.TrimSpace(string(v)) == "false" {
		cc.modelFind("exposure", fmt.Sprintf("%s sets private to false: the repository or project becomes public", tool))
	}
	if v := strings.ToLower(in.str("visibility")); v == "public" {
		cc.modelFind("exposure", fmt.Sprintf("%s sets visibility to public", tool))
	}
	verb := ""
	for _, t := range toks {
		if harmVerb(t) && t != "empty" && t != "force" {
			verb = t
			break
		}
	}
	if verb == "" {
		return
	}
	if shellServer(server) && (verb == "kill" || verb == "terminate" || verb == "cancel") {
		return // a shell server stopping a process it started
	}
	ck.find("mcp-destructive", -1, "", fmt.Sprintf("the MCP tool %s says it %ss (%q), and the guard cannot read its input as a file, SQL or shell call. It passes once the user maps the tool in guard.mcp (\"%s\": \"Local\" or the built-in tool it acts like), or confirms it.", tool, verb, name, tool))
}

// mcpAct judges an MCP call as the built-in tool a acts like.
func (ck *check) mcpAct(tool string, a toolrule.Action, in mcpInput) {
	field := func(i int) string {
		if i < len(a.Fields) {
			return in.str(a.Fields[i])
		}
		return ""
	}
	show := func(s string) { ck.rep.Input = tool + " → " + s }
	switch a.Kind {
	case "Bash":
		cmd := field(0)
		if len(a.Fields) > 1 {
			for _, arg := range in.strs(a.Fields[1]) {
				cmd += " " + shell.Quote(arg)
			}
		}
		show(cmd)
		ck.command(cmd)
	case "Read":
		p := field(0)
		show("Read " + p)
		ck.filePath(p, "read")
	case "Write":
		p := field(0)
		show("Write " + p)
		ck.filePath(p, "write")
	case "Delete":
		p := field(0)
		rec := ""
		if string(in.raw("recursive")) == "true" {
			rec = "-r "
		}
		cmd := "rm " + rec + "-- " + shell.Quote(p)
		show(cmd)
		ck.command(cmd)
	case "Move":
		cmd := "mv -- " + shell.Quote(field(0)) + " " + shell.Quote(field(1))
		show(cmd)
		ck.command(cmd)
	case "SQL":
		q := field(0)
		for _, s := range in.strs(a.Fields[0]) {
			if s != q {
				q += ";\n" + s
			}
		}
		cmd := "psql -c " + shell.Quote(q)
		show("SQL " + q)
		ck.command(cmd)
	case "HTTP":
		m := strings.ToUpper(field(1))
		if m == "" {
			m = "GET"
		}
		cmd := "curl -X " + m + " " + shell.Quote(field(0))
		show(cmd)
		ck.command(cmd)
	case "Local":
		show("Local: acts on local state only")
	}
}
