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
//   - the file is {"$schema", "description", "hooks"}: "hooks" is required,
//     and a top-level "$schema" loads on every release seen, so it is
//     accepted; any other key is a warning (no release has been seen
//     rejecting one);
//   - "hooks" takes only the events the band knows. An event from a later
//     release, or an unknown name, is an error on bands up to 2.1.252,
//     whose releases reject the whole file over it, and a warning from
//     2.1.257, whose releases ignore the entry and load the rest. Each such
//     message names its witness: the releases and the probe or run that
//     showed it (compat's matrix, compat/FACTS.md);
//   - a matcher group is {"matcher", "hooks"}; a non-empty matcher on an
//     event that takes none (Stop, UserPromptSubmit, ...) is a warning:
//     Claude Code loads it and ignores it, so it matches everything. An
//     unknown group key is a warning too (the releases ignore it);
//   - a handler's "type" is one the band has; a command handler has a
//     string "command". A handler key from a later release is a warning
//     (earlier releases strip it), except "args" before 2.1.139, which is
//     an error: the command would run without its arguments. Unknown
//     handler keys are warnings;
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
// [Validate] returns every [Violation] as a JSON pointer into the document,
// a message and a [Severity], sorted by pointer. A schema node marks a
// warning with "x-severity": "warning". No [Error] (see [Errors]) means the
// file loads on every release of the band; no violation at all means
// nothing in it is ignored either.
package schemas
