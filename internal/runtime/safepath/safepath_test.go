package safepath

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestName(t *testing.T) {
	good := []string{"alice", "team-red", "a.b", "L1_index", "..hidden"}
	bad := map[string]string{
		"": "empty", ".": "relative", "..": "relative", "a/b": "separator", `a\b`: "separator",
		"/etc": "separator", "~root": "absolute", "a\x00b": "NUL", strings.Repeat("x", 129): "longer",
	}
	for _, n := range good {
		if err := Name("team", n); err != nil {
			t.Errorf("Name(%q) = %v", n, err)
		}
	}
	for n, why := range bad {
		err := Name("team", n)
		if !errors.Is(err, ErrUnsafe) || !strings.Contains(err.Error(), why) || !strings.Contains(err.Error(), "team") {
			t.Errorf("Name(%q) = %v, want an ErrUnsafe that says %q", n, err, why)
		}
	}
}

func TestJoinAndWithin(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	p, err := Join(root, "teammate", "red", "alice")
	if err != nil || p != filepath.Join(root, "red", "alice") {
		t.Fatalf("Join = %q, %v", p, err)
	}
	if _, err := Join(root, "teammate", "red", ".."); !errors.Is(err, ErrUnsafe) {
		t.Fatalf("Join accepted ..: %v", err)
	}
	if err := Within(root, filepath.Join(root, "red", "not-yet", "file")); err != nil {
		t.Fatalf("missing path inside root rejected: %v", err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "escape")); err != nil {
		t.Fatal(err)
	}
	if err := Within(root, filepath.Join(root, "escape", "x", "y")); !errors.Is(err, ErrUnsafe) {
		t.Fatalf("symlink out of the root accepted: %v", err)
	}
	if err := Within(root, filepath.Join(root, "..", filepath.Base(outside))); !errors.Is(err, ErrUnsafe) {
		t.Fatalf("dot-dot path accepted: %v", err)
	}
	if err := Within(root, root); err != nil {
		t.Fatalf("root itself rejected: %v", err)
	}
}

func TestOpensRefuseWhatCouldHurt(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret"), []byte("secret"), 0o644)
	os.WriteFile(filepath.Join(root, "ok"), []byte("fine"), 0o644)
	os.WriteFile(filepath.Join(root, "big"), make([]byte, 2048), 0o644)
	os.Symlink(filepath.Join(outside, "secret"), filepath.Join(root, "link-out"))
	os.Symlink("ok", filepath.Join(root, "link-in"))
	os.Symlink(outside, filepath.Join(root, "dir-out"))
	os.Symlink("/dev/zero", filepath.Join(root, "zero"))
	os.Mkdir(filepath.Join(root, "folder"), 0o755)
	if err := mkfifo(filepath.Join(root, "fifo")); err != nil {
		t.Skip("no named pipes here:", err)
	}
	for rel, want := range map[string]error{
		"link-out":       ErrUnsafe,
		"dir-out/secret": ErrUnsafe,
		"zero":           ErrUnsafe,
		"fifo":           ErrNotRegular,
		"folder":         ErrNotRegular,
		"big":            ErrTooBig,
		"../x":           ErrUnsafe,
		"missing":        os.ErrNotExist,
	} {
		_, err := ReadFile(Path{Root: root, Rel: filepath.FromSlash(rel)}, 1024)
		if !errors.Is(err, want) {
			t.Errorf("ReadFile(%s) = %v, want %v", rel, err, want)
		}
	}
	if data, err := ReadFile(Path{Root: root, Rel: "link-in"}, 1024); err != nil || string(data) != "fine" {
		t.Errorf("a symlink inside the root: %q %v", data, err)
	}
	if data, err := ReadTail(Path{Root: root, Rel: "big"}, 10); err != nil || len(data) != 10 {
		t.Errorf("ReadTail: %d bytes, %v", len(data), err)
	}
}

func TestAppendRefusesLinksAndPipes(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	victim := filepath.Join(outside, "victim")
	os.WriteFile(victim, []byte("v"), 0o644)
	os.Symlink(victim, filepath.Join(root, "sym"))
	os.Link(victim, filepath.Join(root, "hard"))
	os.Symlink(outside, filepath.Join(root, "dir-out"))
	mkfifo(filepath.Join(root, "fifo"))
	for rel, want := range map[string]error{
		"sym": ErrLinked, "hard": ErrLinked, "dir-out/new": ErrUnsafe, "fifo": ErrNotRegular,
	} {
		if err := Append(Path{Root: root, Rel: filepath.FromSlash(rel)}, []byte("x\n")); !errors.Is(err, want) {
			t.Errorf("Append(%s) = %v, want %v", rel, err, want)
		}
	}
	if data, _ := os.ReadFile(victim); string(data) != "v" {
		t.Fatalf("wrote through a link: %q", data)
	}
	if err := Append(Path{Root: root, Rel: filepath.Join("a", "b", "log")}, []byte("x\n")); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(root, "a", "b", "log")); string(data) != "x\n" {
		t.Fatalf("Append wrote %q", data)
	}
}

