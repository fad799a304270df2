package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/compat"
)

// TestValidateJSON: --json prints every violation as {pointer, message},
// [] for a clean file, and keeps the exit codes.
func TestValidateJSON(t *testing.T) {
	e, out, errb := fakeEnv(t)
	e.In = strings.NewReader(`{"hooks":{"TeammateIdle":[]}}`)
	if code := hookgen(t, e, "validate", "--json", "--cc-version", "2.0.30", "-"); code != exitInvalid {
		t.Fatalf("exit %d, want %d: %s", code, exitInvalid, errb)
	}
	var vs []struct{ Pointer, Message, Consequence, To string }
	if err := json.Unmarshal(out.Bytes(), &vs); err != nil || len(vs) != 1 || vs[0].Pointer != "/hooks/TeammateIdle" ||
		!strings.Contains(vs[0].Message, "2.1.33") || vs[0].Consequence != "rejected" || vs[0].To != "2.1.32" {
		t.Errorf("violations = %+v (%v) from %s", vs, err, out)
	}
	e, out, _ = fakeEnv(t)
	e.In = strings.NewReader(`{"hooks":{}}`)
	if code := hookgen(t, e, "validate", "--json", "--cc-version", "2.0.30", "-"); code != exitOK || strings.TrimSpace(out.String()) != "[]" {
		t.Errorf("clean file: exit %d, stdout %q", code, out)
	}
}

// TestMatrixJSON: the support table as one object, its bands compat's.
func TestMatrixJSON(t *testing.T) {
	e, out, errb := fakeEnv(t)
	if code := hookgen(t, e, "matrix", "--json"); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var table struct {
		Floor    string
		Bands    []string
		Features []struct{ Kind, Name, Since string }
	}
	if err := json.Unmarshal(out.Bytes(), &table); err != nil {
		t.Fatal(err)
	}
	if table.Floor != compat.PluginFloor || len(table.Bands) != len(compat.Bands()) || len(table.Features) != len(compat.Matrix) {
		t.Errorf("floor %s, %d bands, %d features; want %s, %d, %d", table.Floor, len(table.Bands), len(table.Features),
			compat.PluginFloor, len(compat.Bands()), len(compat.Matrix))
	}
}

// TestSpecFromStdin: --spec - reads the spec from stdin, the same bytes as
// from a file.
func TestSpecFromStdin(t *testing.T) {
	spec, err := os.ReadFile("../../manifests/hookwright.spec.json")
	if err != nil {
		t.Fatal(err)
	}
	e, fromStdin, _ := fakeEnv(t)
	e.In = strings.NewReader(string(spec))
	e2, fromFile, _ := fakeEnv(t)
	if hookgen(t, e, "--cc-version", "2.1.32", "--spec", "-") != exitOK || hookgen(t, e2, "--cc-version", "2.1.32", "--spec", "../../manifests/hookwright.spec.json") != exitOK {
		t.Fatal("generate failed")
	}
	if fromStdin.String() != fromFile.String() || fromStdin.Len() == 0 {
		t.Errorf("--spec - wrote other bytes than the file")
	}
}
