package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	hwcli "github.com/hookwright/hookwright/internal/cli"
	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/runtime/workflow"
	"github.com/hookwright/hookwright/internal/state/loop"
)

// workflowHelp is the workflow command's --help text.
const workflowHelp = `hookwright carries the team workflows of five source designs. In every
project it runs the guard, the journal, session records and metrics, the
compaction snapshot, teammate status and the fallbacks for older Claude
Code releases. The workflows run only where the project asks for them:

   scratchpad  every agent writes a dated scratchpad before it stops
   artifacts   teammates leave L1/L2 files before idling or completing;
               subagents learn the team's GC version
   pdca        tasks tagged [Plan] [Design] [Do] [Check] [Act] [Report]
               advance their feature's phase
   work        every edit belongs to a work unit (strict refuses the others,
               warn records them as untracked_edit)
   loop        the session may not stop until a check passes

A workflow is on where a config file turns it on (hwctl workflow enable
writes the project's .hookwright/config.json), where a config file
configures its section, or where the project already keeps the workflow's
own folder (ego notes in .claude/scratchpad/ego/, the team folder
.agent/teams/, bkit's docs/01-plan/). "hwctl workflow list" says which are
on here and why; docs/workflows.md says what each one does.

Examples:
   hwctl workflow list                              which workflows run here, and why
   hwctl workflow enable scratchpad                 turn the scratchpad chain on for this project
   hwctl workflow enable scratchpad --fail closed   ... and hold an agent until it writes (at most 5 stops;
                                                    --max-blocks N sets the bound)
   hwctl workflow enable work --mode warn           record edits outside a work unit, block none
   hwctl workflow enable loop --check 'go test ./...'
   hwctl workflow disable pdca                      turn it off, even where its folder exists

enable and disable write the project config (loop: they arm and cancel the
loop as hwctl loop start and stop do). The change applies from the next
hook call; commit .hookwright/config.json to share it with the team. The
guard does not let the model run enable or disable: that is your call.`

