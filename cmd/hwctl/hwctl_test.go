package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookwright/hookwright/hooks"
	hwcli "github.com/hookwright/hookwright/internal/cli"
	"github.com/hookwright/hookwright/internal/handlers/session"
	"github.com/hookwright/hookwright/internal/runtime/journal"
	"github.com/hookwright/hookwright/internal/state/loop"
	"github.com/hookwright/hookwright/internal/state/pdca"
	teamstatus "github.com/hookwright/hookwright/internal/state/team"
)

func hwctl(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	home := stateHome(t)
	code := run(context.Background(), append([]string{"hwctl"}, args...), &out, &errb, func(k string) string {
		if k == "XDG_STATE_HOME" {
			return home // where hwctl loop start leaves its receipts
		}
		return ""
	})
	return out.String(), errb.String(), code
}

// stateHomes holds one state folder per test.
var stateHomes sync.Map

func stateHome(t *testing.T) string {
	if v, ok := stateHomes.Load(t.Name()); ok {
		return v.(string)
	}
	d := t.TempDir()
	stateHomes.Store(t.Name(), d)
	return d
}

// hookedProject is a project folder where the hooks have run: it holds
// .hookwright/journal/, empty (queries refuse a folder without it).
func hookedProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(dir, ".hookwright", "journal"), 0o755))
	return dir
}

func TestPDCAStatus(t *testing.T) {
	dir := hookedProject(t)
	if out, _, code := hwctl(t, "pdca", "status", "--dir", dir); code != 0 || !strings.Contains(out, "no PDCA tasks") {
		t.Fatalf("empty: %d %q", code, out)
	}
	tag, _, _ := pdca.Parse("[Act-2] login-flow: x")
	pdca.Record(filepath.Join(dir, ".hookwright", "pdca.json"), tag, "s/1", "[Act-2] login-flow: x", time.Now())
	out, _, code := hwctl(t, "pdca", "status", "--dir", dir)
	if code != 0 || !strings.Contains(out, "login-flow") || !strings.Contains(out, "Act-2") {
		t.Fatalf("table: %d %q", code, out)
	}
	out, _, _ = hwctl(t, "pdca", "status", "--dir", dir, "--json")
	if !strings.Contains(out, `"phase": "Act-2"`) {
		t.Fatalf("json: %q", out)
	}
}

func TestWork(t *testing.T) {
	dir := t.TempDir()
	if _, _, code := hwctl(t, "work", "start", "--dir", dir); code != 2 {
		t.Fatalf("missing name: exit %d", code)
	}
	if _, errs, code := hwctl(t, "work", "start", "--dir", dir, "../x"); code != 3 || !strings.Contains(errs, "unsafe") {
		t.Fatalf("unsafe: %d %q", code, errs)
	}
	if out, _, code := hwctl(t, "work", "start", "--dir", dir, "hotfix"); code != 0 || !strings.Contains(out, "started") {
		t.Fatalf("start: %d %q", code, out)
	}
	if out, _, _ := hwctl(t, "work", "status", "--dir", dir); !strings.Contains(out, "manual  hotfix") {
		t.Fatalf("status: %q", out)
	}
	if _, _, code := hwctl(t, "work", "stop", "--dir", dir, "hotfix"); code != 0 {
		t.Fatal("stop")
	}
	if _, _, code := hwctl(t, "work", "stop", "--dir", dir, "hotfix"); code != 3 {
		t.Fatal("stop twice")
	}
}

