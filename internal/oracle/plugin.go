package oracle

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode"

	"github.com/Masterminds/semver/v3"
	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/hooks"
)

// CheckPlugin returns what release v's loader does with a plugin's
// .claude-plugin/plugin.json, sorted gravest first. The checks are the
// manifest schema of the band-edge releases' code: name, the typed fields,
// unknown keys (refused up to 2.1.75, read past from 2.1.76), the paths,
// inline MCP servers and the inline hooks ("hooks" as an object of events,
// or objects in its list), which are checked like hooks.json's but whose
// rejection refuses the whole plugin ("hooks: Invalid input"; from 2.1.257
// an invalid entry is dropped, an invalid guard still refuses the plugin).
func CheckPlugin(v hooks.Release, doc []byte) ([]Finding, error) {
	if v.Less(hooks.MustRelease(compat.PluginFloor)) {
		return nil, fmt.Errorf("%w: Claude Code %s is older than %s, the first release that loads plugins", compat.ErrBelowFloor, v, compat.PluginFloor)
	}
	return checkPlugin(v, doc, nil), nil
}

// checkPlugin is CheckPlugin; exists says whether a hooks file plugin.json
// names is in the plugin folder (nil: take every one as there).
func checkPlugin(v hooks.Release, doc []byte, exists func(string) bool) []Finding {
	c := &checker{v: v, file: PluginJSON, refuses: compat.RefusesPlugin}
	if len(doc) > MaxFile {
		c.add(compat.RuleNotJSON, "", "", "", "the file is larger than 4 MiB, so the plugin is refused", "keep plugin.json small")
		return c.out
	}
	inst, err := decode(doc)
	if err != nil {
		c.add(compat.RuleNotJSON, "", "", "", "not valid JSON ("+clip(err.Error(), 60)+"), so the plugin is refused", "fix the JSON syntax")
		return c.out
	}
	m, ok := inst.(map[string]any)
	if !ok {
		c.add(compat.RuleNotJSON, "", "", "", "plugin.json must be a JSON object, not "+kind(inst)+", so the plugin is refused", `write {"name": "my-plugin"}`)
		return c.out
	}
	c.duplicates(doc)
	refused := ", so the plugin is refused"
	name, has := m["name"]
	s, isStr := name.(string)
	switch {
	case !has:
		c.add(compat.RulePluginShape, "/name", "", "", `"name" is missing`+refused, `add "name": "my-plugin"`)
	case !isStr:
		c.add(compat.RulePluginShape, "/name", "", "", "name must be a string"+refused, `write "name": "my-plugin"`)
	case s == "":
		c.add(compat.RulePluginShape, "/name", "", "", "name is empty"+refused, `write "name": "my-plugin"`)
	case strings.Contains(s, " "):
		c.add(compat.RulePluginShape, "/name", "", "", "name contains a space"+refused, "use kebab-case, e.g. \"my-plugin\"")
	case strings.IndexFunc(s, controlOrBidi) >= 0:
		c.add(compat.RuleNameControl, "/name", "", "", "name holds a control or bidirectional-formatting character"+refused, "use plain kebab-case")
	}
	if r, ok := compat.RuleAt(compat.RuleTopLevelGuard, v); ok && r.Consequence == compat.Rejected {
		for _, k := range sortedKeys(m) {
			if k != "hooks" && (isGuardEntry(k, m[k]) || !slices.Contains(pluginUnscanned, k) && holdsGuard(m[k], compat.GuardDepth)) {
				c.add(compat.RuleTopLevelGuard, ptr("", k), "", "", fmt.Sprintf("PreToolUse/PermissionRequest hooks sit outside \"hooks\" (under %q)%s", clip(k, 30), refused), `move them under "hooks"`)
			}
		}
	}
	c.namedFilesIn(m["hooks"], exists)
	if eng, ok := m["engines"].(map[string]any); ok && compat.PluginKeyKnown("engines", v) {
		if rng, ok := eng["claude-code"].(string); ok {
			if con, err := semver.NewConstraint(rng); err == nil && !con.Check(semverOf(v)) {
				c.add(compat.RuleEngines, "/engines/claude-code", v.String(), v.String(),
					fmt.Sprintf("the plugin says it runs on Claude Code %s, which excludes this release: a marketplace install may skip it", quote(rng)), "widen the range if the plugin works here")
			}
		}
	}
	switch hv := m["hooks"].(type) {
	case map[string]any:
		// Inline hooks: the same checks as hooks.json's "hooks".
		c.events(hv, "/hooks", true)
	case []any:
		for i, x := range hv {
			if obj, ok := x.(map[string]any); ok {
				c.events(obj, ptr("/hooks", fmt.Sprint(i)), true)
			}
		}
	}
	for _, k := range sortedKeys(m) {
		p := ptr("", k)
		val := m[k]
		if !compat.PluginKeyKnown(k, v) {
			r, _ := compat.RuleAt(compat.RulePluginKeyStrict, v)
			what := fmt.Sprintf("unknown key %q is read past", clip(k, 40))
			hi := ""
			if r.Consequence == compat.Rejected {
				what = fmt.Sprintf("unknown key %q%s (\"Unrecognized key\")", clip(k, 40), refused)
				hi = knownFromPrev(k)
			}
			c.add(compat.RulePluginKeyStrict, p, "", hi, what, "remove it for these releases")
			continue
		}
		if msg, fix := pluginValue(k, val, v); msg != "" {
			lo := keySince(k) // the check holds where the schema has the key
			if !slices.Contains(compat.PluginDisplayKeys, k) {
				c.add(compat.RulePluginShape, p, lo, "", msg+refused, fix)
			} else if r, _ := compat.RuleAt(compat.RuleDisplayKey, v); r.Consequence == compat.Rejected {
				c.add(compat.RuleDisplayKey, p, lo, "", msg+refused, fix)
			} else {
				c.add(compat.RuleDisplayKey, p, lo, "", msg+", so the release drops the key", fix)
			}
		}
	}
	Sort(c.out)
	return c.out
}

