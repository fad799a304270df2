package quality

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/config"
)

// badGo is badly formatted and has a vet error (a Printf verb without its
// argument).
const badGo = "package m\n\nimport \"fmt\"\n\nfunc F() {\n      fmt.Printf(\"%d\\n\")\n}\n"

func edit(t *testing.T, dir, session, file string) hooks.Input {
	t.Helper()
	raw, _ := json.Marshal(map[string]any{
		"session_id": session, "cwd": dir, "hook_event_name": "PostToolUse", "tool_name": "Write",
		"tool_input": map[string]any{"file_path": file, "content": "x"}, "tool_response": map[string]any{},
	})
	in, err := hooks.Decode(raw, hooks.EventPostToolUse)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

func TestGoFormatAndVet(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go on PATH")
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/m\n\ngo 1.21\n"), 0o644)
	file := filepath.Join(dir, "m.go")
	os.WriteFile(file, []byte(badGo), 0o644)
	c := Checker{Config: config.Quality{Lint: true, Format: true}, Dir: dir}
	res, err := c.Handle(context.Background(), edit(t, dir, "s1", file))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(file)
	if !strings.Contains(string(got), "\n\tfmt.Printf") {
		t.Errorf("the file was not formatted:\n%s", got)
	}
	if !strings.Contains(res.Context, "go vet") || !strings.Contains(res.Context, "Printf") {
		t.Errorf("feedback lacks the vet finding: %q", res.Context)
	}
	// A clean file adds nothing.
	os.WriteFile(file, []byte("package m\n"), 0o644)
	if res, _ := c.Handle(context.Background(), edit(t, dir, "s1", file)); res.Context != "" {
		t.Errorf("a clean file: %q", res.Context)
	}
	// Off: nothing runs.
	os.WriteFile(file, []byte(badGo), 0o644)
	if res, _ := (Checker{Dir: dir}).Handle(context.Background(), edit(t, dir, "s1", file)); res.Context != "" {
		t.Errorf("quality off: %q", res.Context)
	}
	if got, _ := os.ReadFile(file); string(got) != badGo {
		t.Error("quality off rewrote the file")
	}
}

// quality.commands run on the file they match, argv only, with {file}
// replaced. (Whether a project's commands get here at all is decided by
// config.LoadLayers: TestProjectQualityCommandsNeedTrust there.)
func TestConfigCommandsRun(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "notes.txt")
	os.WriteFile(file, []byte("x\n"), 0o644)
	cfg := config.Quality{Lint: true, Format: true, Commands: []config.QualityCommand{{Match: "*.txt", Lint: []string{"touch", "{file}.ran"}}}}
	c := Checker{Config: cfg, Dir: dir}
	if _, err := c.Handle(context.Background(), edit(t, dir, "s1", file)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(file + ".ran"); err != nil {
		t.Errorf("the command did not run: %v", err)
	}
	os.Remove(file + ".ran")
	os.WriteFile(filepath.Join(dir, "other.go"), []byte("package x\n"), 0o644)
	if _, err := c.Handle(context.Background(), edit(t, dir, "s1", filepath.Join(dir, "other.go"))); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(file + ".ran"); err == nil {
		t.Error("the command ran for a file it does not match")
	}
}

func TestMissingAndHangingToolsReportedOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("waits out the quality budget; skipped with -short")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "a.txt")
	os.WriteFile(file, []byte("x\n"), 0o644)
	cfg := config.Quality{Lint: true, Commands: []config.QualityCommand{
		{Match: "*.txt", Lint: []string{"hookwright-no-such-linter"}},
		{Match: "*.txt", Lint: []string{"sleep", "30"}},
	}}
	c := Checker{Config: cfg, Dir: dir}
	res, err := c.Handle(context.Background(), edit(t, dir, "s1", file))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"hookwright-no-such-linter could not be started", "sleep did not finish"} {
		if !strings.Contains(res.Context, want) {
			t.Errorf("feedback lacks %q: %q", want, res.Context)
		}
	}
	res, _ = c.Handle(context.Background(), edit(t, dir, "s1", file))
	if res.Context != "" {
		t.Errorf("reported twice: %q", res.Context)
	}
}

