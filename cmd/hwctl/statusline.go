package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/hookwright/hookwright/internal/statusline"
)

// statuslineHelp is statusline's --help text below its usage line.
const statuslineHelp = `statusline prints one line about the Claude Code session whose statusLine
JSON arrives on stdin: the PDCA phase and task, the open work unit, the
session's hook calls and blocks, and the last block's rule, e.g.

   hookwright · PDCA Do parser: write the tests · work wu-1a2b3c4d · 41 calls, 2 blocks (last: git-force-push)

It reads the session's own files under .hookwright/ (state files and the
end of the journal), never the database, so it answers in milliseconds.
Every string is made terminal-safe. The project is the JSON's
workspace.project_dir, else the nearest folder with .hookwright/ above its
cwd, else --dir or $CLAUDE_PROJECT_DIR. Nothing to show prints nothing.

Set it up with hookgen install --statusline, or in a settings file:
   {"statusLine": {"type": "command", "command": "hwctl statusline"}}`

func statuslineCommand(s streams) *cli.Command {
	return &cli.Command{
		Name:        "statusline",
		Usage:       "one line for Claude Code's status bar (statusLine command; JSON on stdin)",
		Description: statuslineHelp,
		Flags:       []cli.Flag{dirFlag},
		Action: func(c *cli.Context) error {
			var r io.Reader = os.Stdin
			if s.In != nil {
				r = s.In
			}
			in, err := statusline.Read(r)
			if err != nil {
				return err
			}
			fallback := ""
			if c.IsSet("dir") || s.Getenv("CLAUDE_PROJECT_DIR") != "" {
				fallback = s.projectDir(c)
			}
			st := statusline.Collect(in.ProjectDir(fallback), in.SessionID, time.Now())
			if line := st.Line(); line != "" {
				fmt.Fprintln(s.Out, line)
			}
			return nil
		},
	}
}
