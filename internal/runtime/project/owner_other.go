//go:build !unix

package project

// ownedByMe is true where the platform has no folder owners to compare.
func ownedByMe(string) bool { return true }
