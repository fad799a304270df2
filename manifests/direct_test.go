package manifests

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestDirectFormOnlyForLaunchers(t *testing.T) {
	for _, cmd := range []string{
		`node "${CLAUDE_PLUGIN_ROOT}/scripts/x.js"`,                  // not a launcher in bin/
		`"${CLAUDE_PLUGIN_ROOT}/bin/hookwright" PreToolUse | tee x`,  // needs a shell
		`"${CLAUDE_PLUGIN_ROOT}/bin/sub/hookwright" PreToolUse`,      // not directly in bin/
		`${CLAUDE_PLUGIN_ROOT}/bin/hookwright PreToolUse`,            // unquoted: not ours to rewrite
		`"${CLAUDE_PLUGIN_ROOT}/bin/" PreToolUse`,                    // no name
		`"${CLAUDE_PLUGIN_ROOT}/bin/hookwright" "$(touch marker)"`,   // an argument that is not a plain word
		`"${CLAUDE_PLUGIN_ROOT}/bin/hookwright" PreToolUse; touch m`, // a second command
	} {
		if got, ok := DirectForm(cmd); ok {
			t.Errorf("DirectForm(%q) = %q, want it left alone", cmd, got)
		}
	}
	if _, ok := DirectForm(`"${CLAUDE_PLUGIN_ROOT}/bin/hookwright" TeammateIdle --via Stop`); !ok {
		t.Fatal("the runtime's own command is not rewritten")
	}
}

// goPlatform is this machine's suffix in bin/, as the launcher names it.
func goPlatform() string {
	p := runtime.GOOS + "-" + runtime.GOARCH
	if runtime.GOOS == "windows" {
		p += ".exe"
	}
	return p
}

// TestDirectFormRuns runs the direct form the way Claude Code runs a
// shell-form hook (the placeholder replaced in the text, then sh -c), in
// every layout a plugin folder can be in, under dash and under bash.
func TestDirectFormRuns(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX shells")
	}
	shells := []string{"/bin/sh"}
	if p, err := exec.LookPath("bash"); err == nil {
		shells = append(shells, p)
	}
	if p, err := exec.LookPath("dash"); err == nil {
		shells = append(shells, p)
	}
	command, ok := DirectForm(`"${CLAUDE_PLUGIN_ROOT}/bin/hookwright" TeammateIdle --via Stop`)
	if !ok {
		t.Fatal("not rewritten")
	}
	plat := goPlatform()
	// A "binary" is a script that says which file ran and with what.
	prog := func(name string, code int) string {
		return "#!/bin/sh\necho \"" + name + " $*\"\nread -r line\necho \"stdin=$line\"\nexit " + string(rune('0'+code)) + "\n"
	}
	layouts := []struct {
		name  string
		files map[string]string // bin/<file> -> script ("" = a plain file, not executable)
		want  string
		code  int
	}{
		{"a build: the platform binary beside the launcher", map[string]string{"hookwright": prog("launcher", 0), "hookwright-" + plat: prog("build", 2)}, "build", 2},
		{"a release, unpacked", map[string]string{"hookwright": prog("launcher", 0), "hookwright-1.2.3-" + plat + ".gz": "", "hookwright-1.2.3-" + plat: prog("release", 0)}, "release", 0},
		{"a release not unpacked yet", map[string]string{"hookwright": prog("launcher", 0), "hookwright-1.2.3-" + plat + ".gz": ""}, "launcher", 0},
		{"an older release's binary left behind", map[string]string{"hookwright": prog("launcher", 0), "hookwright-1.0.0-" + plat: prog("stale", 0), "hookwright-1.2.3-" + plat + ".gz": ""}, "launcher", 0},
		{"another platform's binary only", map[string]string{"hookwright": prog("launcher", 0), "hookwright-plan9-mips": prog("other", 0)}, "launcher", 0},
		{"a binary that is not executable", map[string]string{"hookwright": prog("launcher", 0), "hookwright-" + plat: ""}, "launcher", 0},
	}
	for _, root := range []string{"plain", "with space", "it's & (odd) [x] *"} {
		for _, l := range layouts {
			for _, sh := range shells {
				t.Run(root+"/"+l.name+"/"+filepath.Base(sh), func(t *testing.T) {
					dir := filepath.Join(t.TempDir(), root)
					bin := filepath.Join(dir, "bin")
					if err := os.MkdirAll(bin, 0o755); err != nil {
						t.Fatal(err)
					}
					for name, body := range l.files {
						mode := os.FileMode(0o755)
						if body == "" {
							mode = 0o644
						}
						if err := os.WriteFile(filepath.Join(bin, name), []byte(body), mode); err != nil {
							t.Fatal(err)
						}
					}
					line := strings.ReplaceAll(command, "${CLAUDE_PLUGIN_ROOT}", dir)
					cmd := exec.Command(sh, "-c", line)
					cmd.Env = []string{"PATH=/usr/bin:/bin"}
					cmd.Stdin = strings.NewReader(`{"hook_event_name":"Stop"}` + "\n")
					var out, errb bytes.Buffer
					cmd.Stdout, cmd.Stderr = &out, &errb
					err := cmd.Run()
					code := 0
					var ee *exec.ExitError
					if errors.As(err, &ee) {
						code = ee.ExitCode()
					} else if err != nil {
						t.Fatal(err)
					}
					want := l.want + " TeammateIdle --via Stop\nstdin={\"hook_event_name\":\"Stop\"}\n"
					if out.String() != want || code != l.code || errb.Len() != 0 {
						t.Errorf("ran %q (exit %d, stderr %q), want %q (exit %d)", out.String(), code, errb.String(), want, l.code)
					}
				})
			}
		}
	}
}

func TestLauncherCallUndoesDirectForm(t *testing.T) {
	for _, call := range []string{
		`"${CLAUDE_PLUGIN_ROOT}/bin/hookwright" Stop`,
		`"${CLAUDE_PLUGIN_ROOT}/bin/hookwright" TaskCompleted --via PostToolUse --proto 2.1.69`,
		`"${CLAUDE_PLUGIN_ROOT}/bin/myplugin"`,
	} {
		d, ok := DirectForm(call)
		if !ok {
			t.Fatalf("%s: not rewritten", call)
		}
		if got, ok := LauncherCall(d); !ok || got != call {
			t.Errorf("LauncherCall(DirectForm(%q)) = %q, %v", call, got, ok)
		}
	}
	for _, cmd := range []string{`node x.js`, `b="x"; exec "$b" Stop`, `b="${CLAUDE_PLUGIN_ROOT}/bin/hookwright"; rm -rf x; exec "$b" Stop`} {
		if got, ok := LauncherCall(cmd); ok || got != cmd {
			t.Errorf("LauncherCall(%q) = %q, %v; want it unchanged and false", cmd, got, ok)
		}
	}
}
