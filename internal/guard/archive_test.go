package guard

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/internal/runtime/config"
)

// zipOf writes a zip archive with the named members (and a comment).
func zipOf(t testing.TB, comment string, names ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, n := range names {
		w, err := zw.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte("{}"))
	}
	if comment != "" {
		if err := zw.SetComment(comment); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// toZip64 rewrites a zip32 archive's end record as a ZIP64 end record, its
// locator and an end record whose fields say "see ZIP64".
func toZip64(data []byte) []byte {
	end := bytes.LastIndex(data, []byte("PK\x05\x06"))
	records := binary.LittleEndian.Uint16(data[end+10:])
	size := binary.LittleEndian.Uint32(data[end+12:])
	offset := binary.LittleEndian.Uint32(data[end+16:])
	out := slices.Clone(data[:end])
	rec := make([]byte, 56)
	binary.LittleEndian.PutUint32(rec, 0x06064b50)
	binary.LittleEndian.PutUint64(rec[4:], 44)
	binary.LittleEndian.PutUint16(rec[12:], 45)
	binary.LittleEndian.PutUint16(rec[14:], 45)
	binary.LittleEndian.PutUint64(rec[24:], uint64(records))
	binary.LittleEndian.PutUint64(rec[32:], uint64(records))
	binary.LittleEndian.PutUint64(rec[40:], uint64(size))
	binary.LittleEndian.PutUint64(rec[48:], uint64(offset))
	loc := make([]byte, 20)
	binary.LittleEndian.PutUint32(loc, 0x07064b50)
	binary.LittleEndian.PutUint64(loc[8:], uint64(len(out)))
	binary.LittleEndian.PutUint32(loc[16:], 1)
	out = append(append(out, rec...), loc...)
	eocd := make([]byte, 22)
	copy(eocd, "PK\x05\x06")
	binary.LittleEndian.PutUint16(eocd[8:], 0xffff)
	binary.LittleEndian.PutUint16(eocd[10:], 0xffff)
	binary.LittleEndian.PutUint32(eocd[12:], 0xffffffff)
	binary.LittleEndian.PutUint32(eocd[16:], 0xffffffff)
	return append(out, eocd...)
}

// stdZipNames is what archive/zip reads.
func stdZipNames(data []byte) ([]string, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, f := range zr.File {
		out = append(out, f.Name)
	}
	return out, nil
}

// sameZipNames fails when zipCentral and archive/zip disagree: the same
// names where archive/zip reads the archive, an error where it does not.
// zipCentral may stop at its bounds (errUnseen) where archive/zip goes
// on. Then it checks zipNames against the local headers (zipNamesLocal).
func sameZipNames(t testing.TB, what string, data []byte) {
	t.Helper()
	want, werr := stdZipNames(data)
	got, _, gerr := zipCentral(bytes.NewReader(data), int64(len(data)))
	switch {
	case werr != nil && gerr == nil:
		t.Fatalf("%s: archive/zip fails (%v), zipCentral reads %q", what, werr, got)
	case werr == nil && errors.Is(gerr, errUnseen):
	case werr == nil && gerr != nil:
		t.Fatalf("%s: archive/zip reads %d names, zipCentral fails: %v", what, len(want), gerr)
	case werr == nil && !slices.Equal(got, want):
		t.Fatalf("%s: zipCentral %q, archive/zip %q", what, got, want)
	}
	zipNamesLocal(t, what, data)
}

// zipNamesLocal checks zipNames against archive/zip and a plain reading
// of the local headers. Where zipNames reads the archive, archive/zip
// does, its names come first, every entry's local header is where
// archive/zip finds it (File.DataOffset), and every local file header
// signature in the file that is followed by a whole header and name has
// its name listed. Where zipNames fails with errZip and archive/zip
// reads the directory, some entry's local header is wrong or cut short.
func zipNamesLocal(t testing.TB, what string, data []byte) {
	t.Helper()
	got, gerr := zipNames(bytes.NewReader(data), int64(len(data)))
	zr, werr := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if errors.Is(gerr, errUnseen) {
		return
	}
	if gerr != nil {
		if werr != nil {
			return
		}
		for _, f := range zr.File {
			if _, err := f.DataOffset(); err != nil {
				return // archive/zip cannot read it either
			}
			// the header is whole (DataOffset read it): the name may be cut short
			h := reflect.ValueOf(f).Elem().FieldByName("headerOffset").Int()
			if h+30+int64(binary.LittleEndian.Uint16(data[h+26:])) > int64(len(data)) {
				return
			}
		}
		t.Fatalf("%s: zipNames fails (%v) where every local header is there", what, gerr)
	}
	if werr != nil {
		t.Fatalf("%s: archive/zip fails (%v), zipNames reads %q", what, werr, got)
	}
	if len(got) < len(zr.File) {
		t.Fatalf("%s: zipNames %q, archive/zip %d names", what, got, len(zr.File))
	}
	names := map[string]bool{}
	for _, n := range got {
		names[n] = true
	}
	for i, f := range zr.File {
		if got[i] != f.Name {
			t.Fatalf("%s: zipNames %q, archive/zip's names %d: %q", what, got, i, f.Name)
		}
		if _, err := f.DataOffset(); err != nil {
			t.Fatalf("%s: zipNames %q, but archive/zip cannot read %q's local header: %v", what, got, f.Name, err)
		}
	}
	for i := 0; ; {
		j := bytes.Index(data[i:], []byte("PK\x03\x04"))
		if j < 0 {
			break
		}
		at := i + j
		i = at + 1
		if at+30 > len(data) {
			continue
		}
		n := int(binary.LittleEndian.Uint16(data[at+26:]))
		if at+30+n > len(data) {
			continue
		}
		if name := string(data[at+30 : at+30+n]); !names[name] {
			t.Fatalf("%s: zipNames %q leaves out the local header at %d, %q", what, got, at, name)
		}
	}
}

// zipSeeds are well-formed and hostile zip archives.
func zipSeeds(t testing.TB) map[string][]byte {
	many := make([]string, 300)
	for i := range many {
		many[i] = fmt.Sprintf("d%d/f%d", i%7, i)
	}
	plain := zipOf(t, "", "README.md", ".claude/settings.local.json")
	seeds := map[string][]byte{
		"plain":         plain,
		"empty":         zipOf(t, ""),
		"comment":       zipOf(t, "a comment", "a", "b/c"),
		"fake eocd":     zipOf(t, "PK\x05\x06\x00\x00\x00\x00\x01\x00\x01\x00\x30\x00\x00\x00\x00\x00\x00\x00\x00\x00", ".hookwright/config.json"),
		"fake eocd 2":   zipOf(t, "xPK\x05\x06"+strings.Repeat("\x00", 16)+"\xff\xff", "x"),
		"odd names":     zipOf(t, "", "../../.hookwright/x", "/abs/.claude/settings.json", `a\b`, "", "é/ü", "a\x00b"),
		"many":          zipOf(t, "", many...),
		"zip64":         toZip64(plain),
		"zip64 many":    toZip64(zipOf(t, "", many...)),
		"prepended":     append([]byte("#!/bin/sh\nexit 0\n"), plain...),
		"long comment":  zipOf(t, strings.Repeat("c", 65000), "x"),
		"local differs": craftZip(zipPart{local: ".claude/settings.json", central: "notes.txt"}, zipPart{local: "b", central: "b"}),
		"local hidden":  craftZip(zipPart{local: "a", central: "a"}, zipPart{local: ".hookwright/config.json", hidden: true}),
		"local zip64":   toZip64(craftZip(zipPart{local: "x/.claude", central: "x"}, zipPart{local: "y/.claude", central: "y", zip64: true})),
	}
	// offsets and counts past the end, a directory that runs to the end
	end := bytes.LastIndex(plain, []byte("PK\x05\x06"))
	for name, f := range map[string]func(b []byte){
		"count huge":     func(b []byte) { binary.LittleEndian.PutUint16(b[end+10:], 0xfffe) },
		"count zero":     func(b []byte) { binary.LittleEndian.PutUint16(b[end+10:], 0) },
		"count one":      func(b []byte) { binary.LittleEndian.PutUint16(b[end+10:], 1) },
		"offset past":    func(b []byte) { binary.LittleEndian.PutUint32(b[end+16:], 0x7fffffff) },
		"offset fffffff": func(b []byte) { binary.LittleEndian.PutUint32(b[end+16:], 0xffffffff) },
		"size past":      func(b []byte) { binary.LittleEndian.PutUint32(b[end+12:], 0x7fffffff) },
		"size ffff":      func(b []byte) { binary.LittleEndian.PutUint32(b[end+12:], 0xffff) },
		"comment past":   func(b []byte) { binary.LittleEndian.PutUint16(b[end+20:], 100) },
		"name huge":      func(b []byte) { binary.LittleEndian.PutUint16(b[bytes.Index(b, []byte("PK\x01\x02"))+28:], 0xffff) },
		"extra huge":     func(b []byte) { binary.LittleEndian.PutUint16(b[bytes.Index(b, []byte("PK\x01\x02"))+30:], 0xffff) },
		"csize ffff":     func(b []byte) { binary.LittleEndian.PutUint32(b[bytes.Index(b, []byte("PK\x01\x02"))+20:], 0xffffffff) },
		"entry sig":      func(b []byte) { b[bytes.LastIndex(b, []byte("PK\x01\x02"))+3] = 9 },
	} {
		b := slices.Clone(plain)
		f(b)
		seeds[name] = b
	}
	return seeds
}

func TestZipNamesMatchesArchiveZip(t *testing.T) {
	for name, data := range zipSeeds(t) {
		sameZipNames(t, name, data)
		// cut short anywhere, and one byte changed anywhere
		for n := 0; n < len(data) && n < 4096; n++ {
			sameZipNames(t, fmt.Sprintf("%s cut at %d", name, n), data[:n])
			sameZipNames(t, fmt.Sprintf("%s cut %d from the end", name, n), data[:len(data)-n])
		}
		rng := rand.New(rand.NewSource(int64(len(data))))
		for i := 0; i < 2000 && len(data) > 0; i++ {
			b := slices.Clone(data)
			at := len(b) - 1 - rng.Intn(min(len(b), 200))
			if i%2 == 0 {
				at = rng.Intn(len(b))
			}
			b[at] = byte(rng.Intn(256))
			sameZipNames(t, fmt.Sprintf("%s byte %d = %#x", name, at, b[at]), b)
		}
	}
	for _, name := range []string{"plain", "zip64", "zip64 many", "prepended", "long comment", "odd names"} {
		got, _, err := zipCentral(bytes.NewReader(zipSeeds(t)[name]), int64(len(zipSeeds(t)[name])))
		if err != nil || len(got) == 0 {
			t.Errorf("%s: %q, %v", name, got, err)
		}
	}
}

// More members than maxMembers: errUnseen, as with archive/zip before.
func TestZipNamesBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a zip of 20001 members")
	}
	names := make([]string, maxMembers+1)
	for i := range names {
		names[i] = fmt.Sprint(i)
	}
	data := zipOf(t, "", names...)
	if _, err := zipNames(bytes.NewReader(data), int64(len(data))); !errors.Is(err, errUnseen) {
		t.Fatalf("%d members: %v, want errUnseen", len(names), err)
	}
	if got, err := zipNames(bytes.NewReader(data), int64(len(data))); err == nil {
		t.Fatalf("read %d names", len(got))
	}
}

