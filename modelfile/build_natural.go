package modelfile

import (
	"fmt"
	"math"

	"linkage/law"
	"linkage/natural"
)

// NaturalBuilt is the natural-coordinate part of a Built (coordinates: natural): the model
// and system of package natural and the names of its elements. Built's Integrated,
// Consistent and Start hold the rest.
type NaturalBuilt struct {
	Model  *natural.Model
	System *natural.System // the full system, every row included
	Bodies map[string]natural.BodyID
	Joints map[string]natural.JointID
	// Angles are the bodies' angles at the start in body coordinates, from which the
	// channels "body.theta" unwrap the angle read from the points (natural.System.Pose is
	// in (−π, π]) so that they read as in body coordinates.
	Angles map[string]float64
}

// assembleNatural builds doc in natural coordinates. The initial section is written in body
// coordinates (poses and velocities of bodies, initial.keep naming body coordinates), so the
// start is made consistent in body coordinates (the planar route and dae.Initialize, as for
// coordinates: body) and its poses and velocities place the points: both coordinate sets
// start from the same state of the same mechanism. The natural model is assembled first
// with the file's guesses, so that its own errors (an element held at two fixed points at
// the wrong distance) are reported as such rather than as a failed initialization.
func assembleNatural(doc *Document) (*Built, mechanism, error) {
	fromFile := func(name string) natural.Body {
		st := doc.Model.Initial.Bodies[name]
		return natural.Body{Pos: natural.Vec(st.Position), Angle: float64(st.Angle), Vel: natural.Vec(st.Velocity), AngVel: st.AngularVelocity}
	}
	if _, err := buildNatural(doc, fromFile); err != nil {
		return nil, nil, err
	}
	pb, err := bodyStart(doc)
	if err != nil {
		return nil, nil, err
	}
	angles := map[string]float64{}
	consistent := func(name string) natural.Body {
		id := pb.Bodies[name]
		pos, th := pb.System.Pose(id, pb.Start.Q)
		vel, om := pb.System.Pose(id, pb.Start.V)
		angles[name] = th
		return natural.Body{Pos: natural.Vec(pos), Angle: th, Vel: natural.Vec(vel), AngVel: om}
	}
	nb, err := buildNatural(doc, consistent)
	if err != nil {
		return nil, nil, err
	}
	nb.Angles = angles
	return &Built{Doc: doc, Natural: nb}, nb.System, nil
}

// bodyStart builds doc in body coordinates with its consistent start, from which the
// natural and joint routes read theirs.
func bodyStart(doc *Document) (*Built, error) {
	pb, psys, err := assemble(doc)
	if err != nil {
		return nil, err
	}
	return pb, pb.initialize(psys)
}

// buildNatural turns doc into a natural-coordinate model whose bodies start at guess(name)
// (pose and velocity) and assembles it.
func buildNatural(doc *Document, guess func(name string) natural.Body) (*NaturalBuilt, error) {
	m := &doc.Model
	nm := natural.NewModel()
	nm.SetGravity(natural.Vec(m.Gravity))
	nb := &NaturalBuilt{Model: nm, Bodies: map[string]natural.BodyID{groundName: natural.Ground}, Joints: map[string]natural.JointID{}}
	for _, body := range m.Bodies {
		g := guess(body.Name)
		g.Name, g.Mass, g.Inertia = body.Name, body.Mass, body.Inertia
		nb.Bodies[body.Name] = nm.AddBody(g)
	}
	markers := map[string]natural.MarkerID{}
	for _, mk := range m.Markers {
		markers[mk.Name] = nm.AddMarker(natural.Marker{Name: mk.Name, Body: nb.Bodies[mk.Body], Point: natural.Vec(mk.Point), Angle: float64(mk.Angle)})
	}
	for _, jt := range m.Joints {
		i, j := markers[jt.I], markers[jt.J]
		switch jt.Type {
		case JointRevolute:
			nb.Joints[jt.Name] = nm.AddRevolute(jt.Name, i, j)
		case JointTranslational:
			nb.Joints[jt.Name] = nm.AddTranslational(jt.Name, i, j)
		case JointDistance:
			nb.Joints[jt.Name] = nm.AddDistance(jt.Name, i, j, jt.Length)
		case JointWeld:
			nb.Joints[jt.Name] = nm.AddWeld(jt.Name, i, j)
		case JointPointOnLine:
			nb.Joints[jt.Name] = nm.AddPointOnLine(jt.Name, i, j)
		default: // validate refuses couplers with coordinates: natural
			return nil, fmt.Errorf("%s: joint %q: type %s is not available in natural coordinates", doc.File, jt.Name, jt.Type)
		}
	}
	c := compiler{doc: doc}
	c.motions(m.Motions, func(mo Motion, f law.Func) {
		nb.Joints[mo.Name] = nm.AddMotion(mo.Name, nb.Joints[mo.Joint], f)
	})
	for k, f := range m.Forces {
		p := fmt.Sprintf("forces[%d].", k)
		switch f.Type {
		case ForceTSDA:
			nm.AddTSDA(natural.TSDA{Name: f.Name, I: markers[f.I], J: markers[f.J], K: f.K, C: f.C, FreeLength: f.FreeLength,
				Actuator: c.fn(p+"actuator", f.Actuator), Spring: c.force(p+"spring", f.Spring), Damper: c.force(p+"damper", f.Damper)})
		case ForceRSDA:
			e := natural.RSDA{Name: f.Name, K: f.K, C: f.C, FreeAngle: float64(f.FreeAngle),
				Actuator: c.fn(p+"actuator", f.Actuator), Spring: c.force(p+"spring", f.Spring), Damper: c.force(p+"damper", f.Damper)}
			if f.Joint != "" {
				e.Joint = nb.Joints[f.Joint]
			} else {
				e.I, e.J = markers[f.I], markers[f.J]
			}
			nm.AddRSDA(e)
		case ForcePointForce:
			nm.AddPointForce(f.Name, markers[f.Marker], c.fn(p+"fx", f.Fx), c.fn(p+"fy", f.Fy), f.Frame != "body")
		case ForceTorque:
			nm.AddTorque(f.Name, nb.Bodies[f.Body], c.fn(p+"torque", f.Torque))
		case ForceBushing:
			nm.AddBushing(natural.Bushing{Name: f.Name, I: markers[f.I], J: markers[f.J],
				Kx: f.Kx, Ky: f.Ky, Ktheta: f.Ktheta, Cx: f.Cx, Cy: f.Cy, Ctheta: f.Ctheta})
		}
	}
	if err := c.err(); err != nil {
		return nil, err
	}
	sys, err := nm.Assemble()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", doc.File, err)
	}
	nb.System = sys
	return nb, nil
}

