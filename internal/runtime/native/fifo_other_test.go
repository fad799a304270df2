//go:build !unix

package native

import "errors"

func mkfifo(string) error { return errors.New("no FIFOs on this platform") }
