package suite

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/oracle"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"
)

// Cases returns the 31 cases in order: HWC-01..07, HWF-01..10,
// HWR-01..14. The package comment says what each proves.
func Cases() []Case {
	return []Case{
		{"HWC-01", "no TeammateIdle or TaskCompleted before 2.1.33", compat01},
		{"HWC-02", "top-level keys are ones every release loads", compat02},
		{"HWC-03", "every manifest is one valid JSON object", compat03},
		{"HWC-04", "every manifest fits its release's schema", compat04},
		{"HWC-05", "event keys and matchers equal the spec's for the band", compat05},
		{"HWC-06", "every command target exists on every OS and arch", compat06},
		{"HWC-07", "timeouts are whole seconds", compat07},
		{"HWF-01", "TaskCompleted fallback is registered where the band lacks it", func(ctx context.Context, s *Session) (string, error) {
			return s.fallbackPresent("TaskCompleted")
		}},
		{"HWF-02", "TeammateIdle fallback is registered where the band lacks it", func(ctx context.Context, s *Session) (string, error) {
			return s.fallbackPresent("TeammateIdle")
		}},
		{"HWF-03", "releases with native events run them once; fallbacks stay silent there", alt03},
		{"HWF-04", "TaskCompleted via PostToolUse gates like native", alt04},
		{"HWF-05", "the TaskCompleted fallback ignores TaskUpdates that complete nothing", alt05},
		{"HWF-06", "TeammateIdle via Stop gates like native", alt06},
		{"HWF-07", "TeammateIdle via SubagentStop gates teammates only, never loops", alt07},
		{"HWF-08", "the TaskCompleted fallback on TaskUpdate advances PDCA like native", hwf08},
		{"HWF-09", "next-task answers an idle through SubagentStop and Stop like native", hwf09},
		{"HWF-10", "an idle through SubagentStop and Stop records the teammate's status like native", hwf10},
		{"HWR-01", "plugin.json is valid", reg01},
		{"HWR-02", "plugin.json has no key releases up to 2.1.75 refuse", reg02},
		{"HWR-03", "marketplace.json lists the plugin correctly", reg03},
		{"HWR-04", "handler count matches the spec", func(ctx context.Context, s *Session) (string, error) {
			return s.countMatches("handlers", func(m *Manifest) int { return len(m.Handlers) })
		}},
		{"HWR-05", "event count matches the spec", func(ctx context.Context, s *Session) (string, error) {
			return s.countMatches("events", func(m *Manifest) int { return len(m.Events) })
		}},
		{"HWR-06", "every handler exits 0 or 2 on its event's canonical input", reg06},
		{"HWR-07", "every reply is valid for its event", reg07},
		{"HWR-08", "every block gives a reason on stderr", reg08},
		{"HWR-09", "harmless input is never blocked", reg09},
		{"HWR-10", "Stop and SubagentStop never block with stop_hook_active", reg10},
		{"HWR-11", "handlers do not wait for stdin to close", reg11},
		{"HWR-12", "handlers run from a plugin path with a space", reg12},
		{"HWR-13", "handlers tolerate unknown fields and no CLAUDE_PROJECT_DIR", reg13},
		{"HWR-14", "TeammateIdle/TaskCompleted halt only through channels the band has", reg14},
	}
}

// The releases the cases turn on, read from the matrix: the team events'
// arrival (2.1.33), the JSON halt on them (2.1.69), and the last release
// that refuses unknown plugin.json keys (2.1.75).
var (
	v2133 = since(compat.KindEvent, "TeammateIdle")
	v2169 = since(compat.KindOutput, compat.ContinueFalse)
	v2175 = hooks.MustRelease(row(compat.KindLoader, "plugin.json unknown keys accepted").Before)
)

// row is the matrix row kind/name; the cases name only rows that exist.
func row(kind compat.Kind, name string) compat.Feature {
	f, ok := compat.Lookup(kind, name)
	if !ok {
		panic("compat matrix has no " + string(kind) + " " + name)
	}
	return f
}

// since is the first release of the matrix row kind/name.
func since(kind compat.Kind, name string) hooks.Release { return row(kind, name).Version() }

// problems collects failure reasons; its error shows the first few.
type problems []string

func (p *problems) add(format string, args ...any) { *p = append(*p, fmt.Sprintf(format, args...)) }

