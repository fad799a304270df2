// Package scratchpad is the scratchpad chain: every agent keeps a dated
// Markdown notebook, each one reads the others' latest notes when it starts,
// and no agent may stop before it has written its own.
//
// # Layout
//
// Scratchpads live in the project under the config's scratchpad dir
// (.claude/scratchpad by default), one folder per agent type and one file a
// day, named by the local date:
//
//	.claude/scratchpad/coordinator/2026-03-01.md   the main session
//	.claude/scratchpad/ego/2026-03-01.md           the ego assessment
//	.claude/scratchpad/{agent_type}/2026-03-01.md  every subagent
//
// The "newest" scratchpad of a folder is its *.md file modified last; files
// with the same modification time (a fresh clone) are ranked by name, so
// the date in the name decides.
//
// # The four handlers
//
// Register each with the matcher "":
//
//   - [Startup] on SessionStart. On source "startup" only (not resume,
//     clear or compact) it injects the last 25 lines of the newest
//     coordinator scratchpad, the last 20 lines of the newest ego
//     assessment and the last 5 commits as `git log --oneline -5` lists
//     them, read from .git without starting git (package gitlog; outside
//     a repository that part is left out). Parts that do not exist
//     are left out; with none at all it says nothing.
//   - [Assign] on SubagentStart. It tells the subagent today's date, the
//     path of its scratchpad (.claude/scratchpad/{agent_type}/YYYY-MM-DD.md),
//     the headings it must contain, and the last 3 lines of the ego and
//     coordinator scratchpads.
//   - [SubagentGate] on SubagentStop. It blocks (exit 2: the subagent keeps
//     working, with the reason as its next instruction) until today's file
//     exists and has every required heading, as a Markdown heading of any
//     level ("## What I did", "### Unresolved:"; case and a trailing colon
//     do not matter; headings inside fenced code do not count).
//   - [CoordinatorGate] on Stop. It blocks the main session when another
//     agent has written today's scratchpad and the coordinator has not
//     written its own (existence is enough here). A main session that runs
//     as some other agent (agent_type set and not the coordinator) is left
//     alone.
//
// The required headings default to "What I did", "Cross-agent
// observations" and "Unresolved"; the folder names of the coordinator and
// the ego, the dir and the headings come from the "scratchpad" config
// section.
//
// # Never looping forever
//
// By default ("fail": "open") both gates honour stop_hook_active: when
// Claude Code is already continuing because of a stop hook, they let the
// agent stop and only leave a system message that the scratchpad is still
// missing. So an agent is asked once per stop.
//
// With "fail": "closed" the chain is what seed 004 claims, an agent cannot
// skip writing, within a bound: the gates block a repeated stop too, up to
// "max_blocks" (5) blocked stops of one agent in a row, each reason saying
// "block N of at most M"; the next stop goes through with a system message
// that the bound let it go. The counts live in .hookwright/scratchpad.json
// (per session and agent id); a complete scratchpad clears its count, and a
// count that cannot be kept lets the agent go. An agent that cannot write
// (no Write tool, a read-only folder) is held at most max_blocks times.
//
// # Errors
//
// Agent types go through package safepath before they become a path; an
// unsafe one, an unreadable folder or a failing git are internal errors. The
// injectors always fail open. The gates fail open too (the runtime reports
// the error), unless the section says "fail": "closed", in which case they
// block and say they could not check.
package scratchpad

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/runtime/gitlog"
	"github.com/hookwright/hookwright/internal/runtime/project"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
)

// Line counts taken from other scratchpads.
const (
	StartupCoordinatorLines = 25
	StartupEgoLines         = 20
	AssignLines             = 3
	GitLogCount             = 5
)

// maxTail caps how much of the end of a scratchpad is read.
const maxTail = 256 << 10

// maxScratchpad caps the scratchpad a gate reads whole: 4 MiB.
const maxScratchpad = 4 << 20

// Options are what every handler of the chain needs.
type Options struct {
	Config config.Scratchpad
	// Project is the project folder. Empty means $CLAUDE_PROJECT_DIR, or
	// the input's cwd.
	Project string
	// Now gives the time (main's clock, project.Env). Dates are local.
	Now func() time.Time
	// Getenv is main's environment (project.Env); nil is an empty one.
	Getenv func(string) string
}

