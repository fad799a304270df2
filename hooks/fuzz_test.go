package hooks_test

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/handlers/builtin"
	"github.com/hookwright/hookwright/internal/runtime/call"
	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/runtime/project"
)

// FuzzReadDecodeDispatch feeds arbitrary stdin, as any event, through the
// runtime's path: Read, Decode, then Dispatch to the built-in handlers in a
// scratch project, and Emit. Nothing may panic (a handler panic is caught by
// the mux, so it is checked for here), and only a Block may exit 2.
// The seed corpus is in testdata/fuzz/FuzzReadDecodeDispatch.
func FuzzReadDecodeDispatch(f *testing.F) {
	events := hooks.Events()
	for i, e := range events {
		f.Add([]byte(`{"session_id":"s1","hook_event_name":"`+string(e)+`","cwd":"/nonexistent"}`), uint8(i))
	}
	dir := f.TempDir()
	home := filepath.Join(dir, "home")
	projectDir := filepath.Join(dir, "project")
	env := project.Env{
		Getenv: func(k string) string {
			return map[string]string{"CLAUDE_PROJECT_DIR": projectDir, "HOME": home}[k]
		},
		Now: func() time.Time { return time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC) },
	}
	f.Fuzz(func(t *testing.T, stdin []byte, which uint8) {
		event := events[int(which)%len(events)]
		data, err := hooks.Read(bytes.NewReader(stdin), hooks.ReadOptions{MaxBytes: 1 << 20, Timeout: time.Second})
		if err != nil || data == nil {
			return
		}
		in, err := hooks.Decode(data, event)
		if err != nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		c := call.New(call.Spec{Root: projectDir, Env: env, Config: config.Default(), Session: in.Base().SessionID})
		res, faults := builtin.For(c, event).Dispatch(ctx, in)
		for _, f := range faults {
			if errors.Is(f.Err, hooks.ErrPanic) {
				t.Fatalf("%s panicked on %q: %v", f.Handler, data, f.Err)
			}
		}
		var stdout, stderr bytes.Buffer
		code := hooks.Emit(&stdout, &stderr, event, res, hooks.Band{})
		if code == hooks.ExitBlock && res.Decision != hooks.Block {
			t.Fatalf("exit 2 without a block decision: %+v", res)
		}
		if code != hooks.ExitOK && code != hooks.ExitBlock {
			t.Fatalf("exit %d", code)
		}
	})
}