func (p problems) err() error {
	if len(p) == 0 {
		return nil
	}
	uniq := []string{}
	seen := map[string]bool{}
	for _, s := range p {
		if !seen[s] {
			seen[s] = true
			uniq = append(uniq, s)
		}
	}
	const show = 3
	msg := strings.Join(uniq[:min(show, len(uniq))], "; ")
	if len(uniq) > show {
		msg += fmt.Sprintf("; and %d more", len(uniq)-show)
	}
	return errors.New(msg)
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// --- COMPAT ---

// groups returns "Event" and "Event[matcher]" for each matcher group.
func groupSet(m *Manifest) map[string]bool {
	out := map[string]bool{}
	for _, h := range m.Handlers {
		out[groupName(h.Event, h.Matcher)] = true
	}
	return out
}

func groupName(event, matcher string) string {
	if matcher == "" {
		return event
	}
	return event + "[" + matcher + "]"
}

func compat05(_ context.Context, s *Session) (string, error) {
	var bad problems
	ms := s.views()
	for _, m := range ms {
		want, err := s.expectedFor(m)
		if err != nil {
			return "", err
		}
		got, exp := groupSet(m), groupSet(want)
		var missing, extra []string
		for g := range exp {
			if !got[g] {
				missing = append(missing, g)
			}
		}
		for g := range got {
			if !exp[g] {
				extra = append(extra, g)
			}
		}
		sort.Strings(missing)
		sort.Strings(extra)
		if len(missing) > 0 {
			bad.add("%s lacks %s", m.name(), strings.Join(missing, ", "))
		}
		if len(extra) > 0 {
			bad.add("%s has %s, which the spec does not give on %s", m.name(), strings.Join(extra, ", "), m.Band)
		}
	}
	return plural(len(ms), "manifest") + " match the spec event by event", bad.err()
}

func compat06(_ context.Context, s *Session) (string, error) {
	var bad problems
	done := map[string]bool{}
	programs := map[string][]string{} // checkProgram's verdict per program
	for _, m := range s.wellFormed() {
		for _, h := range m.Handlers {
			if h.Type != "command" || done[h.Command] {
				continue
			}
			done[h.Command] = true
			for _, p := range checkTargets(s.plugin.Dir, h.Command, programs) {
				bad.add("%s", p)
			}
		}
	}
	if len(done) == 0 {
		return "", skip("no command handlers")
	}
	if len(bad) > 0 && allNotBuilt(bad) {
		return "", skip("%s", bad[0])
	}
	return fmt.Sprintf("%s on %s", plural(len(done), "command"), plural(len(platforms), "platform")), bad.err()
}

func compat07(_ context.Context, s *Session) (string, error) {
	var bad problems
	n := 0
	for _, m := range s.wellFormed() {
		for _, h := range m.Handlers {
			if h.Timeout == nil {
				continue
			}
			n++
			num, ok := h.Timeout.(json.Number)
			i, err := num.Int64()
			switch {
			case !ok || err != nil:
				bad.add("%s#%s: timeout %v is not a whole number of seconds", m.Path, h.Pointer, h.Timeout)
			case i >= 1000:
				bad.add("%s#%s: timeout %d looks like milliseconds; Claude Code reads seconds (%s)", m.Path, h.Pointer, i, time.Duration(i)*time.Second)
			case i < 1 || i > 600:
				bad.add("%s#%s: timeout %d is outside 1..600 seconds", m.Path, h.Pointer, i)
			}
		}
	}
	if err := bad.err(); err != nil {
		// Every release loads any positive number (the oracle refuses 0 or
		// less, HWC-04): a style warning, never a failure.
		return "", warned{err.Error()}
	}
	return plural(n, "timeout") + " in seconds", nil
}

// allNotBuilt reports whether every problem is a launcher with no binary
// built beside it: a checkout before make plugin, not a broken plugin.
func allNotBuilt(ps problems) bool {
	for _, p := range ps {
		if !strings.HasPrefix(p, notBuiltMark) {
			return false
		}
	}
	return true
}

// --- ALT ---

// canonicalCommands returns the commands of the handlers for a canonical
// event: from the spec, else from the native entries of the plugin's band
// manifests. ok is false when neither knows.
func (s *Session) canonicalCommands(event string) (cmds []string, ok bool) {
	if s.cfg.Spec != nil {
		for _, h := range s.cfg.Spec.Handlers {
			if h.Event == event {
				cmds = append(cmds, h.Command)
			}
		}
		return cmds, true
	}
	seen := map[string]bool{}
	for _, m := range append([]*Manifest{s.plugin.Shipped}, s.plugin.Named...) {
		for _, h := range m.Handlers {
			if h.Event == event {
				c := stripProto(h.Command)
				if !seen[c] {
					seen[c] = true
					cmds = append(cmds, c)
				}
			}
		}
	}
	return cmds, len(cmds) > 0
}

var protoSuffix = regexp.MustCompile(` --proto [0-9.]+$`)

func stripProto(cmd string) string { return protoSuffix.ReplaceAllString(cmd, "") }

// covers reports whether a group matcher matches the tool name.
func covers(matcher, tool string) bool {
	if matcher == "" || matcher == "*" || matcher == tool {
		return true
	}
	for _, name := range strings.Split(matcher, "|") {
		if name == tool {
			return true
		}
	}
	re, err := regexp.Compile("^(?:" + matcher + ")$")
	return err == nil && re.MatchString(tool)
}

func (m *Manifest) has(event, tool, command string) bool {
	for _, h := range m.Handlers {
		if h.Event == event && h.Command == command && (tool == "" && h.Matcher == "" || tool != "" && covers(h.Matcher, tool)) {
			return true
		}
	}
	return false
}

// fallbackPresent checks that every manifest written for a band that lacks
// event registers each of its handlers under every anchor of the
// fallback, with " --via <Anchor>".
func (s *Session) fallbackPresent(event string) (string, error) {
	cmds, ok := s.canonicalCommands(event)
	if !ok {
		return "", skip("no --spec and no native band manifest to learn the %s handlers from", event)
	}
	if len(cmds) == 0 {
		return "", skip("the plugin has no %s handler", event)
	}
	var bad problems
	n := 0
	for _, m := range s.views() {
		plan, err := compat.Plan(m.Band)
		if err != nil {
			return "", err
		}
		rt, _ := plan.Route(event)
		if rt.Mode != compat.Fallback {
			continue
		}
		n++
		for _, c := range cmds {
			for _, a := range rt.Via {
				// " --with-native" where the install registers the event
				// natively too (manifests.BuildInstall).
				if !m.has(a.Event, a.Matcher, c+" --via "+a.Event) && !m.has(a.Event, a.Matcher, c+" --via "+a.Event+" --with-native") {
					bad.add("%s has no %s handler `%s --via %s`", m.name(), groupName(a.Event, a.Matcher), c, a.Event)
				}
			}
		}
	}
	if n == 0 {
		return "", skip("no manifest under test is written for a band without %s", event)
	}
	return fmt.Sprintf("%s × %s", plural(n, "fallback manifest"), plural(len(cmds), "handler")), bad.err()
}

// alt03: what a release of 2.1.33 or later loads has the native
// TaskCompleted and TeammateIdle handlers, once. A plugin that ships one
// install for every release (manifests.BuildInstall) also has there the
// fallbacks its older releases need; each of them must stand for nothing
// on a release that fires the event itself, so a completion or an idle is
// gated once: run on input from such a release (its transcript says so),
// in a state where the native gate blocks, the fallback must not block.
func alt03(ctx context.Context, s *Session) (string, error) {
	var bad problems
	n, silent := 0, 0
	for _, m := range s.views() {
		if m.Band.Less(v2133) {
			continue
		}
		n++
		for _, ev := range []string{"TaskCompleted", "TeammateIdle"} {
			cmds, _ := s.canonicalCommands(ev)
			for _, c := range cmds {
				native := 0
				for _, h := range m.Handlers {
					if h.Event == ev && stripProto(h.Command) == c {
						native++
					}
					via, canon := h.Via()
					if via == "" || canon != c {
						continue
					}
					if m.merged == nil {
						bad.add("%s still registers `%s` under %s: the gate would run twice", m.name(), h.Command, h.Event)
						continue
					}
					silent++
					p := fallbackInput(h.Event, h.Matcher)
					r := s.run.run(ctx, call{Command: h.Command, Payload: fromRelease(p, m.Band.String()), State: withTranscript(idleState, m.Band.String()), Env: teamEnv})
					if r.Err != nil || r.TimedOut || r.Exit == 2 || halts(r.Stdout) || blocksByJSON(r.Stdout) {
						bad.add("%s: `%s` under %s gates on %s, which fires %s itself: the gate would run twice (%s)", m.name(), h.Command, groupName(h.Event, h.Matcher), m.Band, ev, r)
					}
				}
				if native != 1 {
					bad.add("%s has the native %s handler `%s` %d times, want once", m.name(), ev, c, native)
				}
			}
		}
	}
	if n == 0 {
		return "", skip("no manifest under test is written for 2.1.33 or later")
	}
	msg := plural(n, "native release view") + " checked"
	if silent > 0 {
		msg += fmt.Sprintf("; %s silent where the release fires the event", plural(silent, "fallback"))
	}
	return msg, bad.err()
}

// fallbackInput is the input that would make a fallback registered under
// event[matcher] stand for its canonical event on an older release.
func fallbackInput(event, matcher string) payload {
	switch event {
	case "PostToolUse":
		if covers(matcher, "TaskUpdate") {
			return taskUpdate("completed", "in_progress", "completed", true)
		}
		return todoWriteCompleted
	case "SubagentStop":
		return withTeam(subagentStop(false))
	}
	return stopPayload(false)
}

// transcriptFile is where withTranscript writes the session transcript,
// relative to the project.
const transcriptFile = "transcript.jsonl"

// withTranscript is st with a session transcript written by release: its
// lines carry "version", as every release's do (compat/FACTS.md).
func withTranscript(st *state, release string) *state {
	out := &state{Name: st.Name + " on " + release, Files: map[string]string{}, HomeFiles: st.HomeFiles}
	for k, v := range st.Files {
		out.Files[k] = v
	}
	out.Files[transcriptFile] = `{"type":"user","version":"` + release + `","message":{"role":"user","content":"go"}}` + "\n"
	return out
}

// fromRelease points p's transcript_path at the transcript withTranscript
// writes.
func fromRelease(p payload, _ string) payload {
	return func(project, home string) map[string]any {
		in := p(project, home)
		in["transcript_path"] = filepath.Join(project, transcriptFile)
		return in
	}
}

// anchorTools returns the tools a TaskCompleted fallback is registered on
// in the manifests under test (TaskUpdate, TodoWrite), with the command.
func (s *Session) fallbackCommands(event, anchor string) map[string]string {
	out := map[string]string{} // matcher tool (or "") → command
	cmds, _ := s.canonicalCommands(event)
	for _, m := range s.wellFormed() {
		for _, h := range m.Handlers {
			via, canon := h.Via()
			if via != anchor || h.Event != anchor {
				continue
			}
			for _, c := range cmds {
				if canon == c {
					out[h.Matcher] = h.Command
				}
			}
		}
	}
	return out
}

// compare runs a native and a fallback command on the same state and
// reports whether they reached the same outcome.
func (s *Session) compare(ctx context.Context, st *state, native string, np payload, fallback string, fp payload) (result, result, bool) {
	var n, f result
	var wg sync.WaitGroup
	wg.Go(func() { n = s.run.run(ctx, call{Command: native, Payload: np, State: st, Env: teamEnv}) })
	wg.Go(func() { f = s.run.run(ctx, call{Command: fallback, Payload: fp, State: st, Env: teamEnv}) })
	wg.Wait()
	return n, f, n.same(f)
}

func alt04(ctx context.Context, s *Session) (string, error) {
	fbs := s.fallbackCommands("TaskCompleted", "PostToolUse")
	if len(fbs) == 0 {
		return "", skip("no TaskCompleted fallback under test")
	}
	var bad problems
	var notes []string
	for _, matcher := range sortedKeys(fbs) {
		fb := fbs[matcher]
		_, native := fbsCanonical(fb)
		tool, fp := "TaskUpdate", taskUpdate("completed", "in_progress", "completed", true)
		if covers(matcher, "TodoWrite") && !covers(matcher, "TaskUpdate") {
			tool, fp = "TodoWrite", todoWriteCompleted
		}
		for _, st := range []*state{idleState, doneState} {
			n, f, same := s.compare(ctx, st, native, nativeTaskCompleted, fb, fp)
			label := "TaskCompleted via PostToolUse[" + tool + "]"
			switch {
			case same:
				notes = append(notes, fmt.Sprintf("%s, %s: both %s", tool, st.Name, n.short()))
			case documented[label] != "":
				notes = append(notes, fmt.Sprintf("%s, %s: documented difference, native %s, fallback %s (%s)", tool, st.Name, n.short(), f.short(), documented[label]))
			default:
				bad.add("%s for %s: native %s, fallback %s", label, st.Name, n, f)
			}
		}
	}
	return strings.Join(notes, "; ") + "; the fallback fires after TaskUpdate ran, so a block is feedback and the task stays completed", bad.err()
}

// fbsCanonical splits a fallback command into its anchor and the native
// command it stands for.
func fbsCanonical(fallback string) (via, native string) {
	h := Handler{Command: fallback}
	return h.Via()
}

func alt05(ctx context.Context, s *Session) (string, error) {
	fbs := s.fallbackCommands("TaskCompleted", "PostToolUse")
	var bad problems
	n := 0
	for matcher, fb := range fbs {
		if !covers(matcher, "TaskUpdate") {
			continue
		}
		for name, p := range map[string]payload{
			"a TaskUpdate to in_progress":             taskUpdate("in_progress", "pending", "in_progress", true),
			"a TaskUpdate a native hook refused":      taskUpdate("completed", "in_progress", "in_progress", false),
			"a TaskUpdate of a task already complete": taskUpdate("completed", "completed", "completed", true),
		} {
			n++
			r := s.run.run(ctx, call{Command: fb, Payload: p, State: idleState, Env: teamEnv})
			if r.Err != nil || r.TimedOut || r.Exit != 0 || halts(r.Stdout) || blocksByJSON(r.Stdout) {
				bad.add("%s on %s: %s (native TaskCompleted does not fire)", fb, name, r)
			}
		}
	}
	if n == 0 {
		return "", skip("no TaskCompleted fallback on TaskUpdate under test")
	}
	return plural(n, "non-completing TaskUpdate") + " let through", bad.err()
}

func alt06(ctx context.Context, s *Session) (string, error) {
	fbs := s.fallbackCommands("TeammateIdle", "Stop")
	if len(fbs) == 0 {
		return "", skip("no TeammateIdle fallback on Stop under test")
	}
	var bad problems
	var notes []string
	for _, fb := range fbs {
		_, native := fbsCanonical(fb)
		for _, st := range []*state{idleState, doneState} {
			n, f, same := s.compare(ctx, st, native, nativeTeammateIdle, fb, stopPayload(false))
			if !same {
				bad.add("TeammateIdle via Stop for %s: native %s, fallback %s", st.Name, n, f)
				continue
			}
			notes = append(notes, fmt.Sprintf("%s: both %s", st.Name, n.short()))
		}
	}
	return strings.Join(notes, "; "), bad.err()
}

func alt07(ctx context.Context, s *Session) (string, error) {
	fbs := s.fallbackCommands("TeammateIdle", "SubagentStop")
	if len(fbs) == 0 {
		return "", skip("no TeammateIdle fallback on SubagentStop under test")
	}
	var bad problems
	for _, fb := range fbs {
		_, native := fbsCanonical(fb)
		n, f, same := s.compare(ctx, idleState, native, nativeTeammateIdle, fb, withTeam(subagentStop(false)))
		if !same {
			bad.add("a SubagentStop naming teammate %s: native %s, fallback %s", teammate, n, f)
		}
		if r := s.run.run(ctx, call{Command: fb, Payload: subagentStop(false), State: idleState, Env: teamEnv}); r.Exit == 2 || r.Err != nil || r.TimedOut {
			bad.add("a plain subagent's SubagentStop: %s; only a teammate may be held back", r)
		}
		if r := s.run.run(ctx, call{Command: fb, Payload: withTeam(subagentStop(true)), State: idleState, Env: teamEnv}); r.Exit == 2 {
			bad.add("SubagentStop with stop_hook_active: %s; the agent could never stop", r)
		}
	}
	return "a teammate's SubagentStop gates like native TeammateIdle; a plain subagent's and a repeated stop pass", bad.err()
}

func blocksByJSON(stdout string) bool {
	var o struct {
		Decision string `json:"decision"`
		Specific struct {
			PermissionDecision string `json:"permissionDecision"`
		} `json:"hookSpecificOutput"`
	}
	if json.Unmarshal([]byte(strings.TrimSpace(stdout)), &o) != nil {
		return false
	}
	return o.Decision == "block" || o.Specific.PermissionDecision == "deny"
}

func sortedKeys(m map[string]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// --- REG: plugin.json and marketplace.json ---

var kebab = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

func (s *Session) pluginJSON() (map[string]any, error) {
	raw, err := readPluginFile(s.plugin.Dir, filepath.Join(".claude-plugin", "plugin.json"))
	if err != nil {
		return nil, err
	}
	doc, err := decodeStrict(raw)
	if err != nil {
		return nil, fmt.Errorf(".claude-plugin/plugin.json: %v", err)
	}
	return doc, nil
}

// marketplacePath finds the marketplace.json that lists the plugin.
func (s *Session) marketplacePath() (string, bool) {
	if s.cfg.Marketplace != "" {
		return s.cfg.Marketplace, true
	}
	for _, d := range []string{s.plugin.Dir, filepath.Dir(s.plugin.Dir)} {
		p := filepath.Join(d, ".claude-plugin", "marketplace.json")
		if _, err := os.Stat(p); err == nil {
			return p, true
		}
	}
	return "", false
}

// reg03 checks the plugin's marketplace entry: the marketplace parses
// (owner, names without spaces, a source per entry), an entry names the
// plugin and resolves to its folder, and the oracle's verdict on the
// plugin as the marketplace installs it (hooks in the entry, strict:
// false beside a plugin.json). A name that is not kebab-case and a version
// that differs from plugin.json's load, so they only warn.
func reg03(_ context.Context, s *Session) (string, error) {
	path, ok := s.marketplacePath()
	if !ok {
		return "", skip("no .claude-plugin/marketplace.json in the plugin folder or its parent")
	}
	raw, err := readPluginFile(filepath.Dir(path), filepath.Base(path))
	if err != nil {
		return "", fmt.Errorf("marketplace: %w", err)
	}
	doc, err := decodeStrict(raw)
	if err != nil {
		return "", fmt.Errorf("%s: %v", path, err)
	}
	plugin, err := s.pluginJSON()
	if errors.Is(err, fs.ErrNotExist) {
		plugin = map[string]any{} // the entry supplies the manifest
	} else if err != nil {
		return "", err
	}
	var bad, odd problems
	switch n, _ := doc["name"].(string); {
	case n == "" || strings.Contains(n, " "):
		bad.add("marketplace name %v: the releases refuse an empty name or one with a space", doc["name"])
	case !kebab.MatchString(n):
		odd.add("marketplace name %q is not kebab-case (it loads)", n)
	}
	if o, _ := doc["owner"].(map[string]any); o == nil || o["name"] == nil {
		bad.add("marketplace has no owner.name, which every release requires")
	}
	list, _ := doc["plugins"].([]any)
	if len(list) == 0 {
		bad.add("marketplace lists no plugins")
	}
	root := filepath.Dir(filepath.Dir(path)) // the folder holding .claude-plugin
	var entry map[string]any
	for i, p := range list {
		e, _ := p.(map[string]any)
		src, _ := e["source"].(string)
		if n, _ := e["name"].(string); n == "" || e["source"] == nil {
			bad.add("plugins[%d] needs a name and a source", i)
		} else if n == plugin["name"] || plugin["name"] == nil && src != "" && sameDir(filepath.Join(root, src), s.plugin.Dir) {
			entry = e
		}
	}
	if plugin["name"] == nil && entry != nil {
		plugin["name"] = entry["name"]
	}
	if entry == nil {
		bad.add("no entry names plugin %v", plugin["name"])
		return "", bad.err()
	}
	if src, ok := entry["source"].(string); ok {
		dir, err := filepath.Abs(filepath.Join(root, src))
		if err != nil || !sameDir(dir, s.plugin.Dir) {
			bad.add("source %q resolves to %s, not the plugin folder %s", src, dir, s.plugin.Dir)
		}
	}
	if v, ok := entry["version"]; ok && v != plugin["version"] {
		odd.add("entry version %v differs from plugin.json's %v: users would not get updates", v, plugin["version"])
	}
	rel, _ := filepath.Rel(s.plugin.Dir, path)
	detail := fmt.Sprintf("%s lists %v at %v", filepath.ToSlash(rel), plugin["name"], entry["source"])
	if err := bad.err(); err != nil {
		return "", err
	}
	name, _ := plugin["name"].(string)
	js, err := s.entryVerdicts(path, name)
	if err != nil {
		return "", err
	}
	out, err := loaderReport(detail, func(j judged, f oracle.Finding) bool {
		return f.File == oracle.MarketplaceJSON
	}, js)
	if err != nil {
		var w warned
		if !errors.As(err, &w) || odd.err() == nil {
			return out, err
		}
	}
	if err := odd.err(); err != nil {
		return "", warned{detail + "; loads, but: " + err.Error()}
	}
	return out, err
}

func sameDir(a, b string) bool {
	ai, err1 := os.Stat(a)
	bi, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(ai, bi)
}

// countMatches compares a count of every manifest with the spec's.
func (s *Session) countMatches(what string, count func(*Manifest) int) (string, error) {
	var bad problems
	var seen []string
	for _, m := range s.views() {
		want, err := s.expectedFor(m)
		if err != nil {
			return "", err
		}
		if got, exp := count(m), count(want); got != exp {
			bad.add("%s has %d %s, the spec gives %d on %s", m.name(), got, what, exp, m.Band)
		} else {
			seen = append(seen, fmt.Sprintf("%s %d", filepath.Base(m.Path), got))
		}
	}
	if len(seen) > 4 {
		seen = append(seen[:4], "…")
	}
	return what + " per manifest: " + strings.Join(seen, ", "), bad.err()
}

// --- REG: running the handlers ---

// entry is one distinct registered handler and the manifest it is in.
type entry struct {
	Handler
	m *Manifest
}

// entries returns the distinct command handlers of the manifests under
// test.
func (s *Session) entries() []entry {
	var out []entry
	seen := map[string]bool{}
	for _, m := range s.wellFormed() {
		for _, h := range m.Handlers {
			key := fmt.Sprint(h.Event, "\x00", h.Matcher, "\x00", h.Command, "\x00", h.Timeout)
			if h.Type != "command" || h.Command == "" || seen[key] {
				continue
			}
			seen[key] = true
			out = append(out, entry{h, m})
		}
	}
	return out
}

func (e entry) timeout() time.Duration {
	if n, ok := e.Timeout.(json.Number); ok {
		if i, err := n.Int64(); err == nil && i > 0 && i < 1000 {
			return time.Duration(i) * time.Second
		}
	}
	return maxHookTime
}

func (e entry) label() string { return groupName(e.Event, e.Matcher) + " `" + e.Command + "`" }

// runAll runs c(e) for every entry, 4 at a time, and returns the results
// in entry order.
func (s *Session) runAll(ctx context.Context, es []entry, c func(entry) call) []result {
	out := make([]result, len(es))
	sem := make(chan struct{}, 4)
	var wg sync.WaitGroup
	for i, e := range es {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			out[i] = s.run.run(ctx, c(e))
		})
	}
	wg.Wait()
	return out
}

