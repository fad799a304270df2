//go:build !unix

package settings

import "errors"

func mkfifo(string) error { return errors.New("no named pipes") }
