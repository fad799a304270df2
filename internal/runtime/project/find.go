package project

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookwright/hookwright/internal/runtime/safepath"
)

// Search is the outcome of [Find]: the project a tool run outside a hook
// call belongs to, and where it looked.
type Search struct {
	// Dir is the project: the nearest folder that holds .hookwright/, else
	// the project root the search stopped at (the folder with .git),
	// else the folder the search started from.
	Dir string
	// Found reports whether Dir holds .hookwright/.
	Found bool
	// Looked lists the folders looked in, nearest first.
	Looked []string
	// Stop says why the search went no higher ("the project root: it
	// holds .git", "/tmp belongs to another user", "the top of the file
	// system").
	Stop string
}

// FindRule is how [Find] finds the project, in words for --help.
const FindRule = `the nearest folder upwards that holds .hookwright/ (as git
finds its repository), looking no higher than the project root (the folder
that holds .git) and never into a folder that belongs to another user (a
shared temporary folder, a home above your own); else the current folder`

// Find looks for the project from the folder start upwards: the nearest
// folder that holds .hookwright/ (a folder, not a link), as git finds its
// repository. It looks no higher than the project root, the first folder
// that holds .git (a folder, or a file in a worktree), and never enters a
// folder, nor takes a .hookwright/, that another user owns, so that a tool
// run under a shared temporary folder never reads, nor writes beside,
// someone else's journal. start itself is looked in whoever owns it.
func Find(start string) Search {
	abs, err := filepath.Abs(start)
	if err != nil {
		return Search{Dir: start, Stop: err.Error()}
	}
	s := Search{Dir: abs}
	for d := abs; ; {
		if d != abs && !ownedByMe(d) {
			s.Stop = d + " belongs to another user"
			return s
		}
		s.Looked = append(s.Looked, d)
		state := filepath.Join(d, safepath.StateDir)
		if fi, err := os.Lstat(state); err == nil && fi.IsDir() {
			if !ownedByMe(state) {
				s.Stop = state + " belongs to another user"
				return s
			}
			s.Dir, s.Found = d, true
			return s
		}
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			s.Dir, s.Stop = d, "the project root: it holds .git"
			return s
		}
		up := filepath.Dir(d)
		if up == d {
			s.Stop = "the top of the file system"
			return s
		}
		d = up
	}
}

// Where says in words where s looked, for a message: "in /a/b and the 2
// folders above it up to /a (the project root: it holds .git)".
func (s Search) Where() string {
	if len(s.Looked) == 0 {
		return "nowhere (" + s.Stop + ")"
	}
	var b strings.Builder
	b.WriteString("in " + s.Looked[0])
	if n := len(s.Looked) - 1; n == 1 {
		b.WriteString(" and " + s.Looked[1])
	} else if n > 1 {
		fmt.Fprintf(&b, " and the %d folders above it up to %s", n, s.Looked[n])
	}
	if s.Stop != "" {
		b.WriteString(" (stopped: " + s.Stop + ")")
	}
	return b.String()
}

// ErrNoState is wrapped by [Require] when a folder holds no
// .hookwright/ part it needs.
var ErrNoState = errors.New("no hookwright state")

// Require checks that the folder rel (".hookwright/journal") exists in dir
// as a folder; it creates nothing.
func Require(dir, rel string) error {
	fi, err := os.Lstat(filepath.Join(dir, rel))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%w: no %s in %s", ErrNoState, filepath.ToSlash(rel), dir)
	case err != nil:
		return err
	case !fi.IsDir():
		return fmt.Errorf("%w: %s in %s is not a folder", ErrNoState, filepath.ToSlash(rel), dir)
	}
	return nil
}
