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

// TestDirectFormWithoutArchInProc runs the direct form as a machine whose
// shell cannot name the platform without a fork (Linux before 6.1 under
// dash: no $HOSTTYPE, no /proc/sys/kernel/arch, stood in for by another
// path): the first call asks uname and keeps the answer beside the
// launcher, named for the host; the next reads it back. A planted answer
// that is no platform is not taken.
func TestDirectFormWithoutArchInProc(t *testing.T) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64" {
		t.Skip("the uname fallback names Linux on amd64 and arm64")
	}
	dash, err := exec.LookPath("dash")
	if err != nil {
		t.Skip("no dash")
	}
	host, err := os.ReadFile("/proc/sys/kernel/hostname")
	if err != nil {
		t.Skip(err)
	}
	command, _ := DirectForm(`"${CLAUDE_PLUGIN_ROOT}/bin/hookwright" Stop`)
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	os.MkdirAll(bin, 0o755)
	os.WriteFile(filepath.Join(bin, "hookwright"), []byte("#!/bin/sh\necho launcher\n"), 0o755)
	os.WriteFile(filepath.Join(bin, "hookwright-"+goPlatform()), []byte("#!/bin/sh\necho direct\n"), 0o755)
	line := strings.ReplaceAll(strings.ReplaceAll(command, "${CLAUDE_PLUGIN_ROOT}", dir), "/proc/sys/kernel/arch", filepath.Join(dir, "no-arch"))
	run := func() string {
		out, err := exec.Command(dash, "-c", line).CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		return strings.TrimSpace(string(out))
	}
	cache := filepath.Join(bin, "hookwright-platform-"+strings.TrimSpace(string(host)))
	if got := run(); got != "direct" {
		t.Fatalf("first call ran %q, want the binary", got)
	}
	if data, err := os.ReadFile(cache); err != nil || strings.TrimSpace(string(data)) != goPlatform() {
		t.Fatalf("the answer kept beside the launcher: %q, %v", data, err)
	}
	if got := run(); got != "direct" {
		t.Fatalf("second call ran %q", got)
	}
	for _, planted := range []string{"../../x", "windows-amd64.exe", "linux-amd64 ; touch marker"} {
		os.WriteFile(cache, []byte(planted+"\n"), 0o644)
		if got := run(); got != "direct" {
			t.Errorf("with %q planted: ran %q", planted, got)
		}
		if data, _ := os.ReadFile(cache); strings.TrimSpace(string(data)) != goPlatform() {
			t.Errorf("with %q planted, the answer was not asked again: %q", planted, data)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "marker")); err == nil {
		t.Error("a planted answer ran a command")
	}
}
