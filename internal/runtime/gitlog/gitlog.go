// Package gitlog reads the newest commits of a repository straight from
// its .git folder, the way `git log --oneline -n N` lists them, without
// starting git: SessionStart's briefing needs five subjects, and a git
// subprocess cost more than the rest of the hook call together.
//
// It reads HEAD and the refs (loose and packed), then commit objects,
// loose (zlib) or packed (pack index v2, with OFS_DELTA and REF_DELTA
// chains), and walks them newest committer date first, as git log's
// default order does. An abbreviated id is as long as git makes it by
// default (core.abbrev auto, at least 7, longer while another object
// shares the prefix).
//
// The .git folder is the model's to write, so every read is bounded:
// files are opened through package safepath (regular files only, no
// FIFO), an object inflates to at most [MaxObject] bytes, a delta chain is
// followed at most [MaxDelta] deep, an index is read only up to
// [MaxIndex] bytes, and the walk visits at most [MaxVisit] commits.
// Anything it cannot read ends the list where it is; no input makes it
// fail other than by returning less. Worktrees (.git as a "gitdir:" file,
// commondir) are followed. Object ids are SHA-1 or, in a repository whose
// config says extensions.objectformat = sha256, SHA-256. Alternates,
// grafts, replace refs and shallow boundaries are not read.
package gitlog

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"container/heap"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hookwright/hookwright/internal/runtime/safepath"
)

// Bounds.
const (
	MaxObject = 4 << 20
	MaxDelta  = 64
	MaxIndex  = 64 << 20
	MaxVisit  = 2000
	maxSmall  = 1 << 20
)

var errBad = errors.New("gitlog: unreadable object")

// oid is an object id: the 20 bytes of a SHA-1 id or the 32 of a SHA-256
// one, zero-padded (a repository has one kind; [repo.hashLen] says which).
type oid [32]byte

// Log returns up to n commits of the repository at dir, newest first, one
// "<abbreviated id> <subject>" line each; "" when dir is no repository or
// nothing can be read.
func Log(dir string, n int) string {
	if n <= 0 {
		return ""
	}
	r, ok := open(dir)
	if !ok {
		return ""
	}
	defer r.close()
	head, ok := r.head()
	if !ok {
		return ""
	}
	var lines []string
	q := &queue{}
	seen := map[oid]bool{head: true}
	if c, ok := r.commit(head); ok {
		heap.Push(q, c)
	}
	for q.Len() > 0 && len(lines) < n && len(seen) <= MaxVisit {
		c := heap.Pop(q).(*commit)
		lines = append(lines, r.abbrev(c.id)+" "+c.subject)
		for _, p := range c.parents {
			if seen[p] {
				continue
			}
			seen[p] = true
			if pc, ok := r.commit(p); ok {
				heap.Push(q, pc)
			}
		}
	}
	return strings.Join(lines, "\n")
}

// repo is an open repository.
type repo struct {
	gitDir, common string
	hashLen        int // 20 (SHA-1) or 32 (SHA-256)
	packs          []*pack
	packsRead      bool
	found          int // commits read so far, for the walk's tie-break
}

func open(dir string) (*repo, bool) {
	if dir == "" {
		return nil, false
	}
	gitDir := filepath.Join(dir, ".git")
	info, err := os.Lstat(gitDir)
	if err != nil {
		return nil, false
	}
	if !info.IsDir() { // a worktree: ".git" holds "gitdir: <path>"
		p, ok := strings.CutPrefix(strings.TrimSpace(string(readSmall(gitDir))), "gitdir: ")
		if !ok {
			return nil, false
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		gitDir = p
	}
	common := gitDir
	if c := strings.TrimSpace(string(readSmall(filepath.Join(gitDir, "commondir")))); c != "" {
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitDir, c)
		}
		common = c
	}
	return &repo{gitDir: gitDir, common: common, hashLen: hashLen(readSmall(filepath.Join(common, "config")))}, true
}

// hashLen is the object id length of the repository whose config is
// cfg: 32 bytes where [extensions] sets objectformat = sha256, else 20.
func hashLen(cfg []byte) int {
	section := ""
	for line := range bytes.Lines(cfg) {
		l := strings.ToLower(strings.TrimSpace(string(line)))
		if strings.HasPrefix(l, "[") {
			section = strings.Trim(l, "[] \t")
			continue
		}
		k, v, ok := strings.Cut(l, "=")
		if ok && section == "extensions" && strings.TrimSpace(k) == "objectformat" && strings.Trim(strings.TrimSpace(v), `"`) == "sha256" {
			return 32
		}
	}
	return 20
}

func (r *repo) close() {
	for _, p := range r.packs {
		if p.f != nil {
			p.f.Close()
		}
	}
}

