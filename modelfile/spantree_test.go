package modelfile

import (
	"slices"
	"testing"
)

// TestPassesWeighTheFrontiersJoints: each pass offers, in file order and once each, the
// joints at the bodies the last pass added, and at tells the bodies in the tree at the
// start of the pass from those that joined during it.
func TestPassesWeighTheFrontiersJoints(t *testing.T) {
	ends := [][2]string{{"b", "c"}, {"ground", "a"}, {"a", "b"}, {"c", "ground"}, {"a", "a"}}
	p := newPasses([]string{"ground"}, len(ends), func(k int) (string, string) { return ends[k][0], ends[k][1] })
	if got := p.next(); !slices.Equal(got, []int{1, 3}) {
		t.Fatalf("pass 1 weighs joints %v, want [1 3] (those at ground)", got)
	}
	p.join("a")
	p.join("c")
	if !p.at("ground") || p.at("a") {
		t.Errorf("pass 1: at(ground) = %t, at(a) = %t; want true, false", p.at("ground"), p.at("a"))
	}
	if got := p.next(); !slices.Equal(got, []int{0, 1, 2, 3, 4}) {
		t.Fatalf("pass 2 weighs joints %v, want [0 1 2 3 4] (those at a and c, once each)", got)
	}
	if !p.at("a") {
		t.Error("pass 2: a joined in pass 1 but is not in the tree")
	}
	if got := p.next(); len(got) != 0 {
		t.Errorf("a pass after one that added nothing weighs %v", got)
	}
}
