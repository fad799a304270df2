package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"github.com/hookwright/hookwright/internal/runtime/safepath"
)

// The config comes in layers, each over the one before:
//
//  1. the built-in defaults ([Default]);
//  2. the user config, $XDG_CONFIG_HOME/hookwright/config.json (by default
//     ~/.config/hookwright/config.json): the user's own settings for every
//     project, outside all of them, applied in full;
//  3. the project config, .hookwright/config.json: applied in full to
//     every section but the guard's and the journal's, where it may only
//     tighten what layers 1 and 2 set, unless the user config trusts the
//     project;
//  4. the environment: HOOKWRIGHT_GUARD_LEVEL may raise guard.level for a
//     session, never lower it (package guard applies it).
//
// A project is trusted when the user config lists it, or a folder above
// it, in "trust" (absolute paths or ~/…, symlinks resolved on both sides):
//
//	{"trust": ["/home/me/work/my-service", "~/sandbox"], "guard": {"level": "strict"}}
//
// "trust" is read from the user config only; in a project config it is an
// unknown key like any other.

// Source names a config layer.
type Source string

// The layers, in the order they apply.
const (
	SourceDefault Source = "built-in default"
	SourceUser    Source = "user config"
	SourceProject Source = "project config"
	SourceEnv     Source = "environment"
)

// Effect says which way a change moves a guarded field.
type Effect string

// The effects.
const (
	Tightens Effect = "tightens"
	Loosens  Effect = "loosens"
)

// Change is one guarded field a layer set to something other than the
// layer below it.
type Change struct {
	// Field is the field's JSON path: guard.level, guard.rules.git-stash-drop.
	Field  string `json:"field"`
	Source Source `json:"source"`
	// From and To are the values below the layer and the layer's, as JSON.
	From   string `json:"from"`
	To     string `json:"to"`
	Effect Effect `json:"effect"`
	// Ignored: a loosening by a project the user config does not trust;
	// the value below stays.
	Ignored bool `json:"ignored,omitempty"`
}

// String says the change in one line, for explain and the systemMessage.
func (c Change) String() string {
	s := fmt.Sprintf("%s: the %s %s it (%s -> %s)", c.Field, c.Source, c.Effect, c.From, c.To)
	if c.Ignored {
		s += "; ignored: " + ignoredWhy
	}
	return s
}

// ignoredWhy says why a project's change was ignored.
const ignoredWhy = "a project config can only tighten the guard, and add no commands (quality.commands, loop.check), unless the user config trusts the project"

// Layers is the config of one project with the story of how it was made.
type Layers struct {
	Config Config
	// UserFile and ProjectFile are the files read ("" when absent).
	UserFile, ProjectFile string
	// Trusted: the user config trusts the project (TrustedBy is the entry).
	Trusted   bool
	TrustedBy string
	// Changes lists, layer by layer, every guarded field that a layer
	// changed, and the loosenings that were ignored.
	Changes []Change
	// Keys maps each key a config file set, a section ("scratchpad") or a
	// field of one ("scratchpad.enabled"), to the last layer that set it.
	// Package workflow reads it: a workflow is on where a file says so.
	Keys map[string]Source
}

// Set returns the layer that set the key at path ("scratchpad",
// "work.mode"), and whether any did.
func (l Layers) Set(path string) (Source, bool) {
	s, ok := l.Keys[path]
	return s, ok
}

// SetUnder returns the last layer that set a field of section
// ("scratchpad.fail"), and whether any did: an empty section sets
// nothing.
func (l Layers) SetUnder(section string) (Source, bool) {
	var src Source
	found := false
	for k, s := range l.Keys {
		if strings.HasPrefix(k, section+".") {
			if !found || s == SourceProject {
				src = s
			}
			found = true
		}
	}
	return src, found
}

// File returns the file of layer src, "" for the defaults and the
// environment.
func (l Layers) File(src Source) string {
	switch src {
	case SourceUser:
		return l.UserFile
	case SourceProject:
		return l.ProjectFile
	}
	return ""
}

