package suite

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
	"github.com/hookwright/hookwright/manifests"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Manifest is one hooks.json of the plugin under test.
type Manifest struct {
	// Path is the file, relative to the plugin folder, e.g. hooks/hooks.json.
	Path string
	// Band is the release the file is written for: the one a
	// hooks/<release>.json file plugin.json names is named for, or the
	// oldest release under test for hooks/hooks.json.
	Band hooks.Release
	// Raw is the file as read.
	Raw []byte
	// Err says why Raw is not one well-formed JSON object; Doc is nil then.
	Err error
	// Doc is the decoded file (numbers as json.Number).
	Doc map[string]any
	// Events are the keys of "hooks", sorted.
	Events []string
	// Handlers are the handler objects, in file order.
	Handlers []Handler
	// merged are the files a view stands for (Session.views); nil for a
	// file.
	merged []*Manifest
}

// Handler is one handler object of a manifest.
type Handler struct {
	// Event is the key it is registered under: the event the release fires.
	Event   string
	Matcher string
	Type    string
	// Command is the shell command line; an exec-form handler ("command"
	// the program, "args" its arguments, 2.1.139+) is written as the line
	// that runs it the same through sh -c (manifests.JoinExec), and one in
	// the direct form as the launcher call it was written from
	// (manifests.LauncherCall).
	Command string
	// Exec is true for an exec-form handler.
	Exec bool
	// Timeout is the raw "timeout" value, nil when absent.
	Timeout any
	// Pointer locates the handler in the file (a JSON pointer).
	Pointer string
}

// Via returns the event named by a trailing "--via <Event>" in the command
// (a hookgen fallback; hookgen plugin's install adds " --with-native"
// after it), and the command without them.
func (h Handler) Via() (via, canonical string) {
	cmd := strings.TrimSuffix(h.Command, " --with-native")
	i := strings.LastIndex(cmd, " --via ")
	if i < 0 {
		return "", h.Command
	}
	via = strings.TrimSpace(cmd[i+len(" --via "):])
	if strings.ContainsAny(via, " \t\"'") {
		return "", h.Command
	}
	return via, cmd[:i]
}

// readManifest reads and decodes path (relative to dir), written for band.
func readManifest(dir, path string, band hooks.Release) (*Manifest, error) {
	raw, err := readPluginFile(dir, path)
	if err != nil {
		return nil, err
	}
	m := &Manifest{Path: path, Band: band, Raw: raw}
	m.Doc, m.Err = decodeStrict(raw)
	if m.Err == nil {
		m.Events, m.Handlers = walkHooks(m.Doc)
	}
	return m, nil
}

// maxPluginFile caps every plugin file the suite reads: a manifest, a
// plugin.json or a launcher script is a few KiB.
const maxPluginFile = 16 << 20

// readPluginFile reads rel inside the plugin folder dir: opened without
// blocking, a regular file only, at most maxPluginFile bytes, never outside
// dir. A named pipe or a device is an error naming the file, not a hang.
func readPluginFile(dir, rel string) ([]byte, error) {
	p, err := safepath.In(dir, rel)
	if err != nil {
		return nil, err
	}
	return safepath.ReadFile(p, maxPluginFile)
}

// decodeStrict decodes one JSON object and refuses what JSON.parse would
// accept silently but lose: duplicate keys (the last wins, so a handler
// vanishes), invalid UTF-8 and trailing data.
func decodeStrict(raw []byte) (map[string]any, error) {
	if !utf8.Valid(raw) {
		return nil, errors.New("not valid UTF-8")
	}
	if bytes.HasPrefix(raw, []byte("\xef\xbb\xbf")) {
		return nil, errors.New("starts with a byte order mark")
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if dup, err := duplicateKey(d, ""); err != nil {
		return nil, err
	} else if dup != "" {
		return nil, fmt.Errorf("duplicate key %s (JSON.parse keeps only the last one)", dup)
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errors.New("trailing data after the JSON object")
	}
	d = json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("top level is %s, want an object", jsonKind(v))
	}
	return obj, nil
}

// duplicateKey walks one JSON value from d and returns the pointer of the
// first duplicated object key, or "".
func duplicateKey(d *json.Decoder, at string) (string, error) {
	tok, err := d.Token()
	if err != nil {
		return "", fmt.Errorf("invalid JSON: %w", err)
	}
	delim, ok := tok.(json.Delim)
	if !ok {
		return "", nil
	}
	switch delim {
	case '{':
		seen := map[string]bool{}
		for d.More() {
			kt, err := d.Token()
			if err != nil {
				return "", fmt.Errorf("invalid JSON: %w", err)
			}
			k := kt.(string)
			p := at + "/" + escapePointer(k)
			if seen[k] {
				return p, nil
			}
			seen[k] = true
			if dup, err := duplicateKey(d, p); dup != "" || err != nil {
				return dup, err
			}
		}
	case '[':
		for i := 0; d.More(); i++ {
			if dup, err := duplicateKey(d, at+"/"+strconv.Itoa(i)); dup != "" || err != nil {
				return dup, err
			}
		}
	}
	if _, err := d.Token(); err != nil { // the closing delimiter
		return "", fmt.Errorf("invalid JSON: %w", err)
	}
	return "", nil
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	}
	return "an object"
}

