package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookwright/hookwright/internal/runtime/native"
)

// maxRatioAsRun is the budget for a pass-through event after the switch
// to the exec form, as Claude Code runs it, against sh -c 'exec <baseline>'.
// SessionStart is held to maxRatio in both forms after the switch.
const maxRatioAsRun = 1.10

// install is one state of an installed plugin: a copy of the plugin's
// hooks.json as the shipped tree has it or as the native switch writes it.
type install struct {
	label  string
	root   string // CLAUDE_PLUGIN_ROOT
	band   string
	budget bool // held to the budgets: switched, the state every session after the first runs in
	exec   bool // the exec form: no shell
	// project is the install's own project folder; env is what Claude Code
	// adds to the environment (AI_AGENT from 2.1.120).
	project string
	env     []string
}

// ccSample is an event Claude Code would run the plugin for.
type ccSample struct {
	name, event, tool, stdin string
	passThrough              bool
}

// limit is the ratio budget of s on in, 0 for none.
func (s ccSample) limit(in install) float64 {
	switch {
	case !in.budget:
		return 0
	case s.event == "SessionStart":
		return maxRatio
	case s.passThrough && in.exec:
		return maxRatioAsRun
	}
	return 0
}

var ccSamples = []ccSample{
	{"PreToolUse Bash (pass)", "PreToolUse", "Bash", sampleStdin("PreToolUse Bash (pass)"), true},
	{"PostToolUse TaskUpdate", "PostToolUse", "TaskUpdate", `{"session_id":"bench","transcript_path":"/t","cwd":"$P","hook_event_name":"PostToolUse","tool_name":"TaskUpdate","tool_input":{"taskId":"1","status":"in_progress"},"tool_response":{"success":true,"taskId":"1"},"tool_use_id":"toolu_5"}`, false},
	{"SessionStart", "SessionStart", "", sampleStdin("SessionStart"), false},
	{"Stop", "Stop", "", sampleStdin("Stop"), false},
}

// sampleStdin is the stdin of the first table's sample called name, so
// that both tables feed an event the same input whatever the order of
// samples.
func sampleStdin(name string) string {
	for _, s := range samples {
		if s.name == name {
			return s.stdin
		}
	}
	panic("hookbench: no sample " + name)
}

// installs lays out, under dir, the plugin at src as shipped (the floor's
// hooks.json through the launcher) and as the switch leaves it on a
// shell band (2.1.33) and on the newest band (the exec form from 2.1.139),
// each with a project of its own. The shipped install is what the first
// session after an install runs; its project turns the native switch off,
// so that it stays shipped. The switched installs keep the switch on, as a
// user's do: each new session checks the manifest again. The release is
// learned as Claude Code tells it: from AI_AGENT on the newest band (set
// from 2.1.120), from the transcript's "version" on 2.1.33.
func installs(src, dir string) ([]install, error) {
	bands, _ := filepath.Glob(filepath.Join(src, "hooks", "bands", "*.json"))
	if len(bands) == 0 {
		return nil, fmt.Errorf("no hooks/bands/*.json in %s", src)
	}
	newest := ""
	for _, b := range bands {
		e := strings.TrimSuffix(filepath.Base(b), ".json")
		if newest == "" || versionLess(newest, e) {
			newest = e
		}
	}
	bin := filepath.Join(src, "bin", "hookwright-"+native.Platform())
	if _, err := os.Stat(bin); err != nil {
		return nil, fmt.Errorf("no %s: run make plugin", bin)
	}
	var out []install
	agent := "AI_AGENT=claude-code_" + strings.ReplaceAll(newest, ".", "-") + "_harness"
	for _, in := range []install{
		{label: "shipped (first session): launcher, sh", band: ""},
		{label: "switched: band 2.1.33, binary, sh", band: "2.1.33", budget: true},
		{label: "switched: band " + newest + ", exec form, no shell", band: newest, budget: true, exec: true, env: []string{agent}},
	} {
		in.root = filepath.Join(dir, fmt.Sprintf("install-%d", len(out)))
		in.project = filepath.Join(dir, fmt.Sprintf("project-%d", len(out)))
		version := in.band
		if version == "" {
			version = "2.1.33"
		}
		if err := os.MkdirAll(filepath.Join(in.project, ".hookwright"), 0o755); err != nil {
			return nil, err
		}
		// The transcript's first line, as the releases write it.
		line := `{"type":"user","sessionId":"bench","version":"` + version + `","message":{"role":"user","content":"bench"}}` + "\n"
		if err := os.WriteFile(filepath.Join(in.project, "transcript.jsonl"), []byte(line), 0o644); err != nil {
			return nil, err
		}
		if in.band == "" {
			cfg := filepath.Join(in.project, ".hookwright", "config.json")
			if err := os.WriteFile(cfg, []byte(`{"native": {"switch": false}}`), 0o644); err != nil {
				return nil, err
			}
		}
		for _, f := range []string{"hookwright", "hookwright-" + native.Platform()} {
			if err := copyFile(filepath.Join(src, "bin", f), filepath.Join(in.root, "bin", f)); err != nil {
				return nil, err
			}
		}
		manifest, err := os.ReadFile(filepath.Join(src, "hooks", "hooks.json"))
		if in.band != "" {
			manifest, err = os.ReadFile(filepath.Join(src, "hooks", "bands", in.band+".json"))
			manifest = native.Direct(manifest, native.Platform())
		}
		if err != nil {
			return nil, err
		}
		if err := os.MkdirAll(filepath.Join(in.root, "hooks"), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(in.root, "hooks", "hooks.json"), manifest, 0o644); err != nil {
			return nil, err
		}
		out = append(out, in)
	}
	return out, nil
}

