package live

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
)

// Probe is what one release's hooks.json validator accepts, read from the
// release's own code: the event enum and, per handler type, the keys its
// schema object declares. Keys outside that list are stripped (or, on late
// releases, warned about) but never fail the load; events outside Events
// reject the whole file up to 2.1.252.
type Probe struct {
	Release string `json:"release"`
	// Source says which file of the release was read: "cli.js" (the Node
	// releases) or "native binary" (2.1.113 and later).
	Source string `json:"source"`
	// Events is the validator's event enum, in the release's own order.
	Events []string `json:"events"`
	// Handlers maps each handler type to the keys of its schema object,
	// sorted.
	Handlers map[string][]string `json:"handlers"`
}

// HandlerTypes returns the handler types, sorted.
func (p Probe) HandlerTypes() []string {
	out := make([]string, 0, len(p.Handlers))
	for k := range p.Handlers {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Same reports whether p and q accept exactly the same hooks.json.
func (p Probe) Same(q Probe) bool {
	a, b := slices.Clone(p.Events), slices.Clone(q.Events)
	sort.Strings(a)
	sort.Strings(b)
	if !slices.Equal(a, b) || len(p.Handlers) != len(q.Handlers) {
		return false
	}
	for t, keys := range p.Handlers {
		if !slices.Equal(keys, q.Handlers[t]) {
			return false
		}
	}
	return true
}

// ErrNoEnum is wrapped when a release's code holds no recognisable event
// enum or handler schema, e.g. because a new bundler changed its shape.
var ErrNoEnum = errors.New("live: no hook schema found in the release's code")

// ProbeRelease reads what version's hooks.json validator accepts without
// starting a session. It reads an install from the live tier's cache when
// there is one, else a probe cached by an earlier call, else it fetches the
// release's package with `npm pack` into a temporary folder (64–364 MB
// unpacked for one file; only the probe's JSON is kept, in
// CacheDir()/probes).
func ProbeRelease(ctx context.Context, version string) (Probe, error) {
	return probeRelease(ctx, version, true)
}

// probeRelease is ProbeRelease; with memo false it ignores an earlier
// result and reads the release's code again.
func probeRelease(ctx context.Context, version string, memo bool) (Probe, error) {
	if !exactVersion.MatchString(version) {
		return Probe{}, fmt.Errorf("%w: %q (want x.y.z)", ErrBadVersion, version)
	}
	cache, err := CacheDir()
	if err != nil {
		return Probe{}, err
	}
	memoFile := filepath.Join(cache, "probes", version+".json")
	if b, err := os.ReadFile(memoFile); memo && err == nil {
		var p Probe
		if json.Unmarshal(b, &p) == nil && p.Release == version && len(p.Events) > 0 {
			return p, nil
		}
	}
	code, source, err := releaseCode(ctx, cache, version)
	if err != nil {
		return Probe{}, err
	}
	p, err := ParseProbe(code)
	if err != nil {
		return Probe{}, fmt.Errorf("%s (%s): %w", version, source, err)
	}
	p.Release, p.Source = version, source
	if b, err := json.MarshalIndent(p, "", "  "); err == nil && os.MkdirAll(filepath.Dir(memoFile), 0o755) == nil {
		tmp := memoFile + ".tmp" + fmt.Sprint(os.Getpid())
		if os.WriteFile(tmp, append(b, '\n'), 0o644) == nil {
			_ = os.Rename(tmp, memoFile) // a memo only saves time; losing it is harmless
		}
	}
	return p, nil
}

// releaseCode returns the file of version that holds its hook schema.
func releaseCode(ctx context.Context, cache, version string) ([]byte, string, error) {
	if bin, err := cached(filepath.Join(cache, version)); err == nil {
		dir := filepath.Join(cache, version)
		if b, err := os.ReadFile(filepath.Join(dir, "node_modules", Package, "cli.js")); err == nil {
			return b, "cli.js", nil
		}
		if b, err := os.ReadFile(bin); err == nil && len(b) > stubMax {
			return b, "native binary", nil
		}
	}
	tmp, err := os.MkdirTemp("", "hookwright-probe-")
	if err != nil {
		return nil, "", err
	}
	defer os.RemoveAll(tmp)
	b, err := packFile(ctx, tmp, Package+"@"+version, "package/cli.js")
	if err == nil {
		return b, "cli.js", nil
	}
	if !errors.Is(err, errNotInPackage) {
		return nil, "", err
	}
	native := Package + "-" + runtime.GOOS + "-" + npmArch() + "@" + version
	b, err = packFile(ctx, tmp, native, "package/claude")
	if err != nil {
		return nil, "", err
	}
	return b, "native binary", nil
}

var errNotInPackage = errors.New("file not in package")

// packFile fetches spec's tarball with `npm pack` into dir and returns the
// content of the file named name inside it. The tarball is deleted.
func packFile(ctx context.Context, dir, spec, name string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "npm", "pack", "--silent", "--pack-destination", dir, spec)
	cmd.Env = npmEnv()
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		return nil, fmt.Errorf("live: npm pack %s: %w\n%s", spec, err, stderr)
	}
	lines := strings.Fields(strings.TrimSpace(string(out)))
	if len(lines) == 0 {
		return nil, fmt.Errorf("live: npm pack %s printed no file name", spec)
	}
	tgz := filepath.Join(dir, filepath.Base(lines[len(lines)-1]))
	defer os.Remove(tgz)
	f, err := os.Open(tgz)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("live: %s: %w", tgz, err)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil, fmt.Errorf("%w: %s has no %s", errNotInPackage, spec, name)
		}
		if err != nil {
			return nil, fmt.Errorf("live: %s: %w", tgz, err)
		}
		if h.Name == name && h.Typeflag == tar.TypeReg {
			return io.ReadAll(io.LimitReader(tr, 1<<30))
		}
	}
}

