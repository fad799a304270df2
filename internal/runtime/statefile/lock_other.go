//go:build !(darwin || dragonfly || freebsd || illumos || linux || netbsd || openbsd || windows)

package statefile

import "os"

// tryLock succeeds at once: this platform has no kernel file lock in the
// standard library, so writers are not serialized here.
func tryLock(*os.File) (bool, error) { return true, nil }

func unlockFile(*os.File) {}

// removeLock: the lock file stays (no kernel lock here).
const removeLock = false

// lockFolder: a lock file is made (and stays, see removeLock).
const lockFolder = false
