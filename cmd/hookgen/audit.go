package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/hooks"
	hwcli "github.com/hookwright/hookwright/internal/cli"
	"github.com/hookwright/hookwright/internal/marketplace"
	"github.com/hookwright/hookwright/internal/oracle"
)

// auditOptions are `hookgen audit`'s flags and argument.
type auditOptions struct {
	env
	ccVersions []string
	target     string
	json, md   bool
	failOn     string
}

func auditCommand(e env) *cli.Command {
	o := &auditOptions{env: e}
	return &cli.Command{
		Name:      "audit",
		Usage:     "say what Claude Code releases do with every plugin of a marketplace",
		UsageText: "hookgen audit [--cc-version VERSION ...] [--json | --markdown] [--strict | --fail-on LEVEL] MARKETPLACE",
		Description: `MARKETPLACE is a folder holding .claude-plugin/marketplace.json, or a git
URL of one (cloned shallow into a temporary folder, then removed). Each
plugin whose source is a folder of the marketplace has its hooks/hooks.json
and .claude-plugin/plugin.json checked, as hookgen validate does, on each
--cc-version (default: every band edge and every release where a rule
changes). It prints one row
per plugin and one column per release:

   loads                 nothing is refused or dropped
   loads, 2 dropped      the plugin loads; 2 entries never run
   refused: WHY          the release refuses the hooks.json or the plugin

then a summary line. --markdown prints the same as a Markdown table (for a CI
step summary), --json as one object. Audit only reads: it never runs a
plugin's commands, reads only regular files inside the marketplace, and
refuses a source that leaves it ("../..", an absolute path, a link out).
Plugins with a remote source are listed as skipped.

` + failOnHelp + `

Examples:
   hookgen audit .
   hookgen audit --cc-version 2.0.30 --cc-version 2.1.330 --markdown . >> "$GITHUB_STEP_SUMMARY"
   npx hookgen audit https://github.com/OWNER/MARKETPLACE.git

` + hwcli.ExitCodesHelp,
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "cc-version", Usage: "a Claude Code release to check for; repeat it (default: every band edge and rule edge)"},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object", Destination: &o.json},
			&cli.BoolFlag{Name: "markdown", Usage: "print a Markdown table", Destination: &o.md},
			&cli.BoolFlag{Name: "strict", Usage: "exit 1 on dropped entries too (--fail-on dropped)"},
			&cli.StringFlag{Name: "fail-on", Usage: "the least grave `LEVEL` that exits 1: rejected, dropped, ignored or lint", Value: string(compat.Rejected), Destination: &o.failOn},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageErr("audit takes exactly one MARKETPLACE")
			}
			if o.json && o.md {
				return usageErr("--json and --markdown exclude each other")
			}
			o.target = c.Args().First()
			o.ccVersions = c.StringSlice("cc-version")
			if c.Bool("strict") {
				o.failOn = string(compat.Dropped)
			}
			return runAudit(c.Context, o)
		},
	}
}

// cell is one plugin on one release.
type cell struct {
	Release  string           `json:"release"`
	Verdict  string           `json:"verdict"` // "loads", "loads with drops", "refused", "skipped"
	Dropped  int              `json:"dropped"`
	Reason   string           `json:"reason,omitempty"`
	Findings []oracle.Finding `json:"-"`
}

// row is one plugin on every release.
type row struct {
	Name     string        `json:"name"`
	Source   string        `json:"source"`
	Skip     string        `json:"skipped,omitempty"`
	Cells    []cell        `json:"releases"`
	Findings []jsonFinding `json:"findings"`
}

