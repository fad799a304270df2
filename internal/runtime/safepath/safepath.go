// Package safepath opens the files the hook runtime reads and writes so that
// no file planted by the model can hang, crash or redirect it.
//
// Names taken from hook events (team, teammate, agent-type, feature and
// session names) arrive from the model and from Claude Code; before one
// becomes part of a path it goes through [Name].
//
// Every file is named by a [Path]: a root folder (the project, or the Claude
// config folder for task and team files) and a path below it. Every open
// goes through [os.Root], so neither "..", nor an absolute symlink, nor a
// symlinked folder can lead out of the root. On top of that each open
//
//   - does not block: a named pipe (FIFO) opens at once and is then refused;
//   - accepts regular files only ([ErrNotRegular]): no FIFO, device
//     (/dev/zero), socket or folder;
//   - reads at most a cap ([ErrTooBig]);
//   - writes only to a file that is not a symlink and has no second hard
//     link, so a planted link cannot make the runtime write anywhere else.
package safepath

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Errors wrapped by the checks and opens of this package.
var (
	// ErrUnsafe: a name or path that would leave its root.
	ErrUnsafe = errors.New("unsafe name")
	// ErrNotRegular: the file is a FIFO, a device, a socket or a folder.
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooBig: the file is larger than the cap its reader set.
	ErrTooBig = errors.New("file too large")
	// ErrLinked: a file to be written is a symlink or has another hard link.
	ErrLinked = errors.New("file is a link")
)

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

// Within reports an error wrapping [ErrUnsafe] when path, symlinks
// included, is not root or below it. It resolves path through [os.Root],
// so the answer is the one an open through [Path] would give. A path that
// does not exist yet is checked through its nearest existing parent.
func Within(root, path string) error {
	p, err := Under(root, path)
	if err != nil {
		return err
	}
	r, release, err := openRoot(root)
	if err != nil {
		return fmt.Errorf("root %s: %w", root, err)
	}
	defer release()
	for rel := p.Rel; ; rel = filepath.Dir(rel) {
		_, err := r.Stat(rel)
		if err == nil || rel == "." {
			return nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			if escapes(err) {
				return fmt.Errorf("%w: %s resolves outside %s", ErrUnsafe, path, root)
			}
			return err
		}
	}
}

// OpenRoot opens the folder name as an [os.Root], after checking that it
// is a folder: os.OpenRoot itself would wait forever on a named pipe.
func OpenRoot(name string) (*os.Root, error) {
	info, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("%s: %w (%s, not a folder)", name, ErrNotRegular, kind(info.Mode()))
	}
	return os.OpenRoot(name)
}

// KeepRoots makes the opens of this package keep each root folder open
// for the rest of the process instead of opening it for every file: the
// hook runtime, which lives for one call and opens the project several
// times, turns it on in main. A long-running process leaves it off, so a
// folder that is removed and made again is seen afresh.
var KeepRoots bool

var (
	keptMu sync.Mutex
	kept   map[string]*os.Root
)

// openRoot opens the root folder name, or returns the one kept open (see
// [KeepRoots]); release is to be called when done.
func openRoot(name string) (r *os.Root, release func(), err error) {
	if !KeepRoots {
		r, err := OpenRoot(name)
		if err != nil {
			return nil, nil, err
		}
		return r, func() { r.Close() }, nil
	}
	keptMu.Lock()
	defer keptMu.Unlock()
	if r := kept[name]; r != nil {
		return r, func() {}, nil
	}
	r, err = OpenRoot(name)
	if err != nil {
		return nil, nil, err
	}
	if kept == nil {
		kept = map[string]*os.Root{}
	}
	kept[name] = r
	return r, func() {}, nil
}

// Path is a file named by the folder it may not leave and a path below it.
type Path struct {
	Root string // the folder: the project, the Claude config folder
	Rel  string // local to Root (filepath.IsLocal), or "."
}

