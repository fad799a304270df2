package safepath

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// openAppend opens p for appending, creating it (see [openNoFollow]).
func openAppend(r *os.Root, p Path) (*os.File, error) {
	f, _, err := openNoFollow(r, p, os.O_WRONLY|os.O_APPEND|os.O_CREATE)
	return f, err
}

// openNoFollow opens p for writing with flag (O_WRONLY and O_CREATE, say)
// and returns it with its info when it is a regular file with one link. On
// Linux the folder is opened through the root and the file with
// openat(O_NOFOLLOW|O_NONBLOCK) in it, so a symlink at the file's name
// fails in the same call that opens it and a named pipe does not block:
// half the system calls of [OpenWrite], on the path every hook call takes.
func openNoFollow(r *os.Root, p Path, flag int) (*os.File, fs.FileInfo, error) {
	dir, err := r.OpenFile(filepath.Dir(p.Rel), os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, wrap(p, err)
	}
	defer dir.Close()
	rc, err := dir.SyscallConn()
	if err != nil {
		return nil, nil, wrap(p, err)
	}
	fd := -1
	flags := flag | syscall.O_NOFOLLOW | syscall.O_NONBLOCK | syscall.O_CLOEXEC
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
		return nil, nil, wrap(p, cerr)
	case err == syscall.ELOOP:
		return nil, nil, wrapLinked(p)
	case err == syscall.ENXIO: // a FIFO with no reader
		return nil, nil, wrapNotRegular(p, "a named pipe")
	case err != nil:
		return nil, nil, wrap(p, err)
	}
	f := os.NewFile(uintptr(fd), p.String())
	info, err := checkWritable(f, p)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, info, nil
}
