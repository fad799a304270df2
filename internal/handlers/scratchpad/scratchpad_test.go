package scratchpad

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/config"
)

var today = time.Date(2026, 3, 1, 15, 4, 5, 0, time.Local)

const complete = "# Notes\n## What I did\nx\n## Cross-agent observations\ny\n### Unresolved:\nz\n"

func opts(project string) Options {
	return Options{Config: scratchpadOn(), Project: project, Now: func() time.Time { return today }}
}

// files creates project-relative files with their content, all with the
// same modification time, as in a fresh clone: which one is newest is then
// decided by name, not by the order the map happens to write them in.
func files(t *testing.T, dir string, fs map[string]string) {
	t.Helper()
	for name, text := range fs {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, today, today); err != nil {
			t.Fatal(err)
		}
	}
}

func numbered(prefix string, n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%s %d\n", prefix, i)
	}
	return b.String()
}

func TestSubagentGate(t *testing.T) {
	const mine = ".claude/scratchpad/Explore/2026-03-01.md"
	tests := []struct {
		name     string
		files    map[string]string
		agent    string
		active   bool
		fail     config.Fail
		off      bool
		block    bool
		message  bool // a system message and no block
		errs     bool
		contains []string
	}{
		{name: "complete file passes", agent: "Explore", files: map[string]string{mine: complete}},
		{name: "missing file blocks", agent: "Explore", block: true,
			contains: []string{"write .claude/scratchpad/Explore/2026-03-01.md", "## What I did\n## Cross-agent observations\n## Unresolved\n"}},
		{name: "missing heading blocks and names it", agent: "Explore", block: true,
			files:    map[string]string{mine: "## What I did\n## Unresolved\n"},
			contains: []string{"add these Markdown headings to .claude/scratchpad/Explore/2026-03-01.md", "## Cross-agent observations\nThen"}},
		{name: "plain text is no heading", agent: "Explore", block: true,
			files: map[string]string{mine: "What I did\nCross-agent observations\nUnresolved\n"}},
		{name: "headings in code fences do not count", agent: "Explore", block: true,
			files: map[string]string{mine: "## What I did\n```md\n## Cross-agent observations\n```\n## Unresolved\n"}, contains: []string{"Cross-agent observations"}},
		{name: "any level, case and closing hashes", agent: "Explore",
			files: map[string]string{mine: "# WHAT I DID #\n###### cross-agent  observations\n  ## Unresolved ##\n"}},
		{name: "yesterday's file does not count", agent: "Explore", block: true,
			files: map[string]string{".claude/scratchpad/Explore/2026-02-28.md": complete}},
		{name: "stop_hook_active lets it go with a message", agent: "Explore", active: true, message: true,
			contains: []string{"Explore stopped without a complete scratchpad", "is missing"}},
		{name: "stop_hook_active with partial file", agent: "Explore", active: true, message: true,
			files: map[string]string{mine: "## What I did\n"}, contains: []string{`missing the headings "Cross-agent observations", "Unresolved"`}},
		{name: "no agent type (older release) passes", agent: ""},
		{name: "disabled", agent: "Explore", off: true},
		{name: "plugin agent type with a colon", agent: "myplugin:reviewer", block: true,
			contains: []string{".claude/scratchpad/myplugin:reviewer/2026-03-01.md"}},
		{name: "unsafe agent type fails open", agent: "../coordinator", errs: true, contains: []string{"path separator"}},
		{name: "dot-dot agent type fails open", agent: "..", errs: true, contains: []string{"relative folder"}},
		{name: "unsafe agent type fails closed when told", agent: "a/b", fail: config.FailClosed, block: true,
			contains: []string{"could not check", "fail closed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			files(t, dir, tt.files)
			o := opts(dir)
			o.Config.Enabled = !tt.off
			if tt.fail != "" {
				o.Config.Fail = tt.fail
			}
			in := &hooks.SubagentStop{StopHookActive: tt.active}
			in.HookEventName, in.AgentType = hooks.EventSubagentStop, tt.agent
			res, err := SubagentGate{o}.Handle(context.Background(), in)
			check(t, res, err, tt.block, tt.message, tt.errs, tt.contains)
		})
	}
}

