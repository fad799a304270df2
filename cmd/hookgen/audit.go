package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/hookwright/hookwright/hooks"
	"github.com/urfave/cli/v2"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hookwright/hookwright/compat"
	hwcli "github.com/hookwright/hookwright/internal/cli"
	"github.com/hookwright/hookwright/internal/marketplace"
	"github.com/hookwright/hookwright/internal/oracle"
)

// auditOptions are `hookgen audit`'s flags and argument.
type auditOptions struct {
	env
	releaseFlags
	target   string
	json, md bool
	wide     bool
	width    int
	failOn   string
}

// The words of an audit cell: what one release does with one plugin.
const (
	cellLoads     = "loads"
	cellSkipped   = "skipped"
	cellNotJudged = "-"
)

// auditCells documents the cells, for --help and the output's legend.
const auditCells = `   loads                the plugin loads; every hook runs as written
   N dropped            the plugin loads; N entries (or files) never run
   hooks file refused   one hooks file is refused: none of its hooks runs;
                        the plugin's other hooks still load
   no hook runs         the plugin loads, but every hook of it is dropped
   plugin refused       nothing of the plugin loads
   marketplace refused  the release refuses the whole marketplace.json
   skipped              not read (a remote source, or one that leaves the
                        marketplace folder)
   -                    outside the releases the plugin declares`

func auditCommand(e env) *cli.Command {
	o := &auditOptions{env: e}
	return &cli.Command{
		Name:      "audit",
		Usage:     "say what Claude Code releases do with every plugin of a marketplace",
		UsageText: "hookgen audit [--cc-version RELEASE ... | --since RELEASE | --releases RANGE] [--json | --markdown] [--wide] [--strict | --fail-on LEVEL] MARKETPLACE",
		Description: `MARKETPLACE is a folder holding .claude-plugin/marketplace.json, or a git
URL of one (cloned shallow into a temporary folder, then removed). Each
plugin whose source is a folder of the marketplace is judged as hookgen
validate judges a plugin folder, with its marketplace entry (hooks an entry
declares, strict: false), on the releases it declares (see RELEASES). It
prints a table that fits the terminal: one row per plugin, one column per
span of releases where no plugin's verdict changes. Each cell is one of:

` + auditCells + `

When the spans do not fit (--width, else the terminal's, else $COLUMNS,
else 120 columns), each plugin gets one line of spans instead:

   PLUGIN     VERDICTS
   http-var   2.0.12–2.1.99: hooks file refused · 2.1.100 and later: loads

--wide prints one column per release judged, whatever the width. Then one
line per refusal and drop (and per lint and ignored key with --fail-on lint
or ignored), with the releases it holds on, and a summary that names the
range judged. --markdown prints the same as Markdown (for a CI step summary),
--json one object. Audit only reads: it never runs a plugin's commands,
reads only regular files inside the marketplace, and refuses a source that
leaves it ("../..", an absolute path, a link out). A plugin folder is not a
marketplace: hookgen validate judges one.

` + failOnHelp + `

` + releasesHelp + `

Examples:
   hookgen audit .
   hookgen audit --since 2.1.100 --markdown . >> "$GITHUB_STEP_SUMMARY"
   hookgen audit --fail-on lint https://github.com/OWNER/MARKETPLACE.git

` + hwcli.ExitCodesHelp,
		Flags: append(o.releaseFlags.flags(),
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object", Destination: &o.json},
			&cli.BoolFlag{Name: "markdown", Usage: "print Markdown", Destination: &o.md},
			&cli.BoolFlag{Name: "wide", Usage: "one column per release judged, whatever the width", Destination: &o.wide},
			&cli.IntFlag{Name: "width", Usage: "fit the table in `COLUMNS` (default: the terminal's, else $COLUMNS, else 120)", Destination: &o.width},
			&cli.BoolFlag{Name: "strict", Usage: "exit 1 on dropped entries too (--fail-on dropped)"},
			&cli.StringFlag{Name: "fail-on", Usage: "the least grave `LEVEL` that exits 1: rejected, dropped, ignored or lint", Value: string(compat.Rejected), Destination: &o.failOn},
		),
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageErr("audit takes exactly one MARKETPLACE%s", flagsFirst(c.Args().Slice()))
			}
			if o.json && o.md {
				return usageErr("--json and --markdown exclude each other")
			}
			if err := o.releaseFlags.read(c); err != nil {
				return err
			}
			o.target = c.Args().First()
			if c.Bool("strict") {
				o.failOn = string(compat.Dropped)
			}
			return runAudit(c.Context, o)
		},
	}
}

