// Package journaltail reads a project's hook journal incrementally, for the
// tools that follow it outside the hook path (hwctl's store, its dashboard,
// the OTLP exporter). A [Cursor] records how far a reader got in each daily
// file; [Read] delivers only the complete lines after it, so a reader that
// keeps its cursor with what it made of the lines never loses or repeats
// one.
package journaltail

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/hookwright/hookwright/internal/runtime/journal"
)

// MaxLine is the longest journal line Read parses. A longer line is
// delivered with Err set and consumed, so one runaway line never stalls a
// reader or takes its memory.
const MaxLine = 1 << 20

// ErrTooLong is the Err of a line longer than MaxLine.
var ErrTooLong = errors.New("journal line longer than 1 MiB")

// Cursor is how far a reader got: journal file base name -> byte offset of
// the first unread byte. A file the cursor does not name is read from its
// start.
type Cursor map[string]int64

// Line is one complete journal line.
type Line struct {
	// File is the journal file's base name, e.g. "2026-11-22.jsonl".
	File string
	// Offset is where the line starts in File, Next where the following
	// line starts (Offset + the line's length + 1).
	Offset, Next int64
	// Raw is the line without its newline. It is only valid during the
	// callback: copy it to keep it.
	Raw []byte
	// Entry is the parsed line; it is zero when Err is set.
	Entry journal.Entry
	// Err says why the line did not parse (bad JSON, ErrTooLong).
	Err error
}

// ID is a stable id for a line: "<file>:<offset>".
func (l Line) ID() string { return l.File + ":" + strconv.FormatInt(l.Offset, 10) }

// ParseID splits an id written by [Line.ID] into file and offset.
func ParseID(id string) (file string, offset int64, err error) {
	i := strings.LastIndexByte(id, ':')
	if i <= 0 {
		return "", 0, fmt.Errorf("journal line id %q: want <file>:<offset>", id)
	}
	offset, err = strconv.ParseInt(id[i+1:], 10, 64)
	if err != nil || offset < 0 {
		return "", 0, fmt.Errorf("journal line id %q: bad offset", id)
	}
	return id[:i], offset, nil
}

// errStop ends a Read early when max lines were delivered.
var errStop = errors.New("stop")

// Read calls fn for each complete line after c in the project's journal
// (<project>/.hookwright/journal/*.jsonl), oldest file first, at most max
// lines (0 = no limit), and returns the advanced cursor; c itself is not
// changed. A torn last line (no trailing newline) is not consumed: it is
// read again next time. When fn returns an error Read stops and returns
// the cursor after the last line fn accepted, with that error.
//
// Reads are bounded (lines up to MaxLine) and confined to the project:
// the journal folder is opened through an os.Root, so a symlink that
// leads out of the project fails, and only regular files are read. A file
// shorter than its cursor offset was replaced and is read from its start.
func Read(project string, c Cursor, max int, fn func(Line) error) (Cursor, error) {
	next := maps.Clone(c)
	if next == nil {
		next = Cursor{}
	}
	root, err := os.OpenRoot(project)
	if err != nil {
		return next, fmt.Errorf("journal: %w", err)
	}
	defer root.Close()
	names, err := Files(root)
	if err != nil || len(names) == 0 {
		return next, err
	}
	left := max
	for _, name := range names {
		n, err := readFile(root, name, next, left, fn)
		if errors.Is(err, errStop) {
			return next, nil
		}
		if err != nil {
			return next, err
		}
		if max > 0 {
			left -= n
		}
	}
	return next, nil
}

