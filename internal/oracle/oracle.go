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
	"sort"
	"strings"
	"sync"
	"sync/atomic"
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
	// Refuses is what a rejection refuses: the plugin, one hooks file,
	// every hook, or the whole marketplace; "" for other consequences.
	Refuses compat.Refusal
	// From and To are the releases the finding holds on; To "" means
	// "and later".
	From, To string
	What     string // what happens, in an author's words
	Fix      string // how to fix it
	Rule     string // the compat rule ID, for --json
	// later marks a finding about a name a later release knows (an event
	// or a handler type that arrives later).
	later bool
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

// OnReleases is [Finding.Releases] after a verb: "on 2.1.257 and later",
// "up to 2.1.252", "on 2.1.48 to 2.1.252".
func (f Finding) OnReleases() string {
	if f.To != "" && f.From != f.To && f.From == compat.PluginFloor {
		return "up to " + f.To
	}
	return "on " + f.Releases()
}

// String renders the finding as one bounded line:
// "rejected hooks.json /hooks/X (up to 2.1.32): what. Fix: fix".
func (f Finding) String() string {
	p := f.Pointer
	if p == "" {
		p = "(root)"
	}
	s := fmt.Sprintf("%s %s %s (%s): %s", f.Consequence, f.File, p, f.Releases(), f.What)
	if f.File == PluginFiles {
		s = fmt.Sprintf("%s %s (%s): %s", f.Consequence, f.File, f.Releases(), f.What)
	}
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
		refuses compat.Refusal
		what    string
		fix     string
		ruleTag string
	}
	idx := map[key]int{}
	var out []Finding
	for _, fs := range per {
		for _, f := range fs {
			k := key{f.File, f.Pointer, f.Consequence, f.Refuses, f.What, f.Fix, f.Rule}
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

// MergeOver is [Merge] for the findings of releases vs, oldest first, one
// slice per release, where each release stands for the span of releases up
// to the next one (as [Range.Releases] returns them): a finding absent
// from an earlier span starts at the first span it is in, and one absent
// from a later span ends before it.
func MergeOver(vs []hooks.Release, per [][]Finding) []Finding {
	out := Merge(per...)
	type key struct {
		file File
		ptr  string
		what string
		rule string
	}
	first, last := map[key]int{}, map[key]int{}
	for i, fs := range per {
		for _, f := range fs {
			k := key{f.File, f.Pointer, f.What, f.Rule}
			if _, ok := first[k]; !ok {
				first[k] = i
			}
			last[k] = i
		}
	}
	for i := range out {
		f := &out[i]
		k := key{f.File, f.Pointer, f.What, f.Rule}
		if lo := first[k]; lo > 0 && lessV(f.From, vs[lo].String()) {
			f.From = vs[lo].String()
		}
		if hi := last[k]; hi < len(vs)-1 {
			next := vs[hi+1]
			end := next.String()
			if next[2] > 0 {
				end = hooks.Release{next[0], next[1], next[2] - 1}.String()
			}
			if f.To == "" || lessV(end, f.To) {
				f.To = end
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
//
// The result is shared with every other caller that decodes the same
// bytes (an audit judges each file on tens of releases): it must only be
// read.
func decode(doc []byte) (any, error) {
	if len(doc) > memoMax {
		return decodeOnce(doc)
	}
	key := string(doc)
	if m, ok := memo.Load(key); ok {
		r := m.(decoded)
		return r.v, r.err
	}
	v, err := decodeOnce(doc)
	if memoBytes.Add(int64(len(doc))) <= memoTotal {
		memo.Store(key, decoded{v, err})
	}
	return v, err
}

// memoMax bounds the files whose decoding is kept, and memoTotal all of
// them: a hostile marketplace of large files is decoded again, not kept.
const (
	memoMax   = 256 << 10
	memoTotal = 32 << 20
)

// memoBytes counts the bytes of the files the memos hold.
var memoBytes atomic.Int64

// memo holds decoded files by content.
var memo sync.Map

// decoded is one memo entry.
type decoded struct {
	v   any
	err error
}

// decodeOnce is decode without the memo.
func decodeOnce(doc []byte) (any, error) {
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

// Edges returns the releases where anything the oracle knows changes
// (compat.Edges).
func Edges() []hooks.Release { return compat.Edges() }

// HooksPaths returns the hooks files a plugin.json names in "hooks": its
// strings that start with "./" and end in .json (the only ones the
// manifest schema takes), as written, in order.
func HooksPaths(manifest []byte) []string {
	inst, err := decode(manifest)
	if err != nil {
		return nil
	}
	m, _ := inst.(map[string]any)
	var out []string
	for _, x := range asList(m["hooks"]) {
		s, ok := x.(string)
		if ok && strings.HasPrefix(s, "./") && strings.HasSuffix(s, ".json") {
			out = append(out, s)
		}
	}
	return out
}

// duplicates reports every key an object of doc names twice: JSON.parse
// keeps the last, so what the first one holds is lost without a word.
func (c *checker) duplicates(doc []byte) {
	var keys []string
	if m, ok := dupMemo.Load(string(doc)); ok && len(doc) <= memoMax {
		keys = m.([]string)
	} else {
		keys = duplicateKeys(doc)
		if len(doc) <= memoMax && memoBytes.Add(int64(len(doc))) <= memoTotal {
			dupMemo.Store(string(doc), keys)
		}
	}
	for _, p := range keys {
		k := p[strings.LastIndexByte(p, '/')+1:]
		k = strings.ReplaceAll(strings.ReplaceAll(k, "~1", "/"), "~0", "~")
		c.add(compat.RuleDuplicateKey, p, "", "", fmt.Sprintf("key %q appears twice: JSON.parse keeps the last, so the first one is lost", clip(k, 40)), "merge the two into one key")
	}
}

// dupMemo holds duplicateKeys' answers by content.
var dupMemo sync.Map

// duplicateKeys returns the pointer of every key an object of doc names a
// second time.
func duplicateKeys(doc []byte) []string {
	var out []string
	d := json.NewDecoder(bytes.NewReader(doc))
	d.UseNumber()
	var walk func(at string, depth int) error
	walk = func(at string, depth int) error {
		tok, err := d.Token()
		if err != nil {
			return err
		}
		delim, ok := tok.(json.Delim)
		if !ok {
			return nil
		}
		if depth > 64 {
			return errors.New("too deep")
		}
		switch delim {
		case '{':
			seen := map[string]bool{}
			for d.More() {
				kt, err := d.Token()
				if err != nil {
					return err
				}
				k, _ := kt.(string)
				p := ptr(at, k)
				if seen[k] {
					out = append(out, p)
				}
				seen[k] = true
				if err := walk(p, depth+1); err != nil {
					return err
				}
			}
		case '[':
			for i := 0; d.More(); i++ {
				if err := walk(ptr(at, fmt.Sprint(i)), depth+1); err != nil {
					return err
				}
			}
		}
		_, err = d.Token() // the closing delimiter
		return err
	}
	_ = walk("", 0) // a syntax error is reported by decode
	return out
}
