package cli

import (
	"bytes"
	"io"
	"os"
	"strings"
)

// Streams are where a command reads and writes, and the environment it
// sees: hookgen and hwctl take them from main ([System]) and tests build
// them in memory ([Buffers]), so no command touches the process's own.
type Streams struct {
	In       io.Reader
	Out, Err io.Writer
	// Getenv reads a variable; never nil.
	Getenv func(string) string
}

// System is the process's stdin, stdout, stderr and environment.
func System() Streams {
	return Streams{In: os.Stdin, Out: os.Stdout, Err: os.Stderr, Getenv: os.Getenv}
}

// Buffers are in-memory streams for tests: stdin reads in, the
// environment is exactly env, and what the command writes collects in the
// returned stdout and stderr buffers.
func Buffers(in string, env map[string]string) (s Streams, stdout, stderr *bytes.Buffer) {
	stdout, stderr = new(bytes.Buffer), new(bytes.Buffer)
	return Streams{In: strings.NewReader(in), Out: stdout, Err: stderr, Getenv: func(k string) string { return env[k] }}, stdout, stderr
}
