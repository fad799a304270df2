package oracle

import (
	"encoding/json"
	"fmt"
	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/hooks"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// checker gathers the findings of one file on one release.
type checker struct {
	v    hooks.Release
	file File
	// refuses is what a rejection found here refuses, where the rule row
	// does not say: the hooks file for hooks.json and the files
	// plugin.json names, the plugin for plugin.json (its inline hooks
	// included).
	refuses compat.Refusal
	out     []Finding
	// lo is the first release the current entry can load on (its
	// handler type's), narrowing every finding about it.
	lo string
}

// add records a finding of rule id on the checker's release, spanning the
// rule row's releases narrowed to [lo, hi] ("" leaves a side open). A rule
// that does not hold on the release adds nothing.
func (c *checker) add(id, pointer, lo, hi, what, fix string) {
	r, ok := compat.RuleAt(id, c.v)
	if !ok {
		return
	}
	from, to := r.First, r.Last
	if c.lo != "" && (lo == "" || lessV(lo, c.lo)) {
		lo = c.lo
	}
	if lo != "" && lessV(from, lo) {
		from = lo
	}
	if hi != "" && (to == "" || lessV(hi, to)) {
		to = hi
	}
	f := Finding{File: c.file, Pointer: pointer, Consequence: r.Consequence,
		From: from, To: to, What: what, Fix: fix, Rule: id}
	if r.Consequence == compat.Rejected {
		f.Refuses = r.Refuses
		if f.Refuses == "" {
			f.Refuses = c.refuses
		}
	}
	c.out = append(c.out, f)
}

// markLater marks the findings added since index n as about a name a
// later release knows (an event or a handler type that arrives later),
// when later is true.
func (c *checker) markLater(n int, later bool) {
	for i := n; later && i < len(c.out); i++ {
		c.out[i].later = true
	}
}

// refusedTail says what a rejection here refuses, for a finding's text.
func (c *checker) refusedTail() string {
	switch {
	case c.refuses == compat.RefusesPlugin:
		return ", so the plugin is refused"
	case c.file == HooksJSON:
		return ", so the whole hooks.json is refused: none of its hooks runs"
	}
	return ", so the release skips this hooks file: none of its hooks runs"
}

// CheckHooks returns what release v's loader does with a plugin's
// hooks.json, sorted gravest first. An empty result means it loads and
// runs as written. The error is for a release below the plugin floor.
func CheckHooks(v hooks.Release, doc []byte) ([]Finding, error) {
	if v.Less(hooks.MustRelease(compat.PluginFloor)) {
		return nil, fmt.Errorf("%w: Claude Code %s is older than %s, the first release that loads plugins", compat.ErrBelowFloor, v, compat.PluginFloor)
	}
	return checkHooksFile(v, HooksJSON, doc), nil
}

// checkHooksFile checks a hooks file (hooks/hooks.json or one plugin.json
// names) labelled file.
func checkHooksFile(v hooks.Release, file File, doc []byte) []Finding {
	c := &checker{v: v, file: file, refuses: compat.RefusesFile}
	if len(doc) > MaxFile {
		c.add(compat.RuleNotJSON, "", "", "", "the file is larger than 4 MiB"+c.refusedTail(), "keep the hooks file small")
		return c.out
	}
	inst, err := decode(doc)
	if err != nil {
		c.add(compat.RuleNotJSON, "", "", "", "not valid JSON ("+clip(err.Error(), 60)+")"+c.refusedTail(), "fix the JSON syntax")
		return c.out
	}
	top, ok := inst.(map[string]any)
	if !ok {
		c.add(compat.RuleNotJSON, "", "", "", "a hooks file must be a JSON object, not "+kind(inst)+c.refusedTail(), `write {"hooks": {...}}`)
		return c.out
	}
	c.duplicates(doc)
	c.topLevel(top)
	Sort(c.out)
	return c.out
}

// kind names a JSON value's type for a message.
func kind(v any) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		if len(t) == 0 {
			return "[]"
		}
		return "a list"
	}
	return "an object"
}

