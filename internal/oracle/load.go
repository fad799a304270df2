package oracle

import (
	"fmt"
	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/hooks"
	"slices"
	"strings"
)

// MarketplaceJSON labels findings about a plugin's marketplace entry.
const MarketplaceJSON File = "marketplace.json"

// PluginFiles labels a finding about the plugin as a whole.
const PluginFiles File = "plugin"

// Plugin is what a release's loader reads of one plugin: the bytes of its
// files and the marketplace entry that lists it. The oracle never reads a
// file itself; internal/marketplace does, bounded and confined.
type Plugin struct {
	// Name names the plugin in messages about others (its marketplace
	// entry's name); optional.
	Name string
	// Manifest is .claude-plugin/plugin.json; nil when absent.
	Manifest []byte
	// Hooks is hooks/hooks.json; nil when absent.
	Hooks []byte
	// Files are the other hooks files plugin.json's "hooks" names, keyed
	// by [CleanPath]; a named file missing here is missing from the
	// plugin.
	Files map[string][]byte
	// Entry is the plugin's object in marketplace.json; nil when the
	// plugin is loaded from a folder (--plugin-dir).
	Entry []byte
	// Missing are the paths plugin.json names for commands, agents, skills
	// and output styles that are not in the plugin folder, keyed by
	// [CleanPath]; nil when the folder was not looked at.
	Missing map[string]bool
	// FilesUnknown says only these files were given, not the plugin folder
	// (hookgen validate plugin.json): the hooks files plugin.json names and
	// its paths are not looked up.
	FilesUnknown bool
	// MCP says the plugin declares MCP servers (.mcp.json, or mcpServers
	// in plugin.json), which any hooks load error keeps off.
	MCP bool
}

// HookRef is one handler a release registers: the file and JSON pointer
// it was read from and the event it fires on.
type HookRef struct {
	File    File
	Pointer string
	Event   string
}

// Verdict is what one release does with a whole plugin.
type Verdict struct {
	Release hooks.Release
	// Findings are every finding of the plugin's files on the release,
	// gravest first.
	Findings []Finding
	// Hooks are the handlers the release registers, in load order; a
	// handler loaded twice is listed twice ("Registered N hooks" counts
	// them so).
	Hooks []HookRef
	// Declared counts the handlers the plugin's files declare, whatever
	// the release does with them.
	Declared int
}

// Refused returns the gravest thing the release refuses ("" when
// nothing): the marketplace, the plugin, every hook, or a hooks file.
func (v Verdict) Refused() compat.Refusal {
	order := []compat.Refusal{compat.RefusesMarketplace, compat.RefusesPlugin, compat.RefusesAllHooks, compat.RefusesFile}
	best := -1
	for _, f := range v.Findings {
		if f.Consequence != compat.Rejected {
			continue
		}
		if i := slices.Index(order, f.Refuses); i >= 0 && (best < 0 || i < best) {
			best = i
		}
	}
	if best < 0 {
		return ""
	}
	return order[best]
}

// Dropped counts the dropped findings: entries, keys or files that load
// but never run as written.
func (v Verdict) Dropped() int { return Count(v.Findings, compat.Dropped) }

// Outcome is the verdict in the words an audit cell uses: "marketplace
// refused", "plugin refused", "no hook runs", "hooks file refused",
// "N dropped" or "loads".
func (v Verdict) Outcome() string {
	switch v.Refused() {
	case compat.RefusesMarketplace:
		return "marketplace refused"
	case compat.RefusesPlugin:
		return "plugin refused"
	case compat.RefusesAllHooks:
		return "no hook runs"
	case compat.RefusesFile:
		return "hooks file refused"
	}
	if n := v.Dropped(); n > 0 {
		return fmt.Sprintf("%d dropped", n)
	}
	return "loads"
}