func TestNoToolNoCost(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.txt")
	os.WriteFile(file, []byte("x\n"), 0o644)
	c := Checker{Config: config.Quality{Lint: true, Format: true}, Dir: dir}
	if res, err := c.Handle(context.Background(), edit(t, dir, "s1", file)); err != nil || !res.Empty() {
		t.Errorf("a type with no tool: %+v %v", res, err)
	}
	if _, err := os.Stat(filepath.Join(dir, StateFile)); err == nil {
		t.Error("a type with no tool wrote state")
	}
	// A file outside the project is not touched.
	out := filepath.Join(t.TempDir(), "x.go")
	os.WriteFile(out, []byte(badGo), 0o644)
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module m\n"), 0o644)
	if res, _ := c.Handle(context.Background(), edit(t, dir, "s1", out)); res.Context != "" {
		t.Errorf("a file outside the project: %q", res.Context)
	}
	if got, _ := os.ReadFile(out); string(got) != badGo {
		t.Error("a file outside the project was rewritten")
	}
}

func rel(s string) func() (hooks.Release, bool) {
	return func() (hooks.Release, bool) {
		if s == "" {
			return hooks.Release{}, false
		}
		r, err := hooks.ParseRelease(s)
		return r, err == nil
	}
}

// How a finding of the asynchronous check reaches the model, by release:
// the rewake channel (exit 2) where asyncRewake exists, the hook's own
// output where the release delivers an async hook's output, else the
// next tool call (the pending file); nothing runs asynchronously where
// the release has no async hooks, or is not known.
func TestDeliveryByRelease(t *testing.T) {
	for v, want := range map[string]Delivery{
		"": DeliverNone, "2.0.30": DeliverNone, "2.1.14": DeliverNone,
		"2.1.15": DeliverOutput, "2.1.33": DeliverOutput, "2.1.44": DeliverOutput,
		"2.1.47": DeliverPending, "2.1.63": DeliverPending,
		"2.1.64": DeliverRewake, "2.1.101": DeliverRewake, "2.1.330": DeliverRewake,
	} {
		r, ok := rel(v)()
		if got := DeliveryFor(r, ok); got != want {
			t.Errorf("%q: %v, want %v", v, got, want)
		}
	}
}

// On a release with async hooks the synchronous call formats and leaves
// the linter to the asynchronous one, which has a budget that fits real
// linters; without async hooks the synchronous call lints within its own
// budget; the asynchronous call does nothing there.
func TestSyncAndAsyncSplit(t *testing.T) {
	defer func(w time.Duration) { releaseWait = w }(releaseWait)
	releaseWait = 300 * time.Millisecond
	dir := t.TempDir()
	file := filepath.Join(dir, "notes.txt")
	os.WriteFile(file, []byte("x\n"), 0o644)
	cfg := config.Quality{Lint: true, Format: true, Commands: []config.QualityCommand{{Match: "*.txt",
		Format: []string{"sh", "-c", "touch \"$0.formatted\"", "{file}"},
		Lint:   []string{"sh", "-c", "touch \"$0.linted\"; echo finding-in-$0", "{file}"}}}}
	for _, tc := range []struct {
		release          string
		async            bool
		formats, lints   bool
		context, pending bool
		unpaired         bool // a registration written by hand: no async partner
	}{
		{"2.1.10", false, true, true, true, false, false},
		{"", false, true, false, false, false, false},
		{"", false, true, true, true, false, true},
		{"2.1.33", false, true, false, false, false, false},
		{"2.1.33", false, true, true, true, false, true},
		{"2.1.330", false, true, true, true, false, true},
		{"2.1.33", true, false, true, true, false, false},
		{"2.1.50", true, false, true, false, true, false},
		{"2.1.330", true, false, true, true, false, false},
		{"2.1.10", true, false, false, false, false, false},
		{"", true, false, true, false, true, false},
	} {
		os.Remove(file + ".formatted")
		os.Remove(file + ".linted")
		os.RemoveAll(filepath.Join(dir, ".hookwright"))
		c := Checker{Config: cfg, Dir: dir, Release: rel(tc.release), Async: tc.async, Paired: !tc.unpaired}
		res, err := c.Handle(context.Background(), edit(t, dir, "s1", file))
		if err != nil {
			t.Fatal(err)
		}
		_, ferr := os.Stat(file + ".formatted")
		_, lerr := os.Stat(file + ".linted")
		_, perr := os.Stat(filepath.Join(dir, PendingFile))
		if (ferr == nil) != tc.formats || (lerr == nil) != tc.lints || (res.Context != "") != tc.context || (perr == nil) != tc.pending {
			t.Errorf("%q async %v unpaired %v: formatted %v linted %v context %q pending %v", tc.release, tc.async, tc.unpaired, ferr == nil, lerr == nil, res.Context, perr == nil)
		}
	}
}

