package manifests

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Object is a JSON object whose members keep the order they were added in.
type Object []Member

// Member is one key and value of an [Object].
type Member struct {
	Key   string
	Value any
}

// ErrNotJS is wrapped when a value has no JSON.stringify equivalent.
var ErrNotJS = errors.New("value has no JavaScript JSON form")

// MarshalJS returns exactly the bytes of JSON.stringify(v, null, 2) + "\n".
//
// v may be nil, bool, string, int, int64, float64, [Object], []Object,
// []string or []any of those. Strings are UTF-8; a lone UTF-16 surrogate may
// be given in its WTF-8 form (ED A0..BF 80..BF) and is written as \udXXX,
// as JavaScript does. Like JavaScript, MarshalJS escapes only '"', '\\' and
// control characters (\b \f \n \r \t by name, the rest as \u00XX), never
// '<', '>', '&' or U+2028/U+2029; it puts integer-like keys first in
// ascending order, as JavaScript objects do; it writes NaN and ±Inf as null.
// A duplicate key or invalid UTF-8 is an error wrapping [ErrNotJS].
func MarshalJS(v any) ([]byte, error) {
	var b strings.Builder
	if err := encode(&b, v, ""); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return []byte(b.String()), nil
}

// encode writes v at the given indentation.
func encode(b *strings.Builder, v any, indent string) error {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case string:
		return quote(b, x)
	case int:
		b.WriteString(strconv.Itoa(x))
	case int64:
		b.WriteString(jsNumber(float64(x)))
	case float64:
		b.WriteString(jsNumber(x))
	case Object:
		return encodeObject(b, x, indent)
	case []Object:
		return encodeArray(b, len(x), func(i int) any { return x[i] }, indent)
	case []string:
		return encodeArray(b, len(x), func(i int) any { return x[i] }, indent)
	case []any:
		return encodeArray(b, len(x), func(i int) any { return x[i] }, indent)
	default:
		return fmt.Errorf("%w: unsupported type %T", ErrNotJS, v)
	}
	return nil
}

func encodeArray(b *strings.Builder, n int, at func(int) any, indent string) error {
	if n == 0 {
		b.WriteString("[]")
		return nil
	}
	inner := indent + "  "
	b.WriteString("[\n")
	for i := 0; i < n; i++ {
		b.WriteString(inner)
		if err := encode(b, at(i), inner); err != nil {
			return err
		}
		if i < n-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString(indent + "]")
	return nil
}

func encodeObject(b *strings.Builder, o Object, indent string) error {
	if len(o) == 0 {
		b.WriteString("{}")
		return nil
	}
	members, err := jsOrder(o)
	if err != nil {
		return err
	}
	inner := indent + "  "
	b.WriteString("{\n")
	for i, m := range members {
		b.WriteString(inner)
		if err := quote(b, m.Key); err != nil {
			return err
		}
		b.WriteString(": ")
		if err := encode(b, m.Value, inner); err != nil {
			return err
		}
		if i < len(members)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString(indent + "}")
	return nil
}

// jsOrder returns o's members in JavaScript property order: array-index
// keys ascending, then the rest in insertion order.
func jsOrder(o Object) ([]Member, error) {
	seen := make(map[string]bool, len(o))
	var index, named []Member
	for _, m := range o {
		if seen[m.Key] {
			return nil, fmt.Errorf("%w: duplicate key %q", ErrNotJS, m.Key)
		}
		seen[m.Key] = true
		if _, ok := arrayIndex(m.Key); ok {
			index = append(index, m)
		} else {
			named = append(named, m)
		}
	}
	sort.SliceStable(index, func(i, j int) bool {
		a, _ := arrayIndex(index[i].Key)
		c, _ := arrayIndex(index[j].Key)
		return a < c
	})
	return append(index, named...), nil
}

// arrayIndex reports whether k is a canonical array index (0 .. 2^32-2).
func arrayIndex(k string) (uint64, bool) {
	if k == "" || len(k) > 10 || (len(k) > 1 && k[0] == '0') {
		return 0, false
	}
	n, err := strconv.ParseUint(k, 10, 64)
	if err != nil || n >= math.MaxUint32 {
		return 0, false
	}
	return n, true
}

const hexDigits = "0123456789abcdef"

// quote writes s as JSON.stringify writes a string.
func quote(b *strings.Builder, s string) error {
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			n, err := surrogates(b, s[i:])
			if err != nil {
				return fmt.Errorf("%w: string %q at byte %d: %w", ErrNotJS, s, i, err)
			}
			i += n
			continue
		}
		escapeRune(b, r)
		i += size
	}
	b.WriteByte('"')
	return nil
}

// escapeRune writes one valid rune, escaped as JSON.stringify does.
func escapeRune(b *strings.Builder, r rune) {
	switch r {
	case '"':
		b.WriteString(`\"`)
	case '\\':
		b.WriteString(`\\`)
	case '\b':
		b.WriteString(`\b`)
	case '\f':
		b.WriteString(`\f`)
	case '\n':
		b.WriteString(`\n`)
	case '\r':
		b.WriteString(`\r`)
	case '\t':
		b.WriteString(`\t`)
	default:
		if r < 0x20 {
			writeUnit(b, uint16(r))
			return
		}
		b.WriteRune(r)
	}
}

// writeUnit writes \uXXXX in lower case, as JavaScript does.
func writeUnit(b *strings.Builder, u uint16) {
	b.WriteString(`\u`)
	for shift := 12; shift >= 0; shift -= 4 {
		b.WriteByte(hexDigits[(u>>shift)&0xF])
	}
}

// surrogates handles a WTF-8 surrogate at the start of s: a high followed
// by a low one is a valid pair and is written as the character; a lone one
// is escaped. It returns the bytes consumed.
func surrogates(b *strings.Builder, s string) (int, error) {
	hi, ok := wtf8Surrogate(s)
	if !ok {
		return 0, errors.New("invalid UTF-8")
	}
	if hi < 0xDC00 && len(s) >= 6 {
		if lo, ok := wtf8Surrogate(s[3:]); ok && lo >= 0xDC00 {
			b.WriteRune(0x10000 + (rune(hi)-0xD800)<<10 + (rune(lo) - 0xDC00))
			return 6, nil
		}
	}
	writeUnit(b, hi)
	return 3, nil
}

// wtf8Surrogate decodes a 3-byte encoded surrogate code unit.
func wtf8Surrogate(s string) (uint16, bool) {
	if len(s) < 3 || s[0] != 0xED || s[1] < 0xA0 || s[1] > 0xBF || s[2] < 0x80 || s[2] > 0xBF {
		return 0, false
	}
	return 0xD000 | uint16(s[1]&0x3F)<<6 | uint16(s[2]&0x3F), true
}

// jsNumber formats f as JavaScript's Number.prototype.toString does.
func jsNumber(f float64) string {
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return "null"
	case f == 0:
		return "0"
	case f < 0:
		return "-" + jsNumber(-f)
	}
	// Shortest round-trip digits and exponent: f = 0.d1d2...dk × 10^n.
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	k := len(digits)
	x, _ := strconv.Atoi(exp)
	n := x + 1
	switch {
	case k <= n && n <= 21:
		return digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return "0." + strings.Repeat("0", -n) + digits
	}
	sign := "+"
	if n-1 < 0 {
		sign = "-"
	}
	exponent := sign + strconv.Itoa(abs(n-1))
	if k == 1 {
		return digits + "e" + exponent
	}
	return digits[:1] + "." + digits[1:] + "e" + exponent
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}
