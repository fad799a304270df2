//go:build unix

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// A deny rule for a WebFetch domain holds through the binary against the
// spellings Claude Code (Node's WHATWG URL parser) reads as that host:
// full-width letters, an ideographic full stop, a soft hyphen, upper
// case, a trailing dot, IPv4 number forms. Each stops the call (the
// rule is Unsure or Yes, which a deny rule blocks); another host passes.
func TestToolPolicyWebFetchSpellingsThroughTheHook(t *testing.T) {
	project := t.TempDir()
	if err := os.MkdirAll(filepath.Join(project, ".hookwright"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := `{"guard": {"tools": {"WebFetch(domain:example.com)": "deny", "WebFetch(domain:127.0.0.1)": "deny"}}}`
	if err := os.WriteFile(filepath.Join(project, ".hookwright", "config.json"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	call := func(url string) string {
		ev, err := json.Marshal(map[string]any{
			"session_id": "s1", "cwd": project, "hook_event_name": "PreToolUse",
			"tool_name": "WebFetch", "tool_input": map[string]string{"url": url, "prompt": "read it"},
		})
		if err != nil {
			t.Fatal(err)
		}
		return string(ev)
	}
	for _, url := range []string{
		"https://example.com/", "https://EXAMPLE.COM/", "https://example.com./",
		"https://ｅｘａｍｐｌｅ.com/", "https://example。com/", "https://exa\u00ADmple.com/",
		"https://0x7f.1/", "https://2130706433/", "https://0177.0.0.1/", "https://127.1/",
	} {
		if out, errs, code := hook(t, project, "PreToolUse", call(url)); code != 2 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want the deny rule to block", url, code, out, errs)
		}
	}
	for _, url := range []string{"https://example.org/", "https://1.2.3.4/"} {
		if out, errs, code := hook(t, project, "PreToolUse", call(url)); code != 0 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want it through", url, code, out, errs)
		}
	}
}
