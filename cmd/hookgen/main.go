// Command hookgen writes, checks and explains a Claude Code plugin's
// hooks.json for a given Claude Code release.
//
// Claude Code rejects a whole plugin hooks.json that names one event, key
// or handler type the running release does not know: 0 hooks load, and
// nothing says so in the session. hookgen writes the manifest each release
// accepts from one spec of the plugin's handlers: native events where the
// release has them, fallbacks where they do not, and only the fields it
// accepts. Run "hookgen --help" for the commands, examples and exit codes.
package main

import (
	"os"

	hwcli "github.com/hookwright/hookwright/internal/cli"
)

func main() {
	ctx, stop := hwcli.Context()
	code := runContext(ctx, os.Args, systemEnv())
	stop()
	os.Exit(code)
}