// topLevel checks the file object.
func (c *checker) topLevel(top map[string]any) {
	modules := !c.v.Less(hooks.MustRelease(compat.HooksModulesSince))
	for _, k := range sortedKeys(top) {
		val := top[k]
		p := ptr("", k)
		switch {
		case k == "hooks":
			c.events(val, "/hooks", false)
		case k == "description":
			if _, ok := val.(string); !ok {
				c.add(compat.RuleHooksShape, p, "", "", "description must be a string"+c.refusedTail(), "make it a string or remove it")
			}
		case k == "$schema":
			// Read past on every release; editors use it.
		case k == "modules" && modules:
			c.modules(p, val)
		case k == "surface":
			if r, ok := compat.RuleAt(compat.RuleSurfaceGone, c.v); ok && r.Consequence == compat.Rejected {
				c.add(compat.RuleSurfaceGone, p, "", "", `"surface" is gone`+c.refusedTail(), "name the module in the Client element instead")
			} else {
				c.add(compat.RuleUnknownKey, p, "", compat.SurfaceReadPastUntil, `unknown top-level key "surface" is read past`, "remove it")
			}
		case k == "modules":
			c.add(compat.RuleUnknownKey, p, "", prevOf(compat.HooksModulesSince),
				`"modules" (hooks modules) is read past: the module never loads`, "declare the hooks under \"hooks\" for these releases")
		case isGuardEntry(k, val) || !slices.Contains(hooksUnscanned, k) && holdsGuard(val, compat.GuardDepth):
			c.add(compat.RuleTopLevelGuard, p, "", "",
				fmt.Sprintf("%s hooks sit outside \"hooks\"", k)+c.guardTail(), `move them under "hooks"`)
		case isEvent(k):
			c.add(compat.RuleTopLevelEvent, p, "", "", fmt.Sprintf("event %s sits outside \"hooks\", so its hooks never run", k), `move it under "hooks"`)
		default:
			c.add(compat.RuleUnknownKey, p, "", "", fmt.Sprintf("unknown top-level key %q is read past", clip(k, 40)), `hooks.json takes "description" and "hooks"; remove it`)
		}
	}
	if _, ok := top["hooks"]; !ok {
		if ms, _ := top["modules"].([]any); !(len(ms) > 0 && modules) {
			c.add(compat.RuleHooksShape, "", "", "", `"hooks" is missing`+c.refusedTail(), `add "hooks": {...}`)
		}
	}
}

// modules checks a hooks.json "modules": at most one path.
func (c *checker) modules(p string, val any) {
	list, ok := val.([]any)
	if !ok {
		c.add(compat.RuleModules, p, "", "", "modules must be a list of paths"+c.refusedTail(), `write "modules": ["./hooks.mjs"]`)
		return
	}
	for _, x := range list {
		if _, ok := x.(string); !ok {
			c.add(compat.RuleModules, p, "", "", "modules must be a list of paths"+c.refusedTail(), "quote each path")
			return
		}
	}
	if len(list) > 1 {
		c.add(compat.RuleModules, p, "", "", "modules names more than one hooks module"+c.refusedTail(), "keep one module per plugin")
	}
}

// guardTail says what a release does with guard hooks outside "hooks".
func (c *checker) guardTail() string {
	if r, ok := compat.RuleAt(compat.RuleTopLevelGuard, c.v); ok && r.Consequence == compat.Rejected {
		return ", so the whole plugin is refused"
	}
	return ", so they never run"
}

// hooksUnscanned are the hooks.json top-level keys 2.1.330 does not
// search for guard hooks.
var hooksUnscanned = compat.HooksUnscanned

// isGuardEntry reports whether key k with value v is a PreToolUse or
// PermissionRequest entry that counts: not null and not an empty list.
func isGuardEntry(k string, v any) bool {
	if !slices.Contains(compat.GuardEvents, k) || v == nil {
		return false
	}
	a, isList := v.([]any)
	return !isList || len(a) > 0
}

// holdsGuard reports whether v holds a PreToolUse or PermissionRequest key
// with a non-empty value within depth levels (2.1.257's check).
func holdsGuard(v any, depth int) bool {
	if depth == 0 {
		return false
	}
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			if isGuardEntry(k, x) {
				return true
			}
			if holdsGuard(x, depth-1) {
				return true
			}
		}
	case []any:
		for _, x := range t {
			if holdsGuard(x, depth-1) {
				return true
			}
		}
	}
	return false
}

// isEvent reports whether name is an event of any release.
func isEvent(name string) bool {
	_, ok := compat.Lookup(compat.KindEvent, name)
	return ok
}

// prevOf returns the published release the matrix or a probe names just
// before edge, or edge itself when none is known.
func prevOf(edge string) string {
	if edge == compat.HooksModulesSince {
		return compat.HooksModulesBefore
	}
	return edge
}

// invalid records an entry the validator refuses: the whole file up to
// 2.1.252; from 2.1.257 the entry is dropped, or the plugin refused under
// PreToolUse and PermissionRequest.
func (c *checker) invalid(event, pointer, what, fix string) {
	c.invalidUpTo(event, pointer, "", what, fix)
}

