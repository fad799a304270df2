package schemas

import (
	"encoding/json"
	"fmt"
	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/hooks"
	"slices"
	"sort"
	"strings"
)

// Timeout bounds, in seconds: a timeout must be above MinTimeout (every
// release's number().positive()); above MaxTimeout it is a warning (it
// looks like milliseconds; no release bounds it).
const (
	MinTimeout = 0
	MaxTimeout = compat.LongTimeout
)

// obj is a JSON Schema node under construction.
type obj = map[string]any

// ID returns the $id of the schema for an edge.
func ID(edge hooks.Release) string {
	return "https://github.com/hookwright/hookwright/schemas/hooks-" + edge.String() + ".schema.json"
}

// FileName returns the embedded file name of the schema for an edge.
func FileName(edge hooks.Release) string { return "hooks-" + edge.String() + ".schema.json" }

// at is the rules of one edge, as the builder reads them.
type at struct {
	v hooks.Release
}

// sev is the severity of rule id's consequence on the edge: an error where
// the release refuses the file or drops a hook (a hook would not run as
// written), a warning where it reads past or lints, "" where the rule does
// not hold.
func (a at) sev(id string) Severity {
	r, ok := compat.RuleAt(id, a.v)
	switch {
	case !ok:
		return ""
	case r.Consequence == compat.Rejected || r.Consequence == compat.Dropped:
		return Error
	}
	return Warning
}

// fail is a schema that fails on any value with msg, at severity sev.
func fail(sev Severity, msg string) obj {
	if sev == Warning {
		return warn(msg)
	}
	return refuse(msg)
}

// consequence says in words what the release does, for a message.
func (a at) consequence(id string) string {
	r, _ := compat.RuleAt(id, a.v)
	switch {
	case r.Consequence == compat.Rejected && r.Refuses == compat.RefusesPlugin:
		return "the release refuses the whole plugin"
	case r.Consequence == compat.Rejected:
		return "the release refuses the whole hooks.json: none of its hooks runs"
	case r.Consequence == compat.Dropped:
		return "the release drops it: it never runs"
	case r.Consequence == compat.Ignored:
		return "the release reads past it"
	}
	return "it loads"
}

// Build returns the JSON Schema for the releases from edge to the next
// edge (compat.Edges), generated from the same tables and rules the oracle
// applies (package oracle, hookgen validate), as indented JSON with sorted
// keys. An error of the schema is what the oracle calls rejected or
// dropped; a warning what it calls ignored or a lint.
func Build(edge hooks.Release) ([]byte, error) {
	a := at{edge}
	s := obj{
		"$schema":     "https://json-schema.org/draft/2020-12/schema",
		"$id":         ID(edge),
		"title":       "Claude Code plugin hooks.json, releases from " + edge.String(),
		"description": "Generated from hookwright's compat tables and loader rules; do not edit. Regenerate with go test ./schemas -update.",
		"type":        "object",
		"properties":  a.topProperties(),
		"additionalProperties": obj{
			"if":   obj{"$ref": "#/$defs/holdsGuard"},
			"then": fail(a.sev(compat.RuleTopLevelGuard), "\"{name}\" holds PreToolUse/PermissionRequest hooks outside \"hooks\": "+a.consequence(compat.RuleTopLevelGuard)),
			"else": warn("unknown top-level key \"{name}\": hooks.json takes \"description\" and \"hooks\"; the release reads past it"),
		},
		"x-message": obj{"type": "hooks.json must be a JSON object: " + a.consequence(compat.RuleNotJSON)},
		"$defs": obj{
			"events":         a.events(),
			"groups":         groups("group"),
			"groupsNoMatch":  groups("groupNoMatch"),
			"group":          a.group(false),
			"groupNoMatch":   a.group(true),
			"handlers":       obj{"type": "array", "items": obj{"$ref": "#/$defs/handler"}, "x-message": obj{"type": "\"hooks\" must be a list of handlers: " + a.invalid()}},
			"handler":        a.handler(),
			"url":            urlSchema(a.invalid()),
			"nonEmptyGuard":  obj{"not": obj{"anyOf": []any{obj{"type": "null"}, obj{"type": "array", "maxItems": 0}}}},
			"holdsGuard":     holds(compat.GuardDepth),
			"holdsGuardLess": holds(compat.GuardDepth - 1),
		},
	}
	for d := compat.GuardDepth - 2; d >= 1; d-- {
		s["$defs"].(obj)[fmt.Sprintf("holdsGuard%d", d)] = holds(d)
	}
	a.required(s)
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("schema for %s: %w", edge, err)
	}
	return append(b, '\n'), nil
}

