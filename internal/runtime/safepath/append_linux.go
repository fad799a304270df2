package safepath

import (
	"os"
	"path/filepath"
	"syscall"
)

// openAppend opens p for appending, creating it. On Linux the folder is
// opened through the root and the file with openat(O_NOFOLLOW) in it, so a
// symlink at the file's name fails in the same call that opens it: half
// the system calls of [OpenWrite], on the path every hook call takes.
func openAppend(r *os.Root, p Path) (*os.File, error) {
	dir, err := r.OpenFile(filepath.Dir(p.Rel), os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, wrap(p, err)
	}
	defer dir.Close()
	rc, err := dir.SyscallConn()
	if err != nil {
		return nil, wrap(p, err)
	}
	fd := -1
	const flags = syscall.O_WRONLY | syscall.O_APPEND | syscall.O_CREAT | syscall.O_NOFOLLOW | syscall.O_NONBLOCK | syscall.O_CLOEXEC
	cerr := rc.Control(func(dfd uintptr) {
		for {
			fd, err = syscall.Openat(int(dfd), filepath.Base(p.Rel), flags, 0o644)
			if err != syscall.EINTR {
				return
			}
		}
	})
	switch {
	case cerr != nil:
		return nil, wrap(p, cerr)
	case err == syscall.ELOOP:
		return nil, wrapLinked(p)
	case err == syscall.ENXIO: // a FIFO with no reader
		return nil, wrapNotRegular(p, "a named pipe")
	case err != nil:
		return nil, wrap(p, err)
	}
	f := os.NewFile(uintptr(fd), p.String())
	if err := checkWritable(f, p); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
