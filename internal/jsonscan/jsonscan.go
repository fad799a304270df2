// Package jsonscan finds and checks one JSON value in a byte slice, the
// way encoding/json's scanner accepts it, with no reflection and no pooled
// state. The hook runtime reads and checks its input once per process, and
// encoding/json's first use costs more than the scan itself (its scanner
// pool and the reflection walk of the target type); this package does the
// scan, and encoding/json stays the reference: FuzzValue holds the two
// together, and every caller falls back to encoding/json for anything this
// package does not accept, so error messages stay encoding/json's.
//
// Package hooks frames and checks its input with it (hooks.Read), and the
// exact-key tool input decoder splits objects with it; it is internal
// because no author imports it.
package jsonscan

// Status is what Value found.
type Status int

const (
	// Complete: data[start:end] is one valid JSON value.
	Complete Status = iota
	// Incomplete: data holds the valid beginning of a value (or only white
	// space); more bytes may complete it.
	Incomplete
	// Invalid: data[:end] cannot begin any JSON value; data[end] is the
	// first byte that says so (or nesting went past MaxDepth).
	Invalid
)

// MaxDepth is the deepest nesting encoding/json accepts.
const MaxDepth = 10000

// Value scans the JSON value at the start of data, after any white space.
// atEOF says that no byte follows data: a number at the very end is then
// complete (otherwise more digits may follow). start and end bound the
// value when st is Complete.
func Value(data []byte, atEOF bool) (start, end int, st Status) {
	const (
		expValue      = iota // a value
		expValueOrEnd        // after '[': a value or ']'
		expKeyOrEnd          // after '{': a key or '}'
		expKey               // after ',' in an object
		expColon             // after a key
		expCommaOrEnd        // after a value in a container
	)
	i := skipSpace(data, 0)
	start = i
	var stack []byte // '{' or '[' for each open container
	exp := expValue
	for {
		i = skipSpace(data, i)
		if i >= len(data) {
			return start, i, Incomplete
		}
		c := data[i]
		done := false // a value (scalar or container) ended at i
		switch exp {
		case expValue, expValueOrEnd:
			switch {
			case c == ']' && exp == expValueOrEnd:
				stack, i, done = stack[:len(stack)-1], i+1, true
			case c == '{' || c == '[':
				if len(stack) >= MaxDepth {
					return start, i, Invalid
				}
				stack = append(stack, c)
				i++
				if c == '{' {
					exp = expKeyOrEnd
				} else {
					exp = expValueOrEnd
				}
			default:
				n, s := scalar(data, i, atEOF && len(stack) == 0)
				if s != Complete {
					return start, n, s
				}
				i, done = n, true
			}
		case expKeyOrEnd, expKey:
			switch {
			case c == '}' && exp == expKeyOrEnd:
				stack, i, done = stack[:len(stack)-1], i+1, true
			case c == '"':
				n, s := str(data, i)
				if s != Complete {
					return start, n, s
				}
				i, exp = n, expColon
			default:
				return start, i, Invalid
			}
		case expColon:
			if c != ':' {
				return start, i, Invalid
			}
			i, exp = i+1, expValue
		case expCommaOrEnd:
			top := stack[len(stack)-1]
			switch {
			case c == ',':
				i++
				if top == '{' {
					exp = expKey
				} else {
					exp = expValue
				}
			case c == '}' && top == '{', c == ']' && top == '[':
				stack, i, done = stack[:len(stack)-1], i+1, true
			default:
				return start, i, Invalid
			}
		}
		if done {
			if len(stack) == 0 {
				return start, i, Complete
			}
			exp = expCommaOrEnd
		}
	}
}

// Valid reports whether data is one JSON value with nothing but white
// space around it, as json.Valid does.
func Valid(data []byte) bool {
	_, end, st := Value(data, true)
	return st == Complete && skipSpace(data, end) == len(data)
}

// Members calls f with the raw key (between its quotes, still escaped)
// and the raw value of each member of the JSON object data, in order,
// until f returns false. It reports false when data is not one valid JSON
// object.
func Members(data []byte, f func(key, value []byte) bool) bool {
	if !Valid(data) {
		return false
	}
	i := skipSpace(data, 0)
	if data[i] != '{' {
		return false
	}
	for i = skipSpace(data, i+1); data[i] != '}'; {
		_, end, _ := Value(data[i:], false)
		key := data[i+1 : i+end-1]
		i = skipSpace(data, i+end)
		i = skipSpace(data, i+1) // the colon
		vs, ve, _ := Value(data[i:], false)
		if !f(key, data[i+vs:i+ve]) {
			return true
		}
		i = skipSpace(data, i+ve)
		if data[i] == ',' {
			i = skipSpace(data, i+1)
		}
	}
	return true
}

// skipSpace returns the index of the first byte at or after i that is not
// JSON white space.
func skipSpace(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\r', '\n':
			i++
		default:
			return i
		}
	}
	return i
}

// scalar scans the string, number or literal at data[i].
func scalar(data []byte, i int, atEOF bool) (int, Status) {
	switch c := data[i]; {
	case c == '"':
		return str(data, i)
	case c == '-' || '0' <= c && c <= '9':
		return number(data, i, atEOF)
	case c == 't':
		return literal(data, i, "true")
	case c == 'f':
		return literal(data, i, "false")
	case c == 'n':
		return literal(data, i, "null")
	}
	return i, Invalid
}

// literal scans the literal word at data[i].
func literal(data []byte, i int, word string) (int, Status) {
	for k := 0; k < len(word); k++ {
		if i+k >= len(data) {
			return i + k, Incomplete
		}
		if data[i+k] != word[k] {
			return i + k, Invalid
		}
	}
	return i + len(word), Complete
}

// str scans the string at data[i] (a '"'): no control character, and only
// the escapes JSON has.
func str(data []byte, i int) (int, Status) {
	for i++; i < len(data); i++ {
		switch c := data[i]; {
		case c == '"':
			return i + 1, Complete
		case c < 0x20:
			return i, Invalid
		case c == '\\':
			i++
			if i >= len(data) {
				return i, Incomplete
			}
			switch data[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				for k := 1; k <= 4; k++ {
					if i+k >= len(data) {
						return i + k, Incomplete
					}
					if !isHex(data[i+k]) {
						return i + k, Invalid
					}
				}
				i += 4
			default:
				return i, Invalid
			}
		}
	}
	return i, Incomplete
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// number scans the number at data[i]: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
// Running out of bytes is Incomplete unless atEOF; then the number is
// complete if its last part is.
func number(data []byte, i int, atEOF bool) (int, Status) {
	end := func(i int, complete bool) (int, Status) {
		if i < len(data) || !atEOF {
			if i < len(data) {
				if complete {
					return i, Complete
				}
				return i, Invalid
			}
			return i, Incomplete
		}
		if complete {
			return i, Complete
		}
		return i, Invalid
	}
	digits := func(i int) int {
		for i < len(data) && '0' <= data[i] && data[i] <= '9' {
			i++
		}
		return i
	}
	if data[i] == '-' {
		i++
		if i >= len(data) {
			return end(i, false)
		}
	}
	switch {
	case data[i] == '0':
		i++
	case '1' <= data[i] && data[i] <= '9':
		i = digits(i + 1)
	default:
		return i, Invalid
	}
	if i < len(data) && data[i] == '.' {
		i++
		j := digits(i)
		if j == i {
			return end(j, false)
		}
		i = j
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		j := digits(i)
		if j == i {
			return end(j, false)
		}
		i = j
	}
	return end(i, true)
}
