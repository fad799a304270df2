package main

import (
	"fmt"
	"sort"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/state/loop"
	"github.com/hookwright/hookwright/internal/table"
)

const loopDescription = `The Stop loop keeps the main session working until a check passes (a shell
command run in the project folder, exit 0) or the model prints
<promise>TEXT</promise>, within --max-rounds blocked stops; a loop in which
no project file changes for --stall-rounds rounds is let go.

   hwctl loop start --check 'go test ./...'            arm it (like /ralph-loop)
   hwctl loop start --promise DONE --max-rounds 10     end it on <promise>DONE</promise>
   hwctl loop status                                   settings and each session's rounds
   hwctl loop stop                                     cancel it (like /cancel-ralph)

start overrides the "loop" section of .hookwright/config.json where a flag
is given, and starts every session's count afresh; stop turns the loop off
even when the config turns it on, until the next start.`

func loopCommand(s streams) *cli.Command {
	return &cli.Command{
		Name:        "loop",
		Usage:       "arm, cancel and show the Stop loop",
		Description: loopDescription,
		Subcommands: []*cli.Command{
			{
				Name: "start", Usage: "arm the loop for the project",
				Flags: []cli.Flag{dirFlag,
					&cli.StringFlag{Name: "check", Usage: "shell `COMMAND` that passes (exit 0) when the work is done"},
					&cli.StringFlag{Name: "promise", Usage: "end the loop when the model prints <promise>`TEXT`</promise>"},
					&cli.IntFlag{Name: "max-rounds", Usage: "let the stop through after `N` blocked stops (default: config, 5)"},
					&cli.IntFlag{Name: "stall-rounds", Usage: "let the stop through after `N` rounds without a file change (default: config, 3)"},
					&cli.IntFlag{Name: "timeout", Usage: fmt.Sprintf("the check's time limit in `SECONDS` (at most %d; default: config, 60)", config.MaxLoopTimeout)},
				},
				Action: func(c *cli.Context) error {
					if c.NArg() > 0 {
						return usageError("loop start takes no arguments (quote the check: --check 'make test')")
					}
					set := loop.Settings{Check: c.String("check"), Promise: c.String("promise"), MaxRounds: c.Int("max-rounds"),
						StallRounds: c.Int("stall-rounds"), Timeout: c.Int("timeout"), Started: time.Now().UTC()}
					if set.MaxRounds < 0 || set.StallRounds < 0 || set.Timeout < 0 || set.Timeout > config.MaxLoopTimeout {
						return usageError("--max-rounds, --stall-rounds and --timeout must be positive (--timeout at most %d)", config.MaxLoopTimeout)
					}
					dir := s.projectDir(c)
					cfg, cfgErr := config.Load(dir)
					if cfgErr != nil {
						fmt.Fprintln(s.Err, "hwctl:", cfgErr)
					}
					st := loop.State{Armed: &set}
					eff := st.Effective(cfg.Loop)
					if eff.Check == "" && eff.Promise == "" {
						return usageError("nothing could end the loop: give --check or --promise (or set loop.check in the config)")
					}
					if err := loop.Arm(dir, set, s.Getenv); err != nil {
						return err
					}
					fmt.Fprintf(s.Out, "loop armed: %s\n", describeLoop(eff))
					return nil
				},
			},
			{
				Name: "stop", Usage: "cancel the loop: every stop goes through", Flags: []cli.Flag{dirFlag},
				Action: func(c *cli.Context) error {
					if err := loop.Stop(s.projectDir(c)); err != nil {
						return err
					}
					fmt.Fprintln(s.Out, "loop cancelled")
					return nil
				},
			},
			{
				Name: "status", Usage: "show the loop's settings and each session's rounds", Flags: []cli.Flag{dirFlag, jsonFlag, wideFlag},
				Action: func(c *cli.Context) error {
					dir, err := s.stateProject(c)
					if err != nil {
						return err
					}
					cfg, cfgErr := config.Load(dir)
					if cfgErr != nil {
						fmt.Fprintln(s.Err, "hwctl:", cfgErr)
					}
					st, err := loop.Load(dir)
					if err != nil {
						return err
					}
					st, dropped := st.Honoured(dir, s.Getenv)
					eff := st.Effective(cfg.Loop)
					if c.Bool("json") {
						return s.printJSON(struct {
							Effective config.Loop `json:"effective"`
							loop.State
						}{eff, st})
					}
					state := "off"
					switch {
					case dropped && !eff.Enabled:
						state = "off (" + loop.File + " is armed, but not by hwctl loop start for you here: ignored)"
					case st.Cancelled:
						state = "cancelled (hwctl loop stop)"
					case st.Armed != nil:
						state = "armed (hwctl loop start, " + st.Armed.Started.Local().Format(time.DateTime) + ")"
					case eff.Enabled:
						state = "on (config)"
					}
					fmt.Fprintf(s.Out, "loop: %s\n", state)
					if eff.Enabled {
						fmt.Fprintf(s.Out, "      %s\n", describeLoop(eff))
					}
					if len(st.Sessions) == 0 {
						return nil
					}
					ids := make([]string, 0, len(st.Sessions))
					for id := range st.Sessions {
						ids = append(ids, id)
					}
					sort.Slice(ids, func(i, j int) bool { return st.Sessions[ids[i]].Seen.After(st.Sessions[ids[j]].Seen) })
					t := table.New(table.Column{Name: "SESSION", Flex: true, Min: 8}, table.Column{Name: "ROUNDS", Right: true}, table.Column{Name: "STALLED", Right: true},
						table.Column{Name: "STATE", Flex: true}, table.Column{Name: "LAST CHECK", Flex: true, Min: 12}, table.Column{Name: "SEEN", Drop: 1})
					for _, id := range ids {
						r := st.Sessions[id]
						state := "running"
						if r.Ended != "" {
							state = "ended: " + r.Ended
						}
						last := "-"
						if r.LastCheck != "" || r.LastExit != 0 {
							last = fmt.Sprintf("exit %d %s", r.LastExit, r.LastCheck)
						}
						t.Row(cell(id), fmt.Sprint(r.Rounds), fmt.Sprint(r.Stalled), cell(state), cutLine(last, 200), r.Seen.Local().Format(time.DateTime))
					}
					return s.render(c, t)
				},
			},
		},
	}
}

func describeLoop(l config.Loop) string {
	out := ""
	if l.Check != "" {
		out += fmt.Sprintf("check %q, ", l.Check)
	}
	if l.Promise != "" {
		out += fmt.Sprintf("promise <promise>%s</promise>, ", l.Promise)
	}
	return out + fmt.Sprintf("max %d rounds, let go after %d rounds without a change, check timeout %d s", l.MaxRounds, l.StallRounds, l.Timeout)
}

// cutLine cuts s to n bytes, on a rune boundary, marking the cut.
func cutLine(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}
