//go:build darwin || dragonfly || freebsd || illumos || linux || netbsd || openbsd

package statefile

import (
	"errors"
	"os"
	"syscall"
)

// tryLock takes flock(LOCK_EX) on f without waiting; false means another
// process holds it.
func tryLock(f *os.File) (bool, error) {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EWOULDBLOCK):
			return false, nil
		}
		return false, err
	}
}

func unlockFile(f *os.File) { syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }

// removeLock (when lockFolder is off): the holder removes the lock file
// before it unlocks; unix lets a file be removed while others hold it open.
const removeLock = true

// lockFolder: flock works on a folder, so the folder is the lock and no
// lock file is made.
const lockFolder = true
