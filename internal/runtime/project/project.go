// Package project finds the project folder a hook call belongs to, by the
// runtime's own rule ([hooks.ProjectDir]), and gives the handlers'
// injectable environment and clock their defaults.
package project

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
)

// Dir returns the project folder for in; fixed, when not empty, wins.
func Dir(fixed string, in hooks.Input, getenv func(string) string) string {
	if fixed != "" {
		return fixed
	}
	return hooks.ProjectDir(in, getenv)
}

// Getenv returns f, or os.Getenv when f is nil.
func Getenv(f func(string) string) func(string) string {
	if f == nil {
		return os.Getenv
	}
	return f
}

// Now returns f(), or time.Now() when f is nil.
func Now(f func() time.Time) time.Time {
	if f == nil {
		return time.Now()
	}
	return f()
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
