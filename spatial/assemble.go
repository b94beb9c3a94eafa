package spatial

import (
	"fmt"
	"math"

	"linkage/assembly"
)

// assemble.go: Model ⇒ System. Offsets into q (7 per moving body, in the order added),
// constraint rows (one normalization per body, then the joints' rows in the order joints
// were added) and every element's pair of markers are fixed here; evaluations only walk
// these flat slices.

// jointRows are the names and coordinates of each joint kind's rows (motions are built
// separately).
var jointRows = [...][]struct {
	suffix string
	c      coord
}{
	kindSpherical:     {{"x", dotCoord(vD, vE0)}, {"y", dotCoord(vD, vE1)}, {"z", dotCoord(vD, vE2)}},
	kindRevolute:      {{"x", dotCoord(vD, vE0)}, {"y", dotCoord(vD, vE1)}, {"z", dotCoord(vD, vE2)}, {"zx", dotCoord(vZI, vXJ)}, {"zy", dotCoord(vZI, vYJ)}},
	kindTranslational: {{"dx", dotCoord(vXI, vD)}, {"dy", dotCoord(vYI, vD)}, {"zx", dotCoord(vZI, vXJ)}, {"zy", dotCoord(vZI, vYJ)}, {"xy", dotCoord(vXI, vYJ)}},
	kindCylindrical:   {{"dx", dotCoord(vXI, vD)}, {"dy", dotCoord(vYI, vD)}, {"zx", dotCoord(vZI, vXJ)}, {"zy", dotCoord(vZI, vYJ)}},
	kindUniversal:     {{"x", dotCoord(vD, vE0)}, {"y", dotCoord(vD, vE1)}, {"z", dotCoord(vD, vE2)}, {"zz", dotCoord(vZI, vZJ)}},
	kindPlanar:        {{"d", dotCoord(vZI, vD)}, {"zx", dotCoord(vZI, vXJ)}, {"zy", dotCoord(vZI, vYJ)}},
	kindWeld:          {{"x", dotCoord(vD, vE0)}, {"y", dotCoord(vD, vE1)}, {"z", dotCoord(vD, vE2)}, {"zx", dotCoord(vZI, vXJ)}, {"zy", dotCoord(vZI, vYJ)}, {"xy", dotCoord(vXI, vYJ)}},
	kindDistance:      {{"d", coord{kind: coordDots, n: 1, dots: [2]dotTerm{{vD, vD, 0.5}}}}},
	kindPointOnLine:   {{"dx", dotCoord(vXI, vD)}, {"dy", dotCoord(vYI, vD)}},
	kindPointOnPlane:  {{"d", dotCoord(vZI, vD)}},
	kindMotion:        {{"c", coord{}}},
	kindRollingDisk:   {{"h", coord{kind: coordContact}}},
}

// Joint coordinates: the angle about z_I, the displacement along z_I.
var (
	angleCoord = coord{kind: coordAngle}
	alongCoord = dotCoord(vZI, vD)
)

