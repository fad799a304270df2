package live

import (
	"os"
	"path/filepath"
)

// homeMarks are what a Claude Code release writes into the home it runs
// with, even for --help or --version.
var homeMarks = []string{".claude.json", ".claude"}

// HomeGuard notes which of Claude Code's files the user's HOME holds now.
// A test process that starts releases calls it before its tests and
// Leaked after them: every release must run with a scratch HOME, and one
// started with the user's (an exec.Command without an environment of its
// own) writes ~/.claude.json. It cannot tell on a machine where the user
// already has them.
type HomeGuard struct {
	home   string
	before map[string]bool
}

// NewHomeGuard notes the current state of $HOME.
func NewHomeGuard() HomeGuard {
	g := HomeGuard{home: os.Getenv("HOME"), before: map[string]bool{}}
	for _, m := range homeMarks {
		if _, err := os.Lstat(filepath.Join(g.home, m)); err == nil {
			g.before[m] = true
		}
	}
	return g
}

// Leaked returns the paths of Claude Code's files that appeared in the
// user's HOME since NewHomeGuard.
func (g HomeGuard) Leaked() []string {
	if g.home == "" {
		return nil
	}
	var out []string
	for _, m := range homeMarks {
		p := filepath.Join(g.home, m)
		if _, err := os.Lstat(p); err == nil && !g.before[m] {
			out = append(out, p)
		}
	}
	return out
}