// cell is one plugin on one release.
type cell struct {
	Release string `json:"release"`
	// Verdict is the cell's words (see auditCells).
	Verdict string `json:"verdict"`
	Dropped int    `json:"dropped"`
	// Reason is the gravest finding's cause, for a refusal.
	Reason string `json:"reason,omitempty"`
}

// row is one plugin on every release.
type row struct {
	Name     string        `json:"name"`
	Source   string        `json:"source"`
	Skip     string        `json:"skipped,omitempty"`
	Judged   string        `json:"judged"`
	Cells    []cell        `json:"releases"`
	Findings []jsonFinding `json:"findings"`
	merged   []oracle.Finding
}

// audit is one audit's result.
type audit struct {
	name    string
	columns judged
	rows    []row
	// ranges says how the plugins' ranges were chosen.
	ranges string
}

// runAudit judges every plugin of a marketplace on its releases.
func runAudit(ctx context.Context, o *auditOptions) error {
	level, err := failLevel(o.failOn)
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
	if err := isMarketplace(root); err != nil {
		return err
	}
	m, err := marketplace.Read(root)
	if err != nil {
		return hwcli.Exit(exitFailure, err)
	}
	a, err := judgeMarketplace(m, &o.releaseFlags)
	if err != nil {
		return err
	}
	w := o.env.width(o.width)
	switch {
	case o.json:
		err = writeAuditJSON(o.Out, a)
	case o.md:
		writeAuditMarkdown(o.Out, a, level)
	default:
		writeAuditText(o.Out, a, w, o.wide, level)
	}
	if err != nil {
		return err
	}
	for _, r := range a.rows {
		if fails(r.merged, level) {
			return errViolations
		}
	}
	return nil
}

// isMarketplace checks root is a marketplace folder, and points a plugin
// folder or a missing path to the right command.
func isMarketplace(root string) error {
	if _, err := os.Stat(filepath.Join(root, ".claude-plugin", "marketplace.json")); err == nil {
		return nil
	}
	fi, err := os.Stat(root)
	switch {
	case err != nil:
		return hwcli.Exit(exitFailure, fmt.Errorf("%s: no such folder (audit takes a marketplace folder or a git URL)", root))
	case !fi.IsDir():
		return usageErr("%s is a file: audit takes a marketplace folder; hookgen validate %s judges one hooks.json or plugin.json", root, root)
	}
	for _, f := range []string{filepath.Join(".claude-plugin", "plugin.json"), filepath.Join("hooks", "hooks.json")} {
		if _, err := os.Stat(filepath.Join(root, f)); err == nil {
			return usageErr("%s is a plugin folder, not a marketplace (it has %s and no .claude-plugin/marketplace.json): run hookgen validate %s", root, filepath.ToSlash(f), root)
		}
	}
	return hwcli.Exit(exitFailure, fmt.Errorf("%s has no .claude-plugin/marketplace.json: not a marketplace", root))
}

