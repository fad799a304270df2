// Package quality runs the project's formatter and linter on the file an
// edit just changed, and feeds what the linter found back to the model
// (MoAI SPEC-HOOK-001's post_tool handler).
//
// [Checker] runs on PostToolUse for Write, Edit and MultiEdit. With
// quality.format on, the file's formatter rewrites it in place; with
// quality.lint on, its linter or diagnostics command checks it. The
// findings reach the model as additionalContext, trimmed to [MaxFeedback]
// bytes; a clean file adds nothing.
//
// The tools come from a built-in table of well-known formatters and
// linters ([Builtin]), each used only where the project has it: gofmt and
// go vet beside a go.mod; ruff beside a pyproject.toml or ruff.toml;
// prettier, eslint and tsc from the project's node_modules/.bin; rustfmt
// beside a Cargo.toml; shfmt and shellcheck when installed. quality.commands
// adds more. A project config's commands reach the checker only where the
// user's own config trusts the project: config.LoadLayers leaves them out
// otherwise, and the runtime reports that once (a cloned repository must
// not be able to run commands on the next edit).
//
// Runs are bounded: no shell (argv only), [Budget] for all the tools of
// one edit (each stopped at the budget's end), output capped at
// [MaxOutput] per tool. A missing or hanging tool is reported once per
// session and never blocks the edit: the checker only ever adds context.
// A file type with no tool costs a map lookup.
package quality

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/runtime/journal"
	"github.com/hookwright/hookwright/internal/runtime/project"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
	"github.com/hookwright/hookwright/internal/runtime/statefile"
	"github.com/hookwright/hookwright/internal/runtime/toolinput"
)

// Bounds of one edit's checks.
const (
	// Budget is the time all the tools of one edit may take together
	// unless quality.timeout says otherwise; it stays under the runtime's
	// 5 s hook deadline (builtin.Deadline gives a longer budget its time).
	Budget = 4 * time.Second
	// MaxOutput caps what is kept of one tool's output.
	MaxOutput = 16 << 10
	// MaxFeedback caps the feedback the model reads.
	MaxFeedback = 4000
)

// FeedbackPrefix starts every feedback text, so that the journal can mark
// the call a quality warning (journal.QualityFeedbackPrefix).
const FeedbackPrefix = journal.QualityFeedbackPrefix

// StateFile records, per session, what was already reported once.
const StateFile = config.Dir + "/quality.json"

// Tool is one formatter or linter for a file type.
type Tool struct {
	// Name names it in feedback ("go vet").
	Name string
	// Format is true for a formatter (run first, in place).
	Format bool
	// Exts are the file extensions it takes (".go").
	Exts []string
	// Markers are project-root files, one of which must exist (go.mod);
	// none means the tool alone decides.
	Markers []string
	// Local are project-relative programs to prefer (node_modules/.bin/x);
	// when set and none exists, the tool is not used (a project that has
	// not installed it does not want it).
	Local []string
	// Program is looked up on PATH when Local is empty.
	Program string
	// Args builds the arguments for the file: abs is its absolute path,
	// rel its project-relative one.
	Args func(abs, rel string) []string
}

func fileArg(abs, _ string) []string { return []string{abs} }

// Builtin is the table of well-known tools.
var Builtin = []Tool{
	{Name: "gofmt", Format: true, Exts: []string{".go"}, Markers: []string{"go.mod"}, Program: "gofmt", Args: func(abs, _ string) []string { return []string{"-w", abs} }},
	{Name: "go vet", Exts: []string{".go"}, Markers: []string{"go.mod"}, Program: "go", Args: func(_, rel string) []string {
		return []string{"vet", "./" + filepath.ToSlash(filepath.Dir(rel))}
	}},
	{Name: "ruff format", Format: true, Exts: []string{".py"}, Markers: []string{"pyproject.toml", "ruff.toml", ".ruff.toml"}, Program: "ruff", Args: func(abs, _ string) []string { return []string{"format", abs} }},
	{Name: "ruff check", Exts: []string{".py"}, Markers: []string{"pyproject.toml", "ruff.toml", ".ruff.toml"}, Program: "ruff", Args: func(abs, _ string) []string { return []string{"check", abs} }},
	{Name: "prettier", Format: true, Exts: []string{".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs"}, Local: []string{"node_modules/.bin/prettier"}, Args: func(abs, _ string) []string { return []string{"--write", abs} }},
	{Name: "eslint", Exts: []string{".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs"}, Local: []string{"node_modules/.bin/eslint"}, Args: fileArg},
	{Name: "tsc --noEmit", Exts: []string{".ts", ".tsx"}, Markers: []string{"tsconfig.json"}, Local: []string{"node_modules/.bin/tsc"}, Args: func(string, string) []string { return []string{"--noEmit", "-p", "."} }},
	{Name: "rustfmt", Format: true, Exts: []string{".rs"}, Markers: []string{"Cargo.toml"}, Program: "rustfmt", Args: fileArg},
	{Name: "shfmt", Format: true, Exts: []string{".sh", ".bash"}, Program: "shfmt", Args: func(abs, _ string) []string { return []string{"-w", abs} }},
	{Name: "shellcheck", Exts: []string{".sh", ".bash"}, Program: "shellcheck", Args: fileArg},
}