// recordKeys notes, for src, every section of the config object data and
// every field of those sections.
func (l *Layers) recordKeys(data []byte, src Source) {
	kvs, err := objectKeys(bytes.TrimSpace(data))
	if err != nil {
		return
	}
	if l.Keys == nil {
		l.Keys = map[string]Source{}
	}
	for _, kv := range kvs {
		if kv.key == "trust" {
			continue
		}
		l.Keys[kv.key] = src
		fields, err := objectKeys(bytes.TrimSpace(kv.value))
		if err != nil {
			continue
		}
		for _, f := range fields {
			l.Keys[kv.key+"."+f.key] = src
		}
	}
}

// Ignored returns the changes that did not take effect.
func (l Layers) Ignored() []Change {
	var out []Change
	for _, c := range l.Changes {
		if c.Ignored {
			out = append(out, c)
		}
	}
	return out
}

// UserDir returns the folder of the user config: $XDG_CONFIG_HOME/hookwright
// when XDG_CONFIG_HOME is absolute, else $HOME/.config/hookwright; "" when
// neither is known.
func UserDir(getenv func(string) string) string {
	if x := getenv("XDG_CONFIG_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "hookwright")
	}
	if h := getenv("HOME"); h != "" && filepath.IsAbs(h) {
		return filepath.Join(h, ".config", "hookwright")
	}
	return ""
}

// UserFileName is the user config's name in [UserDir].
const UserFileName = "config.json"

// LoadLayers reads the user config and the project config of dir and
// merges them over the defaults (see the layers above). It always returns
// a usable config; the error says what could not be read (a broken user
// config is left out, a broken project config too), never more.
func LoadLayers(dir string, getenv func(string) string) (Layers, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	l := Layers{Config: Default()}
	var errs []error
	// 2. the user config
	var trust []string
	if ud := UserDir(getenv); ud != "" {
		// Read it in its folder first: no config at all, the usual case,
		// costs one failed open, not a walk of every folder on the path.
		data, err := readOptional(safepath.Path{Root: ud, Rel: UserFileName})
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			data, err = safepath.ReadFile(userPath(ud), MaxSize)
		}
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			errs = append(errs, fmt.Errorf("user config %w (left out)", err))
		default:
			l.UserFile = filepath.Join(ud, UserFileName)
			user, tr, err := parseUser(l.Config, data, getenv("HOME"))
			if err != nil {
				errs = append(errs, fmt.Errorf("user config %s: %w (left out)", l.UserFile, err))
				break
			}
			l.Changes = append(l.Changes, diff(l.Config, user, SourceUser)...)
			l.Config, trust = user, tr
			l.recordKeys(data, SourceUser)
		}
	}
	// 3. the project config
	using := "using defaults"
	if l.UserFile != "" {
		using = "using defaults and the user config"
	}
	if dir != "" {
		data, err := readOptional(safepath.Path{Root: dir, Rel: filepath.FromSlash(File)})
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			errs = append(errs, fmt.Errorf("config %w (%s)", err, using))
		default:
			l.ProjectFile = filepath.Join(dir, File)
			proj, err := parseOver(l.Config, data)
			if err != nil {
				errs = append(errs, fmt.Errorf("config %s: %w (%s)", l.ProjectFile, err, using))
				break
			}
			l.TrustedBy = trusts(trust, dir)
			l.Trusted = l.TrustedBy != ""
			var changes []Change
			l.Config, changes = Tighten(l.Config, proj, l.Trusted)
			l.Changes = append(l.Changes, changes...)
			l.recordKeys(data, SourceProject)
		}
	}
	return l, errors.Join(errs...)
}

// readOptional reads a config file that is usually absent: one stat says
// so (a hook runs on every tool call, and the confined open below costs a
// handful of system calls and an error to build); a file that is there,
// or anything else at its name, is read through safepath, bounded and
// confined, as always.
func readOptional(p safepath.Path) ([]byte, error) {
	if _, err := os.Lstat(p.String()); errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return safepath.ReadFile(p, MaxSize)
}

// userPath names the user config for safepath: confined to the folder
// that holds it after symlinks are resolved, since a user's dotfiles are
// often links into a repository of their own (GNU stow). It is still read
// as a regular file only, bounded, without blocking.
func userPath(dir string) safepath.Path {
	p := filepath.Join(dir, UserFileName)
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return safepath.At(r)
	}
	return safepath.Path{Root: dir, Rel: UserFileName}
}

