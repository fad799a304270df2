// Command hookgen writes, checks and explains a Claude Code plugin's
// hooks.json for a given Claude Code release.
//
// Claude Code rejects a whole plugin hooks.json that names one event, key
// or handler type the running release does not know: 0 hooks load, and
// nothing says so in the session. hookgen writes the manifest each release
// accepts from one spec of the plugin's handlers: native events where the
// release has them, fallbacks where it does not (TaskCompleted through
// PostToolUse on TaskUpdate, TeammateIdle through SubagentStop and Stop),
// and only the fields it accepts.
//
// Usage:
//
//	hookgen --cc-version 2.1.32 [--spec FILE] [-o FILE]   write a manifest (stdout by default)
//	hookgen --detect [--spec FILE] [-o FILE]              for the Claude Code installed here
//	hookgen validate --cc-version 2.1.32 FILE             list every violation, exit 1 if any
//	hookgen explain --cc-version 2.1.32 [--spec FILE]     what is native, what is a fallback, why
//	hookgen matrix                                        the support table and band edges
//	hookgen install --settings project|user [--dry-run]   merge the hooks into a settings.json
//	hookgen doctor [--plugin-dir DIR]                     what is installed, what is wrong, how to fix it
//	hookgen compat PLUGIN-DIR [--cc-version X ...]        the COMPAT/ALT/REG suite on any plugin folder
//
// Without --spec, the spec is hookwright's own (manifests/hookwright.spec.json).
// Versions are written 2.1.33, v2.1.33 or "2.1.33 (Claude Code)".
//
// --detect looks, in order, at the native installer's symlink
// ~/.local/bin/claude → …/versions/<X>, then at the package.json of the
// claude found on PATH (a version file, read at once), then at
// `claude --version` (30 s at most: it can take 16 s on a loaded machine).
// It says on stderr which source answered. When none answers it warns on
// stderr and writes the manifest for the plugin floor (2.0.12), which every
// release with plugins loads.
//
// A release older than 2.0.12 is an error: no plugin hooks.json loads
// there. -o writes atomically (a temporary file, then a rename).
//
// Exit codes:
//
//	0  success
//	1  validate: the file has violations (one "pointer: message" line each on stdout)
//	2  usage: a bad flag, argument or version string
//	3  failure: an unreadable or invalid spec or file, a release before 2.0.12, a write error
//
// Errors are one line on stderr, starting with "hookgen: ".
package main

import "os"

// version is set by the Makefile and the npm build from plugin.json.
var version = "dev"

func main() { os.Exit(run(os.Args, systemEnv())) }
