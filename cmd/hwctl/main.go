// Command hwctl inspects and steers hookwright's state in a project: the
// hook journal and its SQLite store, a web dashboard, session fingerprints,
// PDCA progress, work units and team status, and how the guard reads a tool
// call (hwctl explain). It never runs in the hook path. Run "hwctl --help"
// for the commands, examples and exit codes.
package main

import (
	"os"

	hwcli "github.com/hookwright/hookwright/internal/cli"
)

func main() {
	ctx, stop := hwcli.Context()
	code := run(ctx, os.Args, os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(code)
}
