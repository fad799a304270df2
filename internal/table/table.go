// Package table prints the text tables of hookwright's tools so that they
// fit the terminal they are printed on.
//
// A [Table] has columns and rows of cells. [Table.Render] lays them out in
// a given width: every column first takes the width of its widest cell.
// When the whole is wider than the line, the columns that hold free text
// ([Column.Flex]: a command, a reason) give up width down to the width
// they keep ([Column.Keep]), each cell cut with "…"; if that is not
// enough, the columns that matter least are left out ([Column.Drop], the
// highest first) and the rest start over; once none is left to drop, the
// free text goes down to its minimum ([Column.Min]). A width of 0 or less
// is no limit: every cell in full, as --wide asks.
//
// Widths count runes; the tools make every cell one line of printable
// text (package termsafe) before it reaches a table.
package table

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/term"
)

// Gap is the space between two columns.
const Gap = 2

// Column describes one column.
type Column struct {
	// Name is the header.
	Name string
	// Flex: the column holds free text that may be cut to fit, down to
	// Min runes (at least the header's width, and 8 when Min is 0).
	Flex bool
	Min  int
	// Keep is the width a Flex column keeps before a column with a Drop
	// is left out (at least Min); 0 is Min.
	Keep int
	// Drop orders the columns left out when the line is too narrow even
	// with every Flex column at its minimum: the highest Drop goes first;
	// 0 is never left out.
	Drop int
	// Right aligns the column to the right (numbers).
	Right bool
}

// Table is a table being filled; the zero value has no columns.
type Table struct {
	Cols []Column
	// NoHeader leaves the header line out (the later batches of a table
	// printed as it grows).
	NoHeader bool
	// Indent is the number of blanks before every line (counted in the
	// width).
	Indent int
	rows   [][]string
}

// New returns a table with cols.
func New(cols ...Column) *Table { return &Table{Cols: cols} }

// Row adds a row; missing cells are empty, extra cells are ignored.
func (t *Table) Row(cells ...string) {
	row := make([]string, len(t.Cols))
	copy(row, cells)
	t.rows = append(t.rows, row)
}

// Len is the number of rows.
func (t *Table) Len() int { return len(t.rows) }

// Render writes the header and the rows in at most width columns per line
// (no limit when width <= 0), and returns what it left out: the names of
// the columns dropped, for a note such as "--wide shows them".
func (t *Table) Render(w io.Writer, width int) (dropped []string, err error) {
	n := len(t.Cols)
	if n == 0 {
		return nil, nil
	}
	widths := make([]int, n)
	for i, c := range t.Cols {
		widths[i] = runes(c.Name)
		for _, r := range t.rows {
			widths[i] = max(widths[i], runes(r[i]))
		}
	}
	shown := make([]bool, n)
	for i := range shown {
		shown[i] = true
	}
	if width > 0 {
		dropped = t.fit(widths, shown, max(width-t.Indent, 1))
	}
	var b strings.Builder
	line := func(cells []string) {
		b.Reset()
		b.WriteString(strings.Repeat(" ", t.Indent))
		last := -1
		for i := range cells {
			if shown[i] {
				last = i
			}
		}
		first := true
		for i, cell := range cells {
			if !shown[i] {
				continue
			}
			if !first {
				b.WriteString(strings.Repeat(" ", Gap))
			}
			first = false
			cell = cut(cell, widths[i])
			pad := strings.Repeat(" ", widths[i]-runes(cell))
			switch {
			case t.Cols[i].Right:
				b.WriteString(pad + cell)
			case i == last:
				b.WriteString(cell) // no trailing blanks
			default:
				b.WriteString(cell + pad)
			}
		}
		b.WriteByte('\n')
	}
	header := make([]string, n)
	for i, c := range t.Cols {
		header[i] = c.Name
	}
	if !t.NoHeader {
		line(header)
		if _, err := io.WriteString(w, b.String()); err != nil {
			return dropped, err
		}
	}
	for _, r := range t.rows {
		line(r)
		if _, err := io.WriteString(w, b.String()); err != nil {
			return dropped, err
		}
	}
	return dropped, nil
}