func (o Options) today() string { return project.Now(o.Now).Format(time.DateOnly) }

func (o Options) project(in hooks.Input) string { return project.Dir(o.Project, in, o.Getenv) }

// agentFile returns the project-relative and absolute path of agent's
// scratchpad for date, checking the name and that it stays inside the
// project.
func (o Options) agentFile(project, agent, date string) (rel, abs string, err error) {
	if err := safepath.Name("agent type", agent); err != nil {
		return "", "", err
	}
	rel = filepath.Join(filepath.FromSlash(o.Config.Dir), agent, date+".md")
	abs = filepath.Join(project, rel)
	if err := safepath.Within(project, abs); err != nil {
		return "", "", err
	}
	return filepath.ToSlash(rel), abs, nil
}

// agentDir returns the absolute folder of agent's scratchpads.
func (o Options) agentDir(project, agent string) (string, error) {
	p, err := safepath.Join(filepath.Join(project, filepath.FromSlash(o.Config.Dir)), "agent type", agent)
	if err != nil {
		return "", err
	}
	if err := safepath.Within(project, p); err != nil {
		return "", err
	}
	return p, nil
}

// failed turns an internal error into the gate's answer under its policy:
// fail open reports it; fail closed blocks, counted as any held stop of
// key in the project dir, so a scratchpad that can never be checked holds
// the agent at most max_blocks times too.
func (o Options) failed(dir, key string, err error) (hooks.Result, error) {
	if o.Config.Fail != config.FailClosed {
		return hooks.Result{}, err
	}
	n, ok := o.hold(dir, key)
	if !ok {
		return hooks.Result{SystemMessage: fmt.Sprintf("hookwright scratchpad: could not check the scratchpad (%v); let the stop go after %d blocked stops: the scratchpad.max_blocks bound.", err, o.maxBlocks())}, nil
	}
	return hooks.Blocked(fmt.Sprintf("hookwright scratchpad: could not check the scratchpad (%v); the gate is set to fail closed.%s", err, o.holdNote(n))), nil
}

// Startup is the SessionStart handler: the briefing of a new session.
type Startup struct{ Options }

// Name names the handler in reports.
func (Startup) Name() string { return "scratchpad-startup" }

// Handle serves [Startup.SessionStart] and ignores every other event.
func (h Startup) Handle(ctx context.Context, in hooks.Input) (hooks.Result, error) {
	return hooks.For(h.SessionStart).Handle(ctx, in)
}

// SessionStart injects the coordinator and ego notes and recent commits on a
// session's startup.
func (h Startup) SessionStart(ctx context.Context, ev *hooks.SessionStart) (hooks.Result, error) {
	if !h.Config.Enabled || ev.Source != "startup" {
		return hooks.Result{}, nil
	}
	project := h.project(ev)
	var parts, problems []string
	for _, src := range []struct {
		agent, title string
		lines        int
	}{
		{h.Config.Coordinator, "Coordinator scratchpad", StartupCoordinatorLines},
		{h.Config.Ego, "Ego assessment", StartupEgoLines},
	} {
		text, err := h.latest(project, src.agent, src.lines, src.title)
		if err != nil {
			problems = append(problems, err.Error())
		}
		if text != "" {
			parts = append(parts, text)
		}
	}
	if log := GitLog(project, GitLogCount); log != "" {
		parts = append(parts, fmt.Sprintf("## Recent commits (git log --oneline -%d)\n%s", GitLogCount, log))
	}
	res := hooks.Result{}
	if len(parts) > 0 {
		res.Context = "Scratchpad briefing from hookwright:\n\n" + strings.Join(parts, "\n\n")
	}
	if len(problems) > 0 {
		return res, errors.New(strings.Join(problems, "; "))
	}
	return res, nil
}