// Judge returns what release v does with plugin p: every finding of its
// files (hooks/hooks.json, plugin.json with its inline hooks, the hooks
// files it names, its marketplace entry), what they refuse, and the
// handlers that register. The error is for a release below the plugin
// floor.
func Judge(v hooks.Release, p Plugin) (Verdict, error) {
	if v.Less(hooks.MustRelease(compat.PluginFloor)) {
		return Verdict{}, fmt.Errorf("%w: Claude Code %s is older than %s, the first release that loads plugins", compat.ErrBelowFloor, v, compat.PluginFloor)
	}
	j := &judge{v: v, p: p, out: Verdict{Release: v}}
	j.run()
	Sort(j.out.Findings)
	return j.out, nil
}

// judge is one Judge call.
type judge struct {
	v   hooks.Release
	p   Plugin
	out Verdict
	// manifest is plugin.json decoded, nil when absent or not an object.
	manifest map[string]any
	// entry is the marketplace entry decoded, nil when none.
	entry map[string]any
}

// source is one object of events the loader merges: hooks.json's
// "hooks", a named file's, or an inline object of plugin.json.
type source struct {
	file   File
	base   string
	events map[string]any
}

// run fills j.out.
func (j *judge) run() {
	v, p := j.v, j.p
	exists := func(clean string) bool {
		if clean == StandardHooks {
			return p.Hooks != nil
		}
		_, ok := p.Files[clean]
		return ok
	}
	if p.FilesUnknown {
		exists = nil
	}
	if p.Manifest != nil {
		j.add(checkPlugin(v, p.Manifest, exists)...)
		if inst, err := decode(p.Manifest); err == nil {
			j.manifest, _ = inst.(map[string]any)
		}
	}
	if p.Entry != nil {
		if inst, err := decode(p.Entry); err == nil {
			j.entry, _ = inst.(map[string]any)
		}
	}
	j.componentPaths()
	entryHooks, entryOK := j.checkEntry()
	var sources []source
	std := 0
	if p.Hooks != nil {
		fs := checkHooksFile(v, HooksJSON, p.Hooks)
		j.add(fs...)
		if !refusesFile(fs) {
			if top, ok := decodeObject(p.Hooks); ok {
				if ev, ok := top["hooks"].(map[string]any); ok {
					sources = append(sources, source{HooksJSON, "/hooks", ev})
					std = 1
				}
			}
		}
		j.declare(p.Hooks, "/hooks")
	}
	loaded := map[string]bool{}
	twice := false
	if _, ok := compat.RuleAt(compat.RuleNamedTwice, v); ok {
		r, _ := compat.RuleAt(compat.RuleNamedTwice, v)
		twice = r.First == compat.PluginFloor
	}
	for i, item := range j.hooksItems() {
		label := PluginJSON
		switch x := item.(type) {
		case map[string]any:
			base := "/hooks"
			if _, isList := j.manifest["hooks"].([]any); isList {
				base = ptr("/hooks", fmt.Sprint(i))
			}
			sources = append(sources, source{label, base, x})
		case string:
			if !strings.HasPrefix(x, "./") || !strings.HasSuffix(x, ".json") {
				continue // refused with the manifest
			}
			clean := CleanPath(x)
			if p.FilesUnknown {
				continue
			}
			if clean == StandardHooks && p.Hooks != nil {
				if _, ok := compat.RuleAt(compat.RuleStandardTwice, v); ok && std == 1 {
					sources = append(sources, sources[0]) // 2.0.30 loads it again
				}
				continue
			}
			doc, found := p.Files[clean]
			if clean == StandardHooks {
				found = false
			}
			file := File(clip(x, 60))
			if !found {
				j.add(Finding{File: PluginJSON, Pointer: j.itemPointer(i), Consequence: compat.Dropped, From: from(compat.RuleHooksFileMissing, v), Rule: compat.RuleHooksFileMissing,
					What: fmt.Sprintf("hooks names %s, which is not in the plugin: the release logs an error and loads the rest", quote(x)), Fix: "add the file or remove it from plugin.json"})
				j.fixRange(compat.RuleHooksFileMissing)
				continue
			}
			if loaded[clean] && !twice {
				continue // skipped; the lint is plugin.json's
			}
			fs, later := forLaterReleases(v, checkHooksFile(v, file, doc))
			if !loaded[clean] {
				j.add(fs...)
				j.declare(doc, "/hooks")
			}
			loaded[clean] = true
			if later || refusesFile(fs) {
				continue
			}
			if top, ok := decodeObject(doc); ok {
				if ev, ok := top["hooks"].(map[string]any); ok {
					sources = append(sources, source{file, "/hooks", ev})
				}
			}
		}
	}
	for _, s := range sources {
		if s.file == PluginJSON {
			j.declareEvents(s.events)
		}
	}
	cfg := j.register(sources)
	cfg = j.applyEntry(cfg, entryHooks, entryOK)
	for _, refs := range cfg.order() {
		j.out.Hooks = append(j.out.Hooks, refs...)
	}
	j.consequences()
}

