package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/hookwright/hookwright/internal/atomicfile"
	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
)

// setting is one key a command writes into the project config: the
// section, the field and its value.
type setting struct {
	section, key string
	value        any
}

// editProjectConfig sets each of sets in the project config of dir
// (.hookwright/config.json), keeping every other key, its value and the
// order of the keys; a missing file is created. A file that is not a
// valid config is left alone and the error says why: hwctl never
// overwrites what it cannot read. The write is atomic and confined to the
// project (a .hookwright or config.json that is a symlink out of it is an
// error). It returns the file's path.
func editProjectConfig(dir string, sets ...setting) (string, error) {
	path := filepath.Join(dir, config.File)
	old, err := safepath.ReadFile(safepath.Path{Root: dir, Rel: filepath.FromSlash(config.File)}, config.MaxSize)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		old = []byte("{}")
	case err != nil:
		return path, err
	default:
		if _, err := config.Parse(old); err != nil {
			return path, fmt.Errorf("%s: %w; fix it first (hwctl leaves a file it cannot read as it is)", path, err)
		}
	}
	data := bytes.TrimSpace(old)
	for _, s := range sets {
		v, err := json.Marshal(s.value)
		if err != nil {
			return path, err
		}
		if data, err = setMember(data, []string{s.section, s.key}, v); err != nil {
			return path, fmt.Errorf("%s: %w", path, err)
		}
	}
	var out bytes.Buffer
	if err := json.Indent(&out, data, "", "  "); err != nil {
		return path, err
	}
	out.WriteByte('\n')
	if _, err := config.Parse(out.Bytes()); err != nil {
		return path, fmt.Errorf("the change would make %s invalid: %w", path, err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return path, err
	}
	defer root.Close()
	if err := root.Mkdir(config.Dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return path, fmt.Errorf("creating %s: %w", filepath.Join(dir, config.Dir), err)
	}
	sub, err := root.OpenRoot(config.Dir)
	if err != nil {
		return path, fmt.Errorf("%s: %w", filepath.Join(dir, config.Dir), err)
	}
	defer sub.Close()
	if info, err := sub.Lstat(filepath.Base(config.File)); err == nil && !info.Mode().IsRegular() {
		return path, fmt.Errorf("%s is not a regular file; hwctl writes no config through it", path)
	}
	return path, atomicfile.WriteIn(sub, filepath.Base(config.File), out.Bytes(), path)
}

// member is one key of a JSON object and its raw value.
type member struct {
	key   string
	value json.RawMessage
}

// members returns the members of the JSON object obj, in order.
func members(obj []byte) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("not a JSON object")
	}
	var out []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, member{tok.(string), v})
	}
	return out, nil
}

// setMember returns obj with the value at path set to v, creating the
// objects on the way; every other member keeps its place.
func setMember(obj []byte, path []string, v json.RawMessage) ([]byte, error) {
	ms, err := members(obj)
	if err != nil {
		return nil, err
	}
	val := v
	i := -1
	for k, m := range ms {
		if m.key == path[0] {
			i = k
		}
	}
	if len(path) > 1 {
		inner := []byte("{}")
		if i >= 0 {
			inner = bytes.TrimSpace(ms[i].value)
		}
		if val, err = setMember(inner, path[1:], v); err != nil {
			return nil, fmt.Errorf("%s: %w", path[0], err)
		}
	}
	if i >= 0 {
		ms[i].value = val
	} else {
		ms = append(ms, member{path[0], val})
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for k, m := range ms {
		if k > 0 {
			b.WriteByte(',')
		}
		key, _ := json.Marshal(m.key)
		b.Write(key)
		b.WriteByte(':')
		b.Write(m.value)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