// FuzzZipNames: zipCentral never panics or runs away, reads what
// archive/zip reads and fails where it fails; zipNames adds the names of
// local headers and fails only where one is missing (zipNamesLocal).
func FuzzZipNames(f *testing.F) {
	for _, data := range zipSeeds(f) {
		if len(data) < 8192 {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sameZipNames(t, "fuzz", data)
	})
}

// gzipOf compresses data as one gzip member with a name, comment and
// extra field when they are given.
func gzipOf(t testing.TB, data []byte, name, comment string, extra []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Name, zw.Comment, zw.Extra = name, comment, extra
	zw.Write(data)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// withHeaderCRC sets FHCRC on a gzip member without FEXTRA, FNAME or
// FCOMMENT, right or wrong.
func withHeaderCRC(gz []byte, right bool) []byte {
	h := slices.Clone(gz[:10])
	h[3] |= 0x02
	c := uint16(crc32.ChecksumIEEE(h))
	if !right {
		c++
	}
	return append(append(h, byte(c), byte(c>>8)), gz[10:]...)
}

func stdGunzip(data []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(io.LimitReader(zr, 1<<20))
}

func gunzip(data []byte) ([]byte, error) {
	zr, err := newGzipReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(io.LimitReader(zr, 1<<20))
}

// sameGunzip fails when gzipReader and compress/gzip disagree: the same
// bytes where compress/gzip reads the stream, an error where it fails.
func sameGunzip(t testing.TB, what string, data []byte) {
	t.Helper()
	want, werr := stdGunzip(data)
	got, gerr := gunzip(data)
	switch {
	case (werr == nil) != (gerr == nil):
		t.Fatalf("%s: compress/gzip %v, gzipReader %v", what, werr, gerr)
	case werr == nil && !bytes.Equal(got, want):
		t.Fatalf("%s: gzipReader reads %d bytes, compress/gzip %d", what, len(got), len(want))
	}
}

func gzipSeeds(t testing.TB) map[string][]byte {
	text := []byte(strings.Repeat("hookwright guards the ground. ", 40))
	one := gzipOf(t, text, "", "", nil)
	return map[string][]byte{
		"plain":        one,
		"empty":        gzipOf(t, nil, "", "", nil),
		"all fields":   gzipOf(t, text, "name.tar", "a comment", []byte("ex\x00tra")),
		"latin1 name":  gzipOf(t, text, "naïve", "", nil),
		"long name":    gzipOf(t, text, strings.Repeat("n", 511), "", nil),
		"multi":        append(slices.Clone(one), gzipOf(t, []byte("second"), "b", "", nil)...),
		"multi empty":  append(slices.Clone(one), gzipOf(t, nil, "", "", nil)...),
		"header crc":   withHeaderCRC(one, true),
		"bad hdr crc":  withHeaderCRC(one, false),
		"trailing":     append(slices.Clone(one), "garbage"...),
		"trailing nul": append(slices.Clone(one), 0, 0, 0, 0),
		"bad crc":      append(slices.Clone(one[:len(one)-8]), 1, 2, 3, 4, one[len(one)-4], one[len(one)-3], one[len(one)-2], one[len(one)-1]),
		"bad size":     append(slices.Clone(one[:len(one)-4]), 9, 9, 9, 9),
		"method 7":     append([]byte{0x1f, 0x8b, 7}, one[3:]...),
		"reserved":     append([]byte{0x1f, 0x8b, 8, 0xe0}, one[4:]...),
		"stored":       append([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3}, 1, 3, 0, 0xfc, 0xff, 'a', 'b', 'c', 0xc2, 0x41, 0x24, 0x35, 3, 0, 0, 0),
	}
}

func TestGunzipMatchesCompressGzip(t *testing.T) {
	// a name of 512 bytes or more is a header error for both
	long := gzipOf(t, []byte("x"), "", "", nil)
	long = append(append(append([]byte{}, long[:3]...), long[3]|0x08), long[4:10]...)
	long = append(append(long, strings.Repeat("n", 512)+"\x00"...), gzipOf(t, []byte("x"), "", "", nil)[10:]...)
	seeds := gzipSeeds(t)
	seeds["too long name"] = long
	for name, data := range seeds {
		sameGunzip(t, name, data)
		for n := 0; n < len(data); n++ {
			sameGunzip(t, fmt.Sprintf("%s cut at %d", name, n), data[:n])
		}
		rng := rand.New(rand.NewSource(int64(len(data))))
		for i := 0; i < 1000; i++ {
			b := slices.Clone(data)
			at := rng.Intn(len(b))
			b[at] = byte(rng.Intn(256))
			sameGunzip(t, fmt.Sprintf("%s byte %d = %#x", name, at, b[at]), b)
		}
	}
	if got, err := gunzip(seeds["stored"]); err != nil || string(got) != "abc" {
		t.Errorf("stored: %q, %v", got, err)
	}
}

// FuzzGunzip: gzipReader never panics or runs away, reads what
// compress/gzip reads and fails where it fails.
func FuzzGunzip(f *testing.F) {
	for _, data := range gzipSeeds(f) {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sameGunzip(t, "fuzz", data)
	})
}

