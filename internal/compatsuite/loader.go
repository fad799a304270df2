package suite

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/Masterminds/semver/v3"
	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/marketplace"
	"github.com/hookwright/hookwright/internal/oracle"
)

// The loader cases (HWC-01 to HWC-04, HWR-01, HWR-02 and the entry of
// HWR-03) hold no rule of their own: each asks hookgen validate's oracle
// (package oracle) what every release under test does with the plugin
// folder, and reports the findings it is about. A case fails exactly where
// hookgen validate fails by default: the release refuses the plugin, a
// hooks file, or every hook. What a release drops, reads past or only
// lints is a WARN.

// judged is one release's verdict on the plugin.
type judged struct {
	v  hooks.Release
	vd oracle.Verdict
}

// verdicts judges the plugin folder on each release under test, once.
func (s *Session) verdicts() ([]judged, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.judged != nil || s.judgeErr != nil {
		return s.judged, s.judgeErr
	}
	p, err := marketplace.ReadPlugin(s.plugin.Dir)
	if err != nil {
		s.judgeErr = fmt.Errorf("reading the plugin: %w", err)
		return nil, s.judgeErr
	}
	for _, v := range s.targets {
		vd, err := oracle.Judge(v, p)
		if err != nil {
			s.judgeErr = err
			return nil, err
		}
		// The files plugin.json names (an install for every release) are
		// part of the plugin the oracle judges, as the loader reads them.
		j := judged{v: v, vd: vd}
		s.judged = append(s.judged, j)
	}
	return s.judged, nil
}

// fileName names a finding's file as the plugin folder holds it.
func fileName(f oracle.Finding) string {
	switch f.File {
	case oracle.HooksJSON:
		return "hooks/hooks.json"
	case oracle.PluginJSON:
		return ".claude-plugin/plugin.json"
	case oracle.PluginFiles:
		return "the plugin"
	}
	return oracle.CleanPath(string(f.File))
}

// loaderReport sorts findings into a case's failures (what hookgen validate
// fails on: a rejection) and warnings (the rest), each line naming the
// release and the file, and returns the case's answer.
func loaderReport(detail string, pick func(j judged, f oracle.Finding) bool, js []judged) (string, error) {
	var bad, odd problems
	later := map[string]bool{}
	pastAsync := 0
	for _, j := range js {
		for _, f := range j.vd.Findings {
			if !pick(j, f) {
				continue
			}
			line := fmt.Sprintf("%s on %s: %s %s", fileName(f), j.v, f.Pointer, f.What)
			if f.Pointer == "" {
				line = fmt.Sprintf("%s on %s: %s", fileName(f), j.v, f.What)
			}
			if f.Fix != "" {
				line += ". Fix: " + f.Fix
			}
			switch {
			case f.Rule == compat.RuleLaterFile && f.Consequence != compat.Rejected:
				// A file plugin.json names for later releases, which an
				// older one skips alone: an install for every release
				// (manifests.BuildInstall) is built that way.
				later[fileName(f)] = true
			case f.Consequence == compat.Ignored && (strings.HasSuffix(f.Pointer, "/async") || strings.HasSuffix(f.Pointer, "/asyncRewake")):
				// An install for every release ships its async handler to
				// the releases before async hooks too, which read past the
				// key and run it in the foreground; the handler must do
				// nothing there (manifests.BuildInstall says so).
				pastAsync++
			case f.Consequence == compat.Rejected:
				bad.add("%s", line)
			default:
				odd.add("%s", line)
			}
		}
	}
	if pastAsync > 0 {
		detail += fmt.Sprintf("; %s of an async handler read past by releases before async hooks, on purpose", plural(pastAsync, "key"))
	}
	if len(later) > 0 {
		var names []string
		for n := range later {
			names = append(names, n)
		}
		sort.Strings(names)
		detail += "; " + strings.Join(names, ", ") + " written for later releases, skipped alone by older ones"
	}
	if err := bad.err(); err != nil {
		return "", err
	}
	if err := odd.err(); err != nil {
		return "", warned{detail + "; loads, but: " + err.Error()}
	}
	return detail, nil
}

// isHooksFile reports whether f is about a hooks file (hooks/hooks.json, a
// file plugin.json names) or the plugin's hooks as a whole.
func isHooksFile(f oracle.Finding) bool {
	return f.File != oracle.PluginJSON && f.File != oracle.MarketplaceJSON
}

// topLevel reports whether a pointer is a key of a file's top level.
func topLevel(p string) bool {
	return p != "" && strings.Count(p, "/") == 1
}

// compat01: no file a release before 2.1.33 loads names TeammateIdle or
// TaskCompleted, which those releases refuse the file over.
func compat01(_ context.Context, s *Session) (string, error) {
	js, err := s.verdicts()
	if err != nil {
		return "", err
	}
	var early []judged
	for _, j := range js {
		if j.v.Less(v2133) {
			early = append(early, j)
		}
	}
	if len(early) == 0 {
		return "", skip("no release under test predates %s", v2133)
	}
	return loaderReport(fmt.Sprintf("%s before 2.1.33", plural(len(early), "release")), func(j judged, f oracle.Finding) bool {
		return f.Rule == compat.RuleUnknownEvent && (strings.HasSuffix(f.Pointer, "/TeammateIdle") || strings.HasSuffix(f.Pointer, "/TaskCompleted"))
	}, early)
}

