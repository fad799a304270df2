package suite

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// The three fallbacks bkit's compatibility design tests by the presence of
// code (ALT-03: the TaskCompleted fallback carries the PDCA patterns;
// ALT-04: the SubagentStop handler calls handleTeammateIdle; ALT-05: the
// Stop handler updates the teammate's status), checked here by what the
// plugin's own commands do: the fallback must leave the same state, or
// give the same answer, as the native event on the same project. They read
// hookwright's state layout (.hookwright/pdca.json, .hookwright/team/); a
// plugin whose native run leaves none there is SKIP, never PASS.

// pdcaSubject is a PDCA-tagged task: phase Do of feature parser.
const pdcaSubject = "[Do] parser: Write the parser"

// pdcaOn is the project config that turns hookwright's PDCA workflow on,
// as `hwctl workflow enable pdca` writes it: PDCA and next-task run only
// where a project asks for them.
const pdcaOn = `{"pdca": {"enabled": true}}`

// withFiles is files with more added.
func withFiles(files map[string]string, more map[string]string) map[string]string {
	out := make(map[string]string, len(files)+len(more))
	for k, v := range files {
		out[k] = v
	}
	for k, v := range more {
		out[k] = v
	}
	return out
}

// pdcaState is doneState with task 3 tagged for PDCA, and PDCA on.
var pdcaState = &state{
	Name:      "a teammate with its deliverables completing a PDCA task",
	Files:     withFiles(doneState.Files, map[string]string{".hookwright/config.json": pdcaOn}),
	HomeFiles: map[string]string{".claude/tasks/core/3.json": strings.Replace(taskFile, `"subject":"Write the parser"`, `"subject":"`+pdcaSubject+`"`, 1)},
}

// nextState is doneState with a second, unowned task pending: next-task
// has something to hand the idle teammate (PDCA on).
var nextState = &state{
	Name:  "an idle teammate with a pending task in its team's list",
	Files: withFiles(doneState.Files, map[string]string{".hookwright/config.json": pdcaOn}),
	HomeFiles: map[string]string{
		".claude/tasks/core/3.json": taskFile,
		".claude/tasks/core/4.json": `{"id":"4","subject":"[Do] parser: Write the tests","description":"test the parser","activeForm":"Writing the tests","owner":"","status":"pending","blocks":[],"blockedBy":[],"metadata":{}}`,
	},
}

// pdcaPhases reads .hookwright/pdca.json as "feature=phase" pairs.
func pdcaPhases(project, _ string) string {
	data, err := os.ReadFile(filepath.Join(project, ".hookwright", "pdca.json"))
	if err != nil {
		return ""
	}
	var st struct {
		Features map[string]struct {
			Phase string `json:"phase"`
		} `json:"features"`
	}
	if json.Unmarshal(data, &st) != nil {
		return "unreadable pdca.json"
	}
	var out []string
	for f, v := range st.Features {
		out = append(out, f+"="+v.Phase)
	}
	sort.Strings(out)
	return strings.Join(out, ",")
}

// teammateStates reads .hookwright/team/core.json as "name=state" pairs.
func teammateStates(project, _ string) string {
	data, err := os.ReadFile(filepath.Join(project, ".hookwright", "team", team+".json"))
	if err != nil {
		return ""
	}
	var st struct {
		Teammates map[string]struct {
			State string `json:"state"`
		} `json:"teammates"`
	}
	if json.Unmarshal(data, &st) != nil {
		return "unreadable team file"
	}
	var out []string
	for n, v := range st.Teammates {
		out = append(out, n+"="+v.State)
	}
	sort.Strings(out)
	return strings.Join(out, ",")
}

