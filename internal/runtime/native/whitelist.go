package native

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/hookwright/hookwright/hooks"
)

// Accepts checks a manifest's keys against the release table that go
// generate writes into package hooks from compat's matrix
// ([hooks.EventSince], [hooks.KeySince]): every
// top-level key, event, group key and handler key must be known and at or
// below release r. It returns the first offender, wrapping [ErrRejected].
// It checks names, not values; the band files are hookgen's output, which
// hookgen validates against the band's full schema.
func Accepts(manifest []byte, r Release) error {
	var file map[string]json.RawMessage
	if err := strictUnmarshal(manifest, &file); err != nil {
		return fmt.Errorf("%w: %v", ErrRejected, err)
	}
	if err := known("file", "", keys(file), r); err != nil {
		return err
	}
	var events map[string][]map[string]json.RawMessage
	if err := strictUnmarshal(file["hooks"], &events); err != nil {
		return fmt.Errorf("%w: hooks: %v", ErrRejected, err)
	}
	for _, ev := range keys(events) {
		since, ok := hooks.EventSince(hooks.Event(ev))
		if !ok {
			return fmt.Errorf("%w: unknown event %s", ErrRejected, ev)
		}
		if r.Less(since) {
			return fmt.Errorf("%w: event %s arrives in %s, after %s", ErrRejected, ev, since, r)
		}
		for _, g := range events[ev] {
			if err := known("group", ev, keys(g), r); err != nil {
				return err
			}
			var handlers []map[string]json.RawMessage
			if err := strictUnmarshal(g["hooks"], &handlers); err != nil {
				return fmt.Errorf("%w: %s hooks: %v", ErrRejected, ev, err)
			}
			for _, h := range handlers {
				if err := known("handler", ev, keys(h), r); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// known checks keys at one level.
func known(level, event string, ks []string, r Release) error {
	for _, k := range ks {
		since, ok := hooks.KeySince(level, k)
		where := level + " key " + k
		if event != "" {
			where = event + " " + where
		}
		if !ok {
			return fmt.Errorf("%w: unknown %s", ErrRejected, where)
		}
		if r.Less(since) {
			return fmt.Errorf("%w: %s arrives in %s, after %s", ErrRejected, where, since, r)
		}
	}
	return nil
}

func strictUnmarshal(data []byte, v any) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return fmt.Errorf("missing")
	}
	return json.Unmarshal(data, v)
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
