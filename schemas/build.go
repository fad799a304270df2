package schemas

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/hooks"
)

// Timeout bounds, in seconds.
const (
	MinTimeout = 1
	MaxTimeout = 3600
)

// obj is a JSON Schema node under construction.
type obj = map[string]any

// ID returns the $id of the schema for a band edge.
func ID(band hooks.Release) string {
	return "https://github.com/hookwright/hookwright/schemas/hooks-" + band.String() + ".schema.json"
}

// FileName returns the embedded file name of the schema for a band edge.
func FileName(band hooks.Release) string { return "hooks-" + band.String() + ".schema.json" }

// Build returns the JSON Schema for the band whose edge is band, generated
// from the compat matrix, as indented JSON with sorted keys.
func Build(band hooks.Release) ([]byte, error) {
	s := obj{
		"$schema":     "https://json-schema.org/draft/2020-12/schema",
		"$id":         ID(band),
		"title":       "Claude Code plugin hooks.json, band " + band.String(),
		"description": "Generated from the hookwright compat matrix; do not edit. Regenerate with go test ./schemas -update.",
		"type":        "object",
		"required":    []string{"hooks"},
		"properties": obj{
			"description": obj{"type": "string", "x-message": obj{"type": "description must be a string"}},
			"hooks":       obj{"$ref": "#/$defs/events"},
			// A top-level $schema loads on every release seen (compat/FACTS.md).
			"$schema": obj{"type": "string", "x-message": obj{"type": "$schema must be a string (a URL)"}},
		},
		"additionalProperties": warn("unknown top-level key \"{name}\": hooks.json takes \"description\" and \"hooks\"; " +
			"unverified whether a release rejects it, none seen doing so"),
		"$defs": obj{
			"events": events(band),
			"groups": groups("group"),

			"groupsNoMatch": groups("groupNoMatch"),
			"group":         group(obj{"type": "string", "x-message": obj{"type": "matcher must be a string such as \"Bash|Write\""}}),
			"groupNoMatch": group(obj{"const": "", "x-severity": "warning",
				"x-message": "this event takes no matcher: Claude Code ignores it (seen on Stop from 2.0.30 on), so it would silently match everything; remove it"}),
			"handlers": obj{"type": "array", "minItems": 1, "items": obj{"$ref": "#/$defs/handler"}, "x-message": obj{"type": "\"hooks\" must be a list of handlers", "minItems": "a matcher group needs at least one handler"}},
			"handler":  handler(band),
			"timeout":  timeout(),
		},
	}
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("schema for band %s: %w", band, err)
	}
	return append(b, '\n'), nil
}

// refuse is a schema that fails on any value, with a message: an error.
func refuse(msg string) obj { return obj{"not": obj{}, "x-message": msg} }

// warn is a schema that fails on any value with a message that
// [Validate] reports as a warning: the file still loads.
func warn(msg string) obj { return obj{"not": obj{}, "x-message": msg, "x-severity": "warning"} }

// rejectOrWarn refuses an event key the band does not know: an error where
// the band's releases reject the whole file over it, with witness (the
// releases and runs that showed it), and a warning where they ignore the
// entry (from the band of [compat.UnknownEventsTolerated]).
func rejectOrWarn(band hooks.Release, what, witness string) obj {
	tol, _ := compat.Lookup(compat.KindLoader, compat.UnknownEventsTolerated)
	if !band.Less(tol.Version()) {
		return warn(fmt.Sprintf("%s: Claude Code %s and later ignore it with a warning and load the rest, so its hooks never run (%s)", what, tol.Since, tol.Witness))
	}
	return refuse(fmt.Sprintf("%s: this release rejects the whole hooks.json over it, and no hook of the plugin runs (%s)", what, witness))
}

// events is the "hooks" object: the band's events and nothing else.
func events(band hooks.Release) obj {
	props := obj{}
	for _, ev := range compat.All(compat.KindEvent) {
		switch {
		case band.Less(ev.Version()):
			props[ev.Name] = rejectOrWarn(band, fmt.Sprintf("event %s arrives in Claude Code %s (hookgen writes a fallback or leaves it out)", ev.Name, ev.Since), ev.Witness)
		case ev.Matcher != "":
			props[ev.Name] = obj{"$ref": "#/$defs/groups"}
		default:
			props[ev.Name] = obj{"$ref": "#/$defs/groupsNoMatch"}
		}
	}
	tol, _ := compat.Lookup(compat.KindLoader, compat.UnknownEventsTolerated)
	return obj{
		"type":       "object",
		"properties": props,
		"additionalProperties": rejectOrWarn(band, "unknown event \"{name}\" (event names are case-sensitive)",
			"every release up to "+tol.Before+"; "+tol.Witness),
		"x-message": obj{"type": "\"hooks\" must be an object keyed by event name"},
	}
}

// groups is a list of matcher groups of one kind.
func groups(kind string) obj {
	return obj{"type": "array", "items": obj{"$ref": "#/$defs/" + kind},
		"x-message": obj{"type": "an event takes a list of matcher groups: [{\"matcher\": ..., \"hooks\": [...]}]"}}
}

// group is {"matcher", "hooks"} with the given matcher schema.
func group(matcher obj) obj {
	return obj{
		"type":       "object",
		"required":   []string{"hooks"},
		"properties": obj{"matcher": matcher, "hooks": obj{"$ref": "#/$defs/handlers"}},
		"additionalProperties": warn("unknown key \"{name}\" in a matcher group: it takes \"matcher\" and \"hooks\"; " +
			"Claude Code ignores it (seen loading on 2.0.30 to 2.1.257; 2.1.330 logs a warning), so a typo here does nothing"),
		"x-message": obj{"type": "a matcher group must be an object", "required": "a matcher group needs \"hooks\""},
	}
}

