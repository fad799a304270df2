package live

import (
	"bytes"
	"context"
	"regexp"
	"slices"
	"sort"
)

// LoaderRules are the value-level and shape rules of one release's
// hooks.json and plugin.json loader, read from its code: the facts behind
// compat.Rules and compat.PluginKeys (compat/FACTS.md, "The loader's
// rules").
type LoaderRules struct {
	Release string `json:"release"`
	// URLChecked: an http handler's url is string().url() ("Invalid URL").
	URLChecked bool `json:"urlChecked"`
	// TimeoutMax: timeout has an upper bound (.max( after .positive()).
	TimeoutMax bool `json:"timeoutMax"`
	// EntriesTolerated: an invalid entry is logged and dropped ("entry
	// ignored") instead of refusing the file.
	EntriesTolerated bool `json:"entriesTolerated"`
	// GuardsOutsideFatal: PreToolUse/PermissionRequest outside "hooks"
	// refuses the plugin.
	GuardsOutsideFatal bool `json:"guardsOutsideFatal"`
	// PluginCommandOnly: the plugin-hook loader registers only "command"
	// handlers and drops the others without a word.
	PluginCommandOnly bool `json:"pluginCommandOnly"`
	// DisplayKeysDropped: a bad plugin.json display key (author,
	// homepage, ...) is dropped and the plugin loads.
	DisplayKeysDropped bool `json:"displayKeysDropped"`
	// DuplicateHooksSkipped: plugin.json's hooks naming the standard
	// hooks/hooks.json is skipped, not loaded twice.
	DuplicateHooksSkipped bool `json:"duplicateHooksSkipped"`
	// HooksModules: hooks.json may hold "modules".
	HooksModules bool `json:"hooksModules"`
	// StandardHooksNamedOnce: plugin.json's hooks naming the standard
	// hooks/hooks.json is loaded once without an error; before, the
	// duplicate is skipped with a "Hook load failed: Duplicate hooks file
	// detected" error (which also keeps the plugin's MCP servers off).
	StandardHooksNamedOnce bool `json:"standardHooksNamedOnce"`
	// ManifestHooksPerEntry: plugin.json's inline hooks are checked entry
	// by entry (an invalid one is dropped with a warning, an invalid
	// PreToolUse/PermissionRequest one refuses the plugin); before, one
	// zod parse of the manifest refuses the plugin over any of them.
	ManifestHooksPerEntry bool `json:"manifestHooksPerEntry"`
	// EntryHooksPathIgnored: a marketplace entry's "hooks" given as a path
	// or a list is ignored with an error; before, it replaces the plugin's
	// hooks with nothing.
	EntryHooksPathIgnored bool `json:"entryHooksPathIgnored"`
	// NamedFileAlone: a hooks file plugin.json names is loaded on its own
	// ("Failed to load hooks from <file>" skips it and the rest loads).
	NamedFileAlone bool `json:"namedFileAlone"`
	// EntryConflict: a marketplace entry with strict false that declares
	// components beside a plugin.json refuses the plugin ("This is a
	// conflict").
	EntryConflict bool `json:"entryConflict"`
	// PluginStrict: plugin.json's schema refuses unknown keys; nil when
	// the manifest schema was not found (native builds).
	PluginStrict *bool `json:"pluginStrict,omitempty"`
	// PluginKeys are the keys of plugin.json's schema, sorted; empty when
	// not found.
	PluginKeys []string `json:"pluginKeys,omitempty"`
}

// The marks ParseLoaderRules looks for.
var (
	urlChecked     = regexp.MustCompile(`url:[A-Za-z0-9_$.]*\(\)\.url\(\)\.describe\("URL to POST the hook input JSON to"\)`)
	timeoutMax     = regexp.MustCompile(`timeout:[A-Za-z0-9_$.]*\(\)\.positive\(\)\.(?:int\(\)\.)?max\(`)
	commandOnly    = regexp.MustCompile(`for\(let [A-Za-z0-9_$]+ of [A-Za-z0-9_$]+\.hooks\)if\([A-Za-z0-9_$]+\.type==="command"\)[A-Za-z0-9_$]+\.push\(`)
	entryIgnored   = []byte(`unknown hook event; entry ignored`)
	guardsOutside  = []byte(`PreToolUse/PermissionRequest hooks are declared outside`)
	hooksModules   = []byte("hooks.json must have `hooks`")
	manifestMerged = regexp.MustCompile(`([A-Za-z0-9_$]+)=(?:[A-Za-z0-9_$]+\(\(\)=>)?[A-Za-z0-9_$]+\.object\(\{\.\.\.([A-Za-z0-9_$]+)(?:\(\))?\.shape,`)
	nameObject     = regexp.MustCompile(`([A-Za-z0-9_$]+)=(?:[A-Za-z0-9_$]+\(\(\)=>)?[A-Za-z0-9_$]+\.object\(\{name:`)
	shapePart      = regexp.MustCompile(`\.\.\.([A-Za-z0-9_$]+)(?:\(\))?(?:\.partial\(\))?\.shape`)
)

