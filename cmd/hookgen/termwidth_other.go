//go:build !unix

package main

// terminalWidth is 0 here: the width comes from COLUMNS or the default.
func terminalWidth() int { return 0 }
