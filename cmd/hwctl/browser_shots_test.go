package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/hookwright/hookwright/internal/runtime/journal"
)

var screenshots = flag.String("screenshots", "", "write the README's pictures of the dashboard (feed.png, session.png, activity.png) to this folder")

// TestBrowserScreenshots draws the README's pictures with the real page in
// headless Chromium: go test ./cmd/hwctl -run TestBrowserScreenshots
// -screenshots $PWD/cmd/hwctl/testdata. Without the flag it skips.
func TestBrowserScreenshots(t *testing.T) {
	if *screenshots == "" {
		t.Skip("draws the README's pictures only with -screenshots DIR")
	}
	browser, err := chromium()
	if err != nil {
		t.Skip("browser tier:", err)
	}
	tmp := t.TempDir()
	bin := buildHwctl(t)
	project := filepath.Join(tmp, "project")
	os.MkdirAll(project, 0o755)
	// Two hours of a working session, then the seeded calls.
	start := time.Now().Add(-125 * time.Minute)
	subjects := []struct{ tool, subject string }{
		{"Read", "internal/parser/lexer.go"}, {"Grep", "func (p \\*Parser) parse"}, {"Edit", "internal/parser/parser.go"},
		{"Bash", "go test ./internal/parser/..."}, {"Bash", "git diff --stat"}, {"Read", "docs/plan/parser.md"},
		{"WebFetch", "https://go.dev/ref/spec"}, {"Edit", "internal/parser/parser_test.go"}, {"Bash", "go vet ./..."},
		{"mcp__github__create_pull_request_review_comment_with_suggestion", "hookwright/hookwright#214"},
	}
	for i := range 160 {
		s := subjects[(i*7)%len(subjects)]
		e := journal.Entry{Time: start.Add(time.Duration(i) * 43 * time.Second), Session: "7c1e9a40-aa", Event: "PreToolUse", Tool: s.tool, Target: s.tool,
			Subject: s.subject, Decision: "allow", Micros: int64(600 + (i*37)%1400), Band: "2.1.33"}
		switch {
		case i%31 == 5:
			e.Subject, e.Decision, e.Handler, e.Exit = "git push --force origin main", "block", "guard", 2
			e.Tool, e.Target = "Bash", "Bash"
			e.Reason = "hookwright guard: git push --force rewrites shared history; push a new branch instead"
		case i%37 == 11:
			e.Subject, e.Decision, e.Handler, e.Exit = "cat .env", "block", "guard", 2
			e.Tool, e.Target = "Bash", "Bash"
			e.Reason = "hookwright guard: .env holds secrets; read .env.example instead"
		case i%3 == 1:
			e.Event, e.Decision, e.ToolMillis, e.Outcome, e.Micros = "PostToolUse", "", int64(40+i*13%900), "success", int64(300+(i*19)%700)
		}
		if i%29 == 0 {
			e.Subject = "API_KEY=… ./scripts/deploy.sh staging"
			e.Tool, e.Target = "Bash", "Bash"
		}
		if err := journal.Append(project, e); err != nil {
			t.Fatal(err)
		}
	}
	seedProject(t, project)
	url := startServe(t, bin, project)
	ctx := newBrowserFor(t, browser, tmp, 5*time.Minute)
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	poll(t, ctx, "the feed is live", `document.getElementById("status").textContent === "live" && document.querySelectorAll("#feed-rows tr").length > 100`)
	shot := func(name string) {
		t.Helper()
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(*screenshots, name), png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s (%d bytes)", name, len(png))
	}
	shot("feed.png")
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.hash = "#sessions/7c1e9a40-aa"`)); err != nil {
		t.Fatal(err)
	}
	poll(t, ctx, "the session page", `document.getElementById("timeline-title").textContent.includes("7c1e9a40-aa") &&
		document.querySelectorAll("#timeline-rows tr").length > 100 && document.getElementById("fingerprint").textContent.includes("2.1.33")`)
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.scrollTo(0, 0), true`)); err != nil {
		t.Fatal(err)
	}
	shot("session.png")
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.hash = "#activity"`)); err != nil {
		t.Fatal(err)
	}
	poll(t, ctx, "the charts", fmt.Sprintf(`window.hwCharts && window.hwCharts.calls && window.hwCharts.calls.data[1].reduce((a, b) => a + b, 0) >= %d &&
		window.hwCharts.durations && document.getElementById("duration-rows").children.length > 0`, 160))
	shot("activity.png")
}
