package schemas

import (
	"errors"
	"testing"

	"github.com/hookwright/hookwright/hooks"
)

// TestValidatorFailureIsAnError: a failure of the validator itself (here
// any error that is not a *jsonschema.ValidationError, such as its
// InfiniteLoopError) must come back as an error, never as "no violations".
func TestValidatorFailureIsAnError(t *testing.T) {
	s, err := load(hooks.MustRelease("2.0.12"))
	if err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	vs, err := s.violations(boom, map[string]any{})
	if !errors.Is(err, boom) || vs != nil {
		t.Fatalf("violations(boom) = %v, %v; want the error", vs, err)
	}
	if vs, err := s.violations(nil, nil); vs != nil || err != nil {
		t.Fatalf("violations(nil) = %v, %v", vs, err)
	}
}
