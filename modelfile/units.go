package modelfile

import "strings"

// ChannelUnit returns the SI unit of a channel of doc ("m", "rad/s", "N·m", …; "1" for
// the dimensionless Euler parameters). A residual mixes lengths and angles and says so
// ("m, rad"); a multiplier λ has the unit of its joint's coordinate's force: N·m for a
// revolute joint, N for a translational one.
func (doc *Document) ChannelUnit(name string) string {
	elem, suffix := splitChannel(name)
	switch elem {
	case "t":
		return "s"
	case "energy":
		return "J"
	case "residual":
		switch suffix {
		case "position":
			return "m, rad"
		case "velocity":
			return "m/s, rad/s"
		}
		return "m/s², rad/s²"
	}
	if u, ok := suffixUnits[suffix]; ok {
		return u
	}
	if suffix == "lambda" {
		return doc.lambdaUnit(elem)
	}
	if u := doc.forceChannelUnit(elem, suffix); u != "" {
		return u
	}
	if u := doc.flexibleChannelUnit(elem, suffix); u != "" {
		return u
	}
	return "SI"
}

// flexibleChannelUnit is the unit of a flexible body's elastic coordinate (m; rad for a
// slope; m for Simeon's mode amplitudes, which are lateral displacements) or strain energy
// (J), "" for other channels.
func (doc *Document) flexibleChannelUnit(elem, suffix string) string {
	if doc.Spatial != nil {
		return ""
	}
	for _, b := range doc.Model.Bodies {
		if b.Name != elem || b.Flexible == nil {
			continue
		}
		switch {
		case suffix == "strain_energy":
			return "J"
		case strings.HasPrefix(suffix, "slope"):
			return "rad"
		}
		return "m"
	}
	return ""
}

// suffixUnits are the units of body and joint-reaction channels, the same in 2D and 3D.
var suffixUnits = map[string]string{
	"x": "m", "y": "m", "z": "m", "theta": "rad",
	"p0": "1", "p1": "1", "p2": "1", "p3": "1",
	"vx": "m/s", "vy": "m/s", "vz": "m/s", "omega": "rad/s", "wx": "rad/s", "wy": "rad/s", "wz": "rad/s",
	"ax": "m/s²", "ay": "m/s²", "az": "m/s²", "alpha": "rad/s²",
	"fx": "N", "fy": "N", "fz": "N", "fx_local": "N", "fy_local": "N", "fz_local": "N",
	"torque": "N·m", "tx": "N·m", "ty": "N·m", "tz": "N·m", "tx_local": "N·m", "ty_local": "N·m", "tz_local": "N·m",
}

// lambdaUnit is the unit of the multiplier of motion or coupler elem: that of the force
// along the coordinate it drives.
func (doc *Document) lambdaUnit(elem string) string {
	joint := ""
	var motions []Motion
	if doc.Spatial != nil {
		motions = doc.Spatial.Motions
	} else {
		motions = doc.Model.Motions
		for _, j := range doc.Model.Joints {
			if j.Name == elem && j.Type == JointCoupler {
				joint = j.B
			}
		}
	}
	for _, m := range motions {
		if m.Name == elem {
			joint = m.Joint
		}
	}
	if doc.jointType(joint) == JointTranslational || doc.jointType(elem) == JointRollingDisk { // a rolling disk's row is a height
		return "N"
	}
	return "N·m"
}

func (doc *Document) jointType(name string) string {
	if doc.Spatial != nil {
		for _, j := range doc.Spatial.Joints {
			if j.Name == name {
				return j.Type
			}
		}
		return ""
	}
	for _, j := range doc.Model.Joints {
		if j.Name == name {
			return j.Type
		}
	}
	return ""
}

// forceChannelUnit is the unit of a force element's channel, "" when elem is none.
func (doc *Document) forceChannelUnit(elem, suffix string) string {
	typ := ""
	if doc.Spatial != nil {
		for _, f := range doc.Spatial.Forces {
			if f.Name == elem {
				typ = f.Type
			}
		}
	} else {
		for _, f := range doc.Model.Forces {
			if f.Name == elem {
				typ = f.Type
			}
		}
	}
	if len(forceSuffixes(typ)) == 0 {
		return "" // not a spring-damper: no channels
	}
	rotational := typ == ForceRSDA
	switch suffix {
	case "power":
		return "W"
	case "length", "deflection":
		if rotational {
			return "rad"
		}
		return "m"
	case "velocity":
		if rotational {
			return "rad/s"
		}
		return "m/s"
	case "force":
		if rotational {
			return "N·m"
		}
		return "N"
	case "torque":
		return "N·m"
	}
	return ""
}
