package installcheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/hookwright/hookwright/hooks"
)

// Refused says what in a hooks file makes a release older than Since
// refuse the whole file, or run a handler other than as written.
type Refused struct {
	// What names it: "event TeammateIdle", `"args" on a Stop handler`.
	What string
	// Since is the first release that takes it.
	Since hooks.Release
	// Whole is true when older releases refuse the whole file (an event);
	// false when they load it but run the handler without
	// it ("args": the command without its arguments).
	Whole bool
}

func (r Refused) Error() string {
	if r.Whole {
		return fmt.Sprintf("it names %s, which arrives in %s, so releases before %s refuse the whole file", r.What, r.Since, r.Since)
	}
	return fmt.Sprintf("it uses %s, which arrives in %s, so releases before %s run that handler without it", r.What, r.Since, r.Since)
}

// AtFloor returns what in the hooks file manifest a release at r does not
// take, per the release table package hooks carries (generated from
// compat's matrix): an event it does not know (the whole file is refused
// up to 2.1.252), or "args" (dropped, so the command runs without its
// arguments). Other unknown keys are left
// alone: every release reads past them (compat/FACTS.md). A file that is
// not a JSON object with a "hooks" object is refused on every release.
func AtFloor(manifest []byte, r hooks.Release) *Refused {
	// Only the event keys are decoded; the handlers are looked into only
	// when the file holds "args" at all (SessionStart runs this: a
	// direct-form hooks.json is mostly long command strings).
	var file struct {
		Hooks map[string]json.RawMessage `json:"hooks"`
	}
	if err := json.Unmarshal(manifest, &file); err != nil || file.Hooks == nil {
		return &Refused{What: "no hooks object (the file is not what hookgen wrote)", Since: hooks.Release{99, 0, 0}, Whole: true}
	}
	events := make([]string, 0, len(file.Hooks))
	for ev := range file.Hooks {
		events = append(events, ev)
	}
	sort.Strings(events)
	// The whole file is refused below the latest event it names; "args"
	// matters only where the file loads at all.
	var worst *Refused
	for _, ev := range events {
		since, ok := hooks.EventSince(hooks.Event(ev))
		if !ok {
			return &Refused{What: "event " + ev + " (unknown to every release in the table)", Since: hooks.Release{99, 0, 0}, Whole: true}
		}
		if r.Less(since) && (worst == nil || worst.Since.Less(since)) {
			worst = &Refused{What: "event " + ev, Since: since, Whole: true}
		}
	}
	if worst != nil {
		return worst
	}
	argsSince, known := hooks.KeySince("handler", "args")
	if !known || !r.Less(argsSince) || !bytes.Contains(manifest, []byte(`"args"`)) {
		return nil
	}
	for _, ev := range events {
		var groups []struct {
			Hooks []map[string]json.RawMessage `json:"hooks"`
		}
		if json.Unmarshal(file.Hooks[ev], &groups) != nil {
			continue
		}
		for _, g := range groups {
			for _, h := range g.Hooks {
				if _, has := h["args"]; has {
					return &Refused{What: `"args" on a ` + ev + " handler", Since: argsSince}
				}
			}
		}
	}
	return nil
}
