// Package manifests turns a plugin's handler spec into the hooks.json that
// one Claude Code release will load.
//
// # The spec
//
// A [Spec] lists handlers by canonical event, whatever a release calls
// them (JSON form in [Spec]'s comment). hookwright's own spec is
// hookwright.spec.json, embedded and returned by [Hookwright]. Any plugin,
// JavaScript or Python included, can write its own: commands are opaque
// shell strings, so node "${CLAUDE_PLUGIN_ROOT}/scripts/x.js" works as is.
//
// # Generating
//
// [Generate] (or [Build], which also returns notes and the plan) asks
// package compat how each event is delivered on the release and writes:
//
//   - a native handler under its own event, unchanged, plus
//     " --proto <band>" when the spec sets protoFlag and the band gives
//     the event another block channel than the plugin floor does (a JSON
//     halt on TeammateIdle/TaskCompleted from 2.1.69, exit 2 on PreCompact
//     from 2.1.105);
//   - a fallback handler under each anchor event, with " --via <Anchor>"
//     appended, e.g. `... TaskCompleted --via PostToolUse` in a
//     PostToolUse group matching TaskUpdate. Never both;
//   - nothing for an event the release lacks and no fallback covers (a
//     note says so);
//   - only fields the band accepts: statusMessage is dropped before 2.0.44;
//     a handler with "async": true is written with it from 2.1.15 (with
//     "asyncRewake" from 2.1.64, when the spec asks for it) and left out
//     before 2.1.15, where the release would run it in the foreground;
//     with protoFlag, the other commands of its event get " --with-async",
//     so that hookwright's runtime leaves the background work to it.
//
// Handlers with the same event and matcher share one matcher group, in spec
// order; events appear in the order the spec first reaches them. An empty
// matcher is left out. The result is validated against the band's schema
// (package schemas) before it is returned: a manifest the release would
// reject is a hookgen bug, reported as an error, never written.
//
// # Output
//
// Bytes are exactly JSON.stringify(value, null, 2) + "\n" ([MarshalJS]):
// the same key order, no escaping of < > & or U+2028/U+2029, JavaScript's
// escapes for control characters and lone surrogates. Regenerating a
// manifest with node-based tooling therefore produces no diff.
//
// # Golden files
//
// testdata/hooks-<band>.json holds hookwright's manifest for every band.
// `go test ./manifests -update` rewrites them; the test fails, naming the
// file, when one is stale, and checks each with node as the oracle.
package manifests