// serverTypes are the MCP server types of the releases' union (stdio,
// sse, sse-ide, http, ws, ws-ide, sdk, claudeai-proxy).
var serverTypes = []string{"stdio", "sse", "sse-ide", "http", "ws", "ws-ide", "sdk", "claudeai-proxy"}

// inlineServers checks an inline mcpServers object as the releases' zod
// union does: a stdio server (no type, or "stdio") needs a non-empty
// command, string args and string env values; others need a known type.
// lspServers are not modelled.
func inlineServers(k string, x any) string {
	servers, ok := x.(map[string]any)
	if !ok || k != "mcpServers" {
		return ""
	}
	for _, name := range sortedKeys(servers) {
		srv, ok := servers[name].(map[string]any)
		if !ok {
			return fmt.Sprintf("MCP server %q must be an object", clip(name, 30))
		}
		typ, hasType := srv["type"]
		ts, _ := typ.(string)
		if hasType && !slices.Contains(serverTypes, ts) {
			return fmt.Sprintf("MCP server %q has an unknown type %s", clip(name, 30), quote(typ))
		}
		if hasType && ts != "stdio" {
			continue
		}
		if c, _ := srv["command"].(string); c == "" {
			return fmt.Sprintf("MCP server %q needs a non-empty command", clip(name, 30))
		}
		if a, has := srv["args"]; has {
			list, ok := a.([]any)
			for _, y := range list {
				if _, isStr := y.(string); !isStr {
					ok = false
				}
			}
			if !ok {
				return fmt.Sprintf("MCP server %q: args must be a list of strings", clip(name, 30))
			}
		}
		if e, has := srv["env"]; has {
			env, ok := e.(map[string]any)
			for _, y := range env {
				if _, isStr := y.(string); !isStr {
					ok = false
				}
			}
			if !ok {
				return fmt.Sprintf("MCP server %q: env values must be strings", clip(name, 30))
			}
		}
	}
	return ""
}