// toolsFor returns the indexes in Builtin of the tools for ext.
func toolsFor(ext string) []int {
	var out []int
	for i, t := range Builtin {
		for _, e := range t.Exts {
			if e == ext {
				out = append(out, i)
			}
		}
	}
	return out
}

// Checker is the PostToolUse handler. It is registered twice: as the
// synchronous call every release runs, and as the asynchronous one
// (Async; "async": true in hooks.json, with asyncRewake from 2.1.64),
// which Claude Code runs in the background on releases that have async
// hooks ([DeliveryFor]). The synchronous call formats; it lints too where
// its registration has no asynchronous partner (Paired), or the release
// is known to run no hook in the background. The asynchronous call lints,
// within [AsyncBudget], and does nothing where the release is known to run
// it in the foreground.
type Checker struct {
	Config config.Quality
	// Dir is the project folder; empty means $CLAUDE_PROJECT_DIR or cwd.
	Dir string
	// Getenv reads the environment (main's project.Env); nil is empty.
	Getenv func(string) string
	// LookPath finds a program; nil is exec.LookPath.
	LookPath func(string) (string, error)
	// Release is the Claude Code release running the call (call.Running);
	// nil, or ok false, when it cannot be told.
	Release func() (hooks.Release, bool)
	// Async: this is the asynchronous registration (hookwright
	// PostToolUse --async).
	Async bool
	// Paired: the synchronous registration says an asynchronous one ships
	// beside it (hookwright PostToolUse --with-async). Only then does the
	// synchronous call leave linting to it; a registration written by hand
	// (a settings file copied from a source design) lints in the
	// foreground on every release.
	Paired bool
}

// Name names the handler in reports.
func (c Checker) Name() string {
	if c.Async {
		return "quality-async"
	}
	return "quality"
}

// Delivery is how the findings of the asynchronous check reach the model
// on a release.
type Delivery int

// The deliveries, as real releases were seen to behave (compat/FACTS.md,
// "Asynchronous hooks"; internal/live TestAsyncHookProbe and
// TestAsyncRewakeProbe).
const (
	// DeliverNone: the release runs no hook in the background (before
	// 2.1.15, or the release is not known): the synchronous call lints.
	DeliverNone Delivery = iota
	// DeliverOutput: the hook's JSON output (additionalContext and
	// systemMessage) is added to the model's next request after the hook
	// ends (2.1.15 to 2.1.44).
	DeliverOutput
	// DeliverPending: the release runs the hook in the background but
	// drops its output (2.1.45 to 2.1.63): the findings wait in
	// [PendingFile] for the session's next tool call ([Courier]).
	DeliverPending
	// DeliverRewake: asyncRewake (from 2.1.64): an exit 2's stderr reaches
	// the model at its next request, or wakes it when its turn is over.
	DeliverRewake
)

// asyncOutputDropped is the first release seen to drop an async hook's
// output: 2.1.44 delivers it, 2.1.45 does not (2.1.46 was never
// published); 2.1.47 to 2.1.118 drop it too, 2.1.139 delivers it again,
// but from 2.1.64 asyncRewake is used instead.
var asyncOutputDropped = hooks.Release{2, 1, 45}

// DeliveryFor is the delivery on release r (ok false: not known).
func DeliveryFor(r hooks.Release, ok bool) Delivery {
	asyncSince, _ := hooks.KeySince("handler", "async")
	rewakeSince, _ := hooks.KeySince("handler", "asyncRewake")
	switch {
	case !ok || r.Less(asyncSince):
		return DeliverNone
	case !r.Less(rewakeSince):
		return DeliverRewake
	case r.Less(asyncOutputDropped):
		return DeliverOutput
	}
	return DeliverPending
}

