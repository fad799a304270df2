// Command hookbench measures the hook runtime the way Claude Code runs it:
// one process per event, the event JSON on stdin. For every sample event it
// runs hookwright and a trivial static Go binary that decodes the same JSON
// (cmd/hookbench/baseline), interleaved in the same run, and prints
// the median wall time of each, their ratio, and hookwright's peak RSS
// (exact with GNU time installed, an upper bound marked "<" without).
//
//	hookbench -hookwright bin/hookwright -baseline bin/baseline [-launcher plugin/bin/hookwright] [-plugin plugin] [-n 200]
//
// With -plugin it adds a second table, as Claude Code runs it: for the
// plugin's install as a build and as a release leave it, the exact command
// of the installed hooks file for each event through sh -c, each run
// paired with sh -c 'exec <baseline>'. With -prev, a plugin folder built
// from an earlier commit, it measures that runtime's forms in the same
// run, for a before and after.
//
// Every SessionStart is a new session, as at a real start: its session id
// is new on every run, so the session fingerprint is created and the
// install check runs, as they do once per session. Other events run in
// one session.
//
// Budgets: a pass-through event at most 1.25x the baseline (the binary
// alone); as Claude Code runs the install, SessionStart at most 1.25x
// sh -c 'exec <baseline>' and a pass-through event at most 1.10x; peak
// RSS at most 10 MiB. It exits
// 1 when a budget is exceeded. It is a benchmark for people, never a timed
// unit test.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// sample is one benchmarked event.
type sample struct {
	name  string // row label
	args  []string
	stdin string // $P is the project, $S the session id, $T the transcript
	held  bool   // held to the ratio budget: a pass-through event
}

// fresh reports whether every run of the sample is a new session.
func (s sample) fresh() bool { return s.args[0] == "SessionStart" }

// render fills in a sample's stdin for run i: the project, the transcript
// and the session id, new on every run for a SessionStart (fresh).
func render(stdin, project, transcript string, fresh bool, i int) string {
	session := "bench"
	if fresh {
		session = fmt.Sprintf("bench-%d-%d", os.Getpid(), i)
		// At a start, the transcript is not written yet.
		transcript = filepath.Join(filepath.Dir(transcript), session+".jsonl")
	}
	return strings.NewReplacer("$P", project, "$S", session, "$T", transcript).Replace(stdin)
}

var samples = []sample{
	{"PreToolUse Bash (pass)", []string{"PreToolUse"}, `{"session_id":"$S","transcript_path":"$T","cwd":"$P","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls -la","description":"list"},"tool_use_id":"toolu_1"}`, true},
	{"PreToolUse Read (no handler)", []string{"PreToolUse"}, `{"session_id":"$S","transcript_path":"$T","cwd":"$P","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"$P/main.go"},"tool_use_id":"toolu_2"}`, true},
	{"PostToolUse Write", []string{"PostToolUse"}, `{"session_id":"$S","transcript_path":"$T","cwd":"$P","hook_event_name":"PostToolUse","tool_name":"Write","tool_input":{"file_path":"$P/a.go","content":"package a"},"tool_response":{"success":true},"tool_use_id":"toolu_3"}`, true},
	{"PostToolUseFailure Bash", []string{"PostToolUseFailure"}, `{"session_id":"$S","transcript_path":"$T","cwd":"$P","hook_event_name":"PostToolUseFailure","tool_name":"Bash","tool_input":{"command":"false"},"error":"Exit code 1","duration_ms":12,"tool_use_id":"toolu_5"}`, true},
	{"PreToolUse Bash (block)", []string{"PreToolUse"}, `{"session_id":"$S","transcript_path":"$T","cwd":"$P","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push --force"},"tool_use_id":"toolu_4"}`, false},
	{"SessionStart", []string{"SessionStart"}, `{"session_id":"$S","transcript_path":"$T","cwd":"$P","hook_event_name":"SessionStart","source":"startup"}`, false},
	{"Stop", []string{"Stop"}, `{"session_id":"$S","transcript_path":"$T","cwd":"$P","hook_event_name":"Stop","stop_hook_active":false}`, false},
	{"TaskCompleted", []string{"TaskCompleted"}, `{"session_id":"$S","transcript_path":"$T","cwd":"$P","hook_event_name":"TaskCompleted","task_id":"1","task_subject":"[Do] bench: run"}`, false},
}

