package suite

import (
	"context"
	"errors"
	"fmt"
	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/oracle"
	"github.com/hookwright/hookwright/manifests"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// Config says what to check.
type Config struct {
	// Dir is the plugin folder: the one holding .claude-plugin/plugin.json
	// and hooks/hooks.json.
	Dir string
	// Versions are the Claude Code releases the plugin must work on; empty
	// means the releases plugin.json declares (engines["claude-code"]),
	// else every release from the plugin floor: one release per span where
	// no rule of the loader changes (oracle.Range.Releases), every band
	// edge among them. The oldest is the release hooks/hooks.json is taken
	// to be written for.
	Versions []hooks.Release
	// Spec is the plugin's handler spec; nil turns off the cases that
	// compare with it (they are reported as SKIP).
	Spec *manifests.Spec
	// Marketplace is the marketplace.json to check; empty looks in
	// <Dir>/.claude-plugin and <Dir>/../.claude-plugin.
	Marketplace string
}

// Status is a case's verdict.
type Status string

// The verdicts.
const (
	Pass Status = "PASS"
	Fail Status = "FAIL"
	Skip Status = "SKIP"
	// Warn: the releases load the plugin, but ignore something in it (an
	// unknown key, an unknown event from 2.1.257) or the claim is
	// unverified. It does not fail `hookgen compat`.
	Warn Status = "WARN"
)

// Outcome is the verdict of one case on one plugin.
type Outcome struct {
	ID     string
	Title  string
	Status Status
	// Detail is what was checked (PASS), why it failed (FAIL) or why it
	// did not apply (SKIP).
	Detail string
}

// String is the line `hookgen compat` prints: "PASS HWC-03 title: detail"
// or "FAIL HWF-02: reason" (and "WARN HWC-02: reason").
func (o Outcome) String() string {
	if o.Status == Fail || o.Status == Warn {
		return fmt.Sprintf("%s %s: %s", o.Status, o.ID, o.Detail)
	}
	s := fmt.Sprintf("%s %s %s", o.Status, o.ID, o.Title)
	if o.Detail != "" {
		s += ": " + o.Detail
	}
	return s
}

// Case is one check of the suite.
type Case struct {
	// ID is e.g. "HWC-03"; Title says what it proves.
	ID, Title string
	check     func(ctx context.Context, s *Session) (detail string, err error)
}

// skipped is returned by a check that does not apply.
type skipped struct{ why string }

func (s skipped) Error() string { return s.why }

func skip(format string, args ...any) error { return skipped{fmt.Sprintf(format, args...)} }

// warned is returned by a check whose findings the releases survive.
type warned struct{ why string }

func (w warned) Error() string { return w.why }

// Session is one plugin under test: the folder read once, the releases,
// the spec, and a scratch area for running its hooks.
type Session struct {
	cfg     Config
	plugin  *Plugin
	targets []hooks.Release
	floor   hooks.Release
	run     *runner

	mu       sync.Mutex
	expected map[string]*Manifest // generated from the spec, by band
	canon    *canonRuns           // every handler on its canonical input
	judged   []judged             // the oracle's verdict per release
	judgeErr error
}

// Open reads the plugin folder of cfg. Close it when done.
func Open(cfg Config) (*Session, error) {
	targets := cfg.Versions
	if len(targets) == 0 {
		targets = declared(cfg.Dir)
	}
	targets = append([]hooks.Release(nil), targets...)
	sort.Slice(targets, func(i, j int) bool { return targets[i].Less(targets[j]) })
	floor, err := compat.BandOf(targets[0])
	if err != nil {
		return nil, err
	}
	p, err := loadPlugin(cfg.Dir, floor)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "hookwright-compat-")
	if err != nil {
		return nil, err
	}
	return &Session{cfg: cfg, plugin: p, targets: targets, floor: floor,
		run: &runner{root: p.Dir, tmp: tmp}, expected: map[string]*Manifest{}}, nil
}

// declared returns the releases the plugin at dir declares it supports,
// else every release from the plugin floor, one per span of releases with
// the same verdicts.
func declared(dir string) []hooks.Release {
	r, _ := oracle.ParseRange("", "")
	if b, err := readPluginFile(dir, filepath.Join(".claude-plugin", "plugin.json")); err == nil {
		if expr, ok := oracle.Engines(b); ok {
			if d, err := oracle.ParseRange(expr, "engines"); err == nil && len(d.Releases()) > 0 {
				r = d
			}
		}
	}
	return r.Releases()
}

// Close removes the scratch folders.
func (s *Session) Close() error { return os.RemoveAll(s.run.tmp) }

// Check runs one case.
func (s *Session) Check(ctx context.Context, c Case) Outcome {
	o := Outcome{ID: c.ID, Title: c.Title, Status: Pass}
	s.run.takeMissed()
	detail, err := c.check(ctx, s)
	missed := s.run.takeMissed()
	var sk skipped
	var wn warned
	switch {
	case errors.As(err, &sk):
		o.Status, o.Detail = Skip, sk.why
	case errors.As(err, &wn):
		o.Status, o.Detail = Warn, wn.why
	case err != nil:
		o.Status, o.Detail = Fail, err.Error()
	case len(missed) > 0:
		// A behaviour case whose handler never ran exercised nothing.
		o.Status = Skip
		o.Detail = fmt.Sprintf("not exercised: %s never reached the handler: %s", plural(len(missed), "run"), missed[0])
	default:
		o.Detail = detail
	}
	return o
}