// invalidUpTo is invalid for a finding that holds up to release hi.
func (c *checker) invalidUpTo(event, pointer, hi, what, fix string) {
	id := compat.RuleEntryInvalid
	if slices.Contains(compat.GuardEvents, event) {
		id = compat.RuleGuardInvalid
	}
	r, ok := compat.RuleAt(id, c.v)
	if !ok {
		return
	}
	switch {
	case r.Consequence == compat.Dropped:
		what += ", so the entry is ignored"
	case r.Refuses == compat.RefusesPlugin:
		what += ", so the whole plugin is refused"
	default:
		what += c.refusedTail()
	}
	c.add(id, pointer, "", hi, what, fix)
}

// events checks an object of events: hooks.json's "hooks" (at base
// "/hooks"), or plugin.json's inline hooks (inline: "hooks" itself, or one
// object of its list, at base "/hooks/<i>").
func (c *checker) events(val any, base string, inline bool) {
	m, ok := val.(map[string]any)
	if !ok {
		what := `"hooks" must be an object keyed by event name`
		if inline {
			what = "inline hooks must be an object keyed by event name"
		}
		c.add(compat.RuleHooksShape, base, "", "", what+c.refusedTail(), `write "hooks": {"PreToolUse": [...]}`)
		return
	}
	for _, name := range sortedKeys(m) {
		p := ptr(base, name)
		ev, known := compat.Lookup(compat.KindEvent, name)
		if !known || c.v.Less(ev.Version()) {
			if r, _ := compat.RuleAt(compat.RuleUnknownEvent, c.v); r.Consequence == compat.Dropped && holdsGuard(m[name], compat.GuardDepth) {
				c.add(compat.RuleTopLevelGuard, p, "", "", fmt.Sprintf("%q is not an event this release knows, but it holds PreToolUse/PermissionRequest hooks, so the whole plugin is refused", clip(name, 40)), "move those hooks under a known event")
				continue
			}
			n := len(c.out)
			c.unknownEvent(p, name, ev, known, inline)
			c.markLater(n, known)
			continue
		}
		groups, ok := m[name].([]any)
		if !ok {
			if r, _ := compat.RuleAt(compat.RuleEntryInvalid, c.v); m[name] == nil && r.Consequence == compat.Dropped {
				// 2.1.257 on: a null event is ignored even under the guards.
				c.add(compat.RuleEntryInvalid, p, "", "", "an event takes a list of matcher groups, so the entry is ignored", "remove it or write a list")
				continue
			}
			c.invalid(name, p, "an event takes a list of matcher groups", `write [{"matcher": "...", "hooks": [...]}]`)
			continue
		}
		for i, g := range groups {
			c.group(name, ev, ptr(p, fmt.Sprint(i)), g)
		}
	}
}

// unknownEvent reports an event the release lacks.
func (c *checker) unknownEvent(p, name string, ev compat.Feature, known, inline bool) {
	r, _ := compat.RuleAt(compat.RuleUnknownEvent, c.v)
	tail := c.refusedTail()
	if r.Consequence == compat.Dropped {
		tail = ", so its hooks never run"
	}
	if !known {
		fix := "check the spelling (names are case-sensitive) or remove it"
		switch {
		case inline && (name == "hooks" || name == "description"):
			fix = `plugin.json's "hooks" takes the events themselves: write "hooks": {"SessionStart": [...]}, not the hooks.json form {"hooks": {...}}`
		case inline:
			fix = "check the spelling (names are case-sensitive); plugin.json's inline hooks take event names only"
		}
		c.add(compat.RuleUnknownEvent, p, "", "", fmt.Sprintf("unknown event %q%s", clip(name, 40), tail), fix)
		return
	}
	c.add(compat.RuleUnknownEvent, p, "", ev.Before, fmt.Sprintf("event %s arrives in %s%s", name, ev.Since, tail),
		fmt.Sprintf("ship a hooks.json without it for releases before %s (hookgen --cc-version)", ev.Since))
}

