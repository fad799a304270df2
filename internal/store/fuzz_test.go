package store

import (
	"net/url"
	"strings"
	"testing"
	"time"
)

// FuzzFilterFromQuery: any query string is a filter or a one-line error,
// never a panic, and a filter's page size stays within MaxLimit.
func FuzzFilterFromQuery(f *testing.F) {
	for _, s := range []string{"decision=block&since=24h", "limit=5000", "since=7d&session=x", "before=-1", "since=2026-11-22", "after=9&event=Stop", "x=%00"} {
		f.Add(s)
	}
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		flt, err := FilterFromQuery(q, now)
		if err != nil {
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("error of more than one line: %q", err)
			}
			return
		}
		if flt.Limit < 0 || flt.Limit > MaxLimit || flt.Before < 0 || flt.After < 0 {
			t.Fatalf("filter out of range: %+v", flt)
		}
	})
}

// FuzzParseTeam: a team file in any shape parses or is ignored.
func FuzzParseTeam(f *testing.F) {
	f.Add([]byte(`{"team":"red","teammates":{"carol":{"status":"idle"}}}`))
	f.Add([]byte(`{"members":[{"name":"a","status":"active","last_seen":"2026-11-22T10:00:00Z"}]}`))
	f.Add([]byte(`{"teammates":[1,2]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		parseTeam(data)
	})
}