// add appends findings to the verdict.
func (j *judge) add(fs ...Finding) { j.out.Findings = append(j.out.Findings, fs...) }

// fixRange narrows the last finding to its rule row's releases.
func (j *judge) fixRange(id string) {
	r, ok := compat.RuleAt(id, j.v)
	if !ok {
		j.out.Findings = j.out.Findings[:len(j.out.Findings)-1]
		return
	}
	f := &j.out.Findings[len(j.out.Findings)-1]
	f.From, f.To, f.Consequence = r.First, r.Last, r.Consequence
	if r.Consequence == compat.Rejected {
		f.Refuses = r.Refuses
	}
}

// from is the first release of rule id's row holding on v.
func from(id string, v hooks.Release) string {
	r, _ := compat.RuleAt(id, v)
	return r.First
}

// ComponentKeys are the plugin.json keys naming component paths the
// loader looks up ("Path not found" when one is not there).
var ComponentKeys = []string{"commands", "agents", "skills", "outputStyles"}

// componentPaths reports the component paths plugin.json names that are
// not in the plugin: the release logs "Path not found", loads nothing from
// them, and records a load error.
func (j *judge) componentPaths() {
	if j.p.Missing == nil || j.manifest == nil {
		return
	}
	for _, k := range ComponentKeys {
		if !compat.PluginKeyKnown(k, j.v) {
			continue
		}
		val := j.manifest[k]
		items, isList := val.([]any)
		if !isList {
			items = []any{val}
		}
		for i, x := range items {
			ps, ok := x.(string)
			if !ok || !j.p.Missing[CleanPath(ps)] {
				continue
			}
			pp := ptr("", k)
			if isList {
				pp = ptr(pp, fmt.Sprint(i))
			}
			r, _ := compat.RuleAt(compat.RulePathMissing, j.v)
			j.add(Finding{File: PluginJSON, Pointer: pp, Consequence: r.Consequence, From: r.First, To: r.Last, Rule: compat.RulePathMissing,
				What: fmt.Sprintf("%s names %s, which is not in the plugin: the release logs \"Path not found\" and loads nothing from it", k, quote(ps)),
				Fix:  "add it or remove it from plugin.json"})
		}
	}
}

// MissingPaths returns the component and hooks paths a plugin.json names
// (commands, agents, skills, outputStyles, hooks files), cleaned, for a
// reader to look up.
func MissingPaths(manifest []byte) []string {
	m, ok := decodeObject(manifest)
	if !ok {
		return nil
	}
	var out []string
	for _, k := range ComponentKeys {
		for _, x := range asList(m[k]) {
			if ps, ok := x.(string); ok && strings.HasPrefix(ps, "./") {
				out = append(out, CleanPath(ps))
			}
		}
	}
	return out
}

// hooksItems returns plugin.json's "hooks" as a list of items.
func (j *judge) hooksItems() []any {
	h, ok := j.manifest["hooks"]
	if !ok || h == nil {
		return nil
	}
	if l, ok := h.([]any); ok {
		return l
	}
	return []any{h}
}

// itemPointer is the pointer of item i of plugin.json's "hooks".
func (j *judge) itemPointer(i int) string {
	if _, isList := j.manifest["hooks"].([]any); isList {
		return ptr("/hooks", fmt.Sprint(i))
	}
	return "/hooks"
}

// declare counts the handlers of a hooks file's "hooks".
func (j *judge) declare(doc []byte, _ string) {
	top, ok := decodeObject(doc)
	if !ok {
		return
	}
	if ev, ok := top["hooks"].(map[string]any); ok {
		j.declareEvents(ev)
	}
}

