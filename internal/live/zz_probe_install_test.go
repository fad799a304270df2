package live

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProbeInstallShapes is a scratch probe (not committed): which shell
// runs a shell-form hook, and whether hooks files named in plugin.json load
// one by one.
func TestProbeInstallShapes(t *testing.T) {
	Available(t)
	vs := strings.Split(os.Getenv("PROBE_VERSIONS"), ",")
	for _, v := range vs {
		t.Run(v, func(t *testing.T) {
			t.Parallel()
			out := t.TempDir()
			rec := func(tag string) string {
				return `echo "` + tag + ` $(ps -o args= -p $$ | head -c 200) ppid=$(ps -o args= -p $PPID | head -c 120) SHELL=$SHELL" >> "` + filepath.Join(out, "log") + `"`
			}
			hooksJSON := `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":` + q(rec("main-pre")) + `}]}],
			"PostToolUse":[{"hooks":[{"type":"command","command":` + q(rec("main-post-if")) + `,"if":"Bash(never-ever-matches *)"}]}]}}`
			extraGood := `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":` + q(rec("extra-good")) + `}]}]}}`
			extraBad := `{"hooks":{"TeammateIdle":[{"hooks":[{"type":"command","command":"true"}]}],"PreToolUse":[{"hooks":[{"type":"command","command":` + q(rec("extra-bad-2.1.33")) + `}]}]}}`
			extraExec := `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"/bin/sh","args":["-c",` + q(rec("exec-form")) + `]}]}]}}`
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, ".claude-plugin", "plugin.json"), `{"name":"probe","version":"0.0.1","hooks":["./hooks/good.json","./hooks/bad.json","./hooks/exec.json"]}`)
			writeFile(t, filepath.Join(dir, "hooks", "hooks.json"), hooksJSON)
			writeFile(t, filepath.Join(dir, "hooks", "good.json"), extraGood)
			writeFile(t, filepath.Join(dir, "hooks", "bad.json"), extraBad)
			writeFile(t, filepath.Join(dir, "hooks", "exec.json"), extraExec)
			_, res := session(t, installT(t, v), forcePush, sessionOpts{pluginDirs: []string{dir}})
			log, _ := os.ReadFile(filepath.Join(out, "log"))
			n, ok := RegisteredHooks(res.DebugLog)
			var lines []string
			for _, l := range strings.Split(res.DebugLog, "\n") {
				if strings.Contains(l, "ook") && (strings.Contains(l, "oad") || strings.Contains(l, "egister") || strings.Contains(l, "ailed")) {
					lines = append(lines, l)
				}
			}
			t.Logf("%s: registered %d %v\nlog:\n%s\ndebug:\n%s", v, n, ok, log, strings.Join(lines, "\n"))
		})
	}
}

func q(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(s) + `"`
}