func TestCRC32MatchesHashCRC32(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for n := 0; n < 2000; n += 1 + n/8 {
		b := make([]byte, n)
		rng.Read(b)
		if got, want := crc32Update(0, b), crc32.ChecksumIEEE(b); got != want {
			t.Fatalf("%d bytes: %#x, want %#x", n, got, want)
		}
		if got, want := crc32Update(crc32Update(0, b[:n/3]), b[n/3:]), crc32.ChecksumIEEE(b); got != want {
			t.Fatalf("%d bytes in two: %#x, want %#x", n, got, want)
		}
	}
}

// The guard reads what it can of an archive unpacked into a folder that
// holds the ground, and asks for what it cannot: a zip cut short, a ZIP64
// archive read through its locator, a gzip member that fails its CRC, a
// tar split over two gzip members.
func TestGuardGroundArchivesHandRead(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	evil := zipOf(t, "", "README.md", ".claude/settings.local.json")
	ok := zipOf(t, "", "public/logo.png")
	write("evil64.zip", toZip64(evil))
	write("ok64.zip", toZip64(ok))
	write("cut.zip", evil[:len(evil)-30])
	write("fake.zip", zipOf(t, "PK\x05\x06"+strings.Repeat("\xff", 18), "x"))
	// a tar whose second header sits in a second gzip member
	tarPath := filepath.Join(dir, "split.tar")
	writeTar(t, tarPath, false, member{name: "src/a.go"}, member{name: ".hookwright/config.json"})
	tarData, _ := os.ReadFile(tarPath)
	write("split.tgz", append(gzipOf(t, tarData[:1024], "", "", nil), gzipOf(t, tarData[1024:], "", "", nil)...))
	okTar := filepath.Join(dir, "ok.tar")
	writeTar(t, okTar, false, member{name: "src/a.go"})
	okData, _ := os.ReadFile(okTar)
	good := gzipOf(t, okData[:len(okData)-1024], "", "", nil) // no end blocks: read to the member's end
	write("ok.tgz", good)
	bad := slices.Clone(good)
	bad[len(bad)-5] ^= 1
	write("badcrc.tgz", bad)

	g := newTest(config.Guard{}, groundEnv)
	g.ProjectDir = dir
	for _, c := range []struct{ cmd, want string }{
		{`unzip evil64.zip`, "block"}, {`unzip ok64.zip`, "allow"}, {`unzip cut.zip`, "ask"}, {`unzip fake.zip`, "ask"},
		{`tar -xzf split.tgz`, "block"}, {`tar -xzf ok.tgz`, "allow"}, {`tar -xzf badcrc.tgz`, "ask"},
	} {
		in := []byte(`{"command":` + fmt.Sprintf("%q", c.cmd) + `}`)
		if rep := g.Check(Call{Tool: "Bash", Input: in, Cwd: dir}); rep.Decision != c.want {
			t.Errorf("%q: got %s (%s), want %s", c.cmd, rep.Decision, rep.Reason, c.want)
		}
	}
}

