package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/hookwright/hookwright/internal/otlpexport/otlptest"
	"github.com/hookwright/hookwright/internal/runtime/journal"
)

// TestBrowserSearchFiltersChart covers the page's search, its filters
// loaded from the URL (and kept across a reload), paging back to the first
// call, a session timeline that says it is capped, and the Activity
// charts drawn from the store's events, in headless Chromium against a
// real `hwctl serve`. Every wait is a DOM condition with a 60 s limit;
// nothing is timed.
func TestBrowserSearchFiltersChart(t *testing.T) {
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
	// 650 calls in the last hour: 600 of session "bigsess0" (every 10th a
	// Bash block by the guard), then a few others to search for.
	base := time.Now().Add(-50 * time.Minute)
	var calls, blocks int
	add := func(e journal.Entry) {
		t.Helper()
		e.Time = base.Add(time.Duration(calls) * 2 * time.Second)
		if err := journal.Append(project, e); err != nil {
			t.Fatal(err)
		}
		calls++
		if e.Decision == "block" {
			blocks++
		}
	}
	for i := range 600 {
		e := journal.Entry{Session: "bigsess0-0000", Event: "PreToolUse", Tool: "Bash", Target: "Bash", Subject: fmt.Sprintf("echo step-%d", i), Micros: int64(1000 + i)}
		if i%10 == 0 {
			e.Decision, e.Handler, e.Exit, e.Reason = "block", "guard", 2, fmt.Sprintf("blocked step %d", i)
		}
		add(e)
	}
	for i := range 50 {
		add(journal.Entry{Session: "other000-1111", Event: "PostToolUse", Tool: "Read", Target: "Read", Subject: fmt.Sprintf("/src/file%d.go", i), Micros: 500})
	}
	add(journal.Entry{Session: "other000-1111", Event: "PreToolUse", Tool: "Bash", Target: "Bash", Subject: "terraform destroy -auto-approve",
		Decision: "block", Handler: "guard", Exit: 2, Reason: "destroys infrastructure"})
	add(journal.Entry{Session: "other000-1111", Event: "PreToolUse", Tool: "Edit", Target: "Edit", Subject: `/tmp/"NEAR(*)<script>window.pwned=1</script>`,
		Decision: "ask", Handler: "work", Reason: "hostile-path-asked"})
	addr := otlptest.FreeAddr(t)
	serveAt(t, bin, project, addr)
	url := "http://" + addr + "/"
	ctx := newBrowserFor(t, browser, tmp, 10*time.Minute) // each wait below has its own limit

	// A filter from the URL: blocks of the guard on Bash in one session.
	if err := chromedp.Do(ctx, chromedp.Navigate(url+"#feed?session=bigsess0&tool=bash&decision=block&handler=guard")); err != nil {
		t.Fatalf("open the page: %v", err)
	}
	poll(t, ctx, "the stream goes live", `document.getElementById("status").textContent === "live"`)
	rows := `[...document.querySelectorAll("#feed-rows tr")]`
	poll(t, ctx, "the URL's filters are in the form and the feed holds only their matches",
		`document.getElementById("f-session").value === "bigsess0" && document.getElementById("f-tool").value === "bash" &&
		document.getElementById("f-decision").value === "block" && document.getElementById("f-handler").value === "guard" &&
		`+rows+`.length === 60 && `+rows+`.every(tr => tr.classList.contains("block") && tr.textContent.includes("blocked step")) &&
		!document.getElementById("feed-end").hidden`)

	// A filter that names nothing says so on the page.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.hash = "#feed?tool=NoSuchTool"`)); err != nil {
		t.Fatal(err)
	}
	poll(t, ctx, "an unknown tool is refused with the tools the store holds",
		`!document.getElementById("feed-error").hidden && document.getElementById("feed-error").textContent.includes("NoSuchTool") &&
		document.getElementById("feed-error").textContent.includes("Bash") && `+rows+`.length === 0`)

	// The search box: typed and submitted, it filters the feed and goes
	// into the URL; a reload comes back to the same view.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.hash = "#feed"`)); err != nil {
		t.Fatal(err)
	}
	poll(t, ctx, "the unfiltered feed", rows+`.length === 200 && document.getElementById("feed-error").hidden`)
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("#f-q"), "terraform\r")); err != nil {
		t.Fatal(err)
	}
	const searched = `location.hash === "#feed?q=terraform" && document.getElementById("f-q").value === "terraform" &&
		[...document.querySelectorAll("#feed-rows tr")].length === 1 &&
		document.querySelector("#feed-rows td.what").textContent === "terraform destroy -auto-approve"`
	poll(t, ctx, "the search's one match", searched)
	if err := chromedp.Do(ctx, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	poll(t, ctx, "the same view after a reload", searched+` && document.getElementById("status").textContent === "live"`)
	// FTS5 syntax and markup in a search are words, shown as text.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.hash = "#feed?q=" + encodeURIComponent('"NEAR(* script')`)); err != nil {
		t.Fatal(err)
	}
	poll(t, ctx, "a hostile search finds the hostile path, as text",
		rows+`.length === 1 && document.querySelector("#feed-rows td.what").textContent.includes("<script>window.pwned=1</script>") &&
		!document.querySelector("#feed-rows script") && window.pwned === undefined && document.getElementById("feed-error").hidden`)
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.hash = "#feed?q=" + encodeURIComponent('" * (')`)); err != nil {
		t.Fatal(err)
	}
	poll(t, ctx, "a search of no words matches nothing, without an error",
		rows+`.length === 0 && document.getElementById("feed-error").hidden && !document.getElementById("feed-end").hidden`)

	// Paging back to the first call of a session.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.hash = "#feed?session=bigsess0"`)); err != nil {
		t.Fatal(err)
	}
	poll(t, ctx, "the session's newest page", rows+`.length === 200 && !document.getElementById("older").hidden`)
	for want := 400; ; want += 200 {
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#older"))); err != nil {
			t.Fatal(err)
		}
		n := min(want, 600)
		poll(t, ctx, fmt.Sprintf("%d rows after older", n), rows+`.length === `+strconv.Itoa(n))
		if n == 600 {
			break
		}
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#older"))); err != nil {
		t.Fatal(err)
	}
	poll(t, ctx, "the first call reached", `!document.getElementById("feed-end").hidden && document.getElementById("older").hidden &&
		`+rows+`.length === 600 && document.querySelector("#feed-rows tr:last-child td.what").textContent === "echo step-0"`)

	// The session page says its timeline is capped, and pages back.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.hash = "#sessions/bigsess0-0000"`)); err != nil {
		t.Fatal(err)
	}
	poll(t, ctx, "the timeline says it shows the newest 500",
		`document.querySelectorAll("#timeline-rows tr").length === 500 && !document.getElementById("timeline-cap").hidden &&
		document.getElementById("timeline-cap-text").textContent.includes("newest 500")`)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#timeline-older"))); err != nil {
		t.Fatal(err)
	}
	poll(t, ctx, "the whole timeline, oldest first",
		`document.querySelectorAll("#timeline-rows tr").length === 600 && document.getElementById("timeline-cap").hidden &&
		document.querySelector("#timeline-rows tr:first-child td.what").textContent === "echo step-0"`)

	// The charts, drawn from the store's events.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.hash = "#activity?since=6h"`)); err != nil {
		t.Fatal(err)
	}
	sum := func(series int) string {
		return fmt.Sprintf(`window.hwCharts.calls.data[%d].reduce((a, b) => a + (b || 0), 0)`, series)
	}
	poll(t, ctx, "the calls chart holds every call and block",
		`window.hwCharts && window.hwCharts.calls && `+sum(1)+` === `+strconv.Itoa(calls)+` && `+sum(2)+` === `+strconv.Itoa(blocks))
	poll(t, ctx, "the duration chart has each event's p50 and p95",
		`window.hwCharts.durations && window.hwCharts.durations.data[0].length === 2 &&
		document.getElementById("duration-rows").textContent.includes("PreToolUse") &&
		window.hwCharts.durations.data[1].every((p50, i) => p50 > 0 && window.hwCharts.durations.data[2][i] >= p50)`)
	// Drawn: the canvases hold painted pixels.
	poll(t, ctx, "the charts are painted", `[...document.querySelectorAll("#activity canvas")].length >= 2 &&
		[...document.querySelectorAll("#activity canvas")].every(c => {
			const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
			let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
			return n > 1000; })`)
}
