package guard

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/hookwright/hookwright/internal/runtime/safepath"
	"github.com/hookwright/hookwright/internal/shell"
)

// Some commands write files the command line does not name: an archive
// unpacked, a patch applied. Unpacked or applied in a folder that holds
// the guard's ground (the project root), they may write .hookwright/ or
// .claude/settings.json as well as anything else. The guard reads what it
// safely can (a regular file, bounded: the member names of a tar, tar.gz,
// tar.bz2 or zip archive; the file names of a patch) and judges every
// name as a write; what it cannot read (a file the same line downloads,
// 7z, cpio, rar, a stream) asks (rule unseen-into-ground).

const (
	// maxArchive bounds the bytes read to list a tar archive (after
	// decompression) and the size of a patch read.
	maxArchive = 64 << 20
	// maxMembers bounds the names listed.
	maxMembers = 20000
	maxPatch   = 8 << 20
)

var errUnseen = errors.New("the guard cannot read it")

// archiveMembers lists the member names (and link targets) of the archive
// at p: tar (plain, gzip or bzip2) or zip.
func archiveMembers(p string) ([]string, error) {
	f, _, err := safepath.Open(safepath.At(p))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	var head [6]byte
	n, _ := io.ReadFull(f, head[:])
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	if n >= 4 && bytes.Equal(head[:4], []byte("PK\x03\x04")) || n >= 4 && bytes.Equal(head[:4], []byte("PK\x05\x06")) {
		return zipNames(f, info.Size())
	}
	var r io.Reader = io.LimitReader(f, maxArchive)
	switch {
	case n >= 2 && head[0] == 0x1f && head[1] == 0x8b:
		gz, err := newGzipReader(r)
		if err != nil {
			return nil, err
		}
		r = gz
	case n >= 3 && string(head[:3]) == "BZh":
		r = bzip2.NewReader(r)
	}
	return tarNames(bufio.NewReader(r))
}

// tarNames lists the names (and link targets) of a tar stream: ustar with
// its prefix, GNU long names and links ('L', 'K') and pax records (path,
// linkpath). archive/tar is not used: it brings os/user, and cgo with it,
// into the runtime.
func tarNames(r io.Reader) ([]string, error) {
	var out []string
	var block [512]byte
	var read int64
	longName, longLink := "", ""
	for {
		if _, err := io.ReadFull(r, block[:]); err != nil {
			if err == io.EOF && read > 0 {
				return out, nil // no end blocks: every header was read
			}
			return nil, errUnseen
		}
		read += 512
		if block == [512]byte{} {
			return out, nil // the end-of-archive block
		}
		if !tarChecksum(block[:]) {
			return nil, errUnseen
		}
		size, ok := tarSize(block[124:136])
		if !ok || size < 0 || read+size > maxArchive || len(out) >= maxMembers {
			return nil, errUnseen
		}
		typ := block[156]
		data := (size + 511) &^ 511
		switch typ {
		case 'L', 'K', 'x':
			if size > 1<<20 {
				return nil, errUnseen
			}
			buf := make([]byte, data)
			if _, err := io.ReadFull(r, buf); err != nil {
				return nil, errUnseen
			}
			read += data
			v := string(bytes.TrimRight(buf[:size], "\x00"))
			switch typ {
			case 'L':
				longName = v
			case 'K':
				longLink = v
			default:
				for _, rec := range strings.Split(v, "\n") {
					if _, kv, ok := strings.Cut(rec, " "); ok {
						if val, ok := strings.CutPrefix(kv, "path="); ok {
							longName = val
						} else if val, ok := strings.CutPrefix(kv, "linkpath="); ok {
							longLink = val
						}
					}
				}
			}
			continue
		}
		name := cstr(block[0:100])
		if string(block[257:262]) == "ustar" {
			if pre := cstr(block[345:500]); pre != "" {
				name = pre + "/" + name
			}
		}
		link := cstr(block[157:257])
		if longName != "" {
			name = longName
		}
		if longLink != "" {
			link = longLink
		}
		longName, longLink = "", ""
		out = append(out, name)
		if (typ == '1' || typ == '2') && link != "" {
			// a link named x pointing at .hookwright makes x/config.json
			// a write to the ground
			if typ == '2' && !strings.HasPrefix(link, "/") {
				link = path.Join(path.Dir(name), link)
			}
			out = append(out, link)
		}
		if typ == '1' || typ == '2' || typ == '5' {
			continue // no data follows
		}
		if _, err := io.CopyN(io.Discard, r, data); err != nil {
			return out, nil
		}
		read += data
	}
}

