package shell

import (
	"strconv"
	"strings"
)

// Brace expansion, as bash and zsh do it before any other expansion:
// an unquoted {a,b} or {1..3} in a word makes one word per item
// (rm -rf {/,x} runs rm -rf / x). sh (dash) does not expand braces; reading
// the expansion there too is the stricter reading.

// maxBraceWords bounds the words one word expands into, and maxBraceLen the
// length of a word that is expanded. Past either, the word is kept as
// written and marked Dynamic: its values are too many to judge one by one,
// so the guard judges it as a value it cannot know.
const (
	maxBraceWords = 256
	maxBraceLen   = 4096
)

// braceMarks are the offsets in a word's text of its unquoted '{', ','
// and '}': only those take part in brace expansion.
type braceMarks []int

// extglobGroup is where one extglob group (!(…), @(…), …) lies in a word's
// text: from its operator to its closing parenthesis, end excluded.
type extglobGroup struct{ start, end int }

// expandWord returns the words w stands for: its extglob groups replaced
// by plain globs (see extglobItems), then its braces expanded. marks,
// groups and quotes are what word recorded for w.
func expandWord(w Word, marks braceMarks, groups []extglobGroup, quotes []int) []Word {
	if len(groups) == 0 {
		return expandBraces(w, marks, quotes)
	}
	if len(w.Text) > maxBraceLen {
		w.Dynamic = true
		return []Word{w}
	}
	type form struct {
		text  string
		marks braceMarks
	}
	forms := []form{{}}
	at := 0
	for _, g := range groups {
		if g.start < at || g.end > len(w.Text) || g.start >= g.end {
			return []Word{w} // not what word records: keep the word
		}
		lit := w.Text[at:g.start]
		items := extglobItems(w.Text[g.start:g.end])
		var next []form
		for _, f := range forms {
			for _, it := range items {
				nf := form{text: f.text + lit + it, marks: append(braceMarks(nil), f.marks...)}
				for _, m := range marks {
					if m >= at && m < g.start {
						nf.marks = append(nf.marks, len(f.text)+m-at)
					}
				}
				next = append(next, nf)
				if len(next) > maxBraceWords {
					w.Dynamic = true
					return []Word{w}
				}
			}
		}
		forms, at = next, g.end
	}
	var out []Word
	for _, f := range forms {
		v := w
		v.Text = f.text + w.Text[at:]
		for _, m := range marks {
			if m >= at {
				f.marks = append(f.marks, len(f.text)+m-at)
			}
		}
		for _, x := range expandBraces(v, f.marks, nil) {
			if x.Text == "" {
				continue
			}
			if len(out) == maxBraceWords {
				w.Dynamic = true
				return []Word{w}
			}
			out = append(out, x)
		}
	}
	if len(out) == 0 {
		return []Word{w}
	}
	return out
}

// extglobItems returns plain globs that together match at least what the
// extglob group g (its operator, then the parenthesised patterns) matches:
// !(…) any name; @(a|b) a or b; ?(a|b) nothing, a or b; +(a|b) a or b
// followed by anything; *(a|b) that or nothing. A nested group makes its
// pattern any name.
func extglobItems(g string) []string {
	if len(g) < 3 || g[1] != '(' || g[len(g)-1] != ')' {
		return []string{"*"}
	}
	op := g[0]
	if op == '!' {
		return []string{"*"}
	}
	var alts []string
	depth, from := 0, 2
	inner := g[:len(g)-1]
	for i := 2; i <= len(inner); i++ {
		if i == len(inner) || inner[i] == '|' && depth == 0 {
			alts = append(alts, inner[from:i])
			from = i + 1
			continue
		}
		switch inner[i] {
		case '(':
			depth++
		case ')':
			depth--
		}
	}
	var out []string
	if op == '?' || op == '*' {
		out = append(out, "")
	}
	for _, a := range alts {
		if strings.ContainsAny(a, "()") {
			a = "*"
		}
		if op == '+' || op == '*' {
			a += "*"
		}
		out = append(out, a)
	}
	return out
}

// expandBraces returns the words w expands into. marks are the offsets in
// w.Text of its unquoted braces and commas, quotes those where a quoted part
// starts: a word made empty is removed unless it holds one ({"",/} keeps
// its "").
func expandBraces(w Word, marks braceMarks, quotes []int) []Word {
	if len(marks) < 3 { // no {x,y} without three marks
		if !hasSequence(w.Text, marks) {
			return []Word{w}
		}
	}
	if len(w.Text) > maxBraceLen {
		w.Dynamic = true
		return []Word{w}
	}
	text, special := w.Text, make([]bool, len(w.Text))
	for _, m := range marks {
		if m >= 0 && m < len(special) {
			special[m] = true
		}
	}
	// each quoted part leaves a NUL marked special where it starts, so that
	// the words made from it are known to be quoted (a real NUL in the word
	// makes every word count as quoted: none is removed)
	markQuotes := len(quotes) > 0 && strings.IndexByte(text, 0) < 0
	if markQuotes {
		var b strings.Builder
		sp := make([]bool, 0, len(special)+len(quotes))
		q := 0
		for i := 0; i <= len(text); i++ {
			if q < len(quotes) && quotes[q] == i {
				b.WriteByte(0)
				sp = append(sp, true)
				for q < len(quotes) && quotes[q] == i {
					q++
				}
			}
			if i < len(text) {
				b.WriteByte(text[i])
				sp = append(sp, special[i])
			}
		}
		text, special = b.String(), sp
	}
	n := 0
	texts, ok := braceExpand(text, special, &n)
	if !ok {
		w.Dynamic = true
		return []Word{w}
	}
	if len(texts) == 1 && texts[0] == text {
		return []Word{w}
	}
	out := make([]Word, 0, len(texts))
	for _, t := range texts {
		quoted := w.Quoted
		if markQuotes {
			quoted = strings.IndexByte(t, 0) >= 0
			t = strings.ReplaceAll(t, "\x00", "")
		}
		if t == "" && !quoted {
			continue // an unquoted empty word is removed: {,/} is /
		}
		v := w
		v.Text = t
		out = append(out, v)
	}
	return out // no word at all when every one was empty: echo {,} is echo
}

