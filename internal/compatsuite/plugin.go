package suite

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
	"github.com/hookwright/hookwright/manifests"
)

// Manifest is one hooks.json of the plugin under test.
type Manifest struct {
	// Path is the file, relative to the plugin folder, e.g. hooks/hooks.json.
	Path string
	// Band is the band the file is written for: the band named by a
	// hooks/bands/<band>.json file, or the oldest release under test for
	// hooks/hooks.json.
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
}

// Handler is one handler object of a manifest.
type Handler struct {
	// Event is the key it is registered under: the event the release fires.
	Event   string
	Matcher string
	Type    string
	// Command is the shell command line; an exec-form handler ("command"
	// the program, "args" its arguments, 2.1.139+) is written as the line
	// that runs it the same through sh -c (manifests.JoinExec).
	Command string
	// Exec is true for an exec-form handler.
	Exec bool
	// Timeout is the raw "timeout" value, nil when absent.
	Timeout any
	// Pointer locates the handler in the file (a JSON pointer).
	Pointer string
}

// Via returns the event named by a trailing "--via <Event>" in the command
// (a hookgen fallback), and the command without it.
func (h Handler) Via() (via, canonical string) {
	i := strings.LastIndex(h.Command, " --via ")
	if i < 0 {
		return "", h.Command
	}
	via = strings.TrimSpace(h.Command[i+len(" --via "):])
	if strings.ContainsAny(via, " \t\"'") {
		return "", h.Command
	}
	return via, h.Command[:i]
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
	// Bands are the hooks/bands/<band>.json files, by band edge string:
	// manifests a runtime may switch to on releases of that band.
	Bands map[string]*Manifest
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
	p := &Plugin{Dir: abs, Bands: map[string]*Manifest{}}
	p.Shipped, err = readManifest(abs, filepath.Join("hooks", "hooks.json"), floor)
	if err != nil {
		return nil, fmt.Errorf("plugin %s has no readable hooks/hooks.json: %w", dir, err)
	}
	files, _ := filepath.Glob(filepath.Join(abs, "hooks", "bands", "*.json"))
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		band, err := hooks.ParseRelease(name)
		if err != nil {
			continue // not a band manifest
		}
		m, err := readManifest(abs, filepath.Join("hooks", "bands", filepath.Base(f)), band)
		if err != nil {
			return nil, err
		}
		p.Bands[band.String()] = m
	}
	return p, nil
}

// manifestsFor returns the manifests release v may load: hooks/hooks.json,
// and the band file of v's band when the plugin ships one.
func (p *Plugin) manifestsFor(v hooks.Release) []*Manifest {
	out := []*Manifest{p.Shipped}
	if band, err := compat.BandOf(v); err == nil {
		if m, ok := p.Bands[band.String()]; ok {
			out = append(out, m)
		}
	}
	return out
}