func check(t *testing.T, res hooks.Result, err error, block, message, errs bool, contains []string) {
	t.Helper()
	if (err != nil) != errs {
		t.Fatalf("err = %v, want error %v", err, errs)
	}
	if got := res.Decision == hooks.Block; got != block {
		t.Fatalf("blocked = %v, want %v: %+v", got, block, res)
	}
	if got := res.SystemMessage != ""; got != message {
		t.Fatalf("system message = %q, want one: %v", res.SystemMessage, message)
	}
	text := res.Reason + res.SystemMessage + res.Context
	if err != nil {
		text += err.Error()
	}
	for _, want := range contains {
		if !strings.Contains(text, want) {
			t.Errorf("%q\ndoes not contain %q", text, want)
		}
	}
}

func TestCoordinatorGate(t *testing.T) {
	const (
		coord = ".claude/scratchpad/coordinator/2026-03-01.md"
		other = ".claude/scratchpad/Explore/2026-03-01.md"
	)
	tests := []struct {
		name     string
		files    map[string]string
		agent    string
		active   bool
		block    bool
		message  bool
		contains []string
	}{
		{name: "nobody wrote anything"},
		{name: "another agent wrote, coordinator did not", files: map[string]string{other: complete}, block: true,
			contains: []string{"Explore wrote today's scratchpad", "write .claude/scratchpad/coordinator/2026-03-01.md", "## Unresolved"}},
		{name: "an ego-only day is not delegation", files: map[string]string{".claude/scratchpad/ego/2026-03-01.md": "x"}},
		{name: "ego is not listed among the delegates", files: map[string]string{".claude/scratchpad/ego/2026-03-01.md": "x", other: "x"}, block: true,
			contains: []string{"Explore wrote today's"}},
		{name: "several agents are listed", files: map[string]string{other: "x", ".claude/scratchpad/Plan/2026-03-01.md": "x"}, block: true,
			contains: []string{"Explore, Plan wrote"}},
		{name: "coordinator wrote too", files: map[string]string{other: complete, coord: "anything"}},
		{name: "only old scratchpads of others", files: map[string]string{".claude/scratchpad/Explore/2026-02-28.md": complete}},
		{name: "stop_hook_active lets it go", files: map[string]string{other: complete}, active: true, message: true,
			contains: []string{"coordinator stopped without writing .claude/scratchpad/coordinator/2026-03-01.md"}},
		{name: "a main session running as another agent is left alone", files: map[string]string{other: complete}, agent: "reviewer"},
		{name: "a main session running as the coordinator is checked", files: map[string]string{other: complete}, agent: "coordinator", block: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			files(t, dir, tt.files)
			in := &hooks.Stop{StopHookActive: tt.active}
			in.HookEventName, in.AgentType = hooks.EventStop, tt.agent
			res, err := CoordinatorGate{opts(dir)}.Handle(context.Background(), in)
			check(t, res, err, tt.block, tt.message, false, tt.contains)
		})
	}
}

