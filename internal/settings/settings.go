// Package settings installs generated hooks into a Claude Code settings
// file (.claude/settings.json of a project, or ~/.claude/settings.json),
// for users who do not use plugins.
//
// [Install] merges the manifest's hooks into the file's "hooks" object:
//
//   - every other key, and the order of every key, is kept (the file is
//     read with an order-keeping decoder, [Decode], and written back the
//     way Claude Code writes it, JSON.stringify(v, null, 2));
//   - hooks that are not hookwright's are kept where they are;
//   - hookwright's own handlers (a command running a quoted path named
//     hookwright or hookwright.exe followed by an event) are replaced by the
//     new ones, which go at the end of their event's list; an event key that
//     exists keeps its place, a new one is added at the end;
//   - running it twice changes nothing the second time.
//
// Commands run the installed binary by its quoted absolute path, never
// ${CLAUDE_PLUGIN_ROOT}, which is only set for plugin hooks.
//
// With DryRun, nothing is written and [Result.Diff] shows the change. A
// real write first copies the old file to settings.json.bak-<timestamp>,
// then replaces it atomically (a temporary file and a rename).
package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/atomicfile"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
	"github.com/hookwright/hookwright/manifests"
)

// PluginCommand is how hookwright's spec starts every command; [Install]
// replaces it with the quoted binary path.
const PluginCommand = `"${CLAUDE_PLUGIN_ROOT}/bin/hookwright"`

// Options says what to install where.
type Options struct {
	// Path is the settings file; it need not exist.
	Path string
	// Bin is the absolute path of the hookwright binary the hooks run.
	Bin string
	// Version is the Claude Code release the hooks are generated for.
	Version hooks.Release
	// Spec is the handler spec; its commands start with [PluginCommand].
	Spec manifests.Spec
	// DryRun computes the change and its diff without writing.
	DryRun bool
	// Now stamps the backup's name; zero means time.Now().
	Now time.Time
	// StatusLine, when set, is the statusLine command to install
	// ("\"/path/to/hwctl\" statusline"); "" leaves statusLine alone.
	StatusLine string
}

// Result says what Install did.
type Result struct {
	// Changed is false when the file already held exactly these hooks.
	Changed bool
	// Diff is a unified-style diff of the change ("" when unchanged).
	Diff string
	// Backup is the copy of the old file, "" when none was made.
	Backup string
	// After is the new file content.
	After []byte
	// ReplacedStatusLine is the command of a different statusLine the
	// install replaced ("" when there was none, or it was the same).
	ReplacedStatusLine string
}

// MaxSettings caps the settings file Install reads: far above any real
// one, and a bound on what a mistaken path can make it load.
const MaxSettings = 8 << 20

// Install merges the hooks generated for o.Version into o.Path.
func Install(o Options) (Result, error) {
	if !filepath.IsAbs(o.Bin) {
		return Result{}, fmt.Errorf("hookwright binary %q: want an absolute path", o.Bin)
	}
	if strings.ContainsAny(o.Bin, "\"`$\\") {
		return Result{}, fmt.Errorf("hookwright binary %q: the path may not contain \", `, $ or \\ (it is quoted for sh)", o.Bin)
	}
	spec := o.Spec
	spec.Handlers = append([]manifests.Handler(nil), o.Spec.Handlers...)
	for i, h := range spec.Handlers {
		spec.Handlers[i].Command = strings.Replace(h.Command, PluginCommand, `"`+o.Bin+`"`, 1)
	}
	generated, err := manifests.Generate(spec, o.Version)
	if err != nil {
		return Result{}, err
	}
	// A settings file a dotfiles manager links from elsewhere stays a
	// link: the file it names is read and replaced.
	target := o.Path
	if fi, err := os.Lstat(o.Path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if target, err = filepath.EvalSymlinks(o.Path); err != nil {
			return Result{}, fmt.Errorf("%s is a symlink that leads nowhere (%w); fix or remove the link", o.Path, err)
		}
	}
	before, err := safepath.ReadFollowing(target, MaxSettings)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Result{}, fmt.Errorf("reading %s: %w", o.Path, err)
	}
	after, err := Merge(before, generated)
	if err != nil {
		return Result{}, fmt.Errorf("%s: %w", o.Path, err)
	}
	var prevStatus string
	if o.StatusLine != "" {
		if after, prevStatus, err = SetStatusLine(after, o.StatusLine); err != nil {
			return Result{}, fmt.Errorf("%s: %w", o.Path, err)
		}
	}
	res := Result{After: after, ReplacedStatusLine: prevStatus}
	if bytes.Equal(before, after) {
		return res, nil
	}
	res.Changed = true
	res.Diff = Diff(string(before), string(after), o.Path, o.Path+" (new)")
	if o.DryRun {
		return res, nil
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return res, fmt.Errorf("writing %s: %w", target, err)
	}
	if before != nil {
		now := o.Now
		if now.IsZero() {
			now = time.Now()
		}
		res.Backup = o.Path + ".bak-" + now.Format("20060102-150405")
		if err := os.WriteFile(res.Backup, before, 0o600); err != nil {
			return res, fmt.Errorf("backing up %s: %w", o.Path, err)
		}
	}
	if err := atomicfile.Write(target, after); err != nil {
		return res, err
	}
	return res, nil
}

