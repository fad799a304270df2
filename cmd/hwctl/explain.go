package main

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/hookwright/hookwright/internal/guard"
	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/runtime/workflow"
	"github.com/hookwright/hookwright/internal/table"
)

// explainHelp is explain's --help text below its usage line.
const explainHelp = `explain shows how hookwright's guard reads a tool call, step by step: the
simple commands it found (through quoting, pipelines, substitutions, sh -c
strings, eval and wrappers such as sudo or env), each path as resolved (~,
$HOME, .. and symlinks), every rule that matched with its severity, and the
decision with the exact reason the model would read. It uses the project's
.hookwright/config.json, as the hook does, and never runs the command.

Examples:
   hwctl explain -- 'zsh -c "rm -rf ~"'
   hwctl explain -- git push origin +main
   hwctl explain --tool Read --path ~/.ssh/id_rsa
   hwctl explain --tool Write --path ~/.bashrc --json
   hwctl explain --level strict -- rm -rf build
   hwctl explain --tool WebFetch --input '{"url":"https://docs.example.com/"}'   guard.tools on any tool
   hwctl explain --tool mcp__db__query --input '{"sql":"DROP TABLE users"}'  an MCP tool, judged by what it does
   hwctl explain -- ldcli flags delete checkout-v2   the model of harm: the part that decided, and what would let it pass
   hwctl explain --rules          every rule, its severity per level, and whether a config may lower it
   hwctl explain --install        per Claude Code release on this machine: the plugin's hooks it runs, and how
   hwctl explain                  the config layers, and which workflows run here and why

The exit status is 0 whatever the decision (the decision is in the output);
3 when the config cannot be read, 2 on a usage error.`

func explainCommand(s streams) *cli.Command {
	return &cli.Command{
		Name:        "explain",
		Usage:       "show how the guard reads a command or a file-tool path, and why it decides",
		ArgsUsage:   "[-- '<command>' | --tool TOOL --path PATH]",
		Description: explainHelp,
		Flags: []cli.Flag{
			dirFlag, jsonFlag, wideFlag,
			&cli.StringFlag{Name: "tool", Value: "Bash", Usage: "the tool: Bash, Read, Grep, Glob, Write, Edit, MultiEdit, NotebookEdit, or any other (WebFetch, mcp__server__tool) with --input"},
			&cli.StringFlag{Name: "path", Usage: "the file or folder `PATH` a file tool gets"},
			&cli.StringFlag{Name: "glob", Usage: "Grep's glob, or Glob's pattern"},
			&cli.StringFlag{Name: "input", Usage: "the tool's input as a JSON `OBJECT`, for any tool (guard.tools: WebFetch, WebSearch, Task, MCP tools)"},
			&cli.StringFlag{Name: "cwd", Usage: "the folder the call runs in (default: the project)"},
			&cli.StringFlag{Name: "level", Usage: "raise the guard level for this explanation: standard, strict or paranoid"},
			&cli.BoolFlag{Name: "rules", Usage: "list every rule instead"},
			&cli.BoolFlag{Name: "install", Usage: "say instead, per Claude Code release on this machine, which of the plugin's hooks it runs and how"},
			&cli.StringFlag{Name: "plugin-dir", Usage: "with --install: the plugin `DIR` (default: the installed hookwright plugin)"},
			&cli.StringSliceFlag{Name: "release", Usage: "with --install: also release `V` (repeatable)"},
		},
		Action: func(c *cli.Context) error {
			if c.Bool("rules") {
				return printRules(s, c.Bool("json"), s.width(c))
			}
			if c.Bool("install") {
				return explainInstall(s, c.String("plugin-dir"), c.StringSlice("release"), c.Bool("json"))
			}
			dir := s.projectDir(c)
			if abs, err := filepath.Abs(dir); err == nil {
				dir = abs
			}
			layers, err := config.LoadLayers(dir, s.Getenv)
			if err != nil {
				return fmt.Errorf("%w (the hook would use the defaults too)", err)
			}
			cfg := layers.Config
			flows := workflow.All(dir, layers, s.Getenv)
			if c.NArg() == 0 && !c.IsSet("tool") && !c.IsSet("path") && !c.IsSet("input") && !c.IsSet("glob") {
				return printProject(s, c.Bool("json"), dir, layers, flows)
			}
			call, err := explainCall(c, dir)
			if err != nil {
				return err
			}
			g := guard.New(cfg.Guard)
			g.Config.Enabled = true
			g.ProjectDir = dir
			level := c.String("level")
			switch level {
			case "", "standard", "strict", "paranoid":
			default:
				return usageError("--level %q is not standard, strict or paranoid", level)
			}
			g.Getenv = func(k string) string {
				if k == guard.LevelEnv && level != "" {
					return level
				}
				return s.Getenv(k)
			}
			rep := g.Check(call)
			rep.ConfigFiles, rep.ConfigChanges = explainLayers(layers, rep.Level, s.Getenv(guard.LevelEnv), level)
			if c.Bool("json") {
				return s.printJSON(struct {
					guard.Report
					Workflows []workflow.Status `json:"workflows"`
				}{rep, flows})
			}
			printReport(s.Out, rep, cfg.Guard.Enabled)
			printWorkflows(s.Out, flows)
			return nil
		},
	}
}

