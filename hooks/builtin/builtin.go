// Package builtin registers hookwright's own handlers: the set the plugin's
// hooks.json (manifests/hookwright.spec.json) calls. A test in the manifests
// package proves the two agree, event by event and matcher by matcher.
package builtin

import (
	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/hooks/config"
	"github.com/hookwright/hookwright/hooks/guard"
)

// Mux returns a mux with every built-in handler registered for cfg.
func Mux(cfg config.Config) *hooks.Mux {
	m := new(hooks.Mux)
	m.Handle(hooks.EventPreToolUse, "Bash|Write|Edit|MultiEdit", guard.Guard{Config: cfg.Guard})
	return m
}
