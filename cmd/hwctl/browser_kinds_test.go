package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/hookwright/hookwright/internal/otlpexport/otlptest"
	"github.com/hookwright/hookwright/internal/runtime/journal"
)

// TestBrowserUntrackedEdit: warn mode's record in the dashboard. An edit
// outside a work unit that work.mode "warn" let through shows as a marked
// row ("untracked edit"), and the kind menu's untracked_edit, loaded from
// the URL, shows those rows alone.
func TestBrowserUntrackedEdit(t *testing.T) {
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
	os.MkdirAll(project, 0o755)
	now := time.Now().Add(-time.Minute)
	for i, e := range []journal.Entry{
		{Session: "w1", Event: "PreToolUse", Tool: "Write", Target: "Write", Subject: "src/untracked-one.go", Kind: journal.KindUntrackedEdit},
		{Session: "w1", Event: "PreToolUse", Tool: "Bash", Target: "Bash", Subject: "ls -la"},
		{Session: "w1", Event: "PreToolUse", Tool: "Bash", Target: "Bash", Subject: "echo x > untracked-two.txt", Kind: journal.KindUntrackedEdit},
	} {
		e.Time = now.Add(time.Duration(i) * time.Second)
		if err := journal.Append(project, e); err != nil {
			t.Fatal(err)
		}
	}
	addr := otlptest.FreeAddr(t)
	serveAt(t, bin, project, addr)
	ctx := newBrowserFor(t, browser, tmp, 4*time.Minute)
	if err := chromedp.Do(ctx, chromedp.Navigate("http://"+addr+"/")); err != nil {
		t.Fatalf("open the page: %v", err)
	}
	poll(t, ctx, "the feed shows the calls", `document.getElementById("feed-rows").textContent.includes("ls -la")`)
	poll(t, ctx, "untracked edits are marked rows",
		`[...document.querySelectorAll("#feed-rows tr.untracked")].length === 2 &&
		 [...document.querySelectorAll("#feed-rows tr.untracked td.decision")].every(td => td.textContent === "untracked edit")`)
	if err := chromedp.Do(ctx, chromedp.Navigate("http://"+addr+"/#feed?kind=untracked_edit")); err != nil {
		t.Fatal(err)
	}
	poll(t, ctx, "the kind filter shows them alone",
		`document.getElementById("f-kind").value === "untracked_edit" &&
		 document.querySelectorAll("#feed-rows tr").length === 2 && !document.getElementById("feed-rows").textContent.includes("ls -la")`)
}
