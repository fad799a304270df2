package pdca_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/handlers/pdca"
	"github.com/hookwright/hookwright/internal/runtime/config"
	state "github.com/hookwright/hookwright/internal/state/pdca"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// deliver runs the payload in file through the runtime's path: decode as
// fired, adapt to TaskCompleted when fired is PostToolUse, then the
// Advancer. It returns the state file's content.
func deliver(t *testing.T, project, home, file string, fired hooks.Event) (hooks.Result, []byte) {
	t.Helper()
	t.Setenv("HOME", home)
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("CLAUDE_CODE_TASK_LIST_ID", "")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	in, err := hooks.Decode(data, fired)
	if err != nil {
		t.Fatal(err)
	}
	if fired != hooks.EventTaskCompleted {
		adapted, err := hooks.Translate(hooks.EventTaskCompleted, in, os.Getenv)
		if err != nil || adapted == nil {
			t.Fatalf("fallback: %v err=%v", adapted, err)
		}
		in = adapted
	}
	a := pdca.Advancer{Config: pdcaOn(), Dir: project, Getenv: func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}, Now: func() time.Time { return t0 }}
	res, err := a.Handle(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	state, err := os.ReadFile(filepath.Join(project, config.Default().PDCA.State))
	if err != nil {
		t.Fatal(err)
	}
	return res, state
}

// TestFallbackSameStateAsNative feeds the payloads seen on real releases:
// 2.1.33's native TaskCompleted and, from the same session, the
// PostToolUse(TaskUpdate) that the fallback adapts. Both must write the
// same state; so must 2.1.32's PostToolUse, up to its session id.
func TestFallbackSameStateAsNative(t *testing.T) {
	abs := func(p string) string { a, _ := filepath.Abs(p); return a }
	native, nState := deliver(t, t.TempDir(), abs("testdata/2.1.33/home"), "testdata/2.1.33/TaskCompleted.json", hooks.EventTaskCompleted)
	fb, fState := deliver(t, t.TempDir(), abs("testdata/2.1.33/home"), "testdata/2.1.33/PostToolUse-TaskUpdate-completed.json", hooks.EventPostToolUse)
	if string(nState) != string(fState) {
		t.Fatalf("states differ:\nnative:   %s\nfallback: %s", nState, fState)
	}
	if native.Context != fb.Context || !strings.Contains(native.Context, "login-flow: Do done") {
		t.Fatalf("notes differ or wrong: %q vs %q", native.Context, fb.Context)
	}
	_, old := deliver(t, t.TempDir(), abs("testdata/2.1.32/home"), "testdata/2.1.32/PostToolUse-TaskUpdate-completed.json", hooks.EventPostToolUse)
	var a, b state.State
	json.Unmarshal(nState, &a)
	json.Unmarshal(old, &b)
	fa, fb2 := a.Features["login-flow"], b.Features["login-flow"]
	if fa == nil || fb2 == nil || fa.Phase != fb2.Phase || fa.Phase != "Do" || fa.History[0].Subject != fb2.History[0].Subject {
		t.Fatalf("2.1.32 fallback differs:\n%s\n%s", nState, old)
	}
	if !strings.HasSuffix(fb2.History[0].Task, "/1") {
		t.Fatalf("task key %q", fb2.History[0].Task)
	}
}

// TestNativeThenFallback: where both fire (a band mistake, or a manifest
// that registers both), the task still counts once.
func TestNativeThenFallback(t *testing.T) {
	abs, _ := filepath.Abs("testdata/2.1.33/home")
	project := t.TempDir()
	deliver(t, project, abs, "testdata/2.1.33/TaskCompleted.json", hooks.EventTaskCompleted)
	res, state := deliver(t, project, abs, "testdata/2.1.33/PostToolUse-TaskUpdate-completed.json", hooks.EventPostToolUse)
	if !res.Empty() || strings.Count(string(state), `"task":`) != 1 {
		t.Fatalf("counted twice: %+v\n%s", res, state)
	}
}

func TestFallbackIgnores(t *testing.T) {
	abs, _ := filepath.Abs("testdata/2.1.33/home")
	t.Setenv("HOME", abs)
	base := `{"session_id":"ee5458cb-9932-45b1-b52f-ecc68b1fec83","transcript_path":"t","cwd":"/x","hook_event_name":"PostToolUse","tool_name":"TaskUpdate",`
	for name, body := range map[string]string{
		"in_progress":       `"tool_input":{"taskId":"1","status":"in_progress"},"tool_response":{"success":true,"taskId":"1","updatedFields":["status"],"statusChange":{"from":"pending","to":"in_progress"}}}`,
		"blocked":           `"tool_input":{"taskId":"1","status":"completed"},"tool_response":{"success":false,"taskId":"1","updatedFields":[],"error":"TaskCompleted hook feedback: no"}}`,
		"already completed": `"tool_input":{"taskId":"1","status":"completed"},"tool_response":{"success":true,"taskId":"1","updatedFields":[]}}`,
		"rename only":       `"tool_input":{"taskId":"1","subject":"x"},"tool_response":{"success":true,"taskId":"1","updatedFields":["subject"]}}`,
	} {
		in, err := hooks.Decode([]byte(base+body), hooks.EventPostToolUse)
		if err != nil {
			t.Fatal(err)
		}
		if out, err := hooks.Translate(hooks.EventTaskCompleted, in, os.Getenv); out != nil || err != nil {
			t.Errorf("%s: %v err=%v", name, out, err)
		}
	}
	// No tool_response at all (an unknown release): the input decides, and
	// the subject still comes from the task file.
	in, _ := hooks.Decode([]byte(base+`"tool_input":{"taskId":"2","status":"completed"}}`), hooks.EventPostToolUse)
	out, err := hooks.Translate(hooks.EventTaskCompleted, in, os.Getenv)
	if out == nil || err != nil || out.(*hooks.TaskCompleted).TaskSubject != "[Check] login-flow: review" {
		t.Fatalf("no response: %+v %v", out, err)
	}
}

func TestAdvancerUntaggedAndDisabled(t *testing.T) {
	project := t.TempDir()
	ev := &hooks.TaskCompleted{Common: hooks.Common{SessionID: "s", Cwd: project, HookEventName: hooks.EventTaskCompleted}}
	ev.TaskID, ev.TaskSubject = "1", "write docs"
	a := pdca.Advancer{Config: pdcaOn(), Dir: project, Getenv: func(string) string { return "" }}
	if res, err := a.Handle(context.Background(), ev); !res.Empty() || err != nil {
		t.Fatalf("untagged: %+v %v", res, err)
	}
	ev.TaskSubject = "[Do] a\x1b[2Jb: x"
	if res, err := a.Handle(context.Background(), ev); err != nil || !strings.Contains(res.SystemMessage, "feature") {
		t.Fatalf("control characters: %+v %v", res, err)
	}
	ev.TaskSubject = "[Do] ok"
	a.Config.Enabled = false
	if res, _ := a.Handle(context.Background(), ev); !res.Empty() {
		t.Fatal("disabled handler acted")
	}
	if _, err := os.Stat(filepath.Join(project, ".hookwright")); !os.IsNotExist(err) {
		t.Fatal("state written when it should not be")
	}
}

// pdcaOn is the default PDCA section with the workflow on, as the runtime
// builds it where the project turned PDCA on (package workflow).
func pdcaOn() config.PDCA {
	c := config.Default().PDCA
	c.Enabled = true
	return c
}
