// Package session records a fingerprint of every Claude Code session that
// runs in the project, so that "which release, which commit, when" can be
// answered afterwards.
//
// At SessionStart, [Recorder] adds one line to the day's session file,
// .hookwright/sessions/<YYYY-MM-DD>.jsonl, in one append:
//
//	{"session_id": "...", "start": {"source": "startup", "at": "..."}, "cwd": "...", "transcript_path": "...",
//	 "claude_version": "2.1.33", "git_head": "<commit>", "git_branch": "main", "hookwright_version": "..."}
//
// A resumed, cleared or compacted session adds another (the fingerprint
// keeps the last [state.MaxStarts]). At SessionEnd, [Ender] adds the end,
// its reason and the totals: the session's hook calls per event, its tool
// calls per tool, blocks, failed tool calls, the time spent in hookwright
// and in the tools, summed from the journal ([Sum]; at most [TotalsDays]
// files, the last [TotalsBytes] of each).
//
// The Claude Code version is read from the first transcript lines that carry
// a "version" field (every transcript line does on the releases seen), and
// else from the AI_AGENT variable (2.1.120+, e.g. claude-code_2-1-330_...).
// The transcript often does not exist yet at SessionStart; SessionEnd fills
// the version in then. The git commit is read from .git files, never by
// running git. Every read is bounded, and the session id must pass
// [safepath.Name] before it becomes a file name.
//
// The file's format, path and load and save live in package
// internal/state/session; `hwctl sessions` lists the recorded sessions.
package session

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/buildinfo"
	"github.com/hookwright/hookwright/internal/runtime/ccversion"
	"github.com/hookwright/hookwright/internal/runtime/project"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
	state "github.com/hookwright/hookwright/internal/state/session"
)

// maxGitFile bounds what is read from a file under .git.
const maxGitFile = 1 << 20

// Recorder is the SessionStart handler. Register it with the matcher "".
type Recorder struct {
	// Dir is the project folder; empty means $CLAUDE_PROJECT_DIR or cwd.
	Dir string
	// Version is hookwright's version; empty means the build's.
	Version string
	// Getenv reads the environment (main's project.Env); nil is an empty one.
	Getenv func(string) string
	// Now is the clock (main's project.Env); nil reads as the zero time.
	Now func() time.Time
	// PPID returns the parent process id; nil means os.Getppid.
	PPID func() int
}

// Name names the handler in reports.
func (Recorder) Name() string { return "session" }

// Handle serves [Recorder.SessionStart] and ignores every other event.
func (r Recorder) Handle(ctx context.Context, in hooks.Input) (hooks.Result, error) {
	return hooks.For(r.SessionStart).Handle(ctx, in)
}

// SessionStart records the start.
func (r Recorder) SessionStart(_ context.Context, ev *hooks.SessionStart) (hooks.Result, error) {
	getenv, now := project.Getenv(r.Getenv), project.Now(r.Now).UTC()
	dir := project.Dir(r.Dir, ev, getenv)
	version := r.Version
	if version == "" {
		version = buildinfo.Version("")
	}
	claude := ClaudeVersion(ev.TranscriptPath, getenv)
	head, branch := GitHead(dir)
	ppid := os.Getppid
	if r.PPID != nil {
		ppid = r.PPID
	}
	terminal := getenv("TERM_PROGRAM")
	if terminal == "" {
		terminal = getenv("TERM")
	}
	err := state.Append(dir, state.Record{
		SessionID:         ev.SessionID,
		Start:             &state.Start{Source: ev.Source, At: now},
		Cwd:               ev.Cwd,
		TranscriptPath:    ev.TranscriptPath,
		Model:             ev.Model,
		ClaudeVersion:     claude,
		GitHead:           head,
		GitBranch:         branch,
		HookwrightVersion: version,
		PPID:              ppid(),
		Terminal:          terminal,
	})
	if err != nil {
		return hooks.Result{}, err
	}
	return hooks.Result{}, nil
}

// Ender is the SessionEnd handler. Register it with the matcher "".
type Ender struct {
	Dir    string
	Getenv func(string) string
	Now    func() time.Time
}

// Name names the handler in reports.
func (Ender) Name() string { return "session-end" }

// Handle serves [Ender.SessionEnd] and ignores every other event.
func (e Ender) Handle(ctx context.Context, in hooks.Input) (hooks.Result, error) {
	return hooks.For(e.SessionEnd).Handle(ctx, in)
}

// SessionEnd records the end, and the Claude Code version if still unknown.
func (e Ender) SessionEnd(_ context.Context, ev *hooks.SessionEnd) (hooks.Result, error) {
	getenv, now := project.Getenv(e.Getenv), project.Now(e.Now).UTC()
	dir := project.Dir(e.Dir, ev, getenv)
	started := now // SessionStart was missed (hookwright installed mid-session)
	if fp, err := state.Load(dir, ev.SessionID); err == nil && !fp.Started.IsZero() {
		started = fp.Started
	}
	totals := Sum(dir, ev.SessionID, started, now)
	err := state.Append(dir, state.Record{
		SessionID:      ev.SessionID,
		End:            &state.End{At: now, Reason: ev.Reason},
		Totals:         &totals,
		ClaudeVersion:  ClaudeVersion(ev.TranscriptPath, getenv),
		TranscriptPath: ev.TranscriptPath,
		Cwd:            ev.Cwd,
	})
	if err != nil {
		return hooks.Result{}, err
	}
	return hooks.Result{}, nil
}

// ClaudeVersion returns the running Claude Code version, or "" (see
// package ccversion).
func ClaudeVersion(transcript string, getenv func(string) string) string {
	return ccversion.Running(getenv("AI_AGENT"), transcript)
}

// GitHead returns the commit and branch checked out in the repository at
// dir, reading .git files only; both are empty when dir is not a git
// repository or the files cannot be read.
func GitHead(dir string) (commit, branch string) {
	gitDir := filepath.Join(dir, ".git")
	if info, err := os.Stat(gitDir); err != nil {
		return "", ""
	} else if !info.IsDir() { // a worktree: ".git" holds "gitdir: <path>"
		data := readSmall(gitDir)
		p, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir: ")
		if !ok {
			return "", ""
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		gitDir = p
	}
	head := strings.TrimSpace(string(readSmall(filepath.Join(gitDir, "HEAD"))))
	ref, isRef := strings.CutPrefix(head, "ref: ")
	if !isRef {
		return head, ""
	}
	branch = strings.TrimPrefix(ref, "refs/heads/")
	if !strings.HasPrefix(ref, "refs/") || strings.Contains(ref, "..") {
		return "", branch
	}
	commonDir := gitDir
	if c := strings.TrimSpace(string(readSmall(filepath.Join(gitDir, "commondir")))); c != "" {
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitDir, c)
		}
		commonDir = c
	}
	for _, d := range []string{gitDir, commonDir} {
		if c := strings.TrimSpace(string(readSmall(filepath.Join(d, filepath.FromSlash(ref))))); c != "" {
			return c, branch
		}
	}
	packed := readSmall(filepath.Join(commonDir, "packed-refs"))
	for line := range bytes.Lines(packed) {
		fields := strings.Fields(string(line))
		if len(fields) == 2 && fields[1] == ref {
			return fields[0], branch
		}
	}
	return "", branch
}

func readSmall(path string) []byte {
	f, _, err := safepath.Open(safepath.At(path)) // no FIFO, no device
	if err != nil {
		return nil
	}
	defer f.Close()
	data, _ := io.ReadAll(io.LimitReader(f, maxGitFile))
	return data
}
