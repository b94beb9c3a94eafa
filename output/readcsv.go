package output

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// Columns are the channels of a results file by name, each with one value per row.
type Columns struct {
	Names []string
	Data  map[string][]float64
}

// Channel returns the values of the named channel, nil when the file has none.
func (c *Columns) Channel(name string) []float64 { return c.Data[name] }

// ReadCSV reads a CSV file as WriteCSV and CSVWriter write it: a header of channel names,
// then rows of numbers; lines starting with '#' (the mark of a failed run) are skipped.
// An error names the line and column of a value that is not a number.
func ReadCSV(r io.Reader) (*Columns, error) {
	cr := csv.NewReader(r)
	cr.Comment = '#'
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("empty file: want a header of channel names")
		}
		return nil, err
	}
	c := &Columns{Names: append([]string(nil), header...), Data: map[string][]float64{}}
	for _, n := range c.Names {
		if _, dup := c.Data[n]; dup {
			return nil, fmt.Errorf("line 1: channel %q appears twice", n)
		}
		c.Data[n] = []float64{}
	}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return c, nil
		}
		if err != nil {
			return nil, err
		}
		line, _ := cr.FieldPos(0)
		for i, field := range rec {
			v, err := strconv.ParseFloat(field, 64)
			if err != nil {
				return nil, fmt.Errorf("line %d, column %d (%s): %q is not a number", line, i+1, c.Names[i], field)
			}
			c.Data[c.Names[i]] = append(c.Data[c.Names[i]], v)
		}
	}
}
