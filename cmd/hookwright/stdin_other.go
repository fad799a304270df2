//go:build !unix

package main

import "os"

// stdin returns os.Stdin; hooks.Read bounds the wait with a goroutine.
func stdin() *os.File { return os.Stdin }
