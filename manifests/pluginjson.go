package manifests

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// ErrPluginHooks is wrapped when plugin.json's "hooks" holds something
// hookgen did not write, which it will not overwrite.
var ErrPluginHooks = errors.New("plugin.json hooks")

// SetPluginHooks returns plugin.json with its "hooks" set to paths (the
// files of an [Install] beyond hooks/hooks.json), or without "hooks" when
// paths is empty. Every other member keeps its place and value; the file
// is written as JSON.stringify(v, null, 2) writes it.
//
// hookgen owns "hooks" only as far as it wrote it: a value that names
// anything else (an inline hooks object, or a file that is not a
// hooks/<release>.json of an install) is an error wrapping
// [ErrPluginHooks], and the file is left to its author.
func SetPluginHooks(pluginJSON []byte, paths []string) ([]byte, error) {
	obj, err := decodeObject(pluginJSON)
	if err != nil {
		return nil, fmt.Errorf("plugin.json: %w", err)
	}
	at := -1
	for i, m := range obj {
		if m.Key == "hooks" {
			at = i
		}
	}
	if at >= 0 {
		if err := ownHooks(obj[at].Value); err != nil {
			return nil, err
		}
	}
	switch {
	case len(paths) == 0 && at >= 0:
		obj = slices.Delete(obj, at, at+1)
	case len(paths) == 0:
	case at >= 0:
		obj[at].Value = slices.Clone(paths)
	default:
		obj = append(obj, Member{"hooks", slices.Clone(paths)})
	}
	return MarshalJS(obj)
}

// ownHooks accepts a "hooks" value hookgen may replace: a path, or a list
// of paths, of the form ./hooks/<release>.json.
func ownHooks(v any) error {
	var paths []any
	switch x := v.(type) {
	case string:
		paths = []any{x}
	case []any:
		paths = x
	default:
		return fmt.Errorf("%w: it holds hooks inline, which hookgen does not overwrite; move them into the spec", ErrPluginHooks)
	}
	for _, p := range paths {
		s, ok := p.(string)
		if !ok {
			return fmt.Errorf("%w: it holds hooks inline, which hookgen does not overwrite; move them into the spec", ErrPluginHooks)
		}
		if !installPath(s) {
			return fmt.Errorf("%w: it names %q, which hookgen did not write; move its handlers into the spec, or write hooks yourself", ErrPluginHooks, s)
		}
	}
	return nil
}

// installPath reports whether p is a file an Install names:
// ./hooks/<major>.<minor>.<patch>.json.
func installPath(p string) bool {
	v, ok := strings.CutPrefix(p, "./hooks/")
	if !ok {
		return false
	}
	v, ok = strings.CutSuffix(v, ".json")
	if !ok {
		return false
	}
	parts := strings.Split(v, ".")
	if len(parts) != 3 {
		return false
	}
	for _, n := range parts {
		if n == "" || strings.Trim(n, "0123456789") != "" {
			return false
		}
	}
	return true
}

// decodeObject reads a JSON object into an [Object], keeping member order
// and nested objects as Objects, so that MarshalJS writes it back in the
// same order. Numbers keep their text.
func decodeObject(data []byte) (Object, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	v, err := decodeValue(d)
	if err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errors.New("trailing data after the object")
	}
	obj, ok := v.(Object)
	if !ok {
		return nil, errors.New("not a JSON object")
	}
	return obj, nil
}

func decodeValue(d *json.Decoder) (any, error) {
	tok, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			obj := Object{}
			for d.More() {
				k, err := d.Token()
				if err != nil {
					return nil, err
				}
				v, err := decodeValue(d)
				if err != nil {
					return nil, err
				}
				key := k.(string)
				if i := slices.IndexFunc(obj, func(m Member) bool { return m.Key == key }); i >= 0 {
					obj[i].Value = v // JSON.parse keeps the last
					continue
				}
				obj = append(obj, Member{key, v})
			}
			_, err := d.Token()
			return obj, err
		case '[':
			arr := []any{}
			for d.More() {
				v, err := decodeValue(d)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			_, err := d.Token()
			return arr, err
		}
		return nil, fmt.Errorf("unexpected %v", t)
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i, nil
		}
		f, err := t.Float64()
		return f, err
	default:
		return t, nil // string, bool, nil
	}
}
