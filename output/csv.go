package output

import (
	"bufio"
	"io"
	"strconv"
)

// Channel is one named column of a CSV file: the value at sample k.
type Channel struct {
	Name  string
	Value func(k int) float64
}

// WriteCSV writes a header of channel names and one row per sample k < n. Floats are
// written in the shortest form that reads back exactly.
func WriteCSV(w io.Writer, n int, channels []Channel) error {
	bw := bufio.NewWriter(w)
	for i, c := range channels {
		if i > 0 {
			bw.WriteByte(',')
		}
		bw.WriteString(c.Name)
	}
	bw.WriteByte('\n')
	buf := make([]byte, 0, 32)
	for k := range n {
		for i, c := range channels {
			if i > 0 {
				bw.WriteByte(',')
			}
			buf = strconv.AppendFloat(buf[:0], c.Value(k), 'g', -1, 64)
			bw.Write(buf)
		}
		if err := bw.WriteByte('\n'); err != nil {
			return err
		}
	}
	return bw.Flush()
}
