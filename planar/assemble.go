package planar

import (
	"fmt"

	"linkage/assembly"
)

// assemble.go: Model ⇒ System. Offsets into q (3 per moving body, in the order added),
// constraint rows (in the order joints were added) and every element's pair of markers are
// fixed here; evaluations only walk these flat slices.

// rowSuffixes are the names of each joint kind's rows.
var rowSuffixes = [...][]string{
	kindRevolute:      {"x", "y"},
	kindTranslational: {"n", "theta"},
	kindDistance:      {"d"},
	kindWeld:          {"x", "y", "theta"},
	kindPointOnLine:   {"n"},
	kindCoupler:       {"c"},
	kindMotion:        {"c"},
	kindCam:           {"x", "y"},
}

// Assemble validates the model and builds its System. The error joins one message per bad
// element, each naming it: duplicate or empty names, non-positive or non-finite mass or
// inertia, non-finite parameters, markers on missing bodies, unknown markers or joints, a
// joint or element connecting a body to itself, a coupler or motion on a joint without a
// joint coordinate, missing functions.
func (m *Model) Assemble() (*System, error) {
	ck := assembly.NewChecker("planar")
	bad := ck.Bad

	s := &System{gravity: m.gravity, sdRange: map[string][2]int{}}
	names := assembly.WriteCatalog(&s.Catalog)
	if !finite(m.gravity[0]) || !finite(m.gravity[1]) {
		bad("gravity = %v is not finite", m.gravity)
	}
	s.bodies = make([]bodyData, len(m.bodies))
	for k, b := range m.bodies {
		s.bodies[k] = bodyData{Body: b, col: 3 * (k - 1)}
		ck.Body(k, b.Name)
		if k == 0 {
			s.bodies[k].col = -1
			names.AddBody(b.Name, "ground", nil)
			continue
		}
		what := fmt.Sprintf("body %q", b.Name)
		if m.flexOf(k) != nil {
			names.AddBody(b.Name, "flexible body", nil)
			s.bodies[k].Mass, s.bodies[k].Inertia = 0, 0 // the beam's mass terms replace them (flexible.go)
		} else {
			names.AddBody(b.Name, "body", nil)
			ck.Positive(what, "mass", b.Mass)
			ck.NonNegative(what, "inertia", b.Inertia) // 0: a point mass (M singular, regular on ker G: PointMassCheck)
		}
		for _, x := range []float64{b.Pos[0], b.Pos[1], b.Angle, b.Vel[0], b.Vel[1], b.AngVel} {
			if !finite(x) {
				bad("body %q: initial pose or velocity (%v, %g, %v, %g) is not finite", b.Name, b.Pos, b.Angle, b.Vel, b.AngVel)
				break
			}
		}
		names.AddCoordinates(b.Name, ".x", ".y", ".theta")
	}
	s.nq = 3 * (len(m.bodies) - 1)
	s.setupBeams(m, ck, names)

	markerBody := make([]int, len(m.markers)) // −1 for a bad marker (reported with it)
	s.markers = make([]markerData, len(m.markers))
	s.flexMarkers = make([]*flexMarker, len(m.markers))
	for k, mk := range m.markers {
		s.markers[k] = markerData{Marker: mk, col: -1}
		markerBody[k] = -1
		label := assembly.MarkerLabel(mk.Name, k+1)
		if !ck.MarkerBody(label, int(mk.Body), len(m.bodies)) {
			continue
		}
		if !finite(mk.Point[0]) || !finite(mk.Point[1]) || !finite(mk.Angle) {
			bad("%s: point %v or angle %g is not finite", label, mk.Point, mk.Angle)
			continue
		}
		s.markers[k].col = s.bodies[mk.Body].col
		markerBody[k] = int(mk.Body)
		if beam := m.flexOf(int(mk.Body)); beam != nil {
			s.resolveFlexMarker(ck, label, k, mk, beam)
		}
	}
	// pairOf resolves two markers of element what into a pair.
	pairOf := func(what string, i, j MarkerID) (int, bool) {
		if !ck.MarkerPair(what, int(i), int(j), markerBody) {
			return -1, false
		}
		mi, mj := m.markers[i-1], m.markers[j-1]
		pr := pairRef{bi: mi.Body, bj: mj.Body, si: mi.Point, sj: mj.Point, phiI: mi.Angle, phiJ: mj.Angle}
		for k := range 3 {
			pr.col[k], pr.col[3+k] = -1, -1
			if c := s.bodies[mi.Body].col; c >= 0 {
				pr.col[k] = c + k
			}
			if c := s.bodies[mj.Body].col; c >= 0 {
				pr.col[3+k] = c + k
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
		jd := jointData{name: js.name, kind: js.kind, first: s.nc, nrows: len(rowSuffixes[js.kind]), pair: -1}
		var rs []row
		switch js.kind {
		case kindCoupler, kindMotion:
			ja, okA := m.coordJoint(what, js.a, k, ck)
			okA = okA && s.joints[ja].pair >= 0
			if js.kind == kindMotion {
				if js.drive == nil {
					bad("%s: no motion function", what)
				}
				if okA {
					s.checkFlexElement(ck, what, true, true, m.joints[ja].i, m.joints[ja].j)
					jd.pair, jd.coord, jd.hasCoord = s.joints[ja].pair, s.joints[ja].coord, true
					rs = []row{{Terms: [2]term{{Pair: jd.pair, Coord: jd.coord, W: 1}}, N: 1, Drive: js.drive}}
				}
				break
			}
			jb, okB := m.coordJoint(what, js.b, k, ck)
			okB = okB && s.joints[jb].pair >= 0
			if !finite(js.ratio) || !finite(js.offset) {
				bad("%s: ratio %g or offset %g is not finite", what, js.ratio, js.offset)
			}
			if okA && okB && ja == jb {
				bad("%s: couples joint %q with itself", what, s.joints[ja].name)
			}
			if okA && okB {
				s.checkFlexElement(ck, what, true, true, m.joints[ja].i, m.joints[ja].j, m.joints[jb].i, m.joints[jb].j)
				a, b := s.joints[ja], s.joints[jb]
				jd.pair = b.pair
				rs = []row{{Terms: [2]term{{Pair: b.pair, Coord: b.coord, W: 1}, {Pair: a.pair, Coord: a.coord, W: -js.ratio}}, N: 2, C0: js.offset}}
			}
		default:
			p, ok := pairOf(what, js.i, js.j)
			if !ok {
				break
			}
			jd.pair = p
			s.checkFlexElement(ck, what, js.kind == kindRevolute, js.kind != kindRevolute && js.kind != kindDistance, js.i, js.j)
			if js.kind == kindCam && s.flexMarkerOf(js.i) != nil {
				bad("%s: marker %d is on a flexible body; a cam's contour is rigid", what, js.i)
			}
			if js.kind == kindRevolute {
				s.addRevoluteOffsets(s.nc, js.i, js.j)
			}
			one := func(c coordKind) row { return row{Terms: [2]term{{Pair: p, Coord: c, W: 1}}, N: 1} }
			switch js.kind {
			case kindRevolute:
				rs = []row{one(coordDx), one(coordDy)}
				jd.coord, jd.hasCoord = coordAngle, true
			case kindCam:
				rs = []row{one(coordDx), one(coordDy)}
				s.addCam(ck, names, what, js, p)
			case kindTranslational:
				rs = []row{one(coordNormal), one(coordAngle)}
				jd.coord, jd.hasCoord = coordAlong, true
			case kindDistance:
				ck.Positive(what, "length", js.length)
				r := one(coordDist2)
				r.C0 = js.length * js.length / 2
				rs = []row{r}
			case kindWeld:
				rs = []row{one(coordDx), one(coordDy), one(coordAngle)}
			case kindPointOnLine:
				rs = []row{one(coordNormal)}
				jd.coord, jd.hasCoord = coordAlong, true
			}
		}
		if rs == nil { // keep row numbering (and names) even for a bad element
			rs = make([]row, jd.nrows)
		}
		s.rows = append(s.rows, rs...)
		names.AddJoint(js.name, kind, rowSuffixes[js.kind])
		s.nc += jd.nrows
		s.joints[k] = jd
	}

	if m.gravity != (Vec{}) {
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
			s.checkFlexElement(ck, what, false, false, e.I, e.J)
			if p, ok := pairOf(what, e.I, e.J); ok {
				s.sds = append(s.sds, assembly.NewSpringDamper(p, coordLength, e.FreeLength, e.Spring, e.Damper, e.K, e.C, e.Actuator))
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
			s.checkFlexElement(ck, what, true, true, i, j)
			if p, ok := pairOf(what, i, j); ok {
				s.sds = append(s.sds, assembly.NewSpringDamper(p, coordAngle, e.FreeAngle, e.Spring, e.Damper, e.K, e.C, e.Actuator))
			}
		case kindBushing:
			e := fs.bushing
			ck.Finite(what, "Kx", e.Kx, "Ky", e.Ky, "Ktheta", e.Ktheta, "Cx", e.Cx, "Cy", e.Cy, "Ctheta", e.Ctheta)
			s.checkFlexElement(ck, what, false, true, e.I, e.J)
			if p, ok := pairOf(what, e.I, e.J); ok {
				s.sds = append(s.sds,
					assembly.NewSpringDamper(p, coordAlong, 0, nil, nil, e.Kx, e.Cx, nil),
					assembly.NewSpringDamper(p, coordNormal, 0, nil, nil, e.Ky, e.Cy, nil),
					assembly.NewSpringDamper(p, coordAngle, 0, nil, nil, e.Ktheta, e.Ctheta, nil))
			}
		case kindPointForce:
			if !ck.Marker(what, int(fs.marker), markerBody) {
				break
			}
			s.checkFlexElement(ck, what, false, !fs.global, fs.marker)
			mk := s.markers[fs.marker-1]
			if mk.col < 0 {
				bad("%s: marker %d is on the ground, where a force does nothing", what, fs.marker)
				break
			}
			s.points = append(s.points, pointForce{col: mk.col, s: mk.Point, phi: mk.Angle, fx: fs.fx, fy: fs.fy, global: fs.global})
		case kindTorque:
			if !ck.MovingBody(what, int(fs.body), len(m.bodies)) {
				break
			}
			if fs.torque == nil {
				bad("%s: no torque function", what)
				break
			}
			s.torques = append(s.torques, torqueElem{col: s.bodies[fs.body].col, tau: fs.torque})
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
	m.assembleKnives(s, ck, markerBody)
	if err := ck.Err(); err != nil {
		return nil, err
	}
	s.customs = assembly.NewCustoms(s.nq, customs)
	s.driven = assembly.DrivenRows(s.rows)
	s.weights = s.bodyWeights()
	s.pattern = s.buildPattern()
	s.massPattern = s.buildMassPattern()
	s.coupling = s.buildCoupling()
	s.buildKnifePattern()
	s.Matrices.Init(s, s, s.nq, s.nc, assembly.Elements{Pairs: assembly.PairColumns(s.pairs, func(p *pairRef) []int { return p.col[:] }), RowPairs: assembly.RowTermPairs(s.rows, 0, s.nc)})
	s.Frictions.Init(s, &s.Matrices)
	return s, nil
}

// isRevolute reports whether joint j (1-based) is a revolute joint.
func (m *Model) isRevolute(j int) bool { return m.joints[j-1].kind == kindRevolute }

// coordJoint resolves the joint a coupler or motion (joint number self) acts on: an index
// into joints below self.
func (m *Model) coordJoint(what string, j JointID, self int, ck *assembly.Checker) (int, bool) {
	if !ck.EarlierJoint(what, int(j), self) {
		return 0, false
	}
	switch m.joints[j-1].kind {
	case kindRevolute, kindTranslational, kindPointOnLine:
		return int(j - 1), true
	}
	ck.Bad("%s: joint %q is a %s, which has no joint coordinate (want revolute, translational or point-on-line)",
		what, m.joints[j-1].name, jointKindNames[m.joints[j-1].kind])
	return 0, false
}

func finite(x float64) bool { return assembly.IsFinite(x) }
