package flexbeam

import (
	"fmt"
	"math"
)

// check.go: a Beam ⇒ its validation by body and field, its coordinates and nodes, and the
// band of its elastic block in a route's sparse patterns.

// Check returns what is wrong with each bad field of a beam, naming the body and the
// field; the beam can be discretized when it returns nothing.
func Check(body string, b *Beam) (bad []string) {
	what := fmt.Sprintf("flexible body %q", body)
	for _, f := range []struct {
		key string
		x   float64
	}{{"length", b.Length}, {"E", b.E}, {"A", b.A}, {"I", b.I}, {"density", b.Density}} {
		if !(f.x > 0) || math.IsInf(f.x, 0) {
			bad = append(bad, fmt.Sprintf("%s: %s = %g, want finite and > 0", what, f.key, f.x))
		}
	}
	switch {
	case b.Elements < 0 || b.Modes < 0 || (b.Elements == 0) == (b.Modes == 0):
		bad = append(bad, fmt.Sprintf("%s: elements = %d, modes = %d: want elements ≥ 1 or modes ≥ 1, not both", what, b.Elements, b.Modes))
	case b.Frame != Tangent && b.Frame != Chord:
		bad = append(bad, fmt.Sprintf("%s: frame %d is neither tangent nor chord", what, b.Frame))
	case b.Modes > 0 && b.Frame != Chord:
		bad = append(bad, fmt.Sprintf("%s: Simeon's sine modes vanish at both ends, so they need the chord frame", what))
	}
	return bad
}

// Band returns, for each elastic coordinate, the elastic coordinates its row of M_ee
// reads, and with coupling those of B and K too (the band of a route's sparse patterns).
func (inv *Invariants) Band(coupling bool) [][]int {
	band := make([][]int, inv.NE)
	lists := [][]Entry{inv.mee}
	if coupling {
		lists = append(lists, inv.b, inv.k)
	}
	for _, l := range lists {
		for _, t := range l {
			band[t.I] = append(band[t.I], t.J)
			band[t.J] = append(band[t.J], t.I)
		}
	}
	return band
}

// ElasticCoordinates returns the suffixes of the beam's elastic coordinates in the order
// they follow the rigid coordinates in q (the coordinate of body "rod" is "rod" + suffix):
// ".u<i>", ".w<i>", ".slope<i>" at node i for elements; ".mode<j>", ".umid", ".uend" for
// Simeon's modes. It is nil for a beam Check refuses.
func (b Beam) ElasticCoordinates() []string {
	if Check("", &b) != nil {
		return nil
	}
	return New(&b).CoordNames
}

// Nodes returns the positions x of the beam's nodes along its frame's x axis, where its
// markers may sit (nil for a beam Check refuses).
func (b Beam) Nodes() []float64 {
	if Check("", &b) != nil {
		return nil
	}
	return New(&b).Nodes
}
