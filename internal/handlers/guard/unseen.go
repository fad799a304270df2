package guard

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"errors"
	"io"
	"path"
	"strings"

	"github.com/hookwright/hookwright/internal/runtime/safepath"
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
		zr, err := zip.NewReader(f, info.Size())
		if err != nil {
			return nil, err
		}
		if len(zr.File) > maxMembers {
			return nil, errUnseen
		}
		out := make([]string, 0, len(zr.File))
		for _, m := range zr.File {
			out = append(out, m.Name)
		}
		return out, nil
	}
	var r io.Reader = io.LimitReader(f, maxArchive)
	switch {
	case n >= 2 && head[0] == 0x1f && head[1] == 0x8b:
		gz, err := gzip.NewReader(r)
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
