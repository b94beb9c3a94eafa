package flexbeam

import (
	"fmt"
	"math"

	"linkage/assembly"
)

// check.go: a Beam ⇒ its validation by body and field, its coordinates and nodes, and the
// pattern of a Body's block in a route's sparse matrices.

// Check reports every bad field of a beam, by body and field; ok is false when the
// beam cannot be discretized.
func Check(ck *assembly.Checker, body string, b *Beam) (ok bool) {
	what := fmt.Sprintf("flexible body %q", body)
	ok = true
	for _, f := range []struct {
		key string
		x   float64
	}{{"length", b.Length}, {"E", b.E}, {"A", b.A}, {"I", b.I}, {"density", b.Density}} {
		if !(f.x > 0) || math.IsInf(f.x, 0) {
			ck.Bad("%s: %s = %g, want finite and > 0", what, f.key, f.x)
			ok = false
		}
	}
	switch {
	case b.Elements < 0 || b.Modes < 0 || (b.Elements == 0) == (b.Modes == 0):
		ck.Bad("%s: elements = %d, modes = %d: want elements ≥ 1 or modes ≥ 1, not both", what, b.Elements, b.Modes)
		ok = false
	case b.Frame != Tangent && b.Frame != Chord:
		ck.Bad("%s: frame %d is neither tangent nor chord", what, b.Frame)
		ok = false
	case b.Modes > 0 && b.Frame != Chord:
		ck.Bad("%s: Simeon's sine modes vanish at both ends, so they need the chord frame", what)
		ok = false
	}
	return ok
}

// AddCoupling widens the rows of the coupling pattern out by the beam's block: ∂(M a)/∂q,
// ∂f/∂q and ∂f/∂v couple its frame with all its elastic coordinates and those among
// themselves through M_ee, B and K.
func (bd *Body) AddCoupling(out [][]int) { bd.addBlock(out, true) }

// AddMassPattern widens the rows of the mass pattern out by the beam's block of M: its frame
// rows read its frame and all its elastic columns, its elastic rows its frame and the band
// of M_ee.
func (bd *Body) AddMassPattern(out [][]int) { bd.addBlock(out, false) }

// addBlock sets the rows of the beam's frame and elastic coordinates in out to their
// union with the beam's block (new slices: rows of one rigid block share theirs).
func (bd *Body) addBlock(out [][]int, coupling bool) {
	inv, c, ec := bd.Inv, bd.Col, bd.ECol
	frame := []int{c, c + 1, c + 2}
	all := make([]int, 0, 3+inv.NE)
	all = append(all, frame...)
	for k := range inv.NE {
		all = append(all, ec+k)
	}
	for k := range 3 {
		out[c+k] = assembly.Columns(out[c+k], all)
	}
	band := make([][]int, inv.NE)
	lists := [][]Entry{inv.mee}
	if coupling {
		lists = append(lists, inv.b, inv.k)
	}
	for _, l := range lists {
		for _, t := range l {
			band[t.I] = append(band[t.I], ec+t.J)
			band[t.J] = append(band[t.J], ec+t.I)
		}
	}
	for k := range inv.NE {
		out[ec+k] = assembly.Columns(out[ec+k], frame, band[k], []int{ec + k})
	}
}

// ElasticCoordinates returns the suffixes of the beam's elastic coordinates in the order
// they follow the rigid coordinates in q (the coordinate of body "rod" is "rod" + suffix):
// ".u<i>", ".w<i>", ".slope<i>" at node i for elements; ".mode<j>", ".umid", ".uend" for
// Simeon's modes. It is nil for a beam Check refuses.
func (b Beam) ElasticCoordinates() []string {
	if !Check(assembly.NewChecker("flexbeam"), "", &b) {
		return nil
	}
	return New(&b).CoordNames
}

// Nodes returns the positions x of the beam's nodes along its frame's x axis, where its
// markers may sit (nil for a beam Check refuses).
func (b Beam) Nodes() []float64 {
	if !Check(assembly.NewChecker("flexbeam"), "", &b) {
		return nil
	}
	return New(&b).Nodes
}
