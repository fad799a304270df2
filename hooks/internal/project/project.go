// Package project finds the project folder a hook call belongs to, the
// same way cmd/hookwright does: $CLAUDE_PROJECT_DIR, else the input's cwd
// (Claude Code 2.0.30 leaves the variable unset in SessionStart).
package project

import (
	"fmt"
	"path/filepath"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/hooks/safepath"
)

// Dir returns the project folder for in; fixed, when not empty, wins.
func Dir(fixed string, in hooks.Input, getenv func(string) string) string {
	if fixed != "" {
		return fixed
	}
	if d := getenv("CLAUDE_PROJECT_DIR"); d != "" {
		return d
	}
	return in.Base().Cwd
}

// Path joins the project-relative rel under dir and checks that the result,
// symlinks included, stays inside dir.
func Path(dir, rel string) (string, error) {
	if dir == "" {
		return "", fmt.Errorf("no project folder (neither CLAUDE_PROJECT_DIR nor cwd)")
	}
	if !filepath.IsLocal(rel) {
		return "", fmt.Errorf("%w: %q is not a relative path inside the project", safepath.ErrUnsafe, rel)
	}
	p := filepath.Join(dir, rel)
	if err := safepath.Within(dir, p); err != nil {
		return "", err
	}
	return p, nil
}