// group checks one matcher group.
func (c *checker) group(event string, ev compat.Feature, p string, g any) {
	m, ok := g.(map[string]any)
	if !ok {
		c.invalid(event, p, "a matcher group must be an object", `write {"matcher": "...", "hooks": [...]}`)
		return
	}
	if mv, has := m["matcher"]; has {
		s, isStr := mv.(string)
		switch {
		case !isStr:
			c.invalid(event, ptr(p, "matcher"), "matcher must be a string", `write a string such as "Bash|Write"`)
		case ev.Matcher == "" && s != "" && s != "*":
			c.add(compat.RuleIgnoredMatcher, ptr(p, "matcher"), "", "", event+" takes no matcher: it is ignored and the hook runs on every "+event, "remove the matcher")
		}
	}
	hv, has := m["hooks"]
	hs, isList := hv.([]any)
	if !has || !isList {
		c.invalid(event, ptr(p, "hooks"), `a matcher group needs "hooks", a list of handlers`, `add "hooks": [{"type": "command", "command": "..."}]`)
		return
	}
	for _, k := range sortedKeys(m) {
		if k != "matcher" && k != "hooks" {
			c.add(compat.RuleUnknownKey, ptr(p, k), "", "", fmt.Sprintf("unknown matcher-group key %q is read past", clip(k, 40)), `a group takes "matcher" and "hooks"; remove it`)
		}
	}
	for i, h := range hs {
		c.handler(event, ptr(p, "hooks", fmt.Sprint(i)), h)
	}
}

// handler checks one handler.
func (c *checker) handler(event, p string, h any) {
	m, ok := h.(map[string]any)
	if !ok {
		c.invalid(event, p, "a handler must be an object", `write {"type": "command", "command": "..."}`)
		return
	}
	typ, isStr := m["type"].(string)
	if !isStr {
		c.invalid(event, ptr(p, "type"), `a handler needs "type", a string`, `add "type": "command"`)
		return
	}
	vs, known := compat.HandlerValidatorSince[typ]
	if !known || c.v.Less(hooks.MustRelease(vs)) {
		what := fmt.Sprintf("handler type %s is not one this release takes", quote(typ))
		if known {
			what = fmt.Sprintf("handler type %q arrives in %s", typ, vs)
		}
		n := len(c.out)
		c.invalidUpTo(event, ptr(p, "type"), compat.HandlerValidatorBefore[typ], what, "use a \"command\" handler for these releases")
		c.markLater(n, known)
		return
	}
	c.lo = vs
	defer func() { c.lo = "" }()
	if f, ok := compat.Lookup(compat.KindHandlerType, typ); ok && c.v.Less(f.Version()) {
		if r, ok := compat.RuleAt(compat.RuleTypeNotRun, c.v); ok && r.Consequence == compat.Dropped {
			c.add(compat.RuleTypeNotRun, ptr(p, "type"), "", "", fmt.Sprintf("the release takes %s handlers in a plugin but does not register them", typ), "use a \"command\" handler for this release")
		} else {
			c.add(compat.RuleTypeUnproven, ptr(p, "type"), vs, prevOf(f.Since), fmt.Sprintf("%s handlers in a plugin are not seen running before %s", typ, f.Since), "test it on the release, or use a \"command\" handler")
		}
	}
	for _, k := range sortedKeys(m) {
		if k == "type" {
			continue
		}
		c.handlerKey(event, typ, p, k, m[k])
	}
	for _, req := range compat.HandlerRequired[typ] {
		if _, ok := m[req]; !ok {
			c.invalid(event, ptr(p, req), fmt.Sprintf("a %s handler needs %q", typ, req), fmt.Sprintf("add %q", req))
		}
	}
}

// handlerKey checks one key of a handler of type typ.
func (c *checker) handlerKey(event, typ, p, k string, val any) {
	kp := ptr(p, k)
	f, ok := handlerField(k, typ)
	if !ok {
		c.add(compat.RuleUnknownKey, kp, "", "", fmt.Sprintf("unknown %s-handler key %q is read past", typ, clip(k, 40)), "check the spelling or remove it")
		return
	}
	if c.v.Less(f.Version()) && !keptTypeEdge(f, typ, c.v) {
		if k == "args" {
			c.add(compat.RuleArgsDropped, kp, "", f.Before, `"args" arrives in 2.1.139: earlier releases drop it and run the command without its arguments`, `put the arguments in "command"`)
			return
		}
		c.add(compat.RuleUnknownKey, kp, "", f.Before, fmt.Sprintf("%q arrives in %s: earlier releases read past it", k, f.Since), "fine if the hook works without it")
		return
	}
	if msg, fix := valueProblem(k, val); msg != "" {
		c.invalid(event, kp, msg, fix)
		return
	}
	switch k {
	case "timeout":
		if n, ok := number(val); ok && n > compat.LongTimeout {
			c.add(compat.RuleLongTimeout, kp, "", "", fmt.Sprintf("timeout is in seconds: %s is over an hour and looks like milliseconds", quote(val)), "write seconds (5000 ms is 5); keep it if the wait is meant")
		}
	case "command":
		if s, _ := val.(string); strings.TrimSpace(s) == "" {
			c.add(compat.RuleEmptyCommand, kp, "", "", "the command is empty", "name the program to run")
		}
	}
}