// holdsRef names the schema that holds a guard within depth levels.
func holdsRef(depth int) string {
	switch depth {
	case compat.GuardDepth:
		return "#/$defs/holdsGuard"
	case compat.GuardDepth - 1:
		return "#/$defs/holdsGuardLess"
	}
	return fmt.Sprintf("#/$defs/holdsGuard%d", depth)
}

// holds matches a value that holds a PreToolUse or PermissionRequest key
// with a non-empty value within depth levels (the oracle's holdsGuard): a
// key of its own, or one of a value of it, or of an item of it.
func holds(depth int) obj {
	own := []any{}
	for _, g := range compat.GuardEvents {
		own = append(own, obj{"type": "object", "required": []string{g}, "properties": obj{g: obj{"$ref": "#/$defs/nonEmptyGuard"}}})
	}
	if depth <= 1 {
		return obj{"anyOf": own}
	}
	deeper := obj{"$ref": holdsRef(depth - 1)}
	return obj{"anyOf": append(own,
		obj{"type": "object", "not": obj{"additionalProperties": obj{"not": deeper}}},
		obj{"type": "array", "contains": deeper},
	)}
}

// invalid says what the release does with an invalid entry, for messages.
func (a at) invalid() string { return a.consequence(compat.RuleEntryInvalid) }

// topProperties are the known top-level keys of hooks.json on the edge.
func (a at) topProperties() obj {
	props := obj{
		"description": obj{"type": "string", "x-message": obj{"type": "description must be a string: " + a.consequence(compat.RuleHooksShape)}},
		"hooks":       obj{"$ref": "#/$defs/events"},
		// Read past on every release; editors use it.
		"$schema": obj{},
	}
	if !a.v.Less(hooks.MustRelease(compat.HooksModulesSince)) {
		props["modules"] = obj{"type": "array", "items": obj{"type": "string"}, "maxItems": 1,
			"x-message": obj{"type": "modules must be a list of paths: " + a.consequence(compat.RuleModules), "items": "modules must be a list of paths",
				"maxItems": "modules names more than one hooks module: " + a.consequence(compat.RuleModules)}}
	} else {
		props["modules"] = warn("\"modules\" (hooks modules) arrives in " + compat.HooksModulesSince + ": the release reads past it and the module never loads")
	}
	if a.sev(compat.RuleSurfaceGone) == Error {
		props["surface"] = refuse("\"surface\" is gone: " + a.consequence(compat.RuleSurfaceGone))
	} else {
		props["surface"] = warn("unknown top-level key \"surface\": the release reads past it")
	}
	for _, k := range compat.HooksUnscanned {
		props[k] = warn("unknown top-level key \"" + k + "\": hooks.json takes \"description\" and \"hooks\"; the release reads past it")
	}
	for _, ev := range compat.All(compat.KindEvent) {
		props[ev.Name] = a.topEvent(ev.Name)
	}
	return props
}

