package doctor

import (
	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/manifests"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestContractFindings(t *testing.T) {
	good := pluginCopy(t, false)
	unquoted := pluginCopy(t, false)
	hooksPath := filepath.Join(unquoted, "hooks", "hooks.json")
	data, _ := os.ReadFile(hooksPath)
	os.WriteFile(hooksPath, []byte(strings.ReplaceAll(string(data), `\"${CLAUDE_PLUGIN_ROOT}/bin/hookwright\"`, `/opt/hookwright`)), 0o644)
	// A hooks.json hookgen writes for one release (--cc-version): the exec
	// form from 2.1.139 (the bare ${CLAUDE_PLUGIN_ROOT} path with "args",
	// no shell), and a shell command that execs the binary before.
	execForm := pluginCopy(t, false)
	spec := manifests.Hookwright()
	spec.Direct = false
	band, err := manifests.Generate(spec, hooks.MustRelease("2.1.257"))
	if err != nil || !strings.Contains(string(band), `"args"`) {
		t.Fatalf("band 2.1.257 is not in the exec form: %v", err)
	}
	os.WriteFile(filepath.Join(execForm, "hooks", "hooks.json"), band, 0o644)
	shellForm := pluginCopy(t, false)
	os.WriteFile(filepath.Join(shellForm, "hooks", "hooks.json"), []byte(`{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"exec \"${CLAUDE_PLUGIN_ROOT}/bin/hookwright-linux-amd64\" PreToolUse"}]}]}}`), 0o644)
	// An edge file of the install whose commands leave the plugin root.
	badEdge := pluginCopy(t, false)
	os.WriteFile(filepath.Join(badEdge, "hooks", "2.1.33.json"), []byte(`{"hooks":{"TaskCompleted":[{"hooks":[{"type":"command","command":"/opt/hookwright TaskCompleted"}]}]}}`), 0o644)
	noMeta := pluginCopy(t, false)
	os.Remove(filepath.Join(noMeta, ".claude-plugin", "plugin.json"))
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	tests := []struct {
		name string
		o    Options
		ok   bool
		want string
	}{
		{"healthy", Options{Project: t.TempDir(), PluginRoot: good}, true, "reach the binary through \"${CLAUDE_PLUGIN_ROOT}\""},
		{"no project folder", Options{Project: filepath.Join(t.TempDir(), "gone")}, false, "every hook call would fail open"},
		{"project is a file", Options{Project: file}, false, "is not a folder"},
		{"exec form of one release", Options{Project: t.TempDir(), PluginRoot: execForm}, true, "reach the binary through \"${CLAUDE_PLUGIN_ROOT}\""},
		{"shell form that execs the binary", Options{Project: t.TempDir(), PluginRoot: shellForm}, true, "reach the binary through \"${CLAUDE_PLUGIN_ROOT}\""},
		{"a further hooks file outside the root", Options{Project: t.TempDir(), PluginRoot: badEdge}, false, "(TaskCompleted)"},
		{"commands without the plugin root", Options{Project: t.TempDir(), PluginRoot: unquoted}, false, "do not start with the quoted"},
		{"not a plugin", Options{Project: t.TempDir(), PluginRoot: noMeta}, false, "no .claude-plugin/plugin.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := contract(tt.o)
			out := report(r)
			if r.OK() != tt.ok || !strings.Contains(out, tt.want) {
				t.Fatalf("OK %v, want %v; report lacks %q?\n%s", r.OK(), tt.ok, tt.want, out)
			}
			for _, f := range r {
				if !f.OK && f.Fix == "" {
					t.Errorf("problem without a fix: %+v", f)
				}
			}
		})
	}
}
