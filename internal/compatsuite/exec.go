package suite

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// maxHookTime bounds one hook run in the suite, whatever its timeout says.
const maxHookTime = 30 * time.Second

// call is one run of a hook command, as Claude Code would make it.
type call struct {
	Command string
	// Payload builds the stdin event for a project folder and a HOME.
	Payload func(project, home string) map[string]any
	// State prepares the project and HOME (files, task lists); may be nil.
	State *state
	// Env holds extra KEY=value pairs.
	Env []string
	// Timeout is the handler's timeout; zero means maxHookTime.
	Timeout time.Duration
	// KeepStdinOpen leaves stdin open after the event, as Claude Code may.
	KeepStdinOpen bool
	// NoProjectDir leaves CLAUDE_PROJECT_DIR unset (2.0.30's SessionStart).
	NoProjectDir bool
	// SpacedRoot runs the plugin from a path containing a space.
	SpacedRoot bool
	// After reads what the run left in the project and HOME, before they
	// are removed; its answer is the result's After.
	After func(project, home string) string
}

// result is what a hook run did.
type result struct {
	Exit           int
	Stdout, Stderr string
	TimedOut       bool
	Err            error // the command could not be run at all
	// NotRun says why the handler itself did not run although the command
	// did: the shell found no program (exit 126/127), or a launcher
	// found no binary and failed open. "" when it ran.
	NotRun string
	// After is the call's After answer ("" without one).
	After string
}

// launcherMissing is how hookwright's launcher (plugin/bin/hookwright)
// says it found no binary for the platform; it then exits 0.
const launcherMissing = "hookwright: no binary for "

// notRun tells a command that never reached its handler.
func notRun(r result) string {
	switch {
	case r.Err != nil || r.TimedOut:
		return ""
	case r.Exit == 126 || r.Exit == 127:
		return fmt.Sprintf("the shell could not start the program (exit %d: %s)", r.Exit, firstLine(r.Stderr))
	}
	for _, out := range []string{r.Stderr, r.Stdout} {
		if i := strings.Index(out, launcherMissing); i >= 0 {
			return "the launcher found no binary and failed open (" + firstLine(out[i:]) + ")"
		}
	}
	return ""
}

// String describes the result in a few words for a case's reason.
func (r result) String() string {
	switch {
	case r.Err != nil:
		return "could not run: " + r.Err.Error()
	case r.TimedOut:
		return "did not finish before its timeout"
	case r.Exit == 2:
		return "exit 2: " + firstLine(r.Stderr)
	case r.Exit != 0:
		return fmt.Sprintf("exit %d: %s", r.Exit, firstLine(r.Stderr))
	case strings.TrimSpace(r.Stdout) != "":
		return "exit 0 with " + firstLine(r.Stdout)
	}
	return "exit 0"
}

// short is the outcome without the reason: "exit 2".
func (r result) short() string {
	switch {
	case r.Err != nil:
		return "not run"
	case r.TimedOut:
		return "timed out"
	}
	return fmt.Sprintf("exit %d", r.Exit)
}

// same reports whether two runs reached the same gate outcome: the same
// exit code and, on a block, the same reason.
func (r result) same(o result) bool {
	if r.Err != nil || o.Err != nil || r.TimedOut != o.TimedOut || r.Exit != o.Exit {
		return false
	}
	return r.Exit != 2 || strings.TrimSpace(r.Stderr) == strings.TrimSpace(o.Stderr)
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	if s == "" {
		return "(nothing)"
	}
	return s
}

// runner runs hook commands of one plugin in scratch folders.
type runner struct {
	root string // the plugin folder
	tmp  string // scratch parent

	// copyOnce makes copied, the private copy of the plugin folder the
	// hooks run from: the suite never writes into the folder it checks,
	// and a hook (a launcher unpacking its runtime, a script keeping a
	// cache) may write into its own ${CLAUDE_PLUGIN_ROOT}.
	copyOnce sync.Once
	copied   string
	copyErr  error

	mu     sync.Mutex
	missed []string // NotRun reasons of the current case's runs
}

// maxPluginCopy bounds the plugin folder the suite copies to run its
// hooks: a plugin with its dependencies is tens of MiB.
const maxPluginCopy = 1 << 30

// pluginCopy returns the private copy of the plugin folder, made on the
// first hook run.
func (r *runner) pluginCopy() (string, error) {
	r.copyOnce.Do(func() {
		dst := filepath.Join(r.tmp, "plugin")
		r.copied, r.copyErr = dst, copyPlugin(r.root, dst, maxPluginCopy)
	})
	return r.copied, r.copyErr
}

