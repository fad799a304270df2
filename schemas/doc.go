// Package schemas holds the JSON Schemas of a Claude Code plugin's
// hooks.json, one per span of releases where no rule of the loader
// changes, and validates a file against the one of a given release.
//
// # What the schemas say
//
// Each schema is generated ([Build]) from the same tables and loader rules
// hookgen validate's oracle applies (package compat: the matrix, the rules
// with their consequences, the value kinds of handler keys, the URL
// patterns), one for each release where a verdict can change
// (compat.Edges), and embedded in the binary; a test proves the embedded
// files equal what the tables generate today (`go test ./schemas -update`
// rewrites them), and TestSchemasAgreeWithTheOracle proves, on every
// edge, that each schema gives the oracle's verdict on documents built
// from the tables. A schema's error is what the oracle calls rejected (the
// release refuses the file or the plugin) or dropped (a hook would not run
// as written); a warning is what it calls ignored or a lint:
//
//   - the file is {"$schema", "description", "hooks"} ("modules" from
//     2.1.252); "hooks" is required (or a non-empty "modules"); a
//     top-level event never runs, and PreToolUse/PermissionRequest hooks
//     outside "hooks" (at the top level, or within three levels under
//     another key) refuse the plugin from 2.1.257: both errors; any other
//     key is read past, a warning; "surface" is refused on 2.1.330;
//   - "hooks" takes only the events the release knows: another event, or
//     one from a later release, is refused up to 2.1.252 and dropped from
//     2.1.257 (an error either way); each such message names its witness;
//   - a matcher group is {"matcher", "hooks"}; a matcher other than "" or
//     "*" on an event that takes none is a warning (it matches everything);
//     unknown group keys are warnings;
//   - a handler's "type" is one the release's validator takes; its
//     required keys are there; each key's value is of its kind (a URL as
//     `new URL()` takes it); a handler key from a later release is a
//     warning (read past), except "args" before 2.1.139, which is an error
//     (the command would run without its arguments); unknown handler keys
//     are warnings; "timeout" is any positive number of seconds, and over
//     3600 a warning (it looks like milliseconds).
//
// A duplicate key, which JSON.parse resolves by keeping the last, is
// beyond a JSON Schema: hookgen validate reports it.
//
// "additionalProperties": false is written as the equivalent {"not": {}} with
// an "x-message" annotation, so a violation points at the offending key and
// explains itself. "x-message" is a string, or an object keyed by the
// failing keyword; "{value}" and "{name}" are replaced by the offending
// value and key. The patterns are RE2 and ECMA-262 alike, so an editor
// applies them too.
//
// # Validating
//
// [Validate] returns every [Violation] as a JSON pointer into the document,
// a message and a [Severity], sorted by pointer. A schema node marks a
// warning with "x-severity": "warning". No [Error] (see [Errors]) means the
// file loads on the release and every hook of it runs as written; no
// violation at all means nothing in it is read past or linted either.
package schemas