// zipPart is one stored member of a crafted zip: the name in its local
// header, the name in the central directory ("" with hidden: none, the
// member is a local header only).
// zip64 puts the local header's offset in a ZIP64 extra field.
type zipPart struct {
	local, central string
	hidden, zip64  bool
}

// craftZip writes stored members with "{}" as data, each local header
// carrying its local name and the central directory its central one.
func craftZip(parts ...zipPart) []byte {
	var out, dir []byte
	n := 0
	for _, p := range parts {
		data := []byte("{}")
		off := len(out)
		h := make([]byte, 30)
		binary.LittleEndian.PutUint32(h, 0x04034b50)
		binary.LittleEndian.PutUint16(h[4:], 20)
		binary.LittleEndian.PutUint32(h[14:], crc32.ChecksumIEEE(data))
		binary.LittleEndian.PutUint32(h[18:], uint32(len(data)))
		binary.LittleEndian.PutUint32(h[22:], uint32(len(data)))
		binary.LittleEndian.PutUint16(h[26:], uint16(len(p.local)))
		out = append(append(append(out, h...), p.local...), data...)
		if p.hidden {
			continue
		}
		c := make([]byte, 46)
		binary.LittleEndian.PutUint32(c, 0x02014b50)
		binary.LittleEndian.PutUint16(c[4:], 20)
		binary.LittleEndian.PutUint16(c[6:], 20)
		binary.LittleEndian.PutUint32(c[16:], crc32.ChecksumIEEE(data))
		binary.LittleEndian.PutUint32(c[20:], uint32(len(data)))
		binary.LittleEndian.PutUint32(c[24:], uint32(len(data)))
		binary.LittleEndian.PutUint16(c[28:], uint16(len(p.central)))
		binary.LittleEndian.PutUint32(c[42:], uint32(off))
		var extra []byte
		if p.zip64 {
			binary.LittleEndian.PutUint32(c[42:], 0xffffffff)
			extra = binary.LittleEndian.AppendUint16(binary.LittleEndian.AppendUint16(nil, 1), 8)
			extra = binary.LittleEndian.AppendUint64(extra, uint64(off))
			binary.LittleEndian.PutUint16(c[30:], uint16(len(extra)))
		}
		dir = append(append(append(dir, c...), p.central...), extra...)
		n++
	}
	end := make([]byte, 22)
	binary.LittleEndian.PutUint32(end, 0x06054b50)
	binary.LittleEndian.PutUint16(end[8:], uint16(n))
	binary.LittleEndian.PutUint16(end[10:], uint16(n))
	binary.LittleEndian.PutUint32(end[12:], uint32(len(dir)))
	binary.LittleEndian.PutUint32(end[16:], uint32(len(out)))
	return append(append(out, dir...), end...)
}

