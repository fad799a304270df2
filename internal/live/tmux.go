package live

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// ErrNoTmux is returned by RunInteractive when tmux is not installed.
var ErrNoTmux = errors.New("live: tmux not found")

// InteractiveOptions describes one interactive Claude Code session, run in
// a private tmux server: the prompt is typed into the TUI, and the session
// is ended (the tmux server killed) once Done reports true or the timeout
// passes.
type InteractiveOptions struct {
	// Claude is the executable, from Install.
	Claude string
	// Prompt is typed into the input box once the TUI is ready.
	Prompt string
	// BaseURL is the model API, e.g. a modelapi.Server's URL.
	BaseURL string
	// Args are the command-line arguments, e.g. --plugin-dir DIR,
	// --allowedTools A,B, --permission-mode default, --session-id UUID.
	Args []string
	// Env holds extra KEY=value pairs; they override the defaults.
	Env []string
	// Home and Dir are as in Options: empty means a fresh temporary folder.
	Home, Dir string
	// Ready matches the pane once the TUI accepts input; nil means
	// DefaultReady.
	Ready *regexp.Regexp
	// Done is polled twice a second after the prompt was sent; the session
	// ends when it returns true. Nil means run until the timeout.
	Done func() bool
	// Timeout is the hard limit on the session; zero means DefaultTimeout.
	Timeout time.Duration
}

// interactiveEnv is added to every interactive session. Prompt suggestions
// are off: 2.1.33 otherwise asks the model "[SUGGESTION MODE: ...]" with
// tools offered after each turn, which the stand-in would take for the main
// conversation.
var interactiveEnv = []string{"CLAUDE_CODE_ENABLE_PROMPT_SUGGESTION=false"}

// DefaultReady matches the input prompt of the TUI: "❯" (2.1.330) or ">"
// at the start of a line, followed by a space or a no-break space (2.1.330
// draws "❯" and U+00A0).
var DefaultReady = regexp.MustCompile(`(?m)^\s*[❯>](\s|\x{00a0}|$)`)

// RunInteractive runs one interactive session under tmux. HOME gets a
// .claude.json (unless one exists) that skips the first-run dialogs:
// onboarding done, the project folder trusted, the API key approved.
// The Result's Stdout is the last capture of the pane, with its scrollback;
// ErrTimeout is returned (wrapped) when Done never reported true.
func RunInteractive(ctx context.Context, opts InteractiveOptions) (Result, error) {
	var res Result
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		return res, ErrNoTmux
	}
	if res.Home, err = scratch(opts.Home, "hookwright-home-"); err != nil {
		return res, err
	}
	if res.Dir, err = scratch(opts.Dir, "hookwright-project-"); err != nil {
		return res, err
	}
	if err := writeFirstRunState(res.Home, res.Dir); err != nil {
		return res, err
	}
	timeout := opts.Timeout
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	sockDir, err := os.MkdirTemp("", "hwtmux-") // short: socket paths are limited
	if err != nil {
		return res, fmt.Errorf("live: tmux socket folder: %w", err)
	}
	defer os.RemoveAll(sockDir)
	// The server starts with the session's clean environment, which every
	// pane inherits (tmux adds TMUX and TMUX_PANE): claude, and the tmux
	// teammates it may split off into panes of their own.
	t := tmuxServer{bin: tmux, socket: filepath.Join(sockDir, "s"),
		env: append(sessionEnv(res.Home, Options{BaseURL: opts.BaseURL, Env: append(interactiveEnv, opts.Env...)}), "TERM=xterm-256color")}
	command := shellJoin(append([]string{opts.Claude}, opts.Args...))
	// claude is the pane's process; the pane keeps its last screen after
	// claude exits, for the capture.
	if out, err := t.run("-f", os.DevNull, "new-session", "-d", "-s", "hw", "-x", "200", "-y", "50", "-c", res.Dir,
		"exec "+command, ";", "set-option", "-t", "hw", "remain-on-exit", "on"); err != nil {
		return res, fmt.Errorf("live: tmux new-session: %w\n%s", err, out)
	}
	defer t.stop()

	ready := opts.Ready
	if ready == nil {
		ready = DefaultReady
	}
	runErr := t.waitFor(ctx, func() bool { return ready.MatchString(t.capture()) })
	if runErr == nil {
		runErr = t.typePrompt(ctx, opts.Prompt)
	}
	if runErr == nil && opts.Done != nil {
		runErr = t.waitFor(ctx, opts.Done)
	} else if runErr == nil {
		<-ctx.Done()
	}
	res.Stdout = t.capture()
	res.ExitCode = -1
	res.DebugLog = readDebugLog(res.Home)
	if errors.Is(runErr, context.DeadlineExceeded) {
		return res, fmt.Errorf("%w: %w\nlast screen:\n%s", ErrTimeout, runErr, res.Stdout)
	}
	return res, runErr
}

// tmuxServer is one private tmux server, addressed by its socket, started
// with env.
type tmuxServer struct {
	bin, socket string
	env         []string
}

