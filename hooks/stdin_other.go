//go:build !unix

package hooks

import "os"

// stdin returns os.Stdin; Read bounds the wait with a goroutine.
func stdin() *os.File { return os.Stdin }