// Stream readers (jar x from a pipe, bsdtar reading a stream, Java's
// ZipInputStream) take a member's name from its local header, not from
// the central directory: zipNames returns both where they differ, and a
// local header only (no directory entry) too; a directory entry whose
// local header is missing, or cut short, makes the archive unreadable.
func TestZipNamesLocalHeaders(t *testing.T) {
	for _, c := range []struct {
		what string
		data []byte
		want []string
	}{
		{"agree", craftZip(zipPart{local: "a.txt", central: "a.txt"}), []string{"a.txt"}},
		{"differ", craftZip(zipPart{local: ".claude/settings.json", central: "notes.txt"}), []string{"notes.txt", ".claude/settings.json"}},
		{"differ zip64", craftZip(zipPart{local: "a", central: "a"}, zipPart{local: ".claude/settings.json", central: "notes.txt", zip64: true}), []string{"a", "notes.txt", ".claude/settings.json"}},
		{"hidden", craftZip(zipPart{local: "a.txt", central: "a.txt"}, zipPart{local: ".hookwright/config.json", hidden: true}), []string{"a.txt", ".hookwright/config.json"}},
		{"hidden first", craftZip(zipPart{local: ".hookwright/config.json", hidden: true}, zipPart{local: "a.txt", central: "a.txt"}), []string{"a.txt", ".hookwright/config.json"}},
	} {
		got, err := zipNames(bytes.NewReader(c.data), int64(len(c.data)))
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, %v; want %q", c.what, got, err, c.want)
		}
		// archive/zip reads only the central names
		if std, err := stdZipNames(c.data); err != nil || len(std) == 0 || std[0] != c.want[0] {
			t.Errorf("%s: archive/zip reads %q, %v", c.what, std, err)
		}
	}
	good := craftZip(zipPart{local: "a.txt", central: "a.txt"})
	badSig := slices.Clone(good)
	badSig[2] = 9
	nameOut := slices.Clone(good)
	binary.LittleEndian.PutUint16(nameOut[26:], 0xfff0)
	offOut := slices.Clone(good)
	binary.LittleEndian.PutUint32(offOut[bytes.Index(offOut, []byte("PK\x01\x02"))+42:], uint32(len(good)-10))
	for what, data := range map[string][]byte{"local signature": badSig, "local name past the end": nameOut, "local header past the end": offOut} {
		if got, err := zipNames(bytes.NewReader(data), int64(len(data))); !errors.Is(err, errZip) {
			t.Errorf("%s: %q, %v; want errZip", what, got, err)
		}
	}
}