// pluginUnscanned are the plugin.json keys 2.1.330 does not search for
// guard hooks.
var pluginUnscanned = compat.PluginUnscanned

// asList returns v as a list: itself when it is one, else a list of it.
func asList(v any) []any {
	if l, ok := v.([]any); ok {
		return l
	}
	return []any{v}
}

// controlOrBidi reports a control or bidirectional-formatting character.
func controlOrBidi(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r)
}

// keySince is the first release whose manifest schema has key.
func keySince(key string) string {
	for _, k := range compat.PluginKeys {
		if k.Name == key {
			return k.Since
		}
	}
	return ""
}

// knownFromPrev returns the last release that lacks key, or "" when no
// release has it.
func knownFromPrev(key string) string {
	for _, k := range compat.PluginKeys {
		if k.Name == key {
			v := hooks.MustRelease(k.Since)
			if v[2] > 0 {
				return hooks.Release{v[0], v[1], v[2] - 1}.String()
			}
		}
	}
	return ""
}

// pluginValue checks one known plugin.json key's value type.
func pluginValue(k string, val any, v hooks.Release) (string, string) {
	if val == nil && k != "hooks" {
		// zod's optional() takes a missing key, never null.
		return k + " is null", "remove the key instead of writing null"
	}
	switch k {
	case "version", "description", "repository", "license", "displayName":
		if _, ok := val.(string); !ok {
			return k + " must be a string", fmt.Sprintf("write %q as a string", k)
		}
	case "homepage":
		s, ok := val.(string)
		if !ok || !validURL(s) {
			return fmt.Sprintf("homepage %s is not a URL", quote(val)), "write a full URL or remove it"
		}
	case "keywords":
		a, ok := val.([]any)
		if !ok {
			return "keywords must be a list of strings", "write a list of strings"
		}
		for _, x := range a {
			if _, ok := x.(string); !ok {
				return "keywords must be a list of strings", "quote each keyword"
			}
		}
	case "commands", "agents", "skills", "outputStyles", "hooks":
		var paths []any
		switch t := val.(type) {
		case string:
			paths = []any{t}
		case []any:
			paths = t
		case map[string]any:
		default:
			if k == "hooks" {
				return fmt.Sprintf("hooks is %s: it must be a path, an object of events, or a list of them", kind(val)), `write "hooks": "./hooks/extra.json", or remove it`
			}
		}
		for _, x := range paths {
			ps, ok := x.(string)
			if !ok {
				if _, isObj := x.(map[string]any); k == "hooks" && !isObj {
					return fmt.Sprintf("hooks lists %s: each item must be a path or an object of events", kind(x)), "write a \"./...json\" path or an object of events"
				}
				continue // an inline object: hooks' are checked as events
			}
			if k == "skills" && ps == "." && !v.Less(hooks.MustRelease(compat.SkillsDotSince)) {
				continue
			}
			if !strings.HasPrefix(ps, "./") {
				return fmt.Sprintf("%s path %s must start with \"./\"", k, quote(ps)), fmt.Sprintf("write \"./%s\"", strings.TrimLeft(clip(ps, 30), "./"))
			}
			if k == "hooks" && !strings.HasSuffix(ps, ".json") {
				return fmt.Sprintf("hooks path %s must end in .json", quote(ps)), "name the hooks file"
			}
			if k == "agents" && !strings.HasSuffix(ps, ".md") {
				return fmt.Sprintf("agents path %s must name a .md file", quote(ps)), "list the agent files, or drop the key to load agents/"
			}
		}
	case "author":
		m, ok := val.(map[string]any)
		if !ok {
			return `author must be an object {"name": ...}`, `write "author": {"name": "..."}`
		}
		if n, ok := m["name"].(string); !ok || n == "" {
			return "author needs a non-empty name", `add "name" to author`
		}
		for _, f := range []string{"email", "url"} {
			if x, has := m[f]; has {
				if _, ok := x.(string); !ok {
					return "author." + f + " must be a string", "quote it"
				}
			}
		}
	case "defaultEnabled":
		if _, ok := val.(bool); !ok {
			return "defaultEnabled must be true or false", "write true or false"
		}
	case "dependencies":
		if _, ok := val.([]any); !ok {
			return "dependencies must be a list of plugin names", `write ["other-plugin"]`
		}
	case "mcpServers", "lspServers":
		for _, x := range asList(val) {
			ps, ok := x.(string)
			if !ok {
				if msg := inlineServers(k, x); msg != "" {
					return msg, "fix the server's entry (see the release's MCP docs)"
				}
				continue
			}
			bundle := strings.HasSuffix(ps, ".mcpb") || strings.HasSuffix(ps, ".dxt")
			switch {
			case k == "mcpServers" && bundle && validURL(ps):
			case !strings.HasPrefix(ps, "./"):
				return fmt.Sprintf("%s path %s must start with \"./\"", k, quote(ps)), "write a path relative to the plugin root, starting with ./"
			case !strings.HasSuffix(ps, ".json") && !(k == "mcpServers" && bundle):
				return fmt.Sprintf("%s path %s must name a .json file", k, quote(ps)), "point at the .json configuration file"
			}
		}
	case "settings", "userConfig":
		if _, ok := val.(map[string]any); !ok {
			return k + " must be an object", "write an object or remove it"
		}
	}
	return "", ""
}

