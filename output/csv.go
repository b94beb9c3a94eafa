package output

import (
	"bufio"
	"io"
	"strconv"
	"strings"
)

// Channel is one named column of a CSV file: the value at sample k.
type Channel struct {
	Name  string
	Value func(k int) float64
}

// WriteCSV writes a header of channel names and one row per sample k < n. Floats are
// written in the shortest form that reads back exactly.
func WriteCSV(w io.Writer, n int, channels []Channel) error {
	names := make([]string, len(channels))
	for i, c := range channels {
		names[i] = c.Name
	}
	cw := NewCSVWriter(w, names)
	row := make([]float64, len(channels))
	for k := range n {
		for i, c := range channels {
			row[i] = c.Value(k)
		}
		if err := cw.Row(row); err != nil {
			return err
		}
	}
	return cw.Flush()
}

// CSVWriter writes a CSV file row by row, as the rows are made: a header of channel
// names, then the rows, each float in the shortest form that reads back exactly.
type CSVWriter struct {
	w   *bufio.Writer
	buf []byte
	err error // the first write error; later calls do nothing
}

// NewCSVWriter writes the header line of names to w (buffered: Flush at the end).
func NewCSVWriter(w io.Writer, names []string) *CSVWriter {
	// 64 KiB between writes: a 1000-bar chain's row is 60 KB, and at bufio's default
	// 4 KiB its rows took 1400 write calls per 100 rows, a few ms of system time.
	c := &CSVWriter{w: bufio.NewWriterSize(w, 64<<10), buf: make([]byte, 0, 32)}
	_, c.err = c.w.WriteString(strings.Join(names, ",") + "\n")
	return c
}

// Row writes one row of values.
func (c *CSVWriter) Row(values []float64) error {
	if c.err != nil {
		return c.err
	}
	for i, v := range values {
		if i > 0 {
			c.buf = append(c.buf, ',')
		}
		c.buf = strconv.AppendFloat(c.buf, v, 'g', -1, 64)
		if len(c.buf) > 4096 {
			c.flushBuf()
		}
	}
	c.buf = append(c.buf, '\n')
	c.flushBuf()
	return c.err
}

func (c *CSVWriter) flushBuf() {
	if c.err == nil {
		_, c.err = c.w.Write(c.buf)
	}
	c.buf = c.buf[:0]
}

// Comment writes a line "# text" (text on one line); readers that take # for comments,
// such as numpy.loadtxt and pandas.read_csv(comment="#"), skip it.
func (c *CSVWriter) Comment(text string) error {
	if c.err == nil {
		_, c.err = c.w.WriteString("# " + strings.ReplaceAll(text, "\n", " ") + "\n")
	}
	return c.err
}

// Flush writes what is buffered.
func (c *CSVWriter) Flush() error {
	if c.err == nil {
		c.err = c.w.Flush()
	}
	return c.err
}
