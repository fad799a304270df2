package guard

import "github.com/hookwright/hookwright/internal/runtime/config"

// FailClosed reports whether the guard blocks when it cannot decide: with
// guard.fail "closed", an error, a panic or an overrun of the call's
// deadline blocks instead of letting the call through (hooks.FailCloser).
func (g *Guard) FailClosed() bool { return g.Config.Enabled && g.Config.Fail == config.FailClosed }