// commandFor returns the argv Claude Code starts for event (and tool) from
// root's hooks.json: sh -c <command> for a shell command, the program and
// its args, placeholders substituted, for the exec form.
func commandFor(root, event, tool string) ([]string, error) {
	data, err := os.ReadFile(filepath.Join(root, "hooks", "hooks.json"))
	if err != nil {
		return nil, err
	}
	var m struct {
		Hooks map[string][]struct {
			Matcher string
			Hooks   []struct {
				Command string
				Args    *[]string
			}
		}
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	for _, g := range m.Hooks[event] {
		if g.Matcher != "" && !matches(g.Matcher, tool) || len(g.Hooks) == 0 {
			continue
		}
		h := g.Hooks[0]
		if h.Args == nil {
			return []string{"sh", "-c", h.Command}, nil
		}
		argv := append([]string{h.Command}, *h.Args...)
		for i := range argv {
			argv[i] = strings.ReplaceAll(argv[i], "${CLAUDE_PLUGIN_ROOT}", root)
		}
		return argv, nil
	}
	return nil, fmt.Errorf("%s registers nothing for %s %s", root, event, tool)
}

// matches reads a matcher of names separated by |.
func matches(matcher, tool string) bool {
	for _, n := range strings.Split(matcher, "|") {
		if n == tool || n == "*" {
			return true
		}
	}
	return false
}

// asClaudeCodeRuns prints the second table: each install's command for
// each event, paired with sh -c 'exec <baseline>'. over is true when a
// switched exec-form install's pass-through event exceeds maxRatioAsRun.
func asClaudeCodeRuns(w io.Writer, plugin, baseline string, n int) (over bool, err error) {
	dir, err := os.MkdirTemp("", "hookbench-installs")
	if err != nil {
		return false, err
	}
	defer os.RemoveAll(dir)
	ins, err := installs(plugin, dir)
	if err != nil {
		return false, err
	}
	absBase, _ := filepath.Abs(baseline)
	base := []string{"sh", "-c", "exec " + shellQuote(absBase)}
	fmt.Fprintf(w, "\nas Claude Code runs it: the command from the installed hooks.json (sh -c where the band uses a\nshell, exec'd where it uses the exec form), paired with sh -c 'exec baseline'; %d pairs each\n\n", n)
	fmt.Fprintf(w, "%-44s %-24s %10s %10s %7s\n", "install", "event", "baseline", "hook", "ratio")
	for _, in := range ins {
		for _, s := range ccSamples {
			argv, err := commandFor(in.root, s.event, s.tool)
			if err != nil {
				return false, err
			}
			fresh := s.event == "SessionStart"
			transcript := filepath.Join(in.project, "transcript.jsonl")
			stdin := func(i int) string { return render(s.stdin, in.project, transcript, fresh, i) }
			med, err := measureArgv([][]string{base, argv}, stdin, in, n)
			if err != nil {
				return false, err
			}
			ratio := float64(med[1]) / float64(med[0])
			mark := ""
			if limit := s.limit(in); limit > 0 && ratio > limit {
				mark, over = fmt.Sprintf("  OVER BUDGET (%.2fx)", limit), true
			}
			fmt.Fprintf(w, "%-44s %-24s %10s %10s %6.2fx%s\n", in.label, s.name, round(med[0]), round(med[1]), ratio, mark)
		}
	}
	fmt.Fprintf(w, "\nbudget: after the switch (every session but the first), SessionStart at most %.2fx sh -c 'exec baseline';\nin the exec form (2.1.139+), a pass-through event at most %.2fx. Bands before 2.1.139 must start a shell,\nwhich the baseline starts too. The first session after an install runs the shipped launcher, and switches.\n", maxRatio, maxRatioAsRun)
	return over, nil
}

// measureArgv runs each argv n times, interleaved, in the install's
// project and environment, and returns the median wall time of each. Run i
// of every argv reads stdin(i).
func measureArgv(argvs [][]string, stdin func(int) string, in install, n int) ([]time.Duration, error) {
	times := make([][]time.Duration, len(argvs))
	for i := 0; i < n; i++ {
		for a, argv := range argvs {
			cmd := exec.Command(argv[0], argv[1:]...)
			cmd.Env = append(append(os.Environ(), "CLAUDE_PLUGIN_ROOT="+in.root), in.env...)
			d, err := once(cmd, "", stdin(i*len(argvs)+a), in.project)
			if err != nil {
				return nil, err
			}
			times[a] = append(times[a], d)
		}
	}
	return medians(times), nil
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// versionLess compares two x.y.z strings numerically.
func versionLess(a, b string) bool {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(pa) && i < len(pb); i++ {
		var x, y int
		fmt.Sscan(pa[i], &x)
		fmt.Sscan(pb[i], &y)
		if x != y {
			return x < y
		}
	}
	return len(pa) < len(pb)
}

func copyFile(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	return os.WriteFile(to, data, 0o755)
}