// ParseLoaderRules reads a release's loader rules out of its bundled code.
func ParseLoaderRules(code []byte) LoaderRules {
	r := LoaderRules{
		URLChecked:             urlChecked.Match(code),
		TimeoutMax:             timeoutMax.Match(code),
		EntriesTolerated:       bytes.Contains(code, entryIgnored),
		GuardsOutsideFatal:     bytes.Contains(code, guardsOutside),
		HooksModules:           bytes.Contains(code, hooksModules),
		PluginCommandOnly:      commandOnly.Match(code),
		DisplayKeysDropped:     bytes.Contains(code, []byte("plugin_load_manifest_display_key_ignored")),
		DuplicateHooksSkipped:  bytes.Contains(code, []byte("Skipping duplicate hooks file")),
		StandardHooksNamedOnce: bytes.Contains(code, []byte("names the standard hooks/hooks.json, which loads on its own; loaded once")),
		ManifestHooksPerEntry:  bytes.Contains(code, []byte("unloadableGuards")),
		EntryHooksPathIgnored:  bytes.Contains(code, []byte("file-path and array forms are not yet supported in a marketplace entry")),
		NamedFileAlone:         bytes.Contains(code, []byte("Failed to load hooks from ")),
		EntryConflict:          bytes.Contains(code, []byte("marketplace manifest entries for commands/agents/skills/hooks")),
	}
	r.PluginKeys, r.PluginStrict = pluginManifest(code)
	return r
}

// pluginManifest finds plugin.json's schema: the object that merges the
// shapes of the object holding "Plugin name cannot be empty" and others.
func pluginManifest(code []byte) ([]string, *bool) {
	i := bytes.Index(code, []byte(`"Plugin name cannot be empty"`))
	if i < 0 {
		return nil, nil
	}
	// The object holding the name: the last "X=...object({name:" before i.
	head := code[max(0, i-400):i]
	ms := nameObject.FindAllSubmatch(head, -1)
	if len(ms) == 0 {
		return nil, nil
	}
	base := string(ms[len(ms)-1][1])
	for _, m := range manifestMerged.FindAllSubmatchIndex(code, -1) {
		if string(code[m[4]:m[5]]) != base {
			continue
		}
		open := m[1] - len(`...`+base) - 1
		for open > 0 && code[open] != '{' {
			open--
		}
		body := code[open:min(len(code), open+2000)]
		end := bytes.IndexByte(body, '}')
		if end < 0 {
			continue
		}
		var keys []string
		for _, p := range shapePart.FindAllSubmatch(body[:end], -1) {
			keys = append(keys, componentKeys(code, string(p[1]))...)
		}
		strict := bytes.HasPrefix(body[end:], []byte("}).strict()"))
		if len(keys) == 0 {
			continue
		}
		sort.Strings(keys)
		return slices.Compact(keys), &strict
	}
	return nil, nil
}

// componentKeys returns the top-level keys of the object schema assigned
// to variable name.
func componentKeys(code []byte, name string) []string {
	re := regexp.MustCompile(`(?:^|[^A-Za-z0-9_$])` + regexp.QuoteMeta(name) + `=(?:[A-Za-z0-9_$]+\(\(\)=>)?[A-Za-z0-9_$]+\.object\(\{`)
	m := re.FindIndex(code)
	if m == nil {
		return nil
	}
	keys, _ := objectKeys(code[m[1]-1:])
	return keys
}

// ProbeLoaderRules reads version's loader rules, from the install cache
// or a fetched package (see [ProbeRelease]).
func ProbeLoaderRules(ctx context.Context, version string) (LoaderRules, string, error) {
	cache, err := CacheDir()
	if err != nil {
		return LoaderRules{}, "", err
	}
	code, source, err := releaseCode(ctx, cache, version)
	if err != nil {
		return LoaderRules{}, "", err
	}
	r := ParseLoaderRules(code)
	r.Release = version
	return r, source, nil
}
