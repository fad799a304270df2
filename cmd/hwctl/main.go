// Command hwctl inspects and steers hookwright's state in a project: PDCA
// progress, work units, session fingerprints, the hook journal, and how the
// guard reads a tool call.
//
//	hwctl pdca status [--dir PROJECT] [--json]   PDCA phase per feature
//	hwctl work start <name>                      start a manual work unit
//	hwctl work stop <name>                       end it
//	hwctl work status [--json]                   units in progress
//	hwctl sessions [--json] [-n N]               recorded sessions, newest first
//	hwctl log [-n N] [--follow]                  the journal as a table; --follow tails it
//	hwctl dashboard [-n N] [--interval D]        live view: counts per event and
//	                                             decision, and the last N calls
//	hwctl explain -- '<command>'                 how the guard reads a command, and why it decides
//	hwctl explain --tool Read --path P [--json]  the same for a file-tool path
//
// PROJECT defaults to $CLAUDE_PROJECT_DIR, else the current folder. hwctl
// only reads the journal incrementally and keeps at most N entries in
// memory, so a large journal costs time once, never memory.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args, os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(code)
}
