// Package testkit holds what hookwright's own tests share: building this
// module's commands once per test process ([Build]), and a buffer safe
// for a goroutine that writes while a test reads ([SyncBuffer]). Package
// hooks/hookstest builds plugins with it too; a plugin author uses that.
package testkit

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// Options adjust a [Build].
type Options struct {
	// Flags are passed to go build before -o ("-trimpath", "-ldflags", "-X main.version=0.1.0").
	Flags []string
	// Env is added to the go command's environment ("GOOS=windows", "CGO_ENABLED=0").
	Env []string
	// Name is the binary's file name; the default is the package's last
	// element (with .exe for GOOS=windows).
	Name string
}

var (
	mu     sync.Mutex
	built  = map[string]*buildResult{}
	tmpDir string
)

type buildResult struct {
	once sync.Once
	path string
	err  error
}

// Build builds pkg (an import path, or a folder relative to the test's
// working directory) once per test process and returns the binary's path.
// The binaries live in one temporary folder for the whole process, shared
// by parallel tests; [Main] removes it when the tests are done. A build
// failure fails t with go's output.
func Build(t testing.TB, pkg string, o Options) string {
	t.Helper()
	path, err := build(pkg, o)
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// BuildTo builds pkg once per process (as [Build]) and copies the binary
// to path (made executable), for a test that needs it at a given place:
// a plugin's bin/ folder, say.
func BuildTo(t testing.TB, pkg, path string, o Options) {
	t.Helper()
	if err := BuildFile(pkg, path, o); err != nil {
		t.Fatal(err)
	}
}

// BuildFile is [BuildTo] where no test is at hand (TestMain, a
// sync.OnceValues): it returns the error.
func BuildFile(pkg, path string, o Options) error {
	src, err := build(pkg, o)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o755)
}

func build(pkg string, o Options) (string, error) {
	abs := pkg
	if strings.HasPrefix(pkg, ".") {
		p, err := filepath.Abs(pkg)
		if err != nil {
			return "", err
		}
		abs = p
	}
	key := abs + "\x00" + strings.Join(o.Flags, "\x00") + "\x00" + strings.Join(o.Env, "\x00") + "\x00" + o.Name
	mu.Lock()
	if tmpDir == "" {
		d, err := os.MkdirTemp("", "testkit-bin-")
		if err != nil {
			mu.Unlock()
			return "", err
		}
		tmpDir = d
	}
	r := built[key]
	if r == nil {
		r = &buildResult{}
		built[key] = r
	}
	dir := filepath.Join(tmpDir, fmt.Sprint(len(built)))
	mu.Unlock()
	r.once.Do(func() {
		name := o.Name
		if name == "" {
			name = filepath.Base(strings.TrimSuffix(abs, "/"))
			goos := runtime.GOOS
			for _, kv := range o.Env {
				if v, ok := strings.CutPrefix(kv, "GOOS="); ok {
					goos = v
				}
			}
			if goos == "windows" {
				name += ".exe"
			}
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			r.err = err
			return
		}
		r.path = filepath.Join(dir, name)
		args := append([]string{"build"}, o.Flags...)
		args = append(args, "-o", r.path, abs)
		cmd := exec.Command("go", args...)
		cmd.Env = append(os.Environ(), o.Env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			r.err = fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
		}
	})
	return r.path, r.err
}

// SyncBuffer is a bytes.Buffer safe for one goroutine writing while
// another reads (a watchdog, a server, a subprocess's output).
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p.
func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String returns what was written so far.
func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Len returns how many bytes were written so far.
func (s *SyncBuffer) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Len()
}

// Main runs the tests of m and removes the binaries [Build] made:
//
//	func TestMain(m *testing.M) { os.Exit(testkit.Main(m)) }
func Main(m *testing.M) int {
	code := m.Run()
	mu.Lock()
	defer mu.Unlock()
	if tmpDir != "" {
		os.RemoveAll(tmpDir)
		tmpDir, built = "", map[string]*buildResult{}
	}
	return code
}
