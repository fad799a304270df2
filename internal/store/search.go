package store

import (
	"strings"
	"unicode"
)

// maxTerms caps the words of one search.
const maxTerms = 16

// ftsQuery turns what a user typed into an FTS5 query that cannot be
// anything but a list of words: it keeps the runs of letters and digits
// (what FTS5's unicode61 tokenizer indexes; every other character, quotes,
// parentheses, "*", "^", ":" and "-" included, separates words), quotes
// each and makes it a prefix, so that "git pu" finds "git push --force".
// Every word must match, in any of the indexed columns. ok is false when
// the text holds no word at all.
func ftsQuery(text string) (q string, ok bool) {
	words := strings.FieldsFunc(text, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsMark(r) || unicode.Is(unicode.Co, r))
	})
	if len(words) > maxTerms {
		words = words[:maxTerms]
	}
	var b strings.Builder
	for i, w := range words {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(`"` + w + `"*`)
	}
	return b.String(), len(words) > 0
}
