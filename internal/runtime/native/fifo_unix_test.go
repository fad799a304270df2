//go:build unix

package native

import "syscall"

func mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }

// openFIFOReader opens the read end of the FIFO at path without blocking,
// so that a writer's non-blocking open succeeds.
func openFIFOReader(path string) (func(), error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	return func() { syscall.Close(fd) }, nil
}
