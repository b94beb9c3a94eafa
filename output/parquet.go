package output

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/parquet-go/parquet-go"
)

// Parquet keeps the results of runs with many channels or rows compact and typed: one
// required DOUBLE column per channel, Snappy-compressed. Parquet's schema lists a group's
// columns by name, so the channel order of the run ("t" first) is stored in the file's
// key-value metadata under ParquetChannelsKey; a failed run's message under
// ParquetFailureKey, where a CSV file has its "# run failed" line.
const (
	ParquetChannelsKey = "linkage.channels"
	ParquetFailureKey  = "linkage.failure"
)

// parquetBatch is the number of rows buffered before they are handed to the writer.
const parquetBatch = 1024

// ParquetWriter writes output rows to a Parquet file as they are made (see Parquet above).
// Its methods match CSVWriter's, so a run streams to either.
type ParquetWriter struct {
	w     *parquet.GenericWriter[any]
	col   []int // Parquet column index of channel i
	rows  []parquet.Row
	n     int // rows buffered in rows
	width int
	err   error
}

// NewParquetWriter starts a Parquet file on w with one column per channel name.
func NewParquetWriter(w io.Writer, names []string) (*ParquetWriter, error) {
	group := parquet.Group{}
	for _, n := range names {
		if _, dup := group[n]; dup {
			return nil, fmt.Errorf("output: parquet: channel %q appears twice", n)
		}
		group[n] = parquet.Required(parquet.Leaf(parquet.DoubleType))
	}
	schema := parquet.NewSchema("linkage", group)
	cfg, err := parquet.NewWriterConfig(schema, parquet.Compression(&parquet.Snappy),
		parquet.KeyValueMetadata(ParquetChannelsKey, strings.Join(names, ",")))
	if err != nil {
		return nil, fmt.Errorf("output: parquet: %w", err)
	}
	p := &ParquetWriter{w: parquet.NewGenericWriter[any](w, cfg), width: len(names), rows: make([]parquet.Row, parquetBatch)}
	cols := schema.Columns()
	for _, n := range names {
		p.col = append(p.col, slices.IndexFunc(cols, func(path []string) bool { return len(path) == 1 && path[0] == n }))
	}
	for i := range p.rows {
		p.rows[i] = make(parquet.Row, len(names))
	}
	return p, nil
}

// Row appends one row: values in the order of the names given to NewParquetWriter.
func (p *ParquetWriter) Row(values []float64) error {
	if p.err != nil {
		return p.err
	}
	if len(values) != p.width {
		return fmt.Errorf("output: parquet: row of %d values for %d channels", len(values), p.width)
	}
	row := p.rows[p.n]
	for i, v := range values {
		c := p.col[i]
		row[c] = parquet.DoubleValue(v).Level(0, 0, c)
	}
	p.n++
	if p.n == len(p.rows) {
		return p.writeBuffered()
	}
	return nil
}

func (p *ParquetWriter) writeBuffered() error {
	if p.n > 0 {
		if _, err := p.w.WriteRows(p.rows[:p.n]); err != nil {
			p.err = fmt.Errorf("output: parquet: %w", err)
		}
		p.n = 0
	}
	return p.err
}

// Comment records a note in the file's metadata (ParquetFailureKey): the failure of a run.
func (p *ParquetWriter) Comment(text string) error {
	p.w.SetKeyValueMetadata(ParquetFailureKey, text)
	return nil
}

// Flush writes the buffered rows and the file's footer; the writer takes no more rows.
func (p *ParquetWriter) Flush() error {
	if err := p.writeBuffered(); err != nil {
		return err
	}
	if err := p.w.Close(); err != nil {
		return fmt.Errorf("output: parquet: %w", err)
	}
	return nil
}

// ReadParquet reads a Parquet file written by ParquetWriter (of size bytes) into columns,
// in the channel order of its metadata (else the schema's).
func ReadParquet(r io.ReaderAt, size int64) (*Columns, error) {
	f, err := parquet.OpenFile(r, size)
	if err != nil {
		return nil, fmt.Errorf("not a Parquet file: %w", err)
	}
	var paths []string
	for _, c := range f.Schema().Columns() {
		paths = append(paths, strings.Join(c, "."))
	}
	c := &Columns{Names: paths, Data: map[string][]float64{}}
	if order, ok := f.Lookup(ParquetChannelsKey); ok {
		c.Names = strings.Split(order, ",")
	}
	for _, n := range paths {
		c.Data[n] = make([]float64, 0, f.NumRows())
	}
	rd := parquet.NewReader(f)
	defer rd.Close()
	buf := make([]parquet.Row, 256)
	for {
		n, err := rd.ReadRows(buf)
		for _, row := range buf[:n] {
			for _, v := range row {
				name := paths[v.Column()]
				c.Data[name] = append(c.Data[name], v.Double())
			}
		}
		if errors.Is(err, io.EOF) {
			return c, nil
		}
		if err != nil {
			return nil, fmt.Errorf("reading Parquet rows: %w", err)
		}
	}
}
