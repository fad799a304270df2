package marketplace

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// write creates path under dir with data.
func write(t *testing.T, dir, path, data string) {
	t.Helper()
	p := filepath.Join(dir, path)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Hostile sources are refused; a plugin inside the root is read.
func TestReadConfinesSources(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	write(t, outside, "hooks/hooks.json", `{"hooks":{}}`)
	write(t, root, "plugins/ok/hooks/hooks.json", `{"hooks":{}}`)
	write(t, root, "plugins/ok/.claude-plugin/plugin.json", `{"name":"ok"}`)
	if err := os.Symlink(outside, filepath.Join(root, "plugins", "link-out")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "plugins", "linked-file", "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "hooks", "hooks.json"), filepath.Join(root, "plugins", "linked-file", "hooks", "hooks.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "plugins", "fifo", "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "plugins", "fifo", "hooks", "hooks.json"), 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	write(t, root, ".claude-plugin/marketplace.json", `{"name":"m","plugins":[
		{"name":"ok","source":"./plugins/ok"},
		{"name":"up","source":"../../etc"},
		{"name":"abs","source":"`+outside+`"},
		{"name":"sneaky","source":"./plugins/../../x"},
		{"name":"link-out","source":"./plugins/link-out"},
		{"name":"linked-file","source":"./plugins/linked-file"},
		{"name":"fifo","source":"./plugins/fifo"},
		{"name":"remote","source":{"source":"github","repo":"a/b"}}
	]}`)
	m, err := Read(root)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Plugin{}
	for _, p := range m.Plugins {
		got[p.Name] = p
	}
	if p := got["ok"]; p.Skip != "" || p.Err != nil || string(p.Files.Hooks) != `{"hooks":{}}` || string(p.Files.Manifest) != `{"name":"ok"}` {
		t.Errorf("ok = %+v", p)
	}
	for _, name := range []string{"up", "abs", "sneaky", "link-out"} {
		if p := got[name]; !strings.Contains(p.Skip, "leaves the marketplace root") && !strings.Contains(p.Skip, "not a relative path") || p.Files.Hooks != nil {
			t.Errorf("%s: skip %q, %d bytes read; want it refused", name, p.Skip, len(p.Files.Hooks))
		}
	}
	if p := got["linked-file"]; p.Files.Hooks != nil || !errors.Is(p.Err, ErrUnsafe) {
		t.Errorf("linked-file: %d bytes, err %v; want the link out refused", len(p.Files.Hooks), p.Err)
	}
	if p := got["fifo"]; p.Files.Hooks != nil || p.Err == nil || !strings.Contains(p.Err.Error(), "not a regular file") {
		t.Errorf("fifo: %d bytes, err %v; want not a regular file", len(p.Files.Hooks), p.Err)
	}
	if p := got["remote"]; !strings.Contains(p.Skip, "remote") {
		t.Errorf("remote: %+v", p)
	}
}

// A marketplace.json over the bound is refused, not read whole.
func TestReadBoundsFiles(t *testing.T) {
	root := t.TempDir()
	write(t, root, ".claude-plugin/marketplace.json", `{"name":"`+strings.Repeat("a", MaxFile)+`"}`)
	if _, err := Read(root); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("Read = %v, want larger than", err)
	}
	if _, err := Read(t.TempDir()); err == nil {
		t.Error("a folder without marketplace.json: no error")
	}
}

// Hostile marketplace.json never panics and never reads outside.
func FuzzRead(f *testing.F) {
	f.Add(`{"plugins":[{"name":"a","source":"./a"},{"source":"../x"},{"source":{"source":"url"}}]}`)
	f.Add(`{"metadata":{"pluginRoot":"../"},"plugins":[{"name":"a","source":"a"}]}`)
	f.Fuzz(func(t *testing.T, doc string) {
		root := t.TempDir()
		write(t, root, ".claude-plugin/marketplace.json", doc)
		m, err := Read(root)
		if err != nil {
			return
		}
		for _, p := range m.Plugins {
			if p.Files.Hooks != nil || p.Files.Manifest != nil {
				t.Fatalf("read files of %q from an empty marketplace", p.Source)
			}
		}
	})
}

// ReadPlugin reads the hooks files plugin.json names, inside the plugin
// only, notes the component paths it names that are not there, and
// whether it declares MCP servers; a marketplace entry comes along.
func TestReadPluginNamedFiles(t *testing.T) {
	outside := t.TempDir()
	write(t, outside, "secret.json", `{"hooks":{}}`)
	dir := t.TempDir()
	write(t, dir, ".claude-plugin/plugin.json", `{"name":"p","hooks":["./hooks/a.json","./hooks/../hooks/a.json","./hooks/missing.json","./../`+filepath.Base(outside)+`/secret.json","./hooks/link.json"],"skills":["./skills","./here"],"commands":"./nope.md"}`)
	write(t, dir, "hooks/a.json", `{"hooks":{}}`)
	write(t, dir, "here/SKILL.md", "x")
	write(t, dir, ".mcp.json", `{}`)
	if err := os.Symlink(filepath.Join(outside, "secret.json"), filepath.Join(dir, "hooks", "link.json")); err != nil {
		t.Fatal(err)
	}
	p, err := ReadPlugin(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Files) != 1 || string(p.Files["hooks/a.json"]) != `{"hooks":{}}` {
		t.Errorf("Files = %q; want hooks/a.json alone (no missing file, nothing outside, no link out)", p.Files)
	}
	if !p.Missing["skills"] || !p.Missing["nope.md"] || p.Missing["here"] || len(p.Missing) != 2 {
		t.Errorf("Missing = %v", p.Missing)
	}
	if !p.MCP {
		t.Error("MCP = false with a .mcp.json")
	}
	root := t.TempDir()
	write(t, root, "plugins/p/hooks/hooks.json", `{"hooks":{}}`)
	write(t, root, ".claude-plugin/marketplace.json", `{"name":"m","plugins":[{"name":"p","source":"./plugins/p","strict":false,"hooks":{"Stop":[]}}]}`)
	m, err := Read(root)
	if err != nil {
		t.Fatal(err)
	}
	if e := string(m.Plugins[0].Files.Entry); !strings.Contains(e, `"strict":false`) {
		t.Errorf("Entry = %s", e)
	}
}
