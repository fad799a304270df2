// Package hookstest runs a plugin's hooks in tests the way Claude Code
// runs them, and reads the answer back: a [hooks.Mux] in this process
// ([Run]), or the built binary through `sh -c` ([Exec]), against an event
// written by hand or recorded from a real Claude Code release
// ([Recorded]), with the command line of any band (`TaskCompleted --via
// PostToolUse --proto 2.1.16`). The answer is decoded from the protocol
// (exit code, stderr, the JSON on stdout) into a [Reply] that says the
// decision, the reason and the context, whatever the channel:
//
//	func TestRefusesAMissingDeliverable(t *testing.T) {
//		p := hookstest.Recorded("2.1.32", "PostToolUse-TaskUpdate-completed")
//		c := p.Call("TaskCompleted --via PostToolUse --proto 2.1.16")
//		c.HomeFiles[p.TaskFile("1")] = `{"id":"1","subject":"Ship it","description":"deliverable: dist/app.js","status":"completed"}`
//		hookstest.Run(t, plugin.Mux(), c).Blocks(t, "dist/app.js")
//	}
//
// Every call runs in a fresh project folder and HOME, with an environment
// of its own: nothing of the test process's leaks in (a test run inside a
// Claude Code session sees no CLAUDE_* variable of its own).
package hookstest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/testkit"
)

// Call is one hook call: what Claude Code gives a hook command.
type Call struct {
	// Args is the command line after the program, as hooks.json writes it:
	// "PreToolUse", "TaskCompleted --via PostToolUse --proto 2.1.16". It
	// is split at spaces (no quoting).
	Args string
	// Stdin is the event JSON. $PROJECT, $HOME and $TRANSCRIPT stand for
	// the call's project folder, HOME and a transcript path in HOME.
	Stdin string
	// Env adds variables, "KEY=VALUE" (with the placeholders of Stdin).
	// The call always has HOME and CLAUDE_PROJECT_DIR; Exec adds PATH.
	Env []string
	// Files are written under the project folder, HomeFiles under HOME
	// (".claude/tasks/<session>/<id>.json"), before the call; "/" in a
	// path is the separator.
	Files, HomeFiles map[string]string
	// Project and Home are the folders to use; empty ones are made anew
	// (t.TempDir).
	Project, Home string
	// Transcript, when set, is written to $TRANSCRIPT before the call:
	// Claude Code's session log, whose "version" tells which release runs
	// ([hooks.RunningRelease]).
	Transcript string
	// StdinOpen keeps stdin open after the event, as Claude Code may: a
	// hook that waits for the end of its input never answers.
	StdinOpen bool
}

// Reply is what a call answered, read back in Claude Code's protocol.
type Reply struct {
	// Code is the exit code: 0 go on, 2 block, anything else a
	// non-blocking error.
	Code           int
	Stdout, Stderr string
	// Decision is Block on exit 2, or the JSON's decision
	// (permissionDecision, a PermissionRequest's behavior, a top-level
	// "decision":"block"); None otherwise.
	Decision hooks.Decision
	// Reason goes with the decision: stderr on exit 2, else the JSON's
	// reason for it.
	Reason string
	// Context is the hookSpecificOutput's additionalContext.
	Context string
	// SystemMessage is the JSON's systemMessage, shown to the user.
	SystemMessage string
	// Halt is continue:false, with StopReason.
	Halt       bool
	StopReason string
	// Project and Home are the folders the call ran in, to look at what
	// the hook wrote.
	Project, Home string
}

// Run runs one call of m in this process through a [hooks.Runner], as
// [hooks.Main] runs it in a plugin's binary.
func Run(t testing.TB, m *hooks.Mux, c Call) Reply {
	t.Helper()
	return RunWith(t, &hooks.Runner{Mux: m, Name: "plugin"}, c)
}

// RunWith runs one call of r in this process. r's Getenv is replaced by
// the call's environment for the run; the rest of r is used as it is.
func RunWith(t testing.TB, r *hooks.Runner, c Call) Reply {
	t.Helper()
	c, env := prepare(t, c)
	run := *r
	vars := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		vars[k] = v
	}
	run.Getenv = func(k string) string { return vars[k] }
	if run.Read.Timeout == 0 {
		run.Read.Timeout = 10 * time.Second // a loaded machine may deliver late; a test never waits for it
	}
	var stdout, stderr testkit.SyncBuffer
	var stdin io.Reader = strings.NewReader(c.Stdin)
	if c.StdinOpen {
		pr, pw := io.Pipe()
		defer pw.Close()
		go pw.Write([]byte(c.Stdin))
		stdin = pr
	}
	code := run.Run(strings.Fields(c.Args), stdin, &stdout, &stderr)
	return decode(code, stdout.String(), stderr.String(), c)
}

