package hooks

import (
	"os"
	"path/filepath"
	"testing"
)

// A fallback fires on every release that reads the install, including the
// ones that fire the canonical event themselves. Where the install also
// registers the event natively (the command says --with-native: hookgen
// plugin writes it), the fallback must stand for nothing there, so a
// completion or an idle is gated once, natively. Without --with-native the
// fallback is all the plugin has (a hooks.json written for one older
// release, run by a newer one): it applies on every release.
func TestFallbackIsSilentWhereTheReleaseFiresTheEvent(t *testing.T) {
	dir := t.TempDir()
	transcript := func(version string) string {
		p := filepath.Join(dir, version+".jsonl")
		line := `{"type":"user","version":"` + version + `","message":{"role":"user","content":"go"}}` + "\n"
		if err := os.WriteFile(p, []byte(line), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cfg := t.TempDir()
	list := filepath.Join(cfg, "tasks", "s1")
	os.MkdirAll(list, 0o755)
	os.WriteFile(filepath.Join(list, "1.json"), []byte(`{"id":"1","subject":"ship it","description":"d","status":"completed"}`), 0o644)
	update := func(transcriptPath string) Input {
		in, err := Decode([]byte(`{"session_id":"s1","transcript_path":`+quote(transcriptPath)+`,"hook_event_name":"PostToolUse","tool_name":"TaskUpdate",
			"tool_input":{"taskId":"1","status":"completed"},
			"tool_response":{"success":true,"taskId":"1","updatedFields":["status"],"statusChange":{"from":"in_progress","to":"completed"}}}`), EventPostToolUse)
		if err != nil {
			t.Fatal(err)
		}
		return in
	}
	stop := func(transcriptPath string) Input {
		in, err := Decode([]byte(`{"session_id":"s1","transcript_path":`+quote(transcriptPath)+`,"hook_event_name":"Stop","stop_hook_active":false}`), EventStop)
		if err != nil {
			t.Fatal(err)
		}
		return in
	}
	env := func(kv ...string) func(string) string {
		m := map[string]string{"CLAUDE_CONFIG_DIR": cfg, "CLAUDE_CODE_TEAM_NAME": "core", "CLAUDE_CODE_AGENT_NAME": "alice"}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	tests := []struct {
		name      string
		canonical Event
		in        Input
		getenv    func(string) string
		want      bool
	}{
		{"TaskUpdate on 2.1.32 (transcript)", EventTaskCompleted, update(transcript("2.1.32")), env(), true},
		{"TaskUpdate on 2.1.33 (transcript)", EventTaskCompleted, update(transcript("2.1.33")), env(), false},
		{"TaskUpdate on 2.1.330 (AI_AGENT)", EventTaskCompleted, update(""), env("AI_AGENT", "claude-code_2-1-330_harness"), false},
		{"AI_AGENT wins over the transcript", EventTaskCompleted, update(transcript("2.1.20")), env("AI_AGENT", "claude-code_2-1-120"), false},
		{"TaskUpdate, release unknown", EventTaskCompleted, update(filepath.Join(dir, "missing.jsonl")), env(), true},
		{"Stop on 2.0.30", EventTeammateIdle, stop(transcript("2.0.30")), env(), true},
		{"Stop on 2.1.33", EventTeammateIdle, stop(transcript("2.1.33")), env(), false},
		{"Stop on 2.1.252 (AI_AGENT)", EventTeammateIdle, stop(""), env("AI_AGENT", "claude-code_2-1-252_harness"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, withNative := range []bool{true, false} {
				inv := Invocation{Event: tt.canonical, Via: tt.in.Base().HookEventName, WithNative: withNative}
				out, err := inv.Translate(tt.in, tt.getenv)
				if err != nil {
					t.Fatal(err)
				}
				// Without --with-native the fallback is the plugin's only
				// registration: it applies everywhere.
				if want := tt.want || !withNative; (out != nil) != want {
					t.Errorf("--with-native %v: applies = %v (%+v), want %v", withNative, out != nil, out, want)
				}
			}
			// Translate alone is the translation: it never silences.
			if out, ok, err := adapt(tt.canonical, tt.in, tt.getenv); err != nil || !ok {
				t.Errorf("Translate = %+v, %v; want the canonical event", out, err)
			}
		})
	}
}

// --with-native is read from a hook's command line, and written back.
func TestWithNativeFlag(t *testing.T) {
	inv, err := ParseInvocation([]string{"TaskCompleted", "--via", "PostToolUse", "--with-native"})
	if err != nil || !inv.WithNative || inv.Via != EventPostToolUse {
		t.Fatalf("ParseInvocation = %+v, %v", inv, err)
	}
	back, err := ParseInvocation(inv.Args())
	if err != nil || back != inv {
		t.Errorf("Args() = %q reads back as %+v, %v; want %+v", inv.Args(), back, err, inv)
	}
	if _, err := ParseInvocation([]string{"TaskCompleted", "--with-native=1"}); err == nil {
		t.Error("--with-native=1 was accepted: the flag takes no value")
	}
}

func quote(s string) string {
	b := []byte{'"'}
	for _, r := range s {
		if r == '"' || r == '\\' {
			b = append(b, '\\')
		}
		b = append(b, string(r)...)
	}
	return string(append(b, '"'))
}

// adapt is Translate with the answer as the tests read it: ok is false
// when the fired event stands for nothing.
func adapt(canonical Event, in Input, getenv func(string) string) (Input, bool, error) {
	out, err := Translate(canonical, in, getenv)
	return out, out != nil, err
}
