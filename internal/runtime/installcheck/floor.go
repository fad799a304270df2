package installcheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/jsonscan"
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
	if !mayRefuse(manifest, r) {
		return nil
	}
	// Only the event keys are read, with the hand-written scanner (package
	// jsonscan; encoding/json cost a session start about half its
	// instructions), and the handlers are looked into only when the file
	// holds "args" at all.
	var hooksRaw []byte
	if !jsonscan.Members(manifest, func(k, v []byte) bool {
		if string(k) == "hooks" {
			hooksRaw = v
		}
		return true
	}) || hooksRaw == nil {
		return &Refused{What: "no hooks object (the file is not what hookgen wrote)", Since: hooks.Release{99, 0, 0}, Whole: true}
	}
	raws := map[string][]byte{}
	var events []string
	if !jsonscan.Members(hooksRaw, func(k, v []byte) bool {
		events = append(events, string(k))
		raws[string(k)] = v
		return true
	}) {
		return &Refused{What: "a hooks value that is not an object", Since: hooks.Release{99, 0, 0}, Whole: true}
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
		if json.Unmarshal(raws[ev], &groups) != nil {
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

// mayRefuse is AtFloor's quick answer for SessionStart, which runs it on
// every session: a file that spells no event later than r, and no "args",
// as a key anywhere is one r loads, whatever else it holds.
// (The session that runs this check was started by a release that loaded
// the file, so the file is JSON with a hooks object; an event unknown to
// every release is for hookgen doctor, which reads the file whole.)
func mayRefuse(manifest []byte, r hooks.Release) bool {
	if t := bytes.TrimSpace(manifest); len(t) < 2 || t[0] != '{' || t[len(t)-1] != '}' {
		return true // not one object (cut short, say): read it whole
	}
	// One pass over the keys (each is spelled "name":), checking the name
	// against the events later than r and "args".
	for i := 0; ; {
		j := bytes.Index(manifest[i:], []byte(`":`))
		if j < 0 {
			return false
		}
		end := i + j
		start := bytes.LastIndexByte(manifest[i:end], '"')
		if start >= 0 {
			name := manifest[i+start+1 : end]
			if string(name) == "args" {
				return true
			}
			// Events are spelled with a capital first; handler and group
			// keys (type, command, timeout, ...) are not looked up.
			if len(name) > 0 && name[0] >= 'A' && name[0] <= 'Z' {
				if since, ok := hooks.EventSince(hooks.Event(name)); ok && r.Less(since) {
					return true
				}
			}
		}
		i = end + 2
	}
}