// Exec runs one call of the binary bin as Claude Code runs a hook command:
// `"<bin>" <Args>` through sh -c, in the project folder, with the event on
// stdin, in an environment of PATH, HOME, CLAUDE_PROJECT_DIR and Env only.
// A call that does not end within 30 seconds fails t.
func Exec(t testing.TB, bin string, c Call) Reply {
	t.Helper()
	c, env := prepare(t, c)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", `"$HOOKSTEST_BIN" `+c.Args)
	cmd.WaitDelay = 2 * time.Second // a hook that leaves a child holding its pipes must not hang the test
	cmd.Dir = c.Project
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOOKSTEST_BIN=" + bin}, env...)
	cmd.Stdin = strings.NewReader(c.Stdin)
	if c.StdinOpen {
		pr, pw, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer pw.Close() // held open for the whole run, like a client that never closes
		defer pr.Close()
		go pw.Write([]byte(c.Stdin))
		cmd.Stdin = pr
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%s %s did not end within 30s", bin, c.Args)
	}
	code := 0
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		code = exitErr.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %s: %v", bin, c.Args, err)
	}
	return decode(code, stdout.String(), stderr.String(), c)
}

// Build builds the Go package pkg (an import path, or a folder relative to
// the test's, such as "./cmd/myplugin") once per test process and returns
// the binary's path, for [Exec]. Call [Main] from TestMain to remove the
// binaries when the tests are done.
func Build(t testing.TB, pkg string) string {
	t.Helper()
	return testkit.Build(t, pkg, testkit.Options{})
}

// Main runs the tests and removes what [Build] made:
//
//	func TestMain(m *testing.M) { os.Exit(hookstest.Main(m)) }
func Main(m *testing.M) int { return testkit.Main(m) }

// Prepare makes the call's folders and files and returns the call with
// its placeholders filled in (Stdin, Args, Project, Home) and its
// environment ("KEY=VALUE": HOME, CLAUDE_PROJECT_DIR, Env): what [Run] and
// [Exec] run it with, for a test that runs a hook another way (a script
// in another language, say).
func Prepare(t testing.TB, c Call) (Call, []string) {
	t.Helper()
	return prepare(t, c)
}

