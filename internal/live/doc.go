// Package live is the live tier: it installs real Claude Code releases from
// npm and runs them headless against the scripted model stand-in in
// [github.com/hookwright/hookwright/internal/modelapi], so tests can prove what
// a plugin's hooks really do in a given release.
//
// A live test is three steps:
//
//	live.Available(t)                          // skip only when npm's registry is unreachable
//	claude, err := live.Install(ctx, "2.1.33") // cached per version
//	res, err := live.Run(ctx, live.Options{Claude: claude, BaseURL: srv.URL(), ...})
//
// [Run] gives every session a fresh HOME and project folder, a clean
// environment (no ANTHROPIC_* or CLAUDE_* variable leaks in from the caller),
// a hard timeout and a closed stdin, and returns the output, the exit code and
// the debug log. [RegisteredHooks] and [LoadFailed] read the debug log, and
// [LoaderEnum] the event list a rejecting loader prints.
//
// # The probe
//
// [ProbeRelease] reads what a release's hooks.json validator accepts (the
// event enum and each handler type's keys) out of the release's own code,
// its cli.js or, from 2.1.113, its native binary, without starting a
// session. It reuses an install in the cache, else fetches the package with
// `npm pack` and keeps only the result. The maintainer commands are tests
// with flags: `-run 'TestProbe$' -release X` (what X accepts, and how the
// matrix differs), `-run TestEdge -edge NAME` (the first release that accepts
// NAME) and `-run 'TestBisect$' -bisect` (every change point over the
// published releases, rewriting compat/testdata/probes). The facts they
// established are in compat/FACTS.md.
//
// [RunInteractive] drives the TUI instead, in a private tmux server: it
// writes the first-run state that skips every dialog, types the prompt, and
// ends the session when the caller's Done reports true. Agent teams need
// it on releases that start no teammate in -p (2.1.330); what real
// releases do with teams is written down in TEAMS.md beside this file.
//
// # Observed release behaviour
//
// Flags: 2.0.30, 2.1.33 and 2.1.330 all accept
// `-p <prompt> --plugin-dir <dir> --allowedTools A,B --debug`. --plugin-dir
// and --allowedTools are variadic on 2.0.30/2.1.33, so the prompt comes right
// after -p, before them. --debug-file exists only from 2.1.x, so the debug log
// is read from $HOME/.claude/debug/<session>.txt, which every version writes.
//
// Debug log lines (2.1.x prefix each line with an ISO timestamp, 2.0.30 does
// not):
//
//	[DEBUG] Loading hooks from plugin: hookwright-spine
//	[DEBUG] Registered 1 hooks from 1 plugins              (2.0.30, 2.1.33)
//	[DEBUG] Registered 1 hooks from 4 plugins              (2.1.330: built-in plugins count too)
//	[ERROR] Failed to load hooks for hookwright-spine: [   (unknown event, 2.0.30 and 2.1.33; then a zod error dump)
//	[DEBUG] Plugin loading errors: Hook load failed: [
//	[DEBUG] Registered 0 hooks from 1 plugins
//	[WARN] Plugin hookwright-spine: hooks.BogusEvent: unknown hook event; entry ignored   (2.1.330)
//	[DEBUG] Hook PreToolUse:Bash (PreToolUse) error:       (2.1.33, the stderr reason on the next line)
//	[DEBUG] Hook denied tool use for Bash                  (2.1.33)
//
// A blocking PreToolUse hook's reason reaches the model as an is_error
// tool_result whose text differs per release: the bare stderr on 2.0.30;
// `PreToolUse:Bash hook error: [<command>]: <stderr>` on 2.1.33 (command with
// ${CLAUDE_PLUGIN_ROOT} unexpanded); on 2.1.330 the expanded command and a
// trailing "This hook comes from the <plugin>@inline plugin.".
package live
