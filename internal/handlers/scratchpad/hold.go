package scratchpad

import (
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/runtime/project"
	"github.com/hookwright/hookwright/internal/runtime/statefile"
)

// HoldFile counts, with "fail": "closed", the stops each agent had
// blocked in a row: .hookwright/scratchpad.json, relative to the project.
const HoldFile = config.Dir + "/scratchpad.json"

// maxHeld bounds the agents HoldFile remembers; the ones seen longest
// ago are forgotten first.
const maxHeld = 500

// held is one agent's count in HoldFile.
type held struct {
	Blocks int       `json:"blocks"`
	Seen   time.Time `json:"seen"`
}

// holdKey names the agent whose stops are counted: the session and the
// subagent's id (its type on releases that send no id), or the
// coordinator.
func holdKey(session, agentID, agent string) string {
	if agentID == "" {
		agentID = agent
	}
	return session + "/" + agentID
}

// hold counts one more blocked stop of key and returns the count, or
// false when the stop must go through: the count reached max, or it
// cannot be kept (an agent whose count cannot be kept is not held
// forever).
func (o Options) hold(dir, key string) (n int, ok bool) {
	p, err := project.Path(dir, HoldFile)
	if err != nil {
		return 0, false
	}
	limit := o.Config.MaxBlocks
	if limit < 1 {
		limit = config.Default().Scratchpad.MaxBlocks
	}
	err = statefile.Update(p, func(old []byte) ([]byte, error) {
		st := map[string]held{}
		if len(old) > 0 && json.Unmarshal(old, &st) != nil {
			st = map[string]held{}
		}
		h := st[key]
		if h.Blocks >= limit {
			n, ok = h.Blocks, false
			delete(st, key) // let go: a later stop starts a new count
		} else {
			h.Blocks++
			h.Seen = project.Now(o.Now).UTC()
			st[key] = h
			n, ok = h.Blocks, true
		}
		trim(st)
		return json.Marshal(st)
	})
	if err != nil {
		return 0, false
	}
	return n, ok
}

// release forgets key's count: its scratchpad is complete. It writes
// only when there is a count.
func (o Options) release(dir, key string) {
	p, err := project.Path(dir, HoldFile)
	if err != nil {
		return
	}
	if data, err := statefile.Read(p); err != nil || len(data) == 0 {
		return
	}
	_ = statefile.Update(p, func(old []byte) ([]byte, error) {
		st := map[string]held{}
		if len(old) == 0 || json.Unmarshal(old, &st) != nil {
			return nil, statefile.ErrNoChange
		}
		if _, ok := st[key]; !ok {
			return nil, statefile.ErrNoChange
		}
		delete(st, key)
		return json.Marshal(st)
	})
}

// trim keeps the newest maxHeld counts.
func trim(st map[string]held) {
	if len(st) <= maxHeld {
		return
	}
	keys := make([]string, 0, len(st))
	for k := range st {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return st[keys[i]].Seen.After(st[keys[j]].Seen) })
	for _, k := range keys[maxHeld:] {
		delete(st, k)
	}
}

// holdNote is what a held stop's reason adds: the count and the bound.
func (o Options) holdNote(n int) string {
	return fmt.Sprintf(" (scratchpad.fail is closed: block %d of at most %d, scratchpad.max_blocks; after that the stop goes through)", n, o.maxBlocks())
}

func (o Options) maxBlocks() int {
	if o.Config.MaxBlocks < 1 {
		return config.Default().Scratchpad.MaxBlocks
	}
	return o.Config.MaxBlocks
}

// closed reports whether the gates hold repeated stops.
func (o Options) closed() bool { return o.Config.Fail == config.FailClosed }