// prepare is Prepare.
func prepare(t testing.TB, c Call) (Call, []string) {
	t.Helper()
	if c.Project == "" {
		c.Project = t.TempDir()
	}
	if c.Home == "" {
		c.Home = t.TempDir()
	}
	transcript := filepath.Join(c.Home, ".claude", "projects", "hookstest", "transcript.jsonl")
	fill := strings.NewReplacer("$PROJECT", c.Project, "$HOME", c.Home, "$TRANSCRIPT", transcript).Replace
	write := func(root string, files map[string]string) {
		for rel, data := range files {
			p := filepath.Join(root, filepath.FromSlash(fill(rel)))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(fill(data)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	write(c.Project, c.Files)
	write(c.Home, c.HomeFiles)
	if c.Transcript != "" {
		write(filepath.Dir(transcript), map[string]string{filepath.Base(transcript): c.Transcript})
	}
	c.Stdin, c.Args = fill(c.Stdin), fill(c.Args)
	env := []string{"HOME=" + c.Home, "CLAUDE_PROJECT_DIR=" + c.Project}
	for _, kv := range c.Env {
		env = append(env, fill(kv))
	}
	return c, env
}

// decode reads an answer in Claude Code's protocol.
func decode(code int, stdout, stderr string, c Call) Reply {
	r := Reply{Code: code, Stdout: stdout, Stderr: stderr, Project: c.Project, Home: c.Home}
	if code == hooks.ExitBlock {
		r.Decision, r.Reason = hooks.Block, strings.TrimSpace(stderr)
		return r
	}
	var out struct {
		Continue           *bool  `json:"continue"`
		StopReason         string `json:"stopReason"`
		SystemMessage      string `json:"systemMessage"`
		Decision           string `json:"decision"`
		Reason             string `json:"reason"`
		HookSpecificOutput struct {
			PermissionDecision       string `json:"permissionDecision"`
			PermissionDecisionReason string `json:"permissionDecisionReason"`
			AdditionalContext        string `json:"additionalContext"`
			Decision                 *struct {
				Behavior string `json:"behavior"`
				Message  string `json:"message"`
			} `json:"decision"`
		} `json:"hookSpecificOutput"`
	}
	if code != hooks.ExitOK || json.Unmarshal([]byte(stdout), &out) != nil {
		return r
	}
	r.SystemMessage, r.Context = out.SystemMessage, out.HookSpecificOutput.AdditionalContext
	if out.Continue != nil && !*out.Continue {
		r.Halt, r.StopReason = true, out.StopReason
	}
	spec := out.HookSpecificOutput
	switch {
	case spec.PermissionDecision != "":
		r.Decision, r.Reason = permission(spec.PermissionDecision), spec.PermissionDecisionReason
	case spec.Decision != nil:
		r.Decision, r.Reason = permission(spec.Decision.Behavior), spec.Decision.Message
	case out.Decision == "block":
		r.Decision, r.Reason = hooks.Block, out.Reason
	}
	return r
}

// permission reads a permission decision ("deny" is a block).
func permission(s string) hooks.Decision {
	switch s {
	case "allow":
		return hooks.Allow
	case "ask":
		return hooks.Ask
	case "deny":
		return hooks.Block
	}
	return hooks.None
}

// Want is what a [Reply] must say; empty fields are not checked, strings
// are looked for as parts of the reply's.
type Want struct {
	Decision hooks.Decision
	// Code is checked when Decision is None and Code is not zero.
	Code                            int
	Reason, Context, SystemMessage  string
	Halt                            bool
	NoReason, NoContext, NoMessages bool
}

// Check fails t with what the reply said when it does not say w.
func (r Reply) Check(t testing.TB, w Want) {
	t.Helper()
	var bad []string
	if r.Decision != w.Decision {
		bad = append(bad, "decision "+r.Decision.String()+", want "+w.Decision.String())
	}
	if w.Code != 0 && r.Code != w.Code {
		bad = append(bad, "exit code differs")
	}
	contains := func(what, got, want string) {
		if want != "" && !strings.Contains(got, want) {
			bad = append(bad, what+" lacks "+quote(want))
		}
	}
	contains("reason", r.Reason, w.Reason)
	contains("context", r.Context, w.Context)
	contains("systemMessage", r.SystemMessage, w.SystemMessage)
	if w.Halt != r.Halt {
		bad = append(bad, "halt differs")
	}
	if w.NoReason && r.Reason != "" || w.NoContext && r.Context != "" || w.NoMessages && (r.SystemMessage != "" || strings.TrimSpace(r.Stderr) != "") {
		bad = append(bad, "says more than wanted")
	}
	if len(bad) > 0 {
		t.Errorf("the hook answered %s\n%s", strings.Join(bad, "; "), r)
	}
}

// Blocks fails t unless the call blocked with a reason that contains
// reason.
func (r Reply) Blocks(t testing.TB, reason string) {
	t.Helper()
	r.Check(t, Want{Decision: hooks.Block, Reason: reason})
}

// Passes fails t unless the call went on (exit 0) with no decision, no
// halt and nothing on stderr.
func (r Reply) Passes(t testing.TB) {
	t.Helper()
	if r.Code != hooks.ExitOK || r.Decision != hooks.None || r.Halt || strings.TrimSpace(r.Stderr) != "" {
		t.Errorf("the hook did not let the call pass\n%s", r)
	}
}

// Silent fails t unless the call answered nothing at all: exit 0, empty
// stdout and stderr (a fallback that stands for nothing).
func (r Reply) Silent(t testing.TB) {
	t.Helper()
	if r.Code != hooks.ExitOK || r.Stdout != "" || r.Stderr != "" {
		t.Errorf("the hook answered where it should say nothing\n%s", r)
	}
}

// String shows the whole answer, for failure messages.
func (r Reply) String() string {
	return "  exit:   " + itoa(r.Code) + "\n  stdout: " + quote(r.Stdout) + "\n  stderr: " + quote(r.Stderr)
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// Canonical returns what a handler registered with c.Args receives for
// c: the input after [hooks.Translate], or nil when the fired event
// stands for nothing there (a TaskUpdate that completes no task, a
// fallback on a release that fires the canonical event itself). It fails
// t when the command line or the input is wrong, as the hook would exit 1.
func Canonical(t testing.TB, c Call) hooks.Input {
	t.Helper()
	c, env := prepare(t, c)
	vars := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		vars[k] = v
	}
	inv, err := hooks.ParseInvocation(strings.Fields(c.Args))
	if err != nil {
		t.Fatalf("%s: %v", c.Args, err)
	}
	if inv.Event == "" && inv.Via != "" {
		inv.Event, _ = hooks.FallbackFor(inv.Via)
	}
	in, err := hooks.Decode([]byte(c.Stdin), inv.Fired())
	if err != nil {
		t.Fatalf("%s: %v", c.Args, err)
	}
	out, err := inv.Translate(in, func(k string) string { return vars[k] })
	if err != nil {
		t.Fatalf("%s: %v", c.Args, err)
	}
	return out
}
