// Package oracle tells a plugin author what a given Claude Code release's
// loader does with the plugin's hooks.json and plugin.json: refuse it,
// load it but drop entries, read past keys, or load it as written with a
// lint. It applies the compat matrix (events, handler types, handler keys)
// and compat.Rules (value checks, shapes, plugin.json), each with the
// releases it holds on and its witness (compat/FACTS.md).
//
// Every finding carries a [compat.Consequence], the releases it holds on
// and a fix, in the author's words. [Check] never runs anything.
package oracle

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/hooks"
)

// File names which of a plugin's files a finding is about.
type File string

// The files the oracle reads.
const (
	HooksJSON  File = "hooks.json"
	PluginJSON File = "plugin.json"
)

// Finding is one thing a release's loader does with a plugin's file.
type Finding struct {
	File        File
	Pointer     string // JSON pointer (RFC 6901); "" is the whole file
	Consequence compat.Consequence
	// From and To are the releases the finding holds on; To "" means
	// "and later".
	From, To string
	What     string // what happens, in an author's words
	Fix      string // how to fix it
	Rule     string // the compat rule ID, for --json
}

// maxLine bounds a rendered line.
const maxLine = 240

// Releases renders From and To as an author reads them.
func (f Finding) Releases() string {
	switch {
	case f.To == "":
		return f.From + " and later"
	case f.From == f.To:
		return f.From
	case f.From == compat.PluginFloor:
		return "up to " + f.To
	}
	return f.From + " to " + f.To
}

// String renders the finding as one bounded line:
// "rejected hooks.json /hooks/X (up to 2.1.32): what. Fix: fix".
func (f Finding) String() string {
	p := f.Pointer
	if p == "" {
		p = "(root)"
	}
	s := fmt.Sprintf("%s %s %s (%s): %s", f.Consequence, f.File, p, f.Releases(), f.What)
	if f.Fix != "" {
		s += ". Fix: " + f.Fix
	}
	return clip(s, maxLine)
}

// clip cuts s to at most n bytes on a rune boundary, ending in "...".
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - 3
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

// quote renders a JSON value short enough for a message.
func quote(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "?"
	}
	return clip(string(b), 40)
}

// Sort orders findings by consequence (rejected first), then file, then
// pointer, then text.
func Sort(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.Consequence.Rank() != b.Consequence.Rank() {
			return a.Consequence.Rank() < b.Consequence.Rank()
		}
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Pointer != b.Pointer {
			return a.Pointer < b.Pointer
		}
		return a.What < b.What
	})
}

// Worst returns the gravest consequence among fs, and false when fs is
// empty.
func Worst(fs []Finding) (compat.Consequence, bool) {
	if len(fs) == 0 {
		return "", false
	}
	w := fs[0].Consequence
	for _, f := range fs[1:] {
		if f.Consequence.Rank() < w.Rank() {
			w = f.Consequence
		}
	}
	return w, true
}

// Count returns how many findings have consequence c.
func Count(fs []Finding, c compat.Consequence) int {
	n := 0
	for _, f := range fs {
		if f.Consequence == c {
			n++
		}
	}
	return n
}

// Merge folds the findings of several releases into one list: the same
// finding (file, pointer, consequence, text) on several releases becomes
// one, spanning the lowest From to the highest To. It returns them sorted.
func Merge(per ...[]Finding) []Finding {
	type key struct {
		file    File
		ptr     string
		c       compat.Consequence
		what    string
		fix     string
		ruleTag string
	}
	idx := map[key]int{}
	var out []Finding
	for _, fs := range per {
		for _, f := range fs {
			k := key{f.File, f.Pointer, f.Consequence, f.What, f.Fix, f.Rule}
			i, ok := idx[k]
			if !ok {
				idx[k] = len(out)
				out = append(out, f)
				continue
			}
			g := &out[i]
			if lessV(f.From, g.From) {
				g.From = f.From
			}
			if g.To != "" && (f.To == "" || lessV(g.To, f.To)) {
				g.To = f.To
			}
		}
	}
	Sort(out)
	return out
}

// lessV compares two release strings; unparsable ones sort first.
func lessV(a, b string) bool {
	va, err1 := hooks.ParseRelease(a)
	vb, err2 := hooks.ParseRelease(b)
	if err1 != nil || err2 != nil {
		return a < b
	}
	return va.Less(vb)
}

// MaxFile bounds the size of a file the oracle reads.
const MaxFile = 4 << 20

// ErrTooLarge is returned for a file over [MaxFile].
var ErrTooLarge = errors.New("oracle: file larger than 4 MiB")

// decode parses one JSON value, numbers kept exact; anything after it is
// an error, as it is for JSON.parse.
func decode(doc []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(doc))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errors.New("data after the top-level value")
	}
	return v, nil
}

// ptr appends escaped tokens to a JSON pointer.
func ptr(base string, toks ...string) string {
	var b strings.Builder
	b.WriteString(base)
	for _, t := range toks {
		b.WriteByte('/')
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1"))
	}
	return b.String()
}

