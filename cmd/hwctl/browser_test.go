package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/hookwright/hookwright/internal/runtime/journal"
	"github.com/hookwright/hookwright/internal/state/pdca"
	"github.com/hookwright/hookwright/internal/state/work"
)

var screenshot = flag.String("screenshot", "", "write a PNG of the dashboard to this file")

// chromium finds Debian's chromium (or another Chrome) on PATH.
func chromium() (string, error) {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New("no chromium on PATH (apt-get install chromium)")
}

// startServe runs a real `hwctl serve` on a free loopback port and returns
// the dashboard's URL.
func startServe(t testing.TB, bin, project string) string {
	t.Helper()
	cmd := exec.Command(bin, "serve", "--dir", project, "--addr", "127.0.0.1:0", "--poll", "50ms")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("hwctl serve printed no URL: %v", err)
	}
	i := strings.Index(line, "http://")
	if i < 0 {
		t.Fatalf("hwctl serve: %q", line)
	}
	return strings.TrimSpace(line[i:])
}

// TestBrowserSeesBlockLive opens the dashboard of a real `hwctl serve` in
// headless Chromium, runs a real `hookwright PreToolUse` call that blocks
// a force-push (the built binary through sh -c, the payload on stdin, as
// Claude Code runs it), and checks that the block shows on the open page,
// highlighted with its reason, without a reload. How long it took is
// logged, not asserted: a loaded CI machine must not fail it.
func TestBrowserSeesBlockLive(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tier: builds binaries and starts Chromium; skipped with -short")
	}
	browser, err := chromium()
	if err != nil {
		t.Skip("browser tier:", err)
	}
	tmp := t.TempDir()
	hookwright, hwctl := builtBinaries(t)
	project := filepath.Join(tmp, "project")
	os.MkdirAll(project, 0o755)
	seedProject(t, project)
	url := startServe(t, hwctl, project)

	ctx := newBrowser(t, browser, tmp)
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS("#feed-rows tr"))); err != nil {
		t.Fatalf("open the page: %v", err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.getElementById("status").textContent === "live"`,
		chromedp.WithPollingTimeout(60*time.Second))); err != nil {
		t.Fatalf("the page's event stream never went live: %v", err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.notReloaded = true`)); err != nil {
		t.Fatal(err)
	}

	// The real hook call, as hooks.json has Claude Code run it.
	payload := `{"session_id":"browser-test-1","cwd":"` + project + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push --force origin main"}}`
	hook := exec.Command("sh", "-c", `"`+hookwright+`" PreToolUse --proto 2.1.33`)
	hook.Stdin = strings.NewReader(payload)
	hook.Env = append(os.Environ(), "CLAUDE_PROJECT_DIR="+project)
	var hookErr strings.Builder
	hook.Stderr = &hookErr
	err = hook.Run()
	called := time.Now()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 {
		t.Fatalf("hookwright PreToolUse: %v, want exit 2 (a block); stderr %q", err, hookErr.String())
	}

	const seen = `(() => { for (const tr of document.querySelectorAll("#feed-rows tr.block")) {
		if (tr.textContent.includes("browser-")) return tr.querySelector(".reason").textContent; } return ""; })()`
	var reason string
	var waited time.Duration
	for {
		if reason, err = chromedp.Run(ctx, chromedp.Evaluate[string](seen)); err != nil {
			t.Fatal(err)
		}
		waited = time.Since(called)
		if reason != "" || waited > 60*time.Second {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if reason == "" {
		t.Fatalf("the block never showed on the page (waited %s)", waited)
	}
	if !strings.Contains(reason, "force") {
		t.Errorf("the block's reason on the page is %q", reason)
	}
	if notReloaded, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.notReloaded === true`)); err != nil || !notReloaded {
		t.Fatalf("the page reloaded (%v)", err)
	}
	t.Logf("the block showed on the open page %s after the hook exited", waited.Round(time.Millisecond))

	// The other views show the seeded state.
	for _, v := range []struct{ hash, probe, want string }{
		{"#sessions", `document.getElementById("session-rows").textContent`, "7c1e9a40"},
		{"#sessions", `document.getElementById("timeline-rows").textContent`, "git push --force"},
		{"#pdca", `document.querySelector('[data-phase="Do"]').textContent`, "parser"},
		{"#pdca", `document.querySelector('[data-phase="Check"]').textContent`, "cli-ux"},
		{"#work", `document.getElementById("work-rows").textContent`, "parser"},
		{"#team", `document.getElementById("team-rows").textContent`, "bobidleTeammateIdle"},
		{"#team", `document.getElementById("team-rows").textContent`, "carolactivePostToolUse"},
	} {
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.hash = "`+v.hash+`"`)); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](v.probe+`.includes(`+strconv.Quote(v.want)+`)`,
			chromedp.WithPollingTimeout(60*time.Second))); err != nil {
			got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](v.probe))
			t.Errorf("%s: no %q in %q", v.hash, v.want, got)
		}
		if os.Getenv("HWCTL_VIEW_SHOTS") != "" {
			png, _ := chromedp.Run(ctx, chromedp.FullScreenshot(100))
			os.WriteFile(filepath.Join(os.Getenv("HWCTL_VIEW_SHOTS"), v.hash[1:]+".png"), png, 0o644)
		}
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.hash = "#feed"`)); err != nil {
		t.Fatal(err)
	}

	if *screenshot != "" {
		chromedp.Do(ctx, chromedp.Sleep(1500*time.Millisecond)) // let the fresh-row highlight fade
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(*screenshot, png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// newBrowser starts headless Chromium with a fresh profile under dir and
// returns a tab's context, ended with the test (5 minutes at most).
func newBrowser(tb testing.TB, browser, dir string) context.Context {
	return newBrowserFor(tb, browser, dir, 5*time.Minute)
}

// newBrowserFor is newBrowser with a time limit of its own.
func newBrowserFor(tb testing.TB, browser, dir string, limit time.Duration) context.Context {
	opts := append(chromedp.DefaultExecAllocatorOptions[:0],
		chromedp.ExecPath(browser),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-default-browser-check", true),
		chromedp.UserDataDir(filepath.Join(dir, "chromium-profile")),
		chromedp.WindowSize(1400, 900),
		// Chromium keeps its crash reports under $XDG_CONFIG_HOME/chromium
		// whatever the profile: the test's folder, not the user's home.
		chromedp.Env("XDG_CONFIG_HOME="+filepath.Join(dir, "chromium-config"), "XDG_CACHE_HOME="+filepath.Join(dir, "chromium-cache")),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, limit)
	tb.Cleanup(func() { cancelTimeout(); cancel(); cancelAlloc() })
	return ctx
}

// seedProject gives the dashboard something to show: a few sessions'
// calls, a PDCA feature, a work unit and a team.
func seedProject(t *testing.T, project string) {
	t.Helper()
	now := time.Now().Add(-10 * time.Minute)
	calls := []journal.Entry{
		{Session: "7c1e9a40-aa", Event: "SessionStart", Target: "startup"},
		{Session: "7c1e9a40-aa", Event: "PreToolUse", Tool: "Bash", Target: "Bash", Decision: "allow", Micros: 1200},
		{Session: "7c1e9a40-aa", Event: "PostToolUse", Tool: "Bash", Target: "Bash", ToolMillis: 830, Outcome: "success", Micros: 900},
		{Session: "7c1e9a40-aa", Event: "PreToolUse", Tool: "Edit", Target: "Edit", Decision: "block", Handler: "work", Exit: 2, Micros: 1500,
			Reason: "hookwright work: this edit belongs to no active work unit. Start one: hwctl work start <name>"},
		{Session: "7c1e9a40-aa", Event: "TaskCompleted", Agent: "ann", Team: "parser-team", Target: "3", Decision: "block", Handler: "artifacts", Exit: 2, Micros: 2100,
			Reason: "hookwright artifacts: task 3 needs docs/plan/parser.md before it can complete"},
		{Session: "7c1e9a40-aa", Event: "TeammateIdle", Agent: "bob", Team: "parser-team", Micros: 800},
		{Session: "7c1e9a40-aa", Event: "SubagentStop", Agent: "Explore", Target: "Explore", Micros: 700},
		{Session: "52be03f1-cc", Event: "SessionStart", Target: "resume"},
		{Session: "52be03f1-cc", Event: "UserPromptSubmit", Micros: 600},
		{Session: "52be03f1-cc", Event: "PreToolUse", Tool: "Write", Target: "Write", Decision: "allow", Micros: 1100},
	}
	for i, e := range calls {
		e.Time, e.Band = now.Add(time.Duration(i)*37*time.Second), "2.1.33"
		if err := journal.Append(project, e); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Join(project, ".hookwright/sessions"), 0o755)
	fp := fmt.Sprintf(`{"session_id":"7c1e9a40-aa","started":%q,"starts":[{"source":"startup","at":%q}],"claude_version":"2.1.33",
		"git_head":"4f2c9e1d0b7a","git_branch":"main","hookwright_version":"0.4.0","model":"claude-sonnet-4-5"}`,
		now.Format(time.RFC3339), now.Format(time.RFC3339))
	os.WriteFile(filepath.Join(project, ".hookwright/sessions/7c1e9a40-aa.json"), []byte(fp), 0o644)
	os.MkdirAll(filepath.Join(project, ".hookwright/team"), 0o755)
	os.WriteFile(filepath.Join(project, ".hookwright/team/parser-team.json"), []byte(fmt.Sprintf(
		`{"team":"parser-team","teammates":{"carol":{"status":"active","last_event":"PostToolUse","last_seen":%q,"open_task":"5"}}}`, now.Format(time.RFC3339))), 0o644)
	st := pdca.State{Features: map[string]*pdca.Feature{
		"parser":  {Phase: "Do", Iteration: 1, Done: map[string]int{"Plan": 2, "Do": 1}, Updated: now},
		"cli-ux":  {Phase: "Check", Iteration: 1, Done: map[string]int{"Plan": 1, "Do": 3, "Check": 1}, Updated: now},
		"release": {Phase: "Plan", Iteration: 0, Done: map[string]int{"Plan": 1}, Updated: now},
	}}
	data, _ := json.Marshal(st)
	if err := os.WriteFile(filepath.Join(project, ".hookwright/pdca.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	work.Start(project, "parser", now)
}