// parseUser decodes the user config over base: a config with one more
// top-level key, "trust", the projects that may loosen the guard.
func parseUser(base Config, data []byte, home string) (Config, []string, error) {
	data = bytes.TrimSpace(data)
	var trust []string
	if len(data) > 0 && data[0] == '{' && json.Valid(data) {
		kvs, err := objectKeys(data)
		if err != nil {
			return base, nil, err
		}
		var rest bytes.Buffer
		rest.WriteByte('{')
		for _, kv := range kvs {
			if kv.key == "trust" {
				if err := json.Unmarshal(kv.value, &trust); err != nil {
					return base, nil, fmt.Errorf("trust: %v (a list of project folders)", err)
				}
				continue
			}
			if rest.Len() > 1 {
				rest.WriteByte(',')
			}
			k, _ := json.Marshal(kv.key)
			rest.Write(k)
			rest.WriteByte(':')
			rest.Write(kv.value)
		}
		rest.WriteByte('}')
		data = rest.Bytes()
	}
	for i, t := range trust {
		switch {
		case strings.HasPrefix(t, "~/") && filepath.IsAbs(home):
			trust[i] = filepath.Join(home, t[2:])
		case !filepath.IsAbs(t):
			return base, nil, fmt.Errorf("trust[%d]: %q is not an absolute path (or ~/…)", i, t)
		}
	}
	cfg, err := parseOver(base, data)
	return cfg, trust, err
}

// parseOver decodes data over a deep copy of base, strictly, and
// validates the result.
func parseOver(base Config, data []byte) (Config, error) {
	cfg := clone(base)
	if err := Strict(data, &cfg); err != nil {
		return base, err
	}
	if err := cfg.Validate(); err != nil {
		return base, err
	}
	return cfg, nil
}

// clone returns a deep copy of c (its maps and slices are its own).
func clone(c Config) Config {
	data, err := json.Marshal(c)
	if err != nil {
		panic(err) // a Config always encodes
	}
	var out Config
	if err := json.Unmarshal(data, &out); err != nil {
		panic(err)
	}
	return out
}

// trusts returns the entry of trust that is dir or a folder above it,
// symlinks resolved on both sides, or "".
func trusts(trust []string, dir string) string {
	if len(trust) == 0 {
		return ""
	}
	real := func(p string) string {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			p = r
		}
		if a, err := filepath.Abs(p); err == nil {
			p = a
		}
		return filepath.Clean(p)
	}
	d := real(dir)
	for _, t := range trust {
		r := real(t)
		if rel, err := filepath.Rel(r, d); err == nil && (rel == "." || filepath.IsLocal(rel)) {
			return t
		}
	}
	return ""
}

// TightenRule says how a guarded field may change in a project config.
type TightenRule struct {
	// Kind is one of the kinds below.
	Kind TightenKind
	// Order lists the values weakest first (KindOrder, KindSeverityMap).
	Order []string
}

// TightenKind is how a field is compared.
type TightenKind int

// The kinds of guarded field.
const (
	// KindFixed: any change is a loosening. A field without a rule is
	// treated so.
	KindFixed TightenKind = iota
	// KindOn: a bool where true guards more (guard.enabled).
	KindOn
	// KindOrder: a string whose values are ordered in Order.
	KindOrder
	// KindUnion: a list a project may add to, never take from.
	KindUnion
	// KindSeverityMap: a map of names to values ordered in Order, where
	// a project may raise a name's value, never lower it; a name the
	// layers below leave unset has the value [MapDefaults] gives it.
	KindSeverityMap
	// KindFree: a field of a guarded section that a project sets as it
	// likes (quality.lint switches a check on, and runs nothing of the
	// project's).
	KindFree
)

// Guarded lists the sections where a project may only tighten, or may
// change only some fields: quality is one, because its commands run on
// the next edit.
var Guarded = []string{"guard", "journal", "quality", "loop"}

