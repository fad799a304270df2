package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
	"github.com/hookwright/hookwright/internal/runtime/statefile"
)

// noticeFile keeps the last config notice shown, so that a
// project config's ignored loosenings are reported once, not on every
// call (the guard keeps the model from writing it).
const noticeFile = config.Dir + "/config-notice"

// configNotice returns the message that tells the user which loosenings
// of the project config were ignored, and a mark that records it as
// shown; "" when there is none or it was shown already.
func configNotice(project string, l config.Layers) (string, func()) {
	ignored := l.Ignored()
	if len(ignored) == 0 {
		return "", func() {}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "hookwright: this project's %s tries to loosen the guard or add commands; ignored, because a project config can only tighten the guard, and add no commands (quality.commands, loop.check), unless your user config trusts the project:", config.File)
	for _, c := range ignored {
		fmt.Fprintf(&b, "\n  %s: %s -> %s", c.Field, c.From, c.To)
	}
	user := "$XDG_CONFIG_HOME/hookwright/" + config.UserFileName + " (by default ~/.config/hookwright/" + config.UserFileName + ")"
	if l.UserFile != "" {
		user = l.UserFile
	}
	fmt.Fprintf(&b, "\nTo allow it, add the project to \"trust\" in %s (`hwctl explain` shows every layer).", user)
	msg := b.String()
	if project == "" {
		return msg, func() {}
	}
	hash := msg // the file keeps the notice itself: no hash package in the runtime
	p := safepath.Path{Root: project, Rel: filepath.FromSlash(noticeFile)}
	if old, err := statefile.Read(p); err == nil && strings.TrimSpace(string(old)) == hash {
		return "", func() {}
	}
	return msg, func() {
		_ = statefile.Update(p, func(old []byte) ([]byte, error) {
			if strings.TrimSpace(string(old)) == hash {
				return nil, statefile.ErrNoChange
			}
			return []byte(hash + "\n"), nil
		})
	}
}
