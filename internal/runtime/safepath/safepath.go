// Package safepath keeps names taken from hook events inside their root
// folder. Team, teammate, agent-type and feature names arrive from the model
// and from Claude Code; before one becomes part of a path it goes through
// [Name], and the joined path through [Within].
package safepath

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ErrUnsafe is wrapped by every rejection.
var ErrUnsafe = errors.New("unsafe name")

// Name checks that s can be one path element: not empty, not "." or "..",
// no slash or backslash, no NUL, no leading "~", not absolute, at most 128
// bytes. The error says which rule s broke.
func Name(kind, s string) error {
	switch {
	case s == "":
		return fmt.Errorf("%w: %s is empty", ErrUnsafe, kind)
	case s == "." || s == "..":
		return fmt.Errorf("%w: %s %q is a relative folder", ErrUnsafe, kind, s)
	case strings.ContainsRune(s, 0):
		return fmt.Errorf("%w: %s %q contains NUL", ErrUnsafe, kind, s)
	case strings.ContainsAny(s, `/\`):
		return fmt.Errorf("%w: %s %q contains a path separator", ErrUnsafe, kind, s)
	case strings.HasPrefix(s, "~") || filepath.IsAbs(s) || filepath.VolumeName(s) != "":
		return fmt.Errorf("%w: %s %q is an absolute path", ErrUnsafe, kind, s)
	case len(s) > 128:
		return fmt.Errorf("%w: %s is longer than 128 bytes", ErrUnsafe, kind)
	}
	return nil
}

// Join checks each name with [Name] and joins them under root.
func Join(root, kind string, names ...string) (string, error) {
	for _, n := range names {
		if err := Name(kind, n); err != nil {
			return "", err
		}
	}
	return filepath.Join(append([]string{root}, names...)...), nil
}

// Within reports an error when path, with symlinks resolved as far as they
// exist, is not root or below it. A path that does not exist yet is checked
// through its nearest existing parent, so a symlinked parent that points
// outside is caught before anything is created there.
func Within(root, path string) error {
	r, err := resolve(root)
	if err != nil {
		return fmt.Errorf("root %s: %w", root, err)
	}
	p, err := resolve(path)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	rel, err := filepath.Rel(r, p)
	if err != nil || !filepath.IsLocal(rel) && rel != "." {
		return fmt.Errorf("%w: %s resolves outside %s", ErrUnsafe, path, root)
	}
	return nil
}

// resolve returns the absolute path with every existing prefix's symlinks
// evaluated and the missing rest appended unchanged.
func resolve(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	var rest []string
	for cur := abs; ; {
		real, err := filepath.EvalSymlinks(cur)
		if err == nil {
			return filepath.Join(append([]string{real}, rest...)...), nil
		}
		if !errors.Is(err, os.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return abs, nil
		}
		rest = append([]string{filepath.Base(cur)}, rest...)
		cur = parent
	}
}
