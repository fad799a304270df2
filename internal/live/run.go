package live

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// DefaultTimeout bounds a run whose Options.Timeout is zero.
const DefaultTimeout = 2 * time.Minute

// APIKey is the ANTHROPIC_API_KEY every session gets; the stand-in ignores
// it.
const APIKey = "test"

// ErrTimeout is returned (wrapped) when a run hit its hard timeout.
var ErrTimeout = errors.New("live: claude timed out")

// Options describes one headless Claude Code session.
type Options struct {
	// Claude is the executable, from Install.
	Claude string
	// Prompt is the user prompt passed with -p.
	Prompt string
	// BaseURL is the model API, e.g. a modelapi.Server's URL.
	BaseURL string
	// PluginDirs are passed as --plugin-dir, one flag each.
	PluginDirs []string
	// AllowedTools are passed as one comma-separated --allowedTools value.
	// As root, --dangerously-skip-permissions is refused, so list every tool
	// the script calls.
	AllowedTools []string
	// Debug adds --debug, which makes Claude Code write the debug log.
	Debug bool
	// Env holds extra KEY=value pairs, e.g. CLAUDE_CODE_ENABLE_TASKS=1. They
	// override the defaults.
	Env []string
	// Home is the session's HOME; Dir is its working directory (the
	// project). Empty means a fresh temporary folder, returned in Result and
	// left for the caller to delete.
	Home, Dir string
	// Timeout is the hard limit on the run; zero means DefaultTimeout.
	Timeout time.Duration
	// Args are extra command-line arguments after the others, e.g.
	// "--continue" to go on with the project's last session.
	Args []string
}

// Result is what a session left behind.
type Result struct {
	Stdout, Stderr string
	// ExitCode is the process exit code, -1 when it was killed.
	ExitCode int
	// DebugLog is the text of every $HOME/.claude/debug/*.txt, in name order.
	DebugLog string
	// Home and Dir are the folders the session ran with.
	Home, Dir string
}

// Run runs one `claude -p` session and waits for it. A non-zero exit is not
// an error: it is reported in Result.ExitCode. The error is for runs that
// could not start or hit the timeout (ErrTimeout); the Result is filled as
// far as possible in both cases.
func Run(ctx context.Context, opts Options) (Result, error) {
	var res Result
	var err error
	if res.Home, err = scratch(opts.Home, "hookwright-home-"); err != nil {
		return res, err
	}
	if res.Dir, err = scratch(opts.Dir, "hookwright-project-"); err != nil {
		return res, err
	}
	timeout := opts.Timeout
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	cmd := exec.CommandContext(ctx, opts.Claude, args(opts)...)
	cmd.Dir = res.Dir
	cmd.Env = sessionEnv(res.Home, opts)
	cmd.Stdin = nil // /dev/null: -p must never wait for input
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	killGroup(cmd)
	cmd.WaitDelay = 5 * time.Second // hooks may keep the pipes open

	runErr := cmd.Run()
	res.Stdout, res.Stderr = stdout.String(), stderr.String()
	res.ExitCode = exitCode(cmd)
	res.DebugLog = readDebugLog(res.Home)
	return res, runError(ctx, runErr)
}

// args builds the command line. The prompt follows -p directly because
// --plugin-dir and --allowedTools are variadic on older releases and would
// swallow a trailing prompt.
func args(opts Options) []string {
	a := []string{"-p", opts.Prompt}
	for _, d := range opts.PluginDirs {
		a = append(a, "--plugin-dir", d)
	}
	if len(opts.AllowedTools) > 0 {
		a = append(a, "--allowedTools", strings.Join(opts.AllowedTools, ","))
	}
	if opts.Debug {
		a = append(a, "--debug")
	}
	return append(a, opts.Args...)
}

// sessionEnv is baseEnv plus the model API settings and opts.Env; later
// entries win, as exec does for duplicates.
func sessionEnv(home string, opts Options) []string {
	env := append(baseEnv(home), "ANTHROPIC_BASE_URL="+opts.BaseURL, "ANTHROPIC_API_KEY="+APIKey)
	return append(env, opts.Env...)
}

// scratch returns dir, creating a temporary folder when it is empty.
func scratch(dir, pattern string) (string, error) {
	if dir != "" {
		return dir, os.MkdirAll(dir, 0o755)
	}
	d, err := os.MkdirTemp("", pattern)
	if err != nil {
		return "", fmt.Errorf("live: scratch folder: %w", err)
	}
	return d, nil
}

// exitCode returns the exit code of a finished command, -1 if it was killed
// or never ran.
func exitCode(cmd *exec.Cmd) int {
	if cmd.ProcessState == nil {
		return -1
	}
	return cmd.ProcessState.ExitCode()
}

// runError turns the result of cmd.Run into Run's error.
func runError(ctx context.Context, err error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("%w: %w", ErrTimeout, ctx.Err())
	}
	var exit *exec.ExitError
	if err == nil || errors.As(err, &exit) {
		return nil
	}
	return fmt.Errorf("live: run claude: %w", err)
}

// readDebugLog concatenates the session debug logs under home.
func readDebugLog(home string) string {
	files, _ := filepath.Glob(filepath.Join(home, ".claude", "debug", "*.txt"))
	sort.Strings(files)
	var b strings.Builder
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue // a log we cannot read is as good as absent
		}
		b.Write(data)
	}
	return b.String()
}
