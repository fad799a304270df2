package shell

import (
	"strconv"
	"strings"
)

// word reads one word at the current position: quotes removed, the
// substitutions in it parsed as nested commands. It leaves the offsets of
// the word's unquoted braces and commas in p.marks, and of its extglob
// groups in p.groups (see expandWord).
func (p *parser) word() Word {
	var w Word
	var b strings.Builder
	// An extglob pattern is read only in this word, not in the commands
	// nested in it; extAt is where the last unquoted ?*+@! ended.
	ext, extAt := p.ext, -1
	// at the start of a command only an assignment's value (A=!(x)) holds
	// a pattern: !(…) there is the negation of a subshell
	extAssign := p.extAssign
	p.ext, p.extAssign = false, false
	// set in p.marks and p.groups at the end, after nested words
	var marks braceMarks
	var groups []extglobGroup
	var quotes []int // where a quoted part starts (it may be empty: "")
	if p.has("<(") || p.has(">(") {
		st := p.pos
		p.pos += 2
		p.nested(')', "<(…)")
		w.Dynamic = true
		b.WriteString(p.src[st:min(p.pos, len(p.src))])
	}
	for !p.eof() {
		c := p.src[p.pos]
		if c == '(' && extAt == p.pos && (ext || extAssign && isAssignment(b.String())) {
			// bash with extglob on (the user's shell options, kept by
			// releases before 2.0.77) reads !(…) as a pattern of this
			// word; without it the line is a syntax error and runs
			// nothing. Either way no subshell runs.
			w.Glob = true
			st := b.Len() - 1 // the operator
			if p.extglob(&b) {
				w.Dynamic = true
			}
			groups = append(groups, extglobGroup{st, b.Len()})
			continue
		}
		if isMeta(c) {
			break
		}
		switch c {
		case '\\':
			if p.peek(1) == '\n' {
				p.pos += 2
				continue
			}
			w.Quoted = true
			quotes = append(quotes, b.Len())
			p.pos++
			if !p.eof() {
				b.WriteByte(p.src[p.pos])
				p.pos++
			}
		case '\'':
			w.Quoted = true
			quotes = append(quotes, b.Len())
			end := strings.IndexByte(p.src[p.pos+1:], '\'')
			if end < 0 {
				p.s.fail(ErrSyntax)
				b.WriteString(p.src[p.pos+1:])
				p.pos = len(p.src)
				break
			}
			b.WriteString(p.src[p.pos+1 : p.pos+1+end])
			p.pos += end + 2
		case '"':
			w.Quoted = true
			quotes = append(quotes, b.Len())
			p.pos++
			if p.dquoted(&b, false) {
				w.Dynamic = true
			}
			if p.eof() {
				p.s.fail(ErrSyntax)
			} else {
				p.pos++
			}
		case '$':
			switch p.peek(1) {
			case '\'':
				w.Quoted = true
				quotes = append(quotes, b.Len())
				p.pos += 2
				p.ansiC(&b)
			case '"':
				w.Quoted = true
				quotes = append(quotes, b.Len())
				p.pos += 2
				if p.dquoted(&b, false) {
					w.Dynamic = true
				}
				if p.eof() {
					p.s.fail(ErrSyntax)
				} else {
					p.pos++
				}
			default:
				if p.dollar(&b) {
					w.Dynamic = true
				}
			}
		case '`':
			p.backtick(&b)
			w.Dynamic = true
		case '*', '?', '[':
			w.Glob = true
			b.WriteByte(c)
			p.pos++
			if c != '[' {
				extAt = p.pos
			}
		default:
			if c == '{' || c == ',' || c == '}' {
				marks = append(marks, b.Len())
			}
			b.WriteByte(c)
			p.pos++
			if c == '+' || c == '@' || c == '!' {
				extAt = p.pos
			}
		}
	}
	w.Text = b.String()
	p.marks, p.groups, p.quotes = marks, groups, quotes
	return w
}