func TestLogAndDashboard(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	for i, ev := range []string{"PreToolUse", "PreToolUse", "TaskCompleted"} {
		e := journal.Entry{Time: now, Session: "abcdef123456", Event: ev, Target: "Bash", Micros: 1500}
		if i == 1 {
			e.Decision, e.Reason, e.Exit = "block", "hookwright guard: no", 2
		}
		journal.Append(dir, e)
	}
	// A torn last line is not shown, and not counted as bad, until it ends.
	name := filepath.Join(dir, journal.Dir, now.UTC().Format("2006-01-02")+".jsonl")
	f, _ := os.OpenFile(name, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"ts":"2026-01-01T00:00:00Z","event":"Sto`)
	f.Close()
	out, errs, code := hwctl(t, "log", "--dir", dir, "-n", "2")
	if code != 0 || errs != "" || strings.Count(out, "\n") != 3 || !strings.Contains(out, "hookwright guard: no") {
		t.Fatalf("log: %d %q %q", code, out, errs)
	}
	out, _, code = hwctl(t, "dashboard", "--dir", dir, "--once")
	if code != 0 || !strings.Contains(out, "3 calls") || !regexpLine(out, "PreToolUse", "2", "1", "0", "0", "1") {
		t.Fatalf("dashboard: %d\n%s", code, out)
	}
}

// regexpLine reports whether some line of out has exactly these fields.
func regexpLine(out string, fields ...string) bool {
	for _, l := range strings.Split(out, "\n") {
		if strings.Join(strings.Fields(l), " ") == strings.Join(fields, " ") {
			return true
		}
	}
	return false
}

func TestTailerFollow(t *testing.T) {
	dir := t.TempDir()
	tl := newTailer(dir, 5)
	if err := tl.poll(nil); err != nil || tl.total != 0 {
		t.Fatal(err, tl.total)
	}
	journal.Append(dir, journal.Entry{Time: time.Now(), Event: "Stop"})
	var got []string
	tl.poll(func(e journal.Entry) { got = append(got, e.Event) })
	journal.Append(dir, journal.Entry{Time: time.Now(), Event: "SessionEnd"})
	tl.poll(func(e journal.Entry) { got = append(got, e.Event) })
	if strings.Join(got, ",") != "Stop,SessionEnd" || tl.total != 2 {
		t.Fatalf("follow saw %v (total %d)", got, tl.total)
	}
}

func TestSessionsEmpty(t *testing.T) {
	out, _, code := hwctl(t, "sessions", "--dir", hookedProject(t))
	if code != 0 || !strings.HasPrefix(out, "SESSION") {
		t.Fatalf("%d %q", code, out)
	}
}

// TestUsageErrorsAreOneLine checks that a mistyped command or flag is
// reported as one line on stderr, naming the help to read, with exit 2 and
// nothing on stdout.
func TestUsageErrorsAreOneLine(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"nosuch"}, `hwctl: unknown command "nosuch"; run hwctl --help`},
		{[]string{"work", "nosuch"}, `hwctl: unknown command "nosuch"; run hwctl work --help`},
		{[]string{"log", "--bogus"}, "hwctl: flag provided but not defined: -bogus; run hwctl log --help"},
		{[]string{"work", "start", "--bogus"}, "hwctl: flag provided but not defined: -bogus; run hwctl work start --help"},
		{[]string{"log", "-n", "x"}, `hwctl: invalid value "x" for flag -n: parse error; run hwctl log --help`},
	} {
		out, errs, code := hwctl(t, tc.args...)
		if code != 2 || out != "" || errs != tc.want+"\n" {
			t.Errorf("hwctl %s: exit %d, stdout %q, stderr %q; want 2, nothing, %q", strings.Join(tc.args, " "), code, out, errs, tc.want)
		}
	}
}

// TestHelpTeaches checks that hwctl without a command prints the help with
// examples and exit codes on stderr and exits 2 (a missing command is a
// usage error), that --help prints it on stdout with exit 0, and that a
// command group does the same.
func TestHelpTeaches(t *testing.T) {
	out, errs, code := hwctl(t)
	if code != 2 || out != "" || !strings.Contains(errs, "hwctl log -n 20 --follow") || !strings.Contains(errs, "EXIT CODES") || !strings.Contains(errs, "hwctl serve") {
		t.Errorf("hwctl: exit %d, stdout %q\n%s", code, out, errs)
	}
	if out, _, code := hwctl(t, "--help"); code != 0 || !strings.Contains(out, "EXIT CODES") {
		t.Errorf("hwctl --help: exit %d\n%s", code, out)
	}
	for _, group := range []string{"work", "pdca", "loop", "export", "guard"} {
		if out, errs, code := hwctl(t, group); code != 2 || out != "" || !strings.Contains(errs, "hwctl "+group+" ") {
			t.Errorf("hwctl %s: exit %d, stdout %q\n%s", group, code, out, errs)
		}
	}
	if out, _, code := hwctl(t, "work", "--help"); code != 0 || !strings.Contains(out, "start the work unit <name>") {
		t.Errorf("hwctl work --help: exit %d\n%s", code, out)
	}
	// A stray word is a usage error, never ignored.
	for _, args := range [][]string{{"guard", "packs", "extra"}, {"log", "extra"}, {"pdca", "status", "extra"}, {"loop", "status", "x"}, {"dashboard", "--once", "x"}} {
		if _, errs, code := hwctl(t, args...); code != 2 || !strings.Contains(errs, "unexpected argument") {
			t.Errorf("hwctl %v: exit %d %q", args, code, errs)
		}
	}
}

func TestTeam(t *testing.T) {
	dir := hookedProject(t)
	if out, _, code := hwctl(t, "team", "--dir", dir); code != 0 || !strings.Contains(out, "no teammate status yet") {
		t.Fatalf("empty: %d %q", code, out)
	}
	now := time.Now()
	teamstatus.Set(dir, hooks.Team{TeamName: "core", TeammateName: "alice"}, teamstatus.Teammate{State: teamstatus.Idle, LastEvent: "TeammateIdle", LastSeen: now})
	teamstatus.Set(dir, hooks.Team{TeamName: "core", TeammateName: "bob"}, teamstatus.Teammate{State: teamstatus.Active, LastEvent: "TaskCompleted", LastSeen: now, OpenTask: "#3 parser"})
	out, _, code := hwctl(t, "team", "--dir", dir)
	if code != 0 || !strings.Contains(out, "core  alice     idle    TeammateIdle") || !strings.Contains(out, "bob       active  TaskCompleted") || !strings.Contains(out, "#3 parser") {
		t.Fatalf("table: %d\n%s", code, out)
	}
	if out, _, _ := hwctl(t, "team", "--dir", dir, "--json", "core"); !strings.Contains(out, `"state": "idle"`) {
		t.Fatalf("json: %s", out)
	}
	if _, errs, code := hwctl(t, "team", "--dir", dir, "../x"); code != hwcli.ExitFailure || !strings.Contains(errs, "unsafe") {
		t.Fatalf("unsafe team: %d %q", code, errs)
	}
}

