package integrate

import "testing"

// TestSolvesInPlace: the reduced solve runs in the caller's right-hand side only when the
// kept rows reach their place there over pivot rows only and no run of the solution,
// copied to its columns in order, overwrites the source of a later one.
func TestSolvesInPlace(t *testing.T) {
	for _, c := range []struct {
		name       string
		rows, cols []span
		want       bool
	}{
		// The velocities' stage of an index-3 form with nq = 3: rows q (pivots) then a, λ
		// kept; columns q and λ kept, v eliminated. q's solution at b[3:6] goes to b[0:3],
		// λ's is where it belongs.
		{"velocity stage", spans(reducedIndex(10, []int{0, 1, 2})), spans(reducedIndex(10, []int{3, 4, 5})), true},
		// The accelerations' stage: the v rows (pivots) sit between q's and a's; q's rows
		// move onto them, b[3:10] is the reduced system, and its solution's runs (q, v
		// from b[3:9] to b[0:6]; λ in place) overwrite no later source.
		{"two runs of rows", spans(reducedIndex(10, []int{3, 4, 5})), spans(reducedIndex(10, []int{6, 7, 8})), true},
		// Pivot rows 0, 1 and 5: the kept rows 2..4 would move onto 3..5, kept rows too.
		{"rows move onto kept rows", spans(reducedIndex(8, []int{0, 1, 5})), spans(reducedIndex(8, []int{0, 1, 5})), false},
		// The first run's destination b[2:5] holds part of the second's source b[3:6].
		{"overwrites a later source", []span{{0, 0, 6}}, []span{{2, 0, 3}, {5, 3, 3}}, false},
		// The second run's destination b[3:6] is the first's source, read before: safe.
		{"overwrites an earlier source", []span{{0, 0, 9}}, []span{{0, 3, 3}, {3, 6, 3}}, true},
	} {
		if _, got := solvesInPlace(c.rows, c.cols); got != c.want {
			t.Errorf("%s: solvesInPlace(%v, %v) = %v, want %v", c.name, c.rows, c.cols, got, c.want)
		}
	}
}