// A finding left pending reaches the model at the session's next tool
// call, once.
func TestPendingIsDeliveredOnce(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "notes.txt")
	os.WriteFile(file, []byte("x\n"), 0o644)
	cfg := config.Quality{Lint: true, Commands: []config.QualityCommand{{Match: "*.txt", Lint: []string{"echo", "vet-like finding"}}}}
	if _, err := (Checker{Config: cfg, Dir: dir, Release: rel("2.1.50"), Async: true, Paired: true}).Handle(context.Background(), edit(t, dir, "s1", file)); err != nil {
		t.Fatal(err)
	}
	courier := Courier{Config: cfg, Dir: dir}
	other, _ := courier.Handle(context.Background(), edit(t, dir, "s2", file))
	if other.Context != "" {
		t.Fatalf("another session got the finding: %q", other.Context)
	}
	res, err := courier.Handle(context.Background(), edit(t, dir, "s1", file))
	if err != nil || !strings.Contains(res.Context, "vet-like finding") || !strings.HasPrefix(res.Context, FeedbackPrefix) {
		t.Fatalf("courier: %+v, %v", res, err)
	}
	if again, _ := courier.Handle(context.Background(), edit(t, dir, "s1", file)); again.Context != "" {
		t.Fatalf("delivered twice: %q", again.Context)
	}
}

// The asynchronous budget fits a slow linter the synchronous one cuts off.
func TestAsyncBudget(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "notes.txt")
	os.WriteFile(file, []byte("x\n"), 0o644)
	// A linter that takes longer than a 1 s synchronous budget.
	cfg := config.Quality{Lint: true, Timeout: 1, AsyncTimeout: 10, Commands: []config.QualityCommand{{Match: "*.txt", Lint: []string{"sh", "-c", "sleep 2; echo slow finding"}}}}
	sync, _ := Checker{Config: cfg, Dir: dir, Release: rel("2.1.10")}.Handle(context.Background(), edit(t, dir, "s1", file))
	if !strings.Contains(sync.Context, "did not finish within the 1s quality budget") {
		t.Fatalf("sync: %q", sync.Context)
	}
	async, _ := Checker{Config: cfg, Dir: dir, Release: rel("2.1.330"), Async: true}.Handle(context.Background(), edit(t, dir, "s1", file))
	if !strings.Contains(async.Context, "slow finding") {
		t.Fatalf("async: %q", async.Context)
	}
}

// Early in a session the release may not be told yet (2.1.33 writes its
// version to the transcript after the first tool call): the synchronous
// call with a partner leaves the linter to it, and the partner, in the
// background, waits a moment for the release, then lints; still not told,
// it leaves its findings for the session's next tool call. A release told
// while it waits is used.
func TestUnknownReleaseLeftToPartner(t *testing.T) {
	defer func(w time.Duration) { releaseWait = w }(releaseWait)
	releaseWait = 300 * time.Millisecond
	dir := t.TempDir()
	file := filepath.Join(dir, "notes.txt")
	os.WriteFile(file, []byte("x\n"), 0o644)
	cfg := config.Quality{Lint: true, Commands: []config.QualityCommand{{Match: "*.txt", Lint: []string{"echo", "a finding"}}}}
	if sync, _ := (Checker{Config: cfg, Dir: dir, Release: rel(""), Paired: true}).Handle(context.Background(), edit(t, dir, "s1", file)); sync.Context != "" {
		t.Fatalf("sync, release unknown, with a partner: %q", sync.Context)
	}
	async, _ := Checker{Config: cfg, Dir: dir, Release: rel(""), Async: true}.Handle(context.Background(), edit(t, dir, "s1", file))
	if async.Context != "" {
		t.Fatalf("async, release never told: %q (want it pending)", async.Context)
	}
	if res, _ := (Courier{Config: cfg, Dir: dir}).Handle(context.Background(), edit(t, dir, "s1", file)); !strings.Contains(res.Context, "a finding") {
		t.Fatalf("the next tool call: %q", res.Context)
	}
	// Told while it waits: 2.1.33 delivers the hook's own output.
	calls := 0
	told := func() (hooks.Release, bool) {
		if calls++; calls < 3 {
			return hooks.Release{}, false
		}
		return hooks.Release{2, 1, 33}, true
	}
	late, _ := Checker{Config: cfg, Dir: dir, Release: told, Async: true}.Handle(context.Background(), edit(t, dir, "s1", file))
	if !strings.Contains(late.Context, "a finding") {
		t.Fatalf("release told during the wait: %q", late.Context)
	}
}