// topEvent is an event name at hooks.json's top level: guard hooks there
// refuse the plugin from 2.1.257 (dropped before); any other event there
// never runs.
func (a at) topEvent(name string) obj {
	msg := fmt.Sprintf("event %s sits outside \"hooks\": %s", name, a.consequence(compat.RuleTopLevelEvent))
	if !slices.Contains(compat.GuardEvents, name) {
		return fail(a.sev(compat.RuleTopLevelEvent), msg)
	}
	return obj{
		"if":   obj{"$ref": "#/$defs/nonEmptyGuard"},
		"then": fail(a.sev(compat.RuleTopLevelGuard), name+" hooks sit outside \"hooks\": "+a.consequence(compat.RuleTopLevelGuard)),
		"else": fail(a.sev(compat.RuleTopLevelEvent), msg),
	}
}

// required is "hooks", or from 2.1.252 a non-empty "modules" instead.
func (a at) required(s obj) {
	msg := "\"hooks\" is missing: " + a.consequence(compat.RuleHooksShape)
	if a.v.Less(hooks.MustRelease(compat.HooksModulesSince)) {
		s["required"] = []string{"hooks"}
		s["x-message"].(obj)["required"] = msg
		return
	}
	s["anyOf"] = []any{
		obj{"required": []string{"hooks"}, "x-message": obj{"required": msg}},
		obj{"required": []string{"modules"}, "properties": obj{"modules": obj{"minItems": 1, "x-message": obj{"minItems": msg}}}, "x-message": obj{"required": msg}},
	}
}

// events is the "hooks" object: the edge's events, each a list of groups;
// any other key is an unknown event, refused or dropped.
func (a at) events() obj {
	props := obj{}
	for _, ev := range compat.All(compat.KindEvent) {
		switch {
		case a.v.Less(ev.Version()):
			props[ev.Name] = fail(a.sev(compat.RuleUnknownEvent), fmt.Sprintf("event %s arrives in Claude Code %s: %s (%s)", ev.Name, ev.Since, a.consequence(compat.RuleUnknownEvent), ev.Witness))
		case ev.Matcher != "":
			props[ev.Name] = obj{"$ref": "#/$defs/groups"}
		default:
			props[ev.Name] = obj{"$ref": "#/$defs/groupsNoMatch"}
		}
	}
	r, _ := compat.RuleAt(compat.RuleUnknownEvent, a.v)
	return obj{
		"type":                 "object",
		"properties":           props,
		"additionalProperties": fail(a.sev(compat.RuleUnknownEvent), "unknown event \"{name}\" (event names are case-sensitive): "+a.consequence(compat.RuleUnknownEvent)+" ("+r.Witness+")"),
		"x-message":            obj{"type": "\"hooks\" must be an object keyed by event name: " + a.consequence(compat.RuleHooksShape)},
	}
}

// groups is a list of matcher groups of one kind.
func groups(kind string) obj {
	return obj{"type": "array", "items": obj{"$ref": "#/$defs/" + kind},
		"x-message": obj{"type": "an event takes a list of matcher groups: [{\"matcher\": ..., \"hooks\": [...]}]"}}
}

// group is {"matcher", "hooks"}; on an event that takes no matcher, a
// matcher other than "" or "*" is a lint.
func (a at) group(noMatch bool) obj {
	g := obj{
		"type":     "object",
		"required": []string{"hooks"},
		"properties": obj{
			"matcher": obj{"type": "string", "x-message": obj{"type": "matcher must be a string such as \"Bash|Write\": " + a.invalid()}},
			"hooks":   obj{"$ref": "#/$defs/handlers"},
		},
		"additionalProperties": warn("unknown key \"{name}\" in a matcher group: it takes \"matcher\" and \"hooks\"; the release reads past it, so a typo here does nothing"),
		"x-message":            obj{"type": "a matcher group must be an object: " + a.invalid(), "required": "a matcher group needs \"hooks\", a list of handlers: " + a.invalid()},
	}
	if noMatch {
		g["if"] = obj{"required": []string{"matcher"}, "properties": obj{"matcher": obj{"type": "string", "not": obj{"enum": []string{"", "*"}}}}}
		g["then"] = obj{"properties": obj{"matcher": warn("this event takes no matcher: the release ignores it (seen on Stop from 2.0.30 on), so it matches everything; remove it")}}
	}
	return g
}