// In returns the Path of rel, a relative path inside root (slashes or the
// OS separator); rel that is absolute or climbs out is an [ErrUnsafe].
func In(root, rel string) (Path, error) {
	rel = filepath.Clean(filepath.FromSlash(rel))
	if rel != "." && !filepath.IsLocal(rel) {
		return Path{}, fmt.Errorf("%w: %q is not a relative path inside %s", ErrUnsafe, rel, root)
	}
	return Path{Root: root, Rel: rel}, nil
}

// Under returns the Path of path, an absolute or root-relative name of a
// file at or below root, lexically.
func Under(root, path string) (Path, error) {
	if !filepath.IsAbs(path) {
		path = filepath.Join(root, path)
	}
	rel, err := filepath.Rel(root, path)
	if err != nil || rel != "." && !filepath.IsLocal(rel) {
		return Path{}, fmt.Errorf("%w: %s is outside %s", ErrUnsafe, path, root)
	}
	return Path{Root: root, Rel: rel}, nil
}

// At returns the Path of a file confined to the folder that holds it: the
// file itself may be a link within that folder, no more. Use it for a file
// named outright by the user (a command-line argument).
func At(path string) Path {
	return Path{Root: filepath.Dir(path), Rel: filepath.Base(path)}
}

// String returns the path as one name, for messages.
func (p Path) String() string { return filepath.Join(p.Root, p.Rel) }

// Join returns the path of elem below p, in the same root. The elements
// must be local (each a checked [Name], or a constant).
func (p Path) Join(elem ...string) Path {
	return Path{Root: p.Root, Rel: filepath.Join(append([]string{p.Rel}, elem...)...)}
}

// Dir returns the folder that holds p, in the same root.
func (p Path) Dir() Path { return Path{Root: p.Root, Rel: filepath.Dir(p.Rel)} }

// Base returns the last element of p.
func (p Path) Base() string { return filepath.Base(p.Rel) }

