package jsonscan

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestValue(t *testing.T) {
	tests := []struct {
		in         string
		atEOF      bool
		start, end int
		st         Status
	}{
		{`{"a":1}`, false, 0, 7, Complete},
		{`  {"a":[1,2,{"b":"}"}]} tail`, false, 2, 23, Complete},
		{`{"a":1`, false, 0, 6, Incomplete},
		{`{"a":1`, true, 0, 6, Incomplete},
		{`{"a" 1}`, false, 0, 5, Invalid},
		{`{x`, false, 0, 1, Invalid},
		{`{"a":"\q"}`, false, 0, 7, Invalid},
		{"{\"a\":\"\x01\"}", false, 0, 6, Invalid},
		{`{"a":"\u00e9"}`, false, 0, 14, Complete},
		{`{"a":"\u00`, false, 0, 10, Incomplete},
		{`123`, false, 0, 3, Incomplete},
		{`123`, true, 0, 3, Complete},
		{`-`, true, 0, 1, Invalid},
		{`1.`, true, 0, 2, Invalid},
		{`1.5e+3 `, false, 0, 6, Complete},
		{`tru`, true, 0, 3, Incomplete},
		{`trux`, true, 0, 3, Invalid},
		{`[1,]`, false, 0, 3, Invalid},
		{`{"a":1,}`, false, 0, 7, Invalid},
		{`[}`, false, 0, 1, Invalid},
		{"   ", true, 3, 3, Incomplete},
	}
	for _, tt := range tests {
		s, e, st := Value([]byte(tt.in), tt.atEOF)
		if s != tt.start || e != tt.end || st != tt.st {
			t.Errorf("Value(%q, %v) = %d, %d, %v; want %d, %d, %v", tt.in, tt.atEOF, s, e, st, tt.start, tt.end, tt.st)
		}
	}
}

// TestMaxDepth: the nesting limit is encoding/json's, to the level.
func TestMaxDepth(t *testing.T) {
	for _, d := range []int{MaxDepth - 1, MaxDepth, MaxDepth + 1} {
		for _, open := range []string{"[", `{"a":`} {
			close := map[string]string{"[": "]", `{"a":`: "}"}[open]
			data := []byte(strings.Repeat(open, d) + "1" + strings.Repeat(close, d))
			if got, want := Valid(data), json.Valid(data); got != want {
				t.Errorf("depth %d of %q: Valid = %v, json.Valid = %v", d, open, got, want)
			}
		}
	}
}

// FuzzValue holds the scan to encoding/json: Valid agrees with json.Valid,
// a complete value is valid on its own, and an invalid or unfinished scan
// of the whole input is never valid JSON.
func FuzzValue(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5e-3,true,false,null,"x\"y\u0041"]}`, ` [ ] `, `"\ud800"`, `-0`, `{"a":{}}x`, "\"\xff\"", `01`, `1e5`, `[1 2]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := Valid(data), json.Valid(data); got != want {
			t.Fatalf("Valid(%q) = %v, json.Valid = %v", data, got, want)
		}
		for _, atEOF := range []bool{false, true} {
			s, e, st := Value(data, atEOF)
			switch st {
			case Complete:
				if !json.Valid(data[s:e]) {
					t.Fatalf("Value(%q, %v) found %q, which json.Valid refuses", data, atEOF, data[s:e])
				}
			case Invalid, Incomplete:
				if st == Invalid || atEOF {
					if json.Valid(data) {
						t.Fatalf("Value(%q, %v) = %v, but json.Valid accepts it", data, atEOF, st)
					}
				}
			}
			if e < s || e > len(data) {
				t.Fatalf("Value(%q) = %d, %d out of range", data, s, e)
			}
		}
	})
}

func TestMembers(t *testing.T) {
	var got []string
	ok := Members([]byte(` {"a" : [1,"}"], "b\"c":{"d":null} ,"e":-1.5e3} `), func(k, v []byte) bool {
		got = append(got, string(k)+"="+string(v))
		return true
	})
	want := []string{`a=[1,"}"]`, `b\"c={"d":null}`, `e=-1.5e3`}
	if !ok || strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Members = %v, %q; want true, %q", ok, got, want)
	}
	n := 0
	Members([]byte(`{"a":1,"b":2}`), func(k, v []byte) bool { n++; return false })
	if n != 1 {
		t.Errorf("Members went on after f returned false: %d calls", n)
	}
	for _, s := range []string{`[1]`, `{"a":1`, `{"a":1} x`, `null`, ``} {
		if Members([]byte(s), func(k, v []byte) bool { return true }) {
			t.Errorf("Members(%q) = true for no valid object", s)
		}
	}
}