// canonicalRuns runs every handler once on its canonical input, cached for
// HWR-06..08.
func (s *Session) canonicalRuns(ctx context.Context) ([]entry, []result) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.canon == nil {
		es := s.entries()
		s.canon = &canonRuns{es, s.runAll(ctx, es, canonicalCall)}
		return s.canon.es, s.canon.rs
	}
	for _, r := range s.canon.rs { // a cached run is noted for this case too
		if r.NotRun != "" {
			s.run.note(r.NotRun)
		}
	}
	return s.canon.es, s.canon.rs
}

type canonRuns struct {
	es []entry
	rs []result
}

func canonicalCall(e entry) call {
	return call{Command: e.Command, Payload: canonical(e.Event, e.Matcher), Timeout: e.timeout()}
}

func reg06(ctx context.Context, s *Session) (string, error) {
	es, rs := s.canonicalRuns(ctx)
	if len(es) == 0 {
		return "", skip("no command handlers")
	}
	var bad problems
	blocks := 0
	for i, r := range rs {
		switch {
		case r.Err != nil || r.TimedOut || (r.Exit != 0 && r.Exit != 2):
			bad.add("%s: %s", es[i].label(), r)
		case r.Exit == 2:
			blocks++
		}
	}
	return fmt.Sprintf("%s answered (%d blocked)", plural(len(es), "handler"), blocks), bad.err()
}

