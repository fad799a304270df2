//go:build !unix

package native

import "errors"

func mkfifo(string) error { return errors.New("no FIFOs on this platform") }

func openFIFOReader(string) (func(), error) { return nil, errors.New("no FIFOs on this platform") }