func TestLoopCommands(t *testing.T) {
	dir := hookedProject(t)
	if out, _, code := hwctl(t, "loop", "status", "--dir", dir); code != 0 || !strings.HasPrefix(out, "loop: off") {
		t.Fatalf("status: %d %q", code, out)
	}
	if _, errs, code := hwctl(t, "loop", "start", "--dir", dir); code != 2 || !strings.Contains(errs, "give --check or --promise") {
		t.Fatalf("start without a way to end: %d %q", code, errs)
	}
	if _, _, code := hwctl(t, "loop", "start", "--dir", dir, "--check", "true", "--timeout", "1000"); code != 2 {
		t.Fatalf("a timeout over the bound: exit %d", code)
	}
	out, _, code := hwctl(t, "loop", "start", "--dir", dir, "--check", "make test", "--max-rounds", "7")
	if code != 0 || !strings.Contains(out, `check "make test"`) || !strings.Contains(out, "max 7 rounds") {
		t.Fatalf("start: %d %q", code, out)
	}
	loop.Update(dir, func(st *loop.State) error {
		st.Sessions["s1"] = &loop.Session{Rounds: 2, LastExit: 1, LastCheck: "FAIL parser", Seen: time.Now()}
		return nil
	})
	out, _, _ = hwctl(t, "loop", "status", "--dir", dir)
	if !strings.Contains(out, "loop: armed") || !strings.Contains(out, "s1") || !strings.Contains(out, "exit 1 FAIL parser") {
		t.Fatalf("status after start:\n%s", out)
	}
	if out, _, code := hwctl(t, "loop", "stop", "--dir", dir); code != 0 || !strings.Contains(out, "cancelled") {
		t.Fatalf("stop: %d %q", code, out)
	}
	if out, _, _ := hwctl(t, "loop", "status", "--dir", dir, "--json"); !strings.Contains(out, `"cancelled": true`) || !strings.Contains(out, `"enabled": false`) {
		t.Fatalf("json after stop: %s", out)
	}
}

func TestSessionsShowTotals(t *testing.T) {
	dir := t.TempDir()
	now := time.Now().UTC()
	for _, e := range []journal.Entry{
		{Time: now, Session: "s1", Event: "PostToolUse", Tool: "Bash", Outcome: "success", Micros: 1500},
		{Time: now, Session: "s1", Event: "PostToolUseFailure", Tool: "Bash", Outcome: "failure", Micros: 1500},
		{Time: now, Session: "s1", Event: "Stop", Decision: "block", Micros: 1000},
	} {
		journal.Append(dir, e)
	}
	end := &hooks.SessionEnd{}
	end.HookEventName, end.SessionID = hooks.EventSessionEnd, "s1"
	if _, err := (session.Ender{Dir: dir, Now: time.Now}).Handle(context.Background(), end); err != nil {
		t.Fatal(err)
	}
	out, _, code := hwctl(t, "sessions", "--dir", dir)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 2 || !strings.Contains(lines[0], "CALLS  BLOCKS") || !strings.Contains(lines[0], "TOOLS  FAILS  HOOK MS  TOP TOOLS") {
		t.Fatalf("%d\n%s", code, out)
	}
	if f := strings.Fields(lines[1]); len(f) < 4 || strings.Join(f[len(f)-4:], " ") != "2 1 4 Bash×2" {
		t.Fatalf("totals columns: %q", lines[1])
	}
	js, _, _ := hwctl(t, "sessions", "--dir", dir, "--json")
	if !strings.Contains(js, `"calls": 3`) || !strings.Contains(js, `"blocks": 1`) || !strings.Contains(js, `"failures": 1`) || !strings.Contains(js, `"hook_ms": 4`) {
		t.Fatalf("json: %s", js)
	}
}

// TestOneExitCodeTable: hwctl's --help carries the exit-code table hookgen
// carries (hwcli.ExitCodesHelp), word for word.
func TestOneExitCodeTable(t *testing.T) {
	out, _, code := hwctl(t, "--help")
	words := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	if code != 0 || !strings.Contains(words(out), words(hwcli.ExitCodesHelp)) {
		t.Errorf("hwctl --help: exit %d, lacks the exit-code table\n%s", code, out)
	}
}
