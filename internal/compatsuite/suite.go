package suite

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/manifests"
)

// Config says what to check.
type Config struct {
	// Dir is the plugin folder: the one holding .claude-plugin/plugin.json
	// and hooks/hooks.json.
	Dir string
	// Versions are the Claude Code releases the plugin must work on; empty
	// means every band edge from the plugin floor (compat.Bands). The
	// oldest is the release hooks/hooks.json is taken to be written for.
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
		return fmt.Sprintf("FAIL %s: %s", o.ID, o.Detail)
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
}

// Open reads the plugin folder of cfg. Close it when done.
func Open(cfg Config) (*Session, error) {
	targets := cfg.Versions
	if len(targets) == 0 {
		targets = compat.Bands()
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

// expectedFor returns what hookgen generates from the spec for m's band.
func (s *Session) expectedFor(m *Manifest) (*Manifest, error) {
	if s.cfg.Spec == nil {
		return nil, skip("no --spec: nothing to compare with")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.expected[m.Band.String()]; ok {
		return e, nil
	}
	raw, err := manifests.Generate(*s.cfg.Spec, m.Band)
	if err != nil {
		return nil, err
	}
	e := &Manifest{Path: "spec@" + m.Band.String(), Band: m.Band, Raw: raw}
	if e.Doc, e.Err = decodeStrict(raw); e.Err != nil {
		return nil, e.Err
	}
	e.Events, e.Handlers = walkHooks(e.Doc)
	s.expected[m.Band.String()] = e
	return e, nil
}

// name names a manifest in reasons: its path and the band it is for.
func (m *Manifest) name() string {
	return fmt.Sprintf("%s (band %s)", filepath.ToSlash(m.Path), m.Band)
}