// judgeMarketplace judges every plugin on the releases it is judged on.
func judgeMarketplace(m *marketplace.Marketplace, f *releaseFlags) (audit, error) {
	a := audit{name: m.Name}
	per := make([]judged, len(m.Plugins))
	all := map[string]hooks.Release{}
	open := true
	ranges := map[string]bool{}
	for i, p := range m.Plugins {
		j, err := f.choose(p.Files.Manifest)
		if err != nil {
			j, err = (&releaseFlags{}).choose(nil) // an empty declared range: judge everything
			if err != nil {
				return a, err
			}
			j.Note = "its declared range holds no release that loads plugins"
		}
		per[i] = j
		ranges[j.Label] = true
		open = open && (j.Open || j.Exact)
		for _, v := range j.Releases {
			all[v.String()] = v
		}
	}
	var cols []hooks.Release
	if len(f.exact) > 0 {
		cols, _ = f.exactReleases()
	} else {
		for _, v := range all {
			cols = append(cols, v)
		}
		sortVersions(cols)
	}
	a.columns = judged{Releases: cols, Exact: len(f.exact) > 0, Open: open}
	switch {
	case len(ranges) == 1:
		for l := range ranges {
			a.ranges = l
		}
	case len(ranges) == 0:
		a.ranges = "no plugin"
	default:
		a.ranges = "the releases each plugin declares (plugin.json engines), else " + compat.PluginFloor + " and later"
	}
	plugins := make([]oracle.Plugin, len(m.Plugins))
	for i, p := range m.Plugins {
		plugins[i] = p.Files
		plugins[i].Name = p.Name
	}
	verdicts := make([][]oracle.Verdict, len(cols))
	for c, v := range cols {
		vds, err := oracle.JudgeMarketplace(v, plugins)
		if err != nil {
			return a, err
		}
		verdicts[c] = vds
	}
	for i, p := range m.Plugins {
		r := row{Name: p.Name, Source: p.Source, Skip: p.Skip, Judged: per[i].Label}
		if p.Err != nil && r.Skip == "" {
			r.Skip = "unreadable: " + p.Err.Error()
		}
		var fs [][]oracle.Finding
		var judgedOn []hooks.Release
		for c, v := range cols {
			cl := cell{Release: v.String()}
			switch {
			case r.Skip != "":
				cl.Verdict = cellSkipped
			case !inRange(per[i], v):
				cl.Verdict = cellNotJudged
			default:
				vd := verdicts[c][i]
				cl.Verdict, cl.Dropped = vd.Outcome(), vd.Dropped()
				if vd.Refused() != "" {
					cl.Reason = reasonOf(vd.Findings)
				}
				fs = append(fs, vd.Findings)
				judgedOn = append(judgedOn, v)
			}
			r.Cells = append(r.Cells, cl)
		}
		r.merged = oracle.Merge(fs...)
		if !a.columns.Exact {
			r.merged = oracle.MergeOver(judgedOn, fs)
		}
		r.Findings = toJSON(r.merged)
		a.rows = append(a.rows, r)
	}
	return a, nil
}

// inRange reports whether v is among the releases j stands for.
func inRange(j judged, v hooks.Release) bool {
	if j.Exact {
		for _, x := range j.Releases {
			if x == v {
				return true
			}
		}
		return false
	}
	return j.Range.Contains(v)
}

// sortVersions sorts oldest first.
func sortVersions(vs []hooks.Release) {
	for i := 1; i < len(vs); i++ {
		for k := i; k > 0 && vs[k].Less(vs[k-1]); k-- {
			vs[k], vs[k-1] = vs[k-1], vs[k]
		}
	}
}

// reasonOf is the gravest finding's file, pointer and cause.
func reasonOf(fs []oracle.Finding) string {
	if len(fs) == 0 {
		return ""
	}
	f := fs[0]
	return strings.TrimSpace(string(f.File)+" "+f.Pointer) + ": " + firstClause(f.What)
}

// firstClause is a finding's text up to ", so": the cause alone.
func firstClause(s string) string {
	if i := strings.Index(s, ", so "); i > 0 {
		s = s[:i]
	}
	return clipWidth(s, 100)
}