// naturalChannels returns the reader of body, joint and motion channels of a model in
// natural coordinates, named and valued as in body coordinates: a body's x, y, θ and their
// rates from its points (natural.System.Pose, Velocity, Acceleration; θ unwrapped from the
// start's angle along the run), spring-damper channels (natural.System.SpringDamperReadings),
// reactions (natural.System.Reaction) and multipliers.
func naturalChannels(b *Built) func(string) channelFunc {
	nb := b.Natural
	sys := nb.System
	rows := map[string][]int{}
	for _, e := range sys.Joints() {
		rows[e.Name] = e.Rows
	}
	frame := func(body string) planarFrame {
		id := nb.Bodies[body]
		if id == natural.Ground {
			return nil
		}
		return func(c *sample) ([2]float64, float64, [2]float64, float64) {
			r, th := sys.Pose(id, c.s.Q)
			v, w := sys.Velocity(id, c.s.Q, c.s.V)
			return r, th, v, w
		}
	}
	return func(name string) channelFunc {
		elem, suffix := splitChannel(name)
		if id, ok := nb.Bodies[elem]; ok {
			return naturalBodyChannel(sys, id, suffix, nb.Angles[elem])
		}
		if f, ok := planarMarkerChannel(&b.Doc.Model, frame, elem, suffix); ok {
			return f
		}
		if f, ok := b.forceChannel(sys.SpringDamperReadings, elem, suffix, 2); ok {
			return f
		}
		if suffix == "lambda" {
			row := rows[elem][0]
			return func(c *sample) float64 { return c.full[row] }
		}
		j := nb.Joints[elem]
		return func(c *sample) float64 {
			re := sys.Reaction(j, c.s.T, c.s.Q, c.s.V, c.s.A, c.full)
			return reactionValue(re.OnJ.Force, re.OnJ.Torque, re.OnJLocal.Force, suffix)
		}
	}
}

// naturalBodyChannel reads one body channel (bodySuffixes) of body id; the angle is unwrapped
// from theta0 by following it from sample to sample.
func naturalBodyChannel(sys *natural.System, id natural.BodyID, suffix string, theta0 float64) channelFunc {
	switch suffix {
	case "x", "y":
		k := int(suffix[0] - 'x')
		return func(c *sample) float64 { p, _ := sys.Pose(id, c.s.Q); return p[k] }
	case "vx", "vy":
		k := int(suffix[1] - 'x')
		return func(c *sample) float64 { p, _ := sys.Velocity(id, c.s.Q, c.s.V); return p[k] }
	case "ax", "ay":
		k := int(suffix[1] - 'x')
		return func(c *sample) float64 { p, _ := sys.Acceleration(id, c.s.Q, c.s.V, c.s.A); return p[k] }
	case "omega":
		return func(c *sample) float64 { _, w := sys.Velocity(id, c.s.Q, c.s.V); return w }
	case "alpha":
		return func(c *sample) float64 { _, a := sys.Acceleration(id, c.s.Q, c.s.V, c.s.A); return a }
	}
	prev := theta0
	return func(c *sample) float64 {
		_, th := sys.Pose(id, c.s.Q)
		prev = th + 2*math.Pi*math.Round((prev-th)/(2*math.Pi)) // the branch nearest the last sample
		return prev
	}
}

// reactionValue reads one reaction channel (jointSuffixes) from the load on body J.
func reactionValue(force [2]float64, torque float64, local [2]float64, suffix string) float64 {
	switch suffix {
	case "fx":
		return force[0]
	case "fy":
		return force[1]
	case "torque":
		return torque
	case "fx_local":
		return local[0]
	}
	return local[1]
}