// Files lists the journal's file base names under root, oldest first
// (names are UTC dates). A missing journal folder is no error.
func Files(root *os.Root) ([]string, error) {
	dir, err := root.Open(journal.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	defer dir.Close()
	ents, err := dir.ReadDir(-1)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	var names []string
	for _, e := range ents {
		if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".jsonl") {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	return names, nil
}

// readFile delivers the complete lines of one file after next[name] and
// advances next[name] past each line fn accepts. It returns how many lines
// it delivered; errStop when left reached zero.
func readFile(root *os.Root, name string, next Cursor, left int, fn func(Line) error) (int, error) {
	f, err := root.Open(path.Join(journal.Dir, name))
	if err != nil {
		return 0, fmt.Errorf("journal: %w", err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return 0, fmt.Errorf("journal: %w", err)
	}
	if !info.Mode().IsRegular() { // replaced between listing and opening
		return 0, nil
	}
	off := next[name]
	if off > info.Size() || off < 0 {
		off = 0
	}
	if off == info.Size() {
		next[name] = off
		return 0, nil
	}
	if _, err := f.Seek(off, io.SeekStart); err != nil {
		return 0, fmt.Errorf("journal: %w", err)
	}
	// Read no further than the size seen now: a line appended meanwhile
	// waits for the next Read rather than racing a half-written tail.
	r := bufio.NewReaderSize(io.LimitReader(f, info.Size()-off), 64<<10)
	var (
		buf     []byte // the line so far, when it spans buffer fills
		long    bool   // the line passed MaxLine: skip its bytes
		lineLen int64
		n       int
	)
	for {
		if left > 0 && n >= left {
			next[name] = off
			return n, errStop
		}
		chunk, err := r.ReadSlice('\n')
		lineLen += int64(len(chunk))
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			if !long {
				buf = append(buf, chunk...)
				if len(buf) > MaxLine {
					long, buf = true, buf[:0]
				}
			}
			continue
		case errors.Is(err, io.EOF):
			next[name] = off // a torn tail stays unread
			return n, nil
		case err != nil:
			return n, fmt.Errorf("journal %s: %w", name, err)
		}
		l := Line{File: name, Offset: off, Next: off + lineLen}
		if !long {
			raw := chunk
			if len(buf) > 0 {
				buf = append(buf, chunk...)
				raw = buf
			}
			raw = raw[:len(raw)-1]
			if len(raw) > MaxLine {
				long = true
			} else {
				l.Raw = raw
				parse(&l)
			}
		}
		if long {
			l.Err = ErrTooLong
		}
		if err := fn(l); err != nil {
			next[name] = off
			return n, err
		}
		off, next[name] = l.Next, l.Next
		n++
		buf, long, lineLen = buf[:0], false, 0
	}
}

// parse fills l.Entry or l.Err from l.Raw.
func parse(l *Line) {
	if err := json.Unmarshal(bytes.TrimSpace(l.Raw), &l.Entry); err != nil {
		l.Entry, l.Err = journal.Entry{}, err
	}
}

// Tail returns the last n complete lines of the project's journal, oldest
// first, and the cursor at the end of every file's complete lines, so that
// a [Read] from it delivers only what is appended next. It reads each file
// backward from its end, newest file first, and stops once it has n lines:
// what it reads is bounded by n lines of at most MaxLine, whatever the
// journal's size. A torn last line is left out, as Read leaves it.
func Tail(project string, n int) ([]Line, Cursor, error) {
	cur := Cursor{}
	root, err := os.OpenRoot(project)
	if err != nil {
		return nil, cur, fmt.Errorf("journal: %w", err)
	}
	defer root.Close()
	names, err := Files(root)
	if err != nil {
		return nil, cur, err
	}
	// Newest file first: where its last `need` lines start.
	starts := map[string]int64{}
	need := max(n, 0)
	for i := len(names) - 1; i >= 0; i-- {
		start, end, got, err := lastLines(root, names[i], need)
		if err != nil {
			return nil, cur, err
		}
		cur[names[i]] = end
		if need > 0 && got > 0 {
			starts[names[i]] = start
			need -= got
		}
	}
	var out []Line
	for _, name := range names {
		start, ok := starts[name]
		if !ok {
			continue
		}
		next := Cursor{name: start}
		if _, err := readFile(root, name, next, 0, func(l Line) error {
			l.Raw = append([]byte(nil), l.Raw...)
			out = append(out, l)
			return nil
		}); err != nil && !errors.Is(err, errStop) {
			return nil, cur, err
		}
		cur[name] = max(cur[name], next[name])
	}
	return out, cur, nil
}

// lastLines finds, reading name backward from its end, where its last
// want complete lines start; it returns that offset, the end of the
// complete lines (before a torn tail) and how many lines it found (fewer
// than want when the file holds fewer, or when a line longer than MaxLine
// stops the search).
func lastLines(root *os.Root, name string, want int) (start, end int64, got int, err error) {
	f, err := root.Open(path.Join(journal.Dir, name))
	if err != nil {
		return 0, 0, 0, fmt.Errorf("journal: %w", err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		return 0, 0, 0, err
	}
	const chunk = 64 << 10
	buf := make([]byte, chunk)
	pos := info.Size()
	end = -1             // not found yet: the offset after the last newline
	lineEnd := int64(-1) // where the line being scanned ends
	for pos > 0 {
		size := min(chunk, pos)
		pos -= size
		if _, err := f.ReadAt(buf[:size], pos); err != nil && !errors.Is(err, io.EOF) {
			return 0, 0, 0, fmt.Errorf("journal %s: %w", name, err)
		}
		for i := size - 1; i >= 0; i-- {
			if buf[i] != '\n' {
				continue
			}
			at := pos + int64(i) + 1 // a line starts here
			if end < 0 {
				end, lineEnd, start = at, at, at
				if want == 0 {
					return at, at, 0, nil
				}
				continue
			}
			got++
			start, lineEnd = at, at
			if got == want {
				return start, end, got, nil
			}
		}
		if end >= 0 && lineEnd-pos > MaxLine+1 {
			// The line before start is longer than any line Read parses:
			// stop here rather than read it back to its beginning.
			return start, end, got, nil
		}
		if end < 0 && info.Size()-pos > MaxLine+1 {
			return 0, 0, 0, nil // a torn tail longer than MaxLine, and nothing after
		}
	}
	if end < 0 {
		return 0, 0, 0, nil // no complete line
	}
	if got < want {
		got++ // the first line of the file, which starts at 0
		start = 0
	}
	return start, end, got, nil
}
