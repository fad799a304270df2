// Package docs holds the tests that keep hookwright's documentation true:
// every command the README, CONTRIBUTING.md and docs/*.md show is run on
// this machine (or listed here with the reason it cannot be), the layout
// table in docs/architecture.md matches the code, every link resolves,
// the README stays short, and its quick start works on a fresh clone.
package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// root is the repository.
var root, _ = filepath.Abs(filepath.Join("..", ".."))

// pages are the documentation files the tests read: the README,
// CONTRIBUTING.md and every page of docs/, whatever is added later.
func pages(t *testing.T) []string {
	t.Helper()
	files := []string{"README.md", "CONTRIBUTING.md"}
	more, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range more {
		rel, _ := filepath.Rel(root, m)
		files = append(files, rel)
	}
	return files
}

func read(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A Command is one command line of a fenced sh/bash/shell block.
type Command struct {
	File string // the page, relative to the repository
	Line int    // its line in the page
	Text string // the command, comment and surrounding blanks removed
}

var fence = regexp.MustCompile("^```\\s*([A-Za-z0-9_+-]*)")

// commands returns every command of the sh, bash, shell and console
// blocks of the page rel, in order: continuation lines (a trailing
// backslash) joined, comments and blank lines left out, a console
// prompt ("$ ") taken off.
func commands(t *testing.T, rel string) []Command {
	t.Helper()
	var out []Command
	in, lang := false, ""
	var pending *Command
	for i, line := range strings.Split(read(t, rel), "\n") {
		if m := fence.FindStringSubmatch(line); m != nil {
			if !in {
				in, lang = true, m[1]
			} else {
				in = false
			}
			continue
		}
		if !in || (lang != "sh" && lang != "bash" && lang != "shell" && lang != "console") {
			continue
		}
		text := strings.TrimPrefix(strings.TrimSpace(line), "$ ")
		if pending != nil {
			pending.Text += " " + text
		} else {
			pending = &Command{File: rel, Line: i + 1, Text: text}
		}
		if strings.HasSuffix(pending.Text, "\\") {
			pending.Text = strings.TrimSuffix(pending.Text, "\\")
			continue
		}
		c := *pending
		pending = nil
		c.Text = strings.Join(strings.Fields(stripComment(c.Text)), " ")
		if c.Text != "" {
			out = append(out, c)
		}
	}
	return out
}

// stripComment cuts a shell comment off s: a # at the start or after a
// blank, outside quotes.
func stripComment(s string) string {
	var quote rune
	for i, c := range s {
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '#' && (i == 0 || s[i-1] == ' ' || s[i-1] == '\t'):
			return s[:i]
		}
	}
	return s
}

func TestStripComment(t *testing.T) {
	for in, want := range map[string]string{
		"hwctl events # every block":           "hwctl events ",
		`hwctl explain -- 'a # b'  # the rule`: `hwctl explain -- 'a # b'  `,
		"go test ./... -run 'X#Y'":             "go test ./... -run 'X#Y'",
		"# only a comment":                     "",
		"echo a#b":                             "echo a#b",
	} {
		if got := stripComment(in); got != want {
			t.Errorf("stripComment(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestReadmeIsShort: the README is a door, not the house.
func TestReadmeIsShort(t *testing.T) {
	if n := strings.Count(read(t, "README.md"), "\n"); n > 250 {
		t.Errorf("README.md has %d lines; keep it under 250 and move the rest to a page of docs/", n)
	}
}
