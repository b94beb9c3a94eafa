package modelfile

import "strings"

// Channel suffixes. Body channels are the coordinates, velocities and accelerations of the
// centre of mass and the angle; joint channels are the reaction of the joint on body J
// (the body of marker J), in the global frame and in marker I's frame; motion and coupler
// channels are their multiplier λ (the driving force or torque, with the sign of −Gᵀλ); a
// cam joint adds its contact parameter u.
func bodySuffixes() []string {
	return []string{"x", "y", "theta", "vx", "vy", "omega", "ax", "ay", "alpha"}
}
func jointSuffixes() []string { return []string{"fx", "fy", "torque", "fx_local", "fy_local"} }

// forceSuffixes are the channels of a spring-damper element (law.SDReading): a TSDA's
// or RSDA's coordinate (length or angle), its deflection from the free value, its rate, the
// force (torque for an RSDA) and the power delivered to the bodies; a bushing's distance
// between its markers, the magnitudes of its force and moment, and its power. Other force
// elements have none.
func forceSuffixes(typ string) []string {
	switch typ {
	case ForceTSDA, ForceRSDA:
		return []string{"length", "deflection", "velocity", "force", "power"}
	case ForceBushing:
		return []string{"length", "force", "torque", "power"}
	}
	return nil
}

// flexibleSuffixes are the channels a flexible body adds to its frame's: its elastic
// coordinates (planar.Beam.ElasticCoordinates: nodal deflections u<i>, w<i> and slopes
// slope<i>, or Simeon's mode<j>, umid, uend) and its strain energy ½ eᵀ K e.
func flexibleSuffixes(b Body) []string {
	if b.Flexible == nil {
		return nil
	}
	var out []string
	for _, s := range b.Flexible.beam().ElasticCoordinates() {
		out = append(out, strings.TrimPrefix(s, "."))
	}
	return append(out, "strain_energy")
}

func energyChannels() []string {
	return []string{"energy.kinetic", "energy.potential", "energy.work_nc", "energy.work_driving", "energy.invariant"}
}
func residualChannels() []string {
	return []string{"residual.position", "residual.velocity", "residual.acceleration"}
}

// channelNames lists every output channel of m in a fixed order: bodies, joints, motions,
// force elements, markers, energies, residuals.
func channelNames(m *Model) []string {
	names := make([]string, 0, len(bodySuffixes())*len(m.Bodies)+len(jointSuffixes())*len(m.Joints)+len(m.Motions)+5*len(m.Forces)+
		len(markerSuffixes(2))*len(m.Markers)+8)
	eachChannel(m, func(elem, suffix string) { names = append(names, elem+"."+suffix) })
	return names
}

// eachChannel calls fn with the element (or marker, "energy", "residual") and suffix of
// every output channel of m, the channel elem + "." + suffix, in channelNames's order.
func eachChannel(m *Model, fn func(elem, suffix string)) {
	for _, b := range m.Bodies {
		for _, s := range bodySuffixes() {
			fn(b.Name, s)
		}
		for _, s := range flexibleSuffixes(b) {
			fn(b.Name, s)
		}
	}
	for _, j := range m.Joints {
		if m.Coordinates == CoordinatesJoint && j.Type == JointKnifeEdge {
			continue // a Pfaffian row of its body's frame, no load read on the joint route
		}
		suffixes := jointSuffixes()
		switch j.Type {
		case JointCoupler:
			suffixes = []string{"lambda"}
		case JointCam:
			suffixes = append(suffixes, "u") // the contact parameter, an algebraic variable
		}
		for _, s := range suffixes {
			fn(j.Name, s)
		}
	}
	for _, mo := range m.Motions {
		fn(mo.Name, "lambda")
	}
	for _, f := range m.Forces {
		for _, s := range forceSuffixes(f.Type) {
			fn(f.Name, s)
		}
	}
	for _, mk := range m.Markers {
		for _, s := range markerSuffixes(2) {
			fn(mk.Name, s)
		}
	}
	for _, c := range energyChannels() {
		fn("energy", strings.TrimPrefix(c, "energy."))
	}
	for _, c := range residualChannels() {
		fn("residual", strings.TrimPrefix(c, "residual."))
	}
}

// selectChannels returns the channels of valid that pattern names: the channel itself, or
// all channels of an element or marker ("crank", "energy", "residual", "crank.A"): those
// that are pattern + "." + a suffix without a dot, so that a body's name does not select
// the channels of its markers ("crank.A.x").
func selectChannels(valid []string, pattern string) []string {
	var out []string
	prefix := pattern + "." // once, not per channel
	for _, c := range valid {
		rest, ok := strings.CutPrefix(c, prefix)
		if c == pattern || ok && !strings.Contains(rest, ".") {
			out = append(out, c)
		}
	}
	return out
}

// defaultOutputs are the channels recorded when simulation.outputs is empty: every body's
// coordinates and the energies.
func defaultOutputs(m *Model) []string {
	var out []string
	for _, b := range m.Bodies {
		out = append(out, b.Name+".x", b.Name+".y", b.Name+".theta")
	}
	return append(out, energyChannels()...)
}

// OutputChannels resolves simulation.outputs (element names expand to their channels;
// empty selects the defaults) into channel names, without duplicates, in the order given.
func (m *Model) OutputChannels() []string {
	if len(m.Simulation.Outputs) == 0 {
		return defaultOutputs(m)
	}
	return resolveChannels(m, m.Simulation.Outputs)
}

// PlotChannels resolves simulation.plot; empty selects the first (up to 6) output channels.
func (m *Model) PlotChannels() []string {
	if len(m.Simulation.Plot) == 0 {
		out := m.OutputChannels()
		return out[:min(len(out), 6)]
	}
	return resolveChannels(m, m.Simulation.Plot)
}

// resolveChannels returns the channels the patterns select, in their order, without
// duplicates (patterns not empty).
//
// It selects as selectChannels does on channelNames(m), without forming every channel's
// name: when pattern p selects a channel elem.suffix (the channel itself, or p + "." + a
// rest without a dot), p starts with elem, since were p shorter than elem, that rest
// would hold the dot before suffix. So only the channels of elements that p starts with
// are named and tested (a 1000-bar chain has 22 000 channels).
func resolveChannels(m *Model, patterns []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range patterns {
		prefix := p + "."
		eachChannel(m, func(elem, suffix string) {
			if !strings.HasPrefix(p, elem) {
				return
			}
			c := elem + "." + suffix
			rest, ok := strings.CutPrefix(c, prefix)
			if (c == p || ok && !strings.Contains(rest, ".")) && !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		})
	}
	return out
}