// hwf08: the TaskCompleted fallback on TaskUpdate advances PDCA as the
// native event does.
func hwf08(ctx context.Context, s *Session) (string, error) {
	fbs := s.fallbackCommands("TaskCompleted", "PostToolUse")
	var bad problems
	var notes []string
	for _, matcher := range sortedKeys(fbs) {
		if !covers(matcher, "TaskUpdate") {
			continue
		}
		fb := fbs[matcher]
		_, native := fbsCanonical(fb)
		np := withTeam(func(project, _ string) map[string]any {
			in := common("TaskCompleted", project)
			in["task_id"], in["task_subject"], in["task_description"] = taskID, pdcaSubject, "parse the config"
			return in
		})
		n := s.run.run(ctx, call{Command: native, Payload: np, State: pdcaState, Env: teamEnv, After: pdcaPhases})
		f := s.run.run(ctx, call{Command: fb, Payload: taskUpdate("completed", "in_progress", "completed", true), State: pdcaState, Env: teamEnv, After: pdcaPhases})
		switch {
		case n.After == "":
			return "", skip("the native TaskCompleted run left no .hookwright/pdca.json (%s)", n.short())
		case f.After != n.After:
			bad.add("TaskCompleted via PostToolUse[TaskUpdate] on %q: PDCA %q (%s), native %q", pdcaSubject, f.After, f.short(), n.After)
		default:
			notes = append(notes, fmt.Sprintf("PostToolUse[%s]: PDCA %s, as native", matcher, f.After))
		}
	}
	if len(notes) == 0 && len(bad) == 0 {
		return "", skip("no TaskCompleted fallback on TaskUpdate under test")
	}
	return strings.Join(notes, "; "), bad.err()
}

// hwf09: next-task answers an idle that arrives through SubagentStop (and
// Stop) as it answers native TeammateIdle.
func hwf09(ctx context.Context, s *Session) (string, error) {
	var bad problems
	var notes []string
	for _, anchor := range []struct {
		event string
		p     payload
	}{{"SubagentStop", withTeam(subagentStop(false))}, {"Stop", stopPayload(false)}} {
		for _, fb := range s.fallbackCommands("TeammateIdle", anchor.event) {
			_, native := fbsCanonical(fb)
			n, f, same := s.compare(ctx, nextState, native, nativeTeammateIdle, fb, anchor.p)
			switch {
			case n.Exit != 2 || !strings.Contains(n.Stderr, "#4"):
				return "", skip("native TeammateIdle hands no next task here (%s)", n.short())
			case !same:
				bad.add("TeammateIdle via %s with task #4 pending: native %s, fallback %s", anchor.event, n, f)
			default:
				notes = append(notes, "via "+anchor.event+": next task #4, as native")
			}
		}
	}
	if len(notes) == 0 && len(bad) == 0 {
		return "", skip("no TeammateIdle fallback under test")
	}
	return strings.Join(notes, "; "), bad.err()
}

// hwf10: an idle through SubagentStop or Stop records the teammate's
// status as native TeammateIdle does.
func hwf10(ctx context.Context, s *Session) (string, error) {
	var bad problems
	var notes []string
	for _, anchor := range []struct {
		event string
		p     payload
	}{{"SubagentStop", withTeam(subagentStop(false))}, {"Stop", stopPayload(false)}} {
		for _, fb := range s.fallbackCommands("TeammateIdle", anchor.event) {
			_, native := fbsCanonical(fb)
			n := s.run.run(ctx, call{Command: native, Payload: nativeTeammateIdle, State: doneState, Env: teamEnv, After: teammateStates})
			f := s.run.run(ctx, call{Command: fb, Payload: anchor.p, State: doneState, Env: teamEnv, After: teammateStates})
			switch {
			case n.After == "":
				return "", skip("the native TeammateIdle run left no .hookwright/team/%s.json (%s)", team, n.short())
			case f.After != n.After:
				bad.add("TeammateIdle via %s: teammate status %q (%s), native %q", anchor.event, f.After, f.short(), n.After)
			default:
				notes = append(notes, "via "+anchor.event+": "+f.After+", as native")
			}
		}
	}
	if len(notes) == 0 && len(bad) == 0 {
		return "", skip("no TeammateIdle fallback under test")
	}
	return strings.Join(notes, "; "), bad.err()
}
