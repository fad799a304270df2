package guard

import (
	"bufio"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"io"
	"sync"
)

// The member names of a zip archive and the tar inside a gzip stream are
// read here by hand: archive/zip and compress/gzip bring hash/crc32, whose
// package init ran on every hook call. Both follow the standard library
// (Go 1.26) step by step, so that they read what it reads and fail where
// it fails; archive_test.go compares them (FuzzZipNames, FuzzGunzip).

// errZip is a zip archive the guard cannot read.
var errZip = errors.New("not a zip archive it can read")

// maxZipDir bounds the bytes of a zip's central directory read.
const maxZipDir = maxArchive

var le = binary.LittleEndian

// zipNames lists the member names of the zip archive r of size bytes
// that any reader may write: the central directory's (zipCentral, what
// archive/zip reads), then the name in each entry's local file header
// where it differs, then the names of local file headers the directory
// does not point at. A stream reader (jar x from a pipe, libarchive on a
// stream, Java's ZipInputStream) never reads the directory: it takes each
// name from the local header and walks from one to the next, so a
// crafted zip can unpack another name than the directory shows, or a
// member the directory leaves out.
//
// A directory entry whose local header is not there (out of the file, a
// wrong signature, a name running past the end) makes the archive one
// the guard cannot read (errZip). Local headers the directory leaves out
// are found by a scan of the whole file for their signature, not by
// walking entry to entry: a member with a data descriptor has no size in
// its header, and a walk would have to inflate it to find the next one,
// while the scan finds every header any walk could reach, at the cost of
// a name or two from data that happens to hold the signature (a stored
// zip inside the zip), which only makes the guard stricter. So the whole
// file is read: one larger than maxArchive is errUnseen, as a tar is, and
// the local headers read may take at most maxZipDir bytes.
func zipNames(r io.ReaderAt, size int64) ([]string, error) {
	names, offsets, err := zipCentral(r, size)
	if err != nil {
		return nil, err
	}
	if size > maxArchive {
		return nil, errUnseen
	}
	out := append([]string(nil), names...)
	seen := make(map[string]bool, len(names))
	for _, n := range names {
		seen[n] = true
	}
	add := func(n string) error {
		if seen[n] {
			return nil
		}
		if len(out) >= maxMembers {
			return errUnseen
		}
		seen[n] = true
		out = append(out, n)
		return nil
	}
	checked := make(map[int64]bool, len(offsets))
	var budget int64 = maxZipDir
	for _, off := range offsets {
		if checked[off] {
			continue
		}
		checked[off] = true
		n, err := zipLocalName(r, size, off, &budget)
		if err != nil {
			return nil, err
		}
		if err := add(n); err != nil {
			return nil, err
		}
	}
	const chunk = 1 << 20
	sig := []byte("PK\x03\x04")
	buf := make([]byte, min(chunk+int64(len(sig))-1, size))
	for start := int64(0); start < size; start += chunk {
		b := buf[:min(int64(len(buf)), size-start)]
		if _, err := r.ReadAt(b, start); err != nil && err != io.EOF {
			return nil, errZip
		}
		for i := 0; ; {
			j := bytes.Index(b[i:], sig)
			if j < 0 || i+j >= chunk {
				break // one that starts past the chunk is the next chunk's
			}
			at := start + int64(i+j)
			i += j + 1
			if checked[at] {
				continue
			}
			checked[at] = true
			n, err := zipLocalName(r, size, at, &budget)
			if err == errUnseen {
				return nil, err
			} else if err != nil {
				continue // not a header any reader could read through
			}
			if err := add(n); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// zipLocalName reads the name in the local file header at off: errZip
// when the header or its name is not all inside the file or the
// signature is wrong, errUnseen when reading it would take more than
// budget bytes (which it lowers).
func zipLocalName(r io.ReaderAt, size, off int64, budget *int64) (string, error) {
	var h [30]byte
	if off < 0 || off > size-int64(len(h)) {
		return "", errZip
	}
	if *budget < int64(len(h)) {
		return "", errUnseen
	}
	*budget -= int64(len(h))
	if _, err := r.ReadAt(h[:], off); err != nil && err != io.EOF {
		return "", errZip
	}
	if le.Uint32(h[:]) != 0x04034b50 {
		return "", errZip
	}
	n := int64(le.Uint16(h[26:]))
	if n > size-off-int64(len(h)) {
		return "", errZip
	}
	if *budget < n {
		return "", errUnseen
	}
	*budget -= n
	if n == 0 {
		return "", nil // nothing to read, even at the end of the file
	}
	name := make([]byte, n)
	if _, err := r.ReadAt(name, off+int64(len(h))); err != nil && (err != io.EOF || n == 0) {
		return "", errZip
	}
	return string(name), nil
}

// zipCentral lists the member names of the zip archive r of size bytes
// as archive/zip's NewReader reads them (File[i].Name), and where each
// entry's local header is (its offset in the file): the central
// directory, found through the end-of-central-directory record (and the
// ZIP64 one), read entry by entry until a record that is not an entry.
// Nothing is decompressed. Sizes and offsets in the file are checked
// against size before any read, and at most maxMembers names and
// maxZipDir bytes of directory are read (more is errUnseen).
func zipCentral(r io.ReaderAt, size int64) (names []string, offsets []int64, err error) {
	if size < 0 {
		return nil, nil, errZip
	}
	records, dirOffset, base, err := zipEnd(r, size)
	if err != nil {
		return nil, nil, err
	}
	start := base + int64(dirOffset) // zipEnd checked 0 <= start < size
	br := bufio.NewReader(io.NewSectionReader(r, start, size-start))
	var read int64
	for {
		name, off, n, err := zipEntry(br)
		read += n
		if err == errZip || err == io.ErrUnexpectedEOF {
			if uint16(len(names)) != uint16(records) { // the count is 16 bits in a zip32
				return nil, nil, errZip
			}
			return names, offsets, nil
		}
		if err != nil {
			return nil, nil, errZip // a directory that runs to the end of the file
		}
		if len(names) >= maxMembers || read > maxZipDir {
			return nil, nil, errUnseen
		}
		names = append(names, name)
		offsets = append(offsets, int64(off)+base) // may overflow: then it is out of the file
	}
}

// zipEnd finds and reads the end-of-central-directory record (and, when
// its fields say so, the ZIP64 one): the number of entries, the offset of
// the directory, and the offset of the archive in the file.
func zipEnd(r io.ReaderAt, size int64) (records, dirOffset uint64, base int64, err error) {
	var buf []byte
	var endOffset int64
	for i, n := range []int64{1024, 65 * 1024} {
		n = min(n, size)
		buf = make([]byte, n)
		if _, err := r.ReadAt(buf, size-n); err != nil && err != io.EOF {
			return 0, 0, 0, errZip
		}
		if p := zipEndIn(buf); p >= 0 {
			buf = buf[p:]
			endOffset = size - n + int64(p)
			break
		}
		if i == 1 || n == size {
			return 0, 0, 0, errZip
		}
	}
	records = uint64(le.Uint16(buf[10:]))
	dirSize := uint64(le.Uint32(buf[12:]))
	dirOffset = uint64(le.Uint32(buf[16:]))
	// archive/zip tests the size against 0xffff, not 0xffffffff
	if records == 0xffff || dirSize == 0xffff || dirOffset == 0xffffffff {
		// a locator that is not one, or points before the file, is passed
		// over (the 32-bit fields stand); a record that is not one fails
		if p, ok, err := zip64Locator(r, endOffset); err != nil {
			return 0, 0, 0, err
		} else if ok && p >= 0 {
			var rec [56]byte
			if p > size-int64(len(rec)) {
				return 0, 0, 0, errZip
			}
			if _, err := r.ReadAt(rec[:], p); err != nil || le.Uint32(rec[:]) != 0x06064b50 {
				return 0, 0, 0, errZip
			}
			endOffset = p
			records = le.Uint64(rec[32:])
			dirSize = le.Uint64(rec[40:])
			dirOffset = le.Uint64(rec[48:])
		}
	}
	if dirSize > 1<<63-1 || dirOffset > 1<<63-1 {
		return 0, 0, 0, errZip
	}
	base = endOffset - int64(dirSize) - int64(dirOffset)
	if o := base + int64(dirOffset); o < 0 || o >= size {
		return 0, 0, 0, errZip
	}
	// A base offset that an entry at dirOffset itself contradicts is 0
	// (archive/zip: some writers get it wrong).
	if base > 0 {
		if off := int64(dirOffset); off < size {
			if _, _, _, err := zipEntry(bufio.NewReader(io.NewSectionReader(r, off, size-off))); err == nil {
				base = 0
			}
		}
	}
	return records, dirOffset, base, nil
}

// zipEndIn finds the last end-of-central-directory signature in b, -1
// when there is none or its comment runs past b.
func zipEndIn(b []byte) int {
	const endLen = 22
	for i := len(b) - endLen; i >= 0; i-- {
		if b[i] == 'P' && b[i+1] == 'K' && b[i+2] == 0x05 && b[i+3] == 0x06 {
			n := int(b[i+endLen-2]) | int(b[i+endLen-1])<<8
			if n+endLen+i > len(b) {
				return -1
			}
			return i
		}
	}
	return -1
}

// zip64Locator reads the ZIP64 end-of-central-directory locator just
// before the record at endOffset: the offset of the ZIP64 record, and
// false when there is no valid locator.
func zip64Locator(r io.ReaderAt, endOffset int64) (int64, bool, error) {
	var loc [20]byte
	at := endOffset - int64(len(loc))
	if at < 0 {
		return 0, false, nil
	}
	if _, err := r.ReadAt(loc[:], at); err != nil {
		return 0, false, errZip
	}
	if le.Uint32(loc[0:]) != 0x07064b50 || le.Uint32(loc[4:]) != 0 || le.Uint32(loc[16:]) != 1 {
		return 0, false, nil
	}
	return int64(le.Uint64(loc[8:])), true, nil
}

// zipEntry reads one central directory entry from r and returns its
// name, the offset of its local header (from the ZIP64 field when the
// 32-bit one says so), and the bytes it took. The errors are archive/zip's: errZip when r does
// not hold an entry there (another signature, or a ZIP64 field missing),
// io.ErrUnexpectedEOF when the entry is cut short, io.EOF when nothing at
// all follows the fixed part or the start.
func zipEntry(r *bufio.Reader) (string, uint64, int64, error) {
	var h [46]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return "", 0, 0, err
	}
	if le.Uint32(h[0:]) != 0x02014b50 {
		return "", 0, 46, errZip
	}
	csize, usize, offset := le.Uint32(h[20:]), le.Uint32(h[24:]), le.Uint32(h[42:])
	off := uint64(offset)
	nameLen, extraLen, commentLen := int(le.Uint16(h[28:])), int(le.Uint16(h[30:])), int(le.Uint16(h[32:]))
	d := make([]byte, nameLen+extraLen)
	if _, err := io.ReadFull(r, d); err != nil {
		return "", 0, 46, err
	}
	// archive/zip reads name, extra and comment in one ReadFull: nothing
	// at all is io.EOF, part of it io.ErrUnexpectedEOF.
	if n, err := r.Discard(commentLen); n < commentLen {
		switch {
		case err != io.EOF && err != nil:
			return "", 0, 46, err
		case n == 0 && len(d) == 0:
			return "", 0, 46, io.EOF
		}
		return "", 0, 46, io.ErrUnexpectedEOF
	}
	needU, needC, needOff := usize == ^uint32(0), csize == ^uint32(0), offset == ^uint32(0)
	for extra := d[nameLen:]; len(extra) >= 4; {
		tag, n := le.Uint16(extra), int(le.Uint16(extra[2:]))
		extra = extra[4:]
		if len(extra) < n {
			break
		}
		field := extra[:n]
		extra = extra[n:]
		if tag != 0x0001 { // the ZIP64 extended information
			continue
		}
		for k, need := range []*bool{&needU, &needC, &needOff} {
			if *need {
				*need = false
				if len(field) < 8 {
					return "", 0, 46, errZip
				}
				if k == 2 {
					off = le.Uint64(field)
				}
				field = field[8:]
			}
		}
	}
	if needC || needOff {
		return "", 0, 46, errZip
	}
	return string(d[:nameLen]), off, int64(46 + len(d) + commentLen), nil
}

// gzipReader reads a gzip stream as compress/gzip's Reader does (every
// member in turn, each checked against its CRC-32 and size), with
// compress/flate and a CRC-32 table of its own.
type gzipReader struct {
	r      *bufio.Reader
	flate  io.ReadCloser
	digest uint32
	size   uint32
	err    error
}

// errGzip is a gzip stream the guard cannot read.
var errGzip = errors.New("not a gzip stream it can read")

// newGzipReader reads the first member's header from r.
func newGzipReader(r io.Reader) (*gzipReader, error) {
	z := &gzipReader{r: bufio.NewReader(r)}
	if err := z.header(); err != nil {
		return nil, err
	}
	return z, nil
}

// header reads a member's header: magic, method 8 (deflate), and the
// optional extra field, name, comment and header CRC; io.EOF when the
// stream ends before it.
func (z *gzipReader) header() error {
	var h [10]byte
	if _, err := io.ReadFull(z.r, h[:]); err != nil {
		return err
	}
	if h[0] != 0x1f || h[1] != 0x8b || h[2] != 8 {
		return errGzip
	}
	flags := h[3]
	digest := crc32Update(0, h[:])
	if flags&0x04 != 0 { // FEXTRA
		var n [2]byte
		if _, err := io.ReadFull(z.r, n[:]); err != nil {
			return noEOF(err)
		}
		digest = crc32Update(digest, n[:])
		extra := make([]byte, le.Uint16(n[:]))
		if _, err := io.ReadFull(z.r, extra); err != nil {
			return noEOF(err)
		}
		digest = crc32Update(digest, extra)
	}
	for _, flag := range []byte{0x08, 0x10} { // FNAME, FCOMMENT: at most 511 bytes and a NUL
		if flags&flag == 0 {
			continue
		}
		var s [512]byte
		for i := 0; ; i++ {
			if i >= len(s) {
				return errGzip
			}
			c, err := z.r.ReadByte()
			if err != nil {
				return noEOF(err)
			}
			s[i] = c
			if c == 0 {
				digest = crc32Update(digest, s[:i+1])
				break
			}
		}
	}
	if flags&0x02 != 0 { // FHCRC: the low 16 bits of the header's CRC-32
		var c [2]byte
		if _, err := io.ReadFull(z.r, c[:]); err != nil {
			return noEOF(err)
		}
		if le.Uint16(c[:]) != uint16(digest) {
			return errGzip
		}
	}
	z.digest, z.size = 0, 0
	if z.flate == nil {
		z.flate = flate.NewReader(z.r)
	} else if err := z.flate.(flate.Resetter).Reset(z.r, nil); err != nil {
		return err
	}
	return nil
}

// Read reads decompressed bytes; at a member's end it checks the CRC-32
// and size and goes on with the next member.
func (z *gzipReader) Read(p []byte) (n int, err error) {
	if z.err != nil {
		return 0, z.err
	}
	for n == 0 {
		n, z.err = z.flate.Read(p)
		z.digest = crc32Update(z.digest, p[:n])
		z.size += uint32(n)
		if z.err != io.EOF {
			return n, z.err
		}
		var t [8]byte
		if _, err := io.ReadFull(z.r, t[:]); err != nil {
			z.err = noEOF(err)
			return n, z.err
		}
		if le.Uint32(t[:4]) != z.digest || le.Uint32(t[4:]) != z.size {
			z.err = errGzip
			return n, z.err
		}
		if z.err = z.header(); z.err != nil {
			return n, z.err
		}
	}
	return n, nil
}

// noEOF is io.ErrUnexpectedEOF for io.EOF: a header or trailer cut short.
func noEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// crc32Table is the IEEE CRC-32 table, built on first use.
var crc32Table = sync.OnceValue(func() *[256]uint32 {
	var t [256]uint32
	for i := range t {
		c := uint32(i)
		for range 8 {
			if c&1 != 0 {
				c = c>>1 ^ 0xedb88320
			} else {
				c >>= 1
			}
		}
		t[i] = c
	}
	return &t
})

// crc32Update adds p to the IEEE CRC-32 crc.
func crc32Update(crc uint32, p []byte) uint32 {
	t := crc32Table()
	crc = ^crc
	for _, b := range p {
		crc = t[byte(crc)^b] ^ crc>>8
	}
	return ^crc
}
