package main

import (
	"fmt"
	"path/filepath"
	"sort"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/state/pdca"
	"github.com/hookwright/hookwright/internal/state/work"
	"github.com/hookwright/hookwright/internal/table"
)

func pdcaCommand(s streams) *cli.Command {
	return &cli.Command{
		Name:  "pdca",
		Usage: "PDCA progress per feature",
		Subcommands: []*cli.Command{{
			Name:  "status",
			Usage: "show each feature's phase",
			Flags: []cli.Flag{dirFlag, jsonFlag, wideFlag},
			Action: func(c *cli.Context) error {
				dir, err := s.stateProject(c)
				if err != nil {
					return err
				}
				cfg, cfgErr := config.Load(dir)
				if cfgErr != nil {
					fmt.Fprintln(s.Err, "hwctl:", cfgErr)
				}
				st, err := pdca.Load(filepath.Join(dir, cfg.PDCA.State))
				if err != nil {
					return err
				}
				if c.Bool("json") {
					return s.printJSON(st)
				}
				if len(st.Features) == 0 {
					fmt.Fprintln(s.Out, "no PDCA tasks completed yet (tag task subjects like \"[Do] my-feature: ...\")")
					return nil
				}
				names := make([]string, 0, len(st.Features))
				for n := range st.Features {
					names = append(names, n)
				}
				sort.Strings(names)
				t := table.New(table.Column{Name: "FEATURE", Flex: true, Min: 12}, table.Column{Name: "PHASE"}, table.Column{Name: "ROUND", Right: true},
					table.Column{Name: "TASKS", Right: true}, table.Column{Name: "UPDATED", Drop: 1}, table.Column{Name: "NEXT", Flex: true})
				for _, n := range names {
					f := st.Features[n]
					total := 0
					for _, k := range f.Done {
						total += k
					}
					next := pdca.Next(f.Phase)
					if next == "" {
						next = "-"
					}
					t.Row(cell(n), cell(f.Phase), fmt.Sprint(f.Iteration), fmt.Sprint(total), f.Updated.Local().Format(time.DateTime), next)
				}
				return s.render(c, t)
			},
		}},
	}
}

func workCommand(s streams) *cli.Command {
	return &cli.Command{
		Name:  "work",
		Usage: "manual work units (see also tasks in progress)",
		Subcommands: []*cli.Command{
			{
				Name: "start", Usage: "start the work unit <name>", ArgsUsage: "<name>", Flags: []cli.Flag{dirFlag},
				Action: func(c *cli.Context) error {
					if c.NArg() != 1 {
						return usageError("work start needs exactly one <name>")
					}
					if err := work.Start(s.projectDir(c), c.Args().First(), time.Now()); err != nil {
						return err
					}
					fmt.Fprintf(s.Out, "work unit %q started\n", c.Args().First())
					return nil
				},
			},
			{
				Name: "stop", Usage: "end the work unit <name>", ArgsUsage: "<name>", Flags: []cli.Flag{dirFlag},
				Action: func(c *cli.Context) error {
					if c.NArg() != 1 {
						return usageError("work stop needs exactly one <name>")
					}
					ok, err := work.Stop(s.projectDir(c), c.Args().First())
					if err != nil {
						return err
					}
					if !ok {
						return fmt.Errorf("no active work unit %q", c.Args().First())
					}
					fmt.Fprintf(s.Out, "work unit %q stopped\n", c.Args().First())
					return nil
				},
			},
			{
				Name: "status", Usage: "list active work units", Flags: []cli.Flag{dirFlag, jsonFlag, wideFlag},
				Action: func(c *cli.Context) error {
					dir, err := s.stateProject(c)
					if err != nil {
						return err
					}
					st, err := work.Load(dir)
					if err != nil {
						return err
					}
					if c.Bool("json") {
						return s.printJSON(st)
					}
					t := table.New(table.Column{Name: "KIND"}, table.Column{Name: "NAME", Flex: true, Min: 12}, table.Column{Name: "SESSION", Flex: true, Drop: 1},
						table.Column{Name: "STARTED"})
					for _, u := range st.Active("") {
						t.Row("manual", cell(u.Name), "-", u.Started.Local().Format(time.DateTime))
					}
					keys := make([]string, 0, len(st.Tasks))
					for k := range st.Tasks {
						keys = append(keys, k)
					}
					sort.Strings(keys)
					for _, k := range keys {
						u := st.Tasks[k]
						t.Row("task", cell(u.Name), cell(u.Session), u.Started.Local().Format(time.DateTime))
					}
					return s.render(c, t)
				},
			},
		},
	}
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
