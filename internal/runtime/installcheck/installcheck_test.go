package installcheck

import (
	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
	"github.com/hookwright/hookwright/manifests"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// shipped writes the plugin's install, as hookgen generates it, into a
// fresh folder under parent (made if needed) and returns the plugin root.
func shipped(t *testing.T, parent string) string {
	t.Helper()
	root := filepath.Join(parent, "plugin")
	in, err := manifests.BuildInstall(manifests.Hookwright(), hooks.Release{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range in.Files {
		write(t, filepath.Join(root, filepath.FromSlash(f.Path)), f.JSON)
	}
	pj, err := manifests.SetPluginHooks([]byte(`{"name":"hookwright","version":"1.0.0"}`), in.PluginHooks())
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(root, ".claude-plugin", "plugin.json"), pj)
	return root
}

func write(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// band is the single-release manifest hookgen writes for v: what the
// wave-3 native switch wrote over hooks/hooks.json.
func band(t *testing.T, v string) []byte {
	t.Helper()
	data, err := manifests.Generate(manifests.Hookwright(), hooks.MustRelease(v))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestShippedInstallIsFine(t *testing.T) {
	root := shipped(t, t.TempDir())
	if p, ok := Check(root); !ok {
		t.Fatalf("Check = %+v on the install as shipped", p)
	}
	if p, ok := Check(""); !ok {
		t.Fatalf("Check(\"\") = %+v", p)
	}
}

// The state issue 32 saw: a newer release's session rewrote
// hooks/hooks.json to its own band; an older release then refuses it and
// runs no hook. The next session of a release that can run says so, with
// the command that puts the file back.
func TestRewrittenManifestIsReported(t *testing.T) {
	for _, c := range []struct {
		name, band, want string
		whole            bool
	}{
		{"the 2.1.329 band (native events, exec form)", "2.1.329", "event TaskCompleted, which arrives in 2.1.33", true},
		{"the 2.1.33 band", "2.1.33", "which arrives in 2.1.33, so releases before 2.1.33 refuse the whole file", true},
		{"the 2.0.44 band", "2.0.44", "event SubagentStart, which arrives in 2.0.44", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := shipped(t, t.TempDir())
			write(t, filepath.Join(root, "hooks", "hooks.json"), band(t, c.band))
			p, ok := Check(root)
			if ok {
				t.Fatal("no problem reported")
			}
			if !strings.Contains(p.What, c.want) || !strings.Contains(p.What, "the guard included") {
				t.Errorf("What = %q, want it to say %q and that the guard stops", p.What, c.want)
			}
			if !strings.HasPrefix(p.Fix, "reinstall") {
				t.Errorf("Fix = %q, want a reinstall outside git and the cache", p.Fix)
			}
		})
	}
}

func TestArgsAtTheFloorIsReported(t *testing.T) {
	root := shipped(t, t.TempDir())
	write(t, filepath.Join(root, "hooks", "hooks.json"), []byte(`{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"x","args":["PreToolUse"]}]}]}}`))
	p, ok := Check(root)
	if ok || !strings.Contains(p.What, `"args"`) || strings.Contains(p.What, "the guard included") {
		t.Fatalf("Check = %+v, %v; want args reported as run without its arguments", p, ok)
	}
	// Keys every release reads past are not a problem.
	write(t, filepath.Join(root, "hooks", "hooks.json"), []byte(`{"$schema":"x","hooks":{"PreToolUse":[{"id":"g","hooks":[{"type":"command","command":"x","statusMessage":"s","note":"n"}]}]}}`))
	if p, ok := Check(root); !ok {
		t.Fatalf("Check = %+v on keys every release reads past", p)
	}
}

func TestFixNamesTheWayTheFolderWasInstalled(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	// A folder marketplace: a git clone with the plugin in plugin/.
	clone := t.TempDir()
	root := shipped(t, clone)
	if out, err := exec.Command("git", "-C", clone, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	write(t, filepath.Join(root, "hooks", "hooks.json"), band(t, "2.1.33"))
	p, _ := Check(root)
	if want := `git -C "` + clone + `" checkout -- "plugin"`; p.Fix != want {
		t.Errorf("git clone: Fix = %q, want %q", p.Fix, want)
	}
	// Claude Code's plugin cache (2.1.33 to 2.1.100 copy the plugin there).
	cache := filepath.Join(t.TempDir(), ".claude", "plugins", "cache", "mkt", "hookwright")
	root = shipped(t, cache)
	root2 := filepath.Join(cache, "0.1.0")
	if err := os.Rename(root, root2); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(root2, "hooks", "hooks.json"), band(t, "2.1.33"))
	p, _ = Check(root2)
	if want := "claude plugin uninstall hookwright@mkt && claude plugin install hookwright@mkt"; p.Fix != want {
		t.Errorf("cache: Fix = %q, want %q", p.Fix, want)
	}
	// A development checkout regenerates.
	dev := t.TempDir()
	root = shipped(t, dev)
	write(t, filepath.Join(dev, "go.mod"), []byte(module+"\n\ngo 1.26\n"))
	write(t, filepath.Join(root, "hooks", "hooks.json"), band(t, "2.1.33"))
	p, _ = Check(root)
	if !strings.HasPrefix(p.Fix, "make plugin-hooks") {
		t.Errorf("dev checkout: Fix = %q", p.Fix)
	}
}

func TestHostileFiles(t *testing.T) {
	t.Run("missing named file", func(t *testing.T) {
		root := shipped(t, t.TempDir())
		os.Remove(filepath.Join(root, "hooks", "2.1.33.json"))
		if p, ok := Check(root); ok || !strings.Contains(p.What, "./hooks/2.1.33.json, which is missing") {
			t.Fatalf("Check = %+v, %v", p, ok)
		}
	})
	t.Run("named file outside the plugin", func(t *testing.T) {
		root := shipped(t, t.TempDir())
		write(t, filepath.Join(root, ".claude-plugin", "plugin.json"), []byte(`{"name":"x","hooks":["./../../etc/passwd"]}`))
		if p, ok := Check(root); ok || !strings.Contains(p.What, "outside the plugin") {
			t.Fatalf("Check = %+v, %v", p, ok)
		}
	})
	t.Run("hooks.json a symlink out", func(t *testing.T) {
		root := shipped(t, t.TempDir())
		target := filepath.Join(t.TempDir(), "x.json")
		write(t, target, []byte(`{"hooks":{}}`))
		os.Remove(filepath.Join(root, "hooks", "hooks.json"))
		if err := os.Symlink(target, filepath.Join(root, "hooks", "hooks.json")); err != nil {
			t.Skip(err)
		}
		if _, ok := Check(root); ok {
			t.Fatal("a symlink out of the plugin was followed")
		}
	})
	t.Run("hooks.json a named pipe", func(t *testing.T) {
		if runtime.GOOS == "windows" {
			t.Skip("no mkfifo")
		}
		root := shipped(t, t.TempDir())
		p := filepath.Join(root, "hooks", "hooks.json")
		os.Remove(p)
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Skip(err)
		}
		if _, ok := Check(root); ok { // must return at all: no writer ever comes
			t.Fatal("a named pipe passed")
		}
	})
	t.Run("cut short", func(t *testing.T) {
		root := shipped(t, t.TempDir())
		data, _ := os.ReadFile(filepath.Join(root, "hooks", "hooks.json"))
		write(t, filepath.Join(root, "hooks", "hooks.json"), data[:len(data)/2])
		if _, ok := Check(root); ok {
			t.Fatal("a hooks.json cut short passed")
		}
	})
}

func BenchmarkCheck(b *testing.B) {
	root := filepath.Join(b.TempDir(), "p")
	in, _ := manifests.BuildInstall(manifests.Hookwright(), hooks.Release{})
	for _, f := range in.Files {
		os.MkdirAll(filepath.Dir(filepath.Join(root, f.Path)), 0o755)
		os.WriteFile(filepath.Join(root, filepath.FromSlash(f.Path)), f.JSON, 0o644)
	}
	pj, _ := manifests.SetPluginHooks([]byte(`{"name":"hookwright"}`), in.PluginHooks())
	os.MkdirAll(filepath.Join(root, ".claude-plugin"), 0o755)
	os.WriteFile(filepath.Join(root, ".claude-plugin", "plugin.json"), pj, 0o644)
	// As in the hook binary (cmd/hookwright's main): one call opens each
	// root folder once.
	safepath.KeepRoots = true
	defer func() { safepath.KeepRoots = false }()
	for b.Loop() {
		if _, ok := Check(root); !ok {
			b.Fatal("problem")
		}
	}
}
