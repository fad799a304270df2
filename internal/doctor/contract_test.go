package doctor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/internal/runtime/native"
)

func TestContractFindings(t *testing.T) {
	good := pluginCopy(t, false)
	unquoted := pluginCopy(t, false)
	hooksPath := filepath.Join(unquoted, "hooks", "hooks.json")
	data, _ := os.ReadFile(hooksPath)
	os.WriteFile(hooksPath, []byte(strings.ReplaceAll(string(data), `\"${CLAUDE_PLUGIN_ROOT}/bin/hookwright\"`, `/opt/hookwright`)), 0o644)
	// After the native switch on 2.1.139+ the manifest is the exec form:
	// the bare ${CLAUDE_PLUGIN_ROOT} path with "args", and no shell.
	execForm := pluginCopy(t, false)
	band, err := os.ReadFile(filepath.Join(execForm, "hooks", "bands", "2.1.257.json"))
	if err != nil || !strings.Contains(string(band), `"args"`) {
		t.Fatalf("band 2.1.257 is not in the exec form: %v", err)
	}
	os.WriteFile(filepath.Join(execForm, "hooks", "hooks.json"), band, 0o644)
	// Before 2.1.139 the switch writes a shell command that execs the
	// platform binary.
	shellForm := pluginCopy(t, false)
	band, err = os.ReadFile(filepath.Join(shellForm, "hooks", "bands", "2.1.33.json"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(shellForm, "hooks", "hooks.json"), native.Direct(band, native.Platform()), 0o644)
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
		{"exec form after the switch", Options{Project: t.TempDir(), PluginRoot: execForm}, true, "reach the binary through \"${CLAUDE_PLUGIN_ROOT}\""},
		{"shell form after the switch", Options{Project: t.TempDir(), PluginRoot: shellForm}, true, "reach the binary through \"${CLAUDE_PLUGIN_ROOT}\""},
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
