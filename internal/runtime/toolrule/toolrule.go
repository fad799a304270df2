// Package toolrule reads guard.tools: rules that allow, ask for or deny a
// tool by name or pattern, written in Claude Code's own permission-rule
// spelling ("WebFetch(domain:*.example.com)", "mcp__github__*",
// "Bash(npm run test:*)", "Read(~/.aws/**)"). [Parse] reads one key,
// [Rule.Match] tests it against a call, and [AtLeastAsStrict] tells
// whether one tools map is at least as strict as another, for configs
// that may only tighten.
package toolrule

import (
	"encoding/json"
	"fmt"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hookwright/hookwright/internal/runtime/toolinput"
)

// maxToolRule caps the length of one guard.tools key.
const maxToolRule = 1024

// maxDoubleStars caps the "**" in one path rule, and maxSegments the
// folders of a path a rule is matched against, so that a match costs
// little however the two are written; a longer path is Unsure.
const (
	maxDoubleStars = 4
	maxSegments    = 256
)

// Rule is one guard.tools key, in Claude Code's permission-rule
// spelling: a tool name, or a tool name with a specifier in parentheses.
//
// The subset read here:
//
//   - Tool: any use of the tool. The name may hold '*' (any run of
//     characters): "mcp__github__*". An MCP server name alone,
//     "mcp__github", means every tool of that server, as in Claude Code.
//     Task and Agent name the same tool (releases renamed it).
//   - Bash(cmd): the exact simple command; Bash(prefix:*): a simple
//     command that starts with prefix; Bash(npm run *): '*' as a wildcard.
//     The command is split as a shell does (lists, pipelines, sh -c), so
//     a deny or ask rule matches when any simple command matches, and an
//     allow rule only when every one does.
//   - WebFetch(domain:host): the URL's host. "*.example.com" matches every
//     subdomain of example.com (not example.com itself); "*" every host.
//     The host is compared lower-cased, without one trailing dot; one
//     that Claude Code's URL parser may read as another host (non-ASCII,
//     escaped, an IPv4 address in another spelling than a.b.c.d) is
//     Unsure.
//   - Read(path), Edit(path): gitignore-style paths: "//abs" from the file
//     system root, "~/p" from the home folder, "/p" from the project root
//     (Claude Code: the settings file's folder), "p" or "./p" from the
//     call's folder; '*' within a name, '**' across folders. A Read rule
//     covers Read, Grep and Glob; an Edit rule covers Edit, Write,
//     MultiEdit and NotebookEdit (Claude Code's own grouping). Write(path)
//     covers Write only.
//   - Task(type), Agent(type): the subagent type.
//
// Any other specifier is an error, so a rule Claude Code would read
// differently is never silently taken for another.
type Rule struct {
	// Raw is the key as written.
	Raw string
	// Tool is the name part; Spec the specifier without its parentheses
	// ("" for none).
	Tool, Spec string
	kind       specKind
}

type specKind int

const (
	specNone specKind = iota
	specCommand
	specPrefix
	specDomain
	specPath
	specAgent
)

// Parse reads one guard.tools key.
func Parse(s string) (Rule, error) {
	r := Rule{Raw: s}
	s = strings.TrimSpace(s)
	if s == "" {
		return r, fmt.Errorf("empty tool rule")
	}
	if len(s) > maxToolRule {
		return r, fmt.Errorf("tool rule longer than %d bytes", maxToolRule)
	}
	name, spec, hasSpec := strings.Cut(s, "(")
	if hasSpec {
		if !strings.HasSuffix(spec, ")") {
			return r, fmt.Errorf("%q: a specifier ends with ')'", s)
		}
		spec = strings.TrimSpace(strings.TrimSuffix(spec, ")"))
		if spec == "" {
			return r, fmt.Errorf("%q: empty specifier (write the tool name alone for every use)", s)
		}
	}
	name = strings.TrimSpace(name)
	if name == "" {
		return r, fmt.Errorf("%q: no tool name", s)
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == '*') {
			return r, fmt.Errorf("%q: %q is not a tool name (letters, digits, _ - . and *)", s, name)
		}
	}
	r.Tool, r.Spec = name, spec
	if !hasSpec {
		return r, nil
	}
	switch name {
	case "Bash":
		if p, ok := strings.CutSuffix(spec, ":*"); ok {
			r.kind, r.Spec = specPrefix, strings.TrimSpace(p)
			if r.Spec == "" {
				return r, fmt.Errorf("%q: empty prefix (write Bash for every command)", s)
			}
		} else {
			r.kind = specCommand
		}
	case "WebFetch":
		host, ok := strings.CutPrefix(spec, "domain:")
		host = strings.ToLower(strings.TrimSpace(host))
		if !ok || host == "" || strings.ContainsAny(host, "/: ") {
			return r, fmt.Errorf("%q: WebFetch takes domain:<host> (e.g. domain:*.example.com)", s)
		}
		r.kind, r.Spec = specDomain, host
	case "Read", "Edit", "Write", "MultiEdit", "NotebookEdit", "Grep", "Glob":
		r.kind = specPath
		if strings.Count(spec, "**") > maxDoubleStars {
			return r, fmt.Errorf("%q: more than %d ** in one path", s, maxDoubleStars)
		}
	case "Task", "Agent":
		r.kind = specAgent
	default:
		return r, fmt.Errorf("%q: hookwright reads no specifier for %s (write the tool name alone)", s, name)
	}
	return r, nil
}

