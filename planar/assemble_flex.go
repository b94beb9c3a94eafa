package planar

import (
	"fmt"
	"math"
	"strings"

	"linkage/assembly"
)

// assemble_flex.go: the flexible bodies of a Model ⇒ their elastic columns (after every
// rigid coordinate), the markers at their nodes and the elastic parts of revolute rows.

// flexOf returns the beam of body k, or nil for a rigid body.
func (m *Model) flexOf(k int) *Beam {
	for i := range m.flex {
		if int(m.flex[i].body) == k {
			return &m.flex[i].beam
		}
	}
	return nil
}

// checkBeam reports every bad field of a beam, by body and field; ok is false when the
// beam cannot be discretized.
func checkBeam(ck *assembly.Checker, body string, b *Beam) (ok bool) {
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
	case b.Frame != BeamTangent && b.Frame != BeamChord:
		ck.Bad("%s: frame %d is neither tangent nor chord", what, b.Frame)
		ok = false
	case b.Modes > 0 && b.Frame != BeamChord:
		ck.Bad("%s: Simeon's sine modes vanish at both ends, so they need the chord frame", what)
		ok = false
	}
	return ok
}

// setupBeams discretizes the valid flexible bodies and numbers their elastic coordinates
// from s.nq on.
func (s *System) setupBeams(m *Model, ck *assembly.Checker, names assembly.CatalogWriter) {
	for _, f := range m.flex {
		b := &s.bodies[f.body]
		if !checkBeam(ck, b.Name, &f.beam) {
			continue
		}
		inv := newBeamInv(&f.beam)
		s.beams = append(s.beams, beamData{name: b.Name, col: b.col, ecol: s.nq, inv: inv})
		names.AddCoordinates(b.Name, inv.coordNames...)
		s.nq += inv.ne
	}
}

// beamOf returns the discretized beam of body b, or nil.
func (s *System) beamOf(b BodyID) *beamData {
	c := s.bodies[b].col
	for i := range s.beams {
		if s.beams[i].col == c && c >= 0 {
			return &s.beams[i]
		}
	}
	return nil
}

// flexMarker resolves a marker on a flexible body to its node: an error names the body and
// the marker's point when it is not at a node.
func (s *System) resolveFlexMarker(ck *assembly.Checker, label string, k int, mk Marker, beam *Beam) {
	bd := s.beamOf(mk.Body)
	if bd == nil {
		return // the beam itself is reported
	}
	node := -1
	if mk.Point[1] == 0 {
		node = bd.inv.nodeAt(mk.Point[0], beam.Length)
	}
	if node < 0 {
		xs := make([]string, len(bd.inv.nodes))
		for i, x := range bd.inv.nodes {
			xs[i] = fmt.Sprintf("%.6g", x)
		}
		ck.Bad("flexible body %q: %s: point %v is not a node of the beam (nodes at (x, 0) with x = %s)",
			bd.name, label, mk.Point, strings.Join(xs, ", "))
		return
	}
	fm := &flexMarker{thcol: bd.col + 2, slopeFree: len(bd.inv.nodeSlope[node]) > 0}
	for dir, list := range [2][]entry{bd.inv.nodeU[node], bd.inv.nodeW[node]} {
		for _, t := range list {
			fm.terms = append(fm.terms, offTerm{col: bd.ecol + t.i, dir: dir, c: t.v})
		}
	}
	s.flexMarkers[k] = fm
}

// flexMarkerOf returns the flexible part of marker mk, nil for a marker off beams.
func (s *System) flexMarkerOf(mk MarkerID) *flexMarker {
	if mk < 1 || int(mk) > len(s.flexMarkers) {
		return nil
	}
	return s.flexMarkers[mk-1]
}

// checkFlexElement refuses an element that cannot follow a moving node (movingOK false:
// all but revolute joints, which get rowOffsets, and elements reading only angles) at one,
// and one that reads the markers' axes at a node whose slope is a coordinate.
func (s *System) checkFlexElement(ck *assembly.Checker, what string, movingOK, usesAxes bool, mks ...MarkerID) {
	for _, mk := range mks {
		fm := s.flexMarkerOf(mk)
		if fm == nil {
			continue
		}
		switch {
		case !movingOK && len(fm.terms) > 0:
			ck.Bad("%s: marker %d sits at a beam node that moves in the beam's frame; only revolute joints and elements reading only angles can attach there", what, mk)
		case usesAxes && fm.slopeFree:
			ck.Bad("%s: marker %d sits at a beam node whose slope is an elastic coordinate; an element reading the marker's axes cannot attach there (the node's rotation is not modelled in it)", what, mk)
		}
	}
}