// clipWidth cuts s to n characters, ending in "…".
func clipWidth(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// grouped folds the columns into spans where no plugin's cell changes.
func (a audit) grouped() []span {
	return spans(a.columns, func(c int) string {
		var key []string
		for _, r := range a.rows {
			key = append(key, r.Cells[c].Verdict)
		}
		return strings.Join(key, "\x00")
	})
}

// pad pads s with spaces to n characters.
func pad(s string, n int) string {
	if k := utf8.RuneCountInString(s); k < n {
		return s + strings.Repeat(" ", n-k)
	}
	return s
}

// writeAuditText prints the table (or, where it does not fit, one line of
// spans per plugin), the refusals and drops, and the summary, every line
// within width.
func writeAuditText(w io.Writer, a audit, width int, wide bool, level compat.Consequence) {
	for _, l := range wrap(fmt.Sprintf("hookgen audit %q: %d plugins, judged on %s", a.name, len(a.rows), a.ranges), width) {
		fmt.Fprintln(w, l)
	}
	fmt.Fprintln(w)
	nameW := len("PLUGIN")
	for _, r := range a.rows {
		nameW = max(nameW, utf8.RuneCountInString(r.Name))
	}
	nameW = min(nameW, 28)
	groups := a.grouped()
	if wide {
		groups = spans(judged{Releases: a.columns.Releases, Exact: true}, func(int) string { return "" })
	}
	colW := make([]int, len(groups))
	total := nameW
	for g, s := range groups {
		colW[g] = utf8.RuneCountInString(a.columns.label(s))
		if wide {
			colW[g] = len(a.columns.Releases[s.From].String())
		}
		for _, r := range a.rows {
			colW[g] = max(colW[g], utf8.RuneCountInString(cellText(r.Cells[s.From])))
		}
		total += 2 + colW[g]
	}
	if total <= width || wide {
		line := pad("PLUGIN", nameW)
		for g, s := range groups {
			label := a.columns.label(s)
			if wide {
				label = a.columns.Releases[s.From].String()
			}
			line += "  " + pad(label, colW[g])
		}
		fmt.Fprintln(w, strings.TrimRight(line, " "))
		for _, r := range a.rows {
			line := pad(clipWidth(r.Name, nameW), nameW)
			for g, s := range groups {
				line += "  " + pad(cellText(r.Cells[s.From]), colW[g])
			}
			fmt.Fprintln(w, strings.TrimRight(line, " "))
		}
	} else {
		fmt.Fprintln(w, pad("PLUGIN", nameW)+"  VERDICTS")
		for _, r := range a.rows {
			text := a.columns.spanLine(spans(a.columns, func(c int) string { return cellText(r.Cells[c]) }))
			for i, part := range wrap(text, width-nameW-2) {
				name := ""
				if i == 0 {
					name = clipWidth(r.Name, nameW)
				}
				fmt.Fprintln(w, pad(name, nameW)+"  "+part)
			}
		}
	}
	if lines := details(a, level); len(lines) > 0 {
		fmt.Fprintln(w)
		for _, l := range lines {
			fmt.Fprintln(w, clipWidth(l, width))
		}
	}
	fmt.Fprintln(w)
	for _, l := range wrap(summary(a, level), width) {
		fmt.Fprintln(w, l)
	}
}

// cellText is a cell as the table prints it.
func cellText(c cell) string { return c.Verdict }

// wrap breaks s into lines of at most n characters at " · " or spaces.
func wrap(s string, n int) []string {
	if n < 20 {
		n = 20
	}
	var out []string
	for utf8.RuneCountInString(s) > n {
		r := []rune(s)
		cut := n
		for cut > n/2 && r[cut] != ' ' {
			cut--
		}
		if cut <= n/2 {
			cut = n
		}
		out = append(out, strings.TrimRight(string(r[:cut]), " ·"))
		s = strings.TrimLeft(string(r[cut:]), " ·")
	}
	return append(out, s)
}

// details lists, per plugin, each refusal and drop (and, at --fail-on lint
// or ignored, each lint and ignored key) once with the releases it holds
// on, and each skip.
func details(a audit, level compat.Consequence) []string {
	var out []string
	for _, r := range a.rows {
		if r.Skip != "" {
			out = append(out, fmt.Sprintf("%s: skipped: %s", r.Name, r.Skip))
			continue
		}
		for _, f := range r.merged {
			if f.Consequence.Rank() > compat.Dropped.Rank() && f.Consequence.Rank() > level.Rank() {
				continue
			}
			what := string(f.Consequence)
			if f.Refuses != "" {
				what = refusalWords(f.Refuses)
			}
			where := strings.TrimSpace(string(f.File) + " " + f.Pointer)
			out = append(out, fmt.Sprintf("%s: %s %s: %s: %s", r.Name, what, f.OnReleases(), where, firstClause(f.What)))
		}
	}
	return out
}

// refusalWords names a refusal as a cell does.
func refusalWords(r compat.Refusal) string {
	switch r {
	case compat.RefusesAllHooks:
		return "no hook runs"
	case compat.RefusesFile:
		return "hooks file refused"
	}
	return string(r) + " refused"
}

// summary says the range judged and counts the plugins by their gravest
// verdict.
func summary(a audit, level compat.Consequence) string {
	counts := map[string]int{}
	lints := 0
	for _, r := range a.rows {
		worst := cellLoads
		rank := 99
		for _, c := range r.Cells {
			if k := cellRank(c.Verdict); k < rank {
				worst, rank = c.Verdict, k
			}
		}
		if strings.HasSuffix(worst, " dropped") {
			worst = "with drops"
		}
		counts[worst]++
		lints += oracle.Count(r.merged, compat.Lint) + oracle.Count(r.merged, compat.Ignored)
	}
	var parts []string
	words := map[string][2]string{
		cellLoads:             {"loads everywhere", "load everywhere"},
		"with drops":          {"loads with entries dropped", "load with entries dropped"},
		"hooks file refused":  {"has a hooks file refused on some release", "have a hooks file refused on some release"},
		"no hook runs":        {"runs no hook on some release", "run no hook on some release"},
		"plugin refused":      {"is refused on some release", "are refused on some release"},
		"marketplace refused": {"cannot be installed on some release (marketplace refused)", "cannot be installed on some release (marketplace refused)"},
		cellSkipped:           {"was skipped", "were skipped"},
	}
	for _, k := range []string{cellLoads, "with drops", "hooks file refused", "no hook runs", "plugin refused", "marketplace refused", cellSkipped} {
		if n := counts[k]; n > 0 {
			w := words[k][1]
			if n == 1 {
				w = words[k][0]
			}
			parts = append(parts, fmt.Sprintf("%d %s", n, w))
		}
	}
	s := fmt.Sprintf("%d plugins judged on %s (%d releases, one per span of releases with the same rules): %s.", len(a.rows), a.ranges, len(a.columns.Releases), strings.Join(parts, ", "))
	if lints > 0 && level.Rank() < compat.Ignored.Rank() {
		s += fmt.Sprintf(" %d lints and ignored keys not shown (--fail-on lint shows them).", lints)
	}
	return s
}

// cellRank orders cell words, gravest first.
func cellRank(v string) int {
	for i, k := range []string{"marketplace refused", "plugin refused", "no hook runs", "hooks file refused"} {
		if v == k {
			return i
		}
	}
	switch {
	case strings.HasSuffix(v, " dropped"):
		return 10
	case v == cellLoads:
		return 20
	case v == cellSkipped:
		return 30
	}
	return 40
}

// writeAuditMarkdown prints the grouped table, the details and the summary
// as GitHub-flavoured Markdown.
func writeAuditMarkdown(w io.Writer, a audit, level compat.Consequence) {
	fmt.Fprintf(w, "### hookgen audit: %s\n\n", mdEscape(a.name))
	groups := a.grouped()
	head, sep := "| plugin |", "|---|"
	for _, s := range groups {
		head += " " + mdEscape(a.columns.label(s)) + " |"
		sep += "---|"
	}
	fmt.Fprintln(w, head)
	fmt.Fprintln(w, sep)
	for _, r := range a.rows {
		line := "| " + mdEscape(r.Name) + " |"
		for _, s := range groups {
			t := cellText(r.Cells[s.From])
			if strings.Contains(t, "refused") || t == "no hook runs" {
				t = "**" + t + "**"
			}
			line += " " + t + " |"
		}
		fmt.Fprintln(w, line)
	}
	if ds := details(a, level); len(ds) > 0 {
		fmt.Fprintln(w)
		for _, l := range ds {
			fmt.Fprintln(w, "- "+mdEscape(l))
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, mdEscape(summary(a, level)))
}

// mdEscape keeps a value from breaking a Markdown table or list.
func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "\r", " ", "<", "&lt;", ">", "&gt;", "`", "'", "*", `\*`, "_", `\_`).Replace(s)
}

