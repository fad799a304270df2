package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/hookwright/hookwright/internal/packs"
	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/table"
)

// guardPacksHelp is guard packs' --help text below its usage line.
const guardPacksHelp = `packs lists the guard's rule packs: every rule with the programs it
covers, its default severity, and its effective severity under this
project's config (guard.packs). A config sets a whole pack or one rule to
"off", "ask" or "block":

   {"guard": {"packs": {"database": "block", "payment": "off", "database.drop": "ask"}}}

A rule's own entry wins over its pack's.

Examples:
   hwctl guard packs
   hwctl guard packs --json`

func guardCommand(s streams) *cli.Command {
	return &cli.Command{
		Name:  "guard",
		Usage: "the guard's rule packs",
		Subcommands: []*cli.Command{{
			Name:        "packs",
			Usage:       "list every rule pack, its rules, their defaults and their effective severity",
			Description: guardPacksHelp,
			Flags:       []cli.Flag{dirFlag, jsonFlag, wideFlag},
			Action: func(c *cli.Context) error {
				dir := s.projectDir(c)
				if abs, err := filepath.Abs(dir); err == nil {
					dir = abs
				}
				cfg, err := config.Load(dir)
				if err != nil {
					return err
				}
				return printPacks(s, cfg.Guard.Packs, c.Bool("json"), s.width(c))
			},
		}},
	}
}

// packRow is one rule as guard packs lists it.
type packRow struct {
	Pack      string   `json:"pack"`
	Rule      string   `json:"rule"`
	ID        string   `json:"id"`
	Programs  []string `json:"programs"`
	Default   string   `json:"default"`
	Effective string   `json:"effective"`
	Doc       string   `json:"doc"`
}

func printPacks(s streams, cfg map[string]string, asJSON bool, width int) error {
	set := packs.All()
	var rows []packRow
	for _, p := range set.Packs {
		for i := range p.Rules {
			r := &p.Rules[i]
			rows = append(rows, packRow{p.Name, r.Name, r.ID(), r.Programs, r.Severity, packs.Severity(r, cfg), r.Doc})
		}
	}
	if asJSON {
		return s.printJSON(rows)
	}
	var t *table.Table
	flush := func() error {
		if t == nil {
			return nil
		}
		_, err := t.Render(s.Out, width)
		return err
	}
	last := ""
	for _, r := range rows {
		if r.Pack != last {
			if err := flush(); err != nil {
				return err
			}
			if last != "" {
				fmt.Fprintln(s.Out)
			}
			fmt.Fprintln(s.Out, table.Wrap(r.Pack+": "+set.Pack(r.Pack).Doc, width, 2))
			t = table.New(table.Column{Name: "RULE"}, table.Column{Name: "DEFAULT"}, table.Column{Name: "EFFECTIVE"},
				table.Column{Name: "PROGRAMS", Flex: true, Min: 12, Drop: 1}, table.Column{Name: "WHAT", Flex: true, Min: 16})
			t.Indent = 2
			last = r.Pack
		}
		progs := r.Programs
		if len(progs) > 6 {
			progs = append(progs[:6:6], fmt.Sprintf("+%d", len(r.Programs)-6))
		}
		t.Row(r.ID, r.Default, r.Effective, strings.Join(progs, " "), r.Doc)
	}
	return flush()
}