// namedFilesIn reports what the release does with the hooks files
// plugin.json's "hooks" names more than once, or that are the standard
// hooks/hooks.json, which loads on its own. exists says whether a named
// file is there (nil: every one is); a missing one is Judge's.
func (c *checker) namedFilesIn(hooks any, exists func(string) bool) {
	seen := map[string]bool{}
	items, isList := hooks.([]any)
	if !isList {
		items = []any{hooks}
	}
	for i, x := range items {
		ps, ok := x.(string)
		if !ok || !strings.HasPrefix(ps, "./") || !strings.HasSuffix(ps, ".json") {
			continue
		}
		p := "/hooks"
		if isList {
			p = ptr("/hooks", fmt.Sprint(i))
		}
		clean := CleanPath(ps)
		if exists != nil && !exists(clean) {
			continue // missing: Judge reports it
		}
		switch {
		case clean == StandardHooks:
			if r, ok := compat.RuleAt(compat.RuleStandardHooks, c.v); ok && r.Last != "" {
				c.add(compat.RuleStandardHooks, p, "", "", "hooks names the standard hooks/hooks.json, which loads on its own: the release loads it once but logs \"Hook load failed: Duplicate hooks file detected\"", "remove it from plugin.json")
			} else {
				c.add(compat.RuleStandardHooks, p, "", "", "hooks names the standard hooks/hooks.json, which loads on its own (once)", "remove it from plugin.json")
			}
			c.add(compat.RuleStandardTwice, p, "", "", "hooks names the standard hooks/hooks.json, which loads on its own: each of its hooks runs twice", "remove it from plugin.json")
		case seen[clean]:
			what := fmt.Sprintf("hooks names %s twice: each of its hooks runs twice", quote(ps))
			if r, ok := compat.RuleAt(compat.RuleNamedTwice, c.v); ok && r.First != compat.PluginFloor {
				what = fmt.Sprintf("hooks names %s twice: the release loads it once and logs \"Hook load failed: Duplicate hooks file detected\"", quote(ps))
			}
			c.add(compat.RuleNamedTwice, p, "", "", what, "name each hooks file once")
		}
		seen[clean] = true
	}
}

// StandardHooks is the hooks file every release loads on its own, relative
// to the plugin folder.
const StandardHooks = "hooks/hooks.json"

// CleanPath turns a path as plugin.json writes it ("./hooks/../x.json")
// into one relative to the plugin folder ("x.json").
func CleanPath(p string) string {
	return path.Clean(strings.TrimPrefix(p, "./"))
}