// SetStatusLine returns settings with its statusLine set to run command
// ({"type": "command", "command": command, "padding": 0}), every other key
// kept where it is, and the command of a different statusLine it
// replaced.
func SetStatusLine(settings []byte, command string) (out []byte, replaced string, err error) {
	var file manifests.Object
	if len(bytes.TrimSpace(settings)) > 0 {
		v, err := Decode(settings)
		if err != nil {
			return nil, "", err
		}
		o, ok := v.(manifests.Object)
		if !ok {
			return nil, "", errors.New("settings is not a JSON object")
		}
		file = o
	}
	line := manifests.Object{{Key: "type", Value: "command"}, {Key: "command", Value: command}, {Key: "padding", Value: 0}}
	if i := index(file, "statusLine"); i >= 0 {
		if old, ok := file[i].Value.(manifests.Object); ok {
			if c, _ := get(old, "command").(string); c != command {
				replaced = c
			}
		} else {
			replaced = fmt.Sprint(file[i].Value)
		}
		file[i].Value = line
	} else {
		file = append(file, manifests.Member{Key: "statusLine", Value: line})
	}
	out, err = manifests.MarshalJS(file)
	return out, replaced, err
}

// ours matches a command that runs hookwright by a quoted path with an
// event: "/path/to/hookwright" PreToolUse ...
var ours = regexp.MustCompile(`^"[^"]*[/\\]hookwright(?:\.exe)?" [A-Z][A-Za-z]+(?: |$)`)

// Merge returns settings (a settings file, or nil for none) with
// manifest's hooks merged in as the package comment describes.
func Merge(settings, manifest []byte) ([]byte, error) {
	var file manifests.Object
	if len(bytes.TrimSpace(settings)) > 0 {
		v, err := Decode(settings)
		if err != nil {
			return nil, err
		}
		o, ok := v.(manifests.Object)
		if !ok {
			return nil, errors.New("settings is not a JSON object")
		}
		file = o
	}
	m, err := Decode(manifest)
	if err != nil {
		return nil, fmt.Errorf("generated manifest: %w", err)
	}
	newHooks, _ := get(m.(manifests.Object), "hooks").(manifests.Object)

	hooks, _ := get(file, "hooks").(manifests.Object)
	if get(file, "hooks") != nil && hooks == nil {
		return nil, errors.New(`"hooks" is not an object`)
	}
	// Drop our handlers, keeping every key where it is.
	for i, ev := range hooks {
		groups, ok := ev.Value.([]any)
		if !ok {
			return nil, fmt.Errorf("hooks.%s is not a list", ev.Key)
		}
		hooks[i].Value = withoutOurs(groups)
	}
	// Add the new groups at the end of their event.
	for _, ev := range newHooks {
		added := ev.Value.([]any)
		if i := index(hooks, ev.Key); i >= 0 {
			hooks[i].Value = append(hooks[i].Value.([]any), added...)
		} else {
			hooks = append(hooks, manifests.Member{Key: ev.Key, Value: added})
		}
	}
	var kept manifests.Object
	for _, ev := range hooks {
		if len(ev.Value.([]any)) > 0 {
			kept = append(kept, ev)
		}
	}
	if i := index(file, "hooks"); i >= 0 {
		file[i].Value = kept
	} else {
		file = append(file, manifests.Member{Key: "hooks", Value: kept})
	}
	return manifests.MarshalJS(file)
}

// withoutOurs removes hookwright's handlers from groups, and groups left
// with no handler.
func withoutOurs(groups []any) []any {
	var out []any
	for _, g := range groups {
		obj, ok := g.(manifests.Object)
		if !ok {
			out = append(out, g)
			continue
		}
		i := index(obj, "hooks")
		handlers, ok := get(obj, "hooks").([]any)
		if i < 0 || !ok {
			out = append(out, g)
			continue
		}
		var keep []any
		for _, h := range handlers {
			if ho, ok := h.(manifests.Object); ok {
				if cmd, _ := get(ho, "command").(string); ours.MatchString(cmd) {
					continue
				}
			}
			keep = append(keep, h)
		}
		if len(keep) == 0 {
			continue
		}
		obj[i].Value = keep
		out = append(out, obj)
	}
	return out
}

func index(o manifests.Object, key string) int {
	for i, m := range o {
		if m.Key == key {
			return i
		}
	}
	return -1
}

func get(o manifests.Object, key string) any {
	if i := index(o, key); i >= 0 {
		return o[i].Value
	}
	return nil
}

// Decode parses JSON keeping the order of object keys: objects become
// [manifests.Object], arrays []any, numbers int (when integral and small
// enough) or float64, so [manifests.MarshalJS] writes the value back as
// JSON.stringify would.
func Decode(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("invalid JSON: data after the top-level value")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			obj := manifests.Object{}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				obj = append(obj, manifests.Member{Key: k.(string), Value: v})
			}
			_, err := dec.Token()
			return obj, err
		}
		arr := []any{}
		for dec.More() {
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		_, err := dec.Token()
		return arr, err
	case json.Number:
		if i, err := t.Int64(); err == nil && i >= -(1<<53) && i <= 1<<53 {
			return int(i), nil
		}
		return t.Float64()
	default:
		return t, nil // string, bool or nil
	}
}