func reg07(ctx context.Context, s *Session) (string, error) {
	es, rs := s.canonicalRuns(ctx)
	if len(es) == 0 {
		return "", skip("no command handlers")
	}
	var bad problems
	replies := 0
	for i, r := range rs {
		if r.Exit != 0 || strings.TrimSpace(r.Stdout) == "" {
			continue
		}
		replies++
		if err := checkOutput(es[i].Event, r.Stdout); err != nil {
			bad.add("%s: %v", es[i].label(), err)
		}
	}
	return fmt.Sprintf("%s checked against their event's reply shape", plural(replies, "reply")), bad.err()
}

func reg08(ctx context.Context, s *Session) (string, error) {
	es, rs := s.canonicalRuns(ctx)
	var bad problems
	blocks := 0
	for i, r := range rs {
		if r.Exit != 2 {
			continue
		}
		blocks++
		if strings.TrimSpace(r.Stderr) == "" {
			bad.add("%s exits 2 with nothing on stderr: Claude is blocked without a reason", es[i].label())
		}
	}
	// A gate is the usual blocker: make sure each one gets a chance to block.
	for _, e := range es {
		if e.Event != "TeammateIdle" && e.Event != "TaskCompleted" {
			continue
		}
		p := nativeTeammateIdle
		if e.Event == "TaskCompleted" {
			p = nativeTaskCompleted
		}
		if r := s.run.run(ctx, call{Command: e.Command, Payload: p, State: idleState, Env: teamEnv, Timeout: e.timeout()}); r.Exit == 2 {
			blocks++
			if strings.TrimSpace(r.Stderr) == "" {
				bad.add("%s exits 2 for %s with nothing on stderr", e.label(), idleState.Name)
			}
		}
	}
	if blocks == 0 {
		return "", skip("no handler blocked, so there was no reason to read")
	}
	return plural(blocks, "block") + " with a reason", bad.err()
}