// hasSequence reports whether a word with fewer than three marks may still
// hold a sequence expression ({1..3} has two).
func hasSequence(text string, marks braceMarks) bool {
	return len(marks) == 2 && text[marks[0]] == '{' && text[marks[1]] == '}' && strings.Contains(text[marks[0]:marks[1]], "..")
}

// braceExpand expands the first brace expression of s (special marks the
// bytes that may delimit one) and, recursively, the rest. n counts the
// words made so far; it reports false once they pass maxBraceWords.
func braceExpand(s string, special []bool, n *int) ([]string, bool) {
	// one pass pairs each special '{' with its '}' and its commas
	type group struct {
		open, end int
		commas    []int
	}
	var groups []*group // in the order of their '{'
	var stack []*group
	for k := 0; k < len(s); k++ {
		if !special[k] {
			continue
		}
		switch s[k] {
		case '{':
			g := &group{open: k, end: -1}
			groups = append(groups, g)
			stack = append(stack, g)
		case '}':
			if len(stack) > 0 {
				stack[len(stack)-1].end = k
				stack = stack[:len(stack)-1]
			}
		case ',':
			if len(stack) > 0 {
				g := stack[len(stack)-1]
				g.commas = append(g.commas, k)
			}
		}
	}
	for _, g := range groups {
		i, end, commas := g.open, g.end, g.commas
		if end < 0 {
			continue // no closing brace: this one is text ({a{b,c} is {ab {ac)
		}
		prefix, suffix := s[:i], s[end+1:]
		var items []string
		var itemSpecial [][]bool
		if len(commas) > 0 {
			from := i + 1
			for _, c := range append(commas, end) {
				items = append(items, s[from:c])
				itemSpecial = append(itemSpecial, special[from:c])
				from = c + 1
			}
		} else if seq, ok := sequence(s[i+1 : end]); ok {
			items = seq
			if items == nil {
				return nil, false // too many
			}
		} else {
			continue // {x} or {}: literal; a later brace may expand
		}
		var out []string
		for j, it := range items {
			t := prefix + it + suffix
			sp := make([]bool, 0, len(t))
			sp = append(sp, special[:i]...)
			if itemSpecial != nil {
				sp = append(sp, itemSpecial[j]...)
			} else {
				sp = append(sp, make([]bool, len(it))...)
			}
			sp = append(sp, special[end+1:]...)
			// the prefix holds no expression (it was scanned); expand
			// what the item and the suffix hold
			words, ok := braceExpand(t, sp, n)
			if !ok {
				return nil, false
			}
			out = append(out, words...)
		}
		return out, true
	}
	*n++
	return []string{s}, *n <= maxBraceWords
}

// sequence reads a bash sequence expression (1..5, 05..10..2, a..e) and
// returns its items. ok is false when body is not one; items is nil when
// it holds more than maxBraceWords.
func sequence(body string) (items []string, ok bool) {
	parts := strings.Split(body, "..")
	if len(parts) != 2 && len(parts) != 3 {
		return nil, false
	}
	step := 1
	if len(parts) == 3 {
		s, err := strconv.Atoi(parts[2])
		if err != nil {
			return nil, false
		}
		if s < 0 {
			s = -s
		}
		if s == 0 {
			s = 1
		}
		step = s
	}
	a, errA := strconv.Atoi(parts[0])
	b, errB := strconv.Atoi(parts[1])
	if errA == nil && errB == nil {
		width := 0
		if pad(parts[0]) || pad(parts[1]) {
			width = max(len(parts[0]), len(parts[1]))
		}
		dir, span := 1, b-a
		if b < a {
			dir, span = -1, a-b
		}
		if span < 0 || span/step >= maxBraceWords { // span < 0: it overflowed
			return nil, true
		}
		for k := 0; k <= span/step; k++ {
			v := a + dir*k*step
			t := strconv.Itoa(v)
			if width > 0 {
				neg := v < 0
				t = strings.TrimPrefix(t, "-")
				w := width
				if neg {
					w--
				}
				for len(t) < w {
					t = "0" + t
				}
				if neg {
					t = "-" + t
				}
			}
			items = append(items, t)
		}
		return items, true
	}
	if len(parts[0]) == 1 && len(parts[1]) == 1 && isLetter(parts[0][0]) && isLetter(parts[1][0]) {
		x, y := int(parts[0][0]), int(parts[1][0])
		dir, span := 1, y-x
		if y < x {
			dir, span = -1, x-y
		}
		for k := 0; k <= span/step; k++ {
			items = append(items, string(rune(x+dir*k*step)))
		}
		return items, true
	}
	return nil, false
}

// pad reports whether a sequence bound asks for zero padding (01, -02).
func pad(s string) bool {
	s = strings.TrimPrefix(s, "-")
	return len(s) > 1 && s[0] == '0'
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