// writeAuditJSON prints the audit as one JSON object.
func writeAuditJSON(w io.Writer, a audit) error {
	rel := make([]string, 0, len(a.columns.Releases))
	for _, v := range a.columns.Releases {
		rel = append(rel, v.String())
	}
	n := map[string]int{}
	for _, r := range a.rows {
		for _, c := range r.Cells {
			k := c.Verdict
			if strings.HasSuffix(k, " dropped") {
				k = "dropped"
			}
			n[k]++
		}
	}
	rows := a.rows
	if rows == nil {
		rows = []row{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Marketplace string         `json:"marketplace"`
		Judged      string         `json:"judged"`
		Releases    []string       `json:"releases"`
		Plugins     []row          `json:"plugins"`
		Summary     map[string]int `json:"summary"`
	}{a.name, a.ranges, rel, rows, n})
}

// isGitURL reports whether s names a remote git repository rather than a
// folder.
func isGitURL(s string) bool {
	if _, err := os.Stat(s); err == nil {
		return false
	}
	for _, p := range []string{"https://", "http://", "ssh://", "git@", "git://", "file://"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// cloneShallow clones url at depth 1 into a temporary folder, without
// submodules, hooks, prompts or LFS smudging, and returns it and its
// removal. A failed clone is an exit-3 failure with git's own last line,
// never git's exit code.
func cloneShallow(ctx context.Context, url string) (string, func(), error) {
	dir, err := os.MkdirTemp("", "hookgen-audit-")
	if err != nil {
		return "", nil, hwcli.Exit(exitFailure, err)
	}
	cleanup := func() { os.RemoveAll(dir) }
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "-c", "core.hooksPath=/dev/null", "-c", "protocol.ext.allow=never",
		"clone", "--quiet", "--depth", "1", "--no-recurse-submodules", "--", url, dir)
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_LFS_SKIP_SMUDGE=1", "GIT_ASKPASS=true", "SSH_ASKPASS=true")
	out, err := cmd.CombinedOutput()
	if err != nil {
		cleanup()
		if errors.Is(err, exec.ErrNotFound) {
			return "", nil, hwcli.Exit(exitFailure, fmt.Errorf("cannot clone %s: git is not installed; clone it yourself and run hookgen audit on the folder", url))
		}
		why := lastLine(string(out))
		if ctx.Err() != nil {
			why = "no answer within 2 minutes"
		}
		if why == "" {
			why = err.Error()
		}
		return "", nil, hwcli.Exit(exitFailure, fmt.Errorf("cannot clone %s: %s", url, why))
	}
	return dir, cleanup, nil
}

// lastLine is the last non-empty line of s, trimmed.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return clipWidth(strings.TrimSpace(lines[len(lines)-1]), 200)
}