// latest renders the last n lines of agent's newest scratchpad under a
// heading, or "" when there is none.
func (o Options) latest(project, agent string, n int, title string) (string, error) {
	dir, err := o.agentDir(project, agent)
	if err != nil {
		return "", err
	}
	path, err := Newest(dir)
	if err != nil || path == "" {
		return "", err
	}
	lines, err := Tail(path, n)
	if err != nil || len(lines) == 0 {
		return "", err
	}
	rel, _ := filepath.Rel(project, path)
	return fmt.Sprintf("## %s (%s, last %d lines)\n%s", title, filepath.ToSlash(rel), n, strings.Join(lines, "\n")), nil
}

// Assign is the SubagentStart handler: it tells the subagent where and how
// to keep its scratchpad.
type Assign struct{ Options }

// Name names the handler in reports.
func (Assign) Name() string { return "scratchpad-assign" }

// Handle serves [Assign.SubagentStart] and ignores every other event.
func (h Assign) Handle(ctx context.Context, in hooks.Input) (hooks.Result, error) {
	return hooks.For(h.SubagentStart).Handle(ctx, in)
}

// SubagentStart injects the subagent's scratchpad duty.
func (h Assign) SubagentStart(ctx context.Context, ev *hooks.SubagentStart) (hooks.Result, error) {
	if !h.Config.Enabled || ev.AgentType == "" {
		return hooks.Result{}, nil
	}
	project, date := h.project(ev), h.today()
	rel, _, err := h.agentFile(project, ev.AgentType, date)
	if err != nil {
		return hooks.Result{}, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Scratchpad: today is %s. Before you finish, write your scratchpad at %s (project-relative) with these Markdown headings:\n", date, rel)
	for _, hd := range h.Config.Headings {
		fmt.Fprintf(&b, "## %s\n", hd)
	}
	b.WriteString("You cannot stop until that file exists with every heading.")
	var problems []string
	for _, src := range []struct{ agent, title string }{{h.Config.Ego, "Ego assessment"}, {h.Config.Coordinator, "Coordinator scratchpad"}} {
		text, err := h.latest(project, src.agent, AssignLines, src.title)
		if err != nil {
			problems = append(problems, err.Error())
		}
		if text != "" {
			b.WriteString("\n\n" + text)
		}
	}
	if len(problems) > 0 {
		return hooks.Context(b.String()), errors.New(strings.Join(problems, "; "))
	}
	return hooks.Context(b.String()), nil
}

// SubagentGate is the SubagentStop handler: no subagent stops before its
// scratchpad for today has every required heading.
type SubagentGate struct{ Options }

// Name names the handler in reports.
func (SubagentGate) Name() string { return "scratchpad-subagent-stop" }

// Handle serves [SubagentGate.SubagentStop] and ignores every other event.
func (h SubagentGate) Handle(ctx context.Context, in hooks.Input) (hooks.Result, error) {
	return hooks.For(h.SubagentStop).Handle(ctx, in)
}

// SubagentStop blocks the stop while the scratchpad is missing or incomplete.
func (h SubagentGate) SubagentStop(ctx context.Context, ev *hooks.SubagentStop) (hooks.Result, error) {
	if !h.Config.Enabled || ev.AgentType == "" {
		return hooks.Result{}, nil // older releases do not say which agent stops
	}
	project, date := h.project(ev), h.today()
	key := holdKey(ev.SessionID, ev.AgentID, ev.AgentType)
	rel, abs, err := h.agentFile(project, ev.AgentType, date)
	if err != nil {
		return h.failed(project, key, err)
	}
	missing, err := MissingHeadings(abs, h.Config.Headings)
	exists := true
	if errors.Is(err, fs.ErrNotExist) {
		exists, missing, err = false, h.Config.Headings, nil
	}
	if err != nil {
		return h.failed(project, key, err)
	}
	if len(missing) == 0 {
		if h.closed() {
			h.release(project, key)
		}
		return hooks.Result{}, nil
	}
	note := ""
	switch {
	case h.closed():
		n, ok := h.hold(project, key)
		if !ok {
			return hooks.Result{SystemMessage: fmt.Sprintf("hookwright scratchpad: let %s stop without a complete scratchpad (%s is %s) after %d blocked stops: the scratchpad.max_blocks bound.", ev.AgentType, rel, describe(exists, missing), h.maxBlocks())}, nil
		}
		note = h.holdNote(n)
	case ev.StopHookActive:
		return hooks.Result{SystemMessage: fmt.Sprintf("hookwright scratchpad: %s stopped without a complete scratchpad (%s is %s).", ev.AgentType, rel, describe(exists, missing))}, nil
	}
	var b strings.Builder
	if exists {
		fmt.Fprintf(&b, "hookwright scratchpad: before you finish, add these Markdown headings to %s (project-relative), each with your notes under it:\n", rel)
	} else {
		fmt.Fprintf(&b, "hookwright scratchpad: before you finish, write %s (project-relative) with these Markdown headings, each with your notes under it:\n", rel)
	}
	for _, hd := range missing {
		fmt.Fprintf(&b, "## %s\n", hd)
	}
	b.WriteString("Then finish again." + note)
	return hooks.Blocked(b.String()), nil
}

func describe(exists bool, missing []string) string {
	if !exists {
		return "missing"
	}
	return "missing the headings " + quoteAll(missing)
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

// The scratchpad gates are no hooks.FailCloser: they apply scratchpad.fail
// themselves, bounded by scratchpad.max_blocks, a count kept in the project
// ([Options.failed]). Where the runtime itself cannot run them (the hook
// contract broken, a panic, the deadline) that count cannot be kept, so
// the stop goes through and the fault is shown: an agent is never held
// for ever.

// CoordinatorGate is the Stop handler: the coordinator does not stop on a
// day other agents wrote their scratchpads before it has written its own.
type CoordinatorGate struct{ Options }

// Name names the handler in reports.
func (CoordinatorGate) Name() string { return "scratchpad-coordinator-stop" }

// Handle serves [CoordinatorGate.Stop] and ignores every other event.
func (h CoordinatorGate) Handle(ctx context.Context, in hooks.Input) (hooks.Result, error) {
	return hooks.For(h.Stop).Handle(ctx, in)
}

// Stop blocks the main session's stop while its scratchpad is missing and
// another agent's exists for today.
func (h CoordinatorGate) Stop(ctx context.Context, ev *hooks.Stop) (hooks.Result, error) {
	if !h.Config.Enabled {
		return hooks.Result{}, nil
	}
	if ev.AgentType != "" && ev.AgentType != h.Config.Coordinator {
		return hooks.Result{}, nil
	}
	project, date := h.project(ev), h.today()
	key := holdKey(ev.SessionID, "", h.Config.Coordinator)
	rel, abs, err := h.agentFile(project, h.Config.Coordinator, date)
	if err != nil {
		return h.failed(project, key, err)
	}
	if _, err := os.Stat(abs); err == nil {
		if h.closed() {
			h.release(project, key)
		}
		return hooks.Result{}, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return h.failed(project, key, err)
	}
	others, err := h.wroteToday(project, date)
	if err != nil {
		return h.failed(project, key, err)
	}
	if len(others) == 0 {
		return hooks.Result{}, nil
	}
	note := ""
	switch {
	case h.closed():
		n, ok := h.hold(project, key)
		if !ok {
			return hooks.Result{SystemMessage: fmt.Sprintf("hookwright scratchpad: let the coordinator stop without writing %s (%s wrote theirs today) after %d blocked stops: the scratchpad.max_blocks bound.", rel, strings.Join(others, ", "), h.maxBlocks())}, nil
		}
		note = h.holdNote(n)
	case ev.StopHookActive:
		return hooks.Result{SystemMessage: fmt.Sprintf("hookwright scratchpad: the coordinator stopped without writing %s (%s wrote theirs today).", rel, strings.Join(others, ", "))}, nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "hookwright scratchpad: %s wrote today's scratchpad, but the coordinator has not. Before you finish, write %s (project-relative) with these Markdown headings:\n", strings.Join(others, ", "), rel)
	for _, hd := range h.Config.Headings {
		fmt.Fprintf(&b, "## %s\n", hd)
	}
	b.WriteString("Then finish again." + note)
	return hooks.Blocked(b.String()), nil
}

// wroteToday lists the agents that have a scratchpad for date, in name
// order: the delegates. The coordinator's own notes and the ego assessment
// are not delegation, so neither is listed.
func (o Options) wroteToday(project, date string) ([]string, error) {
	root := filepath.Join(project, filepath.FromSlash(o.Config.Dir))
	if err := safepath.Within(project, root); err != nil {
		return nil, err
	}
	entries, err := safepath.ReadDir(safepath.At(root))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() || e.Name() == o.Config.Coordinator || e.Name() == o.Config.Ego {
			continue
		}
		info, err := os.Stat(filepath.Join(root, e.Name(), date+".md"))
		if err == nil && info.Mode().IsRegular() {
			out = append(out, e.Name())
		}
	}
	return out, nil
}

// Newest returns the *.md file in dir modified last (ties: the greatest
// name), or "" when dir has none or does not exist.
func Newest(dir string) (string, error) {
	entries, err := safepath.ReadDir(safepath.At(dir))
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	var (
		best     string
		bestTime time.Time
	)
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".md") {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		if t := info.ModTime(); best == "" || t.After(bestTime) || t.Equal(bestTime) && e.Name() > best {
			best, bestTime = e.Name(), t
		}
	}
	if best == "" {
		return "", nil
	}
	return filepath.Join(dir, best), nil
}

