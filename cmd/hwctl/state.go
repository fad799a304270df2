package main

import (
	"fmt"
	"path/filepath"
	"sort"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/state/pdca"
	"github.com/hookwright/hookwright/internal/state/work"
)

func pdcaCommand(s streams) *cli.Command {
	return &cli.Command{
		Name:  "pdca",
		Usage: "PDCA progress per feature",
		Subcommands: []*cli.Command{{
			Name:  "status",
			Usage: "show each feature's phase",
			Flags: []cli.Flag{dirFlag, jsonFlag},
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
				tw := tabwriter.NewWriter(s.Out, 0, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "FEATURE\tPHASE\tROUND\tTASKS\tUPDATED\tNEXT")
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
					fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%s\n", n, f.Phase, f.Iteration, total, f.Updated.Local().Format(time.DateTime), next)
				}
				return tw.Flush()
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
				Name: "status", Usage: "list active work units", Flags: []cli.Flag{dirFlag, jsonFlag},
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
					tw := tabwriter.NewWriter(s.Out, 0, 4, 2, ' ', 0)
					fmt.Fprintln(tw, "KIND\tNAME\tSESSION\tSTARTED")
					for _, u := range st.Active("") {
						fmt.Fprintf(tw, "manual\t%s\t-\t%s\n", u.Name, u.Started.Local().Format(time.DateTime))
					}
					keys := make([]string, 0, len(st.Tasks))
					for k := range st.Tasks {
						keys = append(keys, k)
					}
					sort.Strings(keys)
					for _, k := range keys {
						u := st.Tasks[k]
						fmt.Fprintf(tw, "task\t%s\t%s\t%s\n", u.Name, u.Session, u.Started.Local().Format(time.DateTime))
					}
					return tw.Flush()
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
