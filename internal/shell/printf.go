package shell

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Output returns the text src writes to its standard output when the
// parser can know it: what echo prints (escapes decoded, as echo -e and
// dash's echo do), what printf prints (its format applied to its
// arguments, escapes decoded), and the here-document or here-string a
// bare cat copies. A guard reads it as the script of the shell or
// interpreter it is piped into: printf '\x72\x6d -rf ~' | sh runs rm.
// Decoding escapes where a shell would not only ever shows more commands.
func Output(src Command) (string, bool) {
	switch src.Name() {
	case "echo":
		args := src.Args[1:]
		for len(args) > 0 && isEchoFlag(args[0].Text) {
			args = args[1:]
		}
		return DecodeEscapes(joinWords(args)), true
	case "printf":
		args := src.Args[1:]
		if len(args) > 0 && args[0].Text == "--" {
			args = args[1:]
		}
		words := make([]string, len(args))
		for i, a := range args {
			words[i] = a.Text
		}
		return printfText(words), true
	case "cat":
		if src.HasStdin {
			return src.Stdin, true
		}
	}
	return "", false
}

// isEchoFlag reports whether s is one of echo's options (-n, -e, -E and
// their combinations).
func isEchoFlag(s string) bool {
	if len(s) < 2 || s[0] != '-' {
		return false
	}
	for _, c := range s[1:] {
		if c != 'n' && c != 'e' && c != 'E' {
			return false
		}
	}
	return true
}

// maxOutput bounds the text printfText builds: a format repeated over
// many arguments cannot grow it past the command's own size by much.
const maxOutput = 1 << 20

// printfText applies printf's format (args[0]) to the rest of args: %b
// decodes its argument's escapes, every other conversion prints its
// argument as is, %% prints %, and the format repeats while arguments
// remain, as printf does.
func printfText(args []string) string {
	if len(args) == 0 {
		return ""
	}
	format, rest := args[0], args[1:]
	var b strings.Builder
	for b.Len() < maxOutput {
		used := 0
		for i := 0; i < len(format); i++ {
			c := format[i]
			switch {
			case c == '\\':
				i += decodeOne(format[i:], &b) - 1
			case c == '%' && i+1 < len(format):
				j := i + 1
				for j < len(format) && strings.IndexByte("-+ #0123456789.*", format[j]) >= 0 {
					j++
				}
				if j >= len(format) {
					b.WriteString(format[i:])
					i = j
					continue
				}
				switch format[j] {
				case '%':
					b.WriteByte('%')
				case 'b':
					if used < len(rest) {
						b.WriteString(DecodeEscapes(rest[used]))
					}
					used++
				default:
					if used < len(rest) {
						b.WriteString(rest[used])
					}
					used++
				}
				i = j
			default:
				b.WriteByte(c)
			}
		}
		if used == 0 || used >= len(rest) {
			break
		}
		rest = rest[used:]
	}
	return b.String()
}

// DecodeEscapes decodes the backslash escapes of printf's format and of
// echo -e: \n \t \r \a \b \e \f \v \\ \" \' \?, octal \NNN and \0NNN, hex
// \xHH, and \uHHHH and \UHHHHHHHH. An unknown escape stays as written.
func DecodeEscapes(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			i++
			continue
		}
		i += decodeOne(s[i:], &b)
	}
	return b.String()
}

// decodeOne decodes the escape at the start of s (s[0] is a backslash),
// writes it to b, and returns how many bytes it took.
func decodeOne(s string, b *strings.Builder) int {
	if len(s) < 2 {
		b.WriteByte('\\')
		return 1
	}
	if c, ok := simpleEscape(s[1]); ok {
		b.WriteByte(c)
		return 2
	}
	digits := func(start, max int, isDigit func(byte) bool) int {
		n := start
		for n < len(s) && n-start < max && isDigit(s[n]) {
			n++
		}
		return n
	}
	isOct := func(c byte) bool { return '0' <= c && c <= '7' }
	isHex := func(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }
	switch s[1] {
	case '0', '1', '2', '3', '4', '5', '6', '7':
		start := 1
		if s[1] == '0' {
			start = 2 // echo's \0NNN; printf's \0 alone is NUL
		}
		end := digits(start, 3, isOct)
		v, _ := strconv.ParseUint(s[start:end], 8, 16)
		if end == start {
			v = 0
		}
		b.WriteByte(byte(v))
		return end
	case 'x':
		end := digits(2, 2, isHex)
		if end == 2 {
			break
		}
		v, _ := strconv.ParseUint(s[2:end], 16, 8)
		b.WriteByte(byte(v))
		return end
	case 'u', 'U':
		max := 4
		if s[1] == 'U' {
			max = 8
		}
		end := digits(2, max, isHex)
		if end == 2 {
			break
		}
		v, _ := strconv.ParseUint(s[2:end], 16, 32)
		if v > utf8.MaxRune {
			v = utf8.RuneError
		}
		b.WriteRune(rune(v))
		return end
	}
	b.WriteString(s[:2])
	return 2
}

// simpleEscape returns the byte a one-letter escape stands for.
func simpleEscape(c byte) (byte, bool) {
	switch c {
	case 'n':
		return '\n', true
	case 't':
		return '\t', true
	case 'r':
		return '\r', true
	case 'a':
		return '\a', true
	case 'b':
		return '\b', true
	case 'e':
		return 0x1b, true
	case 'f':
		return '\f', true
	case 'v':
		return '\v', true
	case '\\', '"', '\'', '?':
		return c, true
	}
	return 0, false
}