// addRevoluteOffsets adds the elastic parts of the rows first (x) and first+1 (y) of a
// revolute joint between markers i and j.
func (s *System) addRevoluteOffsets(first int, i, j MarkerID) {
	for side, mk := range [2]MarkerID{i, j} {
		fm := s.flexMarkerOf(mk)
		if fm == nil || len(fm.terms) == 0 {
			continue
		}
		sigma := -1.0
		if side == 1 {
			sigma = 1
		}
		for comp := range 2 {
			s.offsets = append(s.offsets, rowOffset{row: first + comp, comp: comp, thcol: fm.thcol, sigma: sigma, terms: fm.terms})
		}
	}
}

// buildMassPattern returns nil without flexible bodies (M diagonal), else per row the
// columns of M: a beam's frame rows read its frame and all its elastic columns, its
// elastic rows its frame and the band of M_ee.
func (s *System) buildMassPattern() [][]int {
	if len(s.beams) == 0 {
		return nil
	}
	out := make([][]int, s.nq)
	for i := range s.beams {
		s.beams[i].addBlock(out, false)
	}
	return out
}

// addCoupling widens the rows of the coupling pattern out by the beam's block: ∂(M a)/∂q,
// ∂f/∂q and ∂f/∂v couple its frame with all its elastic coordinates and those among
// themselves through M_ee, B and K.
func (bd *beamData) addCoupling(out [][]int) { bd.addBlock(out, true) }

// addBlock sets the rows of the beam's frame and elastic coordinates in out to their
// union with the beam's block (new slices: rows of one rigid block share theirs).
func (bd *beamData) addBlock(out [][]int, coupling bool) {
	inv, c, ec := bd.inv, bd.col, bd.ecol
	frame := []int{c, c + 1, c + 2}
	all := make([]int, 0, 3+inv.ne)
	all = append(all, frame...)
	for k := range inv.ne {
		all = append(all, ec+k)
	}
	for k := range 3 {
		out[c+k] = assembly.Columns(out[c+k], all)
	}
	band := make([][]int, inv.ne)
	lists := [][]entry{inv.mee}
	if coupling {
		lists = append(lists, inv.b, inv.k)
	}
	for _, l := range lists {
		for _, t := range l {
			band[t.i] = append(band[t.i], ec+t.j)
			band[t.j] = append(band[t.j], ec+t.i)
		}
	}
	for k := range inv.ne {
		out[ec+k] = assembly.Columns(out[ec+k], frame, band[k], []int{ec + k})
	}
}

// ElasticCoordinates returns the suffixes of the beam's elastic coordinates in the order
// they follow the rigid coordinates in q (the coordinate of body "rod" is "rod" + suffix):
// ".u<i>", ".w<i>", ".slope<i>" at node i for elements; ".mode<j>", ".umid", ".uend" for
// Simeon's modes. It is nil for a beam Assemble would refuse.
func (b Beam) ElasticCoordinates() []string {
	if !checkBeam(assembly.NewChecker("planar"), "", &b) {
		return nil
	}
	return newBeamInv(&b).coordNames
}

// Nodes returns the positions x of the beam's nodes along its frame's x axis, where its
// markers may sit (nil for a beam Assemble would refuse).
func (b Beam) Nodes() []float64 {
	if !checkBeam(assembly.NewChecker("planar"), "", &b) {
		return nil
	}
	return newBeamInv(&b).nodes
}

// StrainEnergy returns ½ eᵀ K e of flexible body b at q (0 for a rigid body).
func (s *System) StrainEnergy(b BodyID, q []float64) float64 {
	bd := s.beamOf(b)
	if bd == nil {
		return 0
	}
	return bd.inv.strainEnergy(q[bd.ecol : bd.ecol+bd.inv.ne])
}

// BeamFrequencies returns the natural frequencies [rad/s] of flexible body b in its frame
// (the frame held fixed: clamped-free in the tangent frame, pinned-pinned in the chord
// frame), in increasing order; the last bounds the frequencies an integrator must damp or
// resolve. It is an error for a rigid body.
func (s *System) BeamFrequencies(b BodyID) ([]float64, error) {
	bd := s.beamOf(b)
	if bd == nil {
		return nil, fmt.Errorf("planar: body %d is not flexible", b)
	}
	return bd.inv.frequencies()
}