// declareEvents counts the handlers of an object of events.
func (j *judge) declareEvents(events map[string]any) {
	for _, gv := range events {
		groups, _ := gv.([]any)
		for _, g := range groups {
			gm, _ := g.(map[string]any)
			hs, _ := gm["hooks"].([]any)
			j.out.Declared += len(hs)
		}
	}
}

// decodeObject decodes a JSON object.
func decodeObject(doc []byte) (map[string]any, bool) {
	inst, err := decode(doc)
	if err != nil {
		return nil, false
	}
	m, ok := inst.(map[string]any)
	return m, ok
}

// refusesFile reports whether fs refuse their hooks file (or more).
func refusesFile(fs []Finding) bool {
	for _, f := range fs {
		if f.Consequence == compat.Rejected {
			return true
		}
	}
	return false
}

// forLaterReleases turns the rejections of a hooks file plugin.json names
// into one skip, when each of them is about a name a later release knows
// (an event or handler type that arrives later): such a file is written
// for later releases (a plugin may name one file per event edge), and the
// release skips it and loads the rest. It reports whether it did.
func forLaterReleases(v hooks.Release, fs []Finding) ([]Finding, bool) {
	r, ok := compat.RuleAt(compat.RuleLaterFile, v)
	if !ok || !refusesFile(fs) {
		return fs, false
	}
	for _, f := range fs {
		if f.Consequence == compat.Rejected && !f.later {
			return fs, false
		}
	}
	var names []string
	skip := Finding{Consequence: r.Consequence, Rule: compat.RuleLaterFile, From: r.First, To: ""}
	out := make([]Finding, 0, len(fs))
	for _, f := range fs {
		if f.Consequence != compat.Rejected {
			out = append(out, f)
			continue
		}
		skip.File = f.File
		if c := firstClause(f.What); !slices.Contains(names, c) {
			names = append(names, c)
		}
		if f.To != "" && (skip.To == "" || lessV(skip.To, f.To)) {
			skip.To = f.To
		}
	}
	if skip.To == "" || r.Last != "" && lessV(r.Last, skip.To) {
		skip.To = r.Last
	}
	skip.What = clip(strings.Join(names, "; "), 120) + ", so this release skips the file, written for later releases: none of its hooks runs here"
	skip.Fix = "nothing, if the file is meant for those releases; else move what it needs into hooks/hooks.json"
	return append(out, skip), true
}

// droppingRules are the rules whose dropped findings drop handlers.
var droppingRules = []string{compat.RuleUnknownEvent, compat.RuleEntryInvalid, compat.RuleTypeNotRun}

// config is the merged hooks configuration: handlers by event, events in
// first-seen order.
type config struct {
	events []string
	refs   map[string][]HookRef
}

// order returns the handlers event by event.
func (c *config) order() [][]HookRef {
	var out [][]HookRef
	for _, e := range c.events {
		out = append(out, c.refs[e])
	}
	return out
}

// set replaces an event's handlers.
func (c *config) set(event string, refs []HookRef) {
	if _, ok := c.refs[event]; !ok {
		c.events = append(c.events, event)
	}
	c.refs[event] = refs
}

// register merges the sources the way the loader does (each event's lists
// concatenated in load order) and keeps the handlers the release
// registers: under an event it knows, not dropped.
func (j *judge) register(sources []source) *config {
	cfg := &config{refs: map[string][]HookRef{}}
	dropped := map[File]map[string]bool{}
	for _, f := range j.out.Findings {
		if f.Consequence == compat.Dropped && slices.Contains(droppingRules, f.Rule) {
			if dropped[f.File] == nil {
				dropped[f.File] = map[string]bool{}
			}
			dropped[f.File][f.Pointer] = true
		}
	}
	for _, s := range sources {
		for _, name := range sortedKeys(s.events) {
			ev, ok := compat.Lookup(compat.KindEvent, name)
			groups, isList := s.events[name].([]any)
			ep := ptr(s.base, name)
			if !ok || j.v.Less(ev.Version()) || !isList || dropped[s.file][ep] {
				continue
			}
			refs := cfg.refs[name]
			for gi, g := range groups {
				gp := ptr(ep, fmt.Sprint(gi))
				gm, _ := g.(map[string]any)
				hs, isList := gm["hooks"].([]any)
				if !isList || droppedUnder(dropped[s.file], gp, false) {
					continue
				}
				for hi := range hs {
					hp := ptr(gp, "hooks", fmt.Sprint(hi))
					if !droppedUnder(dropped[s.file], hp, true) {
						refs = append(refs, HookRef{File: s.file, Pointer: hp, Event: name})
					}
				}
			}
			cfg.set(name, refs)
		}
	}
	return cfg
}

