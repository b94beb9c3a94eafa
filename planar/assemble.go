package planar

import (
	"errors"
	"fmt"
	"math"

	"linkage/assembly"
	"linkage/law"
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
}

// Assemble validates the model and builds its System. The error joins one message per bad
// element, each naming it: duplicate or empty names, non-positive or non-finite mass or
// inertia, non-finite parameters, markers on missing bodies, unknown markers or joints, a
// joint or element connecting a body to itself, a coupler or motion on a joint without a
// joint coordinate, missing functions.
func (m *Model) Assemble() (*System, error) {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf("planar: "+format, a...)) }

	s := &System{gravity: m.gravity}
	if !finite(m.gravity[0]) || !finite(m.gravity[1]) {
		bad("gravity = %v is not finite", m.gravity)
	}
	bodyNames := map[string]bool{}
	s.bodies = make([]bodyData, len(m.bodies))
	for k, b := range m.bodies {
		s.bodies[k] = bodyData{Body: b, col: 3 * (k - 1)}
		if k == 0 {
			s.bodies[k].col = -1
			bodyNames[b.Name] = true
			continue
		}
		switch {
		case b.Name == "":
			bad("body %d has no name", k)
		case bodyNames[b.Name]:
			bad("body %d: duplicate body name %q", k, b.Name)
		}
		bodyNames[b.Name] = true
		if !(b.Mass > 0) || math.IsInf(b.Mass, 0) {
			bad("body %q: mass = %g, want finite and > 0", b.Name, b.Mass)
		}
		if !(b.Inertia > 0) || math.IsInf(b.Inertia, 0) {
			bad("body %q: inertia = %g, want finite and > 0", b.Name, b.Inertia)
		}
		for _, x := range []float64{b.Pos[0], b.Pos[1], b.Angle, b.Vel[0], b.Vel[1], b.AngVel} {
			if !finite(x) {
				bad("body %q: initial pose or velocity (%v, %g, %v, %g) is not finite", b.Name, b.Pos, b.Angle, b.Vel, b.AngVel)
				break
			}
		}
		s.coordNames = append(s.coordNames, b.Name+".x", b.Name+".y", b.Name+".theta")
	}
	s.nq = 3 * (len(m.bodies) - 1)

	markerOK := make([]bool, len(m.markers)+1)
	s.markers = make([]markerData, len(m.markers))
	for k, mk := range m.markers {
		s.markers[k] = markerData{Marker: mk, col: -1}
		label := markerLabel(mk, MarkerID(k+1))
		if mk.Body < 0 || int(mk.Body) >= len(m.bodies) {
			bad("%s: body %d does not exist (bodies 0..%d)", label, mk.Body, len(m.bodies)-1)
			continue
		}
		if !finite(mk.Point[0]) || !finite(mk.Point[1]) || !finite(mk.Angle) {
			bad("%s: point %v or angle %g is not finite", label, mk.Point, mk.Angle)
			continue
		}
		s.markers[k].col = s.bodies[mk.Body].col
		markerOK[k+1] = true
	}
	// pairOf resolves two markers of element what into a pair.
	pairOf := func(what string, i, j MarkerID) (int, bool) {
		ok := true
		for _, id := range []MarkerID{i, j} {
			if id < 1 || int(id) > len(m.markers) {
				bad("%s: marker %d does not exist (markers 1..%d)", what, id, len(m.markers))
				ok = false
			} else if !markerOK[id] {
				ok = false // reported with the marker
			}
		}
		if !ok {
			return -1, false
		}
		mi, mj := m.markers[i-1], m.markers[j-1]
		if mi.Body == mj.Body {
			bad("%s: markers %d and %d are both on body %q; want two different bodies", what, i, j, m.bodies[mi.Body].Name)
			return -1, false
		}
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
	names := map[string]string{} // joint and force names share one namespace (row names)
	useName := func(kind, name string, idx int) bool {
		if name == "" {
			bad("%s %d has no name", kind, idx)
			return false
		}
		if prev, dup := names[name]; dup {
			bad("%s %q: duplicate name (already a %s)", kind, name, prev)
			return false
		}
		names[name] = kind
		return true
	}

	s.joints = make([]jointData, len(m.joints))
	for k, js := range m.joints {
		kind := jointKindNames[js.kind]
		what := fmt.Sprintf("%s %q", kind, js.name)
		useName(kind, js.name, k+1)
		jd := jointData{name: js.name, kind: js.kind, first: s.nc, nrows: len(rowSuffixes[js.kind]), pair: -1}
		var rs []row
		switch js.kind {
		case kindCoupler, kindMotion:
			ja, okA := m.coordJoint(what, js.a, k, bad)
			okA = okA && s.joints[ja].pair >= 0
			if js.kind == kindMotion {
				if js.drive == nil {
					bad("%s: no motion function", what)
				}
				if okA {
					jd.pair, jd.coord, jd.hasCoord = s.joints[ja].pair, s.joints[ja].coord, true
					rs = []row{{terms: [2]term{{pair: jd.pair, kind: jd.coord, w: 1}}, n: 1, drive: js.drive}}
				}
				break
			}
			jb, okB := m.coordJoint(what, js.b, k, bad)
			okB = okB && s.joints[jb].pair >= 0
			if !finite(js.ratio) || !finite(js.offset) {
				bad("%s: ratio %g or offset %g is not finite", what, js.ratio, js.offset)
			}
			if okA && okB && ja == jb {
				bad("%s: couples joint %q with itself", what, s.joints[ja].name)
			}
			if okA && okB {
				a, b := s.joints[ja], s.joints[jb]
				jd.pair = b.pair
				rs = []row{{terms: [2]term{{pair: b.pair, kind: b.coord, w: 1}, {pair: a.pair, kind: a.coord, w: -js.ratio}}, n: 2, c0: js.offset}}
			}
		default:
			p, ok := pairOf(what, js.i, js.j)
			if !ok {
				break
			}
			jd.pair = p
			one := func(c coordKind) row { return row{terms: [2]term{{pair: p, kind: c, w: 1}}, n: 1} }
			switch js.kind {
			case kindRevolute:
				rs = []row{one(coordDx), one(coordDy)}
				jd.coord, jd.hasCoord = coordAngle, true
			case kindTranslational:
				rs = []row{one(coordNormal), one(coordAngle)}
				jd.coord, jd.hasCoord = coordAlong, true
			case kindDistance:
				if !(js.length > 0) || math.IsInf(js.length, 0) {
					bad("%s: length = %g, want finite and > 0", what, js.length)
				}
				r := one(coordDist2)
				r.c0 = js.length * js.length / 2
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
		for r, suf := range rowSuffixes[js.kind] {
			s.rows = append(s.rows, rs[r])
			s.rowNames = append(s.rowNames, js.name+"."+suf)
		}
		s.nc += jd.nrows
		s.joints[k] = jd
	}

	if m.gravity != (Vec{}) {
		s.forces = append(s.forces, ElementInfo{Name: "gravity", Kind: "gravity"})
	}
	for k, fs := range m.forces {
		kind := forceKindNames[fs.kind]
		what := fmt.Sprintf("%s %q", kind, fs.name)
		useName(kind, fs.name, k+1)
		s.forces = append(s.forces, ElementInfo{Name: fs.name, Kind: kind})
		switch fs.kind {
		case kindTSDA:
			e := fs.tsda
			checkFinite(bad, what, "K", e.K, "C", e.C, "FreeLength", e.FreeLength)
			if e.FreeLength < 0 {
				bad("%s: FreeLength = %g, want >= 0", what, e.FreeLength)
			}
			if p, ok := pairOf(what, e.I, e.J); ok {
				s.sds = append(s.sds, newSpringDamper(p, coordLength, e.FreeLength, e.Spring, e.Damper, e.K, e.C, e.Actuator))
			}
		case kindRSDA:
			e := fs.rsda
			checkFinite(bad, what, "K", e.K, "C", e.C, "FreeAngle", e.FreeAngle)
			i, j := e.I, e.J
			if e.Joint != 0 {
				if e.Joint < 0 || int(e.Joint) > len(m.joints) || m.joints[e.Joint-1].kind != kindRevolute {
					bad("%s: joint %d is not a revolute joint of the model", what, e.Joint)
					break
				}
				i, j = m.joints[e.Joint-1].i, m.joints[e.Joint-1].j
			}
			if p, ok := pairOf(what, i, j); ok {
				s.sds = append(s.sds, newSpringDamper(p, coordAngle, e.FreeAngle, e.Spring, e.Damper, e.K, e.C, e.Actuator))
			}
		case kindBushing:
			e := fs.bushing
			checkFinite(bad, what, "Kx", e.Kx, "Ky", e.Ky, "Ktheta", e.Ktheta, "Cx", e.Cx, "Cy", e.Cy, "Ctheta", e.Ctheta)
			if p, ok := pairOf(what, e.I, e.J); ok {
				s.sds = append(s.sds,
					newSpringDamper(p, coordAlong, 0, nil, nil, e.Kx, e.Cx, nil),
					newSpringDamper(p, coordNormal, 0, nil, nil, e.Ky, e.Cy, nil),
					newSpringDamper(p, coordAngle, 0, nil, nil, e.Ktheta, e.Ctheta, nil))
			}
		case kindPointForce:
			if fs.marker < 1 || int(fs.marker) > len(m.markers) {
				bad("%s: marker %d does not exist (markers 1..%d)", what, fs.marker, len(m.markers))
				break
			}
			if !markerOK[fs.marker] {
				break
			}
			mk := s.markers[fs.marker-1]
			if mk.col < 0 {
				bad("%s: marker %d is on the ground, where a force does nothing", what, fs.marker)
				break
			}
			s.points = append(s.points, pointForce{col: mk.col, s: mk.Point, phi: mk.Angle, fx: fs.fx, fy: fs.fy, global: fs.global})
		case kindTorque:
			if fs.body < 1 || int(fs.body) >= len(m.bodies) {
				bad("%s: body %d is not a moving body (bodies 1..%d)", what, fs.body, len(m.bodies)-1)
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
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	s.customs = assembly.NewCustoms(s.nq, customs)
	s.pattern = s.buildPattern()
	s.coupling = s.buildCoupling()
	return s, nil
}

// coordJoint resolves the joint a coupler or motion (joint number self) acts on: an index
// into joints below self.
func (m *Model) coordJoint(what string, j JointID, self int, bad func(string, ...any)) (int, bool) {
	if j < 1 || int(j) > self {
		bad("%s: joint %d does not exist before it (joints 1..%d)", what, j, self)
		return 0, false
	}
	switch m.joints[j-1].kind {
	case kindRevolute, kindTranslational, kindPointOnLine:
		return int(j - 1), true
	}
	bad("%s: joint %q is a %s, which has no joint coordinate (want revolute, translational or point-on-line)",
		what, m.joints[j-1].name, jointKindNames[m.joints[j-1].kind])
	return 0, false
}

func markerLabel(mk Marker, id MarkerID) string {
	if mk.Name != "" {
		return fmt.Sprintf("marker %q", mk.Name)
	}
	return fmt.Sprintf("marker %d", id)
}

// checkFinite reports every named parameter that is NaN or infinite.
func checkFinite(bad func(string, ...any), what string, kv ...any) {
	for k := 0; k+1 < len(kv); k += 2 {
		if x := kv[k+1].(float64); !finite(x) {
			bad("%s: %s = %g is not finite", what, kv[k], x)
		}
	}
}

func newSpringDamper(p int, kind coordKind, free float64, spring, damper law.Force, k, c float64, act law.Func) springDamper {
	if spring == nil {
		spring = law.Linear{K: k}
	}
	if damper == nil {
		damper = law.Linear{K: c}
	}
	pot, _ := spring.(law.Potential)
	return springDamper{pair: p, kind: kind, free: free, spring: spring, damper: damper, pot: pot, act: act}
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
