package output

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Table is a text table with a header row; cells are already formatted strings.
type Table struct {
	Header []string
	Rows   [][]string
}

// Add appends a row; values are formatted with %v, floats with %.4g.
func (t *Table) Add(cells ...any) {
	row := make([]string, len(cells))
	for i, c := range cells {
		switch x := c.(type) {
		case float64:
			row[i] = fmt.Sprintf("%.4g", x)
		case string:
			row[i] = x
		default:
			row[i] = fmt.Sprint(x)
		}
	}
	t.Rows = append(t.Rows, row)
}

// Write renders the table with columns padded to their widest cell (counted in runes),
// columns of numbers right-aligned and the others left-aligned.
func (t *Table) Write(w io.Writer) error {
	width := make([]int, len(t.Header))
	for i, h := range t.Header {
		width[i] = utf8.RuneCountInString(h)
	}
	for _, r := range t.Rows {
		for i, c := range r {
			if n := utf8.RuneCountInString(c); i < len(width) && n > width[i] {
				width[i] = n
			}
		}
	}
	numeric := make([]bool, len(t.Header)) // a column is right-aligned when all its cells are numbers
	for i := range numeric {
		numeric[i] = len(t.Rows) > 0
		for _, r := range t.Rows {
			if i < len(r) && r[i] != "" && !isNumber(r[i]) {
				numeric[i] = false
			}
		}
	}
	var b strings.Builder
	line := func(cells []string) {
		for i, c := range cells {
			if i > 0 {
				b.WriteString("  ")
			}
			pad := 0
			if i < len(width) {
				pad = width[i] - utf8.RuneCountInString(c)
			}
			switch {
			case i < len(numeric) && numeric[i]:
				b.WriteString(strings.Repeat(" ", pad) + c)
			case i == len(cells)-1:
				b.WriteString(c) // no trailing blanks
			default:
				b.WriteString(c + strings.Repeat(" ", pad))
			}
		}
		b.WriteByte('\n')
	}
	line(t.Header)
	sep := make([]string, len(t.Header))
	for i := range sep {
		sep[i] = strings.Repeat("-", width[i])
	}
	line(sep)
	for _, r := range t.Rows {
		line(r)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteMarkdown renders the table as a GitHub-flavoured Markdown table (for BENCHMARKS.md).
func (t *Table) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	b.WriteString("| " + strings.Join(t.Header, " | ") + " |\n|")
	for range t.Header {
		b.WriteString("---|")
	}
	b.WriteByte('\n')
	for _, r := range t.Rows {
		b.WriteString("| " + strings.Join(r, " | ") + " |\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// isNumber reports whether a cell reads as a number (it is then right-aligned).
func isNumber(c string) bool {
	_, err := strconv.ParseFloat(strings.TrimSuffix(c, "%"), 64)
	return err == nil
}