// componentKeys are the marketplace-entry keys that, with strict false
// beside a plugin.json, make the loader refuse the plugin as a conflict.
var componentKeys = []string{"commands", "agents", "skills", "hooks", "outputStyles"}

// checkEntry judges the marketplace entry's "hooks": it returns the
// entry's object of events when the loader takes it, and whether the entry
// is installable at all.
func (j *judge) checkEntry() (map[string]any, bool) {
	if j.entry == nil {
		return nil, true
	}
	v := j.v
	strict := true
	if s, ok := j.entry["strict"].(bool); ok {
		strict = s
	}
	hv, has := j.entry["hooks"]
	if has {
		if what := entryHooksProblem(v, hv); what != "" {
			r, _ := compat.RuleAt(compat.RuleEntryHooks, v)
			tail := ", so the release refuses the whole marketplace: none of its plugins can be added or installed"
			if r.Refuses == compat.RefusesPlugin {
				tail = ", so the release refuses to install the plugin"
			}
			j.add(Finding{File: MarketplaceJSON, Pointer: "/hooks", Consequence: r.Consequence, Refuses: r.Refuses, From: r.First, To: r.Last, Rule: compat.RuleEntryHooks,
				What: "the entry's hooks are invalid (" + what + ")" + tail, Fix: "fix the entry's hooks, or move them into the plugin's hooks/hooks.json"})
			return nil, false
		}
	}
	if !strict && j.p.Manifest != nil {
		for _, k := range componentKeys {
			if _, ok := j.entry[k]; ok {
				r, _ := compat.RuleAt(compat.RuleEntryConflict, v)
				j.add(Finding{File: MarketplaceJSON, Pointer: ptr("", k), Consequence: r.Consequence, Refuses: r.Refuses, From: r.First, To: r.Last, Rule: compat.RuleEntryConflict,
					What: fmt.Sprintf("the entry says strict: false and declares %q while the plugin has a plugin.json (\"This is a conflict\"), so the plugin is refused", k),
					Fix:  "drop strict: false, or move the components out of plugin.json"})
				return nil, false
			}
		}
	}
	if !has {
		return nil, true
	}
	m, _ := hv.(map[string]any)
	return m, true
}

// entryHooksProblem is why the marketplace entry's schema refuses its
// "hooks" ("" when it takes them): the plugin.json union (a ./ path to a
// .json file, an object of events, or a list of them), each object parsed
// whole as releases up to 2.1.252 parse plugin.json; later releases parse a
// marketplace entry the same whole way (seen on 2.1.330).
func entryHooksProblem(v hooks.Release, hv any) string {
	if msg, _ := pluginValue("hooks", hv, v); msg != "" {
		return msg
	}
	if hv == nil {
		return "hooks is null"
	}
	// The whole-entry parse of the releases before per-entry tolerance.
	tol, _ := compat.Lookup(compat.KindLoader, compat.UnknownEventsTolerated)
	strict := hooks.MustRelease(tol.Before)
	if v.Less(strict) {
		strict = v
	}
	var objs []map[string]any
	switch t := hv.(type) {
	case map[string]any:
		objs = append(objs, t)
	case []any:
		for _, x := range t {
			if o, ok := x.(map[string]any); ok {
				objs = append(objs, o)
			}
		}
	}
	for _, o := range objs {
		c := &checker{v: strict, file: MarketplaceJSON, refuses: compat.RefusesPlugin}
		c.events(o, "/hooks", true)
		// The release's own events decide which names it knows.
		for _, name := range sortedKeys(o) {
			if ev, ok := compat.Lookup(compat.KindEvent, name); !ok || v.Less(ev.Version()) {
				return fmt.Sprintf("unknown event %q", clip(name, 40))
			}
		}
		for _, f := range c.out {
			if f.Consequence == compat.Rejected && f.Rule != compat.RuleUnknownEvent {
				return firstClause(f.What)
			}
		}
	}
	return ""
}