// OpenRoot opens p as a root of its own (a folder below p.Root that may not
// be left either). The caller closes it.
func (p Path) OpenRoot() (*os.Root, error) {
	if p.Rel == "." {
		r, err := OpenRoot(p.Root)
		if err != nil {
			return nil, wrap(p, err)
		}
		return r, nil
	}
	r, release, err := openRoot(p.Root)
	if err != nil {
		return nil, wrap(p, err)
	}
	defer release()
	// os.Root.OpenRoot, like os.OpenRoot, would wait forever on a named pipe.
	info, err := r.Stat(p.Rel)
	if err != nil {
		return nil, wrap(p, err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("%s: %w (%s, not a folder)", p, ErrNotRegular, kind(info.Mode()))
	}
	sub, err := r.OpenRoot(p.Rel)
	if err != nil {
		return nil, wrap(p, err)
	}
	return sub, nil
}

// Open opens p for reading: without blocking, through the root, regular
// files only. The caller closes the file.
func Open(p Path) (*os.File, fs.FileInfo, error) {
	r, release, err := openRoot(p.Root)
	if err != nil {
		return nil, nil, wrap(p, err)
	}
	defer release()
	return OpenIn(r, p.Rel, p)
}

// OpenIn opens name in r as [Open] does; p names it in errors.
func OpenIn(r *os.Root, name string, p Path) (*os.File, fs.FileInfo, error) {
	f, err := r.OpenFile(name, os.O_RDONLY|oNonblock, 0)
	if err != nil {
		return nil, nil, wrap(p, err)
	}
	info, err := regular(f, p)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, info, nil
}

// regular returns f's info when f is a regular file.
func regular(f *os.File, p Path) (fs.FileInfo, error) {
	info, err := f.Stat()
	if err != nil {
		return nil, wrap(p, err)
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w (%s)", p, ErrNotRegular, kind(info.Mode()))
	}
	return info, nil
}

// ReadFile returns the content of p, opened as by [Open], when it holds at
// most max bytes; a larger file is an error wrapping [ErrTooBig]. A missing
// file is an error wrapping fs.ErrNotExist.
func ReadFile(p Path, max int64) ([]byte, error) {
	f, info, err := Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readCapped(f, info, p, max)
}

// ReadFileIn reads name in r as [ReadFile] does; p names it in errors.
func ReadFileIn(r *os.Root, name string, p Path, max int64) ([]byte, error) {
	f, info, err := OpenIn(r, name, p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readCapped(f, info, p, max)
}

func readCapped(f *os.File, info fs.FileInfo, p Path, max int64) ([]byte, error) {
	if info.Size() > max {
		return nil, fmt.Errorf("%s: %w (%d bytes, the cap is %d)", p, ErrTooBig, info.Size(), max)
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, wrap(p, err)
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: %w (over the cap of %d bytes)", p, ErrTooBig, max)
	}
	return data, nil
}

// ReadTail returns at most the last max bytes of p, opened as by [Open].
func ReadTail(p Path, max int64) ([]byte, error) {
	f, info, err := Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info.Size() > max {
		if _, err := f.Seek(-max, io.SeekEnd); err != nil {
			return nil, wrap(p, err)
		}
	}
	data, err := io.ReadAll(io.LimitReader(f, max))
	if err != nil {
		return nil, wrap(p, err)
	}
	return data, nil
}

// ReadFollowing reads a file of the user's own, such as a settings file,
// that may be a symlink to anywhere (dotfiles managers link
// ~/.claude/settings.json): links are followed, but the file they end at
// must be a regular file, opened without blocking and read with a cap, as
// [ReadFile] does. Use it for the user's configuration outside any
// project, never for a file the model can plant.
func ReadFollowing(path string, max int64) ([]byte, error) {
	p := At(path)
	f, err := os.OpenFile(path, os.O_RDONLY|oNonblock, 0)
	if err != nil {
		return nil, wrap(p, err)
	}
	defer f.Close()
	info, err := regular(f, p)
	if err != nil {
		return nil, err
	}
	return readCapped(f, info, p, max)
}

// ReadFileAt reads the file at an absolute path as [ReadFile] does,
// confined to the folder that holds it (see [At]).
func ReadFileAt(path string, max int64) ([]byte, error) { return ReadFile(At(path), max) }

// Stat returns the info of p through the root, following links that stay
// inside it.
func Stat(p Path) (fs.FileInfo, error) {
	r, release, err := openRoot(p.Root)
	if err != nil {
		return nil, wrap(p, err)
	}
	defer release()
	info, err := r.Stat(p.Rel)
	if err != nil {
		return nil, wrap(p, err)
	}
	return info, nil
}

// ReadDir lists the folder p through the root, in name order. A missing
// folder is an error wrapping fs.ErrNotExist.
func ReadDir(p Path) ([]fs.DirEntry, error) {
	r, err := p.OpenRoot()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	entries, err := fs.ReadDir(r.FS(), ".")
	if err != nil {
		return nil, wrap(p, err)
	}
	return entries, nil
}

// Append writes data to the end of p in one write, creating p (0644) and
// its folders (0755) when needed. It refuses a p that is not a regular
// file, a symlink, or a file with another hard link.
func Append(p Path, data []byte) error {
	r, release, err := openRoot(p.Root)
	if err != nil {
		return wrap(p, err)
	}
	defer release()
	f, err := openAppend(r, p)
	if errors.Is(err, fs.ErrNotExist) {
		if err := MkdirAll(r, filepath.Dir(p.Rel), 0o755); err != nil {
			return wrap(p, err)
		}
		f, err = openAppend(r, p)
	}
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	return errors.Join(wrapIf(p, werr), wrapIf(p, f.Close()))
}

// Overwrite writes data over p in place, for a small record whose loss
// costs only some work done again (the native switch's once-per-session
// marker): p is created (0644) when missing, data is written at offset 0,
// and the file is cut to len(data) only when it was longer. There is no
// temporary file, no rename and no fsync, so a reader may see a part of
// data or, after a crash, the old content or none; use package atomicfile
// where that matters. Like [Append] it refuses a p that is a symlink (not
// followed, even to a missing target), not a regular file (a named pipe
// opens without blocking and is refused), or a file with another hard
// link; unlike Append it does not create folders.
func Overwrite(p Path, data []byte) error {
	r, release, err := openRoot(p.Root)
	if err != nil {
		return wrap(p, err)
	}
	defer release()
	f, info, err := openNoFollow(r, p, os.O_WRONLY|os.O_CREATE)
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	var terr error
	if werr == nil && info.Size() > int64(len(data)) {
		terr = f.Truncate(int64(len(data)))
	}
	return errors.Join(wrapIf(p, werr), wrapIf(p, terr), wrapIf(p, f.Close()))
}

// checkWritable returns f's info when f is a regular file with one link.
func checkWritable(f *os.File, p Path) (fs.FileInfo, error) {
	info, err := regular(f, p)
	if err == nil && links(info) > 1 {
		return nil, fmt.Errorf("%s: %w (%d hard links)", p, ErrLinked, links(info))
	}
	return info, err
}

// OpenWrite opens name in r with flag (which should include O_WRONLY or
// O_RDWR), without blocking, and returns the file only when it is a
// regular file that is neither a symlink nor hard-linked elsewhere; p names
// it in errors.
func OpenWrite(r *os.Root, name string, p Path, flag int) (*os.File, error) {
	if info, err := r.Lstat(name); err == nil {
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			return nil, fmt.Errorf("%s: %w (a symlink)", p, ErrLinked)
		case !info.Mode().IsRegular():
			return nil, fmt.Errorf("%s: %w (%s)", p, ErrNotRegular, kind(info.Mode()))
		}
	}
	f, err := r.OpenFile(name, flag|oNonblock, 0o644)
	if err != nil {
		return nil, wrap(p, err)
	}
	if _, err := checkWritable(f, p); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// wrap names p in err and marks an escape from the root as [ErrUnsafe].
func wrap(p Path, err error) error {
	if escapes(err) {
		return fmt.Errorf("%w: %s leads outside %s", ErrUnsafe, p, p.Root)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &pathError{p, err}
}

// pathError is err about p, reading "<p>: <err>" as fmt.Errorf("%s: %w")
// would. It is built without package fmt: a missing file (the config of
// most projects) is an error on every hook call, and the message is only
// formatted when someone reads it.
type pathError struct {
	p   Path
	err error
}

func (e *pathError) Error() string { return e.p.String() + ": " + e.err.Error() }

func (e *pathError) Unwrap() error { return e.err }

func wrapIf(p Path, err error) error {
	if err == nil {
		return nil
	}
	return wrap(p, err)
}

// escapes reports whether err is os.Root refusing a path that leaves it.
func escapes(err error) bool {
	if err == nil || errors.Is(err, fs.ErrNotExist) {
		return false // a missing file, the usual case, escapes nothing
	}
	return strings.Contains(err.Error(), "path escapes from parent")
}

func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeDevice != 0, m&fs.ModeCharDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a folder"
	case m&fs.ModeSymlink != 0:
		return "a symlink"
	}
	return "not a plain file"
}

func wrapLinked(p Path) error { return fmt.Errorf("%s: %w (a symlink)", p, ErrLinked) }

func wrapNotRegular(p Path, what string) error {
	return fmt.Errorf("%s: %w (%s)", p, ErrNotRegular, what)
}

// Plain checks a file that another library opens by name (a SQLite
// database and its WAL, a lock file): rel under root must be missing or a
// regular file that is no symlink, with no folder on the way leading out
// of root. Otherwise the error names the file and wraps [ErrLinked],
// [ErrNotRegular] or [ErrUnsafe].
func Plain(root, rel string) error {
	p, err := In(root, rel)
	if err != nil {
		return err
	}
	r, release, err := openRoot(root)
	if err != nil {
		return fmt.Errorf("root %s: %w", root, err)
	}
	defer release()
	info, err := r.Lstat(p.Rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return wrap(p, err)
	case info.Mode()&fs.ModeSymlink != 0:
		return wrapLinked(p)
	case !info.Mode().IsRegular():
		return wrapNotRegular(p, kind(info.Mode()))
	}
	return nil
}
