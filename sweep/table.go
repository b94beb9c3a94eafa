package sweep

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"
)

// ParquetColumnsKey is the key-value metadata entry of a results table in Parquet that
// lists its columns in table order (Parquet's schema lists them by name).
const ParquetColumnsKey = "linkage.sweep.columns"

// record formats row as the fields of a CSV line: numbers with the fewest digits that
// read back exactly, so that a table read back and written again is the same bytes.
func (s *Spec) record(cols []column, row Row) []string {
	rec := []string{strconv.Itoa(row.Run)}
	for _, v := range row.Params {
		rec = append(rec, v.String())
	}
	rec = append(rec, row.Status, row.Error)
	for k, v := range row.Nums {
		if cols[1+len(row.Params)+2+k].kind == kindInt {
			rec = append(rec, strconv.FormatInt(int64(v), 10))
		} else {
			rec = append(rec, strconv.FormatFloat(v, 'g', -1, 64))
		}
	}
	return rec
}

// parseRecord reads a CSV line written by record.
func (s *Spec) parseRecord(cols []column, rec []string) (Row, error) {
	if len(rec) != len(cols) {
		return Row{}, fmt.Errorf("%d fields, want %d", len(rec), len(cols))
	}
	run, err := strconv.Atoi(rec[0])
	if err != nil {
		return Row{}, fmt.Errorf("run %q: %w", rec[0], err)
	}
	row := Row{Run: run}
	np := len(s.Parameters)
	for k := range np {
		if cols[1+k].kind == kindString {
			row.Params = append(row.Params, Value{Str: rec[1+k], IsString: true})
			continue
		}
		f, err := strconv.ParseFloat(rec[1+k], 64)
		if err != nil {
			return Row{}, fmt.Errorf("%s %q: %w", cols[1+k].name, rec[1+k], err)
		}
		row.Params = append(row.Params, Value{Num: f})
	}
	row.Status, row.Error = rec[1+np], rec[2+np]
	for k, f := range rec[3+np:] {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return Row{}, fmt.Errorf("%s %q: %w", cols[3+np+k].name, f, err)
		}
		row.Nums = append(row.Nums, v)
	}
	return row, nil
}

// csvLine formats one CSV line (with its newline).
func csvLine(rec []string) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	_ = w.Write(rec) // a bytes.Buffer does not fail
	w.Flush()
	return b.Bytes()
}

// WriteCSV writes the results table: the header and one line per row, rows in run order.
func (s *Spec) WriteCSV(w io.Writer, rows []Row) error {
	cols := s.columns()
	var b bytes.Buffer
	b.Write(csvLine(s.Columns()))
	for _, r := range rows {
		b.Write(csvLine(s.record(cols, r)))
	}
	_, err := w.Write(b.Bytes())
	return err
}

// WriteParquet writes the results table as Parquet: run, steps and rejected as INT64,
// numbers as DOUBLE, strings (status, error, string-valued parameters) as STRING, and
// the column order under ParquetColumnsKey.
func (s *Spec) WriteParquet(w io.Writer, rows []Row) error {
	cols := s.columns()
	group := parquet.Group{}
	for _, c := range cols {
		group[c.name] = parquet.Required(map[int]parquet.Node{kindInt: parquet.Int(64), kindFloat: parquet.Leaf(parquet.DoubleType), kindString: parquet.String()}[c.kind])
	}
	schema := parquet.NewSchema("linkage_sweep", group)
	cfg, err := parquet.NewWriterConfig(schema, parquet.Compression(&parquet.Snappy),
		parquet.KeyValueMetadata(ParquetColumnsKey, strings.Join(s.Columns(), ",")))
	if err != nil {
		return fmt.Errorf("sweep: parquet: %w", err)
	}
	pw := parquet.NewGenericWriter[any](w, cfg)
	paths := schema.Columns()
	at := make([]int, len(cols))
	for i, c := range cols {
		at[i] = slices.IndexFunc(paths, func(p []string) bool { return len(p) == 1 && p[0] == c.name })
	}
	for _, r := range rows {
		rec := make(parquet.Row, len(cols))
		for i, f := range s.fields(cols, r) {
			rec[at[i]] = f.Level(0, 0, at[i])
		}
		if _, err := pw.WriteRows([]parquet.Row{rec}); err != nil {
			return fmt.Errorf("sweep: parquet: %w", err)
		}
	}
	if err := pw.Close(); err != nil {
		return fmt.Errorf("sweep: parquet: %w", err)
	}
	return nil
}

// fields returns the Parquet values of row in column order.
func (s *Spec) fields(cols []column, r Row) []parquet.Value {
	out := []parquet.Value{parquet.Int64Value(int64(r.Run))}
	for _, v := range r.Params {
		if v.IsString {
			out = append(out, parquet.ByteArrayValue([]byte(v.Str)))
		} else {
			out = append(out, parquet.DoubleValue(v.Num))
		}
	}
	out = append(out, parquet.ByteArrayValue([]byte(r.Status)), parquet.ByteArrayValue([]byte(r.Error)))
	for k, v := range r.Nums {
		if cols[1+len(r.Params)+2+k].kind == kindInt {
			out = append(out, parquet.Int64Value(int64(v)))
		} else {
			out = append(out, parquet.DoubleValue(v))
		}
	}
	return out
}

// oneLine keeps an error on one line of the table: line breaks become "; ".
func oneLine(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(strings.TrimSpace(s), "\r", ""), "\n", "; ")
}

// readCSVLine splits one CSV line.
func readCSVLine(line string) ([]string, error) {
	r := csv.NewReader(strings.NewReader(line))
	r.FieldsPerRecord = -1
	return r.Read()
}