// copyPlugin copies the folder src to dst: folders, regular files with
// their modes, and symbolic links as links (one that points into src is
// pointed at the same place in dst). It stops with an error past limit
// bytes.
func copyPlugin(src, dst string, limit int64) error {
	var total int64
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(to, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			if filepath.IsAbs(target) {
				if in, err := filepath.Rel(src, target); err == nil && in != ".." && !strings.HasPrefix(in, ".."+string(filepath.Separator)) {
					target = filepath.Join(dst, in)
				}
			}
			return os.Symlink(target, to)
		case !d.Type().IsRegular():
			return nil // a FIFO or a device: nothing a hook needs
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if total += fi.Size(); total > limit {
			return fmt.Errorf("the plugin folder is larger than %d MiB: too large to copy for running its hooks", limit>>20)
		}
		in, err := os.Open(p)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fi.Mode().Perm())
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
}

// note records that a run of the current case did not reach its handler.
func (r *runner) note(why string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.missed = append(r.missed, why)
}

// takeMissed returns and clears the reasons noted since the last call.
func (r *runner) takeMissed() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	m := r.missed
	r.missed = nil
	return m
}

// run executes c through sh -c in a fresh project folder and HOME, with
// the environment Claude Code gives plugin hooks.
func (r *runner) run(ctx context.Context, c call) result {
	scratch, err := os.MkdirTemp(r.tmp, "run-")
	if err != nil {
		return result{Err: err}
	}
	defer os.RemoveAll(scratch)
	project, home := filepath.Join(scratch, "project"), filepath.Join(scratch, "home")
	for _, d := range []string{project, filepath.Join(home, ".claude")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return result{Err: err}
		}
	}
	if c.State != nil {
		if err := c.State.apply(project, home); err != nil {
			return result{Err: err}
		}
	}
	root, err := r.pluginCopy()
	if err != nil {
		return result{Err: err}
	}
	if c.SpacedRoot {
		spaced := filepath.Join(scratch, "plugin root")
		if err := os.Symlink(root, spaced); err != nil {
			return result{Err: err}
		}
		root = spaced
	}
	payload, err := json.Marshal(c.Payload(project, home))
	if err != nil {
		return result{Err: err}
	}
	timeout := c.Timeout
	if timeout <= 0 || timeout > maxHookTime {
		timeout = maxHookTime
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", c.Command)
	cmd.Dir = project
	cmd.Env = hookEnv(root, project, home, c)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	killGroup(cmd)
	cmd.WaitDelay = 2 * time.Second
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return result{Err: err}
	}
	if err := cmd.Start(); err != nil {
		return result{Err: err}
	}
	_, _ = stdin.Write(payload) // a hook may exit without reading
	if !c.KeepStdinOpen {
		stdin.Close()
	}
	err = cmd.Wait()
	stdin.Close()
	// What the hooks say names the plugin folder, not the private copy.
	res := result{Stdout: strings.ReplaceAll(stdout.String(), root, r.root), Stderr: strings.ReplaceAll(stderr.String(), root, r.root)}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		res.TimedOut, res.Exit = true, -1
		return res
	}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		res.Exit = exit.ExitCode()
	default:
		res.Err = err
	}
	if res.NotRun = notRun(res); res.NotRun != "" {
		r.note(res.NotRun)
	}
	if c.After != nil {
		res.After = c.After(project, home)
	}
	return res
}

// hookEnv is the caller's environment without Claude Code's and Anthropic's
// variables, plus what Claude Code sets for a plugin hook.
func hookEnv(root, project, home string, c call) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "CLAUDE_") || strings.HasPrefix(k, "ANTHROPIC_") || strings.HasPrefix(k, "HOOKWRIGHT_") ||
			k == "HOME" || k == "TMUX_PANE" || k == "AI_AGENT" {
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "HOME="+home, "CLAUDE_PLUGIN_ROOT="+root, "CLAUDE_CODE_ENTRYPOINT=sdk-cli")
	if !c.NoProjectDir {
		env = append(env, "CLAUDE_PROJECT_DIR="+project)
	}
	return append(env, c.Env...)
}

// state is a project (and HOME) a hook runs against.
type state struct {
	// Name says what the state is, for reasons.
	Name string
	// Files are written relative to the project folder.
	Files map[string]string
	// HomeFiles are written relative to HOME.
	HomeFiles map[string]string
}

func (s *state) apply(project, home string) error {
	for base, files := range map[string]map[string]string{project: s.Files, home: s.HomeFiles} {
		for name, data := range files {
			p := filepath.Join(base, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}