// explainCall builds the call from the flags and arguments.
func explainCall(c *cli.Context, dir string) (guard.Call, error) {
	tool := c.String("tool")
	cwd := c.String("cwd")
	if cwd == "" {
		cwd = dir
	} else if abs, err := filepath.Abs(cwd); err == nil {
		cwd = abs
	}
	if in := c.String("input"); in != "" {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal([]byte(in), &obj); err != nil || obj == nil {
			return guard.Call{}, usageError("--input must be one JSON object, e.g. '{\"url\":\"https://example.com\"}'")
		}
		if c.NArg() > 0 || c.String("path") != "" || c.String("glob") != "" {
			return guard.Call{}, usageError("--input gives the whole tool input; leave out --path, --glob and the command")
		}
		return guard.Call{Tool: tool, Input: json.RawMessage(in), Cwd: cwd, Project: dir}, nil
	}
	var input map[string]string
	switch tool {
	case "Bash":
		if c.NArg() == 0 {
			return guard.Call{}, usageError("explain needs a command after --, e.g. hwctl explain -- 'git push -f'")
		}
		if c.String("path") != "" {
			return guard.Call{}, usageError("--path is for the file tools; give a Bash command after --")
		}
		input = map[string]string{"command": strings.Join(c.Args().Slice(), " ")}
	case "Read", "Write", "Edit", "MultiEdit":
		input = map[string]string{"file_path": c.String("path")}
	case "NotebookEdit":
		input = map[string]string{"notebook_path": c.String("path")}
	case "Grep":
		input = map[string]string{"path": c.String("path"), "glob": c.String("glob"), "pattern": "x"}
	case "Glob":
		input = map[string]string{"path": c.String("path"), "pattern": c.String("glob")}
	default:
		return guard.Call{}, usageError("--tool %q takes its input with --input '{...}' (--path and a command are for Bash and the file tools)", tool)
	}
	if tool != "Bash" && c.String("path") == "" && c.String("glob") == "" {
		return guard.Call{}, usageError("--tool %s needs --path", tool)
	}
	if tool != "Bash" && c.NArg() > 0 {
		return guard.Call{}, usageError("a command after -- is for --tool Bash")
	}
	raw, _ := json.Marshal(input)
	return guard.Call{Tool: tool, Input: raw, Cwd: cwd, Project: dir}, nil
}

