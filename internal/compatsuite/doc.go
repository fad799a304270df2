// Package suite is the compatibility suite for a Claude Code hook plugin:
// 31 cases (HWC, HWF, HWR) that prove, on any plugin folder, that the
// manifests load on the releases the plugin claims, that fallbacks stand
// in for missing events with the same gate outcome, and that every
// registered handler answers its event correctly. It checks behaviour, not
// strings: the plugin's own hook commands run through `sh -c` with the
// payloads real releases send.
//
// # Running it
//
// On any plugin folder (the one holding .claude-plugin/plugin.json and
// hooks/hooks.json), JavaScript plugins included:
//
//	hookgen compat PLUGIN-DIR [--cc-version X ...] [--spec FILE] [--marketplace FILE]
//
// prints one line per case and exits 1 when any fails:
//
//	PASS HWC-03 every manifest is one valid JSON object: 25 manifests ...
//	FAIL HWF-02: hooks/hooks.json (band 2.0.12) has no Stop handler `node "${CLAUDE_PLUGIN_ROOT}/scripts/idle.js" --via Stop`
//	SKIP HWR-03 marketplace.json lists the plugin correctly: no .claude-plugin/marketplace.json ...
//
// From Go, [Run] does the same; `go test ./internal/compatsuite -run 'TestCases/HWC-03'`
// runs one case on hookwright's own plugin.
//
// # What is checked
//
// The releases under test are the --cc-version values, else the releases
// plugin.json declares (engines["claude-code"]), else every release from
// the plugin floor (2.0.12): one per span where no rule of the loader
// changes, every band edge among them. hooks/hooks.json is
// the file every release loads; it is taken as written for the oldest
// release under test. A plugin written for every release at once
// (manifests.BuildInstall) also names further hooks files in plugin.json,
// hooks/<release>.json, which each release loads when it knows their
// events; the cases judge each release on what it loads together. With --spec, what hookgen generates from the spec
// for a band is the expected manifest; without it, cases that compare with
// a spec are SKIP, and the ALT cases learn the TaskCompleted and
// TeammateIdle handlers from the native band manifests, if any.
//
// A fallback command is the native command plus " --via <FiredEvent>", as
// hookgen writes it. An exec-form handler ("command" the program, "args" its
// arguments, 2.1.139+) is read as the shell line that runs it the same
// (manifests.JoinExec) and run through sh -c like the others.
//
// A case that runs handlers is SKIP, never PASS, when a run never reached
// its handler: the shell could not start the program (exit 126 or 127), or
// a launcher found no binary and failed open (hookwright's launcher says
// "hookwright: no binary for ..."). Such a case exercised nothing. [IDMap]
// says how each case decides: by behaviour (running the hooks), by the
// loader's rules, or by a file's content.
//
// # The cases
//
// HWC: the manifests load. HWC-01 to HWC-04 (and HWR-01, HWR-02 and
// HWR-03's entry check) hold no rule of their own: they ask hookgen
// validate's oracle (package oracle) what each release under test does
// with the plugin folder (hooks/hooks.json, plugin.json with its inline
// hooks, the hooks files it names, hooks/bands/<band>.json) and report the
// findings they are about. A case FAILs exactly where hookgen validate
// fails by default: the release refuses the plugin, a hooks file, or every
// hook ("no hook runs"); what it drops, reads past or lints is a WARN.
//
//	HWC-01  No file a release before 2.1.33 loads names TeammateIdle or TaskCompleted:
//	           such a release refuses that file and none of its hooks runs.
//	HWC-02  The top-level keys of every hooks file: "$schema" and "description" load,
//	           others are read past (WARN), a few refuse the file or the plugin
//	           ("surface" on 2.1.330, PreToolUse/PermissionRequest outside "hooks" from 2.1.257).
//	HWC-03  Every hooks file is one JSON object (else the release refuses it); a
//	           duplicate key loses the first one (JSON.parse keeps the last): a WARN.
//	HWC-04  Every hooks file, and the plugin's hooks as a whole, on each release under
//	           test, as hookgen validate says: what the release refuses (an unknown event
//	           up to 2.1.252, an invalid value, an unloadable guard from 2.1.257) FAILs;
//	           what it drops (an unknown event from 2.1.257, "args" before 2.1.139), reads
//	           past (unknown group or handler keys) and lints (a matcher on an event that
//	           takes none, a timeout over an hour) WARN.
//	HWC-05  Each manifest's events and matcher groups equal what the spec gives for
//	           its band: nothing lost, nothing extra.
//	HWC-06  Every file a command names under ${CLAUDE_PLUGIN_ROOT} exists; the program
//	           it runs is executable; a native binary called directly fails (it runs on one
//	           platform only); a launcher script is run as if on linux, darwin and windows,
//	           amd64 and arm64 (stubs replace the binaries), and the binary it picks on each
//	           must exist, be executable and be an ELF, Mach-O or PE file for that platform,
//	           or, as a release ships it, be <binary>.gz unpacking (in memory) to such a file
//	           whose SHA-256 bin/SHA256SUMS pins. A launcher with no binary at all beside it
//	           (a checkout before make plugin) is a SKIP that says to run make plugin.
//	HWC-07  Every timeout is a whole number of seconds from 1 to 600; 1000 or more is
//	           reported as milliseconds. Every release loads any positive number, so this
//	           only WARNs.
//
// HWF: fallbacks stand in for what a band lacks.
//
//	HWF-01     Every manifest written for a band without TaskCompleted registers each
//	           TaskCompleted handler under PostToolUse matching TaskUpdate (2.1.16+) or
//	           TodoWrite (before), with " --via PostToolUse".
//	HWF-02     Likewise TeammateIdle: under SubagentStop and Stop, with " --via <event>".
//	HWF-03     What a release of 2.1.33 or later loads has the native TaskCompleted and
//	           TeammateIdle handlers once. A single-band manifest has no " --via" copy of
//	           them (the gate would run twice); an install for every release has its
//	           fallbacks there too, and each one, run on input from such a release in a
//	           state where the native gate blocks, must not block.
//	HWF-04     TaskCompleted through PostToolUse reaches the native outcome: the fallback
//	           command with a TaskUpdate(completed) payload and the native command with a
//	           TaskCompleted payload, on a teammate without deliverables and on one with
//	           them, give the same exit code and the same reason. Documented difference:
//	           before 2.1.16 the anchor is TodoWrite, which names no task. The fallback also
//	           fires after TaskUpdate ran, so its block is feedback; the task stays completed.
//	HWF-05     The TaskCompleted fallback lets through TaskUpdates that complete nothing
//	           (status in_progress, an update a native hook refused, a task already
//	           completed): native TaskCompleted does not fire for them.
//	HWF-06     TeammateIdle through Stop, in the teammate's session (CLAUDE_CODE_TEAM_NAME
//	           and CLAUDE_CODE_AGENT_NAME name it), reaches the native outcome on both states.
//	HWF-07     TeammateIdle through SubagentStop gates like native when the event names the
//	           teammate, lets a plain subagent stop, and never blocks a repeated stop
//	           (stop_hook_active), which would keep the agent alive for ever.
//	HWF-08     The TaskCompleted fallback on TaskUpdate advances PDCA: completing a task
//	           tagged "[Do] parser: ..." leaves .hookwright/pdca.json with the phase the
//	           native TaskCompleted leaves.
//	HWF-09     next-task through SubagentStop and Stop: with a pending task in the team's
//	           list, the idle is answered with that task, as native TeammateIdle answers.
//	HWF-10     An idle through SubagentStop and Stop records the teammate's status in
//	           .hookwright/team/<team>.json as native TeammateIdle does.
//	           HWF-08..10 read hookwright's state layout; a plugin whose native run
//	           leaves nothing there is SKIP.
//
// HWR: the registered handlers and the plugin's own files.
//
//	HWR-01     .claude-plugin/plugin.json as each release reads it (the oracle): its values,
//	           its inline hooks, the hooks files and paths it names. A name that is not
//	           kebab-case and a version that is not x.y.z (caches refresh only when it
//	           changes) load, so they WARN.
//	HWR-02     When a release up to 2.1.75 is under test, plugin.json has no key those
//	           releases refuse ("Unrecognized key", $schema included).
//	HWR-03     marketplace.json (in the plugin's or its parent's .claude-plugin/) has a
//	           name without spaces, owner.name and plugins; its entry for the plugin resolves
//	           to the plugin folder; and the oracle's verdict on the plugin as the marketplace
//	           installs it (hooks in the entry, strict: false beside a plugin.json). A version
//	           that differs from plugin.json's WARNs.
//	HWR-04     Each manifest has as many handlers as the spec gives for its band: the N
//	           that the loader logs as "Registered N hooks".
//	HWR-05     Each manifest has as many events as the spec gives for its band.
//	HWR-06     Every distinct registered handler, run on its event's canonical input (a
//	           harmless tool call for the first tool its matcher names, a startup, a stop,
//	           ...), exits 0 or 2 before its timeout. Exit 1 or 127 is an error on every call.
//	HWR-07     Every reply on stdout is empty, plain text, or one JSON object with only the
//	           keys its event takes (hookSpecificOutput only where allowed, with the event's
//	           own hookEventName): newer releases discard a wrong reply whole.
//	HWR-08     Every exit 2, on canonical input or from a gate on a teammate without
//	           deliverables, carries a reason on stderr: Claude is told why.
//	HWR-09     Harmless input (PreToolUse ls, SessionStart, UserPromptSubmit "hello", ...)
//	           is never blocked, by exit 2, a deny, a "block" decision or continue:false.
//	HWR-10     Stop and SubagentStop handlers never block when stop_hook_active is true.
//	HWR-11     Every handler answers while its stdin stays open (Claude Code may not close
//	           it): one that waits for EOF is killed after 10 s or its timeout.
//	HWR-12     Every handler behaves alike when the plugin lives in a folder with a space in
//	           its path: ${CLAUDE_PLUGIN_ROOT} must be quoted.
//	HWR-13     Every handler behaves alike with unknown input fields and without
//	           CLAUDE_PROJECT_DIR (2.0.30 does not set it for SessionStart).
//	HWR-14     A native TeammateIdle or TaskCompleted handler in a manifest for a band
//	           before 2.1.69 never halts with {"continue":false}, which those releases
//	           ignore: it must exit 2.
//
// The gate states of HWF-04..07 and HWR-08/14 follow hookwright's artifact
// layout (.agent/teams/<team>/<teammate>/L1-index.yaml, L2-summary.md). On a
// plugin with other gates both runs usually pass; they must still agree.
//
// # Environment of a run
//
// Each hook runs in a fresh project folder (its cwd, and CLAUDE_PROJECT_DIR)
// with a fresh HOME, CLAUDE_PLUGIN_ROOT set to a private copy of the plugin
// folder (a launcher unpacking its runtime, or a script keeping a cache,
// writes there: the suite never writes into the folder it checks), the
// caller's PATH, and no CLAUDE_*, ANTHROPIC_* or HOOKWRIGHT_* variable of the
// caller. Runs are bounded by the handler's timeout and 30 s; the suite never
// needs the network or a Claude Code install. The live tier, which does, is
// in this package's tests (see live_test.go and compat/REPORT.md).
package suite