// The hook runtime turns KeepRoots on: a kept root must refuse exactly what
// a fresh one does, and be opened once per folder.
func TestKeptRootsConfineAlike(t *testing.T) {
	KeepRoots = true
	t.Cleanup(func() {
		KeepRoots = false
		keptMu.Lock()
		for _, r := range kept {
			r.Close()
		}
		kept = nil
		keptMu.Unlock()
	})
	t.Run("opens", TestOpensRefuseWhatCouldHurt)
	t.Run("append", TestAppendRefusesLinksAndPipes)
	t.Run("overwrite", TestOverwrite)
	root := t.TempDir()
	if err := Append(Path{Root: root, Rel: "log"}, []byte("x\n")); err != nil {
		t.Fatal(err)
	}
	first := kept[root]
	if data, err := ReadFile(Path{Root: root, Rel: "log"}, 10); err != nil || string(data) != "x\n" {
		t.Fatalf("ReadFile through a kept root: %q %v", data, err)
	}
	if first == nil || kept[root] != first {
		t.Fatalf("the root was not kept: %v then %v", first, kept[root])
	}
}

// A failed open names the file and the cause, as "<path>: <cause>", and
// still answers errors.Is for the cause (wrap builds it without fmt).
func TestErrorNamesPathAndCause(t *testing.T) {
	root := t.TempDir()
	_, err := ReadFile(Path{Root: root, Rel: filepath.Join(".hookwright", "config.json")}, 10)
	want := filepath.Join(root, ".hookwright", "config.json") + ": no such file or directory"
	if err == nil || err.Error() != want || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("err = %v, want %q wrapping fs.ErrNotExist", err, want)
	}
	if err := Append(Path{Root: filepath.Join(root, "missing"), Rel: "log"}, nil); err == nil || !errors.Is(err, fs.ErrNotExist) ||
		!strings.HasPrefix(err.Error(), filepath.Join(root, "missing", "log")+": ") {
		t.Fatalf("Append under a missing root: %v", err)
	}
}

// TestReadFollowing reads through a symlink (a dotfiles-managed settings
// file), and refuses a named pipe without waiting on it, a folder, and a
// file over the cap.
func TestReadFollowing(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "dotfiles", "settings.json")
	os.MkdirAll(filepath.Dir(target), 0o755)
	os.WriteFile(target, []byte(`{"a":1}`), 0o644)
	link := filepath.Join(dir, "settings.json")
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symlinks here:", err)
	}
	if data, err := ReadFollowing(link, 100); err != nil || string(data) != `{"a":1}` {
		t.Fatalf("ReadFollowing(link) = %q, %v", data, err)
	}
	if _, err := ReadFollowing(link, 3); !errors.Is(err, ErrTooBig) {
		t.Errorf("over the cap: %v, want ErrTooBig", err)
	}
	if _, err := ReadFollowing(dir, 100); !errors.Is(err, ErrNotRegular) {
		t.Errorf("a folder: %v, want ErrNotRegular", err)
	}
	if _, err := ReadFollowing(filepath.Join(dir, "gone"), 100); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v, want fs.ErrNotExist", err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := mkfifo(fifo); err != nil {
		return // no named pipes on this platform
	}
	os.Symlink(fifo, filepath.Join(dir, "to-fifo"))
	for _, p := range []string{fifo, filepath.Join(dir, "to-fifo")} {
		if _, err := ReadFollowing(p, 100); !errors.Is(err, ErrNotRegular) {
			t.Errorf("%s: %v, want ErrNotRegular", p, err)
		}
	}
}

// TestOverwrite writes small records in place: a new file, a longer one
// cut to the new length, a shorter one grown, the same inode throughout
// (no rename), and the same refusals as Append, without creating folders.
func TestOverwrite(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	p := Path{Root: root, Rel: "marker"}
	var first fs.FileInfo
	for _, s := range []string{"session-one", "s2", "session-three-longer", "s4"} {
		if err := Overwrite(p, []byte(s)); err != nil {
			t.Fatalf("Overwrite(%q) = %v", s, err)
		}
		info, err := os.Lstat(filepath.Join(root, "marker"))
		if err != nil {
			t.Fatal(err)
		}
		if data, _ := os.ReadFile(filepath.Join(root, "marker")); string(data) != s {
			t.Errorf("after Overwrite(%q) the file holds %q", s, data)
		}
		if first == nil {
			first = info
		} else if !os.SameFile(first, info) {
			t.Errorf("Overwrite(%q) replaced the file instead of writing in place", s)
		}
	}

	victim := filepath.Join(outside, "victim")
	os.WriteFile(victim, []byte("v"), 0o644)
	os.Symlink(victim, filepath.Join(root, "sym"))
	os.Symlink(filepath.Join(outside, "new"), filepath.Join(root, "dangling"))
	os.Link(victim, filepath.Join(root, "hard"))
	os.Symlink(outside, filepath.Join(root, "dir-out"))
	os.Mkdir(filepath.Join(root, "dir"), 0o755)
	fifo := mkfifo(filepath.Join(root, "fifo")) == nil
	cases := map[string]error{
		"sym": ErrLinked, "dangling": ErrLinked, "hard": ErrLinked, "dir-out/new": ErrUnsafe,
		"missing/new": fs.ErrNotExist, "dir": nil,
	}
	if fifo {
		cases["fifo"] = ErrNotRegular
	}
	for rel, want := range cases {
		err := Overwrite(Path{Root: root, Rel: filepath.FromSlash(rel)}, []byte("x"))
		if err == nil || want != nil && !errors.Is(err, want) {
			t.Errorf("Overwrite(%s) = %v, want %v", rel, err, want)
		}
	}
	if data, _ := os.ReadFile(victim); string(data) != "v" {
		t.Errorf("wrote through a link: %q", data)
	}
	if _, err := os.Lstat(filepath.Join(outside, "new")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("created the target of a dangling link: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(root, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Overwrite made a folder: %v", err)
	}
}
