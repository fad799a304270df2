package main

import (
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	teamstatus "github.com/hookwright/hookwright/internal/state/team"
	"github.com/hookwright/hookwright/internal/table"
)

func teamCommand(s streams) *cli.Command {
	return &cli.Command{
		Name:      "team",
		Usage:     "who in each agent team is working and who is idle",
		ArgsUsage: "[team]",
		Description: `Reads .hookwright/team/<team>.json, which the hooks update on each
TeammateIdle (idle) and TaskCompleted (active), after the gates: an idle that a
gate or next-task sent back to work leaves the teammate active. OPEN TASK is
the teammate's task in progress, else its first pending one.

   hwctl team            every team
   hwctl team core       one team
   hwctl team --json`,
		Flags: []cli.Flag{dirFlag, jsonFlag, wideFlag},
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return usageError("team takes at most one [team]")
			}
			dir, err := s.stateProject(c)
			if err != nil {
				return err
			}
			var teams []teamstatus.Status
			if c.NArg() == 1 {
				st, err := teamstatus.Load(dir, c.Args().First())
				if err != nil {
					return err
				}
				teams = []teamstatus.Status{st}
			} else {
				if teams, err = teamstatus.LoadAll(dir); err != nil {
					return err
				}
			}
			if c.Bool("json") {
				if teams == nil {
					teams = []teamstatus.Status{}
				}
				return s.printJSON(teams)
			}
			if len(teams) == 0 || len(teams) == 1 && len(teams[0].Teammates) == 0 {
				fmt.Fprintln(s.Out, "no teammate status yet (it is written on TeammateIdle and TaskCompleted in an agent team)")
				return nil
			}
			t := table.New(table.Column{Name: "TEAM", Flex: true}, table.Column{Name: "TEAMMATE", Flex: true}, table.Column{Name: "STATE"},
				table.Column{Name: "LAST EVENT", Drop: 1}, table.Column{Name: "LAST SEEN"}, table.Column{Name: "OPEN TASK", Flex: true, Min: 12})
			for _, st := range teams {
				for _, name := range st.Names() {
					m := st.Teammates[name]
					t.Row(cell(st.Team), cell(name), cell(string(m.State)), cell(m.LastEvent),
						m.LastSeen.Local().Format(time.DateTime), dash(cutLine(m.OpenTask, 200)))
				}
			}
			return s.render(c, t)
		},
	}
}