// head resolves HEAD to a commit id.
func (r *repo) head() (oid, bool) {
	s := strings.TrimSpace(string(readSmall(filepath.Join(r.gitDir, "HEAD"))))
	for range 5 { // a symbolic ref may point at another
		ref, isRef := strings.CutPrefix(s, "ref: ")
		if !isRef {
			return r.parseID(s)
		}
		if !strings.HasPrefix(ref, "refs/") || strings.Contains(ref, "..") {
			return oid{}, false
		}
		s = ""
		for _, d := range []string{r.gitDir, r.common} {
			if v := strings.TrimSpace(string(readSmall(filepath.Join(d, filepath.FromSlash(ref))))); v != "" {
				s = v
				break
			}
		}
		if s == "" {
			for line := range bytes.Lines(readSmall(filepath.Join(r.common, "packed-refs"))) {
				if f := strings.Fields(string(line)); len(f) == 2 && f[1] == ref {
					s = f[0]
				}
			}
		}
	}
	return r.parseID(s)
}

// parseID reads a hex object id of the repository's length.
func (r *repo) parseID(s string) (oid, bool) {
	var id oid
	if len(s) != 2*r.hashLen {
		return id, false
	}
	_, err := hex.Decode(id[:r.hashLen], []byte(s))
	return id, err == nil
}

// commit is one parsed commit.
type commit struct {
	id      oid
	parents []oid
	date    int64
	subject string
	order   int
}

func (r *repo) commit(id oid) (*commit, bool) {
	typ, data, err := r.object(id, 0)
	if err != nil || typ != objCommit {
		return nil, false
	}
	r.found++
	c := &commit{id: id, order: r.found}
	head, msg, _ := bytes.Cut(data, []byte("\n\n"))
	for line := range bytes.Lines(head) {
		line = bytes.TrimSuffix(line, []byte("\n"))
		switch {
		case bytes.HasPrefix(line, []byte("parent ")):
			if p, ok := r.parseID(string(line[len("parent "):])); ok {
				c.parents = append(c.parents, p)
			}
		case bytes.HasPrefix(line, []byte("committer ")):
			f := bytes.Fields(line)
			if len(f) >= 2 {
				c.date, _ = strconv.ParseInt(string(f[len(f)-2]), 10, 64)
			}
		}
	}
	c.subject = subject(msg)
	return c, true
}

// subject is the message's first paragraph on one line, as --oneline
// shows it.
func subject(msg []byte) string {
	var parts []string
	started := false
	for line := range bytes.Lines(msg) {
		l := strings.TrimRight(string(line), " \t\r\n")
		if l == "" {
			if started {
				break
			}
			continue
		}
		started = true
		parts = append(parts, strings.TrimSpace(l))
	}
	return strings.Join(parts, " ")
}

// The object types.
const (
	objCommit   = 1
	objTree     = 2
	objBlob     = 3
	objTag      = 4
	objOfsDelta = 6
	objRefDelta = 7
)

// object reads the object id, loose or packed.
func (r *repo) object(id oid, depth int) (int, []byte, error) {
	if depth > MaxDelta {
		return 0, nil, errBad
	}
	h := hex.EncodeToString(id[:r.hashLen])
	if f, _, err := safepath.Open(safepath.At(filepath.Join(r.common, "objects", h[:2], h[2:]))); err == nil {
		defer f.Close()
		return loose(f)
	}
	for _, p := range r.allPacks() {
		if off, ok := p.find(id); ok {
			return r.packed(p, off, depth)
		}
	}
	return 0, nil, errBad
}

func loose(f io.Reader) (int, []byte, error) {
	zr, err := zlib.NewReader(bufio.NewReader(f))
	if err != nil {
		return 0, nil, errBad
	}
	defer zr.Close()
	data, err := io.ReadAll(io.LimitReader(zr, MaxObject+64))
	if err != nil || len(data) > MaxObject+63 {
		return 0, nil, errBad
	}
	hdr, body, ok := bytes.Cut(data, []byte{0})
	if !ok {
		return 0, nil, errBad
	}
	name, size, _ := strings.Cut(string(hdr), " ")
	if n, err := strconv.Atoi(size); err != nil || n != len(body) {
		return 0, nil, errBad
	}
	switch name {
	case "commit":
		return objCommit, body, nil
	case "tree":
		return objTree, body, nil
	case "blob":
		return objBlob, body, nil
	case "tag":
		return objTag, body, nil
	}
	return 0, nil, errBad
}

// pack is one pack file with its index.
type pack struct {
	f       *os.File
	size    int64
	fanout  [256]uint32
	hashLen int    // bytes of an id
	names   []byte // hashLen bytes each
	offsets []byte // 4 bytes each
	large   []byte // 8 bytes each
}