// printReport writes the report as text.
func printReport(w io.Writer, r guard.Report, enabled bool) {
	fmt.Fprintf(w, "tool:      %s\n", r.Tool)
	fmt.Fprintf(w, "input:     %s\n", oneLine(r.Input))
	fmt.Fprintf(w, "level:     %s\n", r.Level)
	fmt.Fprintf(w, "project:   %s\n", dash(r.Project))
	if r.Cwd != r.Project {
		fmt.Fprintf(w, "cwd:       %s\n", dash(r.Cwd))
	}
	if !enabled {
		fmt.Fprintln(w, "note:      guard.enabled is false in this project's config; the hook lets every call through")
	}
	for _, f := range r.ConfigFiles {
		fmt.Fprintf(w, "layer:     %s\n", f)
	}
	for _, ch := range r.ConfigChanges {
		fmt.Fprintf(w, "config:    %s\n", ch)
	}
	for _, warn := range r.Warnings {
		fmt.Fprintf(w, "config:    %s\n", warn)
	}
	if r.Prefilter != "" {
		fmt.Fprintf(w, "prefilter: %s\n", r.Prefilter)
	}
	if r.ParseError != "" {
		fmt.Fprintf(w, "parse:     %s; judged on its words as well\n", r.ParseError)
	}
	if r.Fault != "" {
		fmt.Fprintf(w, "fault:     %s\n", r.Fault)
	}
	if len(r.Commands) > 0 {
		fmt.Fprintln(w, "\nsimple commands:")
		for i, c := range r.Commands {
			line := fmt.Sprintf("%3d. %s%s", i+1, strings.Repeat("  ", c.Depth), quoteWords(c.Words))
			var notes []string
			if c.Via != "" {
				notes = append(notes, "via "+c.Via)
			}
			if len(c.Wrappers) > 0 {
				notes = append(notes, "wrappers "+strings.Join(c.Wrappers, " "))
			}
			if c.Stdin {
				notes = append(notes, "reads a heredoc or here-string")
			}
			if len(notes) > 0 {
				line += "    (" + strings.Join(notes, "; ") + ")"
			}
			fmt.Fprintln(w, line)
			for _, p := range c.Paths {
				fmt.Fprintf(w, "     %s  path %s -> %s (%s%s)\n", strings.Repeat("  ", c.Depth), p.Arg, dash(p.Resolved), p.Use, classNote(p.Class))
			}
		}
	}
	if r.MoreCommands > 0 {
		fmt.Fprintf(w, "     … and %d more commands, checked but not listed\n", r.MoreCommands)
	}
	if len(r.Paths) > 0 {
		fmt.Fprintln(w, "\npaths:")
		for _, p := range r.Paths {
			fmt.Fprintf(w, "  %s -> %s (%s%s)\n", p.Arg, dash(p.Resolved), p.Use, classNote(p.Class))
		}
	}
	if len(r.Findings) > 0 {
		fmt.Fprintln(w, "\nrules that matched:")
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		for _, f := range r.Findings {
			at := ""
			if f.Command >= 0 {
				at = fmt.Sprintf(" [command %d]", f.Command+1)
			}
			rule := f.Rule
			if f.Model != "" {
				rule += " (model of harm: " + f.Model + ")"
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s%s\n", f.Severity, rule, f.Reason, at)
		}
		tw.Flush()
	}
	fmt.Fprintf(w, "\ndecision:  %s", r.Decision)
	if pack, rule, ok := strings.Cut(r.Rule, "."); ok && pack == "model" {
		fmt.Fprintf(w, " (the model of harm, part %q: %s; rule %s, which guard.packs sets like any pack rule)", rule, r.Model, r.Rule)
	} else if ok {
		fmt.Fprintf(w, " (pack %s, rule %s; hwctl guard packs lists it)", pack, rule)
	} else if r.Rule != "" {
		fmt.Fprintf(w, " (rule %s)", r.Rule)
	}
	fmt.Fprintln(w)
	if r.Reason != "" {
		fmt.Fprintf(w, "the model reads: %s\n", r.Reason)
	}
}

func classNote(c string) string {
	if c == "" {
		return ""
	}
	return ": " + c
}

func oneLine(s string) string {
	if len(s) > 400 {
		s = s[:400] + fmt.Sprintf("… (%d bytes)", len(s))
	}
	return strings.ReplaceAll(s, "\n", `\n`)
}

// quoteWords joins words, quoting those a shell would split.
func quoteWords(ws []string) string {
	out := make([]string, len(ws))
	for i, w := range ws {
		if w == "" || strings.ContainsAny(w, " \t\n'\"\\$`;&|<>(){}*?[]#~") {
			w = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
		}
		out[i] = oneLine(w)
	}
	return strings.Join(out, " ")
}

// printRules lists the rule catalogue.
func printRules(s streams, asJSON bool, width int) error {
	type row struct {
		Name       string `json:"name"`
		Standard   string `json:"standard"`
		Strict     string `json:"strict"`
		Paranoid   string `json:"paranoid"`
		Adjustable bool   `json:"adjustable"`
		Doc        string `json:"doc"`
	}
	var rows []row
	for _, r := range guard.Rules {
		rows = append(rows, row{r.Name, r.Standard.String(), r.Strict.String(), r.Paranoid.String(), r.Adjustable, r.Doc})
	}
	if asJSON {
		return s.printJSON(rows)
	}
	t := table.New(table.Column{Name: "RULE"}, table.Column{Name: "STANDARD"}, table.Column{Name: "STRICT"}, table.Column{Name: "PARANOID"},
		table.Column{Name: "CONFIG", Drop: 1}, table.Column{Name: "WHAT", Flex: true, Min: 16})
	for _, r := range rows {
		adj := "raise only"
		if r.Adjustable {
			adj = "any"
		}
		t.Row(r.Name, r.Standard, r.Strict, r.Paranoid, adj, r.Doc)
	}
	_, err := t.Render(s.Out, width)
	return err
}

// explainLayers lists the config layers read and what each changed in the
// guard: the built-in defaults, the user config, the project config (with
// what was ignored), and the environment's level, which may only raise.
func explainLayers(l config.Layers, level, envLevel, flagLevel string) ([]string, []config.Change) {
	files := []string{string(config.SourceDefault)}
	if l.UserFile != "" {
		files = append(files, fmt.Sprintf("%s %s", config.SourceUser, l.UserFile))
	}
	if l.ProjectFile != "" {
		p := fmt.Sprintf("%s %s", config.SourceProject, l.ProjectFile)
		if l.Trusted {
			p += fmt.Sprintf(" (trusted by the user config's %q: it may loosen the guard)", l.TrustedBy)
		} else {
			p += " (not trusted: it may only tighten the guard)"
		}
		files = append(files, p)
	}
	changes := append([]config.Change(nil), l.Changes...)
	from := string(l.Config.Guard.Level)
	src := config.SourceEnv
	if flagLevel != "" {
		src = "--level"
	}
	switch {
	case level != from:
		changes = append(changes, config.Change{Field: "guard.level", Source: src, From: `"` + from + `"`, To: `"` + level + `"`, Effect: config.Tightens})
	case envLevel != "" && flagLevel == "" && envLevel != from:
		changes = append(changes, config.Change{Field: "guard.level", Source: config.SourceEnv, From: `"` + from + `"`, To: `"` + envLevel + `"`, Effect: config.Loosens, Ignored: true})
	}
	return files, changes
}

// printWorkflows writes which team workflows run in the project and why
// (package workflow), one line each.
func printWorkflows(w io.Writer, flows []workflow.Status) {
	fmt.Fprintln(w)
	for _, st := range flows {
		state := "off"
		if st.On {
			state = "on"
			if st.Mode != "" {
				state += " (" + st.Mode + ")"
			}
		}
		fmt.Fprintf(w, "workflow:  %-10s %s: %s\n", st.Name, state, st.Why)
	}
}

// printProject is explain with no call: the config layers read, what they
// changed, and the workflows.
func printProject(s streams, asJSON bool, dir string, l config.Layers, flows []workflow.Status) error {
	files, changes := explainLayers(l, string(l.Config.Guard.Level), s.Getenv(guard.LevelEnv), "")
	if asJSON {
		return s.printJSON(struct {
			Project       string            `json:"project"`
			ConfigFiles   []string          `json:"config_files"`
			ConfigChanges []config.Change   `json:"config_changes"`
			Workflows     []workflow.Status `json:"workflows"`
		}{dir, files, changes, flows})
	}
	fmt.Fprintf(s.Out, "project:   %s\n", dir)
	for _, f := range files {
		fmt.Fprintf(s.Out, "layer:     %s\n", f)
	}
	for _, ch := range changes {
		fmt.Fprintf(s.Out, "config:    %s\n", ch)
	}
	printWorkflows(s.Out, flows)
	fmt.Fprintln(s.Out, "\nAlways on: the guard, the journal, session records, the fallbacks. hwctl explain -- '<command>' shows how the guard reads one.")
	return nil
}
