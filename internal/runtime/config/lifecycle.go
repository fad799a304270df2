package config

import (
	"fmt"
	"strings"
)

// Automation is how far PDCA acts on a completed phase (pdca.automation).
type Automation string

// The automation levels.
const (
	// AutomationManual records the phase and says nothing.
	AutomationManual Automation = "manual"
	// AutomationSemi records the phase and tells the model the next one
	// (the default).
	AutomationSemi Automation = "semi"
	// AutomationFull records, tells, and has next-task offer an idle
	// teammate the next phase's task first.
	AutomationFull Automation = "full"
)

// Loop configures the Stop loop (package loop): the main session may not
// stop until the check passes or the model prints the promise, within a
// bounded number of rounds.
type Loop struct {
	Enabled bool `json:"enabled"`
	// Check is a shell command run in the project folder; exit 0 ends
	// the loop.
	Check string `json:"check"`
	// Promise ends the loop when the last assistant message carries
	// <promise>Promise</promise>; empty means no promise is accepted.
	Promise string `json:"promise"`
	// MaxRounds is how many stops one session may have blocked.
	MaxRounds int `json:"max_rounds"`
	// StallRounds lets the stop through after that many blocked rounds in
	// a row with no file in the project changed.
	StallRounds int `json:"stall_rounds"`
	// Timeout is the check's time limit in seconds (at most MaxLoopTimeout).
	Timeout int `json:"timeout"`
	// Subagents also holds subagents at SubagentStop.
	Subagents bool `json:"subagents"`
}

// MaxLoopTimeout is the largest loop.timeout: the Stop hook's own timeout
// in hooks.json is 120 s, and the loop needs time to answer after the
// check.
const MaxLoopTimeout = 100

// Compact configures the snapshot taken before a compaction and the
// briefing given after it (package compact).
type Compact struct {
	Enabled bool `json:"enabled"`
	// Keep is how many snapshots (one per session) are kept.
	Keep int `json:"keep"`
}

// Team configures the teammate status file (package teamstatus).
type Team struct {
	Enabled bool `json:"enabled"`
}

// validateLifecycle checks the pdca.automation, loop and compact values.
func (c Config) validateLifecycle() error {
	switch c.PDCA.Automation {
	case AutomationManual, AutomationSemi, AutomationFull:
	default:
		return fmt.Errorf("pdca.automation: %q is not \"manual\", \"semi\" or \"full\"", c.PDCA.Automation)
	}
	l := c.Loop
	if l.Enabled && strings.TrimSpace(l.Check) == "" && strings.TrimSpace(l.Promise) == "" {
		return fmt.Errorf("loop: enabled with neither a check nor a promise, nothing could end it")
	}
	if l.MaxRounds < 1 || l.MaxRounds > 1000 {
		return fmt.Errorf("loop.max_rounds: %d is not between 1 and 1000", l.MaxRounds)
	}
	if l.StallRounds < 0 {
		return fmt.Errorf("loop.stall_rounds: must not be negative (0 turns the stall check off)")
	}
	if l.Timeout < 1 || l.Timeout > MaxLoopTimeout {
		return fmt.Errorf("loop.timeout: %d is not between 1 and %d seconds", l.Timeout, MaxLoopTimeout)
	}
	if len(l.Promise) > 200 || strings.ContainsAny(l.Promise, "<>\n") {
		return fmt.Errorf("loop.promise: at most 200 bytes on one line, without < or >")
	}
	if c.Compact.Keep < 1 || c.Compact.Keep > 1000 {
		return fmt.Errorf("compact.keep: %d is not between 1 and 1000", c.Compact.Keep)
	}
	return nil
}
