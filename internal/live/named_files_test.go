package live

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNamedHooksFilesLoadOneByOne keeps live the two loader behaviours the
// install for every release rests on (compat/FACTS.md, "One install,
// every release"): hooks files that plugin.json names load one by one, a
// release refusing one of them (here for naming TeammateIdle, which 2.0.30
// lacks) skips that file alone and runs the plugin's other hooks; and a
// shell-form hook runs through /bin/sh -c, whatever $SHELL is.
func TestNamedHooksFilesLoadOneByOne(t *testing.T) {
	Available(t)
	for _, c := range []struct {
		release  string
		refuses  bool // refuses late.json (TeammateIdle)
		wantHook int
	}{
		{"2.0.30", true, 3}, {"2.1.33", false, 5}, {"2.1.252", false, 5}, {spineVersions[len(spineVersions)-1], false, 5},
	} {
		t.Run(c.release, func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(t.TempDir(), "ran")
			rec := func(tag string) string {
				return `echo "` + tag + ` $(ps -o args= -p $$ | cut -c1-10)" >> "` + out + `"`
			}
			handler := func(event, tag string) string {
				return `"` + event + `":[{"hooks":[{"type":"command","command":` + q(rec(tag)) + `}]}]`
			}
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, ".claude-plugin", "plugin.json"), `{"name":"named","version":"0.0.1","hooks":["./hooks/early.json","./hooks/late.json"]}`)
			writeFile(t, filepath.Join(dir, "hooks", "hooks.json"), `{"hooks":{`+handler("PreToolUse", "standard")+`,`+handler("SessionStart", "start")+`}}`)
			writeFile(t, filepath.Join(dir, "hooks", "early.json"), `{"hooks":{`+handler("PreToolUse", "early")+`}}`)
			writeFile(t, filepath.Join(dir, "hooks", "late.json"), `{"hooks":{`+handler("PreToolUse", "late")+`,"TeammateIdle":[{"hooks":[{"type":"command","command":"true"}]}]}}`)
			_, res := session(t, installT(t, c.release), forcePush, sessionOpts{pluginDirs: []string{dir}, env: []string{"SHELL=/bin/bash"}})
			if StandardFileRefused(res.DebugLog) {
				t.Errorf("hooks/hooks.json refused:\n%s", loadLines(res.DebugLog))
			}
			if n, ok := RegisteredHooks(res.DebugLog); !ok || n != c.wantHook {
				t.Errorf("RegisteredHooks = %d, %v; want %d", n, ok, c.wantHook)
			}
			ran, _ := os.ReadFile(out)
			got := string(ran)
			for _, tag := range []string{"standard", "early", "start"} {
				if !strings.Contains(got, tag+" /bin/sh -c") {
					t.Errorf("%s did not run through /bin/sh -c:\n%s", tag, got)
				}
			}
			if strings.Contains(got, "late") == c.refuses {
				t.Errorf("late.json ran = %v, want %v (the file names TeammateIdle):\n%s", !c.refuses, !c.refuses, got)
			}
		})
	}
}

// q quotes s as a JSON string.
func q(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(s) + `"`
}