// handler is one handler: a "type" the edge's validator takes, then, per
// type, its required keys, its keys' values, and what is late or unknown.
func (a at) handler() obj {
	var types []string
	for t, since := range compat.HandlerValidatorSince {
		if !a.v.Less(hooks.MustRelease(since)) {
			types = append(types, t)
		}
	}
	sort.Strings(types)
	var later []string
	for _, t := range compat.All(compat.KindHandlerType) {
		if vs, ok := compat.HandlerValidatorSince[t.Name]; ok && a.v.Less(hooks.MustRelease(vs)) {
			later = append(later, fmt.Sprintf("%s arrives in %s", t.Name, vs))
		}
	}
	msg := fmt.Sprintf("handler type {value} is not one this release takes (%s); use one of: %s", a.invalid(), strings.Join(types, ", "))
	if len(later) > 0 {
		msg += " (" + strings.Join(later, "; ") + ")"
	}
	var branches []any
	for _, t := range types {
		branches = append(branches, obj{
			"if":   obj{"properties": obj{"type": obj{"const": t}}, "required": []string{"type"}},
			"then": a.typed(t),
		})
	}
	return obj{
		"type":       "object",
		"required":   []string{"type"},
		"properties": obj{"type": obj{"type": "string", "enum": types, "x-message": obj{"type": "a handler needs \"type\", a string: " + a.invalid(), "enum": msg}}},
		"allOf":      branches,
		"x-message":  obj{"type": "a handler must be an object: " + a.invalid(), "required": "a handler needs \"type\" (\"command\"): " + a.invalid()},
	}
}

// typed is the schema of a handler of type t on the edge.
func (a at) typed(t string) obj {
	props := obj{"type": true}
	if f, ok := compat.Lookup(compat.KindHandlerType, t); ok && a.v.Less(f.Version()) {
		switch {
		case a.sev(compat.RuleTypeNotRun) != "":
			props["type"] = fail(a.sev(compat.RuleTypeNotRun), fmt.Sprintf("the release takes %s handlers in a plugin but does not register them: %s", t, a.consequence(compat.RuleTypeNotRun)))
		case a.sev(compat.RuleTypeUnproven) != "":
			props["type"] = warn(fmt.Sprintf("%s handlers in a plugin are not seen running before %s", t, f.Since))
		}
	}
	var keys []string
	for _, f := range compat.All(compat.KindField) {
		if f.Scope != compat.ScopeHandler || f.Name == "type" || props[f.Name] != nil {
			continue
		}
		if len(f.Types) > 0 && !slices.Contains(f.Types, t) {
			continue
		}
		keys = append(keys, f.Name)
		if a.v.Less(f.Version()) && !keptTypeEdge(f, t, a.v) {
			props[f.Name] = a.lateKey(f)
			continue
		}
		props[f.Name] = a.value(f.Name)
	}
	sort.Strings(keys)
	req := compat.HandlerRequired[t]
	return obj{
		"required":             req,
		"properties":           props,
		"additionalProperties": warn(fmt.Sprintf("unknown key \"{name}\" in a %s handler; it takes %s; the release reads past it, so a typo here does nothing", t, strings.Join(append([]string{"type"}, keys...), ", "))),
		"x-message":            obj{"required": fmt.Sprintf("a %s handler needs %s: %s", t, strings.Join(req, " and "), a.invalid())},
	}
}

// keptTypeEdge is the oracle's: a key dated by its handler type's kept
// edge (its Source is not the probe) is declared with the type wherever
// the release's validator takes the type.
func keptTypeEdge(f compat.Feature, typ string, v hooks.Release) bool {
	if f.Source == compat.SourceProbe || len(f.Types) == 0 {
		return false
	}
	vs, ok := compat.HandlerValidatorSince[typ]
	return ok && !v.Less(hooks.MustRelease(vs))
}