// Assemble validates the model and builds its System. The error joins one message per bad
// element, each naming it: duplicate or empty names, non-positive or non-finite mass, an
// inertia tensor that is not symmetric positive definite, non-finite parameters, markers
// on missing bodies, zero marker axes, unknown markers or joints, a joint or element
// connecting a body to itself, a motion on a joint without a joint coordinate, missing
// functions.
func (m *Model) Assemble() (*System, error) {
	ck := assembly.NewChecker("spatial")
	bad := ck.Bad

	s := &System{gravity: m.gravity, nbody: len(m.bodies) - 1, sdRange: map[string][2]int{}}
	names := assembly.WriteCatalog(&s.Catalog)
	for k := range 3 {
		var e Vec3
		e[k] = 1
		s.axesQF[k] = newQuadForm(e)
	}
	if !finiteVec(m.gravity) {
		bad("gravity = %v is not finite", m.gravity)
	}
	s.bodies = make([]bodyData, len(m.bodies))
	for k, b := range m.bodies {
		s.bodies[k] = bodyData{Body: b, col: 7 * (k - 1)}
		ck.Body(k, b.Name)
		if k == 0 {
			s.bodies[k].col = -1
			names.AddBody(b.Name, "ground", nil)
			continue
		}
		ck.Positive(fmt.Sprintf("body %q", b.Name), "mass", b.Mass)
		if !positiveDefinite(b.Inertia) {
			bad("body %q: inertia = %v, want finite, symmetric and positive definite", b.Name, b.Inertia)
		}
		for _, x := range []float64{b.Pos[0], b.Pos[1], b.Pos[2], b.Orient[0], b.Orient[1], b.Orient[2], b.Orient[3],
			b.Vel[0], b.Vel[1], b.Vel[2], b.AngVel[0], b.AngVel[1], b.AngVel[2]} {
			if !finite(x) {
				bad("body %q: initial pose or velocity (%v, %v, %v, %v) is not finite", b.Name, b.Pos, b.Orient, b.Vel, b.AngVel)
				break
			}
		}
		names.AddCoordinates(b.Name, ".x", ".y", ".z", ".p0", ".p1", ".p2", ".p3")
		names.AddBody(b.Name, "body", []int{names.AddRow(b.Name + ".norm")})
	}
	s.nq = 7 * s.nbody
	s.nc = s.nbody

	markerBody := make([]int, len(m.markers)) // −1 for a bad marker (reported with it)
	s.markers = make([]markerData, len(m.markers))
	for k, mk := range m.markers {
		s.markers[k] = markerData{Marker: mk, col: -1}
		markerBody[k] = -1
		label := assembly.MarkerLabel(mk.Name, k+1)
		if !ck.MarkerBody(label, int(mk.Body), len(m.bodies)) {
			continue
		}
		if !finiteVec(mk.Point) || !finiteVec(mk.Axis) || !finiteVec(mk.XAxis) {
			bad("%s: point %v, axis %v or x axis %v is not finite", label, mk.Point, mk.Axis, mk.XAxis)
			continue
		}
		s.markers[k].frame = newMarkerFrame(mk)
		s.markers[k].col = s.bodies[mk.Body].col
		markerBody[k] = int(mk.Body)
	}
	pairOf := func(what string, i, j MarkerID) (int, bool) {
		if !ck.MarkerPair(what, int(i), int(j), markerBody) {
			return -1, false
		}
		mi, mj := &s.markers[i-1], &s.markers[j-1]
		pr := pairRef{bi: mi.Body, bj: mj.Body, mi: &mi.frame, mj: &mj.frame}
		for k := range 7 {
			pr.col[k], pr.col[7+k] = -1, -1
			if c := mi.col; c >= 0 {
				pr.col[k] = c + k
			}
			if c := mj.col; c >= 0 {
				pr.col[7+k] = c + k
			}
		}
		s.pairs = append(s.pairs, pr)
		return len(s.pairs) - 1, true
	}

	var customs []assembly.ForceFunc

	s.joints = make([]jointData, len(m.joints))
	for k, js := range m.joints {
		kind := jointKindNames[js.kind]
		what := fmt.Sprintf("%s %q", kind, js.name)
		ck.Name(kind, js.name, k+1)
		spec := jointRows[js.kind]
		jd := jointData{name: js.name, kind: js.kind, first: s.nc, nrows: len(spec), pair: -1}
		rs := make([]row, len(spec))
		ok := false
		if js.kind == kindMotion {
			if js.drive == nil {
				bad("%s: no motion function", what)
			}
			if ja, okA := m.coordJoint(what, js.a, k, ck); okA && s.joints[ja].pair >= 0 && js.drive != nil {
				d := s.joints[ja]
				jd.pair, jd.coord, jd.hasCoord = d.pair, d.coord, true
				r := row{Terms: [2]rowTerm{{Pair: d.pair}}, Drive: js.drive}
				if d.coord.kind == coordAngle {
					// sin(β − f) = cos f·(y_Iᵀx_J) − sin f·(x_Iᵀx_J) on the joint.
					r.Trig, r.N = true, 2
					r.Terms[0] = rowTerm{Pair: d.pair, Coord: dotCoord(vYI, vXJ), W: 1, Kind: assembly.WeightCos}
					r.Terms[1] = rowTerm{Pair: d.pair, Coord: dotCoord(vXI, vXJ), W: 1, Kind: assembly.WeightNegSin}
				} else {
					r.N = 1
					r.Terms[0] = rowTerm{Pair: d.pair, Coord: d.coord, W: 1}
				}
				rs[0], ok = r, true
			}
		} else if js.kind == kindRollingDisk {
			if r, okD := s.addDisk(what, js, markerBody, ck); okD {
				rs[0], jd.pair, ok = r, r.Terms[0].Pair, true
			}
		} else if p, okP := pairOf(what, js.i, js.j); okP {
			jd.pair, ok = p, true
			for r, sp := range spec {
				rs[r] = row{N: 1, Terms: [2]rowTerm{{Pair: p, Coord: sp.c, W: 1}}}
			}
			switch js.kind {
			case kindRevolute:
				jd.coord, jd.hasCoord = angleCoord, true
			case kindTranslational, kindCylindrical, kindPointOnLine:
				jd.coord, jd.hasCoord = alongCoord, true
			case kindDistance:
				ck.Positive(what, "length", js.length)
				rs[0].C0 = js.length * js.length / 2
			}
		}
		if !ok { // keep row numbering (and names) even for a bad element
			for r := range rs {
				rs[r] = row{Terms: [2]rowTerm{{Pair: -1}}}
			}
		}
		s.rows = append(s.rows, rs...)
		suffixes := make([]string, len(spec))
		for r, sp := range spec {
			suffixes[r] = sp.suffix
		}
		names.AddJoint(js.name, kind, suffixes)
		s.nc += jd.nrows
		s.joints[k] = jd
	}

	if m.gravity != (Vec3{}) {
		names.AddForce("gravity", "gravity")
	}
	for k, fs := range m.forces {
		kind := forceKindNames[fs.kind]
		what := fmt.Sprintf("%s %q", kind, fs.name)
		ck.Name(kind, fs.name, k+1)
		names.AddForce(fs.name, kind)
		firstSD := len(s.sds)
		switch fs.kind {
		case kindTSDA:
			e := fs.tsda
			ck.SpringDamper(what, e.K, e.C, "FreeLength", e.FreeLength, true)
			if p, ok := pairOf(what, e.I, e.J); ok {
				s.sds = append(s.sds, assembly.NewSpringDamper(p, coord{kind: coordLength}, e.FreeLength, e.Spring, e.Damper, e.K, e.C, e.Actuator))
			}
		case kindRSDA:
			e := fs.rsda
			ck.SpringDamper(what, e.K, e.C, "FreeAngle", e.FreeAngle, false)
			i, j := e.I, e.J
			if e.Joint != 0 {
				if !ck.RevoluteJoint(what, int(e.Joint), len(m.joints), m.isRevolute) {
					break
				}
				i, j = m.joints[e.Joint-1].i, m.joints[e.Joint-1].j
			}
			if p, ok := pairOf(what, i, j); ok {
				s.sds = append(s.sds, assembly.NewSpringDamper(p, angleCoord, e.FreeAngle, e.Spring, e.Damper, e.K, e.C, e.Actuator))
			}
		case kindBushing:
			e := fs.bushing
			for a, ax := range []string{"x", "y", "z"} {
				ck.Finite(what, "K"+ax, e.K[a], "C"+ax, e.C[a], "KRot"+ax, e.KRot[a], "CRot"+ax, e.CRot[a])
			}
			if p, ok := pairOf(what, e.I, e.J); ok {
				trans := [3]coord{dotCoord(vXI, vD), dotCoord(vYI, vD), dotCoord(vZI, vD)}
				rot := [3]coord{
					dot2Coord(vZI, vYJ, 0.5, vYI, vZJ, -0.5),
					dot2Coord(vXI, vZJ, 0.5, vZI, vXJ, -0.5),
					dot2Coord(vYI, vXJ, 0.5, vXI, vYJ, -0.5),
				}
				for a := range 3 {
					s.sds = append(s.sds, assembly.NewSpringDamper(p, trans[a], 0, nil, nil, e.K[a], e.C[a], nil))
				}
				for a := range 3 {
					s.sds = append(s.sds, assembly.NewSpringDamper(p, rot[a], 0, nil, nil, e.KRot[a], e.CRot[a], nil))
				}
			}
		case kindPointForce:
			if !ck.Marker(what, int(fs.marker), markerBody) {
				break
			}
			mk := &s.markers[fs.marker-1]
			if mk.col < 0 {
				bad("%s: marker %d is on the ground, where a force does nothing", what, fs.marker)
				break
			}
			s.points = append(s.points, pointForce{col: mk.col, qs: mk.frame.qs, fn: fs.fn, global: fs.global})
		case kindTorque:
			if !ck.MovingBody(what, int(fs.body), len(m.bodies)) {
				break
			}
			s.torques = append(s.torques, torqueElem{col: s.bodies[fs.body].col, fn: fs.fn, global: fs.global})
		case kindCustom:
			if fs.custom == nil {
				bad("%s: no force function", what)
				break
			}
			customs = append(customs, fs.custom)
		}
		if len(s.sds) > firstSD {
			s.sdRange[fs.name] = [2]int{firstSD, len(s.sds)}
		}
	}
	m.assembleFriction(s, ck)
	if err := ck.Err(); err != nil {
		return nil, err
	}
	for r := range s.rows {
		rw := &s.rows[r]
		for i := range rw.N {
			s.pairs[rw.Terms[i].Pair].rows |= rw.Terms[i].Coord.needs()
			_, h := coordPattern(&rw.Terms[i].Coord)
			rw.Terms[i].Coord.curve = h.Support()
		}
	}
	s.customs = assembly.NewCustoms(s.nq, customs)
	s.driven = assembly.DrivenRows(s.rows)
	s.pattern = s.buildPattern()
	s.massPat = s.buildMassPattern()
	s.coupling = s.buildCoupling()
	s.Matrices.Init(s, s, s.nq, s.nc, assembly.Elements{Pairs: assembly.PairColumns(s.pairs, func(p *pairRef) []int { return p.col[:] }), RowPairs: assembly.RowTermPairs(s.rows, s.nbody, s.nc)})
	s.Frictions.Init(s, &s.Matrices)
	return s, nil
}

