package docs

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/hookwright/hookwright/internal/live"
)

// quickStart is the README's quick start: the commands of its blocks, in
// order.
func quickStart(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, c := range commands(t, "README.md") {
		out = append(out, c.Text)
	}
	text := read(t, "README.md")
	i, j := strings.Index(text, "\n## Quick start"), strings.Index(text, "\n## Install")
	if i < 0 || j < i {
		t.Fatal("the README has no ## Quick start before ## Install")
	}
	var qs []string
	for _, c := range out {
		if strings.Contains(text[i:j], c) || strings.Contains(strings.Join(strings.Fields(text[i:j]), " "), c) {
			qs = append(qs, c)
		}
	}
	return qs
}

// TestQuickStart walks the README's quick start as a newcomer does, on a
// fresh clone of this repository: make demo KEEP=1 runs a real Claude Code
// session and keeps its project; the command it ends with (the README
// shows its shape) serves the dashboard; and the real headless Chromium
// opens it and sees the session's force push blocked by its rule. The
// clone line is the README's with a local clone for GitHub; the server
// gets --addr 127.0.0.1:0 so that a busy 7466 cannot fail it. The install
// steps after it need Claude Code with a model: internal/live
// TestPluginMarketplaceInstall runs them.
func TestQuickStart(t *testing.T) {
	live.Available(t)
	browser := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			browser = p
			break
		}
	}
	if browser == "" {
		t.Skip("no chromium on PATH (apt-get install chromium)")
	}
	steps := quickStart(t)
	var serveLine *regexp.Regexp
	demo := false
	for _, s := range steps {
		if s == "make demo KEEP=1" {
			demo = true
		}
		if strings.HasPrefix(s, "go run ./cmd/hwctl serve --dir ") {
			serveLine = regexp.MustCompile("^" + regexp.QuoteMeta("go run ./cmd/hwctl serve --dir ") + `(\S+)$`)
		}
	}
	if !demo || serveLine == nil || !strings.HasPrefix(steps[0], "git clone ") {
		t.Fatalf("the quick start is not clone, make demo KEEP=1, go run ./cmd/hwctl serve --dir …: %q", steps)
	}

	// A fresh clone of what is committed here.
	clone := filepath.Join(t.TempDir(), "hookwright")
	if out, err := exec.Command("git", "clone", "-q", root, clone).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	cache, err := live.CacheDir()
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), live.CacheEnv+"="+cache, "GOFLAGS=-buildvcs=false")

	// make demo KEEP=1
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	demoCmd := exec.CommandContext(ctx, "make", "--no-print-directory", "demo", "KEEP=1")
	demoCmd.Dir, demoCmd.Env = clone, env
	out, err := demoCmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make demo KEEP=1: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	last := lines[len(lines)-1]
	m := serveLine.FindStringSubmatch(last)
	if m == nil {
		t.Fatalf("make demo KEEP=1 ended with %q, not the README's go run ./cmd/hwctl serve --dir …\n%s", last, out)
	}
	project := m[1]
	t.Cleanup(func() { os.RemoveAll(project) })
	t.Logf("the demo kept %s", project)

	// The command it printed, in the clone.
	serve := exec.Command("sh", "-c", last+" --addr 127.0.0.1:0")
	serve.Dir, serve.Env = clone, env
	serve.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, err := serve.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	serve.Stderr = os.Stderr
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(-serve.Process.Pid, syscall.SIGKILL); serve.Wait() })
	urls := make(chan string, 1)
	go func() {
		s := bufio.NewScanner(stdout)
		for s.Scan() {
			if i := strings.Index(s.Text(), "http://127.0.0.1:"); i >= 0 {
				urls <- strings.Fields(s.Text()[i:])[0]
				return
			}
		}
		close(urls)
	}()
	var url string
	select {
	case url = <-urls:
	case <-time.After(3 * time.Minute):
		t.Fatal("the dashboard printed no URL")
	}
	if url == "" {
		t.Fatal("the dashboard ended without a URL")
	}

	// The real Chromium opens it.
	tmp := t.TempDir()
	opts := append(chromedp.DefaultExecAllocatorOptions[:0], chromedp.ExecPath(browser), chromedp.Flag("headless", true), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.Flag("disable-background-networking", true), chromedp.UserDataDir(filepath.Join(tmp, "profile")),
		chromedp.WindowSize(1400, 900), chromedp.Env("XDG_CONFIG_HOME="+filepath.Join(tmp, "config"), "XDG_CACHE_HOME="+filepath.Join(tmp, "cache")))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	bctx, cancelTab := chromedp.NewContext(actx)
	defer cancelTab()
	bctx, cancelTimeout := context.WithTimeout(bctx, 3*time.Minute)
	defer cancelTimeout()
	if err := chromedp.Do(bctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(bctx, chromedp.Poll[bool](`document.getElementById("status").textContent === "live" &&
		[...document.querySelectorAll("#feed-rows tr.block")].some((tr) => tr.textContent.includes("git push --force") && tr.textContent.includes("git-force-push"))`,
		chromedp.WithPollingTimeout(90*time.Second))); err != nil {
		feed, _ := chromedp.Run(bctx, chromedp.Evaluate[string](`document.body.innerText`))
		t.Fatalf("the dashboard does not show the demo's blocked force push: %v\n%s", err, feed)
	}
	if shots := os.Getenv("HOOKWRIGHT_QUICKSTART_SHOT"); shots != "" {
		png, err := chromedp.Run(bctx, chromedp.FullScreenshot(100))
		if err == nil {
			err = os.WriteFile(shots, png, 0o644)
		}
		if err != nil && !errors.Is(err, context.Canceled) {
			t.Error(err)
		}
	}
}