// keptTypeEdge reports whether f is dated by its handler type's kept
// edge (the matrix's Source is not the probe) while release v's validator
// already takes the type: the key is then declared with the type.
func keptTypeEdge(f compat.Feature, typ string, v hooks.Release) bool {
	if f.Source == compat.SourceProbe || len(f.Types) == 0 {
		return false
	}
	vs, ok := compat.HandlerValidatorSince[typ]
	return ok && !v.Less(hooks.MustRelease(vs))
}

// handlerField returns the matrix row of a handler key for type typ.
func handlerField(k, typ string) (compat.Feature, bool) {
	for _, f := range handlerFields()[k] {
		if len(f.Types) == 0 || slices.Contains(f.Types, typ) {
			return f, true
		}
	}
	return compat.Feature{}, false
}

// handlerFields are the matrix's handler keys by name, in matrix order.
var handlerFields = sync.OnceValue(func() map[string][]compat.Feature {
	out := map[string][]compat.Feature{}
	for _, f := range compat.All(compat.KindField) {
		if f.Scope == compat.ScopeHandler {
			out[f.Name] = append(out[f.Name], f)
		}
	}
	return out
})

// number returns a JSON number's value.
func number(v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil
}

// valueProblem is what the releases' zod schemas refuse in a handler
// key's value ("" when none), with the fix. The kinds are
// compat.HandlerValues, which the JSON Schemas read too.
func valueProblem(k string, val any) (string, string) {
	switch compat.HandlerValue(k) {
	case compat.ValueString:
		if _, ok := val.(string); !ok {
			return k + " must be a string", "write it as one string"
		}
	case compat.ValueNonEmptyString:
		if s, ok := val.(string); !ok || s == "" {
			return k + " must be a non-empty string", "write a string or remove it"
		}
	case compat.ValuePositiveNumber:
		n, ok := number(val)
		if !ok {
			return k + " must be a number of seconds", "write a number such as 30"
		}
		if n <= 0 {
			return k + " must be above 0 seconds", "write a positive number of seconds"
		}
	case compat.ValueBool:
		if _, ok := val.(bool); !ok {
			return k + " must be true or false", "write true or false"
		}
	case compat.ValueShell:
		if s, _ := val.(string); !slices.Contains(compat.ShellValues, s) {
			return k + ` must be "bash" or "powershell"`, `write "bash" or remove it`
		}
	case compat.ValueURL:
		s, ok := val.(string)
		if !ok {
			return k + " must be a string", "write a full URL"
		}
		if !validURL(s) {
			msg := fmt.Sprintf("%s %s is not a URL (\"Invalid URL\")", k, quote(s))
			if strings.Contains(s, "$") {
				msg = fmt.Sprintf("%s %s is not a URL (\"Invalid URL\"; no variable is expanded)", k, quote(s))
			}
			return msg, "write the full URL"
		}
	case compat.ValueStringMap:
		m, ok := val.(map[string]any)
		if !ok {
			return k + " must be an object", "write an object or remove it"
		}
		for _, x := range m {
			if _, ok := x.(string); !ok {
				return k + " values must be strings", "quote each value"
			}
		}
	case compat.ValueObject:
		if _, ok := val.(map[string]any); !ok {
			return k + " must be an object", "write an object or remove it"
		}
	case compat.ValueStringList:
		a, ok := val.([]any)
		if !ok {
			return k + " must be a list of strings", "write a list of strings"
		}
		for _, x := range a {
			if _, ok := x.(string); !ok {
				return k + " must be a list of strings", "quote each item"
			}
		}
	}
	return "", ""
}

// The URL patterns of compat (the JSON Schemas apply the same ones).
var (
	urlSpecialScheme = regexp.MustCompile(compat.URLSpecialScheme)
	urlSpecial       = regexp.MustCompile(compat.URLSpecial)
	urlGeneric       = regexp.MustCompile(compat.URLGeneric)
)

// validURL is zod's string().url(), which is `new URL(s)`, as compat's
// URL patterns write it.
func validURL(s string) bool {
	if urlSpecialScheme.MatchString(s) {
		return urlSpecial.MatchString(s)
	}
	return urlGeneric.MatchString(s)
}