// runAudit checks every plugin of a marketplace on every release.
func runAudit(ctx context.Context, o *auditOptions) error {
	level, err := failLevel(o.failOn)
	if err != nil {
		return err
	}
	vs, err := releases(o.ccVersions)
	if err != nil {
		return err
	}
	root := o.target
	if isGitURL(root) {
		dir, cleanup, err := cloneShallow(ctx, root)
		if err != nil {
			return err
		}
		defer cleanup()
		root = dir
	}
	m, err := marketplace.Read(root)
	if err != nil {
		return err
	}
	var rows []row
	var all []oracle.Finding
	for _, p := range m.Plugins {
		r, fs := auditPlugin(p, vs)
		rows = append(rows, r)
		all = append(all, fs...)
	}
	switch {
	case o.json:
		err = writeAuditJSON(o.Out, m.Name, vs, rows)
	case o.md:
		writeAuditMarkdown(o.Out, vs, rows)
	default:
		writeAuditTable(o.Out, vs, rows)
	}
	if err != nil {
		return err
	}
	if fails(all, level) {
		return errViolations
	}
	return nil
}

// auditPlugin checks one plugin on every release.
func auditPlugin(p marketplace.Plugin, vs []hooks.Release) (row, []oracle.Finding) {
	r := row{Name: p.Name, Source: p.Source, Skip: p.Skip}
	if p.Err != nil && r.Skip == "" {
		r.Skip = "unreadable: " + p.Err.Error()
	}
	var per [][]oracle.Finding
	for _, v := range vs {
		c := cell{Release: v.String()}
		if r.Skip != "" {
			c.Verdict = "skipped"
			r.Cells = append(r.Cells, c)
			continue
		}
		var fs []oracle.Finding
		if p.Hooks != nil {
			h, _ := oracle.CheckHooks(v, p.Hooks) // releases() keeps v above the floor
			fs = append(fs, h...)
		}
		if p.Manifest != nil {
			m, _ := oracle.CheckPlugin(v, p.Manifest)
			fs = append(fs, m...)
		}
		for _, name := range sortedNames(p.Extra) {
			x, _ := oracle.CheckExtraHooks(v, name, p.Extra[name])
			fs = append(fs, x...)
		}
		oracle.Sort(fs)
		c.Findings = fs
		c.Dropped = oracle.Count(fs, compat.Dropped)
		switch {
		case oracle.Count(fs, compat.Rejected) > 0:
			c.Verdict = "refused"
			f := fs[0]
			c.Reason = string(f.File) + " " + f.Pointer + ": " + firstClause(f.What)
		case c.Dropped > 0:
			c.Verdict = "loads with drops"
		default:
			c.Verdict = "loads"
		}
		r.Cells = append(r.Cells, c)
		per = append(per, fs)
	}
	merged := oracle.Merge(per...)
	r.Findings = toJSON(merged)
	return r, merged
}

// sortedNames returns a map's keys in order.
func sortedNames(m map[string][]byte) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// firstClause is a finding's text up to ", so": the cause alone.
func firstClause(s string) string {
	if i := strings.Index(s, ", so "); i > 0 {
		s = s[:i]
	}
	if len(s) > 100 {
		cut := strings.LastIndexByte(s[:97], ' ')
		if cut < 60 {
			cut = 97
		}
		s = s[:cut] + "..."
	}
	return s
}

// short renders a cell for the table.
func (c cell) short() string {
	switch c.Verdict {
	case "loads with drops":
		return fmt.Sprintf("loads, %d dropped", c.Dropped)
	case "refused":
		return "refused"
	}
	return c.Verdict
}

// writeAuditTable prints plugins × releases, the refusals' reasons and a
// summary.
func writeAuditTable(w io.Writer, vs []hooks.Release, rows []row) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := []string{"PLUGIN"}
	for _, v := range vs {
		head = append(head, v.String())
	}
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for _, r := range rows {
		line := []string{r.Name}
		for _, c := range r.Cells {
			line = append(line, c.short())
		}
		fmt.Fprintln(tw, strings.Join(line, "\t"))
	}
	tw.Flush()
	for _, l := range reasons(rows) {
		fmt.Fprintln(w, l)
	}
	fmt.Fprintln(w, summary(vs, rows))
}