func TestStartup(t *testing.T) {
	tests := []struct {
		name     string
		source   string
		files    map[string]string
		git      bool
		empty    bool
		contains []string
		absent   []string
	}{
		{name: "nothing to say", source: "startup", empty: true},
		{name: "resume says nothing", source: "resume", git: true,
			files: map[string]string{".claude/scratchpad/coordinator/2026-03-01.md": "x"}, empty: true},
		{name: "newest coordinator and ego tails", source: "startup",
			files: map[string]string{
				".claude/scratchpad/coordinator/2026-02-28.md": "old coordinator\n",
				".claude/scratchpad/coordinator/2026-03-01.md": numbered("coord", 30),
				".claude/scratchpad/ego/2026-02-27.md":         numbered("ego", 22) + "\n\n",
			},
			contains: []string{
				"## Coordinator scratchpad (.claude/scratchpad/coordinator/2026-03-01.md, last 25 lines)\ncoord 6\n",
				"coord 30\n\n## Ego assessment (.claude/scratchpad/ego/2026-02-27.md, last 20 lines)\nego 3\n",
				"ego 22",
			},
			absent: []string{"coord 5\n", "ego 2\n", "old coordinator", "Recent commits"}},
		{name: "git log in a repository", source: "startup", git: true,
			contains: []string{"## Recent commits (git log --oneline -5)\n", "commit 7", "commit 3"}, absent: []string{"commit 2", "Coordinator"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			files(t, dir, tt.files)
			if tt.git {
				gitRepo(t, dir, 7)
			}
			in := &hooks.SessionStart{Source: tt.source}
			in.HookEventName = hooks.EventSessionStart
			res, err := Startup{opts(dir)}.Handle(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			if tt.empty {
				if !res.Empty() {
					t.Fatalf("want nothing, got %+v", res)
				}
				return
			}
			for _, want := range tt.contains {
				if !strings.Contains(res.Context, want) {
					t.Errorf("%q\ndoes not contain %q", res.Context, want)
				}
			}
			for _, bad := range tt.absent {
				if strings.Contains(res.Context, bad) {
					t.Errorf("%q\ncontains %q", res.Context, bad)
				}
			}
		})
	}
}

func gitRepo(t *testing.T, dir string, commits int) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	run := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("init", "-q")
	for i := 1; i <= commits; i++ {
		run("commit", "-q", "--allow-empty", "-m", fmt.Sprintf("commit %d", i))
	}
}

func TestNewestByMtimeThenName(t *testing.T) {
	dir := t.TempDir()
	files(t, dir, map[string]string{"a.md": "", "b.md": "", "c.txt": "", "z.md/inner.md": ""})
	same := time.Now().Add(-time.Hour)
	for _, n := range []string{"a.md", "b.md"} {
		os.Chtimes(filepath.Join(dir, n), same, same)
	}
	if got, _ := Newest(dir); filepath.Base(got) != "b.md" {
		t.Fatalf("equal times: got %s, want b.md", got)
	}
	os.Chtimes(filepath.Join(dir, "a.md"), time.Now(), time.Now())
	if got, _ := Newest(dir); filepath.Base(got) != "a.md" {
		t.Fatalf("newer mtime: got %s, want a.md", got)
	}
	if got, err := Newest(filepath.Join(dir, "missing")); got != "" || err != nil {
		t.Fatalf("missing dir: %q, %v", got, err)
	}
}

func TestAssign(t *testing.T) {
	dir := t.TempDir()
	files(t, dir, map[string]string{
		".claude/scratchpad/ego/2026-03-01.md":         numbered("ego", 5),
		".claude/scratchpad/coordinator/2026-03-01.md": numbered("coord", 4),
	})
	in := &hooks.SubagentStart{}
	in.HookEventName, in.AgentType = hooks.EventSubagentStart, "Explore"
	res, err := Assign{opts(dir)}.Handle(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"today is 2026-03-01",
		"write your scratchpad at .claude/scratchpad/Explore/2026-03-01.md",
		"## What I did\n## Cross-agent observations\n## Unresolved\n",
		"## Ego assessment (.claude/scratchpad/ego/2026-03-01.md, last 3 lines)\nego 3\nego 4\nego 5",
		"## Coordinator scratchpad (.claude/scratchpad/coordinator/2026-03-01.md, last 3 lines)\ncoord 2\ncoord 3\ncoord 4",
	} {
		if !strings.Contains(res.Context, want) {
			t.Errorf("%q\ndoes not contain %q", res.Context, want)
		}
	}
	if strings.Index(res.Context, "Ego") > strings.Index(res.Context, "Coordinator scratchpad (") {
		t.Error("ego must come before the coordinator")
	}

	in.AgentType = "../x"
	if _, err := (Assign{opts(dir)}).Handle(context.Background(), in); err == nil {
		t.Error("unsafe agent type: no error")
	}
	in.AgentType = ""
	if res, _ := (Assign{opts(dir)}).Handle(context.Background(), in); !res.Empty() {
		t.Errorf("no agent type: %+v", res)
	}
}