// cstr is a NUL-terminated field.
func cstr(b []byte) string {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(b)
}

// tarSize reads a header's size: octal, or GNU base-256.
func tarSize(b []byte) (int64, bool) {
	if len(b) > 0 && b[0]&0x80 != 0 {
		var n int64
		for i, c := range b {
			if i == 0 {
				c &= 0x7f
			}
			if n > 1<<54 {
				return 0, false
			}
			n = n<<8 | int64(c)
		}
		return n, true
	}
	s := strings.Trim(string(b), " \x00")
	if s == "" {
		return 0, true
	}
	var n int64
	for _, c := range s {
		if c < '0' || c > '7' || n > 1<<54 {
			return 0, false
		}
		n = n*8 + int64(c-'0')
	}
	return n, true
}

// tarChecksum reports whether a header block's checksum holds (the
// unsigned sum, the checksum field counted as spaces).
func tarChecksum(b []byte) bool {
	want, ok := tarSize(b[148:156])
	if !ok {
		return false
	}
	var sum int64
	for i, c := range b {
		if i >= 148 && i < 156 {
			c = ' '
		}
		sum += int64(c)
	}
	return sum == want
}

// memberPath is where a member named name lands below dir: the leading
// / and the .. elements are dropped, as tar and unzip drop them.
func memberPath(dir, name string) string {
	name = strings.TrimLeft(path.Clean("/"+strings.ReplaceAll(name, `\`, "/")), "/")
	return path.Join(dir, name)
}

// unseenInto judges files written in dir (resolved) by a command whose
// content the guard reads from src (resolved; "" when it cannot be
// named): members lists the names the content writes, or err says why the
// guard cannot read them. Only a dir that holds the ground matters.
func (cc *cmdCtx) unseenInto(how, dir, src string, members []string, err error) {
	e := &cc.ck.env
	if dir == "" || !e.holdsGround(dir) && !e.holdsGround(e.real(dir)) {
		return
	}
	if err != nil {
		what := how
		if src != "" {
			what += " " + src
		}
		cc.find("unseen-into-ground", dir, what+" writes files into "+dir+", which holds hookwright's or Claude Code's own files (.hookwright/, .claude/), and the guard cannot read which ("+err.Error()+"); the user must confirm it. Unpack or apply it into a subfolder, or list it first.")
		return
	}
	for _, m := range members {
		p := memberPath(dir, m)
		if e.isGround(p, false) || e.isGround(strings.ToLower(p), false) {
			cc.note(m, p, "write", classGround)
			cc.ck.groundFinding(cc.idx, how+" "+src+" writes", p)
			return
		}
	}
}

// patchNames lists the files a patch (unified or git diff, or an mbox of
// them) writes, as its headers name them: each name once as written and
// once with its first element (a/, b/) dropped.
func patchNames(data []byte) []string {
	var out []string
	add := func(n string) {
		n = strings.TrimSpace(n)
		if i := strings.IndexByte(n, '\t'); i >= 0 {
			n = n[:i] // --- a/x\t2024-01-01 …
		}
		n = strings.Trim(n, `"`)
		if n == "" || n == "/dev/null" {
			return
		}
		out = append(out, n)
		if _, rest, ok := strings.Cut(n, "/"); ok {
			out = append(out, rest)
		}
	}
	for _, line := range strings.Split(string(data), "\n") {
		switch {
		case strings.HasPrefix(line, "diff --git "):
			for _, f := range strings.Fields(line[len("diff --git "):]) {
				add(f)
			}
		case strings.HasPrefix(line, "--- "), strings.HasPrefix(line, "+++ "), strings.HasPrefix(line, "*** "):
			add(line[4:])
		case strings.HasPrefix(line, "rename to "), strings.HasPrefix(line, "copy to "), strings.HasPrefix(line, "rename from "):
			_, v, _ := strings.Cut(line, " to ")
			if strings.HasPrefix(line, "rename from ") {
				v = strings.TrimPrefix(line, "rename from ")
			}
			add(v)
		case strings.HasPrefix(line, "Index: "):
			add(line[len("Index: "):])
		}
	}
	return out
}

// applyPatch judges git apply, git am and patch: the files a patch writes
// are named inside it. A patch file the guard can read (regular, bounded)
// is judged name by name; one it cannot (a pipe, a download, a file the
// same line writes) asks when it is applied in a folder that holds the
// ground, unless the same line makes it with git diff and names no ground.
func (cc *cmdCtx) applyPatch(how string, args []shell.Word) {
	e := &cc.ck.env
	dir := cc.cwd
	if strings.HasPrefix(how, "git") && e.project != "" {
		dir = e.project // git applies from the top of the work tree
	}
	var files []string
	check := false
	for k := 0; k < len(args); k++ {
		t := args[k].Text
		switch {
		case how == "patch" && (t == "-i" || t == "--input"):
			files = append(files, wordAt(args, k+1))
			k++
		case how == "patch" && strings.HasPrefix(t, "--input="):
			files = append(files, strings.TrimPrefix(t, "--input="))
		case how == "patch" && (t == "-d" || t == "--directory"):
			if p, ok := e.expand(wordAt(args, k+1), cc.cwd); ok {
				dir = p
			}
			k++
		case how == "patch" && (t == "-o" || t == "--output" || t == "-p" || t == "-D" || t == "-r" || t == "-B" || t == "-V" || t == "-z" || t == "-F"):
			k++
		case strings.HasPrefix(t, "--directory="):
			if p, ok := e.expand(strings.TrimPrefix(t, "--directory="), dir); ok {
				dir = p
			}
		case t == "--check" || t == "--stat" || t == "--numstat" || t == "--summary" || t == "--dry-run" || t == "-C" && how == "patch":
			check = true
		case t == "--cached":
			check = true // the index only: the working tree is not written
		case how == "git am" && (t == "--abort" || t == "--skip" || t == "--quit" || t == "--show-current-patch" || t == "--continue"):
			return
		case strings.HasPrefix(t, "-"):
		case how == "patch":
			// patch FILE [PATCHFILE]: editorWrites judges FILE
			if k+1 < len(args) && !strings.HasPrefix(args[k+1].Text, "-") {
				files = append(files, args[k+1].Text)
			}
			k = len(args)
		default:
			files = append(files, t)
		}
	}
	if check || dir == "" {
		return
	}
	if len(files) == 0 {
		for _, r := range cc.c.Redirects {
			if r.Op == "<" {
				files = append(files, r.Target.Text)
			}
		}
	}
	if len(files) == 0 {
		files = append(files, "") // a pipe or a heredoc: unseen
	}
	for _, f := range files {
		var names []string
		var err error = errUnseen
		if p, ok := e.expand(f, cc.cwd); ok && f != "" {
			var data []byte
			if data, err = safepath.ReadFileAt(p, maxPatch); err == nil {
				names = patchNames(data)
			} else if in := cc.ck.rep.Input; cc.absent(f, p) || strings.Contains(in, "git diff") && !groundHint(in) {
				continue // nothing to apply, or made by git diff on the same line
			} else {
				err = errUnseen
			}
		}
		if err == nil && len(names) == 0 && groundHint(cc.ck.rep.Input) {
			err = errUnseen
		}
		cc.unseenInto(how, dir, f, names, err)
	}
}

// absent reports whether the file f (at p) does not exist and the command
// line names it only once: no earlier command of the line makes it, so
// the program that reads it fails and writes nothing.
func (cc *cmdCtx) absent(f, p string) bool {
	if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
		return false
	}
	base := path.Base(f)
	return base != "" && base != "." && base != "/" && strings.Count(cc.ck.rep.Input, base) <= 1
}