// TightenRules has a rule for every field of the guarded sections, by
// JSON path. A field added to a guarded section needs a rule here (a
// test walks the sections by reflection and fails without one); until it
// has one, a project cannot change it at all.
//
// The hook point for maps of severities: guard.rules is one; the packs
// (guard.packs: pack or rule name to "off", "ask" or "block") and the
// tool rules (guard.tools: permission rule to "allow", "ask" or "deny")
// get one line each here:
//
//	"guard.packs": {Kind: KindSeverityMap, Order: []string{"off", "ask", "block"}},
//	"guard.tools": {Kind: KindSeverityMap, Order: []string{"allow", "ask", "deny"}},
//
// and, when the default of an unset name is not the weakest value, an
// entry in MapDefaults.
var TightenRules = map[string]TightenRule{
	"guard.enabled":  {Kind: KindOn},
	"guard.level":    {Kind: KindOrder, Order: []string{string(GuardStandard), string(GuardStrict), string(GuardParanoid)}},
	"guard.fail":     {Kind: KindOrder, Order: []string{string(FailOpen), string(FailClosed)}},
	"guard.deny":     {Kind: KindUnion},
	"guard.protect":  {Kind: KindUnion},
	"guard.secrets":  {Kind: KindUnion},
	"guard.rules":    {Kind: KindSeverityMap, Order: []string{"allow", "ask", "block"}},
	"guard.commands": {Kind: KindUnion},
	"guard.tools":    {Kind: KindSeverityMap, Order: []string{"allow", toolNoRule, "ask", "deny"}},
	"guard.packs":    {Kind: KindSeverityMap, Order: []string{"off", "ask", "block"}},
	// What an MCP tool does changes how much the guard reads of it; a
	// project may set it only with trust, like the commands it runs.
	"guard.mcp":       {Kind: KindFixed},
	"journal.enabled": {Kind: KindOn},
	// A project may switch the built-in checks on or off and set their
	// budget; a command it adds runs on the next edit, so it needs trust.
	"quality.lint":          {Kind: KindFree},
	"quality.format":        {Kind: KindFree},
	"quality.timeout":       {Kind: KindFree},
	"quality.async_timeout": {Kind: KindFree},
	"quality.commands":      {Kind: KindFixed},
	// The Stop loop: a project may switch it on and set its rounds; its
	// check is a shell command run at every stop, so it needs trust.
	"loop.enabled":      {Kind: KindFree},
	"loop.check":        {Kind: KindFixed},
	"loop.promise":      {Kind: KindFree},
	"loop.max_rounds":   {Kind: KindFree},
	"loop.stall_rounds": {Kind: KindFree},
	"loop.timeout":      {Kind: KindFree},
	"loop.subagents":    {Kind: KindFree},
}

// toolNoRule is guard.tools' value for a tool no rule names: above allow,
// below ask.
const toolNoRule = "none"

// MapDefaults gives, for a severity map's JSON path, the value a name has
// when no layer sets it, at the merged config (package guard registers
// guard.rules). Without an entry, or when it does not know the name, an
// unset name counts as the strongest value: a project can then only
// confirm it.
var MapDefaults = map[string]func(c Config, name string) (string, bool){
	"guard.tools": func(Config, string) (string, bool) { return toolNoRule, true },
}

// Tighten returns proj where it tightens base, and base where proj
// loosens it, in the guarded sections; other sections are proj's. With
// trusted set every change applies. The changes list every guarded field
// proj changed.
func Tighten(base, proj Config, trusted bool) (Config, []Change) {
	out := clone(proj)
	var changes []Change
	bv, pv, ov := reflect.ValueOf(&base).Elem(), reflect.ValueOf(&proj).Elem(), reflect.ValueOf(&out).Elem()
	for _, sec := range Guarded {
		i := fieldIndex(bv.Type(), sec)
		if i < 0 {
			continue
		}
		bs, ps, outSec := bv.Field(i), pv.Field(i), ov.Field(i)
		for j := 0; j < bs.NumField(); j++ {
			name := jsonName(bs.Type().Field(j))
			if name == "" {
				continue
			}
			path := sec + "." + name
			ch, keep := tightenField(path, base, bs.Field(j), ps.Field(j), trusted)
			changes = append(changes, ch...)
			if keep.IsValid() {
				outSec.Field(j).Set(keep)
			}
		}
	}
	return out, changes
}