// toolRank is the order of guard.tools values for tightening: allow
// (skip Claude Code's prompt) < no rule < ask < deny.
func toolRank(v string) int {
	switch v {
	case "allow":
		return 0
	case "ask":
		return 2
	case "deny":
		return 3
	}
	return 1
}

// ValidDecision reports whether v is a guard.tools value.
func ValidDecision(v string) bool { return v == "allow" || v == "ask" || v == "deny" }

// AtLeastAsStrict reports whether the tools map a decides every tool
// call at least as strictly as b, where allow (skip the prompt) < no rule
// < ask < deny; loosened lists the keys that make it not so. It is a
// conservative, syntactic test that holds because rules are weighed by
// decision, never by order (deny > ask > allow): a is at least as strict
// when every key of b is in a with a decision no lower, and every allow in
// a is an allow in b. It may call a map that is stricter in effect (a
// broader deny under another key) not stricter, never the reverse. Keys
// compare after trimming space.
//
// The integrator of project configs uses it to let a project's
// guard.tools apply only when it tightens the user's: a project map that
// fails it is loosening, which the user's config must trust.
func AtLeastAsStrict(a, b map[string]string) (ok bool, loosened []string) {
	norm := func(m map[string]string) map[string]string {
		out := make(map[string]string, len(m))
		for k, v := range m {
			out[strings.TrimSpace(k)] = v
		}
		return out
	}
	na, nb := norm(a), norm(b)
	for k, vb := range nb {
		va, in := na[k]
		if !in {
			va = ""
		}
		if toolRank(va) < toolRank(vb) {
			loosened = append(loosened, k)
		}
	}
	for k, va := range na {
		if va == "allow" && nb[k] != "allow" {
			loosened = append(loosened, k)
		}
	}
	sort.Strings(loosened)
	loosened = dedupSorted(loosened)
	return len(loosened) == 0, loosened
}

func dedupSorted(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// Match is whether a rule matches a call: no, yes, or unsure (the input
// could not be read for the specifier, or a Bash rule matched some of the
// command's simple commands but not all; deny and ask count it as a match,
// allow does not).
type Match int

// The answers of [Rule.Match].
const (
	No Match = iota
	Unsure
	Yes
)

// nameMatches reports whether the rule's tool part names tool.
func (r Rule) nameMatches(tool string) bool {
	if r.Tool == tool || globName(r.Tool, tool) {
		return true
	}
	if (r.Tool == "Task" && tool == "Agent") || (r.Tool == "Agent" && tool == "Task") {
		return true
	}
	if r.kind == specNone && strings.HasPrefix(r.Tool, "mcp__") && !strings.Contains(r.Tool[len("mcp__"):], "__") {
		return strings.HasPrefix(tool, r.Tool+"__")
	}
	if r.kind == specPath {
		switch r.Tool {
		case "Edit":
			return tool == "Write" || tool == "MultiEdit" || tool == "NotebookEdit"
		case "Read":
			return tool == "Grep" || tool == "Glob"
		}
	}
	return false
}

// globName matches a tool name against a pattern whose only wildcard is
// '*' (any run of characters).
func globName(pat, s string) bool {
	if !strings.Contains(pat, "*") {
		return false
	}
	parts := strings.Split(pat, "*")
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(s, p)
		if i < 0 {
			return false
		}
		s = s[i+len(p):]
	}
	return len(s) >= len(last) && strings.HasSuffix(s, last)
}

// Call is what a rule's specifier looks at.
type Call struct {
	Tool   string
	Fields map[string]json.RawMessage
	// Home, Project and Cwd are absolute, clean, slash-separated folders
	// ("" when unknown) that path rules resolve against.
	Home, Project, Cwd string
	// Commands are a Bash command's simple commands as a shell splits
	// them; CmdErr says it could not be split.
	Commands []string
	CmdErr   bool
}