// harmless are the events on which blocking harmless input is a bug.
var harmless = map[string]bool{
	"PreToolUse": true, "PostToolUse": true, "PostToolUseFailure": true, "UserPromptSubmit": true,
	"SessionStart": true, "SessionEnd": true, "SubagentStart": true, "Notification": true, "PreCompact": true,
}

func reg09(ctx context.Context, s *Session) (string, error) {
	es, rs := s.canonicalRuns(ctx)
	var bad problems
	n := 0
	for i, r := range rs {
		if !harmless[es[i].Event] {
			continue
		}
		n++
		if r.Exit == 2 || halts(r.Stdout) || blocksByJSON(r.Stdout) {
			bad.add("%s blocks harmless input: %s", es[i].label(), r)
		}
	}
	if n == 0 {
		return "", skip("no handler on an event with harmless input")
	}
	return plural(n, "handler") + " let harmless input through", bad.err()
}

func reg10(ctx context.Context, s *Session) (string, error) {
	var es []entry
	for _, e := range s.entries() {
		if e.Event == "Stop" || e.Event == "SubagentStop" {
			es = append(es, e)
		}
	}
	if len(es) == 0 {
		return "", skip("no Stop or SubagentStop handler")
	}
	rs := s.runAll(ctx, es, func(e entry) call {
		p := stopPayload(true)
		if e.Event == "SubagentStop" {
			p = withTeam(subagentStop(true))
		}
		return call{Command: e.Command, Payload: p, State: idleState, Env: teamEnv, Timeout: e.timeout()}
	})
	var bad problems
	for i, r := range rs {
		if r.Exit == 2 || blocksByJSON(r.Stdout) || r.TimedOut {
			bad.add("%s with stop_hook_active: %s; the agent could never stop", es[i].label(), r)
		}
	}
	return plural(len(es), "handler") + " let a repeated stop through", bad.err()
}

