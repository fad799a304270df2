package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// pending are pages the README and the docs index link to that other
// branches of this round write; a link to one that exists is checked like
// any other. Remove a name once its page has landed.
var pending = map[string]string{}

var link = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)\)`)

// slug is GitHub's anchor for a heading: lower case, punctuation but - and
// _ dropped, blanks as -.
func slug(h string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(strings.TrimSpace(h)) {
		switch {
		case c == ' ':
			b.WriteRune('-')
		case c == '-' || c == '_' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c > 127:
			b.WriteRune(c)
		}
	}
	return b.String()
}

func anchors(text string) map[string]bool {
	out := map[string]bool{}
	in := false
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "```") {
			in = !in
		}
		if !in && strings.HasPrefix(l, "#") {
			out[slug(strings.TrimLeft(l, "# "))] = true
		}
	}
	return out
}

// TestDocLinks: every relative link and picture of the docs leads to a
// file that exists (and a heading that exists, for a #anchor), and every
// page of docs/ is linked from the README or the docs index.
func TestDocLinks(t *testing.T) {
	linked := map[string]bool{}
	for _, page := range append(pages(t), "plugin/README.md") {
		text := read(t, page)
		for _, m := range link.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			path := page
			if file != "" {
				path = filepath.ToSlash(filepath.Clean(filepath.Join(filepath.Dir(page), file)))
			}
			linked[path] = true
			if _, err := os.Stat(filepath.Join(root, path)); err != nil {
				if pending[path] != "" {
					continue
				}
				t.Errorf("%s links to %s, which does not exist", page, target)
				continue
			}
			if anchor != "" && strings.HasSuffix(path, ".md") && !anchors(read(t, path))[anchor] {
				t.Errorf("%s links to %s: %s has no heading #%s", page, target, path, anchor)
			}
		}
	}
	for _, page := range pages(t) {
		if strings.HasPrefix(page, "docs/") && page != "docs/README.md" && !linked[page] {
			t.Errorf("%s is linked from no other page: add it to docs/README.md (and the README's table if a user looks for it there)", page)
		}
	}
	for p := range pending {
		if !linked[p] {
			t.Errorf("%s is pending but linked from nowhere", p)
		}
	}
}
