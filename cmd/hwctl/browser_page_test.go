package main

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/hookwright/hookwright/internal/otlpexport/otlptest"
	"github.com/hookwright/hookwright/internal/runtime/journal"
)

// serveAt runs `hwctl serve` on addr and returns a function that stops it
// (also called when the test ends). The port may still be held by a
// server just stopped: it retries for a while.
func serveAt(t *testing.T, bin, project, addr string) (stop func()) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		cmd := exec.Command(bin, "serve", "--dir", project, "--addr", addr, "--poll", "50ms")
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		line, _ := bufio.NewReader(out).ReadString('\n')
		if strings.Contains(line, "http://") {
			stopped := false
			stop = func() {
				if !stopped {
					stopped = true
					cmd.Process.Signal(os.Interrupt)
					cmd.Wait()
				}
			}
			t.Cleanup(stop)
			return stop
		}
		cmd.Wait()
		if time.Now().After(deadline) {
			t.Fatalf("hwctl serve on %s never started", addr)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// poll waits (60 s at most: the CI machine may be loaded) until expr is
// true on the page.
func poll(t *testing.T, ctx context.Context, what, expr string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(60*time.Second))); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// TestBrowserPage covers the page as a user keeps it open: hostile text and
// a redacted subject shown as text, a long MCP tool name that wraps instead
// of pushing the reason off the screen, a session page reached from a feed
// row, and a reconnect to a rebuilt store (with lower ids) that shows new
// calls. Every wait is on a DOM condition, with generous time limits.
func TestBrowserPage(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tier: builds hwctl and starts Chromium; skipped with -short")
	}
	browser, err := chromium()
	if err != nil {
		t.Skip("browser tier:", err)
	}
	tmp := t.TempDir()
	bin := buildHwctl(t)
	project := filepath.Join(tmp, "project")
	os.MkdirAll(project, 0o755)
	old := time.Now().AddDate(0, 0, -3)
	for i := range 40 { // an older journal file, removed before the rebuild
		journal.Append(project, journal.Entry{Time: old.Add(time.Duration(i) * time.Second), Session: "0ldsess1-zz", Event: "PreToolUse", Tool: "Bash", Target: "Bash"})
	}
	now := time.Now().Add(-time.Minute)
	longTool := "mcp__a_very_long_server_name_for_testing_wrapping__and_an_even_longer_tool_name_that_keeps_going_and_going"
	for i, e := range []journal.Entry{
		{Session: "7c1e9a40-aa", Event: "PreToolUse", Tool: "Read", Target: "Read", Decision: "block", Handler: "guard", Exit: 2,
			Subject: "/tmp/<img src=x onerror=window.pwned=1>\x1b]0;owned\a", Reason: "blocked Read of /tmp/<b>bold</b>\x1b[2J"},
		{Session: "7c1e9a40-aa", Event: "PreToolUse", Tool: "Bash", Target: "Bash", Subject: "API_KEY=supersecret123 make deploy"},
		{Session: "52be03f1-cc", Event: "PreToolUse", Tool: longTool, Target: longTool, Decision: "block", Handler: "guard", Exit: 2, Reason: "reason-of-the-long-tool"},
	} {
		e.Time = now.Add(time.Duration(i) * time.Second)
		if err := journal.Append(project, e); err != nil {
			t.Fatal(err)
		}
	}
	addr := otlptest.FreeAddr(t)
	stop := serveAt(t, bin, project, addr)
	url := "http://" + addr + "/"

	ctx := newBrowserFor(t, browser, tmp, 8*time.Minute) // each wait below has its own limit
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("open the page: %v", err)
	}
	poll(t, ctx, "the stream goes live", `document.getElementById("status").textContent === "live"`)
	poll(t, ctx, "the feed shows the calls", `document.getElementById("feed-rows").textContent.includes("reason-of-the-long-tool")`)

	// Hostile text is text; the subject is redacted.
	poll(t, ctx, "the hostile path shows as text",
		`[...document.querySelectorAll("#feed-rows td.what")].some(td => td.textContent.includes("<img src=x onerror=window.pwned=1>"))`)
	poll(t, ctx, "no element made of the journal's text",
		`!document.querySelector("#feed-rows img, #feed-rows b") && window.pwned === undefined`)
	poll(t, ctx, "the subject is redacted",
		`document.getElementById("feed-rows").textContent.includes("API_KEY=… make deploy") && !document.body.textContent.includes("supersecret123")`)

	// A long tool name wraps: every reason cell stays on the screen.
	const onScreen = `[...document.querySelectorAll("#feed-rows td.reason")].every(td => td.getBoundingClientRect().right <= document.documentElement.clientWidth + 1)`
	poll(t, ctx, "the reason column stays on the screen", onScreen)

	// The session page, from a feed row.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#feed-rows a.session-link[title="52be03f1-cc"]`))); err != nil {
		t.Fatalf("click the session: %v", err)
	}
	poll(t, ctx, "the session page", `location.hash === "#sessions/52be03f1-cc" && !document.getElementById("sessions").hidden &&
		document.getElementById("timeline-title").textContent.includes("52be03f1-cc") &&
		document.getElementById("timeline-rows").textContent.includes("reason-of-the-long-tool")`)
	poll(t, ctx, "the timeline's reason stays on the screen",
		`[...document.querySelectorAll("#timeline-rows td.reason")].every(td => td.getBoundingClientRect().right <= document.documentElement.clientWidth + 1)`)
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.hash = "#feed"`)); err != nil {
		t.Fatal(err)
	}

	// The store is rebuilt with lower ids (the older journal file gone)
	// while the page stays open; a call after the restart shows.
	stop()
	files, _ := filepath.Glob(filepath.Join(project, journal.Dir, "*.jsonl"))
	if len(files) != 2 {
		t.Fatalf("journal files %v", files)
	}
	os.Remove(files[0])
	if out, err := exec.Command(bin, "ingest", "--rebuild", "--dir", project).CombinedOutput(); err != nil {
		t.Fatalf("rebuild: %v %s", err, out)
	}
	serveAt(t, bin, project, addr)
	if err := journal.Append(project, journal.Entry{Time: time.Now(), Session: "7c1e9a40-aa", Event: "Stop", Reason: "after-the-rebuild"}); err != nil {
		t.Fatal(err)
	}
	poll(t, ctx, "a call after the rebuild shows on the open page",
		`document.getElementById("feed-rows").textContent.includes("after-the-rebuild") && document.getElementById("status").textContent === "live"`)
}