// timeout is whole seconds within bounds.
func timeout() obj {
	return obj{
		"type": "integer", "minimum": MinTimeout, "maximum": MaxTimeout,
		"x-message": obj{
			"type":    "timeout is a whole number of seconds",
			"minimum": fmt.Sprintf("timeout is in seconds and must be at least %d", MinTimeout),
			"maximum": fmt.Sprintf("timeout is in seconds, at most %d; {value} looks like milliseconds", MaxTimeout),
		},
	}
}

// handler is one handler object for the band.
func handler(band hooks.Release) obj {
	props := obj{"type": handlerType(band)}
	var commandKeys, lateKeys []string
	for _, f := range compat.All(compat.KindField) {
		if f.Scope != compat.ScopeHandler || f.Name == "type" {
			continue
		}
		forCommand := len(f.Types) == 0 || slices.Contains(f.Types, "command")
		if band.Less(f.Version()) {
			// Refused here for every type; the command branch lets it
			// through so it is reported once.
			props[f.Name] = lateField(f)
			if forCommand {
				lateKeys = append(lateKeys, f.Name)
			}
			continue
		}
		props[f.Name] = fieldSchema(f)
		if forCommand {
			commandKeys = append(commandKeys, f.Name)
		}
	}
	return obj{
		"type":       "object",
		"required":   []string{"type"},
		"properties": props,
		"allOf":      []any{commandHandler(commandKeys, lateKeys)},
		"x-message":  obj{"type": "a handler must be an object", "required": "a handler needs \"type\" (\"command\")"},
	}
}

// lateField reports a handler key used before its first release. Releases
// strip a key their schema lacks and load the rest (compat/FACTS.md), so it
// is a warning, except where the matrix says dropping it changes what runs
// ("args": the command runs without its arguments), which is an error.
func lateField(f compat.Feature) obj {
	msg := fmt.Sprintf("\"%s\" arrives in Claude Code %s", f.Name, f.Since)
	if f.Before != "" {
		msg += fmt.Sprintf(" (%s lacks it)", f.Before)
	}
	if strings.Contains(f.Note, "dropped") {
		return refuse(msg + "; before it: " + f.Note)
	}
	return warn(msg + "; earlier releases ignore it")
}

// handlerType is the "type" enum of the band. A type from a later band is
// an error that names its witness: where the release's validator lacks it
// the handler cannot load, and where only the CHANGELOG dates it later no
// run has shown it work.
func handlerType(band hooks.Release) obj {
	var have, later []string
	for _, t := range compat.All(compat.KindHandlerType) {
		if band.Less(t.Version()) {
			later = append(later, fmt.Sprintf("%s arrives in %s: %s", t.Name, t.Since, t.Witness))
		} else {
			have = append(have, t.Name)
		}
	}
	msg := fmt.Sprintf("handler type {value} is not one this band supports; use one of: %s", strings.Join(have, ", "))
	if len(later) > 0 {
		msg += " (" + strings.Join(later, "; ") + ")"
	}
	return obj{"enum": have, "x-message": obj{"enum": msg}}
}

// fieldSchema is the value schema of a handler field the band has.
func fieldSchema(f compat.Feature) obj {
	switch f.Name {
	case "timeout":
		return obj{"$ref": "#/$defs/timeout"}
	case "once", "async", "asyncRewake", "continueOnBlock", "holdsTools":
		return obj{"type": "boolean", "x-message": obj{"type": f.Name + " must be true or false"}}
	case "cloud", "onFailure":
		// The release reads any value: an unknown one as the safe default
		// (2.1.330's schema), so nothing here fails a file.
		return obj{}
	case "headers":
		return obj{"type": "object", "additionalProperties": obj{"type": "string"}, "x-message": obj{"type": "headers must map header names to strings"}}
	case "allowedEnvVars":
		return obj{"type": "array", "items": obj{"type": "string"}, "x-message": obj{"type": "allowedEnvVars must be a list of variable names"}}
	case "input":
		return obj{"type": "object", "x-message": obj{"type": "input must be an object of the tool's arguments"}}
	case "shell":
		return obj{"enum": []string{"bash", "powershell"}, "x-message": obj{"enum": "shell is \"bash\" or \"powershell\""}}
	case "args":
		return obj{"type": "array", "items": obj{"type": "string"}, "x-message": obj{"type": "args must be a list of strings"}}
	case "command":
		return obj{"type": "string", "minLength": 1, "x-message": obj{
			"type":      "command must be one shell string, e.g. \"\\\"${CLAUDE_PLUGIN_ROOT}/bin/tool\\\" arg\" (a list is the exec form \"args\", from 2.1.139)",
			"minLength": "command must not be empty",
		}}
	}
	return obj{"type": "string", "x-message": obj{"type": f.Name + " must be a string"}}
}

// commandHandler makes command handlers strict: a command and only the
// fields a command handler may have. late fields are let through here
// because the handler schema already refuses them with a better message.
func commandHandler(keys, late []string) obj {
	sort.Strings(keys)
	props := obj{"type": true}
	for _, k := range append(append([]string{}, keys...), late...) {
		props[k] = true
	}
	return obj{
		"if": obj{"properties": obj{"type": obj{"const": "command"}}, "required": []string{"type"}},
		"then": obj{
			"required":   []string{"command"},
			"properties": props,
			"additionalProperties": warn("unknown key \"{name}\" in a command handler; it takes " + strings.Join(append([]string{"type"}, keys...), ", ") +
				"; Claude Code ignores it (seen loading on 2.0.30 to 2.1.330), so a typo here does nothing"),
			"x-message": obj{"required": "a command handler needs \"command\""},
		},
	}
}
