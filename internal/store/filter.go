package store

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hookwright/hookwright/internal/runtime/journal"
)

// ParseSince reads a --since value: a duration back from now ("90m",
// "24h", "7d") or a time ("2026-11-22", "2026-11-22T10:00:00Z").
func ParseSince(s string, now time.Time) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if days, ok := strings.CutSuffix(s, "d"); ok {
		if n, err := strconv.Atoi(days); err == nil && n >= 0 && n < 100000 {
			return now.AddDate(0, 0, -n), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	for _, layout := range []string{time.RFC3339Nano, time.DateTime, time.DateOnly} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("since %q: want a duration (90m, 24h, 7d) or a time (2026-11-22, 2026-11-22T10:00:00Z)", s)
}

// maxValue caps a filter value's length.
const maxValue = 256

// FilterFromQuery reads a Filter from URL query parameters: session,
// event, decision, kind, tool, agent, rule, handler, q (the search), since, until,
// before, after, limit. An unknown
// parameter or a bad value is an error of one line.
func FilterFromQuery(q url.Values, now time.Time) (Filter, error) {
	var f Filter
	for k, vs := range q {
		if len(vs) != 1 {
			return f, fmt.Errorf("parameter %q given %d times", k, len(vs))
		}
		v := vs[0]
		if len(v) > maxValue {
			return f, fmt.Errorf("parameter %q is longer than %d bytes", k, maxValue)
		}
		var err error
		switch k {
		case "session":
			f.Session = v
		case "event":
			f.Event = v
		case "decision":
			f.Decision = v
		case "kind":
			if !slices.Contains(journal.Kinds, v) {
				return f, fmt.Errorf("kind %q: want one of %s", v, strings.Join(journal.Kinds, ", "))
			}
			f.Kind = v
		case "tool":
			f.Tool = v
		case "agent":
			f.Agent = v
		case "handler":
			f.Handler = v
		case "rule":
			f.Rule = v
		case "q":
			f.Search = v
		case "since":
			f.Since, err = ParseSince(v, now)
		case "until":
			f.Until, err = ParseSince(v, now)
			if err != nil {
				err = fmt.Errorf("until%s", strings.TrimPrefix(err.Error(), "since"))
			}
		case "before":
			f.Before, err = positive(k, v, 1<<62)
		case "after":
			f.After, err = positive(k, v, 1<<62)
		case "limit":
			var n int64
			n, err = positive(k, v, MaxLimit)
			f.Limit = int(n)
		case "token":
			// the dashboard's access token, checked by the server
		default:
			return f, fmt.Errorf("unknown parameter %q (want session, event, decision, kind, tool, agent, rule, handler, q, since, until, before, after, limit)", k)
		}
		if err != nil {
			return f, err
		}
	}
	return f, nil
}

func positive(name, v string, maxN int64) (int64, error) {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 || n > maxN {
		return 0, fmt.Errorf("%s %q: want a whole number from 0 to %d", name, v, maxN)
	}
	return n, nil
}