// workflowCommand is hwctl workflow: list, status, enable, disable.
func workflowCommand(s streams) *cli.Command {
	nameArg := func(c *cli.Context) (workflow.Name, error) {
		args, err := positional(c)
		if err != nil {
			return "", err
		}
		if len(args) != 1 {
			return "", usageError("%s needs one workflow: %s", c.Command.Name, workflow.List())
		}
		n, err := workflow.Parse(args[0])
		if err != nil {
			return "", usageError("%v", err)
		}
		return n, nil
	}
	list := func(c *cli.Context) error {
		args, err := positional(c)
		if err != nil {
			return err
		}
		if len(args) > 0 && c.Command.Name == "list" || len(args) > 1 {
			return usageError("%s takes at most one workflow (status) or none (list)", c.Command.Name)
		}
		dir, err := s.writeProject(c)
		if err != nil {
			return err
		}
		sts, cfgErr := s.workflows(dir)
		if len(args) == 1 {
			n, err := nameArg(c)
			if err != nil {
				return err
			}
			for _, st := range sts {
				if st.Name == n {
					sts = []workflow.Status{st}
				}
			}
		}
		if c.Bool("json") {
			return s.printJSON(sts)
		}
		if cfgErr != nil {
			fmt.Fprintln(s.Err, "hwctl:", cfgErr)
		}
		fmt.Fprintf(s.Out, "project: %s\n", dir)
		tw := tabwriter.NewWriter(s.Out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "WORKFLOW\tSTATE\tWHY")
		for _, st := range sts {
			state := "off"
			if st.On {
				state = "on"
				if st.Mode != "" {
					state += " (" + st.Mode + ")"
				}
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\n", st.Name, state, st.Why)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		if len(sts) == 1 {
			fmt.Fprintf(s.Out, "\n%s: %s.\n", sts[0].Name, workflow.Summary(sts[0].Name))
		}
		fmt.Fprintln(s.Out, "\nAlways on: the guard, the journal, session records and tool metrics, the compaction snapshot, teammate status, the fallbacks.")
		return nil
	}
	return &cli.Command{
		Name:        "workflow",
		Usage:       "list, turn on and turn off the team workflows (scratchpad, artifacts, pdca, work, loop)",
		Description: workflowHelp,
		Subcommands: []*cli.Command{
			{Name: "list", Usage: "every workflow: on or off here, and why", Flags: []cli.Flag{dirFlag, jsonFlag}, Action: list},
			{Name: "status", Usage: "the same as list, or one workflow", ArgsUsage: "[WORKFLOW]", Flags: []cli.Flag{dirFlag, jsonFlag}, Action: list},
			{
				Name: "enable", Usage: "turn a workflow on for this project", ArgsUsage: "WORKFLOW",
				Description: "enable writes the workflow's switch into the project's .hookwright/config.json\n" +
					"(scratchpad, artifacts, pdca: \"enabled\": true; work: \"mode\"), keeping every other key.\n" +
					"loop arms the Stop loop as hwctl loop start does; it needs --check or --promise.",
				Flags: []cli.Flag{dirFlag,
					&cli.StringFlag{Name: "fail", Usage: "scratchpad, artifacts: `open` (the default) or closed; a closed scratchpad chain keeps an agent that stops without its scratchpad working, up to scratchpad.max_blocks stops"},
					&cli.IntFlag{Name: "max-blocks", DefaultText: "5", Usage: fmt.Sprintf("scratchpad with --fail closed: let an agent go after `N` blocked stops in a row (1 to %d)", config.MaxScratchpadBlocks)},
					&cli.StringFlag{Name: "mode", Usage: "work: `strict` (the default: edits outside a work unit are refused) or warn (they are recorded as untracked_edit)"},
					&cli.StringFlag{Name: "check", Usage: "loop: the shell `COMMAND` that passes (exit 0) when the work is done"},
					&cli.StringFlag{Name: "promise", Usage: "loop: end it when the model prints <promise>`TEXT`</promise>"},
				},
				Action: func(c *cli.Context) error {
					n, err := nameArg(c)
					if err != nil {
						return err
					}
					dir, err := s.writeProject(c)
					if err != nil {
						return err
					}
					sets, err := enableSettings(n, c)
					if err != nil {
						return err
					}
					if n == workflow.Loop {
						if err := s.armLoop(c, dir); err != nil {
							return err
						}
					} else {
						path, err := editProjectConfig(dir, sets...)
						if err != nil {
							return err
						}
						fmt.Fprintf(s.Out, "wrote %s\n", path)
					}
					return s.reportOne(dir, n)
				},
			},
			{
				Name: "disable", Usage: "turn a workflow off for this project", ArgsUsage: "WORKFLOW", Flags: []cli.Flag{dirFlag},
				Description: "disable writes the workflow's switch off into the project's .hookwright/config.json\n" +
					"(work: \"mode\": \"off\"), which wins over its folder; loop cancels the Stop loop as hwctl loop stop does.",
				Action: func(c *cli.Context) error {
					n, err := nameArg(c)
					if err != nil {
						return err
					}
					dir, err := s.writeProject(c)
					if err != nil {
						return err
					}
					if n == workflow.Loop {
						if err := loop.Stop(dir); err != nil {
							return err
						}
						fmt.Fprintln(s.Out, "loop cancelled")
					} else {
						set := setting{string(n), "enabled", false}
						if n == workflow.Work {
							set = setting{"work", "mode", string(config.WorkOff)}
						}
						path, err := editProjectConfig(dir, set)
						if err != nil {
							return err
						}
						fmt.Fprintf(s.Out, "wrote %s\n", path)
					}
					return s.reportOne(dir, n)
				},
			},
		},
	}
}

// enableSettings are the keys enable writes for n, from its flags.
func enableSettings(n workflow.Name, c *cli.Context) ([]setting, error) {
	for _, f := range []struct {
		flag string
		for_ []workflow.Name
	}{{"fail", []workflow.Name{workflow.Scratchpad, workflow.Artifacts}}, {"max-blocks", []workflow.Name{workflow.Scratchpad}}, {"mode", []workflow.Name{workflow.Work}},
		{"check", []workflow.Name{workflow.Loop}}, {"promise", []workflow.Name{workflow.Loop}}} {
		if !c.IsSet(f.flag) {
			continue
		}
		ok := false
		for _, w := range f.for_ {
			ok = ok || w == n
		}
		if !ok {
			return nil, usageError("--%s is not a setting of %s", f.flag, n)
		}
	}
	switch n {
	case workflow.Work:
		mode := config.WorkMode(c.String("mode"))
		if mode == "" {
			mode = config.WorkStrict
		}
		if mode != config.WorkStrict && mode != config.WorkWarn {
			return nil, usageError("--mode %q is not strict or warn (hwctl workflow disable work turns it off)", mode)
		}
		return []setting{{"work", "mode", string(mode)}}, nil
	case workflow.Loop:
		return nil, nil
	}
	sets := []setting{{string(n), "enabled", true}}
	if c.IsSet("fail") {
		fail := config.Fail(c.String("fail"))
		if fail != config.FailOpen && fail != config.FailClosed {
			return nil, usageError("--fail %q is not open or closed", fail)
		}
		sets = append(sets, setting{string(n), "fail", string(fail)})
	}
	if c.IsSet("max-blocks") {
		m := c.Int("max-blocks")
		if m < 1 || m > config.MaxScratchpadBlocks {
			return nil, usageError("--max-blocks %d is not 1 to %d", m, config.MaxScratchpadBlocks)
		}
		sets = append(sets, setting{"scratchpad", "max_blocks", m})
	}
	return sets, nil
}

// armLoop arms the Stop loop for dir, as hwctl loop start does.
func (s streams) armLoop(c *cli.Context, dir string) error {
	set := loop.Settings{Check: c.String("check"), Promise: c.String("promise"), Started: time.Now().UTC()}
	cfg, cfgErr := config.Load(dir)
	if cfgErr != nil {
		fmt.Fprintln(s.Err, "hwctl:", cfgErr)
	}
	eff := loop.State{Armed: &set}.Effective(cfg.Loop)
	if eff.Check == "" && eff.Promise == "" {
		return usageError("nothing could end the loop: give --check 'COMMAND' or --promise TEXT")
	}
	if err := loop.Arm(dir, set, s.Getenv); err != nil {
		return err
	}
	fmt.Fprintf(s.Out, "loop armed: %s\n", describeLoop(eff))
	return nil
}

// workflows decides every workflow for the project at dir as the runtime
// does.
func (s streams) workflows(dir string) ([]workflow.Status, error) {
	l, err := config.LoadLayers(dir, s.Getenv)
	return workflow.All(dir, l, s.Getenv), err
}

// reportOne prints n's state after a change, and warns when it is not
// what was asked for (a user config cannot override the project's switch,
// but a broken project config is left out).
func (s streams) reportOne(dir string, n workflow.Name) error {
	l, err := config.LoadLayers(dir, s.Getenv)
	if err != nil {
		fmt.Fprintln(s.Err, "hwctl:", err)
	}
	st := workflow.Decide(n, dir, l, s.Getenv)
	fmt.Fprintln(s.Out, st)
	return nil
}

// writeProject is the project a workflow command reads and writes: --dir,
// else $CLAUDE_PROJECT_DIR, else the nearest folder upwards that holds
// .hookwright, a .git or a .claude folder (a fresh project has no
// .hookwright yet, and `cd src && hwctl workflow enable scratchpad` must
// not make src/.hookwright), else the current folder.
func (s streams) writeProject(c *cli.Context) (string, error) {
	dir := hwcli.String(c, "dir")
	if dir == "" {
		dir = s.Getenv("CLAUDE_PROJECT_DIR")
	}
	if dir == "" {
		dir = nearestRoot(".")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return "", usageError("no project folder at %s (--dir, else $CLAUDE_PROJECT_DIR, else .)", dir)
	}
	return abs, nil
}

// nearestRoot is the nearest folder from start upwards that holds
// .hookwright, .git or .claude; start when none does.
func nearestRoot(start string) string {
	abs, err := filepath.Abs(start)
	if err != nil {
		return start
	}
	for d := abs; ; {
		for _, marker := range []string{config.Dir, ".git", ".claude"} {
			if _, err := os.Stat(filepath.Join(d, marker)); err == nil {
				return d
			}
		}
		up := filepath.Dir(d)
		if up == d {
			return start
		}
		d = up
	}
}

// positional returns the arguments of c that are not flags, and reads the
// flags given after the workflow's name ("hwctl workflow enable
// scratchpad --fail closed"), which urfave/cli leaves among the
// arguments, into c.
func positional(c *cli.Context) ([]string, error) {
	args := c.Args().Slice()
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if len(a) < 2 || a[0] != '-' {
			rest = append(rest, a)
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		var f cli.Flag
		for _, cf := range c.Command.Flags {
			for _, n := range cf.Names() {
				if n == name {
					f = cf
				}
			}
		}
		if f == nil {
			return nil, usageError("flag provided but not defined: %s", a)
		}
		if _, isBool := f.(*cli.BoolFlag); isBool && !hasVal {
			val, hasVal = "true", true
		}
		if !hasVal {
			if i+1 >= len(args) {
				return nil, usageError("flag needs an argument: %s", a)
			}
			i++
			val = args[i]
		}
		if err := c.Set(name, val); err != nil {
			return nil, usageError("%s: %v", a, err)
		}
	}
	return rest, nil
}
