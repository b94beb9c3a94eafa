package modelfile

import (
	"fmt"
	"math"
	"strings"

	"linkage/planar"
)

// flexible.go: a body's flexible key ⇒ checks by body and field, and the planar.Beam.

// rigidMass checks the mass and inertia a rigid body requires.
func (v *validator) rigidMass(p string, b Body) {
	for _, f := range []struct {
		key, what string
		x         float64
	}{{"mass", "mass (kg)", b.Mass}, {"inertia", "inertia (kg·m² about the centre of mass; 0 for a point mass)", b.Inertia}} {
		if !v.doc.has(p + "." + f.key) {
			v.errorf(p, "missing required key %q (a rigid body; a flexible one has the key flexible instead)", f.key)
			continue
		}
		if f.key == "inertia" {
			v.nonNegative(p+"."+f.key, f.what, f.x)
			continue
		}
		v.positive(p+"."+f.key, f.what, f.x)
	}
}

// flexible checks a flexible body: no mass or inertia (the beam's follow from its section
// and density), positive parameters, a whole number of elements or modes, a known frame
// and deformation, and no natural coordinates.
func (v *validator) flexible(p string, b Body) {
	fp := p + ".flexible"
	f := b.Flexible
	for _, k := range []string{"mass", "inertia"} {
		if v.doc.has(p + "." + k) {
			v.errorf(p+"."+k, "body %q: %s given for a flexible body; its mass and inertia follow from flexible's A, I, length and density", b.Name, k)
		}
	}
	if v.m.Coordinates == CoordinatesNatural {
		v.errorf(fp, "body %q: flexible bodies need coordinates: body or joint (the beam's frame is a body frame), not coordinates: %s; use coordinates: body", b.Name, v.m.Coordinates)
	}
	for _, c := range []struct {
		key string
		x   float64
	}{{"length", f.Length}, {"E", f.E}, {"A", f.A}, {"I", f.I}, {"density", f.Density}} {
		if !(c.x > 0) || math.IsInf(c.x, 0) {
			v.errorf(fp+"."+c.key, "body %q: flexible %s = %g; want a positive number", b.Name, c.key, c.x)
		}
	}
	switch {
	case v.doc.has(fp+".elements") && v.doc.has(fp+".modes"):
		v.errorf(fp, "body %q: both elements and modes given; want one of them", b.Name)
	case v.doc.has(fp + ".modes"):
		if f.Modes < 1 {
			v.errorf(fp+".modes", "body %q: flexible modes = %d; want a whole number ≥ 1", b.Name, f.Modes)
		}
		if f.Frame != FrameChord {
			v.errorf(fp+".frame", "body %q: Simeon's sine modes vanish at both ends; want frame: %s with modes", b.Name, FrameChord)
		}
	case f.Elements < 1:
		v.errorf(fp+".elements", "body %q: flexible elements = %d; want a whole number ≥ 1", b.Name, f.Elements)
	}
	if f.Frame != "" && f.Frame != FrameTangent && f.Frame != FrameChord {
		v.errorf(fp+".frame", "body %q: frame %q; want %q (clamped at the first end, the default) or %q (pinned at both ends)",
			b.Name, f.Frame, FrameTangent, FrameChord)
	}
	if f.Deformation != "" && f.Deformation != DeformationAxialLateral && f.Deformation != DeformationLateral {
		v.errorf(fp+".deformation", "body %q: deformation %q; want %q (the default) or %q", b.Name, f.Deformation,
			DeformationAxialLateral, DeformationLateral)
	}
}

// beam returns the planar.Beam of a validated flexible key.
func (f *Flexible) beam() planar.Beam {
	b := planar.Beam{Length: f.Length, Elements: f.Elements, Modes: f.Modes, E: f.E, A: f.A, I: f.I, Density: f.Density,
		NoAxial: f.Deformation == DeformationLateral}
	if f.Frame == FrameChord {
		b.Frame = planar.BeamChord
	}
	return b
}

// nodeMarker checks that a marker on a flexible body sits at one of its nodes.
func (v *validator) nodeMarker(p string, mk Marker, f *Flexible) {
	nodes := f.beam().Nodes()
	if len(nodes) == 0 {
		return // the beam itself is reported
	}
	xs := make([]string, len(nodes))
	for i, x := range nodes {
		if mk.Point[1] == 0 && math.Abs(mk.Point[0]-x) <= 1e-9*f.Length {
			return
		}
		xs[i] = fmt.Sprintf("%.6g", x)
	}
	v.errorf(p+".point", "marker %q on flexible body %q: point [%g, %g] is not a node; want [x, 0] with x one of %s",
		mk.Name, mk.Body, mk.Point[0], mk.Point[1], strings.Join(xs, ", "))
}