// compat02: the top-level keys of every hooks file, as the releases read
// them: $schema and description load; others are read past (WARN), or
// refuse the file or the plugin ("surface" on 2.1.330, guards outside
// "hooks" from 2.1.257).
func compat02(_ context.Context, s *Session) (string, error) {
	js, err := s.verdicts()
	if err != nil {
		return "", err
	}
	return loaderReport(fmt.Sprintf("top-level keys on %s", plural(len(js), "release")), func(j judged, f oracle.Finding) bool {
		return isHooksFile(f) && topLevel(f.Pointer) && f.Rule != compat.RuleDuplicateKey && !strings.HasPrefix(f.Pointer, "/hooks")
	}, js)
}

// compat03: every hooks file is one JSON object (JSON.parse and an object,
// else the release refuses it); a duplicate key loses the first (WARN).
func compat03(_ context.Context, s *Session) (string, error) {
	js, err := s.verdicts()
	if err != nil {
		return "", err
	}
	return loaderReport(fmt.Sprintf("%s parse as one JSON object", plural(len(s.loaded()), "manifest")), func(j judged, f oracle.Finding) bool {
		return isHooksFile(f) && (f.Rule == compat.RuleNotJSON || f.Rule == compat.RuleDuplicateKey)
	}, js)
}

// compat04: every hooks file, and the plugin's hooks as a whole, as each
// release loads them.
func compat04(_ context.Context, s *Session) (string, error) {
	js, err := s.verdicts()
	if err != nil {
		return "", err
	}
	files := 0
	for _, j := range js {
		files += len(s.plugin.manifestsFor(j.v))
	}
	return loaderReport(fmt.Sprintf("%s on %s", plural(files, "manifest/release pair"), plural(len(js), "release")), func(j judged, f oracle.Finding) bool {
		return isHooksFile(f)
	}, js)
}

// reg01: plugin.json as each release reads it: its keys' values, its
// inline hooks, the files and paths it names. A name that is not
// kebab-case and a version that is not x.y.z load, so they only warn.
func reg01(_ context.Context, s *Session) (string, error) {
	doc, err := s.pluginJSON()
	if errors.Is(err, fs.ErrNotExist) {
		return "", skip("no .claude-plugin/plugin.json: the release names the plugin after its folder")
	}
	if err != nil {
		return "", err
	}
	js, err := s.verdicts()
	if err != nil {
		return "", err
	}
	name, _ := doc["name"].(string)
	detail := fmt.Sprintf("%q %v", name, doc["version"])
	out, rerr := loaderReport(detail, func(j judged, f oracle.Finding) bool {
		return f.File == oracle.PluginJSON && f.Rule != compat.RulePluginKeyStrict
	}, js)
	if rerr != nil {
		return out, rerr
	}
	var advice problems
	if name != "" && !kebab.MatchString(name) {
		advice.add("name %q is not kebab-case (it loads; marketplaces and commands read better with my-plugin)", name)
	}
	if v, ok := doc["version"].(string); ok {
		if _, err := semver.StrictNewVersion(v); err != nil {
			advice.add("version %q is not x.y.z (it loads; plugin caches only refresh when it changes)", v)
		}
	}
	if err := advice.err(); err != nil {
		return "", warned{detail + "; loads, but: " + err.Error()}
	}
	return out, nil
}

// reg02: no plugin.json key a release under test refuses as unknown (up to
// 2.1.75, "Unrecognized key").
func reg02(_ context.Context, s *Session) (string, error) {
	if v2175.Less(s.targets[0]) {
		return "", skip("every release under test is later than %s, so it reads unknown plugin.json keys past", v2175)
	}
	doc, err := s.pluginJSON()
	if errors.Is(err, fs.ErrNotExist) {
		return "", skip("no .claude-plugin/plugin.json")
	}
	if err != nil {
		return "", err
	}
	js, err := s.verdicts()
	if err != nil {
		return "", err
	}
	return loaderReport(plural(len(doc), "key")+" known to "+s.targets[0].String(), func(j judged, f oracle.Finding) bool {
		return f.Rule == compat.RulePluginKeyStrict && f.Consequence == compat.Rejected
	}, js)
}

// entryVerdicts judges the plugin as its marketplace installs it: with
// its entry, beside the marketplace's other plugins.
func (s *Session) entryVerdicts(path, name string) ([]judged, error) {
	m, err := marketplace.Read(filepath.Dir(filepath.Dir(path)))
	if err != nil {
		return nil, err
	}
	var ps []oracle.Plugin
	at := -1
	for i, p := range m.Plugins {
		p.Files.Name = p.Name
		ps = append(ps, p.Files)
		if p.Name == name {
			at = i
		}
	}
	if at < 0 {
		return nil, nil
	}
	var out []judged
	for _, v := range s.targets {
		vds, err := oracle.JudgeMarketplace(v, ps)
		if err != nil {
			return nil, err
		}
		out = append(out, judged{v: v, vd: vds[at]})
	}
	return out, nil
}