func TestSymlinkedAgentFolderOutsideProject(t *testing.T) {
	project, outside := t.TempDir(), t.TempDir()
	files(t, outside, map[string]string{"2026-03-01.md": complete})
	os.MkdirAll(filepath.Join(project, ".claude/scratchpad"), 0o755)
	if err := os.Symlink(outside, filepath.Join(project, ".claude/scratchpad/Explore")); err != nil {
		t.Skip("no symlinks:", err)
	}
	in := &hooks.SubagentStop{}
	in.HookEventName, in.AgentType = hooks.EventSubagentStop, "Explore"
	_, err := SubagentGate{opts(project)}.Handle(context.Background(), in)
	if err == nil || !strings.Contains(err.Error(), "resolves outside") {
		t.Fatalf("err = %v, want a symlink escape", err)
	}
}

func TestTail(t *testing.T) {
	dir := t.TempDir()
	files(t, dir, map[string]string{"f": "a\r\nb\r\nc\r\n\r\n", "e": "\n\n"})
	if got, _ := Tail(filepath.Join(dir, "f"), 2); strings.Join(got, "|") != "b|c" {
		t.Errorf("Tail = %q", got)
	}
	if got, _ := Tail(filepath.Join(dir, "e"), 2); len(got) != 0 {
		t.Errorf("Tail of blank file = %q", got)
	}
}

// scratchpadOn is the default scratchpad section with the chain on, as the
// runtime builds it where the project turned it on (package workflow).
func scratchpadOn() config.Scratchpad {
	c := config.Default().Scratchpad
	c.Enabled = true
	return c
}