// isRevolute reports whether joint j (1-based) is a revolute joint.
func (m *Model) isRevolute(j int) bool { return m.joints[j-1].kind == kindRevolute }

// coordJoint resolves the joint a motion (joint number self) acts on: an index into joints
// below self.
func (m *Model) coordJoint(what string, j JointID, self int, ck *assembly.Checker) (int, bool) {
	if !ck.EarlierJoint(what, int(j), self) {
		return 0, false
	}
	switch m.joints[j-1].kind {
	case kindRevolute, kindTranslational, kindCylindrical, kindPointOnLine:
		return int(j - 1), true
	}
	ck.Bad("%s: joint %q is a %s, which has no joint coordinate (want revolute, translational, cylindrical or point-on-line)",
		what, m.joints[j-1].name, jointKindNames[m.joints[j-1].kind])
	return 0, false
}

// newMarkerFrame resolves a marker's axes (see Marker) and their quadratic forms.
func newMarkerFrame(mk Marker) markerFrame {
	z := mk.Axis
	if z == (Vec3{}) {
		z = Vec3{0, 0, 1}
	}
	z = z.Scale(1 / z.Norm())
	x := mk.XAxis.Sub(z.Scale(mk.XAxis.Dot(z)))
	// An XAxis within 1e-9 of parallel to z (or zero) is no direction: fall back.
	if n := x.Norm(); n <= 1e-9*mk.XAxis.Norm() || n == 0 {
		k := 0
		for a := 1; a < 3; a++ {
			if math.Abs(z[a]) < math.Abs(z[k]) {
				k = a
			}
		}
		var e Vec3
		e[k] = 1
		x = e.Sub(z.Scale(z[k]))
	}
	x = x.Scale(1 / x.Norm())
	y := z.Cross(x)
	f := markerFrame{s: mk.Point, axes: [3]Vec3{x, y, z}, qs: newQuadForm(mk.Point)}
	for a := range 3 {
		f.qa[a] = newQuadForm(f.axes[a])
	}
	return f
}

func finite(x float64) bool { return assembly.IsFinite(x) }

func finiteVec(v Vec3) bool { return finite(v[0]) && finite(v[1]) && finite(v[2]) }

// positiveDefinite reports whether J is finite, symmetric (to 1e-12 relative) and positive
// definite (Sylvester's criterion on the leading minors).
func positiveDefinite(J Mat3) bool {
	scale := 0.0
	for i := range 3 {
		for j := range 3 {
			if !finite(J[i][j]) {
				return false
			}
			scale = math.Max(scale, math.Abs(J[i][j]))
		}
	}
	for i := range 3 {
		for j := range i {
			if math.Abs(J[i][j]-J[j][i]) > 1e-12*scale {
				return false
			}
		}
	}
	m2 := J[0][0]*J[1][1] - J[0][1]*J[1][0]
	det := J[0][0]*(J[1][1]*J[2][2]-J[1][2]*J[2][1]) - J[0][1]*(J[1][0]*J[2][2]-J[1][2]*J[2][0]) +
		J[0][2]*(J[1][0]*J[2][1]-J[1][1]*J[2][0])
	return J[0][0] > 0 && m2 > 0 && det > 0
}
