package main

import (
	"fmt"
	"io"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/project"
	"github.com/hookwright/hookwright/internal/statusline"
)

// statusLine is `hookwright statusline`: the line `hwctl statusline`
// prints, from the lean runtime binary, whose start-up costs a fraction
// of hwctl's (hookgen install --statusline writes this one). It always
// exits 0: a status line has no one to report to but stderr.
func statusLine(stdin io.Reader, stdout, stderr io.Writer, env project.Env) int {
	in, err := statusline.Read(stdin)
	if err != nil {
		fmt.Fprintln(stderr, "hookwright statusline:", err)
		return hooks.ExitOK
	}
	getenv := project.Getenv(env.Getenv)
	st := statusline.Collect(in.ProjectDir(getenv("CLAUDE_PROJECT_DIR")), in.SessionID, project.Now(env.Now))
	if line := st.Line(); line != "" {
		fmt.Fprintln(stdout, line)
	}
	return hooks.ExitOK
}
