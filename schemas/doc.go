// Package schemas holds the JSON Schemas of a Claude Code plugin's
// hooks.json, one per version band, and validates a file against the band
// of a given release.
//
// # What the schemas say
//
// Each schema is generated from the compat matrix ([Build]) and embedded in
// the binary; a test proves the embedded files equal what the matrix
// generates today (`go test ./schemas -update` rewrites them). For a band:
//
//   - the file is {"description", "hooks"}: "hooks" is required, and any
//     other key, "$schema" included, is refused (Claude Code rejects the
//     whole file);
//   - "hooks" takes only the events the band knows; an event from a later
//     release is refused with the release it arrives in, and an unknown
//     name is refused too, because releases up to 2.1.252 reject the whole
//     file over one unknown event (later ones ignore it with a warning;
//     hookwright never relies on that);
//   - a matcher group is {"matcher", "hooks"}; a non-empty matcher is
//     allowed only on events that take one (tool events, SessionStart's
//     source, PreCompact's trigger, SubagentStart/Stop's agent type, ...).
//     Claude Code ignores a matcher elsewhere, which hides the mistake, so
//     it is refused here;
//   - a handler's "type" is one the band has; a command handler has a
//     string "command" and only fields the band has ("args" from 2.1.139,
//     "if" from 2.1.85, "statusMessage" from 2.1.42, ...); other handler
//     types are checked for their type and the fields hookwright models;
//   - "timeout" is whole seconds, 1 to 3600: a value such as 5000 is
//     refused with a message that says it looks like milliseconds.
//
// "additionalProperties": false is written as the equivalent {"not": {}} with
// an "x-message" annotation, so a violation points at the offending key and
// explains itself. "x-message" is a string, or an object keyed by the
// failing keyword; "{value}" and "{name}" are replaced by the offending
// value and key.
//
// # Validating
//
// [Validate] returns every [Violation] as a JSON pointer into the document
// plus a message, sorted by pointer. An empty result means the file loads
// on every release of the band.
package schemas