// enumStart opens every string array that begins with the first event.
var enumStart = []byte(`["PreToolUse",`)

// handlerType matches the type key of a handler's schema object, e.g.
// `type:k.literal("command").describe("Bash command hook type")`, or
// `.describe('Hook type (currently only "command" is supported)')` on the
// early releases (1.0.x to 2.0.2x). Late native builds call zod's
// functions bare: `type:E("mcp_tool").describe("MCP tool hook type")`.
var handlerType = regexp.MustCompile(`type:[A-Za-z0-9_$.]+\("([a-z_]+)"\)\.describe\(["'][^"'\n]*[Hh]ook type`)

// ParseProbe reads the event enum and the handler schemas out of a release's
// bundled code. The event enum is the longest string array that starts with
// "PreToolUse"; shorter ones are subsets the release uses elsewhere (which
// events take prompt hooks, say). On the releases whose loader error lists
// its enum (2.0.30, 2.1.33, 2.1.100, 2.1.139, 2.1.200, 2.1.252) this reading
// equals that list (see TestProbeMatchesTheLoader and compat/FACTS.md).
func ParseProbe(code []byte) (Probe, error) {
	var p Probe
	for off := 0; ; {
		i := bytes.Index(code[off:], enumStart)
		if i < 0 {
			break
		}
		list, ok := stringArray(code[off+i:])
		if ok && len(list) > len(p.Events) {
			p.Events = list
		}
		off += i + len(enumStart)
	}
	if len(p.Events) == 0 {
		return p, fmt.Errorf("%w: no event enum", ErrNoEnum)
	}
	p.Handlers = map[string][]string{}
	for _, m := range handlerType.FindAllSubmatchIndex(code, -1) {
		if m[0] == 0 || code[m[0]-1] != '{' {
			continue
		}
		keys, ok := objectKeys(code[m[0]-1:])
		if !ok {
			continue
		}
		typ := string(code[m[2]:m[3]])
		p.Handlers[typ] = mergeKeys(p.Handlers[typ], keys)
	}
	if len(p.Handlers) == 0 {
		return p, fmt.Errorf("%w: no handler schema", ErrNoEnum)
	}
	return p, nil
}

// mergeKeys returns the sorted union of a and b.
func mergeKeys(a, b []string) []string {
	out := append(slices.Clone(a), b...)
	sort.Strings(out)
	return slices.Compact(out)
}

// stringArray reads a JS array literal of plain double-quoted strings at
// the start of b.
func stringArray(b []byte) ([]string, bool) {
	var out []string
	i := 1
	for i < len(b) && i < 1<<12 {
		if b[i] != '"' {
			return nil, false
		}
		j := bytes.IndexByte(b[i+1:], '"')
		if j < 0 {
			return nil, false
		}
		out = append(out, string(b[i+1:i+1+j]))
		i += j + 2
		switch {
		case i < len(b) && b[i] == ',':
			i++
		case i < len(b) && b[i] == ']':
			return out, true
		default:
			return nil, false
		}
	}
	return nil, false
}

// objectKeys returns the keys at the top level of the JS object literal
// that starts at b[0] == '{', skipping strings, template literals and nested
// brackets. A spread ("...x") is kept as "...".
func objectKeys(b []byte) ([]string, bool) {
	var keys []string
	depth := 0
	expectKey := false
	for i := 0; i < len(b) && i < 1<<16; i++ {
		c := b[i]
		if depth == 1 && expectKey {
			if k, n := keyAt(b[i:]); n > 0 {
				keys = append(keys, k)
				i += n - 1
				expectKey = false
				continue
			}
		}
		switch c {
		case '"', '\'', '`':
			n, ok := skipString(b[i:])
			if !ok {
				return nil, false
			}
			i += n - 1
			expectKey = false
		case '{', '(', '[':
			depth++
			expectKey = depth == 1
		case '}', ')', ']':
			depth--
			if depth == 0 {
				return keys, true
			}
		case ',':
			expectKey = depth == 1
		}
	}
	return nil, false
}

// jsKey matches an object key and its colon: an identifier or a quoted
// name, or a spread.
var jsKey = regexp.MustCompile(`^(?:([A-Za-z_$][A-Za-z0-9_$]*)|"([^"\\]*)")\s*:|^\.\.\.`)

// keyAt reads a key at the start of b; n is 0 when there is none.
func keyAt(b []byte) (string, int) {
	m := jsKey.FindSubmatchIndex(b[:min(len(b), 256)])
	if m == nil {
		return "", 0
	}
	switch {
	case m[2] >= 0:
		return string(b[m[2]:m[3]]), m[1]
	case m[4] >= 0:
		return string(b[m[4]:m[5]]), m[1]
	}
	return "...", m[1]
}

// skipString returns the length of the string or template literal at the
// start of b. Template substitutions may nest strings and braces.
func skipString(b []byte) (int, bool) {
	q := b[0]
	for i := 1; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case q:
			return i + 1, true
		case '$':
			if q == '`' && i+1 < len(b) && b[i+1] == '{' {
				depth := 0
				for j := i + 1; j < len(b); j++ {
					switch b[j] {
					case '"', '\'', '`':
						n, ok := skipString(b[j:])
						if !ok {
							return 0, false
						}
						j += n - 1
					case '{':
						depth++
					case '}':
						depth--
						if depth == 0 {
							i = j
							j = len(b)
						}
					}
				}
			}
		}
	}
	return 0, false
}