// stdinOpenLimit bounds HWR-11's wait: a hook that reads one JSON value
// answers in milliseconds; one that waits for EOF never does.
const stdinOpenLimit = 10 * time.Second

func reg11(ctx context.Context, s *Session) (string, error) {
	es := s.entries()
	if len(es) == 0 {
		return "", skip("no command handlers")
	}
	rs := s.runAll(ctx, es, func(e entry) call {
		c := canonicalCall(e)
		c.KeepStdinOpen, c.Timeout = true, min(e.timeout(), stdinOpenLimit)
		return c
	})
	var bad problems
	for i, r := range rs {
		if r.TimedOut {
			bad.add("%s waits for stdin to close (Claude Code may keep it open): killed after %s", es[i].label(), min(es[i].timeout(), stdinOpenLimit))
		}
	}
	return plural(len(es), "handler") + " answered with stdin still open", bad.err()
}

func reg12(ctx context.Context, s *Session) (string, error) {
	es, base := s.canonicalRuns(ctx)
	if len(es) == 0 {
		return "", skip("no command handlers")
	}
	rs := s.runAll(ctx, es, func(e entry) call {
		c := canonicalCall(e)
		c.SpacedRoot = true
		return c
	})
	var bad problems
	for i, r := range rs {
		if !r.same(base[i]) {
			bad.add("%s from \"plugin root\": %s, from a plain path: %s (quote \"${CLAUDE_PLUGIN_ROOT}\")", es[i].label(), r, base[i])
		}
	}
	return plural(len(es), "handler") + " behave alike from a folder with a space", bad.err()
}