// delivery is how the asynchronous call's findings reach the model: by
// the release, and through the next tool call ([Courier]) where the
// release still cannot be told.
func (c Checker) delivery() Delivery {
	r, ok := c.release()
	if !ok {
		return DeliverPending
	}
	return DeliveryFor(r, true)
}

// run is one command to run on the file.
type run struct {
	name   string
	format bool
	argv   []string
}

// Handle serves [Checker.PostToolUse] and ignores every other event.
func (c Checker) Handle(ctx context.Context, in hooks.Input) (hooks.Result, error) {
	return hooks.For(c.PostToolUse).Handle(ctx, in)
}

// PostToolUse formats and lints the edited file.
func (c Checker) PostToolUse(ctx context.Context, ev *hooks.PostToolUse) (hooks.Result, error) {
	if !c.Config.Lint && !c.Config.Format {
		return hooks.Result{}, nil
	}
	switch ev.ToolName {
	case "Write", "Edit", "MultiEdit":
	default:
		return hooks.Result{}, nil
	}
	fields, err := toolinput.Fields(ev.ToolInput)
	if err != nil {
		return hooks.Result{}, nil
	}
	file := toolinput.String(fields, "file_path")
	ext := strings.ToLower(filepath.Ext(file))
	added := c.added(file)
	builtin := toolsFor(ext)
	if len(builtin) == 0 && len(added) == 0 {
		return hooks.Result{}, nil // no tool for this type: nothing to pay for
	}
	dir := project.Dir(c.Dir, ev, project.Getenv(c.Getenv))
	if dir == "" || file == "" {
		return hooks.Result{}, nil
	}
	if !filepath.IsAbs(file) {
		file = filepath.Join(ev.Cwd, file)
	}
	file = filepath.Clean(file)
	rel, err := filepath.Rel(dir, file)
	if err != nil || !filepath.IsLocal(rel) {
		return hooks.Result{}, nil // outside the project: not ours to rewrite
	}
	if fi, err := os.Lstat(file); err != nil || !fi.Mode().IsRegular() {
		return hooks.Result{}, nil
	}
	// Which passes this call runs: the synchronous one formats, and lints
	// where no asynchronous call will; the asynchronous one lints.
	// Which passes this call runs: the synchronous one formats, and lints
	// where no asynchronous partner will (no partner in the manifest, or a
	// release known to run no hook in the background); the asynchronous
	// one lints, unless the release is known to run it in the foreground.
	// A release not known yet (2.1.33 writes its version to the transcript
	// after the first tool call) is waited for a moment by the partner, in
	// the background, and counts as one that runs async hooks.
	var doFormat, doLint bool
	if c.Async {
		if r, ok := c.waitRelease(ctx); ok && DeliveryFor(r, true) == DeliverNone {
			return hooks.Result{}, nil // the release runs this call in the foreground: the synchronous one linted
		}
		doLint = c.Config.Lint
	} else {
		r, ok := c.release()
		doFormat = c.Config.Format
		doLint = c.Config.Lint && (!c.Paired || ok && DeliveryFor(r, true) == DeliverNone)
	}
	var notes []string
	var runs []run
	for _, i := range builtin {
		t := Builtin[i]
		if (t.Format && !doFormat) || (!t.Format && !doLint) {
			continue
		}
		if prog, ok := c.program(dir, t); ok {
			runs = append(runs, run{t.Name, t.Format, append([]string{prog}, t.Args(file, rel)...)})
		}
	}
	for _, q := range added {
		for _, r := range []struct {
			argv   []string
			format bool
		}{{q.Format, true}, {q.Lint, false}} {
			if len(r.argv) == 0 || (r.format && !doFormat) || (!r.format && !doLint) {
				continue
			}
			argv := make([]string, len(r.argv))
			for i, a := range r.argv {
				argv[i] = strings.ReplaceAll(a, "{file}", file)
			}
			runs = append(runs, run{r.argv[0], r.format, argv})
		}
	}
	findings := c.runAll(ctx, dir, ev.SessionID, runs, &notes)
	if len(findings) == 0 && len(notes) == 0 {
		return hooks.Result{}, nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s%s:", FeedbackPrefix, filepath.ToSlash(rel))
	for _, f := range findings {
		b.WriteString("\n" + f)
	}
	for _, n := range notes {
		b.WriteString("\n(note) " + n)
	}
	text := b.String()
	if len(text) > MaxFeedback {
		cut := MaxFeedback
		for cut > 0 && text[cut]&0xC0 == 0x80 {
			cut--
		}
		text = text[:cut] + "\n… (trimmed)"
	}
	if c.Async && c.delivery() == DeliverPending {
		return hooks.Result{}, c.leave(dir, ev.SessionID, text)
	}
	return hooks.Context(text), nil
}

// added are the configured commands whose glob matches the file.
func (c Checker) added(file string) []config.QualityCommand {
	var out []config.QualityCommand
	for _, q := range c.Config.Commands {
		if ok, _ := filepath.Match(q.Match, filepath.Base(file)); ok {
			out = append(out, q)
		}
	}
	return out
}

// program finds t's program for the project at dir.
func (c Checker) program(dir string, t Tool) (string, bool) {
	if len(t.Markers) > 0 {
		found := false
		for _, m := range t.Markers {
			if fi, err := os.Stat(filepath.Join(dir, m)); err == nil && fi.Mode().IsRegular() {
				found = true
				break
			}
		}
		if !found {
			return "", false
		}
	}
	if len(t.Local) > 0 {
		for _, l := range t.Local {
			p := filepath.Join(dir, filepath.FromSlash(l))
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && safepath.Within(dir, p) == nil {
				return p, true
			}
		}
		return "", false
	}
	look := c.LookPath
	if look == nil {
		look = exec.LookPath
	}
	p, err := look(t.Program)
	return p, err == nil
}

// runAll runs the commands, formatters first, under one budget; it returns
// the findings and adds what went wrong with a tool to notes.
func (c Checker) runAll(ctx context.Context, dir, session string, runs []run, notes *[]string) (findings []string) {
	budget := c.budget()
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	for _, pass := range []bool{true, false} {
		for _, r := range runs {
			if r.format != pass {
				continue
			}
			out, err := runOne(ctx, dir, r.argv)
			switch {
			case errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil:
				if c.once(dir, session, "timeout:"+r.name) {
					*notes = append(*notes, fmt.Sprintf("%s did not finish within the %v quality budget and was stopped (reported once per session)", r.name, budget))
				}
			case errors.Is(err, exec.ErrNotFound) || errors.Is(err, os.ErrNotExist) || errors.Is(err, os.ErrPermission):
				if c.once(dir, session, "missing:"+r.name) {
					*notes = append(*notes, fmt.Sprintf("%s could not be started: %v (reported once per session)", r.name, err))
				}
			case r.format && err != nil:
				findings = append(findings, fmt.Sprintf("%s failed: %s", r.name, strings.TrimSpace(out)))
			case !r.format && (err != nil || strings.TrimSpace(out) != ""):
				findings = append(findings, fmt.Sprintf("%s:\n%s", r.name, strings.TrimSpace(out)))
			}
		}
	}
	return findings
}

// release is the running release, ok false when it cannot be told.
func (c Checker) release() (hooks.Release, bool) {
	if c.Release == nil {
		return hooks.Release{}, false
	}
	return c.Release()
}

// releaseWait bounds how long the asynchronous call waits for the release
// to be told (the transcript's version), and releaseStep how often it
// looks. Variables for tests.
var (
	releaseWait = 3 * time.Second
	releaseStep = 100 * time.Millisecond
)

// waitRelease is the running release, looked for again for up to
// releaseWait while it cannot be told: the asynchronous call runs in the
// background where it matters, so the wait holds nobody.
func (c Checker) waitRelease(ctx context.Context) (hooks.Release, bool) {
	deadline := time.Now().Add(releaseWait)
	for {
		if r, ok := c.release(); ok || time.Now().After(deadline) {
			return r, ok
		}
		select {
		case <-ctx.Done():
			return c.release()
		case <-time.After(releaseStep):
		}
	}
}

// budget is the call's time budget: quality.timeout (else Budget) for the
// synchronous call, quality.async_timeout (else AsyncBudget) for the
// asynchronous one.
func (c Checker) budget() time.Duration {
	if c.Async {
		return AsyncBudgetOf(c.Config)
	}
	if t := c.Config.Timeout; t > 0 {
		return time.Duration(min(t, config.MaxQualityTimeout)) * time.Second
	}
	return Budget
}

// AsyncBudget is the time all the linters of one edit may take together
// in the asynchronous call, unless quality.async_timeout says otherwise: a
// cold go vet took 14 s on the build machine.
const AsyncBudget = 60 * time.Second

// AsyncBudgetOf is cfg's asynchronous budget.
func AsyncBudgetOf(cfg config.Quality) time.Duration {
	if t := cfg.AsyncTimeout; t > 0 {
		return time.Duration(min(t, config.MaxQualityAsyncTimeout)) * time.Second
	}
	return AsyncBudget
}

// PendingFile holds, per session, the findings of asynchronous checks on
// releases that drop an async hook's output (DeliverPending), until the
// session's next tool call hands them over ([Courier]).
const PendingFile = config.Dir + "/quality-pending.json"

// maxPending bounds what one session keeps waiting.
const maxPending = 4 * MaxFeedback

// leave adds text to session's pending findings.
func (c Checker) leave(dir, session, text string) error {
	p, err := project.Path(dir, PendingFile)
	if err != nil {
		return err
	}
	return statefile.Update(p, func(old []byte) ([]byte, error) {
		st := map[string]string{}
		if len(old) > 0 && json.Unmarshal(old, &st) != nil {
			st = map[string]string{}
		}
		if len(st) >= maxSessions {
			clear(st)
		}
		next := strings.TrimPrefix(st[session]+"\n\n"+text, "\n\n")
		if len(next) > maxPending {
			next = next[len(next)-maxPending:]
		}
		st[session] = next
		return json.Marshal(st)
	})
}

// Courier is the PostToolUse handler, for every tool, that hands the
// session the findings an asynchronous check left pending (on releases
// that drop an async hook's output): at the session's next tool call.
// Register it for PostToolUse with the matcher "".
type Courier struct {
	Config config.Quality
	// Dir is the project folder; empty means $CLAUDE_PROJECT_DIR or cwd.
	Dir    string
	Getenv func(string) string
}

// Name names the handler in reports.
func (Courier) Name() string { return "quality-courier" }

// Handle serves [Courier.PostToolUse] and ignores every other event.
func (k Courier) Handle(ctx context.Context, in hooks.Input) (hooks.Result, error) {
	return hooks.For(k.PostToolUse).Handle(ctx, in)
}

// PostToolUse hands over and forgets the session's pending findings. A
// project without any costs one stat.
func (k Courier) PostToolUse(_ context.Context, ev *hooks.PostToolUse) (hooks.Result, error) {
	if !k.Config.Lint {
		return hooks.Result{}, nil
	}
	dir := project.Dir(k.Dir, ev, project.Getenv(k.Getenv))
	p, err := project.Path(dir, PendingFile)
	if err != nil {
		return hooks.Result{}, nil
	}
	if _, err := os.Lstat(p.String()); err != nil {
		return hooks.Result{}, nil
	}
	var text string
	err = statefile.Update(p, func(old []byte) ([]byte, error) {
		st := map[string]string{}
		if len(old) == 0 || json.Unmarshal(old, &st) != nil || st[ev.SessionID] == "" {
			return nil, statefile.ErrNoChange
		}
		text = st[ev.SessionID]
		delete(st, ev.SessionID)
		return json.Marshal(st)
	})
	if err != nil || text == "" {
		return hooks.Result{}, err
	}
	return hooks.Context(text), nil
}

// runOne runs argv in dir without a shell, its output capped.
func runOne(ctx context.Context, dir string, argv []string) (string, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	var out capped
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = 200 * time.Millisecond
	err := cmd.Run()
	if ctx.Err() != nil {
		return out.String(), ctx.Err()
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return out.String(), fmt.Errorf("exit %d", exit.ExitCode())
	}
	return out.String(), err
}

// capped keeps the first MaxOutput bytes written to it.
type capped struct{ b bytes.Buffer }

func (c *capped) Write(p []byte) (int, error) {
	if room := MaxOutput - c.b.Len(); room > 0 {
		c.b.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (c *capped) String() string { return c.b.String() }

// maxSessions bounds the sessions the state file remembers, and maxKeys
// what it remembers of one.
const (
	maxSessions = 200
	maxKeys     = 100
)

// once reports whether key is new for session (and records it); an
// unreadable state reports it again rather than never.
func (c Checker) once(dir, session, key string) bool {
	p, err := project.Path(dir, StateFile)
	if err != nil {
		return true
	}
	first := false
	err = statefile.Update(p, func(old []byte) ([]byte, error) {
		st := map[string][]string{}
		if len(old) > 0 {
			if json.Unmarshal(old, &st) != nil {
				st = map[string][]string{}
			}
		}
		for _, k := range st[session] {
			if k == key {
				return nil, statefile.ErrNoChange
			}
		}
		if len(st) >= maxSessions {
			clear(st)
		}
		st[session] = append(st[session], key)
		if n := len(st[session]); n > maxKeys {
			st[session] = st[session][n-maxKeys:]
		}
		first = true
		return json.Marshal(st)
	})
	return first || err != nil
}
