// Package compat knows which Claude Code release accepts what in a plugin's
// hooks.json, and what hookwright does where a release lacks something.
//
// # The matrix
//
// [Matrix] lists every fact as a [Feature]: a hook event, a handler type, a
// handler field, an output capability, a loader behaviour or a tool, each with
// the first release that has it and where that fact comes from (the CHANGELOG,
// the first npm build that ships it, or a release run on our machines). The
// matrix is data: add a row, and the bands, the JSON Schemas (package
// schemas), the generated manifests (package manifests) and `hookgen matrix`
// all follow.
//
// # Bands
//
// Every first version in the matrix is a band edge. A release belongs to the
// band of the greatest edge at or below it ([BandOf]): two releases in one band
// accept exactly the same hooks.json. No plugin hooks.json loads before
// [PluginFloor] (2.0.12), so edges below the floor fold into the floor band and
// [Bands] starts there. [BandOf] refuses an older release with
// [ErrBelowFloor].
//
// # Versions
//
// A release is a [hooks.Release], the one release type of the module (the
// runtime's band, a learned release and the matrix compare as one type).
// [hooks.ParseRelease] reads what people and tools print: "2.1.33",
// "v2.1.33" and `claude --version`'s "2.1.33 (Claude Code)". Anything else
// is an error that quotes the input and shows the accepted forms.
//
// # Plans
//
// [Plan] answers, for one release, how each canonical event is delivered:
//
//   - native: the release fires the event itself;
//   - fallback: an older event stands in for it, following [Fallbacks]
//     (TaskCompleted → PostToolUse on TaskUpdate, or TodoWrite before 2.1.16;
//     TeammateIdle → SubagentStop and Stop);
//   - unavailable: neither, so a handler for it is dropped with a reason.
//
// and which block channel a handler has there ([Channel]): exit 2 with the
// reason on stderr, JSON {"continue":false} (TeammateIdle and TaskCompleted
// from 2.1.69), feedback only (PostToolUse runs after the tool, so it cannot
// undo it), or none.
//
// A fallback command names both events so one gate serves both paths:
//
//	"${CLAUDE_PLUGIN_ROOT}/bin/hookwright" TaskCompleted --via PostToolUse
//
// # Confidence
//
// The matrix records facts, not guesses, but some facts are weaker than
// others: [Feature.Source] says where each came from, [Feature.Witness]
// what showed it (the release, and the probe or live run), [Feature.Before]
// the published release just before it, seen without it, and
// [Feature.Note] what is uncertain. compat/FACTS.md in the repository holds
// the evidence, with the release each fact was seen on. Every event's first
// release was bisected over the published releases by reading each
// release's own validator (internal/live's probe); the fixtures in
// compat/testdata/probes keep what each probed release accepts, and a test
// checks the matrix against them. Every rule that says a release rejects a
// file or refuses a plugin names its witness. The live tier (internal/live) loads each band's
// manifest in the release at its edge and is the final word.
package compat