func (r *repo) allPacks() []*pack {
	if r.packsRead {
		return r.packs
	}
	r.packsRead = true
	dir := filepath.Join(r.common, "objects", "pack")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	for _, e := range entries {
		base, ok := strings.CutSuffix(e.Name(), ".idx")
		if !ok || !e.Type().IsRegular() {
			continue
		}
		if p, ok := readPack(filepath.Join(dir, base), r.hashLen); ok {
			r.packs = append(r.packs, p)
		}
	}
	return r.packs
}

func readPack(base string, hashLen int) (*pack, bool) {
	idx, err := safepath.ReadFileAt(base+".idx", MaxIndex)
	if err != nil || len(idx) < 8+256*4 || !bytes.Equal(idx[:8], []byte{0xff, 't', 'O', 'c', 0, 0, 0, 2}) {
		return nil, false
	}
	p := &pack{hashLen: hashLen}
	for i := range p.fanout {
		p.fanout[i] = binary.BigEndian.Uint32(idx[8+4*i:])
	}
	n := int64(p.fanout[255])
	rest := idx[8+256*4:]
	hl := int64(hashLen)
	if int64(len(rest)) < n*(hl+4+4) {
		return nil, false
	}
	p.names = rest[:n*hl]
	p.offsets = rest[n*(hl+4) : n*(hl+8)]
	p.large = rest[n*(hl+8):]
	f, info, err := safepath.Open(safepath.At(base + ".pack"))
	if err != nil {
		return nil, false
	}
	p.f, p.size = f, info.Size()
	return p, true
}

// count is the number of objects in the index.
func (p *pack) count() int { return int(p.fanout[255]) }

// find returns the offset of id in the pack.
func (p *pack) find(id oid) (int64, bool) {
	lo, hi := 0, int(p.fanout[id[0]])
	if id[0] > 0 {
		lo = int(p.fanout[id[0]-1])
	}
	if hi > p.count() || lo > hi {
		return 0, false
	}
	for lo < hi {
		m := (lo + hi) / 2
		switch c := bytes.Compare(p.names[m*p.hashLen:(m+1)*p.hashLen], id[:p.hashLen]); {
		case c == 0:
			off := int64(binary.BigEndian.Uint32(p.offsets[m*4:]))
			if off&0x80000000 != 0 {
				i := int(off & 0x7fffffff)
				if (i+1)*8 > len(p.large) {
					return 0, false
				}
				off = int64(binary.BigEndian.Uint64(p.large[i*8:]))
			}
			return off, off >= 12 && off < p.size
		case c < 0:
			lo = m + 1
		default:
			hi = m
		}
	}
	return 0, false
}

// prefixIDs adds to ids the objects in the index whose hex id starts
// with id's first hexLen digits.
func (p *pack) prefixIDs(id oid, hexLen int, ids map[string]bool) {
	lo := 0
	if id[0] > 0 {
		lo = int(p.fanout[id[0]-1])
	}
	hi := min(int(p.fanout[id[0]]), p.count())
	want := hex.EncodeToString(id[:p.hashLen])[:hexLen]
	for i := lo; i < hi; i++ {
		if h := hex.EncodeToString(p.names[i*p.hashLen : (i+1)*p.hashLen]); h[:hexLen] == want {
			ids[h] = true
		}
	}
}

// packed reads the object at off in p, applying deltas.
func (r *repo) packed(p *pack, off int64, depth int) (int, []byte, error) {
	if depth > MaxDelta {
		return 0, nil, errBad
	}
	var hdr [64]byte // type and size, then a delta's base: an offset or an id
	n, _ := p.f.ReadAt(hdr[:], off)
	if n == 0 {
		return 0, nil, errBad
	}
	typ := int(hdr[0]>>4) & 7
	size := int64(hdr[0] & 15)
	i, shift := 1, 4
	for hdr[i-1]&0x80 != 0 {
		if i >= n || shift > 56 {
			return 0, nil, errBad
		}
		size |= int64(hdr[i]&0x7f) << shift
		shift += 7
		i++
	}
	if size > MaxObject {
		return 0, nil, errBad
	}
	var baseType int
	var base []byte
	var err error
	switch typ {
	case objOfsDelta:
		if i >= n {
			return 0, nil, errBad
		}
		b := hdr[i]
		i++
		rel := int64(b & 0x7f)
		for b&0x80 != 0 {
			if i >= n || rel > 1<<48 {
				return 0, nil, errBad
			}
			b = hdr[i]
			i++
			rel = ((rel + 1) << 7) | int64(b&0x7f)
		}
		if rel <= 0 || rel > off {
			return 0, nil, errBad
		}
		baseType, base, err = r.packed(p, off-rel, depth+1)
	case objRefDelta:
		if i+p.hashLen > n {
			return 0, nil, errBad
		}
		var id oid
		copy(id[:], hdr[i:i+p.hashLen])
		i += p.hashLen
		baseType, base, err = r.object(id, depth+1)
	case objCommit, objTree, objBlob, objTag:
	default:
		return 0, nil, errBad
	}
	if err != nil {
		return 0, nil, err
	}
	zr, err := zlib.NewReader(bufio.NewReader(io.NewSectionReader(p.f, off+int64(i), p.size-off-int64(i))))
	if err != nil {
		return 0, nil, errBad
	}
	defer zr.Close()
	data, err := io.ReadAll(io.LimitReader(zr, size+1))
	if err != nil || int64(len(data)) != size {
		return 0, nil, errBad
	}
	if base == nil && typ != objOfsDelta && typ != objRefDelta {
		return typ, data, nil
	}
	out, err := applyDelta(base, data)
	return baseType, out, err
}

