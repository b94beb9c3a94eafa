package planar

import (
	"linkage/assembly"
	"linkage/flexbeam"
)

// flexbody.go: a flexible body of a Model (seed 003), whose beam terms are package
// flexbeam's; assemble_flex.go numbers its coordinates and flexjoint.go puts its nodes in
// revolute rows.

// Beam makes a body flexible (flexbeam.Beam: a planar, linearized Euler–Bernoulli beam
// along the body frame's x axis from its origin).
type Beam = flexbeam.Beam

// BeamFrame chooses the floating frame of a beam (flexbeam.Frame).
type BeamFrame = flexbeam.Frame

const (
	// BeamTangent is the tangent frame: the beam is clamped in its frame at node 0.
	BeamTangent = flexbeam.Tangent
	// BeamChord is the chord frame: the beam is pinned-pinned in its frame, whose x axis is
	// the chord of its ends.
	BeamChord = flexbeam.Chord
)

// flexSpec is a flexible body as added to a Model.
type flexSpec struct {
	body BodyID
	beam Beam
}

// AddFlexibleBody adds a body made flexible by beam (see Beam): b.Pos and b.Angle are the
// initial guesses of the frame's origin (node 0) and angle; b.Mass and b.Inertia are not
// used (the beam's follow from its length, section and density). Markers on it must sit at
// nodes, (x_i, 0) in the frame.
func (m *Model) AddFlexibleBody(b Body, beam Beam) BodyID {
	id := m.AddBody(b)
	m.flex = append(m.flex, flexSpec{body: id, beam: beam})
	return id
}

// rotateSC rotates v by the angle with sine sn and cosine cs.
func rotateSC(v Vec, sn, cs float64) Vec { return Vec{cs*v[0] - sn*v[1], sn*v[0] + cs*v[1]} }

// perp is S v, v rotated by π/2.
func perp(v Vec) Vec { return Vec{-v[1], v[0]} }

// beamTarget returns dst as the flexbeam.Matrix the beams add to: kept in the System, so
// that the interface holds a pointer and a step allocates nothing.
func (s *System) beamTarget(dst assembly.Target) flexbeam.Matrix {
	s.beamDst = dst
	return &s.beamDst
}
