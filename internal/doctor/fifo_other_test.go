//go:build !unix

package doctor

import "errors"

func syscallMkfifo(string) error { return errors.New("no named pipes") }