// Tail returns the last n lines of the file at path, without trailing blank
// lines. Only the last 256 KiB are read.
func Tail(path string, n int) ([]string, error) {
	data, err := safepath.ReadTail(safepath.At(path), maxTail)
	if err != nil {
		return nil, err
	}
	text := strings.TrimRight(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n \t")
	if text == "" {
		return nil, nil
	}
	lines := strings.Split(text, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return lines, nil
}

// atxHeading is compiled on first use: the runtime starts on every hook call and
// must not pay for a regexp that this event never needs.
var atxHeading = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$`) })

// Headings returns the text of every ATX Markdown heading in data, outside
// fenced code blocks, normalized by [NormalizeHeading].
func Headings(data []byte) []string {
	var (
		out   []string
		fence string
	)
	data = bytes.TrimPrefix(data, []byte("\ufeff")) // a byte order mark is no part of the first line
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		trimmed := strings.TrimLeft(line, " ")
		if f := fenceOf(trimmed); f != "" && len(line)-len(trimmed) < 4 {
			switch {
			case fence == "":
				fence = f
			case strings.HasPrefix(f, fence) && strings.TrimSpace(strings.TrimLeft(trimmed, f[:1])) == "":
				fence = ""
			}
			continue
		}
		if fence != "" {
			continue
		}
		if m := atxHeading().FindStringSubmatch(line); m != nil {
			out = append(out, NormalizeHeading(m[1]))
		}
	}
	return out
}

func fenceOf(s string) string {
	for _, c := range []string{"`", "~"} {
		n := len(s) - len(strings.TrimLeft(s, c))
		if n >= 3 {
			return strings.Repeat(c, n)
		}
	}
	return ""
}

// NormalizeHeading lowers s, collapses its spaces and drops a trailing
// colon, so "What I did:" and "what  i did" are the same heading.
func NormalizeHeading(s string) string {
	s = strings.Join(strings.Fields(strings.ToLower(s)), " ")
	return strings.TrimSpace(strings.TrimSuffix(s, ":"))
}

// MissingHeadings returns the required headings the file at path lacks.
// A missing file is an error wrapping fs.ErrNotExist.
func MissingHeadings(path string, required []string) ([]string, error) {
	data, err := safepath.ReadFileAt(path, maxScratchpad)
	if err != nil {
		return nil, err
	}
	have := make(map[string]bool)
	for _, h := range Headings(data) {
		have[h] = true
	}
	var missing []string
	for _, r := range required {
		if !have[NormalizeHeading(r)] {
			missing = append(missing, r)
		}
	}
	return missing, nil
}

// GitLog returns what `git log --oneline -n` prints in project, read from
// its .git folder without starting git (package gitlog), or "" when
// project is no repository or nothing can be read.
func GitLog(project string, n int) string { return gitlog.Log(project, n) }