// tightenField compares one guarded field; keep is the value to use when
// it is not proj's.
func tightenField(path string, base Config, b, p reflect.Value, trusted bool) (changes []Change, keep reflect.Value) {
	if reflect.DeepEqual(b.Interface(), p.Interface()) {
		return nil, reflect.Value{}
	}
	rule, ok := TightenRules[path]
	if !ok {
		rule = TightenRule{Kind: KindFixed}
	}
	change := func(field string, from, to any, e Effect) Change {
		return Change{Field: field, Source: SourceProject, From: js(from), To: js(to), Effect: e, Ignored: e == Loosens && !trusted}
	}
	switch rule.Kind {
	case KindFree:
		return nil, reflect.Value{}
	case KindOn:
		if p.Bool() {
			return []Change{change(path, b.Interface(), p.Interface(), Tightens)}, reflect.Value{}
		}
	case KindOrder:
		if rank(rule.Order, p.String()) >= rank(rule.Order, b.String()) {
			return []Change{change(path, b.Interface(), p.Interface(), Tightens)}, reflect.Value{}
		}
	case KindUnion:
		// what proj adds tightens; what it drops stays unless trusted
		var added, dropped []any
		for k := 0; k < p.Len(); k++ {
			if !hasElem(b, p.Index(k)) {
				added = append(added, p.Index(k).Interface())
			}
		}
		for k := 0; k < b.Len(); k++ {
			if !hasElem(p, b.Index(k)) {
				dropped = append(dropped, b.Index(k).Interface())
			}
		}
		if len(added) > 0 {
			changes = append(changes, change(path, nil, added, Tightens))
		}
		if len(dropped) == 0 {
			return changes, reflect.Value{}
		}
		changes = append(changes, change(path, dropped, nil, Loosens))
		if trusted {
			return changes, reflect.Value{}
		}
		merged := reflect.AppendSlice(reflect.MakeSlice(p.Type(), 0, p.Len()+len(dropped)), p)
		for _, d := range dropped {
			merged = reflect.Append(merged, reflect.ValueOf(d))
		}
		return changes, merged
	case KindSeverityMap:
		keep := reflect.MakeMapWithSize(p.Type(), p.Len())
		keys := p.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
		for _, k := range keys {
			pvk := p.MapIndex(k)
			bvk := b.MapIndex(k)
			from := ""
			if bvk.IsValid() {
				from = bvk.String()
			} else if d, ok := MapDefaults[path]; ok {
				from, _ = d(base, k.String())
			}
			if from == "" {
				from = rule.Order[len(rule.Order)-1]
			}
			if bvk.IsValid() && bvk.String() == pvk.String() {
				keep.SetMapIndex(k, pvk)
				continue
			}
			field := path + "." + k.String()
			if rank(rule.Order, pvk.String()) >= rank(rule.Order, from) {
				if pvk.String() != from {
					changes = append(changes, change(field, from, pvk.Interface(), Tightens))
				}
				keep.SetMapIndex(k, pvk)
				continue
			}
			changes = append(changes, change(field, from, pvk.Interface(), Loosens))
			switch {
			case trusted:
				keep.SetMapIndex(k, pvk)
			case bvk.IsValid():
				keep.SetMapIndex(k, bvk)
			}
		}
		for _, k := range b.MapKeys() {
			if !p.MapIndex(k).IsValid() {
				keep.SetMapIndex(k, b.MapIndex(k))
			}
		}
		return changes, keep
	}
	// a loosening (or a field without a rule)
	ch := change(path, b.Interface(), p.Interface(), Loosens)
	if trusted {
		return []Change{ch}, reflect.Value{}
	}
	return []Change{ch}, b
}

// diff lists the guarded fields a layer changed (the user layer: every
// change applies).
func diff(base, next Config, src Source) []Change {
	_, changes := Tighten(base, next, true)
	for i := range changes {
		changes[i].Source = src
		changes[i].Ignored = false
	}
	return changes
}

func rank(order []string, v string) int {
	for i, o := range order {
		if o == v {
			return i
		}
	}
	return -1
}

func hasElem(list, v reflect.Value) bool {
	for k := 0; k < list.Len(); k++ {
		if reflect.DeepEqual(list.Index(k).Interface(), v.Interface()) {
			return true
		}
	}
	return false
}

func js(v any) string {
	if v == nil {
		return "-"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func fieldIndex(t reflect.Type, name string) int {
	for i := 0; i < t.NumField(); i++ {
		if jsonName(t.Field(i)) == name {
			return i
		}
	}
	return -1
}

// jsonName is the field's JSON key, or "" for a field JSON skips.
func jsonName(f reflect.StructField) string {
	if !f.IsExported() {
		return ""
	}
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	switch name {
	case "-":
		return ""
	case "":
		return f.Name
	}
	return name
}