// Match tests the rule against one call.
func (r Rule) Match(c *Call) Match {
	if !r.nameMatches(c.Tool) {
		return No
	}
	str := func(k string) string { return toolinput.String(c.Fields, k) }
	switch r.kind {
	case specNone:
		return Yes
	case specCommand, specPrefix:
		if c.CmdErr || len(c.Commands) == 0 {
			if cmdMatches(r, strings.TrimSpace(str("command"))) {
				return Yes
			}
			return Unsure
		}
		n := 0
		for _, cmd := range c.Commands {
			if cmdMatches(r, cmd) {
				n++
			}
		}
		switch {
		case n == len(c.Commands):
			return Yes
		case n > 0:
			return Unsure // some, not all: deny and ask match, allow does not
		}
		return No
	case specDomain:
		h, ok := urlHost(strings.TrimSpace(str("url")))
		if !ok {
			return Unsure
		}
		host, ok := canonicalHost(h)
		if !ok {
			return Unsure
		}
		if domainMatches(r.Spec, host) {
			return Yes
		}
		if strings.Contains(host, ":") && endsInNumber(strings.TrimSuffix(r.Spec, ".")) {
			return Unsure // an IPv6 address may embed or map the IPv4 one
		}
		if !isASCII(r.Spec) && strings.Contains(host, "xn--") {
			return Unsure // the rule's Unicode name may be this punycode one
		}
		return No
	case specPath:
		p := str("file_path")
		if p == "" {
			p = str("notebook_path")
		}
		if p == "" {
			p = str("path")
		}
		if p == "" && (c.Tool == "Grep" || c.Tool == "Glob") {
			p = "."
		}
		abs := c.absPath(p)
		if abs == "" || strings.Count(abs, "/") > maxSegments {
			return Unsure
		}
		if pathRuleMatches(r.Spec, abs, c) {
			return Yes
		}
		return No
	case specAgent:
		t := str("subagent_type")
		if t == r.Spec || globName(r.Spec, t) {
			return Yes
		}
		return No
	}
	return No
}

// cmdMatches tests one simple command against a Bash rule.
func cmdMatches(r Rule, cmd string) bool {
	cmd = strings.Join(strings.Fields(cmd), " ")
	spec := strings.Join(strings.Fields(r.Spec), " ")
	if r.kind == specPrefix {
		return strings.HasPrefix(cmd, spec)
	}
	if strings.Contains(spec, "*") {
		return globName(spec, cmd)
	}
	return cmd == spec
}

// domainMatches tests a host against domain:pattern.
func domainMatches(pat, host string) bool {
	pat = strings.TrimSuffix(pat, ".")
	switch {
	case pat == "*":
		return true
	case strings.HasPrefix(pat, "*."):
		return strings.HasSuffix(host, pat[1:]) && len(host) > len(pat)-1
	}
	return host == pat
}

// absPath resolves a tool's path argument against the call's folder; ""
// when it cannot.
func (e *Call) absPath(p string) string {
	p = strings.TrimSpace(p)
	switch {
	case p == "":
		return ""
	case p == "~" || strings.HasPrefix(p, "~/"):
		if e.Home == "" {
			return ""
		}
		p = e.Home + p[1:]
	case !filepath.IsAbs(p):
		if e.Cwd == "" {
			return ""
		}
		p = e.Cwd + "/" + p
	}
	return path.Clean(filepath.ToSlash(p))
}

// pathRuleMatches tests an absolute, clean, slash-separated path against
// a Read/Edit rule's pattern.
func pathRuleMatches(pat, abs string, e *Call) bool {
	var base string
	switch {
	case strings.HasPrefix(pat, "//"):
		base, pat = "/", pat[2:]
	case pat == "~" || strings.HasPrefix(pat, "~/"):
		base, pat = e.Home, strings.TrimPrefix(strings.TrimPrefix(pat, "~"), "/")
	case strings.HasPrefix(pat, "/"):
		base, pat = e.Project, pat[1:]
	default:
		base, pat = e.Cwd, strings.TrimPrefix(pat, "./")
	}
	if base == "" {
		return false
	}
	rel := strings.TrimPrefix(abs, strings.TrimSuffix(base, "/")+"/")
	if base == "/" {
		rel = strings.TrimPrefix(abs, "/")
	}
	if rel == abs && base != "/" || strings.HasPrefix(rel, "../") {
		return false
	}
	pat = strings.TrimSuffix(pat, "/")
	if pat == "" {
		return true
	}
	if !strings.Contains(pat, "/") {
		pat = "**/" + pat // gitignore: a bare name matches at any depth
	}
	pp := strings.Split(pat, "/")
	if pp[len(pp)-1] != "**" {
		pp = append(pp, "**") // a folder's rule covers what is below it
		return globSegs(pp[:len(pp)-1], strings.Split(rel, "/")) || globSegs(pp, strings.Split(rel, "/"))
	}
	return globSegs(pp, strings.Split(rel, "/"))
}

// globSegs matches path segments against pattern segments, "**" standing
// for any number of segments.
func globSegs(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			pat = pat[1:]
			if len(pat) == 0 {
				return true
			}
			for i := 0; i <= len(segs); i++ {
				if globSegs(pat, segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, err := path.Match(pat[0], segs[0]); err != nil || !ok {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}