// lateKey is a handler key used before its first release: read past (a
// warning), except "args", which the release drops, so the command runs
// without its arguments (an error).
func (a at) lateKey(f compat.Feature) obj {
	msg := fmt.Sprintf("\"%s\" arrives in Claude Code %s", f.Name, f.Since)
	if f.Before != "" {
		msg += fmt.Sprintf(" (%s lacks it)", f.Before)
	}
	if f.Name == "args" {
		return fail(a.sev(compat.RuleArgsDropped), msg+": earlier releases drop it and run the command without its arguments")
	}
	return warn(msg + "; earlier releases read past it")
}

// value is the schema of a handler key's value (compat.HandlerValues),
// with the lints the oracle gives on it.
func (a at) value(k string) obj {
	bad := a.invalid()
	switch compat.HandlerValue(k) {
	case compat.ValueNonEmptyString:
		return obj{"type": "string", "minLength": 1, "x-message": obj{"type": k + " must be a non-empty string: " + bad, "minLength": k + " must be a non-empty string: " + bad}}
	case compat.ValuePositiveNumber:
		return obj{
			"type": "number", "exclusiveMinimum": MinTimeout,
			"x-message": obj{"type": k + " is a number of seconds: " + bad, "exclusiveMinimum": k + " must be above 0 seconds: " + bad},
			"if":        obj{"type": "number", "exclusiveMinimum": MaxTimeout},
			"then":      warn(fmt.Sprintf("%s is in seconds: {value} is over an hour and looks like milliseconds", k)),
		}
	case compat.ValueBool:
		return obj{"type": "boolean", "x-message": obj{"type": k + " must be true or false: " + bad}}
	case compat.ValueShell:
		return obj{"enum": compat.ShellValues, "x-message": obj{"enum": k + " is \"bash\" or \"powershell\": " + bad}}
	case compat.ValueURL:
		return obj{"$ref": "#/$defs/url"}
	case compat.ValueStringMap:
		return obj{"type": "object", "additionalProperties": obj{"type": "string", "x-message": obj{"type": k + " values must be strings: " + bad}}, "x-message": obj{"type": k + " must be an object: " + bad}}
	case compat.ValueObject:
		return obj{"type": "object", "x-message": obj{"type": k + " must be an object: " + bad}}
	case compat.ValueStringList:
		return obj{"type": "array", "items": obj{"type": "string", "x-message": obj{"type": k + " must be a list of strings: " + bad}}, "x-message": obj{"type": k + " must be a list of strings: " + bad}}
	case compat.ValueAny:
		return obj{}
	}
	s := obj{"type": "string", "x-message": obj{"type": k + " must be a string: " + bad}}
	if k == "command" {
		s["x-message"] = obj{"type": "command must be one shell string, e.g. \"\\\"${CLAUDE_PLUGIN_ROOT}/bin/tool\\\" arg\" (a list is the exec form \"args\", from 2.1.139): " + bad}
		s["if"] = obj{"type": "string", "pattern": `^\s*$`}
		s["then"] = warn("the command is empty: the hook runs nothing")
	}
	return s
}

// urlSchema is a URL as compat's patterns say `new URL()` takes it.
func urlSchema(bad string) obj {
	msg := "url {value} is not a URL (\"Invalid URL\"; no variable is expanded): " + bad
	return obj{
		"type":      "string",
		"x-message": obj{"type": "url must be a string: " + bad},
		"if":        obj{"type": "string", "pattern": compat.URLSpecialScheme},
		"then":      obj{"pattern": compat.URLSpecial, "x-message": obj{"pattern": msg}},
		"else":      obj{"pattern": compat.URLGeneric, "x-message": obj{"pattern": msg}},
	}
}

// refuse is a schema that fails on any value, with a message: an error.
func refuse(msg string) obj { return obj{"not": obj{}, "x-message": msg} }

// warn is a schema that fails on any value with a message that
// [Validate] reports as a warning: the file still loads.
func warn(msg string) obj { return obj{"not": obj{}, "x-message": msg, "x-severity": "warning"} }
