package planar

import (
	"fmt"
	"strings"

	"linkage/assembly"
	"linkage/flexbeam"
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

// setupBeams discretizes the valid flexible bodies and numbers their elastic coordinates
// from s.nq on.
func (s *System) setupBeams(m *Model, ck *assembly.Checker, names assembly.CatalogWriter) {
	for _, f := range m.flex {
		b := &s.bodies[f.body]
		if !checkBeam(ck, b.Name, &f.beam) {
			continue
		}
		inv := flexbeam.New(&f.beam)
		s.beams = append(s.beams, flexbeam.Body{Name: b.Name, Col: b.col, ECol: s.nq, Inv: inv})
		names.AddCoordinates(b.Name, inv.CoordNames...)
		s.nq += inv.NE
	}
}

// beamOf returns the discretized beam of body b, or nil.
func (s *System) beamOf(b BodyID) *flexbeam.Body {
	c := s.bodies[b].col
	for i := range s.beams {
		if s.beams[i].Col == c && c >= 0 {
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
		node = bd.Inv.NodeAt(mk.Point[0], beam.Length)
	}
	if node < 0 {
		xs := make([]string, len(bd.Inv.Nodes))
		for i, x := range bd.Inv.Nodes {
			xs[i] = fmt.Sprintf("%.6g", x)
		}
		ck.Bad("flexible body %q: %s: point %v is not a node of the beam (nodes at (x, 0) with x = %s)",
			bd.Name, label, mk.Point, strings.Join(xs, ", "))
		return
	}
	fm := &flexMarker{thcol: bd.Col + 2, slopeFree: len(bd.Inv.NodeSlope[node]) > 0}
	for dir, list := range [2][]flexbeam.Entry{bd.Inv.NodeU[node], bd.Inv.NodeW[node]} {
		for _, t := range list {
			fm.terms = append(fm.terms, offTerm{col: bd.ECol + t.I, dir: dir, c: t.V})
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
		addBeamBlock(out, &s.beams[i], false)
	}
	return out
}

// StrainEnergy returns ½ eᵀ K e of flexible body b at q (0 for a rigid body).
func (s *System) StrainEnergy(b BodyID, q []float64) float64 {
	bd := s.beamOf(b)
	if bd == nil {
		return 0
	}
	return bd.Inv.StrainEnergy(q[bd.ECol : bd.ECol+bd.Inv.NE])
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
	return bd.Inv.Frequencies()
}

// checkBeam reports every bad field of a beam to ck (flexbeam.Check) and whether it can
// be discretized.
func checkBeam(ck *assembly.Checker, body string, b *Beam) bool {
	bad := flexbeam.Check(body, b)
	for _, m := range bad {
		ck.Bad("%s", m)
	}
	return len(bad) == 0
}

// addBeamBlock sets the rows of the beam's frame and elastic coordinates in out to their
// union with the beam's block (new slices: rows of one rigid block share theirs): its
// frame rows read its frame and all its elastic columns, its elastic rows its frame and
// the band of M_ee (with coupling, of M_ee, B and K: ∂(M a)/∂q, ∂f/∂q and ∂f/∂v).
func addBeamBlock(out [][]int, bd *flexbeam.Body, coupling bool) {
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
	for k, band := range inv.Band(coupling) {
		cols := make([]int, len(band))
		for n, j := range band {
			cols[n] = ec + j
		}
		out[ec+k] = assembly.Columns(out[ec+k], frame, cols, []int{ec + k})
	}
}