// run runs one tmux command against the server.
func (t tmuxServer) run(args ...string) ([]byte, error) {
	cmd := exec.Command(t.bin, append([]string{"-S", t.socket}, args...)...)
	cmd.Env = t.env
	return cmd.CombinedOutput()
}

// typePrompt types prompt into the input box and submits it. Keys sent
// while the TUI is still starting are dropped (seen on 2.1.330), so the
// text is typed again until the pane shows it.
func (t tmuxServer) typePrompt(ctx context.Context, prompt string) error {
	for attempt := 0; ; attempt++ {
		if _, err := t.run("send-keys", "-t", "hw", "-l", prompt); err != nil {
			return fmt.Errorf("live: tmux send-keys: %w", err)
		}
		shown, cancel := context.WithTimeout(ctx, 2*time.Second)
		err := t.waitFor(shown, func() bool { return strings.Contains(t.capture(), prompt) })
		cancel()
		if err == nil {
			break
		}
		if ctx.Err() != nil || attempt == 10 {
			return fmt.Errorf("live: the typed prompt never showed in the pane: %w", err)
		}
		_, _ = t.run("send-keys", "-t", "hw", "C-u") // clear a partial line before retyping
	}
	time.Sleep(500 * time.Millisecond) // let the TUI take the text before Enter
	_, err := t.run("send-keys", "-t", "hw", "Enter")
	return err
}

// stop ends the session: the server is killed, which hangs up on claude
// and on any teammate it started in a pane of its own, and stop waits (up
// to 15 s, then kills them) until every pane's process has exited, so
// nothing writes into HOME or the project after RunInteractive returns.
func (t tmuxServer) stop() {
	out, _ := t.run("list-panes", "-a", "-F", "#{pane_pid}")
	var pids []int
	for _, field := range strings.Fields(string(out)) {
		if pid, err := strconv.Atoi(field); err == nil && pid > 0 {
			pids = append(pids, pid)
		}
	}
	// A tmux teammate is a child of its pane's shell: wait for it too.
	pids = append(pids, descendants(pids)...)
	_, _ = t.run("kill-server") // best effort: the server may be gone
	deadline := time.Now().Add(15 * time.Second)
	for _, pid := range pids {
		proc, err := os.FindProcess(pid)
		if err != nil {
			continue
		}
		for !exited(proc) && time.Now().Before(deadline) {
			time.Sleep(200 * time.Millisecond)
		}
		if !exited(proc) {
			_ = proc.Kill()
		}
	}
}

// descendants returns the processes below roots, read from /proc (none
// where there is no /proc).
func descendants(roots []int) []int {
	children := map[int][]int{}
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, f := range stats {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		s := string(data)
		i := strings.LastIndexByte(s, ')') // "pid (comm) state ppid ..."
		fields := strings.Fields(s[i+1:])
		pid, err1 := strconv.Atoi(strings.Fields(s)[0])
		if i < 0 || len(fields) < 2 || err1 != nil {
			continue
		}
		if ppid, err := strconv.Atoi(fields[1]); err == nil {
			children[ppid] = append(children[ppid], pid)
		}
	}
	var out []int
	queue := append([]int(nil), roots...)
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p] {
			out = append(out, c)
			queue = append(queue, c)
		}
	}
	return out
}

// exited reports whether proc is gone or a zombie: once the tmux server is
// dead, nobody may reap claude.
func exited(proc *os.Process) bool {
	if proc.Signal(syscall.Signal(0)) != nil {
		return true
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", proc.Pid))
	if err != nil {
		return false
	}
	i := strings.LastIndexByte(string(stat), ')') // the state follows the command name
	return i >= 0 && i+2 < len(stat) && stat[i+2] == 'Z'
}

// capture returns the pane's text with its scrollback, "" on error.
func (t tmuxServer) capture() string {
	out, err := t.run("capture-pane", "-p", "-J", "-S", "-2000", "-t", "hw")
	if err != nil {
		return ""
	}
	return string(out)
}

// waitFor polls cond twice a second until it holds or ctx ends.
func (t tmuxServer) waitFor(ctx context.Context, cond func() bool) error {
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
	return nil
}

// writeFirstRunState writes home/.claude.json so the TUI opens straight at
// the input box. Seen on 2.1.330: with hasCompletedOnboarding, the project
// trusted (projects[dir].hasTrustDialogAccepted) and the key's last 20
// characters in customApiKeyResponses.approved, no dialog is shown. An
// existing file is left alone.
func writeFirstRunState(home, dir string) error {
	path := filepath.Join(home, ".claude.json")
	if _, err := os.Stat(path); err == nil {
		return nil
	}
	state := map[string]any{
		"hasCompletedOnboarding": true,
		"theme":                  "dark",
		"numStartups":            5,
		"customApiKeyResponses":  map[string]any{"approved": []string{APIKey}, "rejected": []string{}},
		"projects": map[string]any{dir: map[string]any{
			"hasTrustDialogAccepted": true, "hasCompletedProjectOnboarding": true, "allowedTools": []string{},
		}},
	}
	data, err := json.MarshalIndent(state, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		return fmt.Errorf("live: first-run state: %w", err)
	}
	return nil
}

// shellJoin quotes words for sh.
func shellJoin(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return strings.Join(q, " ")
}