// walkHooks lists the event keys and handler objects of a decoded manifest,
// tolerating any shape (the schema cases report shape errors).
func walkHooks(doc map[string]any) (events []string, hs []Handler) {
	hooks, _ := doc["hooks"].(map[string]any)
	for ev := range hooks {
		events = append(events, ev)
	}
	sort.Strings(events)
	for _, ev := range events {
		groups, _ := hooks[ev].([]any)
		for gi, g := range groups {
			group, _ := g.(map[string]any)
			matcher, _ := group["matcher"].(string)
			list, _ := group["hooks"].([]any)
			for hi, h := range list {
				obj, _ := h.(map[string]any)
				typ, _ := obj["type"].(string)
				cmd, _ := obj["command"].(string)
				args, exec := obj["args"].([]any)
				if exec {
					argv := []string{cmd}
					for _, a := range args {
						s, _ := a.(string)
						argv = append(argv, s)
					}
					cmd = manifests.JoinExec(argv)
				}
				// A command in the direct form (manifests.DirectForm) runs
				// the binary beside its launcher, or the launcher: the
				// suite reads and runs it as the launcher call it stands
				// for, which reaches the same binary.
				cmd, _ = manifests.LauncherCall(cmd)
				hs = append(hs, Handler{
					Event: ev, Matcher: matcher, Type: typ, Command: cmd, Exec: exec, Timeout: obj["timeout"],
					Pointer: fmt.Sprintf("/hooks/%s/%d/hooks/%d", escapePointer(ev), gi, hi),
				})
			}
		}
	}
	return events, hs
}

// Plugin is a plugin folder as the suite sees it.
type Plugin struct {
	// Dir is the plugin folder (absolute).
	Dir string
	// Shipped is hooks/hooks.json, the file every release loads.
	Shipped *Manifest
	// Named are the further hooks files plugin.json's "hooks" names, in
	// its order. A release loads each one it accepts and skips the others
	// alone (compat/FACTS.md); a file named hooks/<release>.json is taken
	// to be written for that release, any other for the oldest release
	// under test.
	Named []*Manifest
}

// loadPlugin reads the manifests of the plugin at dir; floor is the band
// hooks/hooks.json is taken to be written for.
func loadPlugin(dir string, floor hooks.Release) (*Plugin, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("plugin folder %s: not a folder", dir)
	}
	p := &Plugin{Dir: abs}
	p.Shipped, err = readManifest(abs, filepath.Join("hooks", "hooks.json"), floor)
	if errors.Is(err, fs.ErrNotExist) {
		// Hooks only in plugin.json (inline, or files it names): the
		// oracle's cases judge them; the others find no manifest here.
		if _, merr := os.Stat(filepath.Join(abs, ".claude-plugin", "plugin.json")); merr != nil {
			return nil, fmt.Errorf("%s holds neither hooks/hooks.json nor .claude-plugin/plugin.json: not a plugin folder", dir)
		}
		p.Shipped = &Manifest{Path: filepath.Join("hooks", "hooks.json"), Band: floor, Err: errors.New("the plugin has no hooks/hooks.json")}
		err = nil
	}
	if err != nil {
		return nil, fmt.Errorf("plugin %s has no readable hooks/hooks.json: %w", dir, err)
	}
	raw, err := readPluginFile(abs, filepath.Join(".claude-plugin", "plugin.json"))
	if err != nil {
		return p, nil // the plugin.json cases report it
	}
	var pj struct {
		Hooks any `json:"hooks"`
	}
	if json.Unmarshal(raw, &pj) != nil {
		return p, nil
	}
	var paths []string
	switch h := pj.Hooks.(type) {
	case string:
		paths = []string{h}
	case []any:
		for _, x := range h {
			if s, ok := x.(string); ok {
				paths = append(paths, s)
			}
		}
	}
	for _, rel := range paths {
		rel = filepath.FromSlash(strings.TrimPrefix(rel, "./"))
		if rel == filepath.Join("hooks", "hooks.json") {
			continue // the loader reads the standard file once
		}
		band := floor
		if v, err := hooks.ParseRelease(strings.TrimSuffix(filepath.Base(rel), ".json")); err == nil && strings.HasSuffix(rel, ".json") {
			band = v
		}
		m, err := readManifest(abs, rel, band)
		if err != nil {
			continue // a file that is not there: the loader cases report it
		}
		p.Named = append(p.Named, m)
	}
	return p, nil
}

// manifestsFor returns the manifests release v loads: hooks/hooks.json,
// and every file plugin.json names whose events v all knows (a file that
// names an event v lacks is refused whole up to 2.1.252, and loses that
// entry after).
func (p *Plugin) manifestsFor(v hooks.Release) []*Manifest {
	out := []*Manifest{p.Shipped}
	for _, m := range p.Named {
		known := true
		for _, ev := range m.Events {
			known = known && compat.Has(compat.KindEvent, ev, v)
		}
		if known {
			out = append(out, m)
		}
	}
	return out
}