// reasons lists, per plugin, each refusal or skip once with the releases
// it holds on.
func reasons(rows []row) []string {
	var out []string
	for _, r := range rows {
		if r.Skip != "" {
			out = append(out, fmt.Sprintf("%s: skipped: %s", r.Name, r.Skip))
			continue
		}
		for _, f := range r.Findings {
			if f.Consequence != string(compat.Rejected) && f.Consequence != string(compat.Dropped) {
				continue
			}
			rel := f.From + " and later"
			if f.To != "" {
				rel = f.From + " to " + f.To
				if f.From == f.To {
					rel = f.From
				}
			}
			out = append(out, fmt.Sprintf("%s: %s on %s: %s %s: %s", r.Name, f.Consequence, rel, f.File, f.Pointer, firstClause(f.Message)))
		}
	}
	return out
}

// summary counts the cells by verdict.
func summary(vs []hooks.Release, rows []row) string {
	n := map[string]int{}
	for _, r := range rows {
		for _, c := range r.Cells {
			n[c.Verdict]++
		}
	}
	s := fmt.Sprintf("%d plugins x %d releases: %d load, %d load with drops, %d refused", len(rows), len(vs), n["loads"], n["loads with drops"], n["refused"])
	if n["skipped"] > 0 {
		s += fmt.Sprintf(", %d skipped", n["skipped"])
	}
	return s
}

// writeAuditMarkdown prints the table as GitHub-flavoured Markdown.
func writeAuditMarkdown(w io.Writer, vs []hooks.Release, rows []row) {
	fmt.Fprintln(w, "### hookgen audit")
	fmt.Fprintln(w)
	head, sep := "| plugin |", "|---|"
	for _, v := range vs {
		head += " " + v.String() + " |"
		sep += "---|"
	}
	fmt.Fprintln(w, head)
	fmt.Fprintln(w, sep)
	for _, r := range rows {
		line := "| " + mdEscape(r.Name) + " |"
		for _, c := range r.Cells {
			s := c.short()
			if c.Verdict == "refused" {
				s = "**refused**"
			}
			line += " " + s + " |"
		}
		fmt.Fprintln(w, line)
	}
	if rs := reasons(rows); len(rs) > 0 {
		fmt.Fprintln(w)
		for _, l := range rs {
			fmt.Fprintln(w, "- "+mdEscape(l))
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, summary(vs, rows))
}

// mdEscape keeps a value from breaking a Markdown table or list.
func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "\r", " ", "<", "&lt;", ">", "&gt;", "`", "'").Replace(s)
}

// writeAuditJSON prints the audit as one JSON object.
func writeAuditJSON(w io.Writer, name string, vs []hooks.Release, rows []row) error {
	rel := make([]string, 0, len(vs))
	for _, v := range vs {
		rel = append(rel, v.String())
	}
	n := map[string]int{}
	for _, r := range rows {
		for _, c := range r.Cells {
			n[c.Verdict]++
		}
	}
	if rows == nil {
		rows = []row{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Marketplace string         `json:"marketplace"`
		Releases    []string       `json:"releases"`
		Plugins     []row          `json:"plugins"`
		Summary     map[string]int `json:"summary"`
	}{name, rel, rows, n})
}

// isGitURL reports whether s names a remote git repository rather than a
// folder.
func isGitURL(s string) bool {
	if _, err := os.Stat(s); err == nil {
		return false
	}
	for _, p := range []string{"https://", "ssh://", "git@", "git://", "file://"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// cloneShallow clones url at depth 1 into a temporary folder, without
// submodules, hooks, prompts or LFS smudging, and returns it and its
// removal.
func cloneShallow(ctx context.Context, url string) (string, func(), error) {
	dir, err := os.MkdirTemp("", "hookgen-audit-")
	if err != nil {
		return "", nil, err
	}
	cleanup := func() { os.RemoveAll(dir) }
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "-c", "core.hooksPath=/dev/null",
		"clone", "--quiet", "--depth", "1", "--no-recurse-submodules", "--", url, dir)
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_LFS_SKIP_SMUDGE=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("git clone %s: %w: %s", url, err, strings.TrimSpace(string(out)))
	}
	return dir, cleanup, nil
}