// With fail "closed" the gates hold an agent that stops again without its
// scratchpad (stop_hook_active), up to max_blocks blocked stops in a row,
// each reason naming the count and the bound; the next stop goes through
// with a message that says the bound let it go. A complete scratchpad
// clears the count. Each agent (and the coordinator) counts on its own.
func TestFailClosedHoldsBoundedly(t *testing.T) {
	dir := t.TempDir()
	o := opts(dir)
	o.Config.Fail, o.Config.MaxBlocks = config.FailClosed, 3
	stop := func(agentID string, active bool) (hooks.Result, error) {
		in := &hooks.SubagentStop{StopHookActive: active}
		in.HookEventName, in.AgentType, in.SessionID, in.AgentID = hooks.EventSubagentStop, "Explore", "s1", agentID
		return SubagentGate{o}.Handle(context.Background(), in)
	}
	for i, active := range []bool{false, true, true} {
		res, err := stop("a1", active)
		if err != nil || res.Decision != hooks.Block || !strings.Contains(res.Reason, fmt.Sprintf("block %d of at most 3", i+1)) ||
			!strings.Contains(res.Reason, "scratchpad.max_blocks") {
			t.Fatalf("stop %d (stop_hook_active %v): %+v, %v", i+1, active, res, err)
		}
	}
	// another agent has its own count
	if res, _ := stop("a2", true); res.Decision != hooks.Block || !strings.Contains(res.Reason, "block 1 of at most 3") {
		t.Fatalf("a2's first stop: %+v", res)
	}
	res, err := stop("a1", true)
	if err != nil || res.Decision == hooks.Block || !strings.Contains(res.SystemMessage, "after 3 blocked stops") ||
		!strings.Contains(res.SystemMessage, "scratchpad.max_blocks") {
		t.Fatalf("the stop past the bound: %+v, %v", res, err)
	}
	// The count starts again after a complete scratchpad.
	files(t, dir, map[string]string{".claude/scratchpad/Explore/2026-03-01.md": complete})
	if res, _ := stop("a1", true); !res.Empty() {
		t.Fatalf("complete: %+v", res)
	}
	if err := os.Remove(filepath.Join(dir, ".claude/scratchpad/Explore/2026-03-01.md")); err != nil {
		t.Fatal(err)
	}
	if res, _ := stop("a1", true); res.Decision != hooks.Block || !strings.Contains(res.Reason, "block 1 of at most 3") {
		t.Fatalf("after a complete scratchpad the count restarts: %+v", res)
	}

	// The coordinator is held the same way.
	files(t, dir, map[string]string{".claude/scratchpad/Plan/2026-03-01.md": complete})
	coord := func(active bool) hooks.Result {
		in := &hooks.Stop{StopHookActive: active}
		in.HookEventName, in.SessionID = hooks.EventStop, "s1"
		res, err := CoordinatorGate{o}.Handle(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	for i := range 3 {
		if res := coord(i > 0); res.Decision != hooks.Block || !strings.Contains(res.Reason, fmt.Sprintf("block %d of at most 3", i+1)) {
			t.Fatalf("coordinator stop %d: %+v", i+1, res)
		}
	}
	if res := coord(true); res.Decision == hooks.Block || !strings.Contains(res.SystemMessage, "after 3 blocked stops") {
		t.Fatalf("coordinator past the bound: %+v", res)
	}

	// Fail open (the default) keeps the design's one reminder.
	o.Config.Fail = config.FailOpen
	in := &hooks.SubagentStop{StopHookActive: true}
	in.HookEventName, in.AgentType, in.SessionID, in.AgentID = hooks.EventSubagentStop, "Explore", "s1", "a9"
	if res, _ := (SubagentGate{o}).Handle(context.Background(), in); res.Decision == hooks.Block {
		t.Fatalf("fail open held a repeated stop: %+v", res)
	}
}

// A count that cannot be kept lets the agent go (never held forever).
func TestFailClosedCountUnwritable(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".hookwright"), []byte("a file, not a folder"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := opts(dir)
	o.Config.Fail, o.Config.MaxBlocks = config.FailClosed, 3
	in := &hooks.SubagentStop{StopHookActive: true}
	in.HookEventName, in.AgentType, in.SessionID, in.AgentID = hooks.EventSubagentStop, "Explore", "s1", "a1"
	res, err := SubagentGate{o}.Handle(context.Background(), in)
	if res.Decision == hooks.Block {
		t.Fatalf("an unkeepable count held the agent: %+v, %v", res, err)
	}
}

// With fail closed, a scratchpad that cannot be checked (an unsafe agent
// type) holds the agent at most max_blocks times too.
func TestFailClosedCannotCheckIsBounded(t *testing.T) {
	o := opts(t.TempDir())
	o.Config.Fail, o.Config.MaxBlocks = config.FailClosed, 2
	in := &hooks.SubagentStop{StopHookActive: true}
	in.HookEventName, in.AgentType, in.SessionID = hooks.EventSubagentStop, "a/b", "s1"
	for i := range 2 {
		if res, _ := (SubagentGate{o}).Handle(context.Background(), in); res.Decision != hooks.Block || !strings.Contains(res.Reason, "could not check") {
			t.Fatalf("stop %d: %+v", i+1, res)
		}
	}
	res, _ := SubagentGate{o}.Handle(context.Background(), in)
	if res.Decision == hooks.Block || !strings.Contains(res.SystemMessage, "scratchpad.max_blocks") {
		t.Fatalf("past the bound: %+v", res)
	}
}

// A UTF-8 byte order mark before the first heading (Windows editors) does
// not hide it.
func TestHeadingAfterBOM(t *testing.T) {
	dir := t.TempDir()
	files(t, dir, map[string]string{".claude/scratchpad/Explore/2026-03-01.md": "\ufeff## What I did\nx\n## Cross-agent observations\n## Unresolved\n"})
	in := &hooks.SubagentStop{}
	in.HookEventName, in.AgentType = hooks.EventSubagentStop, "Explore"
	if res, err := (SubagentGate{opts(dir)}).Handle(context.Background(), in); err != nil || !res.Empty() {
		t.Fatalf("BOM: %+v, %v", res, err)
	}
}
