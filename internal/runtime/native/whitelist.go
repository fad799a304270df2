package native

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
)

// Events maps every hook event to the first release that accepts it in a
// plugin hooks.json. It copies package compat's matrix (the runtime may not
// import compat); a test keeps the two equal.
var Events = map[string]Release{
	"PreToolUse": {1, 0, 38}, "PostToolUse": {1, 0, 38}, "Notification": {1, 0, 38}, "Stop": {1, 0, 38},
	"SubagentStop": {1, 0, 41}, "PreCompact": {1, 0, 48}, "UserPromptSubmit": {1, 0, 54},
	"SessionStart": {1, 0, 62}, "SessionEnd": {1, 0, 85}, "SubagentStart": {2, 0, 43},
	"PermissionRequest": {2, 0, 45}, "PostToolUseFailure": {2, 0, 56},
	"TeammateIdle": {2, 1, 33}, "TaskCompleted": {2, 1, 33}, "ConfigChange": {2, 1, 49},
	"WorktreeCreate": {2, 1, 50}, "WorktreeRemove": {2, 1, 50}, "InstructionsLoaded": {2, 1, 69},
	"PostCompact": {2, 1, 76}, "Elicitation": {2, 1, 76}, "ElicitationResult": {2, 1, 76},
	"StopFailure": {2, 1, 78}, "CwdChanged": {2, 1, 83}, "FileChanged": {2, 1, 83},
	"TaskCreated": {2, 1, 84}, "UserPromptExpansion": {2, 1, 116}, "PostToolBatch": {2, 1, 118},
	"PreModelSwitch": {2, 1, 251}, "PostModelSwitch": {2, 1, 251},
}

// Fields maps the keys a manifest may use, per level ("file", "group",
// "handler"), to their first release, copied from package compat's matrix.
var Fields = map[string]map[string]Release{
	"file":  {"hooks": {2, 0, 12}, "description": {2, 0, 12}},
	"group": {"matcher": {1, 0, 38}, "hooks": {1, 0, 38}},
	"handler": {
		"type": {1, 0, 38}, "command": {1, 0, 38}, "timeout": {1, 0, 41}, "prompt": {2, 1, 0},
		"once": {2, 1, 0}, "async": {2, 1, 15}, "statusMessage": {2, 1, 42}, "url": {2, 1, 84},
		"if": {2, 1, 85}, "args": {2, 1, 139},
	},
}

// Accepts checks a manifest's keys against [Events] and [Fields]: every
// top-level key, event, group key and handler key must be known and at or
// below release r. It returns the first offender, wrapping [ErrRejected].
// It checks names, not values; the band files are hookgen's output, which
// hookgen validates against the band's full schema.
func Accepts(manifest []byte, r Release) error {
	var file map[string]json.RawMessage
	if err := strictUnmarshal(manifest, &file); err != nil {
		return fmt.Errorf("%w: %v", ErrRejected, err)
	}
	if err := known("file", "", keys(file), r); err != nil {
		return err
	}
	var events map[string][]map[string]json.RawMessage
	if err := strictUnmarshal(file["hooks"], &events); err != nil {
		return fmt.Errorf("%w: hooks: %v", ErrRejected, err)
	}
	for _, ev := range keys(events) {
		since, ok := Events[ev]
		if !ok {
			return fmt.Errorf("%w: unknown event %s", ErrRejected, ev)
		}
		if r.Less(since) {
			return fmt.Errorf("%w: event %s arrives in %s, after %s", ErrRejected, ev, since, r)
		}
		for _, g := range events[ev] {
			if err := known("group", ev, keys(g), r); err != nil {
				return err
			}
			var handlers []map[string]json.RawMessage
			if err := strictUnmarshal(g["hooks"], &handlers); err != nil {
				return fmt.Errorf("%w: %s hooks: %v", ErrRejected, ev, err)
			}
			for _, h := range handlers {
				if err := known("handler", ev, keys(h), r); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// known checks keys at one level.
func known(level, event string, ks []string, r Release) error {
	for _, k := range ks {
		since, ok := Fields[level][k]
		where := level + " key " + k
		if event != "" {
			where = event + " " + where
		}
		if !ok {
			return fmt.Errorf("%w: unknown %s", ErrRejected, where)
		}
		if r.Less(since) {
			return fmt.Errorf("%w: %s arrives in %s, after %s", ErrRejected, where, since, r)
		}
	}
	return nil
}

func strictUnmarshal(data []byte, v any) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return fmt.Errorf("missing")
	}
	return json.Unmarshal(data, v)
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
