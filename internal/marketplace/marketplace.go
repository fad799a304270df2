// Package marketplace reads a Claude Code plugin marketplace from a folder
// (the one holding .claude-plugin/marketplace.json) for hookgen audit: the
// list of plugins and, for each plugin whose source is a folder of the
// marketplace, its hooks/hooks.json and .claude-plugin/plugin.json.
//
// It only reads, and only inside the marketplace root: a source that is
// absolute, climbs out with "..", or reaches out through a symbolic link
// is refused; every file must be a regular file of at most [MaxFile]
// bytes. Nothing a plugin holds is ever run.
package marketplace

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/hookwright/hookwright/internal/oracle"
)

// MaxFile bounds every file read.
const MaxFile = 4 << 20

// MaxPlugins bounds the plugins read from one marketplace.json.
const MaxPlugins = 1000

// Plugin is one entry of marketplace.json and what was read of it.
type Plugin struct {
	Name   string
	Source string // as written, or a description of a remote source
	// Skip says why the plugin's files were not read ("" when they were):
	// a remote source, or a source refused as unsafe.
	Skip string
	// Files are the plugin's files as the oracle judges them, its
	// marketplace entry included.
	Files oracle.Plugin
	// Err is a read error of one of the plugin's files.
	Err error
}

// Marketplace is a marketplace.json and its plugins, in file order.
type Marketplace struct {
	Name    string
	Plugins []Plugin
}

// ErrUnsafe is wrapped for a path that would leave the marketplace root.
var ErrUnsafe = errors.New("marketplace: path leaves the marketplace root")

// Read reads the marketplace at root.
func Read(root string) (*Marketplace, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, err
	}
	b, err := readFile(real, ".claude-plugin/marketplace.json")
	if err != nil {
		return nil, fmt.Errorf("reading .claude-plugin/marketplace.json: %w", err)
	}
	var doc struct {
		Name     string `json:"name"`
		Metadata struct {
			PluginRoot string `json:"pluginRoot"`
		} `json:"metadata"`
		Plugins []json.RawMessage `json:"plugins"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf(".claude-plugin/marketplace.json: %w", err)
	}
	if len(doc.Plugins) > MaxPlugins {
		return nil, fmt.Errorf(".claude-plugin/marketplace.json: %d plugins, more than %d", len(doc.Plugins), MaxPlugins)
	}
	m := &Marketplace{Name: doc.Name}
	for i, raw := range doc.Plugins {
		m.Plugins = append(m.Plugins, readPlugin(real, doc.Metadata.PluginRoot, i, raw))
	}
	return m, nil
}

// readPlugin reads one marketplace entry.
func readPlugin(root, pluginRoot string, i int, raw json.RawMessage) Plugin {
	var e struct {
		Name   string          `json:"name"`
		Source json.RawMessage `json:"source"`
	}
	p := Plugin{Name: fmt.Sprintf("#%d", i+1)}
	p.Files.Entry = raw
	if err := json.Unmarshal(raw, &e); err != nil {
		p.Skip = "entry is not an object with a name and a source"
		return p
	}
	if e.Name != "" {
		p.Name = e.Name
	}
	var src string
	if err := json.Unmarshal(e.Source, &src); err != nil {
		var obj struct {
			Source string `json:"source"`
		}
		_ = json.Unmarshal(e.Source, &obj)
		p.Source = "remote (" + obj.Source + ")"
		p.Skip = "remote source: not fetched"
		return p
	}
	p.Source = src
	dir, err := resolve(root, pluginRoot, src)
	if err != nil {
		p.Skip = err.Error()
		return p
	}
	files, err := ReadPlugin(dir)
	files.Entry = raw
	p.Files, p.Err = files, err
	return p
}

// ReadPlugin reads a plugin folder's hooks/hooks.json,
// .claude-plugin/plugin.json and the other hooks files plugin.json names
// (see oracle.HooksPaths), each confined to dir, regular and bounded, and
// notes whether it declares MCP servers (.mcp.json). A file that does not
// exist is left out; so is a named file that cannot be read safely (a
// link out, a FIFO, a path that leaves the folder): the oracle reports it
// as not in the plugin.
func ReadPlugin(dir string) (oracle.Plugin, error) {
	var p oracle.Plugin
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return p, err
	}
	if p.Hooks, err = readOptional(real, oracle.StandardHooks); err != nil {
		return p, err
	}
	if p.Manifest, err = readOptional(real, ".claude-plugin/plugin.json"); err != nil {
		return p, err
	}
	if _, err := os.Lstat(filepath.Join(real, ".mcp.json")); err == nil {
		p.MCP = true
	}
	for _, clean := range oracle.MissingPaths(p.Manifest) {
		if clean == ".." || strings.HasPrefix(clean, "../") {
			continue
		}
		if _, err := os.Lstat(filepath.Join(real, filepath.FromSlash(clean))); errors.Is(err, os.ErrNotExist) {
			if p.Missing == nil {
				p.Missing = map[string]bool{}
			}
			p.Missing[clean] = true
		}
	}
	if p.Missing == nil && p.Manifest != nil {
		p.Missing = map[string]bool{} // looked, none missing
	}
	for _, name := range oracle.HooksPaths(p.Manifest) {
		clean := oracle.CleanPath(name)
		if clean == oracle.StandardHooks || p.Files[clean] != nil {
			continue
		}
		b, err := readOptional(real, clean)
		if err != nil || b == nil {
			// Missing, or not a regular file inside the plugin: the oracle
			// reports a named file it was not given as not there.
			continue
		}
		if p.Files == nil {
			p.Files = map[string][]byte{}
		}
		p.Files[clean] = b
	}
	return p, nil
}

// resolve turns a relative source into a folder inside root, following
// symbolic links and refusing any that leave it.
func resolve(root, pluginRoot, src string) (string, error) {
	rel := src
	if pluginRoot != "" && !strings.HasPrefix(src, "./") && !strings.HasPrefix(src, "../") {
		rel = path.Join(pluginRoot, src)
	}
	if strings.ContainsRune(rel, 0) || path.IsAbs(rel) || filepath.IsAbs(rel) || filepath.VolumeName(rel) != "" || strings.Contains(rel, `\`) {
		return "", fmt.Errorf("%w: source %q is not a relative path", ErrUnsafe, clip(src))
	}
	clean := path.Clean(rel)
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return "", fmt.Errorf("%w: source %q", ErrUnsafe, clip(src))
	}
	return confined(root, filepath.Join(root, filepath.FromSlash(clean)))
}

// confined resolves p's symbolic links and checks it stays inside root.
func confined(root, p string) (string, error) {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(root, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", fmt.Errorf("%w: %s", ErrUnsafe, clip(p))
	}
	return real, nil
}

// readOptional reads name inside dir; nil, nil when it does not exist.
func readOptional(dir, name string) ([]byte, error) {
	b, err := readFile(dir, name)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	return b, err
}

// readFile reads name inside dir: confined, a regular file, bounded.
func readFile(dir, name string) ([]byte, error) {
	p, err := confined(dir, filepath.Join(dir, filepath.FromSlash(name)))
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(p) // before opening: opening a FIFO blocks
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", name)
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxFile+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxFile {
		return nil, fmt.Errorf("%s: larger than %d MiB", name, MaxFile>>20)
	}
	return b, nil
}

// clip shortens a path for a message.
func clip(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}
