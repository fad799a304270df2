package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/hookwright/hookwright/internal/runtime/journal"
)

// shotsDir, when set (HWCTL_READ_SHOTS), receives the pictures of
// TestBrowserDashboardReads, for a person to look at.
var shotsDir = os.Getenv("HWCTL_READ_SHOTS")

// TestBrowserDashboardReads opens a short history (a block, an ask and
// plain calls within two minutes, as after make demo) in the real page in
// headless Chromium, in a time zone other than UTC, and reads it as a user
// does: the ask is highlighted and counted beside the blocks; no filter
// shows a placeholder that could pass for a value; every time on the page
// has one clock format and names its zone; the Activity view fits its
// range to the calls (many bars, not one); the rule filter finds the
// guard's rule and the handler filter the handler.
func TestBrowserDashboardReads(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tier: builds hwctl and starts Chromium; skipped with -short")
	}
	browser, err := chromium()
	if err != nil {
		t.Skip("browser tier:", err)
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "hwctl")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build hwctl: %v\n%s", err, out)
	}
	project := filepath.Join(tmp, "project")
	must(t, os.MkdirAll(project, 0o755))
	start := time.Now().Add(-3 * time.Minute)
	for i, e := range []journal.Entry{
		{Event: "SessionStart", Target: "startup"},
		{Event: "PreToolUse", Tool: "Bash", Target: "Bash", Subject: "go test ./...", Decision: "allow"},
		{Event: "PreToolUse", Tool: "Bash", Target: "Bash", Subject: "git push --force origin main", Decision: "block", Handler: "guard", Rule: "git-force-push", Exit: 2,
			Reason: "hookwright guard: git push --force rewrites shared history. (rule git-force-push; `hwctl explain` shows how the guard read the call)"},
		{Event: "PreToolUse", Tool: "Bash", Target: "Bash", Subject: "git branch -D old", Decision: "ask", Handler: "guard", Rule: "git-branch-force-delete",
			Reason: "hookwright guard: git branch -D deletes a branch that may hold unmerged work. (rule git-branch-force-delete; `hwctl explain` shows how the guard read the call)"},
		{Event: "PostToolUse", Tool: "Bash", Target: "Bash", Outcome: "success"},
		{Event: "Stop"},
	} {
		e.Time, e.Session, e.Micros = start.Add(time.Duration(i)*20*time.Second), "d3m0d3m0-1111", int64(400+i*100)
		if err := journal.Append(project, e); err != nil {
			t.Fatal(err)
		}
	}
	url := startServe(t, bin, project)

	opts := append(chromedp.DefaultExecAllocatorOptions[:0], chromedp.ExecPath(browser), chromedp.Flag("headless", true), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.UserDataDir(filepath.Join(tmp, "chromium-profile")), chromedp.WindowSize(1400, 900),
		chromedp.Env("TZ=Asia/Tokyo", "XDG_CONFIG_HOME="+filepath.Join(tmp, "chromium-config"), "XDG_CACHE_HOME="+filepath.Join(tmp, "chromium-cache")))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 5*time.Minute)
	t.Cleanup(func() { cancelTimeout(); cancel(); cancelAlloc() })
	shot := func(name string) {
		if shotsDir == "" {
			return
		}
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err == nil {
			err = os.WriteFile(filepath.Join(shotsDir, name), png, 0o644)
		}
		if err != nil {
			t.Error(err)
		}
	}
	eval := func(expr string) string {
		t.Helper()
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return got
	}

	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	poll(t, ctx, "the feed", `document.getElementById("status").textContent === "live" && document.querySelectorAll("#feed-rows tr").length === 6`)
	shot("feed.png")

	// The ask: highlighted like a block, in its own colour, and counted.
	if got := eval(`document.getElementById("n-calls").textContent + "/" + document.getElementById("n-blocks").textContent + "/" + document.getElementById("n-asks").textContent`); got != "6/1/1" {
		t.Errorf("calls/blocks/asks = %s, want 6/1/1", got)
	}
	askBG := eval(`getComputedStyle(document.querySelector("#feed-rows tr.ask td")).backgroundColor`)
	blockBG := eval(`getComputedStyle(document.querySelector("#feed-rows tr.block td")).backgroundColor`)
	plainBG := eval(`getComputedStyle(document.querySelector("#feed-rows tr:not(.ask):not(.block) td")).backgroundColor`)
	if askBG == plainBG || askBG == blockBG {
		t.Errorf("the ask row's background %s is not its own (block %s, plain %s)", askBG, blockBG, plainBG)
	}

	// No filter is set, and none looks set: each input is empty, and its
	// placeholder is a word for "no filter", drawn in italics.
	if got := eval(`[...document.querySelectorAll("#filters input")].filter((i) => i.value !== "" ||
		!["any", "any time", "now", "search command, path, reason…"].includes(i.placeholder) ||
		getComputedStyle(i, "::placeholder").fontStyle !== "italic").map((i) => i.id + "=" + i.value + "|" + i.placeholder).join(",")`); got != "" {
		t.Errorf("filters that look set: %s", got)
	}

	// One clock, with its zone (the browser's: Tokyo).
	clock := regexp.MustCompile(`^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d (JST|GMT\+9)$`)
	for _, cell := range splitLines(eval(`[...document.querySelectorAll("#feed-rows tr td:first-child")].map((td) => td.textContent).join("\n")`)) {
		if !clock.MatchString(cell) {
			t.Errorf("feed time %q is not the one clock format with its zone", cell)
		}
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.hash = "#sessions/d3m0d3m0-1111"`)); err != nil {
		t.Fatal(err)
	}
	poll(t, ctx, "the session page", `document.querySelectorAll("#timeline-rows tr").length === 6 && document.querySelectorAll("#session-rows tr").length === 1`)
	for _, cell := range splitLines(eval(`[...document.querySelectorAll("#timeline-rows tr td:first-child, #session-rows tr td:nth-child(2)")].map((td) => td.textContent).join("\n")`)) {
		if !clock.MatchString(cell) {
			t.Errorf("session time %q is not the one clock format with its zone", cell)
		}
	}
	shot("session.png")

	// Activity, as first opened: fitted to the three minutes of calls.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.hash = "#activity"`)); err != nil {
		t.Fatal(err)
	}
	poll(t, ctx, "the charts", `window.hwCharts && window.hwCharts.calls && window.hwCharts.calls.data[1].reduce((a, b) => a + b, 0) === 6 &&
		document.getElementById("duration-rows").children.length > 0`)
	if got := eval(`document.getElementById("a-since").value`); got != "fit" {
		t.Errorf("the Activity range starts as %q, want fit", got)
	}
	if got := eval(`String(window.hwCharts.calls.data[0].length) + " " + String(window.hwCharts.calls.data[1].filter((n) => n > 0).length) + " " + window.hwCharts.calls.data[3].reduce((a, b) => a + b, 0)`); got != "" {
		var buckets, busy, asks int
		if _, err := fmt.Sscan(got, &buckets, &busy, &asks); err != nil || buckets < 20 || busy < 4 || asks != 1 {
			t.Errorf("the fitted chart has %d bars, %d with calls, %d asks; want the calls spread over many bars", buckets, busy, asks)
		}
	}
	note := eval(`document.getElementById("activity-note").textContent`)
	if !regexp.MustCompile(`^6 calls, 1 block, 1 ask, from \d{4}-\d\d-\d\d \d\d:\d\d:\d\d (JST|GMT\+9) to .* (JST|GMT\+9); one bar per \d+ seconds$`).MatchString(note) {
		t.Errorf("activity note %q", note)
	}
	if got := eval(`window.hwCharts.calls.axes[0].label`); !regexp.MustCompile(`^time \((JST|GMT\+9)\)$`).MatchString(got) {
		t.Errorf("time axis label %q does not name the zone", got)
	}
	shot("activity.png")

	// The rule filter means the guard's rule; the handler filter the handler.
	for hash, want := range map[string]string{"#feed?rule=git-force-push": "1 block", "#feed?rule=git-branch-force-delete": "1 ask", "#feed?handler=guard": "2 guard"} {
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.hash = "`+hash+`"`)); err != nil {
			t.Fatal(err)
		}
		n := want[:1]
		poll(t, ctx, hash, `document.querySelectorAll("#feed-rows tr").length === `+n+` && !document.getElementById("feed-error").textContent`)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.hash = "#feed?rule=guard"`)); err != nil {
		t.Fatal(err)
	}
	poll(t, ctx, "a handler's name in the rule filter is refused", `document.getElementById("feed-error").textContent.includes('rule "guard" is not a guard rule')`)
	shot("refused.png")
}

func splitLines(s string) []string {
	var out []string
	for _, l := range regexp.MustCompile("\n").Split(s, -1) {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}