func reg13(ctx context.Context, s *Session) (string, error) {
	es, base := s.canonicalRuns(ctx)
	if len(es) == 0 {
		return "", skip("no command handlers")
	}
	rs := s.runAll(ctx, es, func(e entry) call {
		c := canonicalCall(e)
		c.Payload, c.NoProjectDir = withExtra(c.Payload), true
		return c
	})
	var bad problems
	for i, r := range rs {
		if !r.same(base[i]) {
			bad.add("%s with unknown fields and no CLAUDE_PROJECT_DIR: %s, canonical: %s", es[i].label(), r, base[i])
		}
	}
	return plural(len(es), "handler") + " unaffected", bad.err()
}

func reg14(ctx context.Context, s *Session) (string, error) {
	var es []entry
	for _, e := range s.entries() {
		if e.Event == "TeammateIdle" || e.Event == "TaskCompleted" {
			es = append(es, e)
		}
	}
	if len(es) == 0 {
		return "", skip("no native TeammateIdle or TaskCompleted handler under test")
	}
	rs := s.runAll(ctx, es, func(e entry) call {
		p := nativeTeammateIdle
		if e.Event == "TaskCompleted" {
			p = nativeTaskCompleted
		}
		return call{Command: e.Command, Payload: p, State: idleState, Env: teamEnv, Timeout: e.timeout()}
	})
	var bad problems
	channels := map[string]int{}
	for i, r := range rs {
		e := es[i]
		switch {
		case halts(r.Stdout) && e.m.Band.Less(v2169):
			bad.add("%s in %s halts with {\"continue\":false}, which %s ignores (from %s); exit 2 instead", e.label(), e.m.name(), e.m.Band, v2169)
		case halts(r.Stdout):
			channels["continue:false"]++
		case r.Exit == 2:
			channels["exit 2"]++
		default:
			channels["no halt"]++
		}
	}
	var notes []string
	for _, c := range []string{"exit 2", "continue:false", "no halt"} {
		if channels[c] > 0 {
			notes = append(notes, fmt.Sprintf("%s %s", plural(channels[c], "handler"), c))
		}
	}
	return "for " + idleState.Name + ": " + strings.Join(notes, ", "), bad.err()
}
