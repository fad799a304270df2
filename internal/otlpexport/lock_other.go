//go:build !unix

package otlpexport

// lock does nothing where flock is missing: run one exporter per project.
func lock(string) (func(), error) { return func() {}, nil }
