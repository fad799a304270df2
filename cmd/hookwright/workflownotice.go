package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookwright/hookwright/internal/runtime/call"
	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
	"github.com/hookwright/hookwright/internal/runtime/statefile"
	"github.com/hookwright/hookwright/internal/runtime/workflow"
	workstate "github.com/hookwright/hookwright/internal/state/work"
)

// workflowNoticeFile keeps which workflows the last notice said were on,
// so that a session start says it once, and again only when that changes.
const workflowNoticeFile = config.Dir + "/workflows-notice"

// workflowNotice returns, at a session's start, the message that says
// which of hookwright's workflows run in the project, and a mark that
// records it as shown; "" when the same was said before. In a project
// hookwright ran in before workflows were on request (it has a journal
// or session records), it says that they changed, and names the
// workflows the project's own files show it used (PDCA state, work
// units, scratchpads), with the command that turns each back on.
func workflowNotice(c call.Call) (string, func()) {
	dir := c.Root()
	if dir == "" {
		return "", func() {}
	}
	var on, off []string
	for _, n := range workflow.Names {
		st := c.Workflow(n)
		if st.On {
			name := string(n)
			if st.Mode != "" {
				name += " (" + st.Mode + ")"
			}
			on = append(on, name)
		} else {
			off = append(off, string(n))
		}
	}
	key := strings.TrimSpace("on: " + strings.Join(on, ", "))
	p := safepath.Path{Root: dir, Rel: filepath.FromSlash(workflowNoticeFile)}
	old, err := statefile.Read(p)
	if err == nil && strings.TrimSpace(string(old)) == key {
		return "", func() {}
	}
	var b strings.Builder
	b.WriteString("hookwright: the guard, the journal and session records run in this project. ")
	if old == nil && ranBefore(dir) {
		b.WriteString("Team workflows now run only where a project asks for them (docs/workflows.md). ")
	}
	if len(on) > 0 {
		fmt.Fprintf(&b, "Workflows on here: %s. ", strings.Join(on, ", "))
	} else {
		b.WriteString("No team workflow is on here. ")
	}
	if len(off) > 0 {
		fmt.Fprintf(&b, "Off: %s. ", strings.Join(off, ", "))
	}
	if used := usedBefore(dir, c.Config(), c); len(used) > 0 {
		fmt.Fprintf(&b, "The project has files of %s from before. ", strings.Join(used, ", "))
	}
	b.WriteString("`hwctl workflow list` says why; `hwctl workflow enable <name>` turns one on.")
	return b.String(), func() {
		_ = statefile.Update(p, func(prev []byte) ([]byte, error) {
			if strings.TrimSpace(string(prev)) == key {
				return nil, statefile.ErrNoChange
			}
			return []byte(key + "\n"), nil
		})
	}
}

// ranBefore reports whether hookwright left records in the project at dir
// before this call: a journal (this call's line is written after the
// notice; the session records are written by this call's handlers).
func ranBefore(dir string) bool {
	entries, err := os.ReadDir(filepath.Join(dir, filepath.FromSlash(config.Dir+"/journal")))
	return err == nil && len(entries) > 0
}

// usedBefore names the workflows that are off now but whose files show the
// project used them when they ran by default: the PDCA state, work units
// started by hand or tasks in progress, scratchpads.
func usedBefore(dir string, cfg config.Config, c call.Call) []string {
	var out []string
	for _, u := range []struct {
		n   workflow.Name
		rel string
	}{
		{workflow.Scratchpad, cfg.Scratchpad.Dir},
		{workflow.PDCA, cfg.PDCA.State},
	} {
		if c.Workflow(u.n).On {
			continue
		}
		if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(u.rel))); err == nil {
			out = append(out, string(u.n))
		}
	}
	// work.json was kept for every session under the former default
	// (the warn-once mark); units started by hand are the sign of use.
	if !c.Workflow(workflow.Work).On {
		if st, err := workstate.Load(dir); err == nil && len(st.Manual) > 0 {
			out = append(out, string(workflow.Work))
		}
	}
	return out
}
