// Command hwdemo is `make demo`: one live Claude Code session, fully
// offline, that shows hookwright at work.
//
// It copies the plugin tree (plugin/) to a scratch folder with a freshly
// built hookwright binary for this machine, installs the real Claude Code
// release from npm (cached under .cache/claude-code), starts the scripted
// model stand-in on 127.0.0.1, and runs `claude -p` with the plugin. The
// scripted model asks Bash to `touch ran.marker && git push --force origin
// main`; hookwright's guard blocks it, the reason reaches the model as the
// tool result, and ran.marker is never created. It prints each step and
// exits 1 if any of that did not happen.
//
// With -keep (make demo KEEP=1) the session's project folder, with its
// journal, is kept, and the last line printed is the command that opens it
// in the dashboard: go run ./cmd/hwctl serve --dir <folder>.
//
//	hwdemo [-cc-version 2.1.33] [-plugin plugin] [-keep]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/live"
	"github.com/hookwright/hookwright/internal/modelapi"
	"github.com/hookwright/hookwright/internal/runtime/journal"
)

const blockedCommand = "touch ran.marker && git push --force origin main"

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("hwdemo", flag.ContinueOnError)
	fl.SetOutput(stderr)
	version := fl.String("cc-version", "2.1.33", "Claude Code release to run")
	pluginSrc := fl.String("plugin", "plugin", "plugin tree to install")
	keep := fl.Bool("keep", false, "keep the demo project and print the hwctl serve command for it")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if fl.NArg() > 0 {
		fmt.Fprintf(stderr, "hwdemo: unexpected argument %q\n", fl.Arg(0))
		return 2
	}
	if err := belowFloor(*version); err != nil {
		fmt.Fprintln(stderr, "hwdemo:", err)
		return 1
	}
	if err := demo(*version, *pluginSrc, *keep, stdout); err != nil {
		fmt.Fprintln(stderr, "hwdemo:", err)
		return 1
	}
	return 0
}

// belowFloor refuses, in one line, a release that loads no plugin hooks.
func belowFloor(version string) error {
	v, err := hooks.ParseRelease(version)
	if err != nil {
		return fmt.Errorf("-cc-version: %w", err)
	}
	floor, _ := hooks.ParseRelease(compat.PluginFloor)
	if v.Less(floor) {
		return fmt.Errorf("plugin hooks arrive in %s; Claude Code %s loads none (try CC_VERSION=%s make demo)", floor, v, floor)
	}
	return nil
}

func demo(version, pluginSrc string, keep bool, out io.Writer) error {
	version = live.Canonical(version)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	step := func(format string, a ...any) { fmt.Fprintf(out, "==> "+format+"\n", a...) }

	scratch, err := os.MkdirTemp("", "hwdemo-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	plugin := filepath.Join(scratch, "hookwright")
	step("copying %s and building hookwright for %s/%s", pluginSrc, runtime.GOOS, runtime.GOARCH)
	if err := os.CopyFS(plugin, os.DirFS(pluginSrc)); err != nil {
		return fmt.Errorf("copying the plugin: %w", err)
	}
	if err := buildRuntime(ctx, plugin); err != nil {
		return err
	}

	step("installing Claude Code %s from npm (cached after the first run)", version)
	claude, err := live.Install(ctx, version)
	if err != nil {
		return err
	}
	srv := modelapi.New(modelapi.Script{
		modelapi.ToolUse("Bash", map[string]string{"command": blockedCommand, "description": "Publish the branch"}),
		modelapi.Text("The force-push was blocked by a hook, so I stopped."),
	})
	srv.Start()
	defer srv.Close()
	step("scripted model API on %s; the model will ask Bash to run: %s", srv.URL(), blockedCommand)

	project := ""
	if keep {
		if project, err = os.MkdirTemp("", "hookwright-demo-"); err != nil {
			return err
		}
	}
	res, err := live.Run(ctx, live.Options{
		Claude: claude, Prompt: "Publish my branch.", BaseURL: srv.URL(), Dir: project,
		PluginDirs: []string{plugin}, AllowedTools: []string{"Bash"}, Debug: true,
	})
	defer os.RemoveAll(res.Home)
	if !keep {
		defer os.RemoveAll(res.Dir)
	}
	if err != nil {
		return err
	}
	n, ok := live.RegisteredHooks(res.DebugLog)
	step("claude -p exited %d; its loader registered %d hooks (found: %v, load failure: %v)", res.ExitCode, n, ok, live.LoadFailed(res.DebugLog))
	if err := report(out, srv, res, step); err != nil {
		return err
	}
	if keep {
		fmt.Fprintf(out, "kept the demo project (KEEP=1) at %s; open its journal in the dashboard, from this folder:\n%s\n", res.Dir, serveCommand(res.Dir))
	}
	return nil
}

// serveCommand is the command, run from the repository, that serves the
// dashboard of the project at dir: go run ./cmd/hwctl serve --dir <dir>,
// the folder quoted for sh when it needs it.
func serveCommand(dir string) string { return "go run ./cmd/hwctl serve --dir " + shellQuote(dir) }

// shellQuote is s as one sh word: as it is when it holds only characters
// sh takes literally, else in single quotes.
func shellQuote(s string) string {
	safe := s != ""
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("/._-+:,@%=", c)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// report prints what the model saw and checks the outcome.
func report(out io.Writer, srv *modelapi.Server, res live.Result, step func(string, ...any)) error {
	var blocked *modelapi.ToolResult
	for _, tr := range srv.ToolResults() {
		if tr.IsError && strings.Contains(tr.Content, "hookwright guard:") {
			blocked = &tr
		}
	}
	if blocked == nil {
		return errors.New("the model never received hookwright's block: no is_error tool_result with the guard's reason")
	}
	step("the model received an error tool_result:\n    %s", strings.ReplaceAll(strings.TrimSpace(blocked.Content), "\n", "\n    "))
	if _, err := os.Stat(filepath.Join(res.Dir, "ran.marker")); !errors.Is(err, fs.ErrNotExist) {
		return errors.New("ran.marker exists: the blocked command ran")
	}
	step("ran.marker does not exist: the command never ran")
	entries, _, err := journal.ReadAll(res.Dir)
	if err != nil {
		return err
	}
	step("hookwright's journal recorded %d hook calls:", len(entries))
	for _, e := range entries {
		fmt.Fprintf(out, "    %-14s %-6s exit %d %s\n", e.Event, e.Target, e.Exit, e.Decision)
	}
	fmt.Fprintln(out, "demo passed: the hook fired in real Claude Code, blocked the tool, and told the model why.")
	return nil
}

// buildRuntime builds hookwright for this machine into the plugin's bin/,
// under the name the launcher picks, and as bin/hookwright when the plugin
// has no launcher yet.
func buildRuntime(ctx context.Context, plugin string) error {
	name := fmt.Sprintf("hookwright-%s-%s", runtime.GOOS, runtime.GOARCH)
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	target := filepath.Join(plugin, "bin", name)
	if _, err := os.Stat(filepath.Join(plugin, "bin", "hookwright")); errors.Is(err, fs.ErrNotExist) {
		target = filepath.Join(plugin, "bin", "hookwright")
	}
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-o", target, "./cmd/hookwright")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("building hookwright: %v: %s", err, msg)
	}
	return nil
}
