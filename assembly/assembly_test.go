package assembly_test

import (
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/assembly"
	"linkage/dae"
)

// TestTarget: the same additions give the same entries in a dense matrix and in a sparse
// pattern's values; a zero outside the pattern is ignored, a nonzero panics naming the
// entry.
func TestTarget(t *testing.T) {
	p := dae.NewCSR([][]int{{0, 2}, {1}}, 2, 3, false)
	d := mat.NewDense(2, 3, []float64{9, 9, 9, 9, 9, 9})
	vals := []float64{9, 9, 9}
	for _, tg := range []assembly.Target{assembly.Dense(d), assembly.Sparse(&p, vals)} {
		tg.Zero()
		tg.Add(0, 2, 1.5)
		tg.Row(0).Add(0, -2)
		tg.Row(0).Add(2, 0.25)
		tg.Add(1, 1, 3)
		tg.Add(1, 0, 0) // a structural zero outside the pattern
	}
	if want := []float64{-2, 0, 1.75, 0, 3, 0}; !slices.Equal(d.RawMatrix().Data, want) {
		t.Errorf("dense %v, want %v", d.RawMatrix().Data, want)
	}
	if want := []float64{-2, 1.75, 3}; !slices.Equal(vals, want) {
		t.Errorf("sparse %v, want %v", vals, want)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "entry (1, 2) = 4 is outside the declared pattern") {
			t.Errorf("nonzero outside the pattern: recovered %v, want a panic naming entry (1, 2)", r)
		}
	}()
	tg := assembly.Sparse(&p, vals)
	tg.Add(1, 2, 4)
}

// TestEntries: a local pattern over a pair lands at the pair's columns, entries at a fixed
// (−1) column add nothing, every row holds its diagonal, and rows come out increasing
// without repeats.
func TestEntries(t *testing.T) {
	h := assembly.NewLocalPattern(4)
	h.Set(0, 0)
	h.Cross(1<<1, 1<<3) // (1, 3) and (3, 1)
	if got := h.Support(); got != 0b1011 {
		t.Errorf("Support = %b, want 1011", got)
	}
	e := assembly.NewEntries(6)
	e.AddLocal([]int{4, 2, -1, 0}, h) // entry 2 fixed
	e.AddLocal([]int{4, 2, -1, 0}, h) // twice: no repeats
	e.Add(5, 1)
	e.Add(-1, 3)
	want := [][]int{{0, 2}, {1}, {0, 2}, {3}, {4}, {1, 5}}
	for i, row := range e.Rows() {
		if !slices.Equal(row, want[i]) {
			t.Errorf("row %d: %v, want %v", i, row, want[i])
		}
	}
	b := assembly.NewLocalPattern(3)
	b.Block(0b101)
	if want := (assembly.LocalPattern{0b101, 0, 0b101}); !slices.Equal(b, want) {
		t.Errorf("Block = %b, want %b", b, want)
	}
}

// TestColumns: the union of pairs' columns is increasing, without −1.
func TestColumns(t *testing.T) {
	if got := assembly.Columns([]int{-1, 5, 3}, []int{3, 0, -1}); !slices.Equal(got, []int{0, 3, 5}) {
		t.Errorf("Columns = %v, want [0 3 5]", got)
	}
}

// TestChecker: each check words its error with the route and the element, and Err joins
// them in order.
func TestChecker(t *testing.T) {
	ck := assembly.NewChecker("toy")
	ck.Body(0, "ground")
	ck.Body(1, "arm")
	ck.Body(2, "arm")
	ck.Name("revolute", "pin", 1)
	ck.Name("tsda", "pin", 1)
	ck.Positive(`body "arm"`, "mass", -1)
	ck.SpringDamper(`tsda "s"`, 1, 2, "FreeLength", -0.5, true)
	markers := []int{1, 1, -1}
	ck.MarkerPair(`weld "w"`, 1, 2, markers)
	ck.MarkerPair(`weld "v"`, 1, 3, markers) // marker 3 was bad: reported with it, not here
	ck.Marker(`point-force "p"`, 7, markers)
	err := ck.Err()
	want := []string{
		`toy: body 2: duplicate body name "arm"`,
		`toy: tsda "pin": duplicate name (already a revolute)`,
		`toy: body "arm": mass = -1, want finite and > 0`,
		`toy: tsda "s": FreeLength = -0.5, want >= 0`,
		`toy: weld "w": markers 1 and 2 are both on body "arm"; want two different bodies`,
		`toy: point-force "p": marker 7 does not exist (markers 1..3)`,
	}
	if err == nil || err.Error() != strings.Join(want, "\n") {
		t.Errorf("errors:\n%v\nwant:\n%s", err, strings.Join(want, "\n"))
	}
}

// TestTargetAddRun: a run of columns adds the same entries as Add column by column, in a
// dense matrix and in a sparse pattern's values; a run with a column missing from the
// pattern panics naming the columns and the row.
func TestTargetAddRun(t *testing.T) {
	p := dae.NewCSR([][]int{{0, 2, 3, 4}, {1, 3}}, 2, 5, false)
	run := []float64{1.5, -2, 0.25}
	byRun := make([]float64, 6)
	d := mat.NewDense(2, 5, nil)
	for _, tg := range []assembly.Target{assembly.Dense(d), assembly.Sparse(&p, byRun)} {
		tg.Zero()
		tg.Add(0, 3, 1)
		tg.Row(0).AddRun(2, run)
		tg.Row(1).AddRun(3, run[:1])
	}
	byEntry := make([]float64, 6)
	tg := assembly.Sparse(&p, byEntry)
	tg.Add(0, 3, 1)
	for k, v := range run {
		tg.Add(0, 2+k, v)
	}
	tg.Add(1, 3, run[0])
	if want := []float64{0, 0, 1.5, -1, 0.25, 0, 0, 0, 1.5, 0}; !slices.Equal(d.RawMatrix().Data, want) {
		t.Errorf("dense %v, want %v", d.RawMatrix().Data, want)
	}
	if !slices.Equal(byRun, byEntry) {
		t.Errorf("sparse by run %v, by entry %v", byRun, byEntry)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "columns 1..3 of row 1 are not all in the declared pattern") {
			t.Errorf("run outside the pattern: recovered %v, want a panic naming columns 1..3 of row 1", r)
		}
	}()
	bad := assembly.Sparse(&p, byRun)
	bad.Row(1).AddRun(1, run)
}