// Budgets.
const (
	maxRatio    = 1.25
	maxRSSBytes = 10 << 20
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("hookbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	hw := fs.String("hookwright", "bin/hookwright", "hookwright binary under test")
	base := fs.String("baseline", "bin/baseline", "trivial Go binary that decodes the same JSON")
	launcher := fs.String("launcher", "", "optional plugin launcher script, measured as a third column")
	plugin := fs.String("plugin", "", "plugin folder (bin/ built by make plugin): adds the table as Claude Code runs it")
	prev := fs.String("prev", "", "plugin folder of an earlier build (its bin/ and hooks/), measured beside -plugin in the same run")
	n := fs.Int("n", 200, "runs per binary and event")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	project, err := os.MkdirTemp("", "hookbench")
	if err != nil {
		fmt.Fprintln(stderr, "hookbench:", err)
		return 1
	}
	defer os.RemoveAll(project)
	transcript := filepath.Join(project, "transcript.jsonl")
	fmt.Fprintf(stdout, "hookbench: %d interleaved runs per binary and event, median wall time\n\n", *n)
	fmt.Fprintf(stdout, "%-30s %10s %10s %7s %9s", "event", "baseline", "hookwright", "ratio", "peak RSS")
	if *launcher != "" {
		fmt.Fprintf(stdout, " %10s %9s", "launcher", "overhead")
	}
	fmt.Fprintln(stdout)
	over := false
	for _, s := range samples {
		in := func(i int) string { return render(s.stdin, project, transcript, s.fresh(), i) }
		bins := []string{*base, *hw}
		if *launcher != "" {
			bins = append(bins, *launcher)
		}
		med, err := measure(bins, s.args, in, project, *n)
		if err != nil {
			fmt.Fprintln(stderr, "hookbench:", err)
			return 1
		}
		rss, exact, err := peakRSS(*hw, s.args, in(-1), project)
		if err != nil {
			fmt.Fprintln(stderr, "hookbench:", err)
			return 1
		}
		bound := " "
		if !exact {
			bound = "<" // an upper bound: see peakRSS
		}
		ratio := float64(med[1]) / float64(med[0])
		mark := ""
		if s.held && ratio > maxRatio || rss > maxRSSBytes {
			mark, over = "  OVER BUDGET", true
		}
		fmt.Fprintf(stdout, "%-30s %10s %10s %6.2fx %s%6.1fMiB", s.name, round(med[0]), round(med[1]), ratio, bound, float64(rss)/(1<<20))
		if *launcher != "" {
			fmt.Fprintf(stdout, " %10s %9s", round(med[2]), round(med[2]-med[1]))
		}
		fmt.Fprintln(stdout, mark)
	}
	fmt.Fprintf(stdout, "\nbudget: pass-through ratio <= %.2fx, peak RSS <= %d MiB; SessionStart is held to %.2fx as Claude Code runs it (below)\n", maxRatio, maxRSSBytes>>20, maxRatio)
	if *plugin != "" {
		asRunOver, err := asClaudeCodeRuns(stdout, *plugin, *prev, *base, *n)
		if err != nil {
			fmt.Fprintln(stderr, "hookbench:", err)
			return 1
		}
		over = over || asRunOver
	}
	if over {
		fmt.Fprintln(stdout, "result: OVER BUDGET")
		return 1
	}
	fmt.Fprintln(stdout, "result: within budget")
	return 0
}

// measure runs each binary n times, interleaved, and returns the median
// wall time of each. Run i of every binary reads stdin(i).
func measure(bins, args []string, stdin func(int) string, project string, n int) ([]time.Duration, error) {
	times := make([][]time.Duration, len(bins))
	for i := 0; i < n; i++ {
		for b, bin := range bins {
			d, err := once(exec.Command(bin, args...), bin, stdin(i*len(bins)+b), project)
			if err != nil {
				return nil, err
			}
			times[b] = append(times[b], d)
		}
	}
	return medians(times), nil
}

// medians returns the median of each series.
func medians(times [][]time.Duration) []time.Duration {
	med := make([]time.Duration, len(times))
	for b := range times {
		sort.Slice(times[b], func(i, j int) bool { return times[b][i] < times[b][j] })
		med[b] = times[b][len(times[b])/2]
	}
	return med
}

// peakRSS returns the largest peak resident set of bin over a few runs.
//
// The rusage a Go parent gets from wait4 overstates it: Go starts children
// with CLONE_VM, so the child's high-water mark includes the parent's pages
// until exec. GNU time forks for real and reports the child alone, so it is
// used where installed (Debian package "time"); otherwise the rusage is
// reported and marked as an upper bound.
func peakRSS(bin string, args []string, stdin, project string) (rss int64, exact bool, err error) {
	gnuTime, lookErr := exec.LookPath("/usr/bin/time")
	exact = lookErr == nil
	report := filepath.Join(project, ".hookbench-rss")
	for i := 0; i < 5; i++ {
		cmd := exec.Command(bin, args...)
		if exact {
			cmd = exec.Command(gnuTime, append([]string{"-f", "%M", "-o", report, bin}, args...)...)
		}
		if _, err := once(cmd, bin, stdin, project); err != nil {
			return 0, false, err
		}
		var kb int64
		if exact {
			// The last line is %M; GNU time writes a line before it when
			// the exit status is not 0.
			data, _ := os.ReadFile(report)
			lines := strings.Split(strings.TrimSpace(string(data)), "\n")
			kb, _ = strconv.ParseInt(lines[len(lines)-1], 10, 64)
		} else if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			kb = int64(ru.Maxrss)
		}
		rss = max(rss, kb*1024)
	}
	return rss, exact, nil
}

// once runs cmd (which runs bin) with stdin in the project and returns its
// wall time. Exit 2 (a block) counts as success.
func once(cmd *exec.Cmd, bin, stdin, project string) (time.Duration, error) {
	cmd.Stdin = strings.NewReader(stdin)
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	abs, _ := filepath.Abs(bin)
	if cmd.Env == nil {
		cmd.Env = append(os.Environ(), "CLAUDE_PLUGIN_ROOT="+filepath.Dir(filepath.Dir(abs)))
	}
	cmd.Env = append(cmd.Env, "CLAUDE_PROJECT_DIR="+project)
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	if err != nil {
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
			return 0, fmt.Errorf("%s: %v: %s", strings.Join(cmd.Args, " "), err, errOut.String())
		}
	}
	return d, nil
}

func round(d time.Duration) string { return d.Round(10 * time.Microsecond).String() }
