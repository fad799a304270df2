package manifests

import (
	"errors"
	"testing"
)

func TestSetPluginHooks(t *testing.T) {
	const base = `{"name": "p", "version": "1.0.0", "author": {"name": "me"}, "keywords": ["a", "b"], "n": 1.5}`
	got, err := SetPluginHooks([]byte(base), []string{"./hooks/2.0.44.json", "./hooks/2.1.33.json"})
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "name": "p",
  "version": "1.0.0",
  "author": {
    "name": "me"
  },
  "keywords": [
    "a",
    "b"
  ],
  "n": 1.5,
  "hooks": [
    "./hooks/2.0.44.json",
    "./hooks/2.1.33.json"
  ]
}
`
	if string(got) != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	// Written again with other files: replaced in place.
	again, err := SetPluginHooks(got, []string{"./hooks/2.1.33.json"})
	if err != nil {
		t.Fatal(err)
	}
	if string(again) == string(got) {
		t.Fatal("not replaced")
	}
	// Nothing beyond hooks/hooks.json: the key goes.
	none, err := SetPluginHooks(got, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := decodeObject(none); err != nil {
		t.Fatal(err)
	}
	if o, _ := decodeObject(none); len(o) != 5 {
		t.Fatalf("hooks not removed: %s", none)
	}
	for name, in := range map[string]string{
		"inline object":      `{"name":"p","hooks":{"Stop":[]}}`,
		"inline in a list":   `{"name":"p","hooks":["./hooks/2.1.33.json",{"Stop":[]}]}`,
		"a file of its own":  `{"name":"p","hooks":"./hooks/extra.json"}`,
		"outside hooks/":     `{"name":"p","hooks":["./other/2.1.33.json"]}`,
		"not a release name": `{"name":"p","hooks":["./hooks/2.1.json"]}`,
	} {
		if _, err := SetPluginHooks([]byte(in), []string{"./hooks/2.1.33.json"}); !errors.Is(err, ErrPluginHooks) {
			t.Errorf("%s: err = %v, want ErrPluginHooks", name, err)
		}
	}
	for name, in := range map[string]string{"not json": `{`, "an array": `[]`, "trailing": `{} {}`} {
		if _, err := SetPluginHooks([]byte(in), nil); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