// applyDelta applies git's delta instructions to base.
func applyDelta(base, delta []byte) ([]byte, error) {
	varint := func() (int, bool) {
		v, shift := 0, 0
		for {
			if len(delta) == 0 || shift > 56 {
				return 0, false
			}
			b := delta[0]
			delta = delta[1:]
			v |= int(b&0x7f) << shift
			shift += 7
			if b&0x80 == 0 {
				return v, true
			}
		}
	}
	srcSize, ok1 := varint()
	dstSize, ok2 := varint()
	if !ok1 || !ok2 || srcSize != len(base) || dstSize > MaxObject {
		return nil, errBad
	}
	out := make([]byte, 0, dstSize)
	for len(delta) > 0 {
		op := delta[0]
		delta = delta[1:]
		if op&0x80 != 0 {
			var off, n int
			for bit := range 4 {
				if op&(1<<bit) != 0 {
					if len(delta) == 0 {
						return nil, errBad
					}
					off |= int(delta[0]) << (8 * bit)
					delta = delta[1:]
				}
			}
			for bit := range 3 {
				if op&(0x10<<bit) != 0 {
					if len(delta) == 0 {
						return nil, errBad
					}
					n |= int(delta[0]) << (8 * bit)
					delta = delta[1:]
				}
			}
			if n == 0 {
				n = 0x10000
			}
			if off+n > len(base) || len(out)+n > dstSize {
				return nil, errBad
			}
			out = append(out, base[off:off+n]...)
		} else if op != 0 {
			n := int(op)
			if n > len(delta) || len(out)+n > dstSize {
				return nil, errBad
			}
			out = append(out, delta[:n]...)
			delta = delta[n:]
		} else {
			return nil, errBad
		}
	}
	if len(out) != dstSize {
		return nil, errBad
	}
	return out, nil
}

// abbrev shortens id as git log --oneline does by default.
func (r *repo) abbrev(id oid) string {
	var count int
	for _, p := range r.allPacks() {
		count += p.count()
	}
	bits := 0
	for c := count; c > 0; c >>= 1 {
		bits++
	}
	n := max((bits+1)/2, 7)
	h := hex.EncodeToString(id[:r.hashLen])
	for ; n < len(h); n++ {
		if r.matches(id, h[:n]) <= 1 {
			break
		}
	}
	return h[:n]
}

// matches counts the objects whose id starts with prefix, packed or
// loose, each once.
func (r *repo) matches(id oid, prefix string) int {
	ids := map[string]bool{}
	for _, p := range r.allPacks() {
		p.prefixIDs(id, len(prefix), ids)
	}
	if entries, err := os.ReadDir(filepath.Join(r.common, "objects", prefix[:2])); err == nil {
		for _, e := range entries {
			if len(e.Name()) == 2*r.hashLen-2 && strings.HasPrefix(e.Name(), prefix[2:]) {
				ids[prefix[:2]+e.Name()] = true
			}
		}
	}
	return len(ids)
}

func readSmall(path string) []byte {
	data, _ := safepath.ReadFileAt(path, maxSmall)
	return data
}

// queue orders commits newest committer date first; among equal dates,
// the one found first.
type queue []*commit

func (q queue) Len() int { return len(q) }
func (q queue) Less(i, j int) bool {
	if q[i].date != q[j].date {
		return q[i].date > q[j].date
	}
	return q[i].order < q[j].order
}
func (q queue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *queue) Push(x any)   { *q = append(*q, x.(*commit)) }
func (q *queue) Pop() any {
	old := *q
	c := old[len(old)-1]
	*q = old[:len(old)-1]
	return c
}