// Tally counts outcomes by status.
func Tally(outcomes []Outcome) (pass, fail, skip int) {
	for _, o := range outcomes {
		switch o.Status {
		case Pass:
			pass++
		case Fail:
			fail++
		case Skip:
			skip++
		}
	}
	return pass, fail, skip
}

// Run checks the plugin of cfg with every case, in order, writing one line
// per case to w (nil for none). It returns the outcomes; failed is true
// when any case failed. The error is for a plugin that cannot be read.
func Run(ctx context.Context, cfg Config, w io.Writer) (outcomes []Outcome, failed bool, err error) {
	s, err := Open(cfg)
	if err != nil {
		return nil, false, err
	}
	defer s.Close()
	for _, c := range Cases() {
		o := s.Check(ctx, c)
		if w != nil {
			fmt.Fprintln(w, o)
		}
		failed = failed || o.Status == Fail
		outcomes = append(outcomes, o)
	}
	return outcomes, failed, nil
}

// loaded returns every manifest some release under test may load, each
// once, shipped first.
func (s *Session) loaded() []*Manifest {
	var out []*Manifest
	seen := map[*Manifest]bool{}
	for _, v := range s.targets {
		for _, m := range s.plugin.manifestsFor(v) {
			if !seen[m] {
				seen[m] = true
				out = append(out, m)
			}
		}
	}
	return out
}

// wellFormed is loaded without the manifests that are not JSON objects
// (HWC-03 reports those).
func (s *Session) wellFormed() []*Manifest {
	var out []*Manifest
	for _, m := range s.loaded() {
		if m.Err == nil {
			out = append(out, m)
		}
	}
	return out
}

// views returns, once per distinct set, what the releases under test load
// of the plugin, merged into one manifest each: hooks/hooks.json alone for
// a plugin that ships one file, and with it every file plugin.json names
// that the release accepts for one that ships an install for every
// release (manifests.BuildInstall). A merged view's Band is the newest
// edge among its files; its Path lists them.
func (s *Session) views() []*Manifest {
	var out []*Manifest
	seen := map[string]bool{}
	for _, v := range s.targets {
		var ms []*Manifest
		for _, m := range s.plugin.manifestsFor(v) {
			if m.Err == nil {
				ms = append(ms, m)
			}
		}
		if len(ms) == 0 {
			continue
		}
		view := ms[0]
		if len(ms) > 1 {
			view = merge(ms)
		}
		if !seen[view.Path] {
			seen[view.Path] = true
			out = append(out, view)
		}
	}
	return out
}

// merge is the manifests a release loads together, as one.
func merge(ms []*Manifest) *Manifest {
	out := &Manifest{Band: ms[0].Band, Doc: map[string]any{}, merged: ms}
	var paths []string
	events := map[string]bool{}
	for _, m := range ms {
		paths = append(paths, filepath.ToSlash(m.Path))
		if out.Band.Less(m.Band) {
			out.Band = m.Band
		}
		for _, ev := range m.Events {
			events[ev] = true
		}
		out.Handlers = append(out.Handlers, m.Handlers...)
	}
	for ev := range events {
		out.Events = append(out.Events, ev)
	}
	sort.Strings(out.Events)
	out.Path = strings.Join(paths, " + ")
	return out
}

// expectedFor returns what hookgen generates from the spec for m: the
// band's manifest, or, for a merged view of an install, the files of the
// spec's install (manifests.BuildInstall) that a release of m's band
// loads, merged.
func (s *Session) expectedFor(m *Manifest) (*Manifest, error) {
	if s.cfg.Spec == nil {
		return nil, skip("no --spec: nothing to compare with")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	key := m.Band.String()
	if m.merged != nil || len(s.plugin.Named) > 0 {
		key = "install@" + key
	}
	if e, ok := s.expected[key]; ok {
		return e, nil
	}
	var e *Manifest
	if m.merged != nil || len(s.plugin.Named) > 0 {
		in, err := manifests.BuildInstall(*s.cfg.Spec, s.plugin.Shipped.Band)
		if err != nil {
			return nil, err
		}
		var ms []*Manifest
		for _, f := range in.Files {
			if m.Band.Less(f.Edge) {
				continue
			}
			fm := &Manifest{Path: "spec:" + f.Path, Band: f.Edge, Raw: f.JSON}
			if fm.Doc, fm.Err = decodeStrict(f.JSON); fm.Err != nil {
				return nil, fm.Err
			}
			fm.Events, fm.Handlers = walkHooks(fm.Doc)
			ms = append(ms, fm)
		}
		e = ms[0]
		if len(ms) > 1 {
			e = merge(ms)
		}
	} else {
		raw, err := manifests.Generate(*s.cfg.Spec, m.Band)
		if err != nil {
			return nil, err
		}
		e = &Manifest{Path: "spec@" + m.Band.String(), Band: m.Band, Raw: raw}
		if e.Doc, e.Err = decodeStrict(raw); e.Err != nil {
			return nil, e.Err
		}
		e.Events, e.Handlers = walkHooks(e.Doc)
	}
	s.expected[key] = e
	return e, nil
}

// name names a manifest in reasons: its path and the band it is for.
func (m *Manifest) name() string {
	return fmt.Sprintf("%s (band %s)", filepath.ToSlash(m.Path), m.Band)
}