// extglob reads an extglob pattern's parenthesised part, from '(' to its
// matching ')', as bash does: blanks, | and ; are text there, quotes are
// removed, and a substitution in it runs (its commands are read as nested
// ones). It reports whether a substitution was seen.
func (p *parser) extglob(b *strings.Builder) bool {
	dyn := false
	depth := 0
	for !p.eof() {
		c := p.src[p.pos]
		switch c {
		case '(':
			depth++
			b.WriteByte(c)
			p.pos++
		case ')':
			depth--
			b.WriteByte(c)
			p.pos++
			if depth == 0 {
				return dyn
			}
		case '\\':
			p.pos++
			if !p.eof() {
				b.WriteByte(p.src[p.pos])
				p.pos++
			}
		case '\'':
			end := strings.IndexByte(p.src[p.pos+1:], '\'')
			if end < 0 {
				p.s.fail(ErrSyntax)
				b.WriteString(p.src[p.pos+1:])
				p.pos = len(p.src)
				return dyn
			}
			b.WriteString(p.src[p.pos+1 : p.pos+1+end])
			p.pos += end + 2
		case '"':
			p.pos++
			if p.dquoted(b, false) {
				dyn = true
			}
			if !p.eof() {
				p.pos++
			}
		case '$':
			if p.peek(1) == '\'' {
				p.pos += 2
				p.ansiC(b)
			} else if p.dollar(b) {
				dyn = true
			}
		case '`':
			p.backtick(b)
			dyn = true
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
	p.s.fail(ErrSyntax)
	return dyn
}

// dquoted reads the inside of double quotes up to (not past) the closing
// quote, writing the value to b. It reports whether an expansion was seen.
// With open set there is no closing quote (a heredoc body): '"' is text.
func (p *parser) dquoted(b *strings.Builder, open bool) bool {
	dyn := false
	for !p.eof() {
		c := p.src[p.pos]
		switch c {
		case '"':
			if !open {
				return dyn
			}
			b.WriteByte(c)
			p.pos++
		case '\\':
			n := p.peek(1)
			switch {
			case n == '\n':
				p.pos += 2
			case n == '$' || n == '`' || n == '\\' || n == '"' && !open:
				b.WriteByte(n)
				p.pos += 2
			default:
				b.WriteByte('\\')
				p.pos++
			}
		case '$':
			if p.dollar(b) {
				dyn = true
			}
		case '`':
			p.backtick(b)
			dyn = true
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
	return dyn
}

// dollar reads an expansion starting at '$'. It writes its source text to
// b and reports whether it was an expansion (a lone '$' is text).
func (p *parser) dollar(b *strings.Builder) bool {
	st := p.pos
	switch n := p.peek(1); {
	case n == '(' && p.peek(2) == '(':
		p.pos += 3
		p.arith(')')
	case n == '[':
		// $[ … ]: bash's older spelling of $(( … ))
		p.pos += 2
		p.arith(']')
	case n == '(':
		p.pos += 2
		p.nested(')', "$(…)")
	case n == '{' && strings.IndexByte(" \t\n|", p.peek(2)) >= 0 && p.peek(2) != 0:
		// bash 5.3's command substitution in the current shell:
		// ${ cmd; } and ${| cmd; } run cmd (mksh has them too).
		p.pos += 3
		p.nested('}', "${ …}")
	case n == '{':
		p.pos += 2
		p.braced()
	case n == '_' || n >= 'a' && n <= 'z' || n >= 'A' && n <= 'Z':
		p.pos++
		for !p.eof() {
			c := p.src[p.pos]
			if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
				break
			}
			p.pos++
		}
	case n >= '0' && n <= '9' || strings.IndexByte("@*#?$!-", n) >= 0 && n != 0:
		p.pos += 2
	default:
		b.WriteByte('$')
		p.pos++
		return false
	}
	b.WriteString(p.src[st:min(p.pos, len(p.src))])
	return true
}

// braced reads ${…} after "${", with nested quotes and substitutions.
func (p *parser) braced() {
	p.nest++
	defer func() { p.nest-- }()
	if p.tooDeep() {
		return
	}
	var scratch strings.Builder
	for !p.eof() {
		switch p.src[p.pos] {
		case '}':
			p.pos++
			return
		case '\\':
			p.pos += 2
		case '\'':
			end := strings.IndexByte(p.src[p.pos+1:], '\'')
			if end < 0 {
				p.pos = len(p.src)
				p.s.fail(ErrSyntax)
				return
			}
			p.pos += end + 2
		case '"':
			p.pos++
			p.dquoted(&scratch, false)
			if !p.eof() {
				p.pos++
			}
		case '$':
			p.dollar(&scratch)
		case '`':
			p.backtick(&scratch)
		default:
			p.pos++
		}
	}
	p.pos = min(p.pos, len(p.src))
	p.s.fail(ErrSyntax)
}

// nested parses a $(…) or <(…) body up to close, as commands one level
// deeper, and moves past close.
func (p *parser) nested(close byte, via string) {
	if p.depth+1 > MaxDepth {
		p.s.fail(ErrDepth)
		// skip to the matching parenthesis, roughly
		depth := 1
		for !p.eof() && depth > 0 {
			switch p.src[p.pos] {
			case '(':
				depth++
			case ')':
				depth--
			}
			p.pos++
		}
		return
	}
	sub := &parser{s: p.s, src: p.src, pos: p.pos, depth: p.depth + 1, via: via, parent: holder, nest: p.nest}
	sub.list(close)
	p.pending = append(p.pending, sub.pending...)
	p.pos = sub.pos
	if p.eof() {
		p.s.fail(ErrSyntax)
		return
	}
	p.pos++
}

// backtick reads `…` and parses its body as nested commands.
func (p *parser) backtick(b *strings.Builder) {
	st := p.pos
	p.pos++
	var body strings.Builder
	closed := false
	for !p.eof() {
		c := p.src[p.pos]
		if c == '`' {
			p.pos++
			closed = true
			break
		}
		if c == '\\' && (p.peek(1) == '`' || p.peek(1) == '\\' || p.peek(1) == '$') {
			body.WriteByte(p.peek(1))
			p.pos += 2
			continue
		}
		body.WriteByte(c)
		p.pos++
	}
	if !closed {
		p.s.fail(ErrSyntax)
	}
	b.WriteString(p.src[st:p.pos])
	p.s.parse(body.String(), p.depth+1, "`…`", holder)
}

// ansiC reads the inside of $'…' (after "$'") and writes its value. As in
// bash, a NUL it produces (\0, \x00, \u0000, \c@) ends the value of this
// $'…': the rest of it up to the closing quote is dropped, and the word
// goes on after the quote ($'a\0b'c is "ac").
func (p *parser) ansiC(b *strings.Builder) {
	var seg strings.Builder
	p.ansiCSegment(&seg)
	v, _, _ := strings.Cut(seg.String(), "\x00")
	b.WriteString(v)
}

// ansiCSegment writes the value of one $'…' with its NULs, to the closing
// quote.
func (p *parser) ansiCSegment(b *strings.Builder) {
	for !p.eof() {
		c := p.src[p.pos]
		switch c {
		case '\'':
			p.pos++
			return
		case '\\':
			p.pos++
			if p.eof() {
				break
			}
			e := p.src[p.pos]
			p.pos++
			switch e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case 'a':
				b.WriteByte(7)
			case 'b':
				b.WriteByte(8)
			case 'e', 'E':
				b.WriteByte(27)
			case 'f':
				b.WriteByte(12)
			case 'v':
				b.WriteByte(11)
			case 'x':
				p.number(b, 16, 2)
			case 'u':
				p.number(b, 16, 4)
			case 'U':
				p.number(b, 16, 8)
			case '0', '1', '2', '3', '4', '5', '6', '7':
				p.pos--
				p.number(b, 8, 3)
			case 'c':
				if !p.eof() {
					b.WriteByte(p.src[p.pos] & 0x1f)
					p.pos++
				}
			default:
				b.WriteByte(e)
			}
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
	p.s.fail(ErrSyntax)
}

// number reads up to n digits in base and writes the character.
func (p *parser) number(b *strings.Builder, base, n int) {
	st := p.pos
	for p.pos < len(p.src) && p.pos-st < n && isDigit(p.src[p.pos], base) {
		p.pos++
	}
	if p.pos == st {
		b.WriteByte('\\')
		return
	}
	v, err := strconv.ParseUint(p.src[st:p.pos], base, 32)
	if err != nil {
		return
	}
	if base == 16 && n > 2 {
		b.WriteRune(rune(v))
	} else {
		b.WriteByte(byte(v))
	}
}

func isDigit(c byte, base int) bool {
	switch {
	case c >= '0' && c <= '7':
		return true
	case c == '8' || c == '9':
		return base >= 10
	case c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F':
		return base == 16
	}
	return false
}