// firstClause is a finding's text up to ", so": the cause alone.
func firstClause(s string) string {
	if i := strings.Index(s, ", so "); i > 0 {
		return s[:i]
	}
	return s
}

// applyEntry merges the marketplace entry's hooks the way the loader does:
// without a plugin.json they replace the plugin's hooks, with one they
// replace the plugin's hooks of each event they declare; a path or a list
// in "hooks" replaces everything with nothing up to 2.1.197 and is ignored
// from 2.1.198.
func (j *judge) applyEntry(cfg *config, hooks map[string]any, ok bool) *config {
	if j.entry == nil || !ok {
		return cfg
	}
	if _, has := j.entry["hooks"]; !has {
		return cfg
	}
	v := j.v
	if hooks == nil {
		r, _ := compat.RuleAt(compat.RuleEntryHooksForm, v)
		what := "the entry's hooks are a path or a list, which the release ignores (\"not yet supported in a marketplace entry\"): they never load"
		if r.Last != "" {
			what = "the entry's hooks are a path or a list, which the release takes as the hooks themselves: none of them registers"
			if j.p.Manifest == nil {
				what = "the entry's hooks are a path or a list, which the release takes as the hooks themselves: none of the plugin's hooks registers, hooks/hooks.json's included"
				cfg = &config{refs: map[string][]HookRef{}}
			}
		}
		j.add(Finding{File: MarketplaceJSON, Pointer: "/hooks", Consequence: r.Consequence, From: r.First, To: r.Last, Rule: compat.RuleEntryHooksForm,
			What: what, Fix: "inline them in the entry as an object of events, or name the file in the plugin's plugin.json"})
		return cfg
	}
	c := &checker{v: v, file: MarketplaceJSON, refuses: compat.RefusesPlugin}
	c.events(hooks, "/hooks", true)
	j.add(c.out...)
	j.declareEvents(hooks)
	entry := j.register([]source{{MarketplaceJSON, "/hooks", hooks}})
	if j.p.Manifest == nil {
		if n := countRefs(cfg); n > 0 {
			r, _ := compat.RuleAt(compat.RuleEntryReplaces, v)
			j.add(Finding{File: MarketplaceJSON, Pointer: "/hooks", Consequence: r.Consequence, From: r.First, To: r.Last, Rule: compat.RuleEntryReplaces,
				What: fmt.Sprintf("the entry's hooks replace the plugin's (it has no plugin.json): hooks/hooks.json's %d hooks never run", n),
				Fix:  "declare all the hooks in one place: the entry, or hooks/hooks.json"})
		}
		return entry
	}
	for _, name := range entry.events {
		if n := len(cfg.refs[name]); n > 0 {
			r, _ := compat.RuleAt(compat.RuleEntryOverrides, v)
			j.add(Finding{File: MarketplaceJSON, Pointer: ptr("/hooks", name), Consequence: r.Consequence, From: r.First, To: r.Last, Rule: compat.RuleEntryOverrides,
				What: fmt.Sprintf("the entry's %s hooks replace the plugin's own %d %s hooks, which never run", name, n, name),
				Fix:  "declare each event's hooks in one place"})
		}
		cfg.set(name, entry.refs[name])
	}
	return cfg
}

// countRefs counts the handlers of a config.
func countRefs(c *config) int {
	n := 0
	for _, refs := range c.refs {
		n += len(refs)
	}
	return n
}

// LoadError reports whether finding f means the release records a load
// error for the plugin ("Hook load failed", "Path not found"), which keeps
// the plugin's MCP servers off.
func (vd Verdict) LoadError(f Finding) bool {
	return loadError(f, vd.Release)
}