// sortedKeys returns an object's keys in order.
func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Registers returns how many hooks release v registers from a plugin's
// hooks.json and plugin.json (nil when the plugin has none), as the
// loader's "Registered N hooks" line counts them: 0 when either file is
// rejected, else every handler under a known event less the dropped ones.
// A handler whose key is dropped ("args") still registers.
func Registers(v hooks.Release, hooksJSON, manifest []byte) (int, error) {
	var fs []Finding
	for _, f := range []struct {
		doc   []byte
		check func(hooks.Release, []byte) ([]Finding, error)
	}{{hooksJSON, CheckHooks}, {manifest, CheckPlugin}} {
		if f.doc == nil {
			continue
		}
		got, err := f.check(v, f.doc)
		if err != nil {
			return 0, err
		}
		fs = append(fs, got...)
	}
	if Count(fs, compat.Rejected) > 0 || hooksJSON == nil {
		return 0, nil
	}
	inst, err := decode(hooksJSON)
	if err != nil {
		return 0, nil
	}
	events, _ := inst.(map[string]any)["hooks"].(map[string]any)
	dropped := map[string]bool{}
	for _, f := range fs {
		if f.File == HooksJSON && f.Consequence == compat.Dropped && f.Rule != compat.RuleArgsDropped {
			dropped[f.Pointer] = true
		}
	}
	n := 0
	for name, gv := range events {
		ev, ok := compat.Lookup(compat.KindEvent, name)
		groups, isList := gv.([]any)
		if !ok || v.Less(ev.Version()) || !isList || dropped[ptr("/hooks", name)] {
			continue
		}
		for i, g := range groups {
			gp := ptr("/hooks", name, fmt.Sprint(i))
			gm, _ := g.(map[string]any)
			hs, isList := gm["hooks"].([]any)
			if !isList || droppedUnder(dropped, gp, false) {
				continue
			}
			for j := range hs {
				if !droppedUnder(dropped, ptr(gp, "hooks", fmt.Sprint(j)), true) {
					n++
				}
			}
		}
	}
	for _, f := range fs {
		if f.Rule == compat.RuleStandardTwice {
			return 2 * n, nil // the release loads hooks/hooks.json twice
		}
	}
	return n, nil
}

// droppedUnder reports whether a dropped finding points at p or, with
// deep, anywhere inside it; without deep only at p itself or at p's own
// keys other than "hooks".
func droppedUnder(dropped map[string]bool, p string, deep bool) bool {
	for d := range dropped {
		if d == p {
			return true
		}
		rest, ok := strings.CutPrefix(d, p+"/")
		if !ok {
			continue
		}
		if deep || !strings.HasPrefix(rest, "hooks/") {
			return true
		}
	}
	return false
}

// Edges returns the releases where anything the oracle knows changes:
// every band's first release (compat.Bands), and the first and last
// release of every rule row and handler type's validator. Checking these
// covers every verdict the oracle can give.
func Edges() []hooks.Release {
	seen := map[string]bool{}
	var out []hooks.Release
	addV := func(s string) {
		if s == "" || seen[s] {
			return
		}
		v, err := hooks.ParseRelease(s)
		if err != nil || v.Less(hooks.MustRelease(compat.PluginFloor)) {
			return
		}
		seen[s] = true
		out = append(out, v)
	}
	for _, b := range compat.Bands() {
		addV(b.String())
	}
	for _, r := range compat.Rules {
		addV(r.First)
		addV(r.Last)
	}
	for _, s := range compat.HandlerValidatorSince {
		addV(s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Less(out[j]) })
	return out
}

// CheckExtraHooks is [CheckHooks] for a hooks file that plugin.json's
// "hooks" names beside the standard hooks/hooks.json. A release that
// refuses such a file skips it and loads the rest of the plugin (2.1.33's
// loader: "Failed to load hooks from <file>"), so what would refuse the
// standard file only drops this one's hooks. name is the path as
// plugin.json writes it.
func CheckExtraHooks(v hooks.Release, name string, doc []byte) ([]Finding, error) {
	fs, err := CheckHooks(v, doc)
	if err != nil {
		return nil, err
	}
	for i := range fs {
		fs[i].File = File(clip(name, 60))
		if fs[i].Consequence == compat.Rejected {
			fs[i].Consequence = compat.Dropped
			what := fs[i].What
			if j := strings.Index(what, ", so "); j > 0 {
				what = what[:j]
			}
			fs[i].What = what + ", so the release skips this file: none of its hooks run"
		}
	}
	Sort(fs)
	return fs, nil
}

// ExtraHooksPaths returns the hooks files a plugin.json names besides the
// standard hooks/hooks.json: its "hooks" strings ending in .json.
func ExtraHooksPaths(manifest []byte) []string {
	inst, err := decode(manifest)
	if err != nil {
		return nil
	}
	m, _ := inst.(map[string]any)
	var out []string
	var list []any
	switch h := m["hooks"].(type) {
	case string:
		list = []any{h}
	case []any:
		list = h
	}
	for _, x := range list {
		s, ok := x.(string)
		if ok && strings.HasPrefix(s, "./") && strings.HasSuffix(s, ".json") && path.Clean(s) != "hooks/hooks.json" {
			out = append(out, s)
		}
	}
	return out
}