// fit shrinks the Flex columns and leaves out columns until the line fits
// width; it returns the names of the columns left out.
func (t *Table) fit(widths []int, shown []bool, width int) (dropped []string) {
	natural := slices.Clone(widths)
	for {
		copy(widths, natural)
		if t.shrink(widths, shown, width, t.keep) {
			return dropped
		}
		drop := -1
		for i, c := range t.Cols {
			if shown[i] && c.Drop > 0 && (drop < 0 || c.Drop > t.Cols[drop].Drop) {
				drop = i
			}
		}
		if drop < 0 {
			// The free text that keeps least is cut first, down to its
			// minimum; then the next.
			order := []int{}
			for i, c := range t.Cols {
				if shown[i] && c.Flex {
					order = append(order, i)
				}
			}
			slices.SortStableFunc(order, func(a, b int) int { return t.keep(a) - t.keep(b) })
			for _, i := range order {
				only := func(j int) int {
					if j == i {
						return t.min(j)
					}
					return widths[j]
				}
				if t.shrink(widths, shown, width, only) {
					break
				}
			}
			return dropped // at the minimum the line may still be too wide
		}
		shown[drop] = false
		dropped = append(dropped, t.Cols[drop].Name)
	}
}

// shrink takes width from the widest Flex column first, down to floor(i)
// each, until the shown columns fit width; it reports whether they do.
func (t *Table) shrink(widths []int, shown []bool, width int, floor func(int) int) bool {
	total := -Gap
	for i := range widths {
		if shown[i] {
			total += widths[i] + Gap
		}
	}
	over := total - width
	for over > 0 {
		best := -1
		for i, c := range t.Cols {
			if shown[i] && c.Flex && widths[i] > floor(i) && (best < 0 || widths[i] > widths[best]) {
				best = i
			}
		}
		if best < 0 {
			return false
		}
		// Down to the next widest column's width (or the floor), so that
		// the widest columns shrink together.
		next := floor(best)
		for i, c := range t.Cols {
			if i != best && shown[i] && c.Flex && widths[i] < widths[best] && widths[i] > next {
				next = widths[i]
			}
		}
		take := max(min(over, widths[best]-next), 1)
		widths[best] -= take
		over -= take
	}
	return true
}

// min is the narrowest column i may become.
func (t *Table) min(i int) int {
	c := t.Cols[i]
	m := c.Min
	if m == 0 {
		m = 8
	}
	return max(m, runes(c.Name))
}

// keep is the width column i keeps before columns are left out.
func (t *Table) keep(i int) int { return max(t.Cols[i].Keep, t.min(i)) }

func runes(s string) int { return utf8.RuneCountInString(s) }

// cut shortens s to n runes, ending it with "…" when it was longer.
func cut(s string, n int) string {
	if runes(s) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	i, k := 0, 0
	for k < n-1 {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		k++
	}
	return s[:i] + "…"
}

// Width is the line width for a table printed to w: 0 (no limit) with
// wide; else $COLUMNS when it is a positive number; else the width of the
// terminal w is; else 0, so that a table piped into a file or another
// program keeps every cell whole.
func Width(w io.Writer, wide bool, getenv func(string) string) int {
	if wide {
		return 0
	}
	if n, err := strconv.Atoi(strings.TrimSpace(getenv("COLUMNS"))); err == nil && n > 0 {
		return n
	}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 0 {
			return cols
		}
	}
	return 0
}

// Note is the line to print after a table that left columns out, or "",
// cut to width (no limit when width <= 0).
func Note(dropped []string, width int) string {
	if len(dropped) == 0 {
		return ""
	}
	note := fmt.Sprintf("--wide shows %d more: %s", len(dropped), strings.Join(dropped, ", "))
	if width > 0 {
		note = cut(note, width)
	}
	return note
}

// Wrap breaks text into lines of at most width runes at blanks (a word
// longer than the line stays whole), each line after the first indented
// by indent blanks; no limit when width <= 0.
func Wrap(text string, width, indent int) string {
	if width <= 0 || runes(text) <= width {
		return text
	}
	var b strings.Builder
	n := 0
	for i, w := range strings.Fields(text) {
		switch {
		case i == 0:
		case n+1+runes(w) > width:
			b.WriteString("\n" + strings.Repeat(" ", indent))
			n = indent
		default:
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += runes(w)
	}
	return b.String()
}
