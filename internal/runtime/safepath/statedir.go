package safepath

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// StateDir is hookwright's folder in a project (config.Dir), which holds
// its config, journal, store and state.
const StateDir = ".hookwright"

// StateIgnore is the .gitignore hookwright writes in [StateDir] when it
// makes a folder there and finds none, as tool caches do (pytest's
// .pytest_cache, ruff's .ruff_cache): the journal, the store and the state
// stay out of git by themselves. The project's config is the one file a
// team may commit, so it is not ignored. An existing .gitignore is never
// touched.
const StateIgnore = "# Written by hookwright: its journal, store and state stay out of git.\n" +
	"# The project's config (config.json) may be committed.\n" +
	"*\n" +
	"!config.json\n"

// MkdirAll makes the folder rel (relative to r) and its parents, like
// os.Root.MkdirAll. When rel is [StateDir] or a folder inside it and a
// folder had to be made, StateDir/.gitignore is written if it is missing
// ([StateIgnore]); a failure to write it is not an error of MkdirAll.
func MkdirAll(r *os.Root, rel string, perm fs.FileMode) error {
	rel = filepath.Clean(rel)
	_, statErr := r.Lstat(rel)
	if err := r.MkdirAll(rel, perm); err != nil {
		return err
	}
	if errors.Is(statErr, fs.ErrNotExist) && (rel == StateDir || strings.HasPrefix(rel, StateDir+string(filepath.Separator))) {
		writeIgnore(r)
	}
	return nil
}

// MkdirAllIn is [MkdirAll] for the folder rel under the folder root, which
// is made first when it is missing.
func MkdirAllIn(root, rel string, perm fs.FileMode) error {
	if err := os.MkdirAll(root, perm); err != nil {
		return err
	}
	r, err := OpenRoot(root)
	if err != nil {
		return err
	}
	defer r.Close()
	return MkdirAll(r, rel, perm)
}

// writeIgnore creates StateDir/.gitignore, never over an existing file or
// through a link (O_EXCL).
func writeIgnore(r *os.Root) {
	f, err := r.OpenFile(filepath.Join(StateDir, ".gitignore"), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return
	}
	_, werr := f.WriteString(StateIgnore)
	if cerr := f.Close(); werr != nil || cerr != nil {
		_ = r.Remove(filepath.Join(StateDir, ".gitignore")) // no half-written ignore file
	}
}