// loadError is [Verdict.LoadError] on release v.
func loadError(f Finding, v hooks.Release) bool {
	switch {
	case f.Consequence == compat.Rejected && f.Refuses == compat.RefusesFile:
		return true
	case f.Rule == compat.RuleHooksFileMissing, f.Rule == compat.RulePathMissing, f.Rule == compat.RuleLaterFile:
		return true
	case f.Rule == compat.RuleNamedTwice || f.Rule == compat.RuleStandardHooks || f.Rule == compat.RuleEntryHooksForm:
		r, ok := compat.RuleAt(f.Rule, v)
		switch f.Rule {
		case compat.RuleNamedTwice:
			return ok && r.First != compat.PluginFloor
		case compat.RuleStandardHooks:
			return ok && r.Last != ""
		}
		return ok && r.Last == ""
	}
	return false
}

// consequences adds what follows from the findings: the MCP servers a load
// error keeps off, and a release on which none of the plugin's hooks runs.
func (j *judge) consequences() {
	v := j.v
	refused := false
	for _, f := range j.out.Findings {
		if f.Consequence == compat.Rejected && (f.Refuses == compat.RefusesPlugin || f.Refuses == compat.RefusesMarketplace) {
			refused = true
		}
	}
	if refused {
		j.out.Hooks = nil
		return
	}
	if j.p.MCP || j.manifest["mcpServers"] != nil {
		for _, f := range j.out.Findings {
			if loadError(f, v) {
				r, _ := compat.RuleAt(compat.RuleMCPOff, v)
				j.add(Finding{File: f.File, Pointer: f.Pointer, Consequence: r.Consequence, From: r.First, To: r.Last, Rule: compat.RuleMCPOff,
					What: "this load error keeps the plugin's MCP servers off (\"Plugin not available for MCP\")", Fix: f.Fix})
				break
			}
		}
	}
	if j.out.Declared > 0 && len(j.out.Hooks) == 0 && !refusesFile(j.out.Findings) {
		r, _ := compat.RuleAt(compat.RuleNoHookRuns, v)
		// It holds where every drop that empties the plugin holds.
		lo, hi := r.First, ""
		for _, f := range j.out.Findings {
			if f.Consequence != compat.Dropped {
				continue
			}
			if lessV(lo, f.From) {
				lo = f.From
			}
			if f.To != "" && (hi == "" || lessV(f.To, hi)) {
				hi = f.To
			}
		}
		j.add(Finding{File: PluginFiles, Consequence: r.Consequence, Refuses: r.Refuses, From: lo, To: hi, Rule: compat.RuleNoHookRuns,
			What: fmt.Sprintf("none of the plugin's %d hooks runs on this release: each is dropped", j.out.Declared),
			Fix:  "see the dropped entries"})
	}
}

// JudgeMarketplace judges every plugin of one marketplace on release v,
// in order. Where one entry makes the release refuse the whole
// marketplace, every other plugin of it is refused too.
func JudgeMarketplace(v hooks.Release, ps []Plugin) ([]Verdict, error) {
	out := make([]Verdict, len(ps))
	var culprits []string
	for i, p := range ps {
		vd, err := Judge(v, p)
		if err != nil {
			return nil, err
		}
		out[i] = vd
		if vd.Refused() == compat.RefusesMarketplace {
			culprits = append(culprits, p.Name)
		}
	}
	if len(culprits) == 0 {
		return out, nil
	}
	r, _ := compat.RuleAt(compat.RuleEntryHooks, v)
	for i := range out {
		if out[i].Refused() == compat.RefusesMarketplace {
			continue
		}
		out[i].Findings = append([]Finding{{File: MarketplaceJSON, Consequence: compat.Rejected, Refuses: compat.RefusesMarketplace,
			From: r.First, To: r.Last, Rule: compat.RuleEntryHooks,
			What: fmt.Sprintf("the release refuses the whole marketplace over the entry of %s, so this plugin cannot be installed either", quote(strings.Join(culprits, ", "))),
			Fix:  "fix that entry's hooks"}}, out[i].Findings...)
		out[i].Hooks = nil
	}
	return out, nil
}
