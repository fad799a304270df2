//go:build !unix

package live

import "context"

// lock is a no-op where flock is missing; the atomic rename in install still
// keeps readers from seeing a partial install, at the cost of duplicate
// downloads when installers race.
func lock(ctx context.Context, path string) (unlock func(), err error) { return func() {}, nil }
