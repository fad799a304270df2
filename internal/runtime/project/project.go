// Package project finds the project folder a hook call belongs to, by the
// runtime's own rule ([hooks.ProjectDir]), names files inside it, and
// carries the one [Env] that main hands to every handler.
package project

import (
	"errors"
	"fmt"
	"time"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
)

// Env is everything a hook call reads from outside its input: the
// environment, the clock and the home folder. main builds the one real Env
// (os.Getenv, time.Now, os.UserHomeDir) and passes it down; nothing below
// main reads the process environment or the clock itself, so a test that
// builds its own Env sees exactly what it set.
type Env struct {
	// Getenv reads a variable; nil is an empty environment.
	Getenv func(string) string
	// Now is the clock; nil reads as the zero time.
	Now func() time.Time
	// Home returns the user's home folder; nil derives it from the
	// environment ($HOME, or %USERPROFILE% on Windows).
	Home func() (string, error)
}

// Get returns the variable key, "" when unset.
func (e Env) Get(key string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(key)
}

// Time returns the current time by e's clock.
func (e Env) Time() time.Time { return Now(e.Now) }

// HomeDir returns the user's home folder.
func (e Env) HomeDir() (string, error) {
	if e.Home != nil {
		return e.Home()
	}
	return Home(e.Get)
}

// Home returns the home folder named by the environment: $HOME, or
// %USERPROFILE% where HOME is unset (Windows), as os.UserHomeDir does.
func Home(getenv func(string) string) (string, error) {
	getenv = Getenv(getenv)
	for _, k := range []string{"HOME", "USERPROFILE"} {
		if h := getenv(k); h != "" {
			return h, nil
		}
	}
	return "", errors.New("no home folder: $HOME is not set")
}

// Dir returns the project folder for in; fixed, when not empty, wins.
func Dir(fixed string, in hooks.Input, getenv func(string) string) string {
	if fixed != "" {
		return fixed
	}
	return hooks.ProjectDir(in, Getenv(getenv))
}

// Getenv returns f, or an empty environment when f is nil.
func Getenv(f func(string) string) func(string) string {
	if f == nil {
		return func(string) string { return "" }
	}
	return f
}

// Now returns f(), or the zero time when f is nil: the clock comes from
// main's [Env], never from the process.
func Now(f func() time.Time) time.Time {
	if f == nil {
		return time.Time{}
	}
	return f()
}

// Path names the project-relative rel under dir, confined to dir: every
// open of it goes through package safepath.
func Path(dir, rel string) (safepath.Path, error) {
	if dir == "" {
		return safepath.Path{}, fmt.Errorf("no project folder (neither CLAUDE_PROJECT_DIR nor cwd)")
	}
	return safepath.In(dir, rel)
}