// A zip whose local header names .claude/settings.json under a central
// directory entry notes.txt (or hides it in a local header alone) is not
// let through, however it is unpacked; a local header the guard cannot
// read asks.
func TestGuardGroundZipLocalNames(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("differ.zip", craftZip(zipPart{local: ".claude/settings.json", central: "notes.txt"}))
	write("hidden.zip", craftZip(zipPart{local: "notes.txt", central: "notes.txt"}, zipPart{local: ".claude/settings.json", hidden: true}))
	write("ok.zip", craftZip(zipPart{local: "notes.txt", central: "notes.txt"}))
	bad := craftZip(zipPart{local: "notes.txt", central: "notes.txt"}, zipPart{local: "other.txt", central: "other.txt"})
	bad[bytes.LastIndex(bad, []byte("PK\x03\x04"))+3] = 9 // the second local header
	write("bad.zip", bad)
	if _, err := zipNames(bytes.NewReader(bad), int64(len(bad))); !errors.Is(err, errZip) {
		t.Fatalf("bad.zip: %v, want errZip", err)
	}
	g := newTest(config.Guard{}, groundEnv)
	g.ProjectDir = dir
	for _, zip := range []string{"differ.zip", "hidden.zip", "ok.zip", "bad.zip"} {
		for _, cmd := range []string{"unzip %s", "unzip -o %s -d .", "jar xf %s", "jar x < %s", "bsdtar -xf %s", "tar -xf %s"} {
			cmd = fmt.Sprintf(cmd, zip)
			in := []byte(`{"command":` + fmt.Sprintf("%q", cmd) + `}`)
			rep := g.Check(Call{Tool: "Bash", Input: in, Cwd: dir})
			switch zip {
			case "ok.zip":
				if rep.Decision != "allow" {
					t.Errorf("%q: %s (%s), want allow", cmd, rep.Decision, rep.Reason)
				}
			case "bad.zip":
				if rep.Decision != "ask" {
					t.Errorf("%q: %s (%s), want ask", cmd, rep.Decision, rep.Reason)
				}
			default:
				if rep.Decision == "allow" {
					t.Errorf("%q: allowed (%s)", cmd, rep.Reason)
				}
			}
		}
	}
}
